"""Every tuning number of the dice reader, with its unit in the name or a comment.

The colours are the reader's own reference: the synthetic dice photos (tools/synth) keep
colours of their own, off these on purpose, as a real set is. A reading decision that
changes should be a one-line change here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

# --- the dice -----------------------------------------------------------------------------------
# Nominal die colours in sRGB (R, G, B), as seen under white light on a flat top face.
DIE_COLOURS_RGB: Mapping[str, tuple[int, int, int]] = MappingProxyType({
    "carrot": (236, 118, 28),
    "mushroom": (204, 170, 122),
    "onion": (176, 78, 168),
    "pepper": (62, 150, 66),
    "tomato": (204, 34, 40),
})
# Pip centres sit on a 3x3 lattice; its spacing as a fraction of the die edge.
PIP_LATTICE_FRACTION = 0.26
PIP_DIAMETER_FRACTION = 0.13  # pip diameter / die edge: under our round pips, so small ones fit

# Lattice positions (row, col in -1..1) of each standard face; faces 2, 3 and 6 also occur
# turned a quarter, which the matcher tries as well.
PIP_LAYOUTS: Mapping[int, tuple[tuple[int, int], ...]] = MappingProxyType({
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    5: ((-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)),
    6: ((-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)),
})

# --- working resolution ---------------------------------------------------------------------------
DETECT_LONG_SIDE_PX = 1024  # the block is found on a copy this size
CELL_PATCH_PX = 64  # each cell is resampled to a square this size (one grid pitch)
CELL_MASK_PX = 16  # and its foreground mask to this size
# Cells are read from a copy scaled so one pitch is about this many pixels (never upscaled).
READ_PITCH_PX = 72.0
# A photo this long or longer (a phone's own, 4,000 px at 12 MP) is shrunk for the gate's
# thumbnail, the detection copy and the reading copy by exact halvings first
# (vision/shrink.py: a tenth less CPU a 12 MP photo, its dice read as right); smaller ones,
# the benchmark's 1,600 px photos among them, in one step as before.
HALVE_FROM_PX = 3000
# the lattice's phase probe (nine cells) finding fewer dice than this: the seams may repeat at
# two dice (spaced dice), so the lattice at half the pitch is probed too; it is taken when
# most of its probed cells (this many of nine) show faces the dice have, more than the first
PROBE_HALF_PITCH_BELOW = 3
PROBE_HALF_PITCH_FACES = 5

# --- finding the block ----------------------------------------------------------------------------
BORDER_BAND_FRACTION = 0.04  # width of the frame border sampled as table, of the short side
BACKGROUND_CLUSTERS = 4  # k-means colours describing a (textured) table
MIN_BLOCK_AREA_FRACTION = 0.002  # smaller foreground than this fraction of the frame: no dice
CLOSE_UP_SIDE_SHARE = 0.3  # a block covering this share of two frame sides fills the frame
MIN_PITCH_PX = 12  # on the detection copy
# A half-pitch autocorrelation peak at least this strong relative to the full one wins.
HALF_PITCH_RATIO = 0.6
PITCH_PRIOR_TOLERANCE = 0.25  # with the mat, the pitch may differ this much from its prior
MAX_CELL_OFFSET_PITCH = 0.3  # pitch units: a die centre farther off its cell is rejected
SURE_CELL_OFFSET_PITCH = 0.15  # pitch units: a die farther off its cell goes to review
REFINE_ROUNDS = 3  # grid refits to the die centres found, at most
REFIT_MAX_SCALE_CHANGE = 0.2  # a refit may change the pitch by this fraction at most
REFIT_MAX_TURN_DEG = 10.0  # and turn a grid axis by this much at most
REFINE_SETTLED_PITCH = 0.05  # pitch units: a refit moving cells less than this is final
GROW_ROUNDS = 2  # the lattice grows at most this many cells beyond its ring of empty cells

# --- the mat --------------------------------------------------------------------------------------
# The mat's markers, papers and die size come from its layout (``layouts.dice_mat``).
MAT_SHEET = "diced-veggies-mat"
MAT_MAX_RESIDUAL_MM = 3.0  # marker corners farther than this from the fit: not our mat
# Dice tops may appear this far outside the printed block area (mm): less on the corner
# guide's sides (the frame stood there), more on the open sides (parallax, a loose block).
MAT_AREA_MARGIN_MM = (14.0, 32.0)
# Bounds for a die's top-face centre: a nudged, turned block may stray a little.
MAT_CENTRE_MARGIN_MM = (6.0, 24.0)
TOP_FACE_SCALE = 1.05  # dice tops stand above the paper, so they look this much larger
MAT_CHROMA_MIN = 9.0  # Lab chroma after balancing on the paper: the grey print stays below

# --- reading a cell -------------------------------------------------------------------------------
FACE_HALF_FRACTION = 0.42  # pips are searched within this half-width of the cell (pitch units)
PIP_MIN_CONTRAST = 22.0  # grey levels (0-255): weaker blobs are not pips
# the same for pale pips as bright as their face, in colour off the face's own shade, which
# no shading or shadow makes: on the empty table cells of 60 wider tuning photos no pip-like
# pattern there reached 2.3; the pale pips of tan dice on wood give 5 to 20
PIP_MIN_OFF_SHADE = 4.5
# Fainter blobs, down to PIP_FAINT_SHARE of that, make a face of two or more pips only on a
# standard layout whose weakest pip stands at least PIP_FAINT_MARGIN times above anything
# else on the die's lattice: drilled pips on a pale die under a dim lamp (a tan 2 of the
# pips tuning set, contrast 18, margin 20, was missed). On the 950 tuning photos (wide,
# narrow, warm-wood, stone, wider, warm-mat, pips, pips-warm, satin, two-lamp) 0.6 and 10
# put 3 dice right and none wrong read alone, 1 right and none wrong with learnt colours
# (wider, pips, satin, two-lamp); 0.5 and 5 (before the cell had to be unlike the table,
# cell.read_cell) made 2 phantom dice and 6 wrong ones.
PIP_FAINT_SHARE = 0.6
PIP_FAINT_MARGIN = 10.0
PIP_REL_THRESHOLD = 0.42  # a pip blob must reach this fraction of the die's strongest blob
PIP_SURE_RATIO = 1.8  # weakest pip / strongest non-pip response for a sure count
PIP_LAYOUT_TOLERANCE = 0.3  # lattice units: blob-to-lattice distance allowed
PIP_SPACING_RANGE = (0.85, 1.2)  # measured pip spacing / expected, allowed
# a face whose pips' step differs from the median step of the photo's faces of three pips
# or more (at least this many) by more than this share goes to review
PIP_STEP_TOLERANCE = 0.15
PIP_STEP_MIN_FACES = 3
PIP_COLOUR_SPREAD = 0.4  # a pip's colour may stray this share of the pip-to-face distance
PIP_SATURATION_RATIO = 0.5  # a light pip: at most this far from the palest blob to the face
PIP_SATURATION_MIN_FACE = 0.15  # below this face saturation the test above is skipped
PIP_SATURATION_MIN_GAP = 0.1  # and when the palest blob is within this of the face
PIP_MIN_MARGIN = 1.3  # a die's pips must stand at least this clear of the next blob
PIP_ALONE_MARGIN = 1.8  # pips this clear mark a die even where its colour matches the table
# a count the paint could not check (paint.py undecided) is sure only with its pips this clear
# (on the wider tuning photos every such die read wrong lay below 6.1, every right one above 7.4);
# on the mat, a pale die's pips this clear need the paint only to count as many, not to be
# clear at every point (reader._clear_by_far: one tan 3 found on the 950 tuning photos, none
# made worse, no phantom)
PIP_UNCHECKED_SURE_MARGIN = 8.0
# Ingredient colour: log-chromaticity (ln R/G, ln B/G) after white balance. A die's colour
# is this many spread units from its class centroid at most, and the runner-up must be this
# much farther for a sure reading.
COLOUR_SPREAD = 0.11  # log units, typical scatter of one class under our lighting
COLOUR_MAX_DISTANCE = 3.5  # spread units
COLOUR_UNKNOWN_CONFIDENCE = 0.6  # a die farther than that from its family goes to review
COLOUR_SURE_MARGIN = 2.0  # spread units
SELF_BALANCE_MIN_CLASSES = 3  # re-centre the colours on the dice themselves with this many
SELF_BALANCE_MAX_SHIFT = 0.35  # log units
# Presence, from the share of a cell's centre that differs from the table (or is coloured,
# on the mat): some colour is there above OCCUPIED_MIN; above PRESENT_SURE_ABOVE a die is
# there even when its pips cannot be read (it then goes to review).
OCCUPIED_MIN = 0.2
PRESENT_SURE_ABOVE = 0.6
TABLE_LIKE_PRESENCE = 0.6  # pips on table-coloured ground the paint does not confirm: review
# A face whose quadrants differ in log-chromaticity by more than this is the corners of
# several dice (a grid off by half a die), not one die: never read as a sure die.
FACE_MIXED_LOG_CHROMA = 0.35
# A cell beside the read dice that is not read as a die but whose centre is at least this
# share unlike the table is reported as a gap: a die may stand there unread.
GAP_MIN_OCCUPIED = 0.2
# A blob the size of a die at most this share of its own width from the block joins it
# (spaced dice on a dark table, whose shadows and side walls look like the table)
BLOCK_JOIN_WIDTH = 0.35
# A cell whose centre is less unlike the table than every share above, and whose blobs make
# no standard face, counts for nothing (no die, no gap, no white pips): it is not read further
PLAIN_EMPTY_BELOW = min(OCCUPIED_MIN, PRESENT_SURE_ABOVE, GAP_MIN_OCCUPIED)

# --- confidence -----------------------------------------------------------------------------------
REVIEW_BELOW = 0.8  # a die whose confidence is below this goes to review

# --- overlay --------------------------------------------------------------------------------------
OVERLAY_GRID_BGR = (255, 220, 0)
OVERLAY_TEXT_BGR = (255, 255, 255)
OVERLAY_REVIEW_BGR = (0, 140, 255)
OVERLAY_LEGAL_BGR = (40, 200, 40)
OVERLAY_ILLEGAL_BGR = (40, 40, 230)

# --- the gate: is there a block at all (on a thumbnail) -------------------------------------------
GATE_LONG_SIDE_PX = 256  # thumbnail long side
GATE_WHITE_PERCENTILE = 97.0  # the photo's white: the brightest unclipped pixels above this
GATE_WHITE_LEVEL = 242.0  # the white reference is scaled to this grey level
GATE_CHROMA_MIN = 22.0  # Lab chroma after balancing: at least this is die-like colour
GATE_L_MIN = 18.0  # Lab L: darker pixels carry no trustworthy colour
GATE_TABLE_AB = 14.0  # Lab a*b* distance from a coloured table's colour to count as a die
GATE_MIN_SPREAD = 3.0  # grey-level standard deviation: below this the photo is blank
GATE_MIN_COLOURED_SHARE = 0.002  # share of the frame: less die-like colour than this, no block
GATE_FACE_MIN_LOG_CHROMA = 0.12  # a face this close to white (log-chroma units) is no veggie
GATE_MIN_SURE_DICE = 3  # a reading with fewer sure dice than this
GATE_MIN_SURE_SHARE = 0.5  # and fewer than this share of its dice sure is no block
CLOSE_UP_MIN_COLOURED = 0.25  # a frame-filling block shows at least this share of colour
GATE_BLOCK_MIN_COLOURED = 0.2  # share of the block's mask with die-like colour, at least

# --- colour families, judged on all the photo's dice together (log-chromaticity units) -----------
FAMILY_SHIFT_SPAN = 0.6  # the light's shift left after the white reference, searched within
FAMILY_SHIFT_STEP = 0.03
FAMILY_SATURATIONS = (0.55, 0.7, 0.85, 1.0, 1.15, 1.3)  # dice chroma / the reference, per axis
FAMILY_SATURATION_SIGMA = 0.25  # prior spread of ln(saturation)
FAMILY_ROBUST_CAP = 4.0  # spread units: a die farther from every family counts this much
FAMILY_PRIOR_SURE = 0.12  # prior spread of the shift when the white came from paper or pips
FAMILY_PRIOR_LOOSE = 0.5  # and when it came from the photo's brightest pixels
FAMILY_ROUNDS = 2  # the families' own centres are re-found this many times
FAMILY_MIN_MEMBERS = 2  # a family needs this many dice to move its centre
FAMILY_MAX_DRIFT = 0.12  # and moves it at most this far towards any other family
FAMILY_MAX_DRIFT_AWAY = 0.5  # and at most this far in all
# a rival light fit naming at least this many dice otherwise, whose cost (squared spread
# units summed over the dice) is within this of the best fit's, sends those dice to review
FAMILY_RIVAL_MIN_DICE = 3
FAMILY_RIVAL_COST = 10.0
FAMILY_SURE_MARGIN = 2.0  # spread units between the two nearest families for a sure name
COLOUR_LEVEL_NOISE = 4.0  # grey levels of light a face's colour may gain or lose
FAMILY_TWIN_GAP = 2.0  # spread units: two dice this alike but named apart both go to review
FAMILY_SCATTER_MIN_DICE = 4  # a family's own scatter is measured from this many dice
# A full starting block: 35 dice, 7 of each family. Its dice are grouped in fives of seven
# this many times at most; every die must lie at least this much (spread units) nearer its
# own group than any other for the groups to be taken as the families; a naming of the
# groups whose cost is within this of the best's leaves their dice in doubt.
FULL_BLOCK_DICE = 35
SEVEN_EACH_ROUNDS = 5
SEVEN_EACH_MARGIN = 0.5
SEVEN_EACH_RIVAL_COST = 10.0
# Where no naming fits well (a lamp and a white that is only the photo's own), a naming
# whose cost is within this share of the best's is nearly as good too. On the tuning sets'
# game starts (wider 0-119, pips 0-89) every rightly named full block's runner-up costs at
# least 0.457 of the best's more; the one full block named with three families rotated
# (pips 041: a 3,549 K lamp on wood, 17 dice silently wrong, then taught as the game's
# colours) only 0.111 more, and its groups are in doubt at 0.25.
RIVAL_COST_SHARE = 0.25
CAPPED_ROUNDS = 8  # a cut block's groups of at most 7 are re-found at most this often
# Dice named one family that fall into two groups this far apart (spread units, the
# nearest dice of the two) are two families
SPLIT_GAP = 3.0
# and this far apart (spread units, below SPLIT_GAP): named as one family, the smaller
# group in review with the family it lies towards
FAMILY_DOUBT_GAP = 2.5
# Colours learnt from a game's full block: a later photo's white is found a little
# differently, so the learnt layout is fitted to its dice as the nominal one is, with this
# prior spread of the shift (log units) and these saturations per axis
KNOWN_PRIOR = 0.3
# a full block read with a few dice missed still teaches its colours: at least this many
# dice, and at least this many (and at most 7) of each family
LEARN_MIN_DICE = 30
LEARN_MIN_EACH = 4
KNOWN_SATURATIONS = (0.85, 1.0, 1.15)
GLINT_RATIO = 1.5  # a light blob this much stronger than the next is a glint, not a pip
GLINT_SUSPECT_RATIO = 1.7  # a middle pip this much stronger than the corners may be a glint
GLINT_CONFIDENCE = 0.6  # pips read around a glint go to review
# flatness (rim over centre brightness) of a blob: a middle pip below this share of the
# corner pips' flatness fades like a glint (pip radii: core, rim band)
GLINT_CORE_FRACTION = 0.3
GLINT_RIM_FRACTION = (0.55, 0.85)
GLINT_FLAT_SHARE = 0.87
GLINT_SPOT_MIN_STRENGTH = 0.6  # a non-pip blob this strong (over the weakest pip) may be a glint
GLINT_SPOT_MIN_DICE = 3  # dice showing a blob at one face spot make it the photo's glint spot
GLINT_SPOT_RADIUS = 0.1  # pitch units
# Sub-pixel pip centres against the best-fitting square lattice (lattice units): painted
# pips sit within a few hundredths; a die whose worst pip is off by more goes to review,
# and a blob this far off is read as a glint when the other pips still make a face.
PIP_LATTICE_MISFIT = 0.12
GLINT_MASK_LATTICE = 0.45  # a blob set aside as a glint hides this radius (lattice units)
PIP_GLINT_MISFIT = 0.2
# a blob of the other polarity near the middle of a 2 or a 4 (within this radius, lattice
# units) at least this strong (over the weakest pip) may be a glint over a middle pip
PIP_HIDDEN_RADIUS = 0.35
PIP_HIDDEN_SHARE = 1.0
# or half as strong, when a trace of a pip (this share of the weakest) shows at the middle
PIP_HIDDEN_SHARE_WITH_REST = 0.5
PIP_HIDDEN_REST = 0.2
# halfway between two pips the response of a line stays at least this share of the weakest
# pip's; between painted dots it drops to the bare face
PIP_JOINED_SHARE = 0.5

# --- pips by paint (companion/vision/dice/paint.py): face share of a face + pip colour mix ----
PAINT_CLIP_LEVEL = 250.0  # a channel this bright is clipped and says nothing of the paint
PAINT_RING_PIP_R = (0.45, 0.85)  # the ring read at each lattice point, pip radii
PAINT_WHITE_BGR = (255.0, 255.0, 255.0)  # the light a glint adds, mixed with a dark pip's face
PAINT_MIN_PIXELS = 5  # fewer unclipped pixels in a ring: that point is undecided
PAINT_MIN_COLOUR_GAP = 40.0  # BGR distance: a face and pip closer than this are not told apart
PAINT_CORNER_MAX = 0.5  # a corner ring with less face share than this is a painted pip
PAINT_MIN_SCALE = 0.3  # the bare face's share over the pips', at least
# after scaling (0 = a corner pip, 1 = the bare face): a point at most this is painted, at
# least that is bare; between, the die is left to the blobs
PAINT_PIP_BELOW = 0.25
PAINT_BARE_ABOVE = 0.55
PAINT_SURE_MARGIN = 0.1  # every lattice point this far inside its band: the paint is sure
PAINT_SURE_CONFIDENCE = 1.0
PAINT_BLIND_MAX = 0.5  # a lattice point's ring more clipped than this: the paint settles no glint
PAINT_AT_GLINT_MARGIN = 0.2  # the paint overturns the blobs at a glinted point only this clearly
# where the blobs make no face, lattices square to the cell are tried by paint: centres
# within this share of the cell from its middle, spacings these multiples of the lattice's
PAINT_SEARCH_CENTRE = 0.12
PAINT_SEARCH_SPACING = (0.9, 1.0, 1.1)

# --- the pip network (pip_net.py): a second opinion on each die's count -------------------
PIP_NET_CLASSES: tuple[str, ...] = ("2", "3", "4", "5", "6")  # our dice show 2 to 6 pips
PIP_NET_INPUT_PX = 32  # the cell patch (one grid pitch) resized to a square this size
# The cell's middle this share of its side is what the network sees: the die's top face,
# little of its neighbours'.
PIP_NET_CROP = 0.9
# The network's count replaces an unsure counter's when it puts at least this belief on it;
# a sure counter's count goes to review when the network gives it less than PIP_NET_DOUBT.
# Either way the die is held in review at PIP_NET_TAKEN_CONFIDENCE, both counts named.
# Chosen on the tuning photos (wide 0-199, narrow 0-49, wider 0-119; 12,016 dice): of the
# 9,794 sure counts, 1 was wrong (a glint where a 3's middle pip would be, the network's
# belief in 3 at 0.05) and 1 more falls below 0.15 (a 3 the network took for a 6).
PIP_NET_TAKE = 0.5
# A count that makes a face and was doubted only for what lies around its pips (a glint,
# faint pips: its confidence at GLINT_CONFIDENCE) is overturned only from this belief up;
# below it the count stays, in review with the network's named. Chosen on the tuning photos
# (wide 0-199, narrow 0-23, wider 0-59, warm-mat 0-44, pips 0-44, pips-warm 0-29, satin 0-59
# and 120-299, two-lamp 0-59 and 120-699; 38,213 dice): of the 76 such counts the network
# overturned at PIP_NET_TAKE, it did so below 0.85 on 21, of which the count was right on
# 18 and the network on 3 (two of them a counter's 3 read as a 2, which the network settles
# at any belief: reader._with_network); above 0.85 the network was right on 50 of 55.
PIP_NET_TAKE_OVER_FACE = 0.85
PIP_NET_DOUBT = 0.15
PIP_NET_TAKEN_CONFIDENCE = 0.6
# A walled-in cell unlike the table, whose blobs and paint make no face, is a die (in
# review) when the network puts at least this belief on one count (reader._walled_by_network).
PIP_NET_WALLED_SURE = 0.95

# --- the cell network (cell_net.py): is a die there at all, and its count -----------------
CELL_NET_NONE = "none"  # no die centred on the cell: bare table, a hole, astride two dice
CELL_NET_CLASSES: tuple[str, ...] = (CELL_NET_NONE, "2", "3", "4", "5", "6")
CELL_NET_INPUT_PX = 32
# The whole cell (one grid pitch): a die's outline and shadow tell it from bare table where
# its colour does not.
CELL_NET_CROP = 1.0
# A cell beside the block's read dice that its blobs and paint did not read as a die is one
# (in review) when the network believes a die is there more than not
# (reader._with_found_by_network). On the two-lamp tuning photos 0-699 (14,669 cells asked,
# read alone) the 14,661 bare ones reached 0.092 at most, and 7 of the 8 missed dice were
# at 0.96 to 0.9997 (the eighth, a tan die a third of a die off its cell, at 0.03).
CELL_NET_DIE_AT = 0.5

"""Numbers of the plant-sketch classifier and of grouping a player's drawings."""

from __future__ import annotations

from companion.vision.assets import asset_path

# What a written plant cell may hold besides nothing: a sketch of one of the eleven plants,
# or a letter (then the letter classifier reads it). The network's input is the letter
# classifier's own (letters.preprocess), so a cell is cut and normalised once.
SKETCH_PLANTS: tuple[str, ...] = (
    "broccoli", "carrot", "lettuce", "mushroom", "onion", "pepper",
    "blueberry", "fig", "golden-raspberry", "strawberry", "watermelon",
)
LETTER_CLASS = "letter"
SKETCH_CLASSES: tuple[str, ...] = (*SKETCH_PLANTS, LETTER_CLASS)
VEGETABLE_PLANTS: tuple[str, ...] = SKETCH_PLANTS[:6]
FRUIT_PLANTS: tuple[str, ...] = SKETCH_PLANTS[6:]

SKETCH_MODEL_PATH = asset_path("sketches.onnx")
SKETCH_META_PATH = asset_path("sketches.json")

# A written plant cell goes the letter's way only when the sketch network gives "letter" at
# least this probability; below it the cell is a drawing and is named with its group
# (chosen on the calib setting, tools/fit_sketches.py: see sketches.json "letter_gate").
LETTER_GATE_DEFAULT = 0.9
# Or when the sketch network gives "letter" at least LETTER_SURE_GATE and the letter reader
# is at least LETTER_SURE_READ sure of its letter. With the retrained network (widened
# doodles) 6 of 2,750 calib sketch crops passed at 0.5, and a synthetic sketch test drawn
# without handwriting fonts saw an onion read as a sure letter; 0.9 sends more letters to
# their group's question instead (a question, never a silent error).
LETTER_SURE_GATE = 0.9
LETTER_SURE_READ = 0.99
# A player who writes their plants as letters (at least WRITER_LETTER_SHARE of the plant
# cells holding a value are letters read with confidence) most likely wrote the cells the
# sketch network took for drawings too: a drawing question whose cells the letter reader
# reads as one plant, each at least WRITER_LETTER_READ, guesses that plant (it stays a
# question; only the answer offered first changes). Chosen on the calibration papers: the
# real calibration writers' players have a median share of 0.82 (a tenth under 0.56), the
# 200 calib sketch papers' players a median of 0.14 (1 in 100 over 0.6). WRITER_LETTER_READ
# was 0.9 while fewer of such a player's drawn cells were taken back as letters; with the
# take-back below, 0.5 puts the calibration writers' letters 96.97% -> 97.43% right and
# their players scored exactly 134 -> 138 of 160, and turns 4 drawn cells' first answer
# wrong on one of the 200 calib sketch papers (a player who writes most plants).
WRITER_LETTER_SHARE = 0.6
WRITER_LETTER_READ = 0.5
# Or a player whose sure letters and drawn cells the sketch network gives "letter" at least
# WRITER_LETTERISH_FLOOR make WRITER_LETTERISH_SHARE of their plant cells: a writer whose
# letters the sketch network doubts (their drawn cells are letters it half believes; a
# drawer's are doodles, a median 0.004). Chosen on the calibration papers: the 23 of 160
# real calibration writers' players under the share above all reach 0.78 (base shares
# 0.38-0.59), the 390 of 400 calib sketch papers' players under it at most 0.71 (the
# gap's middle is taken). Their letters 97.54% -> 98.51% right, fields in review
# 5.55% -> 4.87%, players scored exactly 141 -> 145 of 160, no silent error; the 400 calib
# sketch papers read the same, field for field.
WRITER_LETTERISH_FLOOR = 0.2
WRITER_LETTERISH_SHARE = 0.75
# For such a player, a drawn cell is read as the letter it is when the letter reader is
# LETTER_SURE_READ sure of it, the sketch network still gives "letter" at least
# DRAWN_LETTER_FLOOR, and the letter network sees it within the letter groups' distance of
# one of the player's letters read the same surely, nearer to it than to any of their
# drawings (letter_groups.own_letters_among_drawings). Chosen on the calibration papers:
# the real calibration writers' letter writers get 197 of their drawn cells taken back,
# all right; on 200 calib sketch papers 3 players write letters and none of their cells
# is taken. The floor: calib doodles read as a sure letter give "letter" a median 0.004
# (90% under 0.34), the writers' drawn letters a median 0.77. Without the letter-writer
# condition this took doodles for letters on the sketch bench (CHANGELOG).
DRAWN_LETTER_FLOOR = 0.3
# Three widenings of that for such a player, chosen on the same papers (letter sure 0.99):
# a cell nearer one of their sure letters than to any of their drawings give or take
# OWN_LETTER_MARGIN is taken (a writer's copies of one letter lie about as close to each
# other as to their letters the network let through); so is a cell alike to none of their
# other drawings (a player draws a plant alike in each of its cells); and a cell the
# sketch network gives "letter" at least WRITER_LETTER_GATE is taken with no likeness
# asked (the gate for every sheet is LETTER_SURE_GATE). The real calibration writers'
# letter writers: 197 -> 403 drawn cells taken, all right. On 200 calib sketch papers no
# player's cell is taken; with the letter-writer condition lifted (a player who writes
# most plants and doodles a few), 1 doodle of about 4,600 is taken wrongly (27 -> 62
# taken, 0 -> 1 wrong). Counting a writer from half their cells (not 0.6) took a real
# doodle for a sure letter on the sketch bench (CHANGELOG).
OWN_LETTER_MARGIN = 0.1
WRITER_LETTER_GATE = 0.8
# For a player who writes surely (WRITER_LETTER_SHARE of their plant cells are letters
# read with confidence, not only letterish ones), both are lower: DRAWN_LETTER_FLOOR
# SURE_WRITER_LETTER_FLOOR and WRITER_LETTER_GATE SURE_WRITER_LETTER_GATE. Such a writer's
# drawn cells the letter reader is sure of are letters the sketch network doubted: on the
# real calibration writers 122 of them were still asked, and the 115 with "letter" at
# least 0.1 (44 of them under 0.3) were all right. Chosen there: fields in review 4.87%
# -> 4.43%, no silent error, the 400 calib sketch papers read the same (0.1 for both
# gave 4.41%). Not for a writer counted by letterish cells: with any player taken for a
# writer, the 400 calib sketch papers' doodles read as sure letters would give 64 silent
# errors at these values against 12 at the plain ones, and some real sketchers are
# counted so.
SURE_WRITER_LETTER_FLOOR = 0.1
SURE_WRITER_LETTER_GATE = 0.3
# A drawing's own confidence before its group is read: under REVIEW_BELOW, so a drawing is
# never trusted alone by the sheet reader.
DRAWING_CONFIDENCE = 0.6
# Grouping: average-linkage clusters of a player's drawings of one kind, joined while the
# mean cosine distance of their network features stays under GROUP_DISTANCE; a group is
# trusted when its probability of its guess (from the members' mean log-probabilities)
# reaches GROUP_TRUST, every member reads the guess best and gives it at least MEMBER_FLOOR,
# and the out-of-distribution floors hold (drawing_groups.GroupRule; the fitted values are
# in assets/sketches.json); a member whose own best plant is not the group's (by at least
# OUTLIER_OWN, the guess under OUTLIER_GUESS) is a question of its own.
GROUP_DISTANCE_DEFAULT = 0.35
GROUP_TRUST_DEFAULT = 0.995
MEMBER_FLOOR = 0.2
OUTLIER_OWN = 0.7
OUTLIER_GUESS = 0.1
# A player's groups of one kind are matched to different plants (drawing_groups._assign); a
# group whose own guess the match gives away is not trusted, and its question's guess
# becomes the matched plant when that plant's mean log-probability is within log(1/ASSIGN_CLOSE)
# of the guess's (a close call; otherwise the group's own guess stays).
ASSIGN_CLOSE = 0.25
# Questions of one kind with the same guess whose drawings are alike within this mean
# cosine distance (average linkage, as GROUP_DISTANCE) are asked as one: the fitted
# grouping distance is tight (trusted halves of one plant cost nothing on the calibration
# papers), so a player's drawings of one plant could come back as two or three questions.
# Chosen by hand on 400 calib sketch papers (drawn cells replayed): questions asking again
# about a plant already asked 153 -> 53, questions mean 5.59 -> 5.34 (median 6 -> 5), none
# mixing plants; 0.35 mixed plants in 3 questions, 0.5 in 12. Since a network's looks set
# their own scale, tools.fit_sketches fits it with the network (``group_merge`` in
# assets/sketches.json); this is the join where the metadata holds none.
QUESTION_MERGE_DISTANCE = 0.3
# Once the player names some drawings, their plant is ruled out for the player's other
# groups of that kind (drawing_groups._after_answers), except a group within this mean
# cosine distance of the drawings named so (one plant's drawings cut in two groups) and
# except where the named cells look like letters (the sketch network's "letter" at least
# WRITER_LETTERISH_FLOOR: a player may write a plant in some cells and draw it in others).
# Chosen on calib papers answered one question at a time, least sure first and surest
# first (the order that trusts most wrongly): on papers 0-199 the question join's 0.45
# let a blueberry 0.456 from the named one be read as a sure golden raspberry, 0.5 and 0.6
# asked as many questions with none wrong and unasked; on papers 200-599, 0.6 let a lone
# lettuce 0.611 from the named one be read as a sure pepper, and 0.7 would keep at most
# 15 of the 552 groups trusted there from being trusted; checked on papers 600-799: none
# wrong and unasked in either order. Without the letter condition a written P named
# "pepper" ruled pepper out for the player's drawn peppers (read as sure carrots). A
# distance on the shipped network's looks: a retrained network should have it chosen again.
ANSWER_APART = 0.7
# Plant evidence is floored here before logs are averaged: one member cannot veto a plant.
EVIDENCE_FLOOR = 1e-3
# A player's own drawings from an earlier sheet (own_drawings.py): a group of today's
# drawings is named by them when its drawings are, on average and each one, within
# ``group_own`` (assets/sketches.json; the grouping distance where it holds none) of one
# plant's earlier drawings and of no other plant's. Chosen by hand on 200 calib players
# drawing a second game (tools/bench_sketch.py's second sitting, calib column): questions
# on the second sheet median / mean 1 / 1.12 at 0.35 (the grouping distance), 1 / 0.82 at
# 0.4, 0 / 0.69 at 0.45, with no field wrong and out of review; 0.5 named one player's
# strawberries golden raspberry (4 fields), 0.65 three groups. 0.4 is kept, one step
# inside the last that held. Such a group's confidence: over REVIEW_BELOW, under any
# group the network itself trusts.
OWN_DRAWING_CONFIDENCE = 0.98
# The drawings of the sheet's key (one a plant, reader.read_key) name a group by the same
# rule within ``group_key`` (assets/sketches.json; ``group_own`` where it holds none),
# chosen by hand on 200 calib papers photographed with the key drawn (tools.bench_sketch
# --key): questions mean 1.12 at 0.4 (``group_own``), 0.89 at 0.45, 0.82 at 0.5, 0.74 at
# 0.55, with no field wrong and out of review; 0.6 named two groups wrong. 0.5 is kept,
# one step inside the last that held (no constant here: the value lives with the
# network's other fitted settings).
# Earlier drawings kept per plant in a drawings file, the newest first: a few sheets' worth.
OWN_DRAWINGS_PER_PLANT = 24
# A box of the sheet's key (layout version 2; reader.read_key) is taken as the player's
# drawing of its plant when the cell ink test is at least this sure something is written
# there (the review threshold for a cell): a faint or half-erased mark names nothing.
KEY_DRAWN_ABOVE = 0.9

"""Read a Diced Veggies block from a photo: every die's cell, ingredient and pips.

The order follows DiceKeys: find the block, fit the grid to the whole block, then read
each cell. A first reading finds die centres; the grid is refitted to them (a phone photo
is a slight perspective) and the cells are read again. Dice far from a cell centre do not
pull the grid. Every die carries a confidence; doubtful ones are listed for review rather
than guessed silently.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import ImageError
from companion.games.diced_veggies.constants import FACES
from companion.games.diced_veggies.model import Block, Die, Ingredient
from companion.vision.dice import constants as C
from companion.vision.dice import gate, small_stats
from companion.vision.dice.cell import LAYOUTS, CellRead, read_cell, with_paint
from companion.vision.dice.cell_net import cell_net
from companion.vision.dice.colour import log_chroma
from companion.vision.dice.colours import DOUBTFUL_LIGHT, DiceColours
from companion.vision.dice.families import FamilyCall, FamilyFit, fit_families
from companion.vision.dice.glints import glint_spot, middle_pip_on_spot
from companion.vision.dice.grid import (
    DiceGrid,
    background_model,
    block_mask,
    fit_lattice,
    outline_axes,
    paper_model,
    refine,
    to_lab,
    trim,
)
from companion.vision.dice.mat import MatView, find_mat
from companion.vision.dice.orient import own_axes_turn, quarter_turns_to_page, turn_cells
from companion.vision.dice.pip_lattice import pip_step
from companion.vision.dice.pip_net import pip_net, value_of
from companion.vision.load import load_image
from companion.vision.register import sheet_label
from companion.vision.shrink import shrink_large


@dataclass(frozen=True)
class DieReading:
    row: int
    col: int
    ingredient: Ingredient
    value: int  # pips read, 1-6
    confidence: float  # 0-1
    review: bool
    flags: tuple[str, ...] = ()
    center_px: tuple[float, float] = (0.0, 0.0)  # the face centre in the photo
    # the face's log-chromaticity relative to the photo's white (what colours are learnt from)
    colour: tuple[float, float] = field(default=(0.0, 0.0), compare=False, repr=False)
    # a die there for sure and its pips read surely, whatever its colour (gate.confirm)
    sure_shape: bool = field(default=True, compare=False, repr=False)
    # the cell as read (BGR, one grid pitch): what the pip network saw, and what its
    # training harvests (tools/train_pips.py)
    patch: np.ndarray | None = field(default=None, compare=False, repr=False)

    @property
    def cell(self) -> tuple[int, int]:
        return (self.row, self.col)

    @property
    def die(self) -> Die:
        return Die(self.row, self.col, self.ingredient, self.value)

    def to_json(self) -> dict[str, Any]:
        return self.die.to_json()


@dataclass(frozen=True)
class Gap:
    """A cell beside the read dice where something unlike the table stands that was not
    read as a die: a die missed, to be checked, never silently left out."""

    row: int
    col: int
    center_px: tuple[float, float] = (0.0, 0.0)

    @property
    def cell(self) -> tuple[int, int]:
        return (self.row, self.col)


@dataclass(frozen=True)
class DiceReading:
    dice: list[DieReading]
    grid: DiceGrid  # cell (row, col) -> photo pixels, rows and cols as in ``dice``
    on_mat: bool = False
    seconds: float = 0.0
    notes: tuple[str, ...] = field(default=())
    gaps: tuple[Gap, ...] = ()  # cells (numbered as ``dice``) where a die may be missing
    white: str = "photo"  # where the photo's white came from: paper, pips or photo
    seven_each: bool = False  # named as a full starting block (7 dice of each family)
    with_colours: bool = False  # read against colours learnt from the game's full block

    def block_json(self) -> dict[str, Any]:
        return {"dice": [d.to_json() for d in self.dice]}

    @property
    def block(self) -> Block:
        """The dice as the rules engine's block (``block.legal_cuts()``). It holds what was
        read, even a block in two pieces: ``block.connection_problem()`` says so."""
        return Block.of((d.die for d in self.dice), require_connected=False)

    @property
    def review(self) -> list[DieReading]:
        return [d for d in self.dice if d.review]

    def to_json(self) -> dict[str, Any]:
        out = self.block_json()
        for item, d in zip(out["dice"], self.dice, strict=True):
            item["confidence"] = round(d.confidence, 3)
            if d.flags:
                item["flags"] = list(d.flags)
        out["review"] = [[d.row, d.col] for d in sorted(self.dice, key=_by_confidence) if d.review]
        out["gaps"] = [[g.row, g.col] for g in self.gaps]
        out["on_mat"] = self.on_mat
        out["seconds"] = round(self.seconds, 3)
        return out

    def cell_centers(self) -> dict[tuple[int, int], tuple[float, float]]:
        return {d.cell: self.grid.center(d.row, d.col) for d in self.dice}


def _by_confidence(d: DieReading) -> float:
    return d.confidence


def read_dice_photo(path: str | Path, colours: DiceColours | None = None) -> DiceReading:
    """Read the block in the photo at ``path`` (JPEG, PNG, WebP or HEIC); ``colours``: the
    game's dice colours, learnt from its full block (``colours.py``)."""
    start = time.perf_counter()
    img = load_image(path)
    try:
        reading = read_dice_image(img, colours)
    except ImageError as exc:
        raise type(exc)(f"{path}: {exc}") from None
    return replace(reading, seconds=time.perf_counter() - start)


@dataclass(frozen=True)
class _Cell:
    row: int
    col: int
    read: CellRead
    center: tuple[float, float]  # read-image pixels: the die's face centre, else the cell's
    patch: np.ndarray = field(repr=False, compare=False)  # the cell as read (BGR uint8)


@dataclass(frozen=True)
class Lattice:
    """The block's lattice on a photo with every cell of it read: what the dice are decided
    from, and what the cell network's training cuts its patches from
    (tools/train_cells.py)."""

    cells: list[_Cell]
    grid: DiceGrid  # reading-copy pixels
    src: np.ndarray  # the reading copy
    s_read: float  # photo pixels -> reading-copy pixels
    s_det: float  # photo pixels -> detection-copy pixels
    pitch: float  # the lattice's pitch in reading-copy pixels
    mat: MatView | None
    seen: gate.Glance


def read_lattice(bgr: np.ndarray) -> Lattice:
    """Find the block in a BGR photo array, fit its lattice and read every cell; raises
    ImageError when no block is there."""
    if bgr.ndim != 3 or bgr.shape[2] != 3 or min(bgr.shape[:2]) < 32:
        raise ImageError("expected a colour photo")
    seen = gate.check(bgr)
    h, w = bgr.shape[:2]
    s_det = min(1.0, C.DETECT_LONG_SIDE_PX / max(h, w))
    det = shrink_large(bgr, s_det, C.HALVE_FROM_PX)
    mat, fg, mask, grid, refit = _locate(det, seen)

    fg8 = fg.astype(np.uint8) * 255
    probe = _probe_lattice(bgr, fg8, grid, s_det, mat is not None)
    if probe.faces < C.PROBE_HALF_PITCH_FACES:
        # seen close and slanted, the dice's side faces can pull the seams' directions
        # off: try the lattice along the block's own outline, keep whichever reads faces
        other = refit(outline_axes(mask))
        if other is not None:
            alt = _probe_lattice(bgr, fg8, other, s_det, mat is not None)
            if alt.faces > probe.faces:
                probe = alt
    src, source, s_read, pitch_full = probe.src, probe.source, probe.s_read, probe.pitch_full
    grid = trim(probe.grid, mask, s_det / s_read)  # the lattice, rows and columns trimmed
    probed = probe.cells
    cells = _read_cells(source, grid, probed)
    for _ in range(C.REFINE_ROUNDS):
        found = [(c.row, c.col, *c.center) for c in cells if _die_like(c.read, mat is not None)]
        if not found:
            raise gate.NoDiceError(gate.NO_DICE)
        new = refine(grid, found, pitch_full * s_read)
        moved = max(math.dist(new.center(r, c), grid.center(r, c)) for r, c, *_ in found)
        if moved < C.REFINE_SETTLED_PITCH * pitch_full * s_read:
            break  # the cells were read on (nearly) this grid already
        grid = trim(new, mask, s_det / s_read)
        cells = _read_cells(source, grid)
    grid, cells = _grown(source, grid, cells, mat is not None)
    cells = [replace(c, read=with_paint(c.patch, c.read)) for c in cells]
    return Lattice(cells, grid, src, s_read, s_det, pitch_full * s_read, mat, seen)


def read_dice_image(bgr: np.ndarray, colours: DiceColours | None = None) -> DiceReading:
    """Read the block in a BGR photo array; raises ImageError when no dice are found.
    ``colours``: the game's dice colours, read against instead of fitting a light to this
    photo's dice."""
    start = time.perf_counter()
    lat = read_lattice(bgr)
    cells, grid, src, mat, seen = lat.cells, lat.grid, lat.src, lat.mat, lat.seen
    s_read, s_det = lat.s_read, lat.s_det
    offset, white = _white_offset(src, mat, s_read / s_det, cells, seen.white_bgr)
    white_sure = white != "photo"
    if mat is not None:
        inside = mat.block_area(src.shape, C.MAT_CENTRE_MARGIN_MM, s_read / s_det)
        cells = [c for c in cells if _at(inside, c.center, 1.0)]
    dice, grid_out, gaps, fit = _decide(
        cells, grid, offset, lat.pitch, mat is not None, white_sure, colours
    )
    # a light that leaves the families' naming in doubt is a colour doubt, not a sign that
    # no dice are there: count the dice surely there by their shape and pips, as with
    # learnt colours
    doubtful_light = any(DOUBTFUL_LIGHT in d.flags for d in dice)
    try:
        gate.confirm(dice, by_shape=colours is not None or doubtful_light)
    except gate.NoDiceError:
        if mat is None or not dice:
            raise
        # our mat is there and things stand on it: "no dice" would mislead the player
        raise gate.NoDiceError(gate.MAT_DICE_UNREAD) from None
    dice, grid_out, gaps = turn_cells(
        dice, grid_out, _quarter_turns(mat, grid_out, dice, s_read / s_det), gaps
    )
    grid_out = grid_out.scaled(1.0 / s_read)
    dice = [
        replace(d, center_px=(d.center_px[0] / s_read, d.center_px[1] / s_read))
        for d in dice
    ]
    gaps = [Gap(g.row, g.col, (g.center_px[0] / s_read, g.center_px[1] / s_read)) for g in gaps]
    return DiceReading(dice, grid_out, mat is not None, time.perf_counter() - start,
                       gaps=tuple(gaps), white=white,
                       seven_each=fit is not None and fit.seven_each,
                       with_colours=colours is not None)


Refit = Callable[[tuple[float, float] | None], DiceGrid | None]  # a lattice along given axes


@dataclass(frozen=True)
class _Probe:
    """A lattice tried on the photo: the copy read at its pitch, its best phase and the
    cells probed there, and how many of them read as dice."""

    src: np.ndarray
    source: _Source
    s_read: float
    pitch_full: float  # the lattice's pitch in photo pixels
    grid: DiceGrid  # reading-copy pixels
    cells: list[_Cell]
    score: int  # probed cells read as dice
    faces: int  # of those, cells showing a face the dice have (two pips or more)


def _probe(
    bgr: np.ndarray, fg8: np.ndarray, grid: DiceGrid, s_det: float, on_mat: bool
) -> _Probe:
    """Resample the photo for cells of ``grid``'s pitch (detection-copy lattice) and
    probe its phases."""
    mid_r = (grid.rows.start + grid.rows.stop) / 2
    mid_c = (grid.cols.start + grid.cols.stop) / 2
    pitch_full = grid.pitch_px(mid_r, mid_c) / s_det
    s_read = min(1.0, C.READ_PITCH_PX / pitch_full)
    src = bgr if s_read == 1.0 else shrink_large(bgr, s_read, C.HALVE_FROM_PX)
    source = _Source(src, fg8, s_det / s_read)
    best, cells = _best_phase(source, grid.scaled(s_read / s_det), on_mat)
    dice = [c for c in cells if _die_like(c.read, on_mat)]
    faces = sum(c.read.pips in FACES for c in dice)
    return _Probe(src, source, s_read, pitch_full, best, cells, len(dice), faces)


def _probe_lattice(
    bgr: np.ndarray, fg8: np.ndarray, grid: DiceGrid, s_det: float, on_mat: bool
) -> _Probe:
    """The probe of ``grid``, or of its half pitch when that reads more faces: spaced
    dice can make the seams repeat at two dice, so the cells say which lattice holds dice."""
    probe = _probe(bgr, fg8, grid, s_det, on_mat)
    if probe.score < C.PROBE_HALF_PITCH_BELOW:
        half = _probe(bgr, fg8, _halved(grid), s_det, on_mat)
        if half.faces >= C.PROBE_HALF_PITCH_FACES and half.faces > probe.faces:
            return half
    return probe


def _halved(grid: DiceGrid) -> DiceGrid:
    """The lattice at half the pitch over the same area."""
    h = grid.h @ np.diag([0.5, 0.5, 1.0])
    rows = range(2 * grid.rows.start, 2 * grid.rows.stop)
    cols = range(2 * grid.cols.start, 2 * grid.cols.stop)
    return DiceGrid(h, rows, cols)


def _quarter_turns(
    mat: MatView | None, grid: DiceGrid, dice: list[DieReading], scale: float
) -> int:
    """Turns renumbering the block along the mat's page axes, else along its own."""
    if mat is None or mat.mm_to_px is None:
        return own_axes_turn(dice)
    to_px = np.diag([scale, scale, 1.0]) @ mat.mm_to_px
    at = (float(np.mean([d.col for d in dice])), float(np.mean([d.row for d in dice])))
    return quarter_turns_to_page(grid, np.linalg.inv(to_px), at)


def _locate(
    det: np.ndarray, seen: gate.Glance
) -> tuple[MatView | None, np.ndarray, np.ndarray, DiceGrid, Refit]:
    """On the detection copy: the mat if present, the foreground (unlike the table, or
    coloured on the mat), the block's mask, the lattice fitted to its seams, and a way to
    fit it again along other axes."""
    mat = find_mat(det)
    if mat is not None:
        # our other sheets carry the same corner markers: refuse them rather than read
        # their artwork as dice
        label = sheet_label(cv2.cvtColor(det, cv2.COLOR_BGR2GRAY))
        if label is not None and label.sheet != C.MAT_SHEET:
            raise ImageError(
                f"this photo shows our {label.sheet} sheet, not the dice mat or a block of dice"
            )
    smooth = cv2.GaussianBlur(det, (0, 0), 1.5)
    if mat is not None:
        fg = paper_model(smooth, mat.paper_band(det.shape)).foreground(smooth)
        fg &= mat.block_area(det.shape)
    else:
        lab = to_lab(smooth)  # once, for the surface model and the foreground
        fg = background_model(smooth, lab=lab).foreground(smooth, lab)
    mask = block_mask(fg, C.MIN_BLOCK_AREA_FRACTION * det.shape[0] * det.shape[1])
    if mat is None and _close_up(mask) and seen.coloured_share >= C.CLOSE_UP_MIN_COLOURED:
        # the block fills the frame, so the frame's border is dice, not table: fit the grid
        # to the whole photo and let the pips alone say where dice are
        mask = np.ones_like(mask)
        fg = np.zeros_like(fg)
    if not mask.any():
        raise gate.NoDiceError(gate.NO_DICE)
    if mat is None and seen.coloured_within(mask) < C.GATE_BLOCK_MIN_COLOURED:
        raise gate.NoDiceError(f"{gate.NO_DICE} (what stands out from the table is not coloured)")
    prior = None
    if mat is not None and mat.px_per_mm is not None and mat.die_mm is not None:
        prior = mat.px_per_mm * mat.die_mm * C.TOP_FACE_SCALE
    grey = cv2.cvtColor(det, cv2.COLOR_BGR2GRAY).astype(np.float32)
    grid = fit_lattice(grey, mask, prior)
    if grid is None:
        raise gate.NoDiceError(f"{gate.NO_DICE} (no grid of dice)")

    def refit(axes: tuple[float, float] | None) -> DiceGrid | None:
        return None if axes is None else fit_lattice(grey, mask, prior, axes)

    return mat, fg, mask, grid, refit


def _close_up(mask: np.ndarray) -> bool:
    """True when the table is barely visible: nothing stands out from the frame's border,
    or what does runs along two or more sides of the frame."""
    if not mask.any():
        return True
    sides = (mask[0], mask[-1], mask[:, 0], mask[:, -1])
    return sum(float(s.mean()) > C.CLOSE_UP_SIDE_SHARE for s in sides) >= 2


def _best_phase(
    source: _Source, grid: DiceGrid, on_mat: bool
) -> tuple[DiceGrid, list[_Cell]]:
    """Seams and the middle column of pips both repeat once per die: try the lattice and
    its half-cell shifts on the cells nearest the block's middle, keep the one whose cells
    read as dice most often. Returns it and the cells probed on it."""
    mid_r = (grid.rows.start + grid.rows.stop - 1) / 2
    mid_c = (grid.cols.start + grid.cols.stop - 1) / 2
    best, best_cells, best_score = grid, [], -1.0
    for dx, dy in ((0.0, 0.0), (0.5, 0.0), (0.0, 0.5), (0.5, 0.5)):
        shifted = DiceGrid(
            grid.h @ np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1.0]]), grid.rows, grid.cols
        )
        rows = range(int(math.floor(mid_r - 1)), int(math.floor(mid_r - 1)) + 3)
        cols = range(int(math.floor(mid_c - 1)), int(math.floor(mid_c - 1)) + 3)
        cells = _read_cells(source, DiceGrid(shifted.h, rows, cols))
        score = float(sum(_die_like(c.read, on_mat) for c in cells))
        if score > best_score:
            best, best_cells, best_score = shifted, cells, score
        if score >= 8:
            break  # nearly every probed cell is a die: no better phase exists
    return best, best_cells


def _at(mask: np.ndarray, xy: tuple[float, float], scale: float) -> bool:
    x, y = int(round(xy[0] * scale)), int(round(xy[1] * scale))
    return 0 <= y < mask.shape[0] and 0 <= x < mask.shape[1] and bool(mask[y, x])


def _patch_homography(grid: DiceGrid, row: int, col: int) -> np.ndarray:
    n = C.CELL_PATCH_PX
    t = np.array([[1 / n, 0, col - 0.5 + 0.5 / n], [0, 1 / n, row - 0.5 + 0.5 / n], [0, 0, 1.0]])
    return grid.h @ t


@dataclass(frozen=True)
class _Source:
    """Where cells are read from: the photo at reading scale, and the foreground mask
    (pixels unlike the table, or coloured on the mat) found on the detection copy."""

    image: np.ndarray
    fg: np.ndarray  # uint8 0/255 on the detection copy
    to_fg: float  # reading-image pixels -> detection-copy pixels


def _read_cells(
    source: _Source, grid: DiceGrid, known: Iterable[_Cell] = ()
) -> list[_Cell]:
    """Every cell of the grid, read; ``known``: cells already read on this very lattice
    (the phase probe's), taken as they are (the same warp gives the same patch)."""
    n = C.CELL_PATCH_PX
    q = C.CELL_MASK_PX
    k = source.to_fg
    to_mask = np.diag([k, k, 1.0])
    from_small = np.array([[n / q, 0, (n / q - 1) / 2], [0, n / q, (n / q - 1) / 2], [0, 0, 1.0]])
    out = []
    done = {(cell.row, cell.col): cell for cell in known}
    for r in grid.rows:
        for c in grid.cols:
            if (r, c) in done:
                out.append(done[(r, c)])
                continue
            m = _patch_homography(grid, r, c)
            patch = cv2.warpPerspective(
                source.image, m, (n, n), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                borderMode=cv2.BORDER_REPLICATE,
            )
            fg = cv2.warpPerspective(
                source.fg, to_mask @ m @ from_small, (q, q),
                flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            )
            read = read_cell(patch, fg > 127)
            if read.center is not None and read.layout_ok:
                p = m @ np.array([read.center[0], read.center[1], 1.0])
                centre = (float(p[0] / p[2]), float(p[1] / p[2]))
            else:
                centre = grid.center(r, c)
            out.append(_Cell(r, c, read, centre, patch))
    return out


def _grown(
    source: _Source, grid: DiceGrid, cells: list[_Cell], on_mat: bool
) -> tuple[DiceGrid, list[_Cell]]:
    """The grid grown by a row or column beyond each side whose outermost cells read a
    die (where the cell beyond it is in the photo), the new cells read, until no side's
    outermost cells do. The lattice spans what stands out from the table plus a ring of
    cells; dice of the table's own colour at the block's edge (orange dice on orange wood)
    stand out too little, so the ring can hold a die, and a die pushed away from the block
    lies beyond it."""
    hgt, wid = source.image.shape[:2]

    def seen(r: int, c: int) -> bool:
        x, y = grid.center(r, c)
        return 0 <= x < wid and 0 <= y < hgt

    for _ in range(C.GROW_ROUNDS):
        die = [(c.row, c.col) for c in cells if _die_like(c.read, on_mat)]
        rows, cols = grid.rows, grid.cols
        up = any(r == rows.start and seen(r - 1, c) for r, c in die)
        down = any(r == rows.stop - 1 and seen(r + 1, c) for r, c in die)
        left = any(c == cols.start and seen(r, c - 1) for r, c in die)
        right = any(c == cols.stop - 1 and seen(r, c + 1) for r, c in die)
        if not (up or down or left or right):
            break
        grid = DiceGrid(grid.h, range(rows.start - up, rows.stop + down),
                        range(cols.start - left, cols.stop + right))
        cells = _read_cells(source, grid, cells)
    return grid, cells


def _neighbours(row: int, col: int) -> tuple[tuple[int, int], ...]:
    """The four places that share a side with (row, col) in the block's grid."""
    return ((row + 1, col), (row - 1, col), (row, col + 1), (row, col - 1))


def _with_walled_in(cells: list[_Cell], present: list[tuple[_Cell, float, list[str]]]
                    ) -> list[tuple[_Cell, float, list[str]]]:
    """``present`` with the cells its dice hem in on all four sides that still read as a
    face (``_walled_face``), in review, the blobs' margin left unasked (a glint beside the
    pips of a red die on a red cloth leaves it at 1.1). A hole walled in by dice on every
    side is rare in a block, and the table seen through it makes no such face."""
    taken = {(c.row, c.col) for c, _, _ in present}
    hemmed = [cell for cell in cells if (cell.row, cell.col) not in taken
              and all(nb in taken for nb in _neighbours(cell.row, cell.col))]
    walled = [cell for cell in hemmed if _walled_face(cell.read)]
    walled += _walled_by_network([cell for cell in hemmed if cell not in walled])
    return _with_added(cells, present, walled, "walled-in")


def _with_added(cells: list[_Cell], present: list[tuple[_Cell, float, list[str]]],
                added: list[_Cell], flag: str) -> list[tuple[_Cell, float, list[str]]]:
    """``present`` with ``added`` as dice in review (a table-like presence, ``flag``
    their reason), all in the order of ``cells``."""
    if not added:
        return present
    kept = {id(c): (p, f) for c, p, f in present}
    kept |= {id(cell): (C.TABLE_LIKE_PRESENCE, [flag]) for cell in added}
    return [(cell, *kept[id(cell)]) for cell in cells if id(cell) in kept]


def _with_found_by_network(cells: list[_Cell], present: list[tuple[_Cell, float, list[str]]]
                           ) -> list[tuple[_Cell, float, list[str]]]:
    """``present`` with the cells beside its dice that the cell network believes hold a die
    (CELL_NET_DIE_AT), in review: a die hardly unlike the table or with its pips merged
    into a glint, which the blobs and the paint did not read as one. Only cells beside a
    read die are asked: a block is one piece, and a die apart from it is no die the
    network should conjure on bare table."""
    net = cell_net()
    if net is None:
        return present
    taken = {(c.row, c.col) for c, _, _ in present}
    asked = [cell for cell in cells if (cell.row, cell.col) not in taken
             and any(nb in taken for nb in _neighbours(cell.row, cell.col))]
    if not asked:
        return present
    none = C.CELL_NET_CLASSES.index(C.CELL_NET_NONE)
    probs = net.probs([cell.patch for cell in asked])
    found = [cell for cell, p in zip(asked, probs, strict=True)
             if 1.0 - float(p[none]) >= C.CELL_NET_DIE_AT]
    return _with_added(cells, present, found, "found-by-network")


def _walled_by_network(cells: list[_Cell]) -> list[_Cell]:
    """Of walled-in ``cells`` whose blobs and paint make no face, those unlike the table,
    over one colour, whose pips the pip network counts surely (PIP_NET_WALLED_SURE): a
    tan die's pale or drilled pips, hardly apart from its face, that the blobs count as
    one or two weak pips and the paint cannot place. The network knows no empty cell (it
    names a count on bare table as surely), so only a cell that differs from the table,
    with dice on all four sides, is asked."""
    asked = [cell for cell in cells
             if cell.read.occupied >= C.OCCUPIED_MIN and _one_colour(cell.read)]
    net = pip_net()
    if not asked or net is None:
        return []
    probs = net.probs([cell.patch for cell in asked])
    return [cell for cell, p in zip(asked, probs, strict=True)
            if float(p.max()) >= C.PIP_NET_WALLED_SURE]


def _walled_face(read: CellRead) -> bool:
    """A face a walled-in cell shows: two or more pips on a standard layout that the paint
    reads alike, or the paint reading two or more pips clearly over one colour where the
    blobs made no face (a glint on a pip of a tan 6 on tan paper)."""
    if not _one_colour(read):
        return False
    if read.layout_ok:
        return read.pips >= 2 and _paint_agrees(read)
    return (read.paint_pips is not None and read.paint_pips >= 2
            and read.paint_margin >= C.PAINT_SURE_MARGIN)


def _one_colour(read: CellRead) -> bool:
    """Blobs not along a line, over one colour: not the corners of several dice."""
    return not read.joined and read.face_spread <= C.FACE_MIXED_LOG_CHROMA


def _one_face(read: CellRead) -> bool:
    """Pips on a standard layout, not along a line, over one colour: a die's face, not the
    corners of several."""
    return read.layout_ok and _one_colour(read)


def _die_like(read: CellRead, on_mat: bool = False) -> bool:
    """Pips on a standard layout: over a die-coloured cell, or clear enough on their own
    (a tan die on a wooden table hardly differs from the table). On the grey mat every die
    shows colour, so printed text never passes for pips. A cell whose quadrants differ in
    colour straddles several dice and is no die."""
    if not _one_face(read):
        return False
    if on_mat and read.occupied < C.OCCUPIED_MIN:
        return False
    if read.pips == 1 and read.occupied < C.PRESENT_SURE_ABOVE:
        return False  # one blob on table-coloured ground is texture: our dice have no 1s
    coloured = read.occupied >= C.OCCUPIED_MIN
    return read.pip_margin >= (C.PIP_MIN_MARGIN if coloured else C.PIP_ALONE_MARGIN)


def _white_offset(
    src: np.ndarray, mat: MatView | None, scale: float, cells: Iterable[_Cell],
    photo_white: np.ndarray,
) -> tuple[np.ndarray, str]:
    """Log-chromaticity of white under this photo's light: the mat's paper, else white
    pips, else the photo's brightest pixels; and which of the three it is."""
    if mat is not None:
        polys = tuple(p * scale for p in mat.marker_polys)
        band = MatView(mat.corners_px * scale, polys, None, None).paper_band(src.shape)
        px = src[band].astype(np.float32)
        if len(px) > 50:
            bright = px.mean(axis=1)
            paper = np.median(px[bright >= np.percentile(bright, 50)], axis=0)
            return log_chroma(paper), "paper"
    pips = [
        c.read.pip_bgr for c in cells
        if c.read.pip_bgr is not None and c.read.light_pips and _die_like(c.read)
    ]
    if len(pips) >= 3:
        return np.median(np.array([log_chroma(p) for p in pips]), axis=0), "pips"
    return log_chroma([float(v) for v in photo_white]), "photo"


@dataclass(frozen=True)
class _Die:
    row: int
    col: int
    ingredient: Ingredient
    value: int
    confidence: float
    review: bool
    flags: tuple[str, ...]
    center_px: tuple[float, float]


def _may_be(call: FamilyCall, flags: list[str], flag: str, instead: str) -> FamilyCall:
    """``call`` in doubt for ``flag`` (appended to ``flags``), the family it may be instead
    named as for a near colour."""
    flags.append(flag)
    if f"colour-near-{instead}" not in flags:
        flags.append(f"colour-near-{instead}")
    return replace(call, confidence=min(call.confidence, C.COLOUR_UNKNOWN_CONFIDENCE))


def _decide(
    cells: list[_Cell], grid: DiceGrid, offset: np.ndarray, pitch: float, on_mat: bool,
    white_sure: bool = True, colours: DiceColours | None = None,
) -> tuple[list[DieReading], DiceGrid, list[Gap], FamilyFit | None]:
    present: list[tuple[_Cell, float, list[str]]] = []
    for cell in cells:
        rd = cell.read
        flags: list[str] = []
        if _die_like(rd, on_mat) or _paint_sure(rd, on_mat):
            presence = 1.0
        elif _faint_but_read(rd, on_mat, offset):
            presence, flags = C.TABLE_LIKE_PRESENCE, ["like-the-table"]
        elif rd.occupied >= C.PRESENT_SURE_ABOVE and rd.pips > 0:
            if _table_between(rd, offset):
                continue
            presence, flags = 0.5, ["pips-unclear"]
            if rd.face_spread > C.FACE_MIXED_LOG_CHROMA:
                flags.append("colours-mixed")
        elif rd.occupied >= C.PRESENT_SURE_ABOVE and _chromatic(rd.face_bgr):
            presence, flags = 0.4, ["no-pips-found"]
        else:
            continue
        if rd.occupied < C.OCCUPIED_MIN and not _paint_agrees(rd):
            # pips on table-coloured ground and nothing else: a tan die on wood, or the
            # wood's own knots and grain; only the paint reading the same face says a die
            flags.append("like-the-table")
            presence = min(presence, C.TABLE_LIKE_PRESENCE)
        off = float(np.hypot(*np.subtract(cell.center, grid.center(cell.row, cell.col))))
        if off > C.MAX_CELL_OFFSET_PITCH * pitch:
            flags.append("off-cell")
            presence = min(presence, 0.3)
        elif off > C.SURE_CELL_OFFSET_PITCH * pitch:
            flags.append("off-centre")
            presence = min(presence, 0.6)
        present.append((cell, presence, flags))
    present = _with_walled_in(cells, present)
    present = _with_found_by_network(cells, present)
    present = _connected_to_block(present)
    if not present:
        return [], grid, [], None
    feats = [log_chroma(c.read.face_bgr) for c, _, _ in present]
    levels = [c.read.face_bgr for c, _, _ in present]
    fit = fit_families(feats, offset, white_sure, levels,
                       None if colours is None else colours.centres,
                       None if colours is None else colours.scatter)
    calls = fit.calls
    spot = glint_spot([c.read for c, _, _ in present])
    net = pip_net()
    net_probs = None if net is None else net.probs([c.patch for c, _, _ in present])
    off_step = _off_step([c.read for c, _, _ in present])
    r0 = min(c.row for c, _, _ in present)
    c0 = min(c.col for c, _, _ in present)
    dice = []
    for i, ((cell, presence, flags), feat, call) in enumerate(
        zip(present, feats, calls, strict=True)
    ):
        rd = cell.read
        if gate.colourless(feat, offset):
            flags.append("no-veggie-colour")
            call = replace(call, confidence=0.0)
        if call.confidence < 1.0:
            flags.append(f"colour-near-{call.runner_up}")
        if call.twin is not None:
            flags.append(f"colour-like-a-{call.twin}")
            call = replace(call, confidence=min(call.confidence, C.COLOUR_UNKNOWN_CONFIDENCE))
        if call.too_many or call.crowded is not None:
            call = _may_be(call, flags, "colour-too-many" if call.too_many else "colour-crowded",
                           call.runner_up if call.crowded is None else call.crowded)
        if call.regrouped is not None:
            # named with at most 7 of each family; the plain fit named it otherwise
            call = _may_be(call, flags, "colour-regrouped", call.regrouped)
        if call.apart is not None:
            call = _may_be(call, flags, "colour-apart", call.apart)
        if call.beside_absent is not None:
            call = _may_be(call, flags, "colour-beside-absent", call.beside_absent)
        if call.rival:
            flags.append(DOUBTFUL_LIGHT)
            call = replace(call, confidence=min(call.confidence, C.COLOUR_UNKNOWN_CONFIDENCE))
        if call.distance > C.COLOUR_MAX_DISTANCE:
            # far from every family this photo shows: a batch or a light we do not know
            flags.append("colour-unknown")
            call = replace(call, confidence=min(call.confidence, C.COLOUR_UNKNOWN_CONFIDENCE))
        if rd.layout_ok:
            pip_conf = min(1.0, max(0.0, (rd.pip_margin - 1.0) / (C.PIP_SURE_RATIO - 1.0)))
        else:
            pip_conf = 0.3
            if rd.pips:
                flags.append("pips-off-layout")
        doubts = _blob_doubts(rd, spot)
        value, settled, pip_conf = _pips_by_paint(rd, bool(doubts), pip_conf, flags)
        if _unchecked(rd):
            flags.append("pips-unchecked")
            pip_conf = min(pip_conf, C.GLINT_CONFIDENCE)
        if rd.pale:
            # pips seen by their colour alone, as bright as the face: a faint count, the
            # player's to check (and the pip network's to overrule when it is sure)
            flags.append("pips-faint")
            pip_conf = min(pip_conf, C.GLINT_CONFIDENCE)
        if not settled:
            for flag, cap in doubts:
                flags.append(flag)
                pip_conf = min(pip_conf, cap)
        if i in off_step:
            # a glint and a pip beside it can pass for a 2, their step short of the dice's
            flags.append("pips-off-spacing")
            pip_conf = min(pip_conf, C.GLINT_CONFIDENCE)
        value = min(6, max(1, value))
        other = None
        if net_probs is not None:
            value, pip_conf, other = _with_network(net_probs[i], value, pip_conf, flags)
        if value not in FACES:
            flags.append("face-not-in-set")
            pip_conf = min(pip_conf, 0.5)
        if other is None and pip_conf < C.REVIEW_BELOW:
            other = _other_count(rd, value)
        if other is not None:
            # the count in doubt: name both, so the player checks the one point they differ at
            flags.append(f"pips-{min(value, other)}-or-{max(value, other)}")
        conf = min(presence, pip_conf, call.confidence)
        dice.append(
            DieReading(
                cell.row - r0, cell.col - c0, Ingredient(call.ingredient), value, conf,
                conf < C.REVIEW_BELOW, tuple(flags), cell.center,
                (float(fit.rel[i, 0]), float(fit.rel[i, 1])),
                min(presence, pip_conf) >= C.REVIEW_BELOW, cell.patch,
            )
        )
    dice.sort(key=lambda d: (d.row, d.col))
    gaps = [Gap(c.row - r0, c.col - c0, grid.center(c.row, c.col)) for c in _gaps(cells, present)]
    return dice, grid.shifted(r0, c0), gaps, fit


def _with_network(
    probs: np.ndarray, value: int, pip_conf: float, flags: list[str]
) -> tuple[int, float, int | None]:
    """The count after the pip network's opinion (``probs`` over PIP_NET_CLASSES): where
    the counter is unsure and the network sure of another count, the network's count (the
    die stays in review, both counts named); where the counter is sure and the network
    gives its count little belief, in review with both named; a face counted with a doubt
    around its pips (a glint, faint pips) overturned only where the network is surer
    (PIP_NET_TAKE_OVER_FACE), and a counted 3 the network reads as a 2 taken as the 2 (a
    glint passes for a 3's middle pip). Also the other count to name, when there is one."""
    k = int(np.argmax(probs))
    mine, p_net = value_of(k), float(probs[k])
    if mine == value:
        return value, pip_conf, None
    face = str(value) in C.PIP_NET_CLASSES
    p_counter = float(probs[C.PIP_NET_CLASSES.index(str(value))]) if face else 0.0
    # a glint between a 2's corner pips passes for a 3's middle pip, which the whole face
    # tells apart (on the tuning photos the network's 2 was right on all 21 of the
    # counter's 3s it read as 2s, and never read a true 3 as a 2)
    glint_three = value == 3 and mine == 2
    # a face the counter made, doubted only for a glint or faint pips, takes a surer network
    # to overturn; short of that, the network's count is named beside it
    doubted_face = face and pip_conf >= C.GLINT_CONFIDENCE
    take_at = C.PIP_NET_TAKE_OVER_FACE if doubted_face else C.PIP_NET_TAKE
    unsure = pip_conf < C.REVIEW_BELOW
    if not face or glint_three or (unsure and p_net >= take_at):
        # a count no die shows, or an unsure one: the whole face's count is the better guess
        if not face:
            flags.append("face-not-in-set")
        flags.append("pips-by-network")
        return mine, min(pip_conf, C.PIP_NET_TAKEN_CONFIDENCE), value
    if p_counter < C.PIP_NET_DOUBT or (doubted_face and unsure and p_net >= C.PIP_NET_TAKE):
        flags.append("pips-network-differs")
        return value, min(pip_conf, C.PIP_NET_TAKEN_CONFIDENCE), mine
    return value, pip_conf, None


def _gaps(cells: list[_Cell], present: list[tuple[_Cell, float, list[str]]]) -> list[_Cell]:
    """Grid cells beside a read die that were not read as one although much of their
    middle is unlike the table: where a die may have been missed."""
    taken = {(c.row, c.col) for c, _, _ in present}
    out = []
    for cell in cells:
        if (cell.row, cell.col) in taken or cell.read.occupied < C.GAP_MIN_OCCUPIED:
            continue
        r, c = cell.row, cell.col
        if any(nb in taken for nb in _neighbours(r, c)):
            out.append(cell)
    return out


def _off_step(reads: list[CellRead]) -> set[int]:
    """The faces (by index) whose pips' lattice step differs from the photo's by more than
    PIP_STEP_TOLERANCE: one photo's dice are alike and read at one pitch, so their pips
    lie on one lattice step, and a face off it was put together from something else (a
    corner pip and a glint near the middle make a 2 that is too small). The photo's step
    is the median over faces of three pips or more, whose lattice the layout pins down."""
    spacing = C.PIP_LATTICE_FRACTION * C.CELL_PATCH_PX
    steps = {i: pip_step(r.pips_xy, spacing) for i, r in enumerate(reads)
             if r.layout_ok and r.pips >= 2}
    sure = [steps[i] for i, r in enumerate(reads) if i in steps and r.pips >= 3]
    if len(sure) < C.PIP_STEP_MIN_FACES:
        return set()
    ref = small_stats.median(sure)
    return {i for i, s in steps.items() if abs(s / ref - 1.0) > C.PIP_STEP_TOLERANCE}


def _blob_doubts(rd: CellRead, spot: tuple[float, float] | None) -> list[tuple[str, float]]:
    """Why the blobs' count may be wrong the way a glint makes it, each as (flag, cap on
    the pips' confidence): a highlight among the pips, a blob set aside or suspect, or one
    off the lattice."""
    out: list[tuple[str, float]] = []
    if rd.layout_ok and not rd.even_paint:
        out.append(("pip-or-highlight", 0.6))
    if rd.glint or middle_pip_on_spot(rd, spot) or rd.middle_hidden:
        out.append(("glint", C.GLINT_CONFIDENCE))
    if rd.lattice_misfit > C.PIP_LATTICE_MISFIT:
        out.append(("pip-off-lattice", C.GLINT_CONFIDENCE))
    return out


def _pips_by_paint(
    rd: CellRead, glinty: bool, pip_conf: float, flags: list[str]
) -> tuple[int, bool, float]:
    """The pips, weighing the blobs' count against the paint's (paint.py); ``glinty``: the
    blobs' count has a glint's doubts (``_blob_doubts``). Returns the count, whether the
    paint settled those doubts, and the pips' confidence. The paint reads every lattice
    point, so where the two differ it is the one kept; a difference the blobs gave no
    reason for still goes to review."""
    paint = rd.paint_pips
    if paint is None:
        return rd.pips, False, pip_conf
    if not rd.layout_ok or rd.pips < 2:
        # the blobs made no face the dice have; the paint found one on a lattice of its
        # own: kept, and checked by the player
        if rd.paint_margin < C.PAINT_SURE_MARGIN:
            return rd.pips, False, pip_conf
        flags.append("pips-by-paint")
        return paint, False, min(pip_conf, C.GLINT_CONFIDENCE)
    if rd.paint_margin < C.PAINT_SURE_MARGIN:
        if paint != rd.pips:
            flags.append("pips-by-paint")
            pip_conf = min(pip_conf, C.GLINT_CONFIDENCE)
        return paint, False, pip_conf
    if glinty and rd.paint_blind > C.PAINT_BLIND_MAX:
        # the glint the blobs saw clipped the paint too: it cannot settle their doubt
        if paint != rd.pips:
            flags.append("pips-by-paint")
        return paint, False, pip_conf
    if (glinty and paint != rd.pips and rd.paint_margin < C.PAINT_AT_GLINT_MARGIN
            and _glint_where_counts_differ(rd, paint)):
        # the glint lies on the very point that makes the two counts differ: light added
        # to a bare face draws it towards a pale pip's colour, so the paint's reading
        # there is no better than the blobs' unless it is clear by far
        flags.append("pips-by-paint")
        return paint, False, min(pip_conf, C.GLINT_CONFIDENCE)
    if paint == rd.pips and not rd.even_paint and rd.paint_margin < C.PAINT_AT_GLINT_MARGIN:
        # one blob may be a highlight, and a highlight over a bare face draws it towards a
        # pale pip's colour too: the paint barely agreeing settles nothing
        return paint, False, pip_conf
    if paint == rd.pips or glinty or rd.pip_margin < C.PIP_SURE_RATIO:
        return paint, True, 1.0
    flags.append("pips-by-paint")
    return paint, True, min(pip_conf, C.GLINT_CONFIDENCE)


def _unchecked(rd: CellRead) -> bool:
    """True when the paint could not check the blobs' count (paint.py undecided: a pip
    and face too alike, a drilled or square pip it does not model) and the blobs are not
    clear by far: such a count alone is no sure count."""
    return rd.paint_pips is None and rd.pip_margin < C.PIP_UNCHECKED_SURE_MARGIN


def _other_count(rd: CellRead, value: int) -> int | None:
    """The count a doubtful die's pips most likely show instead of ``value``: the paint's
    or the blobs' where they differ, else the same face with its middle pip added or taken
    away (a glint hides a middle pip or passes for one)."""
    for alt in (rd.paint_pips, rd.pips if rd.layout_ok else None):
        if alt is not None and alt != value and alt in FACES:
            return alt
    return {2: 3, 3: 2, 4: 5, 5: 4}.get(value)


def _glint_where_counts_differ(rd: CellRead, paint: int) -> bool:
    """True when the blob left out as a glint (``CellRead.extra``) lies on a lattice point
    that is a pip in one of the two counts and bare face in the other (the middle of a 2
    against a 3, say), the layouts turned to match the blobs' pips."""
    if rd.extra is None or rd.extra[2] < C.GLINT_SPOT_MIN_STRENGTH or rd.center is None:
        return False
    step = pip_step(rd.pips_xy, C.PIP_LATTICE_FRACTION * C.CELL_PATCH_PX)
    cx, cy = rd.center
    blobs = {(round((y - cy) / step), round((x - cx) / step)) for x, y in rd.pips_xy}
    others = [lay for k, lay in LAYOUTS if k == paint]
    if not others:
        return False
    other = min(others, key=lambda lay: len(lay ^ blobs))
    ex, ey = rd.extra[0], rd.extra[1]
    return any(math.hypot(ex - (cx + c * step), ey - (cy + r * step)) <= C.GLINT_MASK_LATTICE * step
               for r, c in other ^ blobs)


def _faint_but_read(read: CellRead, on_mat: bool, white: np.ndarray) -> bool:
    """A die hardly unlike what it stands on (a tan die on warm paper, wood or the mat under
    a warm lamp), short of the colour or the pip margin a sure die needs, that its pips and
    its paint still read as one face: a die, in review. On a table the two counts agree,
    the blobs clear of the next by a die's least margin; on the mat either the pips stand
    clear over a face that is not grey (``_pale_on_mat``) or the paint is sure over some
    colour."""
    if on_mat:
        return _pale_on_mat(read, white) or _paint_sure(read, False)
    return _counts_agree(read, C.PIP_MIN_MARGIN)


def _pale_on_mat(read: CellRead, white: np.ndarray) -> bool:
    """A die on the mat whose colour hardly differs from the paper's (a tan die under a warm
    lamp, the paper balanced to white): its pips clear on a standard layout and the paint
    reading the same face (``_counts_agree``, or ``_clear_by_far``), the face not grey like
    the print. In doubt: on the mat colour is what tells a die from print, and here it is
    faint."""
    return ((_counts_agree(read, C.PIP_ALONE_MARGIN) or _clear_by_far(read))
            and not gate.colourless(log_chroma(read.face_bgr), white))


def _clear_by_far(read: CellRead) -> bool:
    """Two or more pips on one face, clear of the next blob by the margin at which even a
    count the paint could not check is sure (PIP_UNCHECKED_SURE_MARGIN), the paint counting
    as many with some point short of clear: pips-warm 20's tan 3 at a block's corner
    (margin 20, the paint's least clear point 0.097 against 0.1) was missed."""
    return (_one_face(read) and read.pips >= 2
            and read.pip_margin >= C.PIP_UNCHECKED_SURE_MARGIN and read.paint_pips == read.pips)


def _counts_agree(read: CellRead, pip_margin: float) -> bool:
    """Two or more pips on one face, clear of the next blob by ``pip_margin``, and the
    paint reading the same count surely."""
    return (_one_face(read) and read.pips >= 2 and read.pip_margin >= pip_margin
            and _paint_agrees(read))


def _table_between(read: CellRead, white: np.ndarray) -> bool:
    """Blobs making no face (off every layout, or one blob: our dice have no 1s) that the
    paint reads no face in either, over the photo's white or over several colours: the
    paper seen through a hole in the block or beside it, its bright patches framed by the
    dark side faces of the dice around it, not a die (every die is one of the game's
    colours, and its face shows a layout of two or more pips)."""
    if (read.layout_ok and read.pips >= 2) or read.paint_pips is not None:
        return False
    return (read.face_spread > C.FACE_MIXED_LOG_CHROMA
            or gate.colourless(log_chroma(read.face_bgr), white))


def _paint_agrees(read: CellRead) -> bool:
    """The paint reads the blobs' count, every lattice point clearly."""
    return read.paint_pips == read.pips and read.paint_margin >= C.PAINT_SURE_MARGIN


def _paint_sure(read: CellRead, on_mat: bool) -> bool:
    """A coloured cell whose nine lattice points the paint read clearly as one face."""
    return (read.paint_pips is not None and read.paint_margin >= C.PAINT_SURE_MARGIN
            and _one_face(read)
            and read.occupied >= (C.PRESENT_SURE_ABOVE if on_mat else C.OCCUPIED_MIN))


def _connected_to_block(
    present: list[tuple[_Cell, float, list[str]]],
) -> list[tuple[_Cell, float, list[str]]]:
    """Keep the largest 4-connected group of dice; a die apart from it is dropped when only
    pip-like texture said it was there, else kept for review (the block must be one piece)."""
    cells = {(c.row, c.col) for c, _, _ in present}
    groups: list[set[tuple[int, int]]] = []
    todo = set(cells)
    while todo:
        start = todo.pop()
        group, stack = {start}, [start]
        while stack:
            r, c = stack.pop()
            for nb in _neighbours(r, c):
                if nb in todo:
                    todo.discard(nb)
                    group.add(nb)
                    stack.append(nb)
        groups.append(group)
    main = max(groups, key=len)
    out = []
    for cell, presence, flags in present:
        if (cell.row, cell.col) in main:
            out.append((cell, presence, flags))
        elif cell.read.occupied >= C.OCCUPIED_MIN:
            out.append((cell, min(presence, 0.5), [*flags, "detached"]))
    return out


def _chromatic(bgr: tuple[float, float, float]) -> bool:
    lc = log_chroma(bgr)
    return float(np.hypot(*lc)) > 0.25

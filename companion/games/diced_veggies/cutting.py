"""The cleaver: which dice a cut pushes, whether it is legal, and every legal cut.

Our reading of the rulebook (docs/rules-readings.md "Diced Veggies"): a cut runs along a seam
between two columns (vertical) or two rows (horizontal) strictly inside the block's bounding
box. The
blade enters from one end of the seam and covers the first ``depth`` rows (columns) from
that end, or the whole seam, then pushes to one side. In each covered row the pushed dice
are the unbroken run starting right beside the seam on the push side; a gap stops the run.
A cut is legal when it pushes at least one die, the pushed pips total at most
``PIP_LIMIT`` (kids: at most ``KIDS_DIE_LIMIT`` dice), and the dice left behind form one
4-connected piece. A block small enough to take whole is taken without a cut.

The engine works on ``{(row, col): pips}`` so it needs nothing from ``model``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import IllegalMoveError
from companion.games.diced_veggies.constants import KIDS_DIE_LIMIT, PIP_LIMIT
from companion.games.diced_veggies.cut import ENDS, PUSHES, Cut, End, Push, Seam
from companion.games.diced_veggies.grid import (
    BitGrid,
    Cell,
    components,
    corner_contacts,
    fmt_cell,
    fmt_cells,
)

Values = Mapping[Cell, int]


@dataclass(frozen=True)
class CutOptions:
    """Rule options for cutting. Each is one reading or variant, switchable in one place."""

    full_length_only: bool = False  # house rule: the blade always runs the whole seam
    kids: bool = False  # kids' variant: any three dice instead of the 10-pip limit
    # docs/rules-readings.md: a block that totals at most the limit is taken whole, not cut.
    # Set True to also allow ordinary cuts on such a block.
    cut_when_take_all: bool = False

    def over_limit(self, count: int, pips: int) -> str | None:
        """Why ``count`` dice totalling ``pips`` are too many to push, or None."""
        if self.kids:
            if count > KIDS_DIE_LIMIT:
                return f"over the limit: {count} dice pushed, the kids' limit is {KIDS_DIE_LIMIT}"
            return None
        if pips > PIP_LIMIT:
            return f"over the limit: the pushed dice total {pips} pips, more than {PIP_LIMIT}"
        return None


@dataclass(frozen=True)
class CutCheck:
    """The verdict on one cut or one set of dice taken. ``reasons`` lists every rule
    broken (empty when legal); ``cut`` is the cut judged or found, if any."""

    legal: bool
    reasons: list[str]
    taken: tuple[Cell, ...]
    sum: int
    cut: Cut | None = None
    take_all: bool = False  # the block was taken whole, without a cut

    def to_json(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "reasons": list(self.reasons),
            "taken": [list(c) for c in self.taken],
            "sum": self.sum,
            "cut": None if self.cut is None else {"spec": str(self.cut), **self.cut.to_json()},
            "take_all": self.take_all,
        }


# ---- geometry --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Bounds:
    top: int
    left: int
    bottom: int
    right: int

    @classmethod
    def around(cls, values: Values) -> _Bounds:
        rows = [r for r, _ in values]
        cols = [c for _, c in values]
        return cls(min(rows), min(cols), max(rows), max(cols))

    def seams(self, seam: Seam) -> range:
        """Seam indices strictly inside the box (the outer boundary is not a seam)."""
        if seam is Seam.VERTICAL:
            return range(self.left + 1, self.right + 1)
        return range(self.top + 1, self.bottom + 1)

    def lines(self, seam: Seam, end: End) -> list[int]:
        """Rows (vertical seam) or columns (horizontal seam) in order from ``end``."""
        if seam is Seam.VERTICAL:
            lines = list(range(self.top, self.bottom + 1))
        else:
            lines = list(range(self.left, self.right + 1))
        return lines[::-1] if end in (End.BOTTOM, End.RIGHT) else lines


def _run(values: Values, seam: Seam, index: int, line: int, push: Push) -> list[Cell]:
    """The unbroken run of dice in one row (column) beside the seam on the push side."""
    step = -1 if push in (Push.LEFT, Push.UP) else 1
    pos = index - 1 if step < 0 else index
    run: list[Cell] = []
    while True:
        cell = (line, pos) if seam is Seam.VERTICAL else (pos, line)
        if cell not in values:
            return run
        run.append(cell)
        pos += step


def covered_lines(values: Values, cut: Cut, box: _Bounds | None = None) -> list[int]:
    if not values:
        return []
    lines = (box or _Bounds.around(values)).lines(cut.seam, cut.end)
    return lines if cut.depth is None else lines[: cut.depth]


def pushed(values: Values, cut: Cut, box: _Bounds | None = None) -> list[Cell]:
    """The dice ``cut`` pushes, whether or not the cut is legal."""
    out: list[Cell] = []
    for line in covered_lines(values, cut, box):
        out.extend(_run(values, cut.seam, cut.index, line, cut.push))
    return sorted(out)


def take_all(values: Values, options: CutOptions) -> bool:
    if not values:
        return False
    return options.over_limit(len(values), sum(values.values())) is None


def split_reasons(values: Values, taken: frozenset[Cell]) -> list[str]:
    """Why the dice left after taking ``taken`` are not one 4-connected piece."""
    pieces = components(c for c in values if c not in taken)
    if len(pieces) <= 1:
        return []
    reasons: list[str] = []
    contacts = corner_contacts(pieces)
    if contacts:
        a, b = contacts[0]
        reasons.append(
            f"corner-only contact: {fmt_cell(a)} and {fmt_cell(b)} would touch only at a corner"
        )
    groups = _eight_pieces(pieces)
    if groups > 1:
        reasons.append(
            f"splits the block into {groups} pieces: {fmt_cells(pieces[-1])} would be cut off"
        )
    return reasons


def _eight_pieces(pieces: list[frozenset[Cell]]) -> int:
    """How many pieces remain when corner contact also counted as a connection."""
    parent = list(range(len(pieces)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner = {cell: i for i, piece in enumerate(pieces) for cell in piece}
    for a, b in corner_contacts(pieces):
        parent[find(owner[a])] = find(owner[b])
    return len({find(i) for i in range(len(pieces))})


# ---- judging ---------------------------------------------------------------------------


def check_cut(values: Values, cut: Cut, options: CutOptions) -> CutCheck:
    """Judge ``cut`` on the block, collecting every rule it breaks."""
    if not values:
        return CutCheck(False, ["the block is empty: restock"], (), 0, cut)
    box = _Bounds.around(values)
    reasons: list[str] = []
    inside = box.seams(cut.seam)
    if cut.index not in inside:
        kind = "columns" if cut.seam is Seam.VERTICAL else "rows"
        where = (
            f"{cut.seam.value} seams inside it are {inside.start}-{inside.stop - 1}"
            if len(inside)
            else f"it has no {cut.seam.value} seams"
        )
        reasons.append(
            f"seam {cut.index} is not between two {kind} of the block ({where})"
        )
    length = len(box.lines(cut.seam, cut.end))
    if options.full_length_only and cut.depth is not None and cut.depth < length:
        reasons.append(
            f"only full-length cuts are allowed; this one covers {cut.depth} of {length}"
        )
    if take_all(values, options) and not options.cut_when_take_all:
        reasons.append(_take_all_reason(values, options))
    taken = tuple(pushed(values, cut)) if cut.index in inside else ()
    pips = sum(values[c] for c in taken)
    if not taken and cut.index in inside:
        reasons.append("the cut pushes no dice")
    limit = options.over_limit(len(taken), pips)
    if limit:
        reasons.append(limit)
    if taken:
        reasons.extend(split_reasons(values, frozenset(taken)))
    return CutCheck(not reasons, reasons, taken, pips, cut)


def _take_all_reason(values: Values, options: CutOptions) -> str:
    if options.kids:
        return (
            f"the block has only {len(values)} dice (at most {KIDS_DIE_LIMIT}): "
            "take it all without cutting"
        )
    return (
        f"the whole block totals {sum(values.values())} pips (at most {PIP_LIMIT}): "
        "take it all without cutting"
    )


def _all_cuts(values: Values, full_only: bool) -> Iterator[tuple[Cut, int]]:
    """Every geometric cut (legal or not) with its rank: full-length first, then shallower."""
    box = _Bounds.around(values)
    for seam in Seam:
        for index in box.seams(seam):
            for push in PUSHES[seam]:
                yield Cut.full(seam, index, push), 0
                if full_only:
                    continue
                for end in ENDS[seam]:
                    for depth in range(1, len(box.lines(seam, end))):
                        yield Cut(seam, index, end, depth, push), depth


def explain_taken(values: Values, taken: frozenset[Cell], options: CutOptions) -> CutCheck:
    """Judge taking exactly ``taken``: find a cut that does it, else say every reason
    none can (not a straight push from an edge, over the limit, splits the block,
    corner-only contact, ...)."""
    ordered = tuple(sorted(taken))
    strays = [c for c in ordered if c not in values]
    if strays:
        return CutCheck(False, [f"no die at {fmt_cells(strays)}"], ordered, 0)
    pips = sum(values[c] for c in ordered)
    if not ordered:
        return CutCheck(False, ["no dice were taken"], ordered, 0)
    whole = len(ordered) == len(values)
    small = take_all(values, options)
    if whole and small:
        return CutCheck(True, [], ordered, pips, None, take_all=True)
    reasons: list[str] = []
    if whole:
        reasons.append(
            f"takes the whole block, which totals {sum(values.values())} pips"
            if not options.kids
            else f"takes the whole block of {len(values)} dice"
        )
    if small and not options.cut_when_take_all:
        reasons.append(_take_all_reason(values, options))
    box = _Bounds.around(values)
    matches = [(rank, cut) for cut, rank in _all_cuts(values, False)
               if frozenset(pushed(values, cut, box)) == taken]
    allowed = [m for m in matches if m[1].is_full or not options.full_length_only]
    best = min(allowed or matches, key=lambda m: m[0], default=None)
    if not matches and not whole:
        reasons.append(
            "not a straight push from an edge: no seam, entry end and push side moves "
            f"exactly {fmt_cells(ordered)}"
        )
    elif matches and not allowed:
        reasons.append(
            "only a partial-depth cut takes exactly these dice, and only full-length cuts "
            "are allowed"
        )
    limit = options.over_limit(len(ordered), pips)
    if limit:
        reasons.append(limit)
    reasons.extend(split_reasons(values, taken))
    return CutCheck(not reasons, reasons, ordered, pips, None if best is None else best[1])


def cut_for(values: Values, taken: frozenset[Cell], options: CutOptions) -> Cut:
    """A legal cut taking exactly ``taken``, or IllegalMoveError with every reason."""
    verdict = explain_taken(values, taken, options)
    if verdict.legal and verdict.cut is not None:
        return verdict.cut
    if verdict.take_all:
        raise IllegalMoveError(
            "no cut is needed: the block is small enough to take whole without cutting"
        )
    raise IllegalMoveError(
        f"no legal cut takes {fmt_cells(verdict.taken)}: " + "; ".join(verdict.reasons)
    )


# ---- listing every legal cut -----------------------------------------------------------


def legal_cut_checks(values: Values, options: CutOptions) -> list[CutCheck]:
    """Every legal cut with what it takes, one per distinct set of dice taken.

    For each seam and push side the covered rows grow one at a time from each end, so
    the pushed pips only grow; the walk stops at the limit. Sets are compared as bitmasks
    and each distinct remainder is flood-filled once. Among cuts taking the same dice the
    full-length one, else the shallowest, represents them.
    """
    if not values or (take_all(values, options) and not options.cut_when_take_all):
        return []
    grid = BitGrid.around(values)
    occupied = grid.mask(values)
    box = _Bounds.around(values)
    best: dict[int, tuple[tuple[int, int], Cut, int]] = {}
    order = 0

    def offer(mask: int, pips: int, cut: Cut, rank: int) -> None:
        nonlocal order
        order += 1
        key = (rank, order)
        if mask and (mask not in best or key < best[mask][0]):
            best[mask] = (key, cut, pips)

    for seam in Seam:
        for index in box.seams(seam):
            for push in PUSHES[seam]:
                runs: dict[int, tuple[int, int, int]] = {}
                for line in box.lines(seam, ENDS[seam][0]):
                    run = _run(values, seam, index, line, push)
                    runs[line] = (grid.mask(run), sum(values[c] for c in run), len(run))
                mask = pips = count = 0
                for m, p, n in runs.values():
                    mask, pips, count = mask | m, pips + p, count + n
                if options.over_limit(count, pips) is None:
                    offer(mask, pips, Cut.full(seam, index, push), 0)
                if options.full_length_only:
                    continue
                for end in ENDS[seam]:
                    lines = box.lines(seam, end)
                    mask = pips = count = 0
                    for depth, line in enumerate(lines[:-1], start=1):
                        m, p, n = runs[line]
                        mask, pips, count = mask | m, pips + p, count + n
                        if options.over_limit(count, pips) is not None:
                            break
                        offer(mask, pips, Cut(seam, index, end, depth, push), depth)

    checks: list[CutCheck] = []
    for mask, (_, cut, pips) in best.items():
        if grid.connected(occupied & ~mask):
            checks.append(CutCheck(True, [], tuple(sorted(grid.cells(mask))), pips, cut))
    checks.sort(key=lambda c: _cut_order(c.cut))
    return checks


def _cut_order(cut: Cut | None) -> tuple[int, int, int, int, int, int]:
    assert cut is not None
    return (
        list(Seam).index(cut.seam),
        cut.index,
        list(Push).index(cut.push),
        0 if cut.depth is None else 1,
        list(End).index(cut.end),
        cut.depth or 0,
    )


def legal_cuts(values: Values, options: CutOptions) -> list[Cut]:
    return [c.cut for c in legal_cut_checks(values, options) if c.cut is not None]


__all__ = [
    "CutCheck",
    "CutOptions",
    "check_cut",
    "covered_lines",
    "cut_for",
    "explain_taken",
    "legal_cut_checks",
    "legal_cuts",
    "pushed",
    "split_reasons",
    "take_all",
]

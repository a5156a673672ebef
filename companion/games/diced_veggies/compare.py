"""Judge the cut that happened between two readings of the block (before and after).

The after block may have been nudged while cutting or re-photographed from another spot
or side of the table, so its grid is first aligned to the before block by the quarter turn
and integer translation under which most remaining dice match in ingredient and value. The dice of
the before block with no counterpart are the ones taken; that set is then judged like
any other (``cutting.explain_taken``). Dice that changed face or colour, or that
appeared from nowhere, make the change illegal and are reported.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from companion.games.diced_veggies.cutting import CutCheck, CutOptions, explain_taken
from companion.games.diced_veggies.grid import Cell, fmt_cell
from companion.games.diced_veggies.model import Block, Die


@dataclass(frozen=True, kw_only=True)
class ChangeCheck(CutCheck):
    """A ``CutCheck`` plus how the blocks were aligned and what else changed.
    ``offset`` maps an after cell to a before cell: before = after + offset."""

    offset: tuple[int, int]
    turns: int = 0  # quarter turns (clockwise on the grid) applied to the after block first
    changed: tuple[tuple[Die, Die], ...]  # (before, after) at the same aligned cell
    extra: tuple[Die, ...]  # after dice (in before coordinates) on cells that were empty

    def to_json(self) -> dict[str, Any]:
        return {
            **super().to_json(),
            "offset": list(self.offset),
            "turns": self.turns,
            "changed": [{"before": b.to_json(), "after": a.to_json()} for b, a in self.changed],
            "extra": [d.to_json() for d in self.extra],
        }


def align(before: Block, after: Block) -> tuple[int, int]:
    """The translation (before = after + offset) matching most dice exactly; ties go to
    more dice landing on occupied cells, then to the smallest shift."""
    if not before.dice or not after.dice:
        return (0, 0)
    votes: Counter[tuple[int, int]] = Counter()
    for a in after.dice:
        for b in before.dice:
            if (a.ingredient, a.value) == (b.ingredient, b.value):
                votes[(b.row - a.row, b.col - a.col)] += 1
    candidates = set(votes) | {(0, 0)}

    def score(offset: tuple[int, int]) -> tuple[int, int, int]:
        dr, dc = offset
        landed = sum((a.row + dr, a.col + dc) in before for a in after.dice)
        return (votes[offset], landed, -(abs(dr) + abs(dc)))

    return max(sorted(candidates), key=score)


def turned(block: Block, turns: int) -> Block:
    """The block turned by ``turns`` quarter turns, rows and cols starting at 0 again."""
    k = turns % 4
    if k == 0 or not block.dice:
        return block
    rows = 1 + max(d.row for d in block.dice)
    cols = 1 + max(d.col for d in block.dice)
    out = []
    for d in block.dice:
        r, c, h, w = d.row, d.col, rows, cols
        for _ in range(k):  # (r, c) -> (c, h - 1 - r): a quarter turn clockwise
            r, c, h, w = c, h - 1 - r, w, h
        out.append(Die(r, c, d.ingredient, d.value))
    return Block.of(out, require_connected=False)


def align_turned(before: Block, after: Block) -> tuple[int, tuple[int, int]]:
    """The quarter turn and translation of ``after`` matching most dice of ``before``;
    ties go to no turn, then to fewer turns."""
    best: tuple[tuple[int, int, int], int, tuple[int, int]] | None = None
    for k in range(4):
        a = turned(after, k)
        off = align(before, a)
        dr, dc = off
        matches = sum(
            1 for d in a.dice
            if (b := before.at((d.row + dr, d.col + dc))) is not None
            and (b.ingredient, b.value) == (d.ingredient, d.value)
        )
        key = (matches, -min(k, 4 - k), -k)
        if best is None or key > best[0]:
            best = (key, k, off)
    assert best is not None
    return best[1], best[2]


def _alignments(before: Block, after: Block) -> list[tuple[int, tuple[int, int]]]:
    """Every (quarter turn, translation) of ``after`` that matches as many dice of
    ``before`` as the best one, in the order ``align_turned`` prefers them."""
    scored: list[tuple[tuple[int, int, int, int], int, tuple[int, int]]] = []
    for k in range(4):
        a = turned(after, k)
        offsets = {(b.row - d.row, b.col - d.col) for d in a.dice for b in before.dice
                   if (b.ingredient, b.value) == (d.ingredient, d.value)} | {(0, 0)}
        for dr, dc in offsets:
            matches = sum(
                1 for d in a.dice
                if (b := before.at((d.row + dr, d.col + dc))) is not None
                and (b.ingredient, b.value) == (d.ingredient, d.value)
            )
            landed = sum((d.row + dr, d.col + dc) in before for d in a.dice)
            key = (matches, landed, -min(k, 4 - k) * 100 - k, -(abs(dr) + abs(dc)))
            scored.append((key, k, (dr, dc)))
    top = max(key[0] for key, _, _ in scored)
    scored.sort(key=lambda t: t[0], reverse=True)
    return [(k, off) for key, k, off in scored if key[0] == top]


def judge_change(
    before: Block, after: Block, options: CutOptions | None = None
) -> ChangeCheck:
    """What was taken between ``before`` and ``after``, and whether a legal cut did it.

    Where several placements of the after block match equally many dice (a row of equal
    dice can be read one cell further along), a legal cut explaining any of them is the
    answer; otherwise the verdict of the most likely placement.
    """
    opts = options if options is not None else CutOptions()
    if not before.dice or not after.dice:
        return _judge_at(before, after, 0, (0, 0), opts)
    verdicts = [_judge_at(before, after, k, off, opts) for k, off in _alignments(before, after)]
    return next((v for v in verdicts if v.legal), verdicts[0])


def _judge_at(before: Block, after: Block, turns: int, offset: tuple[int, int],
              opts: CutOptions) -> ChangeCheck:
    """The verdict with ``after`` turned ``turns`` quarter turns and moved by ``offset``."""
    dr, dc = offset
    moved = [d.moved(dr, dc) for d in turned(after, turns).dice]
    changed: list[tuple[Die, Die]] = []
    extra: list[Die] = []
    kept: set[Cell] = set()
    for d in moved:
        old = before.at(d.cell)
        if old is None:
            extra.append(d)
            continue
        kept.add(d.cell)
        if (old.ingredient, old.value) != (d.ingredient, d.value):
            changed.append((old, d))
    taken = frozenset(before.cells - kept)
    reasons = [
        f"die at {fmt_cell(old.cell)} changed from {old.ingredient.value} {old.value} "
        f"to {new.ingredient.value} {new.value}"
        for old, new in changed
    ]
    reasons += [f"a {d.ingredient.value} {d.value} appeared at {fmt_cell(d.cell)}, "
                "where the block had no die" for d in extra]
    verdict = explain_taken(before.values, taken, opts)
    reasons += verdict.reasons
    return ChangeCheck(
        legal=not reasons,
        reasons=reasons,
        taken=verdict.taken,
        sum=verdict.sum,
        cut=verdict.cut,
        take_all=verdict.take_all,
        offset=(dr, dc),
        turns=turns,
        changed=tuple(changed),
        extra=tuple(extra),
    )

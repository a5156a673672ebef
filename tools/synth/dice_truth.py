"""Score a dice reading against the synthetic photo's truth (tests and the benchmark).

Dice are matched by where they are in the photo, not by their (row, col): a block read
with one missed corner is numbered differently but each die is still right or wrong on
its own. The cell is then checked after the one offset that aligns most dice.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from tools.synth.dice_photo import DicePhoto

MATCH_RADIUS_PITCH = 0.45  # a read die this close (pitch units) to a true die is that die


class _Die(Protocol):  # noqa: B903 - a structural type
    row: int
    col: int
    value: int
    review: bool
    center_px: tuple[float, float]

    @property
    def ingredient(self) -> object: ...


@dataclass(frozen=True)
class DiceScore:
    dice: int  # true dice in the photo
    ingredient_ok: int
    value_ok: int
    all_ok: int  # ingredient, pips and cell right
    missed: int  # true dice with no reading
    phantom: int  # readings with no true die
    silent: int  # wrong (or phantom) and not sent to review
    review: int  # readings sent to review

    def __add__(self, other: DiceScore) -> DiceScore:
        return DiceScore(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple(), strict=True)))

    def as_tuple(self) -> tuple[int, ...]:
        return (self.dice, self.ingredient_ok, self.value_ok, self.all_ok, self.missed,
                self.phantom, self.silent, self.review)


ZERO = DiceScore(0, 0, 0, 0, 0, 0, 0, 0)


def _name(x: object) -> str:
    return str(getattr(x, "value", x))


def match_dice(photo: DicePhoto, dice: Iterable[_Die]) -> list[tuple[_Die, tuple[int, int]]]:
    """Each read die paired with the true die it stands on (phantoms left out)."""
    radius = MATCH_RADIUS_PITCH * (photo.pitch_px or 50.0)
    pairs: list[tuple[_Die, tuple[int, int]]] = []
    used: set[tuple[int, int]] = set()
    for d in dice:
        best = min(photo.centers_px, key=lambda k: math.dist(photo.centers_px[k], d.center_px))
        if math.dist(photo.centers_px[best], d.center_px) <= radius and best not in used:
            used.add(best)
            pairs.append((d, best))
    return pairs


def block_offset(pairs: Iterable[tuple[_Die, tuple[int, int]]]) -> tuple[int, int]:
    """The (row, col) shift from read to true cells that aligns most matched dice."""
    offsets = Counter((t[0] - d.row, t[1] - d.col) for d, t in pairs)
    return offsets.most_common(1)[0][0] if offsets else (0, 0)


def die_right(d: _Die, true: dict[str, object], cell: tuple[int, int],
              offset: tuple[int, int]) -> tuple[bool, bool, bool]:
    """(ingredient right, pips right, cell right after ``offset``) of a matched die."""
    return (_name(d.ingredient) == true["ingredient"], d.value == true["value"],
            (d.row + offset[0], d.col + offset[1]) == cell)


def score_reading(photo: DicePhoto, dice: Iterable[_Die]) -> DiceScore:
    truth = {(d["row"], d["col"]): d for d in photo.block["dice"]}
    dice = list(dice)
    pairs = match_dice(photo, dice)
    paired = {id(d) for d, _ in pairs}
    phantoms = [d for d in dice if id(d) not in paired]
    review = sum(d.review for d in dice)
    phantom = len(phantoms)
    silent = sum(not d.review for d in phantoms)
    offset = block_offset(pairs)
    ing_ok = val_ok = all_ok = 0
    for d, t in pairs:
        ing, val, cell = die_right(d, truth[t], t, offset)
        ing_ok += ing
        val_ok += val
        all_ok += ing and val and cell
        silent += not (ing and val and cell) and not d.review
    return DiceScore(len(truth), ing_ok, val_ok, all_ok, len(truth) - len(pairs), phantom,
                     silent, review)

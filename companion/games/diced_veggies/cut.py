"""The ``Cut`` value type and its text notation.

Notation (case-insensitive; ``-``, ``:``, ``/``, ``_`` and spaces between parts are ignored)::

    <seam><index>[<end><depth>]<push>

    seam   V (vertical: between columns index-1 and index)
           H (horizontal: between rows index-1 and index)
    end    where the blade enters: T or B for a vertical seam, L or R for a horizontal one
    depth  how many rows (columns) from that end the blade covers; omit end and depth for
           a full-length cut
    push   L or R for a vertical seam, U or D for a horizontal one

``V3L``: full vertical seam between columns 2 and 3, push left. ``V3T2R``: enter from the
top, cover rows 0-1 of the block, push right. ``H1L4D``: horizontal seam between rows 0
and 1, enter from the left over four columns, push down. ``str(cut)`` gives this form and
``Cut.parse`` reads it back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.errors import InputError


class Seam(StrEnum):
    VERTICAL = "vertical"
    HORIZONTAL = "horizontal"


class End(StrEnum):
    """The end of the seam where the blade enters."""

    TOP = "top"
    BOTTOM = "bottom"
    LEFT = "left"
    RIGHT = "right"


class Push(StrEnum):
    LEFT = "left"
    RIGHT = "right"
    UP = "up"
    DOWN = "down"


ENDS: dict[Seam, tuple[End, End]] = {
    Seam.VERTICAL: (End.TOP, End.BOTTOM),
    Seam.HORIZONTAL: (End.LEFT, End.RIGHT),
}
PUSHES: dict[Seam, tuple[Push, Push]] = {
    Seam.VERTICAL: (Push.LEFT, Push.RIGHT),
    Seam.HORIZONTAL: (Push.UP, Push.DOWN),
}
_SEAM_LETTER = {Seam.VERTICAL: "V", Seam.HORIZONTAL: "H"}
_END_LETTER = {End.TOP: "T", End.BOTTOM: "B", End.LEFT: "L", End.RIGHT: "R"}
_PUSH_LETTER = {Push.LEFT: "L", Push.RIGHT: "R", Push.UP: "U", Push.DOWN: "D"}
_SPEC = re.compile(r"([VH])(\d+)(?:([TBLR])(\d+))?([LRUD])")
_SEPARATORS = re.compile(r"[\s\-:/_]+")
SPEC_HELP = "expected <V|H><index>[<end><depth>]<push>, e.g. V3L, V3T2R or H1L4D"
MAX_SPEC = 32  # characters: far past any block's seams, short of Python's 4,300-digit limit


@dataclass(frozen=True)
class Cut:
    """One cleaver cut. ``depth`` None is a full-length cut; its ``end`` is then
    irrelevant and normalised to the first end of the seam (top or left)."""

    seam: Seam
    index: int
    end: End
    depth: int | None
    push: Push

    def __post_init__(self) -> None:
        if self.end not in ENDS[self.seam]:
            raise InputError(
                f"a {self.seam.value} seam is entered from "
                + " or ".join(e.value for e in ENDS[self.seam])
                + f", not {self.end.value}"
            )
        if self.push not in PUSHES[self.seam]:
            raise InputError(
                f"a {self.seam.value} seam pushes "
                + " or ".join(p.value for p in PUSHES[self.seam])
                + f", not {self.push.value}"
            )
        if self.index < 0:
            raise InputError(f"seam index must be 0 or more, not {self.index}")
        if self.depth is not None and self.depth < 1:
            raise InputError(f"cut depth must be at least 1, not {self.depth}")
        if self.depth is None and self.end != ENDS[self.seam][0]:
            object.__setattr__(self, "end", ENDS[self.seam][0])

    @classmethod
    def full(cls, seam: Seam, index: int, push: Push) -> Cut:
        return cls(seam, index, ENDS[seam][0], None, push)

    @property
    def is_full(self) -> bool:
        return self.depth is None

    def __str__(self) -> str:
        part = "" if self.depth is None else f"{_END_LETTER[self.end]}{self.depth}"
        return f"{_SEAM_LETTER[self.seam]}{self.index}{part}{_PUSH_LETTER[self.push]}"

    @classmethod
    def parse(cls, spec: str) -> Cut:
        if len(spec) > MAX_SPEC:
            raise InputError(f"malformed cut spec ({len(spec):,} characters, at most "
                             f"{MAX_SPEC}): {SPEC_HELP}")
        text = _SEPARATORS.sub("", spec).upper()
        m = _SPEC.fullmatch(text)
        if not m:
            raise InputError(f"malformed cut spec {spec!r}: {SPEC_HELP}")
        seam = Seam.VERTICAL if m[1] == "V" else Seam.HORIZONTAL
        ends = {_END_LETTER[e]: e for e in ENDS[seam]}
        pushes = {_PUSH_LETTER[p]: p for p in PUSHES[seam]}
        if m[3] is not None and m[3] not in ends:
            raise InputError(
                f"malformed cut spec {spec!r}: a {seam.value} seam is entered from "
                + " or ".join(ends)
            )
        if m[5] not in pushes:
            raise InputError(
                f"malformed cut spec {spec!r}: a {seam.value} seam pushes " + " or ".join(pushes)
            )
        end = ends[m[3]] if m[3] is not None else ENDS[seam][0]
        depth = int(m[4]) if m[4] is not None else None
        if depth is not None and depth < 1:
            raise InputError(f"malformed cut spec {spec!r}: depth must be at least 1")
        return cls(seam, int(m[2]), end, depth, pushes[m[5]])

    def to_json(self) -> dict[str, Any]:
        return {
            "seam": self.seam.value,
            "index": self.index,
            "from": self.end.value,
            "depth": self.depth,
            "push": self.push.value,
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Cut:
        try:
            depth = doc.get("depth")
            if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool)):
                raise ValueError(f"depth {depth!r}")
            index = doc["index"]
            if not isinstance(index, int) or isinstance(index, bool):
                raise ValueError(f"index {index!r}")
            seam = Seam(doc["seam"])
            return cls(seam, index, End(doc.get("from", ENDS[seam][0])), depth, Push(doc["push"]))
        except (KeyError, ValueError, TypeError, AttributeError) as exc:
            raise InputError(f"malformed cut object: {exc}") from None

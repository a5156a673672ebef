"""One type for what a sheet, a table or a final state breaks, in every game.

Each game names its problems with a ``ProblemCode`` enum (stable strings users script
against, docs/contracts.md); the enum also says what its problems point at in JSON: the
sheet fields (Delicious) or the player (Diced Veggies, Wild Gardens).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class ProblemCode(StrEnum):
    """Base of every game's problem codes."""

    @property
    def points_at(self) -> tuple[str, ...]:
        """The ``Problem`` attributes its JSON carries between the code and the message."""
        return ("fields",)


class PlayerProblemCode(ProblemCode):
    """Codes of games whose problems concern a player (None: the whole table)."""

    @property
    def points_at(self) -> tuple[str, ...]:
        return ("player",)


@dataclass(frozen=True)
class Problem:
    """A rule broken: its code, where (sheet fields, or a player), and why, in words."""

    code: ProblemCode
    fields: tuple[str, ...]  # the field ids it concerns, on sheet games; () elsewhere
    message: str
    player: str | None = None  # the player it concerns, on games scored per player

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code.value}
        for name in self.code.points_at:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        out["message"] = self.message
        return out

"""A stand-in for the reader's per-field reading, for tests of the table path that need
no photo (the pairing, the shared read path, the supply check)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class FakeField:
    id: str
    value: str | None
    confidence: float = 1.0
    note: str = ""

    @property
    def review(self) -> bool:
        return self.confidence < 0.9

    def set_by_hand(self, value: str | None) -> FakeField:
        return FakeField(self.id, value, 1.0, "set by hand")

"""The ``dice cuts --json`` document, built once for the command line and the web app."""

from __future__ import annotations

from typing import Any

from companion.games.diced_veggies.cutting import CutCheck, CutOptions
from companion.games.diced_veggies.model import Block


def cut_entry(check: CutCheck) -> dict[str, Any]:
    """One legal cut: the cut itself, its spec, the dice it takes and their pips."""
    assert check.cut is not None
    return {**check.cut.to_json(), "spec": str(check.cut),
            "taken": [list(c) for c in check.taken], "sum": check.sum}


def cuts_document(block: Block, options: CutOptions,
                  checks: list[CutCheck] | None = None) -> dict[str, Any]:
    """Every legal cut of ``block``, one per distinct set of dice taken (``checks`` when
    the caller already listed them)."""
    listed = block.legal_cut_checks(options) if checks is None else checks
    return {"take_all": block.take_all(options), "cuts": [cut_entry(c) for c in listed],
            "dice": len(block), "total": block.total}

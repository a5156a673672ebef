"""Letters whose two likeliest readings the same sheet already leaves in doubt elsewhere.

One player writes every letter on a sheet, and a hand that makes two letters look alike
does so in every cell: a writer whose F the reader doubts against G in one cell writes all
their F like that, and now and then one of them reads as a sure G. So a letter whose two
likeliest readings are the very pair a doubtful letter of the same sheet hesitated between
needs more certainty before it is trusted (tools/fit_letter_sheets.py fits how much, on
the real calibration writers' sheets).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TypeVar

# One letter field: its read letter, the runner-up letter ("" if the field allowed none),
# and the read letter's probability among the field's letters.
LetterCall = tuple[str, str, float]
K = TypeVar("K", bound=Hashable)


def doubted_pairs(calls: Mapping[K, LetterCall], doubt_below: float) -> set[K]:
    """The fields whose (read, runner-up) pair is that of another field of the same sheet
    whose letter is below ``doubt_below`` (that field itself is in review anyway)."""
    doubters: dict[frozenset[str], list[K]] = {}
    for key, (top, second, q) in calls.items():
        if second and q < doubt_below:
            doubters.setdefault(frozenset((top, second)), []).append(key)
    out: set[K] = set()
    for key, (top, second, _q) in calls.items():
        if not second:
            continue
        who = doubters.get(frozenset((top, second)), [])
        if any(k != key for k in who):
            out.add(key)
    return out

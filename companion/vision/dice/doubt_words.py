"""Why the dice reader doubts a die, in words for the people at the table (the reader's
flags are short names made for tests and benchmarks)."""

from __future__ import annotations

import re
from collections.abc import Iterable

_WORDS: dict[str, str] = {
    "pips-unclear": "the pips are hard to count",
    "colours-mixed": "its top shows more than one colour",
    "no-pips-found": "no pips were found on it",
    "like-the-table": "it looks much like the table or mat it stands on",
    "walled-in": "it was found only because dice stand on all four sides of it",
    "found-by-network": "it hardly stands out from the table, and was found by its shape",
    "off-cell": "it sits off the block's grid",
    "off-centre": "it sits off the middle of its place",
    "detached": "it stands apart from the block",
    "no-veggie-colour": "its colour is not clearly any vegetable's",
    "colour-light-doubtful": "the light makes its colour uncertain",
    "colour-unknown": "its colour is unlike the other dice in this photo",
    "colour-apart": "its colour stands apart from the other dice read as this vegetable",
    "colour-too-many": "more dice than the game's 7 were read as this vegetable",
    "colour-crowded": "another vegetable was read on more dice than the game has, and with "
                      "7 of each this die is named otherwise",
    "colour-regrouped": "more dice than the game's 7 looked like one vegetable, and with "
                        "at most 7 of each this die is named otherwise",
    "colour-beside-absent": "all 7 of this vegetable's dice were read here and none of "
                            "another's, whose dice may be among them",
    "pips-off-layout": "its pips are not laid out as on a die",
    "pips-unchecked": "its pips could not be checked by their colour",
    "pips-faint": "its pips hardly stand out from its face",
    "pips-off-spacing": "two pips sit too close: one may be a glint",
    "face-not-in-set": "no die of the game has this face",
    "glint": "a glint may have been counted as a pip",
    "pip-off-lattice": "a pip sits out of line with the others",
    "pip-or-highlight": "a pip may be a highlight",
    "pips-by-network": "its pips were counted from the whole face, the single pips unclear",
    "pips-network-differs": "its pips counted one by one and as a whole face differ",
}
# Flags that say how a die was read, not a doubt about it.
_NOT_DOUBTS = frozenset({"pips-by-paint"})


def doubt_words(flag: str) -> str | None:
    """One flag in words; None for a flag that is no doubt."""
    if flag in _NOT_DOUBTS:
        return None
    if flag.startswith("colour-near-"):
        return f"its colour is close to a {flag.removeprefix('colour-near-')}'s"
    both = re.fullmatch(r"pips-(\d)-or-(\d)", flag)
    if both:
        return f"it may show {both[1]} or {both[2]} pips"
    if flag.startswith("colour-like-a-"):
        return f"its colour looks like a {flag.removeprefix('colour-like-a-')}'s"
    return _WORDS.get(flag, flag.replace("-", " "))


def doubts_sentence(flags: Iterable[str]) -> str:
    """Every doubt of a die, joined; "it was read with low confidence" without one."""
    said: list[str] = []
    for f in flags:
        w = doubt_words(f)
        if w and w not in said:
            said.append(w)
    if not said:
        return "it was read with low confidence"
    return "; ".join(said)

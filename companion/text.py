"""Small facts about text that every layer shares (the engines included: pure Python)."""

from __future__ import annotations

import unicodedata

# The longest player (or night) name: the store refuses a longer one, and a name a game
# takes from a photo's file name is cut to it.
MAX_NAME_CHARS = 60


def ascii_number(text: str, max_digits: int | None = None) -> bool:
    """Whether ``text`` is a whole number written in ASCII digits 0-9 only, at most
    ``max_digits`` of them: not "", "²", "١", "1_0" or "+1", which int() takes or chokes
    on, and not 5,000 digits, which int() refuses. Each caller keeps its own limit."""
    return (text.isascii() and text.isdigit()
            and (max_digits is None or len(text) <= max_digits))


def name_key(text: str) -> str:
    """The form two names are compared in, by the store and every game: "Zoë", "ZOË",
    "zoe\u0308", " Zoë " and full-width "Ｚｏë" are one player."""
    return unicodedata.normalize("NFKC", " ".join(text.split())).casefold()

"""The remote table's rules that need no photo: which of a player's sheets count (sending
again replaces), and what ``--public`` accepts."""

from __future__ import annotations

import pytest

from companion.cli.serve import _ListenError, public_origin
from companion.store.models import Reading
from companion.web.remote import current


def _r(rid: int, sheet: str) -> Reading:
    return Reading(rid, rid, "delicious-sheet", 1, {"sheet": f"delicious-{sheet}"})


@pytest.mark.parametrize("sent,counted", [
    (["combo"], [1]),
    (["combo", "combo"], [2]),  # a retake replaces the first
    (["garden", "play"], [1, 2]),
    (["garden", "play", "garden"], [3, 2]),  # the latest garden, the play sheet kept
    (["garden", "combo"], [2]),  # a combo after the halves replaces them
    (["combo", "garden"], [2]),  # a garden after the combo: the combo no longer counts
    (["combo", "garden", "play"], [2, 3]),
    ([], []),
])
def test_sending_again_replaces_the_sheet_of_that_kind(sent, counted):
    readings = [_r(i + 1, s) for i, s in enumerate(sent)]
    assert [r.id for r in current(readings)] == counted


@pytest.mark.parametrize("value,origin", [
    ("https://night.example.org", "https://night.example.org"),
    ("https://Night.Example.org/", "https://night.example.org"),
    ("https://night.example.org:8443", "https://night.example.org:8443"),
    ("https://night.example.org:443", "https://night.example.org"),
])
def test_an_https_origin_is_accepted(value, origin):
    assert public_origin(value) == origin


def test_anything_else_is_refused():
    with pytest.raises(_ListenError, match="https://"):
        public_origin("http://night.example.org")

"""A sketching player's second sheet read with the drawings they named on their first
(``delicious read --save-drawings`` then ``--drawings``), end to end on photographs."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import invoke, one_line_error

pytestmark = pytest.mark.synth


@pytest.fixture(scope="module")
def sheets(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, dict[str, Any]]]:
    """One held-out player's two games: the same hand, other plants, other photos."""
    from tools.example_photos import sketched_game_photos

    return sketched_game_photos(tmp_path_factory.mktemp("own"))  # type: ignore[return-value]


def _read(*args: str) -> dict[str, Any]:
    """The one player's part of ``read --json`` (one photo: the document itself)."""
    res = invoke("delicious", "read", "--json", *args)
    assert res.exit_code in (0, 1), res.output
    doc = json.loads(res.stdout)
    return doc["players"][0] if "players" in doc else doc


def _answers(doc: dict[str, Any], truth: dict[str, Any]) -> list[str]:
    """Each question answered with the plant most of its fields hold, as one tap does."""
    return [f"{q['fields'][0]}="
            f"{Counter(truth[f] for f in q['fields']).most_common(1)[0][0]}"
            for q in doc["questions"]]


def test_a_second_sheet_asks_less_and_stays_right(sheets: list[tuple[Path, dict[str, Any]]],
                                                  tmp_path: Path) -> None:
    (first, truth1), (second, truth2) = sheets
    mine = tmp_path / "mine.json"
    asked = _read(str(first))
    names = [a for n in _answers(asked, truth1) for a in ("--name", n)]
    res = invoke("delicious", "read", str(first), *names, "--save-drawings", str(mine))
    assert res.exit_code in (0, 1) and f"wrote {mine}" in res.stderr
    saved = json.loads(mine.read_text())
    assert saved["format"] == "companion-drawings" and len(saved["plants"]) >= 5

    alone = _read(str(second))
    helped = _read(str(second), "--drawings", str(mine))
    assert len(helped["questions"]) < len(alone["questions"])
    named = helped["named_by_drawings"]
    assert named and not set(named) & set(helped["review"]) and "named_by_drawings" not in alone
    wrong = [f for f, v in truth2.items() if helped["fields"].get(f) != v]
    assert not [f for f in wrong if f not in helped["review"]], "a silent error"
    for q in helped["questions"]:
        assert set(q["fields"]) <= set(helped["review"])
    text = invoke("delicious", "read", str(second), "--drawings", str(mine)).stdout
    assert re.search(r"^\d+ drawings? named like the player's earlier drawings", text, re.M)


def test_a_bad_drawings_option_is_one_line(sheets: list[tuple[Path, dict[str, Any]]],
                                           tmp_path: Path) -> None:
    photo = str(sheets[0][0])
    assert "not a JSON drawings file" in one_line_error(
        invoke("delicious", "read", photo, "--drawings", photo))
    assert "player number must be 1..1" in one_line_error(
        invoke("delicious", "read", photo, "--save-drawings", f"2:{tmp_path / 'x.json'}"))
    # one file for two players: the second player's drawings would replace the first's
    both = tmp_path / "both.json"
    line = one_line_error(invoke("delicious", "read", photo, str(sheets[1][0]),
                                 "--save-drawings", f"1:{both}", "--save-drawings", f"2:{both}"))
    assert f"{both} is given for players 1 and 2" in line and not both.exists()
    stale = tmp_path / "stale.json"
    stale.write_text(json.dumps({"format": "companion-drawings", "version": 1,
                                 "model": "another", "plants": {"fig": [[1.0, 0.0]]}}))
    res = invoke("delicious", "read", photo, "--drawings", str(stale))
    assert res.exit_code in (0, 1) and "another version of the sketch reader" in res.stderr


def test_an_answer_rules_its_plant_out_for_the_other_drawings(
        sheets: list[tuple[Path, dict[str, Any]]]) -> None:
    """Questions answered one at a time with --name: an answer settles other questions
    (their fields leave review, named_by_answers), and nothing is then silently wrong."""
    first, truth = sheets[0]
    doc = _read(str(first))
    asked = len(doc["questions"])
    assert "named_by_answers" not in doc
    names: list[str] = []
    while doc["questions"]:
        names += ["--name", _answers(doc, truth)[0]]
        doc = _read(str(first), *names)
    assert len(names) // 2 < asked  # fewer answers than questions
    settled = doc["named_by_answers"]
    assert settled and not set(settled) & set(doc["review"])
    wrong = [f for f, v in truth.items() if doc["fields"].get(f) != v]
    assert not [f for f in wrong if f not in doc["review"]], "a silent error"
    text = invoke("delicious", "read", str(first), *names).stdout
    assert re.search(r"^\d+ more drawings? named from the answers", text, re.M)

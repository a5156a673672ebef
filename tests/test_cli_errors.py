"""Every command's user errors: one ``companion: error:`` line on stderr, nothing on
stdout, the documented exit code (1 understood but fails a check, 2 unreadable input or
usage), never a traceback. One table, and a check that it names every command."""

from __future__ import annotations

import shutil
from pathlib import Path

import click
import pytest

from companion.cli import main
from tests.conftest import invoke, one_line_error

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
DICE_PHOTO = str(EX / "dice" / "photos" / "table-full.jpg")
SHEET_PHOTO = str(EX / "delicious" / "photos" / "combo-good-light.jpg")
FIELD_MAP = str(EX / "delicious" / "seed7-player1.json")

# (command words, arguments after them, stdin, exit code, a piece of the message)
CASES: list[tuple[str, list[str], str | None, int, str]] = [
    ("sheets list", ["--jsn"], None, 2, "No such option"),
    ("sheets print", ["delicious-gardn", "-o", "{tmp}/x.pdf"], None, 2, "unknown sheet"),
    ("sheets print", ["delicious-garden", "-o", "{tmp}/x.pdf", "--players", "two"], None, 2,
     "--players"),
    ("sheets print", ["delicious-garden"], None, 2, "Missing option '-o'"),
    ("sheets geometry", ["delicious-garden", "--paper", "legal"], None, 2, "unknown paper"),
    ("delicious garden", ["--variant", "Z"], None, 2, "unknown variant"),
    ("delicious simulate", ["--seed", "x"], None, 2, "'x' is not a valid integer"),
    ("delicious simulate", [], None, 2, "Missing option '--seed'"),
    ("delicious score", ["-"], "{", 2, "stdin: not valid JSON"),
    ("delicious score", ["{tmp}/none.json"], None, 2, "no such file"),
    ("delicious score", [], None, 2, "Missing argument"),
    ("delicious read", ["{tmp}/none.jpg"], None, 2, "no such file"),
    ("delicious read", [DICE_PHOTO], None, 2, "corner markers"),
    ("delicious read", [SHEET_PHOTO, "--set", "garden.honey=jar"], None, 2,
     "is not one of circled"),
    ("delicious read", [SHEET_PHOTO, SHEET_PHOTO], None, 2, "more than once"),
    ("delicious score", [FIELD_MAP, FIELD_MAP.replace("/delicious/", "/delicious/./")], None,
     2, "are the same field map"),
    # a player number int() chokes on: 5,000 digits, a superscript two
    ("delicious read", [SHEET_PHOTO, "--set", "9" * 5000 + ":garden.honey=circled"], None, 2,
     "player number must be 1..1"),
    ("delicious read", [SHEET_PHOTO, "--name", "\u00b2:garden.honey=circled"], None, 2,
     "player number must be 1..1"),
    ("delicious read", [SHEET_PHOTO, "--drawings", "9" * 5000 + ":d.json"], None, 2,
     "player number must be 1..1"),
    ("delicious read", [SHEET_PHOTO, "--reader", "ocr"], None, 2, "'ocr' is not one of"),
    ("delicious read", [SHEET_PHOTO, "--supply-seed", "-1"], None, 2, "--supply-seed"),
    ("delicious supply", ["--seed", "x"], None, 2, "'x' is not a valid integer"),
    ("delicious supply", ["--seed", "1", "--round", "13"], None, 2, "13 is not in the range"),
    ("delicious supply", [], None, 2, "Missing option '--seed'"),
    ("dice read", ["{tmp}/none.jpg"], None, 2, "no such file"),
    ("dice read", [SHEET_PHOTO, "--jsn"], None, 2, "No such option"),
    ("dice cuts", ["-"], "[]", 2, "expected a block"),
    ("dice cuts", ["-", "--overlay", "{tmp}/o.png"], '{"dice": []}', 2, "needs a photo"),
    ("dice check", ["-", "--cut", "Q9"], '{"dice": []}', 2, "cut"),
    ("dice check", ["-"], '{"dice": []}', 2, "BEFORE and AFTER"),
    ("dice score", ["-"], "[1]", 2, "expected a score state"),
    ("dulce score-order", ["-"], "[]", 2, "stdin"),
    ("dulce best-harvest", ["-"], "nope", 2, "not valid JSON"),
    ("dulce plant", ["-", "--at", "x", "--card", "1"], "{}", 2, "two whole numbers"),
    ("dulce plant", [str(EX / "dulce" / "plant.json"), "--card", "1", "--at", "0,0",
                     "--fields", "cacao,cacao,cacao,cacao"], None, 2, "exactly one of"),
    ("dulce final", ["-"], "[]", 2, "stdin"),
    ("wild-gardens score", ["-"], "{}", 2, "at least one player"),
    ("deli-duel check", [], None, 2, "at least one order"),
    ("deli-duel winner", ["{tmp}/none.json"], None, 2, "no such file"),
    ("deli-duel setup", ["--players", "many"], None, 2, "not a valid integer"),
    ("deli-duel deck", ["--demo"], None, 2, "No such option"),
    ("backup", ["--data", "{tmp}/store"], None, 2, "Missing argument 'FILE'"),
    ("export", ["--format", "xml", "--data", "{tmp}/store"], None, 2, "'xml' is not one of"),
    ("import", ["{tmp}/none.json", "--data", "{tmp}/store"], None, 2, "none.json"),
    ("history", ["--game", "chess", "--data", "{tmp}/store"], None, 2, "unknown game 'chess'"),
    ("standings", ["--game", "chess", "--data", "{tmp}/store"], None, 2, "unknown game"),
    ("players alias", ["--data", "{tmp}/store"], None, 2, "Missing argument 'NAME'"),
    ("players list", ["--jsn"], None, 2, "No such option"),
    ("players drawings", ["Nobody", "--data", "{tmp}/store"], None, 2, "no player 'Nobody'"),
    ("delicious read", [SHEET_PHOTO, "--drawings", "{tmp}/none.json"], None, 2,
     "cannot read the drawings"),
    ("players unalias", ["Nobody", "--data", "{tmp}/store"], None, 2, "no player 'Nobody'"),
    ("serve", ["--port", "abc"], None, 2, "not a valid integer"),
    # "-" reads stdin wherever a JSON file is read; an output that can only be a file
    # refuses it rather than write a file named "-" and say "wrote -"
    ("sheets print", ["dulce-scorepad", "-o", "-"], None, 2, "not standard output"),
    ("delicious simulate", ["--seed", "1", "-o", "-"], None, 2, "not standard output"),
    ("delicious read", [SHEET_PHOTO, "-o", "-"], None, 2, "not standard output"),
    ("delicious read", [SHEET_PHOTO, "--overlay", "-"], None, 2, "not standard output"),
    ("delicious read", [SHEET_PHOTO, "--save-drawings", "1:-"], None, 2, "not standard output"),
    ("dice read", [SHEET_PHOTO, "--save-colours", "-"], None, 2, "not standard output"),
    ("dice read", [SHEET_PHOTO, "--overlay", "-"], None, 2, "not standard output"),
    ("dice cuts", [SHEET_PHOTO, "--overlay", "-"], None, 2, "not standard output"),
    ("players drawings", ["Ann", "-o", "-", "--data", "{tmp}/store"], None, 2,
     "not standard output"),
    ("backup", ["-", "--data", "{tmp}/store"], None, 2, "not standard output"),
    # --night without --save would keep nothing, and say nothing of it
    ("wild-gardens score", [str(EX / "wild-gardens" / "score.json"), "--night", "Fri",
                            "--data", "{tmp}/store"], None, 2, "add --save"),
    ("dulce final", [str(EX / "dulce" / "final.json"), "--night", "Fri"], None, 2,
     "add --save"),
    # an overlay into a folder that is not there: said so, not "use .png or .jpg"
    ("dice read", [DICE_PHOTO, "--overlay", "{tmp}/none/o.png"], None, 2,
     "cannot write the overlay {tmp}/none/o.png: No such file or directory"),
    ("dice read", [DICE_PHOTO, "--overlay", FIELD_MAP], None, 2, "is a file, not a folder"),
    ("", ["nonsense"], None, 2, "No such command 'nonsense'"),
    ("delicious", ["scor"], None, 2, "No such command 'scor'"),
]


def _leaf_commands() -> set[str]:
    ctx = click.Context(main)
    found: set[str] = set()

    def walk(group: click.Group, path: list[str]) -> None:
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            if isinstance(command, click.Group):
                walk(command, [*path, name])
            elif command is not None:
                found.add(" ".join([*path, name]))

    walk(main, [])
    return found


def test_the_table_covers_every_command() -> None:
    assert _leaf_commands() <= {words for words, *_ in CASES}


@pytest.mark.parametrize(("words", "args", "stdin", "code", "needle"), CASES,
                         ids=[f"{w or 'companion'} {' '.join(a)}"[:60] for w, a, *_ in CASES])
def test_user_error_is_one_line(tmp_path: Path, words: str, args: list[str], stdin: str | None,
                                code: int, needle: str) -> None:
    argv = [*words.split(), *(a.replace("{tmp}", str(tmp_path)) for a in args)]
    result = invoke(*argv, stdin=stdin)
    line = one_line_error(result, code)
    assert needle.replace("{tmp}", str(tmp_path)) in line, line
    assert result.stdout == ""


def test_missing_tesseract_is_in_the_table_too(monkeypatch: pytest.MonkeyPatch) -> None:
    pytesseract = pytest.importorskip("pytesseract")
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")
    line = one_line_error(invoke("delicious", "read", SHEET_PHOTO, "--reader", "tesseract"), 2)
    assert "tesseract" in line


@pytest.mark.parametrize(("words", "option"), [
    ("delicious read", "--overlay"), ("delicious read", "-o"),
    ("delicious read", "--save-drawings"), ("dice read", "--overlay"),
    ("dice read", "--save-colours"), ("dice cuts", "--overlay"),
])
def test_an_output_onto_the_photo_itself_is_refused(tmp_path: Path, words: str,
                                                   option: str) -> None:
    """`--overlay a.jpg` beside `a.jpg` (a slip of the shell's completion) replaced the
    only copy of the photo with the overlay, or with a JSON file."""
    photo = tmp_path / "IMG_0001.jpg"
    shutil.copy(SHEET_PHOTO if words.startswith("delicious") else DICE_PHOTO, photo)
    before = photo.read_bytes()
    result = invoke(*words.split(), str(photo), option, f"{tmp_path}/./IMG_0001.jpg")
    assert "would replace it" in one_line_error(result)
    assert photo.read_bytes() == before

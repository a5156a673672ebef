"""companion.fileio: every command reads its JSON the same way and fails in one line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.errors import IllegalMoveError, InputError, UnknownNameError
from companion.fileio import (
    MAX_JSON_NUMBER,
    errors_naming,
    read_json_object,
    source_label,
    write_json,
)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-MAX_JSON_NUMBER, MAX_JSON_NUMBER)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=3),
    max_leaves=8,
)


@settings(max_examples=30, deadline=None)
@given(st.dictionaries(st.text(max_size=8), json_values, max_size=4))
def test_any_object_comes_back_as_written(tmp_path_factory, doc):
    path = tmp_path_factory.mktemp("j") / "doc.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert read_json_object(path) == doc
    assert read_json_object(str(path)) == doc


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b"{not json", "not valid JSON (Expecting property name"),
        (b"", "not valid JSON"),
        (b"[1, 2]", "expected a JSON object, not a list"),
        (b'"text"', "not a string"),
        (b"3", "not a number"),
        (b"null", "not null"),
        (b"\xff\xfe{}", "cannot read: not UTF-8 text"),
    ],
)
def test_bad_content_is_one_line_naming_the_file(tmp_path, content, needle):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(InputError) as exc:
        read_json_object(path)
    message = str(exc.value)
    assert message.startswith(f"{path}: ") and needle in message and "\n" not in message


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(InputError, match="nope.json: cannot read: no such file$"):
        read_json_object(tmp_path / "nope.json")
    with pytest.raises(InputError, match="cannot read: Is a directory"):
        read_json_object(tmp_path)


def test_byte_order_mark_and_stdin(tmp_path, monkeypatch):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + b'{"a": 1}')
    assert read_json_object(path) == {"a": 1}
    monkeypatch.setattr("sys.stdin", io.StringIO('{"b": 2}'))
    assert read_json_object("-") == {"b": 2}
    monkeypatch.setattr("sys.stdin", io.StringIO("[]"))
    with pytest.raises(InputError, match="^stdin: expected a block, not a list$"):
        read_json_object("-", "a block")
    assert source_label("-") == "stdin" and source_label(path) == str(path)


@pytest.mark.parametrize("error", [InputError, UnknownNameError, IllegalMoveError])
def test_errors_naming_prefixes_and_keeps_the_type(error):
    with pytest.raises(error) as exc, errors_naming("x.json"):
        raise error("die #2: bad")
    assert str(exc.value) == "x.json: die #2: bad" and type(exc.value) is error


COMMANDS = [
    ["delicious", "score"],
    ["dice", "cuts"],
    ["dice", "check", "--cut", "V1L"],
    ["dice", "score"],
    ["dulce", "score-order"],
    ["dulce", "best-harvest"],
    ["dulce", "final"],
    ["wild-gardens", "score"],
    ["deli-duel", "winner"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_json_command_reports_a_missing_file_alike(tmp_path, command):
    missing = str(tmp_path / "missing.json")
    result = CliRunner().invoke(main, [*command, missing])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr == f"companion: error: {missing}: cannot read: no such file\n"


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_json_command_reports_a_list_alike(command):
    result = CliRunner().invoke(main, [*command, "-"], input="[]")
    assert result.exit_code == 2, result.output
    line = result.stderr.strip()
    assert line.startswith("companion: error: stdin: expected ") and line.endswith("not a list")


def test_deli_duel_check_file_option(tmp_path):
    result = CliRunner().invoke(main, ["deli-duel", "check", "--file", "-"], input="[1]")
    assert result.exit_code == 2
    assert '{"orders": [...], "play": [...]}' in result.stderr


@pytest.mark.parametrize(
    ("command", "example"),
    [
        (["delicious", "score", "--json"], None),
        (["dice", "cuts", "--json"], EXAMPLES / "dice" / "block-full.json"),
    ],
)
def test_stdin_gives_what_the_file_gives(tmp_path, command, example):
    if example is None:
        CliRunner().invoke(main, ["delicious", "simulate", "--seed", "4", "-o", str(tmp_path)])
        example = tmp_path / "player1.json"
    from_file = CliRunner().invoke(main, [*command, str(example)])
    from_stdin = CliRunner().invoke(main, [*command, "-"], input=example.read_text())
    assert from_file.exit_code == from_stdin.exit_code
    file_doc, stdin_doc = json.loads(from_file.stdout), json.loads(from_stdin.stdout)
    file_doc.pop("file", None), file_doc.pop("player", None)
    stdin_doc.pop("file", None), stdin_doc.pop("player", None)
    assert file_doc == stdin_doc


def test_write_json_round_trips_and_fails_in_one_line(tmp_path):
    doc = {"game": "delicious", "fields": {"garden.honey": "circled"}}
    write_json(tmp_path / "out.json", doc)
    assert (tmp_path / "out.json").read_text().endswith("}\n")
    assert read_json_object(tmp_path / "out.json") == doc
    with pytest.raises(InputError, match="^cannot write .*nowhere/out.json: No such file"):
        write_json(tmp_path / "nowhere" / "out.json", doc)


def test_simulate_writes_field_maps_that_score(tmp_path):
    out = CliRunner().invoke(main, ["delicious", "simulate", "--seed", "2", "-o", str(tmp_path)])
    assert out.exit_code == 0 and "wrote" in out.stderr
    maps = sorted(tmp_path.glob("player*.json"))
    assert len(maps) == 2
    scored = CliRunner().invoke(main, ["delicious", "score", *map(str, maps), "--json"])
    assert scored.exit_code == 0, scored.output
    blocked = tmp_path / "file"
    blocked.write_text("")
    bad = CliRunner().invoke(main, ["delicious", "simulate", "--seed", "2", "-o",
                                   str(blocked / "sub")])
    assert bad.exit_code == 2 and bad.stderr.startswith("companion: error: cannot write to ")

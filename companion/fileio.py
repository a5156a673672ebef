"""Reading and writing users' JSON files, kept out of the rules engines so they stay pure.

Every command that takes a JSON document reads it here, so a missing file, bad JSON or a
list where an object belongs is one line naming the file, the same way in every game.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, InputError

STDIN = "-"  # the file name that means standard input
STDIN_LABEL = "stdin"


def _json_kind(value: Any) -> str:
    """What a parsed JSON value is, in the words of the JSON text."""
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "true or false"
    return "null" if value is None else "a number"


def source_label(source: str | os.PathLike[str]) -> str:
    """How messages name a source: the path as given, or ``stdin`` for ``-``."""
    text = os.fspath(source)
    return STDIN_LABEL if text == STDIN else text


def _read_text(source: str | os.PathLike[str], label: str) -> str:
    try:
        if os.fspath(source) == STDIN:
            return sys.stdin.read()
        return Path(source).read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise InputError(f"{label}: cannot read: no such file") from None
    except OSError as exc:
        raise InputError(f"{label}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError(f"{label}: cannot read: not UTF-8 text") from None


def read_json_object(source: str | os.PathLike[str], what: str = "a JSON object") -> dict[str, Any]:
    """The JSON object in a file (or stdin for ``-``); any failure is one InputError line.

    ``what`` describes the expected document for the message when the top level is not an
    object (every game's documents are objects).
    """
    label = source_label(source)
    text = _read_text(source, label)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{label}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from None
    if not isinstance(doc, dict):
        raise InputError(f"{label}: expected {what}, not {_json_kind(doc)}")
    return doc


def write_json(path: str | os.PathLike[str], doc: Any) -> None:
    """Write ``doc`` as indented JSON ending in a newline; a failure is one InputError line."""
    try:
        Path(path).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write {os.fspath(path)}: {exc.strerror or exc}") from None


def write_atomic(target: Path, data: bytes, *, fresh: bool = False) -> None:
    """Write ``data`` to a file beside ``target``, fsync it and rename it over ``target``.

    A crash leaves either the old file or the whole new one, never half of it. ``fresh``
    refuses to reuse a leftover part file. OSError propagates: each caller names the failure
    in its own words and error type.
    """
    tmp = target.with_name(f".{target.name}.part")
    try:
        with open(tmp, "xb" if fresh else "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise


@contextmanager
def errors_naming(source: str | os.PathLike[str]) -> Iterator[None]:
    """Prefix the message of any project error raised inside with the source's name.

    Parsers speak of places inside a document; the user also needs to know which file.
    The error keeps its type, hence its exit code.
    """
    try:
        yield
    except CompanionError as exc:
        raise type(exc)(f"{source_label(source)}: {exc}") from None

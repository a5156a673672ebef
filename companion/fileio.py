"""Reading and writing users' JSON files, kept out of the rules engines so they stay pure.

Every command that takes a JSON document reads it here, so a missing file, bad JSON or a
list where an object belongs is one line naming the file, the same way in every game.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import stat
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from companion.errors import CompanionError, InputError

STDIN = "-"  # the file name that means standard input
STDIN_LABEL = "stdin"
# Limits of any user's JSON document: far beyond every real game state or export, far
# below what would exhaust memory, the stack or SQLite's 64-bit integers.
MAX_JSON_BYTES = 64 * 2**20  # bytes
MAX_JSON_DEPTH = 64  # levels of nested lists and objects
MAX_JSON_NUMBER = 10**15  # largest magnitude of any number (points, counts, ids)
T = TypeVar("T")


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
            return sys.stdin.read(MAX_JSON_BYTES + 1)
        path = Path(source)
        # A FIFO or device would block or never end: only regular files are documents.
        if path.exists() and not path.is_file() and not path.is_dir():
            raise InputError(f"{label}: cannot read: not a regular file")
        if path.stat().st_size > MAX_JSON_BYTES:
            raise InputError(f"{label}: cannot read: larger than "
                             f"{MAX_JSON_BYTES // 2**20} MB")
        return path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise InputError(f"{label}: cannot read: no such file") from None
    except OSError as exc:
        raise InputError(f"{label}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise InputError(f"{label}: cannot read: not UTF-8 text") from None


def _refuse_constant(name: str) -> Any:
    raise InputError(f"{name} is not a number a game can hold")


def check_json_tree(doc: Any, label: str) -> None:
    """Refuse what parses as JSON but no game document holds, before any engine sees it.

    Walked with an explicit stack: a document nested deeper than MAX_JSON_DEPTH, a number
    beyond MAX_JSON_NUMBER, or a string with a lone surrogate (valid JSON, invalid Unicode,
    unprintable on a terminal) would otherwise fail deep inside an engine or the store.
    """
    stack: list[tuple[Any, int]] = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise InputError(f"{label}: nested deeper than {MAX_JSON_DEPTH} levels")
        if isinstance(value, dict):
            stack.extend((k, depth + 1) for k in value)
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
        elif isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise InputError(f"{label}: a string holds an invalid character "
                                 "(a lone surrogate)") from None
        elif isinstance(value, int | float) and not isinstance(value, bool):
            if isinstance(value, float) and not math.isfinite(value):
                word = "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
                raise InputError(f"{label}: {word} is not a number a game can hold")
            if abs(value) > MAX_JSON_NUMBER:
                raise InputError(f"{label}: the number {_short(value)} is too large "
                                 f"(at most {MAX_JSON_NUMBER:,})")


def _short(value: int | float) -> str:
    text = f"{value:.3g}" if isinstance(value, float) else str(value)
    return text if len(text) <= 24 else f"{text[:10]}...({len(text)} digits)"


def parse_json(text: str | bytes, label: str) -> Any:
    """Parse a user's JSON text; every failure, however hostile, is one InputError line."""
    try:
        doc = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{label}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise InputError(f"{label}: nested deeper than {MAX_JSON_DEPTH} levels") from None
    except InputError as exc:
        raise InputError(f"{label}: {exc}") from None
    except UnicodeDecodeError:
        raise InputError(f"{label}: cannot read: not UTF-8 text") from None
    except ValueError:  # an integer literal past Python's digit limit
        raise InputError(f"{label}: a number is too large "
                         f"(at most {MAX_JSON_NUMBER:,})") from None
    check_json_tree(doc, label)
    return doc


def read_json_object(source: str | os.PathLike[str], what: str = "a JSON object") -> dict[str, Any]:
    """The JSON object in a file (or stdin for ``-``); any failure is one InputError line.

    ``what`` describes the expected document for the message when the top level is not an
    object (every game's documents are objects).
    """
    label = source_label(source)
    doc = parse_json(_read_text(source, label), label)
    if not isinstance(doc, dict):
        raise InputError(f"{label}: expected {what}, not {_json_kind(doc)}")
    return doc


def write_json(path: str | os.PathLike[str], doc: Any) -> None:
    """Write ``doc`` as indented JSON ending in a newline; a failure is one InputError line."""
    try:
        Path(path).write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write {os.fspath(path)}: {exc.strerror or exc}") from None


def _read_own_text(path: str | os.PathLike[str], label: str, what: str) -> str:
    if os.fspath(path) == STDIN:
        return sys.stdin.read(MAX_JSON_BYTES + 1)
    p = Path(path)
    if p.exists() and not p.is_file() and not p.is_dir():  # a FIFO would wait forever
        raise InputError(f"{label}: cannot read the {what} (not a regular file)")
    if p.stat().st_size > MAX_JSON_BYTES:
        raise InputError(f"{label}: not a {what} file (larger than "
                         f"{MAX_JSON_BYTES // 2**20} MB)")
    return p.read_bytes().decode("utf-8-sig")


def load_own_file(path: str | os.PathLike[str], what: str, parse: Callable[[Any], T]) -> T:
    """A file the project wrote for a player to keep (``what``: "dice colours",
    "drawings"), or standard input for ``-``, parsed by ``parse``; a file that cannot be
    read, is not JSON (however deeply nested) or that ``parse`` refuses is one InputError
    line naming it."""
    label = source_label(path)
    try:
        text = _read_own_text(path, label, what)
        doc = json.loads(text)
    except InputError:
        raise
    except OSError as exc:
        raise InputError(f"{label}: cannot read the {what} ({exc.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise InputError(f"{label}: not a JSON {what} file") from None
    except ValueError:  # an integer literal past Python's digit limit
        raise InputError(f"{label}: not a {what} file (a number is too large)") from None
    try:
        return parse(doc)
    except InputError as exc:
        raise InputError(f"{label}: {exc}") from None


def save_own_file(path: str | os.PathLike[str], doc: Any, what: str,
                  indent: int | None = None) -> None:
    """Write one of those files (``load_own_file``); a failure is one InputError line."""
    try:
        Path(path).write_text(json.dumps(doc, indent=indent) + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot write the {what} ({exc.strerror})") from None


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


def _file_key(path: str | os.PathLike[str], regular: bool = False) -> tuple[int, int] | None:
    """The (device, inode) that names a file, whatever path reaches it; None for a path
    that cannot be looked at (``-``, a missing file), or with ``regular`` one that is not
    a regular file."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return None if regular and not stat.S_ISREG(st.st_mode) else (st.st_dev, st.st_ino)


def first_repeat(keyed: Iterable[tuple[str, object | None]]) -> tuple[str, str] | None:
    """The first two names whose keys are equal, in the order given; a None key (a file
    that cannot be looked at) is no one's twin."""
    seen: dict[object, str] = {}
    for name, key in keyed:
        if key is None:
            continue
        if key in seen:
            return seen[key], name
        seen[key] = name
    return None


def same_file(paths: Sequence[str]) -> tuple[str, str] | None:
    """Two of ``paths`` that name one file (``a.jpg`` and ``./a.jpg``, a link to it, the
    same name twice); None when each is its own. A path that cannot be looked at (``-``,
    a missing file) is left to the reader to name."""
    return first_repeat((p, _file_key(p, regular=True)) for p in paths)


def _digest(path: str) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").digest()
    except OSError:
        return None


def _size(path: str) -> int:
    """A regular file's size; -1 for a path that is none (missing, ``-``, a FIFO)."""
    try:
        st = os.stat(path)
    except OSError:
        return -1
    return st.st_size if stat.S_ISREG(st.st_mode) else -1


def same_content(paths: Sequence[str]) -> tuple[str, str] | None:
    """Two of ``paths`` that are byte for byte the same file (``cp a.jpg b.jpg``): one
    photo under two names. Only files of equal size are read; a path that cannot be read
    is left to the reader to name."""
    sizes = [(p, _size(p)) for p in paths]
    counts = Counter(size for _, size in sizes if size >= 0)
    return first_repeat((p, _digest(p) if counts[size] > 1 else None) for p, size in sizes)


def copies_message(first: str, second: str) -> str:
    """The one line that refuses one photo given under two names as two sheets."""
    return (f"{first} and {second} are copies of one photo (the same bytes): each sheet is "
            "its own photo; give each once")


def refuse_replacing(outputs: Iterable[tuple[str, str | os.PathLike[str] | None]],
                     inputs: Sequence[str]) -> None:
    """Refuse an output (option, path) that is one of the ``inputs`` itself: ``--overlay
    a.jpg`` or ``-o a.jpg`` beside ``a.jpg`` would replace the only copy of the photo."""
    kept = {key: p for p in inputs if (key := _file_key(p)) is not None}
    for option, out in outputs:
        if out is None:
            continue
        key = _file_key(out)
        photo = None if key is None else kept.get(key)
        if photo is not None:
            raise InputError(f"{option} {os.fspath(out)} is the photo {photo}: writing there "
                             "would replace it; give another file")

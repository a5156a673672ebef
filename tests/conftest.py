"""Helpers the CLI tests share, and the ``synth`` mark for tests that draw handwriting."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from companion.cli import main

Invoke = Callable[..., Result]


def invoke(*args: str, stdin: str | None = None) -> Result:
    """Run ``companion ARGS...`` through click's runner (stderr kept apart)."""
    return CliRunner().invoke(main, list(args), input=stdin)


def write_doc(folder: Path, name: str, doc: Any) -> str:
    """Write ``doc`` (text as is, anything else as JSON) to folder/name; its path."""
    path = folder / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return str(path)


def one_line_error(result: Result, code: int = 2) -> str:
    """The single ``companion: error: ...`` line a failed command printed, checked."""
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("companion: error: ")
    assert "Traceback" not in result.output
    return lines[0]


@pytest.fixture
def cli() -> Invoke:
    return invoke


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, Any], str]:
    """``write(name, doc)`` puts a file in this test's tmp_path and returns its path."""
    return lambda name, doc: write_doc(tmp_path, name, doc)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``synth`` every test of a module that uses the synthetic generators: these are
    run a second time with the handwriting fonts hidden (``make test``)."""
    uses_synth: dict[Path, bool] = {}
    for item in items:
        path = Path(str(item.fspath))
        if path not in uses_synth:
            uses_synth[path] = "tools.synth" in path.read_text()
        if uses_synth[path]:
            item.add_marker(pytest.mark.synth)

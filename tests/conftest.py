"""Helpers the tests share (the CLI's runner, a store's dump), the fixtures of the web tests
(a store, the app over it, a browser and phone-sized pages in it), what is expensive to
make and made once (the examples' readings, the dice game, a module's photo readings),
and the ``synth`` mark for tests that draw handwriting."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from companion.cli import main
from companion.store.paths import DB_NAME
from tests.web_support import BLOCK, COMBO, SCHEMES, WIDTHS, client_over, phone_page

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


def dump(root: Path) -> list[str]:
    """The whole database as SQL: equal dumps are equal stores."""
    conn = sqlite3.connect(root / DB_NAME)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


@pytest.fixture
def cli() -> Invoke:
    return invoke


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, Any], str]:
    """``write(name, doc)`` puts a file in this test's tmp_path and returns its path."""
    return lambda name, doc: write_doc(tmp_path, name, doc)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Any]:
    """A fresh store in this test's tmp_path."""
    from companion.store import Store

    with Store.open(tmp_path) as s:
        yield s


@pytest.fixture(scope="module")
def readers() -> Iterator[Any]:
    """One reader process for a module's app, started only if a photo is read."""
    from companion.web.readers import ReaderPool

    pool = ReaderPool(1)
    yield pool
    pool.close()


@pytest.fixture
def client(store: Any, readers: Any) -> Iterator[Any]:
    """The web app over ``store``, in this process (a 500 is answered, not raised)."""
    with client_over(store, readers) as c:
        yield c


SheetReadings = dict[tuple[str, str], Any]  # (photo path, reader) -> its SheetReading


def read_sheet_once(kept: SheetReadings, path: str, reader: Any = "ours") -> Any:
    """The reading of the photo at ``path``, read only the first time it is asked for
    (a reading is immutable, and the file is not changed under a test)."""
    from companion.vision.sheet.reader import read_photo

    key = (str(path), str(reader))
    if key not in kept:
        kept[key] = read_photo(path, reader)
    return kept[key]


@pytest.fixture(scope="module")
def sheet_readings() -> SheetReadings:
    """The photos' readings a module has made so far (``read_sheet_once``)."""
    return {}


@pytest.fixture
def read_each_photo_once(monkeypatch: pytest.MonkeyPatch, sheet_readings: SheetReadings) -> None:
    """``companion delicious read``, run in this process, reads each photo file once a
    module: its tests give it the same photos again and again."""
    import companion.cli.delicious_read as read_module

    monkeypatch.setattr(read_module, "read_photo",
                        lambda path, reader="ours": read_sheet_once(sheet_readings, path, reader))


@pytest.fixture(scope="session")
def example_readings() -> tuple[Any, Any]:
    """The example combo sheet and dice block, each read once a session: the web tests put
    them in the app's cache, so no reader runs for them."""
    from companion.web.readers import read_dice, read_sheet

    return read_sheet(COMBO, COMBO.name), read_dice(BLOCK, BLOCK.name)


@pytest.fixture(scope="session")
def dice_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Any]:
    """The synthetic dice game whose learnt colours change a later photo's reading
    (tools.example_photos.dice_game_photos), drawn once a session."""
    from tools.example_photos import dice_game_photos

    return dice_game_photos(tmp_path_factory.mktemp("dice-game"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium through Playwright, with the screenshots' flags (tools.screens)."""
    from tests.web_support import chromium_or_skip

    exe = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    from tools.screens import CHROMIUM_ARGS

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(params=[(w, c) for w in WIDTHS for c in SCHEMES],
                ids=[f"{w}-{c}" for w in WIDTHS for c in SCHEMES])
def phone(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """A page at every phone width, light and dark: a test using it runs six times."""
    width, scheme = request.param
    with phone_page(browser, width, 800, scheme) as p:
        yield p


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """One phone's page (390 px, light), for what does not change with the screen."""
    with phone_page(browser) as p:
        yield p


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

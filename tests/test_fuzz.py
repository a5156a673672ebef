"""Issue #27, must show: a fuzz suite over every form and JSON route of the web app and
every JSON input of the command line. No 500, no traceback, and the store byte-identical
(``iterdump``) after every refused request.

The routes and commands are enumerated from the app and the CLI, so a new one is fuzzed
without touching this file. Examples per route or command: ``FUZZ_EXAMPLES``, else 1,000
in CI (``CI=true``, the ``fuzz-ci`` profile) and 25 locally. The app is called directly
(one ASGI call a request, ``Direct``), the store is dumped only after a commit
(``Changes``), and each example is built from one seeded Random: measured on the shared
2-core machine, 40 routes and 11 commands x 1,000 examples took 218 s of wall time and
170 s of CPU at load average 3 (602 s and 240 s at load 12-16); 7 of the routes and
commands x 1,000 took 34 s of CPU with this file and 78 s with the one before (TestClient,
a dump an example, Hypothesis strategies), 140 s and 265 s of wall time. Marked
``slow``; it runs in ``make test``.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sqlite3
import tempfile
from pathlib import Path
from random import Random
from typing import Any, NamedTuple
from urllib.parse import quote

import click
import httpx
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.routing import Route

from companion.cli import main
from companion.games.registry import GAMES
from companion.store import Store
from companion.store.paths import DB_NAME
from companion.web.app import create_app
from companion.web.readers import ReaderPool
from tests.conftest import dump
from tests.web_seed import Seeded, seed, seed_app
from tests.web_support import client_over

_COMMON = settings(deadline=None, database=None, derandomize=True,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                          HealthCheck.filter_too_much,
                                          HealthCheck.function_scoped_fixture])
settings.register_profile("fuzz-ci", parent=_COMMON,
                          max_examples=int(os.environ.get("FUZZ_EXAMPLES", "1000")))
settings.register_profile("fuzz-dev", parent=_COMMON,
                          max_examples=int(os.environ.get("FUZZ_EXAMPLES", "25")))
FUZZ = settings.get_profile("fuzz-ci" if os.environ.get("CI") == "true" else "fuzz-dev")

TEMPLATES = Path(__file__).resolve().parents[1] / "companion/web/templates"
HUGE = 10**25


# ---- what to send -------------------------------------------------------------------------

def _form_names() -> list[str]:
    """Every field name a page's forms carry, and each pad column for every row."""
    names = set()
    for page in TEMPLATES.glob("*.html"):
        names |= set(re.findall(r'name="([A-Za-z_]+)', page.read_text()))
    names.discard("viewport")
    for g in GAMES:
        for col in g.pad:
            names |= {f"{col.key}{i}" for i in (0, 1, 7, 8)}
    names |= {f"name{i}" for i in (0, 1, 7, 8)}
    return sorted(names)


FORM_NAMES = _form_names()
QUERY_NAMES = ["s", "cut", "field", "game", "player", "since", "full_only", "kids", "t", "v"]
SPECIAL = ["", "0", "1", "2", "-1", "99,99", "-1,-1", "0,0", "²", "٣", "1_0", "1" * 25,
           "9" * 5000, "[" * 1000, "on", "none", "carrot:3", "save", "score", "more",
           "best-harvest", "score-order", "dulce", "deli-duel", "a4", "bw", "A",
           "delicious-combo", "dulce-scorepad", "NaN", "1e400", "{}", '{"game": "dulce"}',
           "../../etc/passwd", "<script>x</script>", "Zoë", "ZOË", "=HYPERLINK(1)",
           "\x1b[31m", "\u202e", "n" * 20, "x" * 300]


# Each example is built from one Random that Hypothesis seeds (``st.randoms`` with true
# randomness: one draw an example). Building the same requests from Hypothesis's own
# strategies drew some 40 choices each and cost 2-6 ms of CPU an example, more than sending
# the request; this way a thousand examples a route fit in CI's time. The price: a failure
# is reported as the example itself (the assertion shows it), not shrunk to a smaller one.
RANDOMS = st.randoms(use_true_random=True, note_method_calls=False)
CHARS = ([chr(c) for c in range(32, 127)] + list("\t\n\r\x00\x1b\x7fé²٣ÖΣЖ中😀\u202e\ufeff")
         + ["\u0301", "\uffff", "\U0010ffff"])


def _id(rng: Random, seeded: Seeded) -> int:
    pick = rng.randrange(4)
    if pick == 0:
        return rng.choice([*seeded, 0])
    return rng.randint(0, 50) if pick == 1 else HUGE if pick == 2 else rng.randint(0, 10**30)


def _text(rng: Random, size: int) -> str:
    """Mostly printable, sometimes any code point but a lone surrogate."""
    if rng.random() < 0.8:
        return "".join(rng.choice(CHARS) for _ in range(rng.randint(0, size)))
    return "".join(chr(c if not 0xD800 <= c <= 0xDFFF else c - 0x800)
                   for c in (rng.randint(0, 0x10FFFF) for _ in range(rng.randint(0, size))))


def _value(rng: Random, seeded: Seeded) -> str:
    pick = rng.randrange(4)
    if pick == 0:
        return rng.choice(SPECIAL)
    if pick == 1:
        return str(_id(rng, seeded))
    return _text(rng, 40) if pick == 2 else str(rng.randint(-(2**70), 2**70))


class Call(NamedTuple):
    method: str
    url: str
    form: dict[str, str]
    files: dict[str, tuple[str, bytes, str]] | None
    accept: str


PATH_WORDS = [g.slug for g in GAMES] + ["chess", "history", "..", "%00"]


def _path(rng: Random, route: Route, seeded: Seeded) -> str:
    """The route's path with each parameter filled (by its convertor)."""
    parts = re.split(r"\{([^}]+)\}", route.path)
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 0:
            out.append(part)
        elif part.endswith(":int"):
            out.append(str(_id(rng, seeded)))
        else:
            out.append(rng.choice(PATH_WORDS) if rng.random() < 0.5
                       else quote(_value(rng, seeded), safe=""))
    return "".join(out)


def _pairs(rng: Random, names: list[str], most: int, seeded: Seeded) -> dict[str, str]:
    return {rng.choice(names): _value(rng, seeded) for _ in range(rng.randint(0, most))}


def make_call(rng: Random, route: Route, method: str, seeded: Seeded) -> Call:
    """A request to ``route``: its path filled in, up to 3 query values, and for a POST up
    to 8 form fields of the pages' names and perhaps a photo that is not one."""
    query = _pairs(rng, QUERY_NAMES, 3, seeded)
    url = _path(rng, route, seeded) + ("?" + "&".join(f"{k}={quote(v, safe='')}"
                                                      for k, v in query.items()) if query else "")
    form, files = {}, None
    if method == "POST":
        form = _pairs(rng, FORM_NAMES, 8, seeded)
        if rng.random() < 0.5:
            head = rng.choice([b"", b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"GIF8"])
            files = {"photo": (rng.choice(["a.jpg", "../x.png", "b"]),
                               head + rng.randbytes(rng.randint(0, 64)), "image/jpeg")}
    return Call(method, url, form, files,
                rng.choice(["application/json", "text/html", "*/*"]))


def calls(route: Route, method: str, seeded: Seeded) -> st.SearchStrategy[Call]:
    return RANDOMS.map(lambda rng: make_call(rng, route, method, seeded))


# ---- the web app --------------------------------------------------------------------------

def app_routes() -> list[tuple[str, str]]:
    """(method, path) of every route of the app (static files aside), from the app."""
    with tempfile.TemporaryDirectory() as d, Store.open(d) as store:
        pool = ReaderPool(1)
        app = create_app(store, readers=pool).app
        out = [(m, r.path) for r in app.routes if isinstance(r, Route)  # type: ignore[attr-defined]
               for m in sorted(r.methods or ()) if m != "HEAD"]
        pool.close()
    return out


ROUTES = app_routes()


def test_every_kind_of_route_is_enumerated() -> None:
    paths = {p for _, p in ROUTES}
    assert {"/delicious/{sid:int}/save", "/pads/{game}", "/history/plays/{play:int}",
            "/api/dice/cuts", "/night/new", "/print"} <= paths
    assert len(ROUTES) >= 30


class Direct:
    """The app called in an event loop of this thread, one ASGI call a request: no HTTP
    client and no portal thread, a third of a TestClient's CPU a request. httpx only
    encodes the request (forms, multipart), as the TestClient's would."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.loop = asyncio.new_event_loop()

    def close(self) -> None:
        self.loop.close()

    def request(self, call: Call) -> tuple[int, bytes]:
        req = httpx.Request(call.method, "http://testserver" + call.url,
                            data=call.form or None, files=call.files,
                            headers={"accept": call.accept})
        return self.loop.run_until_complete(self._call(req, req.read()))

    async def _call(self, req: httpx.Request, body: bytes) -> tuple[int, bytes]:
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": req.method, "scheme": "http", "path": req.url.path,
                 "raw_path": req.url.raw_path.split(b"?", 1)[0], "root_path": "",
                 "query_string": req.url.query, "client": ("127.0.0.1", 50000),
                 "server": ("testserver", 80),
                 "headers": [(k.lower(), v) for k, v in req.headers.raw]}
        status, chunks, done, sent = [0], [], asyncio.Event(), [False]

        async def receive() -> dict[str, Any]:
            if not sent[0]:
                sent[0] = True
                return {"type": "http.request", "body": body, "more_body": False}
            await done.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if not message.get("more_body"):
                    done.set()

        try:
            await self.app(scope, receive, send)
        except Exception:  # the app's own 500 was sent first; a crash before it is one too
            status[0] = status[0] or 500
        return status[0], b"".join(chunks)


class Changes:
    """Whether the store may have changed since last asked: SQLite's data_version, read
    from a connection of our own, moves with every commit of the app's connection (a
    rolled-back write commits nothing). Saves dumping an unchanged store each example."""

    def __init__(self, root: Path) -> None:
        self.conn = sqlite3.connect(root / DB_NAME)
        self.version = self._read()

    def _read(self) -> int:
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def moved(self) -> bool:
        now = self._read()
        moved, self.version = now != self.version, now
        return moved


@pytest.mark.slow
@pytest.mark.parametrize("method,path", ROUTES, ids=[f"{m} {p}" for m, p in ROUTES])
def test_no_route_answers_500_or_changes_the_store_when_it_refuses(
        method: str, path: str, example_readings: tuple[object, object]) -> None:
    with tempfile.TemporaryDirectory() as d, Store.open(d) as store:
        pool = ReaderPool(1)  # never started: readings come from the cache
        app = create_app(store, readers=pool)
        direct, changes = Direct(app), Changes(store.root)
        try:
            seeded = seed_app(app, store, *example_readings)
            route = next(r for r in app.app.routes  # type: ignore[attr-defined]
                         if isinstance(r, Route) and r.path == path)
            changes.moved()
            state = {"before": dump(store.root)}

            @FUZZ
            @given(call=calls(route, method, seeded))
            def attack(call: Call) -> None:
                status, body = direct.request(call)
                text = body.decode("utf-8", "replace")
                assert status < 500, (call, status, text[:300])
                assert "Traceback" not in text
                if not changes.moved():
                    return  # nothing committed: the store is as it was
                after = dump(store.root)
                if status >= 400:
                    assert after == state["before"], (call, status, text[:300])
                state["before"] = after

            attack()
        finally:
            changes.conn.close()
            direct.close()
            app.app.state.web.thinker.close()  # type: ignore[attr-defined]
            pool.close()


def test_the_direct_caller_answers_as_a_client_does(
        example_readings: tuple[object, object]) -> None:
    """The direct ASGI caller sees what a TestClient sees, refusals and crashes included."""
    with (tempfile.TemporaryDirectory() as d, Store.open(d) as store,
          client_over(store) as client):
        direct = Direct(client.app)
        try:
            seeded = seed(client, store, *example_readings)
            for call in [Call("GET", f"/history/plays/{seeded.play}", {}, None, "text/html"),
                         Call("POST", "/players/add", {"name": "\x1b[31m"}, None, "*/*"),
                         Call("POST", "/dice/upload", {}, {"photo": ("a.jpg", b"GIF8", "x")},
                              "application/json"),
                         Call("GET", "/history/plays/" + "9" * 25, {}, None, "text/html")]:
                status, body = direct.request(call)
                r = client.request(call.method, call.url, data=call.form or None,
                                   files=call.files, headers={"accept": call.accept})
                assert (status, len(body)) == (r.status_code, len(r.content)), call
        finally:
            direct.close()
        assert Direct(_crashing).request(Call("GET", "/", {}, None, "*/*"))[0] == 500
        changes = Changes(store.root)
        assert not changes.moved()
        store.add_player(store.current_night().id, "Zed")
        assert changes.moved() and not changes.moved()
        changes.conn.close()


async def _crashing(scope: Any, receive: Any, send: Any) -> None:
    raise RuntimeError("a page that crashes before answering")


# ---- the command line ---------------------------------------------------------------------

# Commands whose arguments are not JSON documents (photos, names, an output file); every
# other command with an argument is fuzzed, so a new JSON command cannot be missed.
NOT_JSON = {("backup",), ("delicious", "read"), ("dice", "read"), ("players", "alias"),
            ("players", "unalias"), ("sheets", "geometry"), ("sheets", "print"),
            ("deli-duel", "check")}


def _commands() -> list[tuple[tuple[str, ...], bool]]:
    """(command path, takes --save) of every command with a JSON document argument."""
    ctx = click.Context(main)
    out = []

    def walk(cmd: click.Command, path: tuple[str, ...]) -> None:
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                if sub is not None:
                    walk(sub, (*path, name))
        elif path not in NOT_JSON and any(isinstance(p, click.Argument) for p in cmd.params):
            out.append((path, any(p.name == "save" for p in cmd.params)))

    walk(main, ())
    return out


COMMANDS = _commands()


def test_every_json_command_is_enumerated() -> None:
    names = {" ".join(c) for c, _ in COMMANDS}
    assert {"dulce final", "dulce best-harvest", "wild-gardens score", "dice cuts",
            "dice score", "deli-duel winner", "import", "delicious score"} <= names


KEYS = ["game", "players", "name", "points", "chicken", "field_cubes", "recipes", "stars",
        "hype", "cafes", "spaces", "card", "completed_orders", "fairy_bread", "pollinator",
        "jar", "guests", "dice", "rows", "plays", "nights", "version", "score", "format"]
TEXTS = ["", "{", "[" * 100_000, '{"a": ' * 5000, "1" * 5000, "NaN",
         '{"game": "dulce", "players": [{"name": "\\ud800", "points": 1}]}',
         '{"players": [{"points": 1e999}]}']


def _scalar(rng: Random) -> object:
    pick = rng.randrange(6)
    if pick == 0:
        return rng.choice([None, True, False])
    if pick == 1:
        return rng.randint(-(10**20), 10**20)
    if pick == 2:
        return rng.choice([0.0, -0.0, 0.5, 1e308, -1e-308, rng.uniform(-1e6, 1e6)])
    return rng.choice(SPECIAL) if pick == 3 else _text(rng, 12)


def _json(rng: Random, leaves: list[int]) -> object:
    """A JSON value of at most ``leaves[0]`` scalars (shared with the caller's siblings)."""
    if leaves[0] <= 0 or rng.random() < 0.4:
        leaves[0] -= 1
        return _scalar(rng)
    if rng.random() < 0.5:
        return [_json(rng, leaves) for _ in range(rng.randint(0, 5))]
    return {(rng.choice(KEYS) if rng.random() < 0.7 else _text(rng, 8)): _json(rng, leaves)
            for _ in range(rng.randint(0, 6))}


def make_document(rng: Random) -> str:
    """A game document with odd players, any JSON, or text that is hardly JSON."""
    pick = rng.randrange(3)
    if pick == 0:
        leaves = [30]
        doc = {"game": rng.choice([g.slug for g in GAMES] + ["x"]),
               "players": [_json(rng, leaves) for _ in range(rng.randint(0, 5))]}
        doc.update({_text(rng, 6): _json(rng, leaves) for _ in range(rng.randint(0, 2))})
        return json.dumps(doc)
    if pick == 1:
        return json.dumps(_json(rng, [30]))
    return rng.choice(TEXTS) if rng.random() < 0.5 else _text(rng, 60)


DOCUMENTS = RANDOMS.map(make_document)


@pytest.mark.slow
@pytest.mark.parametrize("command,saves", COMMANDS, ids=[" ".join(c) for c, _ in COMMANDS])
def test_no_json_input_makes_a_traceback(command: tuple[str, ...], saves: bool) -> None:
    with tempfile.TemporaryDirectory() as d:
        doc, data = Path(d) / "in.json", Path(d) / "data"
        with Store.open(data):
            pass
        state = {"before": dump(data)}

        @FUZZ
        @given(text=DOCUMENTS, save=st.booleans())
        def attack(text: str, save: bool) -> None:
            doc.write_text(text, errors="surrogatepass")
            extra = ["--save", "--data", str(data)] if save and saves else []
            if command == ("import",):
                extra = ["--data", str(data)]
            result = CliRunner().invoke(main, [*command, str(doc), *extra])
            assert result.exception is None or isinstance(result.exception, SystemExit), (
                text[:200], result.output[-500:], result.exception)
            assert "Traceback" not in result.output
            assert result.exit_code in (0, 1, 2), result.output
            if extra:
                after = dump(data)
                if result.exit_code != 0:
                    assert after == state["before"], (text[:200], result.output[-300:])
                state["before"] = after

        attack()

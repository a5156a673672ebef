"""The join link (issue 31): a remote player's own name, sheets, score and questions, and
nothing else. Every route the app registers is tried with the join token, so a page added
later is refused until it is added to the one allow-list (companion.web.roles)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from starlette.routing import Mount, Route
from starlette.testclient import TestClient

from companion.store import Store
from companion.web.app import create_app
from companion.web.readers import ReaderPool
from companion.web.roles import JOIN_REFUSED, JOIN_ROUTES
from companion.web.security import Guard
from tests.web_support import COMBO, EXAMPLES

TILTED = EXAMPLES / "delicious/photos/combo-tilted-shadow.jpg"  # another player's combo

HOST, JOIN = "host-token-" + "h" * 24, "join-token-" + "j" * 24


def _app(store: Store, readers: ReaderPool) -> Guard:
    return create_app(store, token=HOST, join_token=JOIN, readers=readers)


def _concrete(path: str) -> str:
    """A request path for a registered route path ({x:int} -> 1, {x:path} -> x)."""
    path = re.sub(r"\{[^}:]+:int\}", "1", path)
    return re.sub(r"\{[^}]+\}", "x", path)


def _requests(app: Guard) -> list[tuple[str, str, str]]:
    """(method, registered path, request path) for every route of the app."""
    out = []
    for route in app.app.routes:  # type: ignore[attr-defined]  # the Guard wraps Starlette
        if isinstance(route, Mount):
            out.append(("GET", route.path, route.path + "/app.css"))
        elif isinstance(route, Route):
            for m in sorted((route.methods or {"GET"}) - {"HEAD"}):
                out.append((m, route.path, _concrete(route.path)))
    return out


def test_every_host_only_route_answers_403_to_the_join_link(store, readers):
    app = _app(store, readers)
    routes = _requests(app)
    host_only = [r for r in routes if (r[0], r[1]) not in JOIN_ROUTES]
    assert len(host_only) > 40 and len(routes) - len(host_only) == len(JOIN_ROUTES)
    with TestClient(app, raise_server_exceptions=False) as c:
        for method, registered, path in host_only:
            r = c.request(method, path, headers={"authorization": f"Bearer {JOIN}"},
                          data={"x": "1"} if method == "POST" else None)
            assert r.status_code == 403, (method, registered, r.status_code)
            assert JOIN_REFUSED in r.text, (method, registered)
        # and the host's link reaches them (none of them refused for its role; the big
        # screen's events come as one JSON answer to a client that asks for no stream)
        for method, registered, path in host_only:
            r = c.request(method, path, headers={"authorization": f"Bearer {HOST}"},
                          data={"x": "1"} if method == "POST" else None)
            assert JOIN_REFUSED not in r.text, (method, registered)


def test_the_join_routes_are_open_to_the_join_link(store, readers):
    app = _app(store, readers)
    with TestClient(app, raise_server_exceptions=False) as c:
        for method, registered, path in _requests(app):
            if (method, registered) in JOIN_ROUTES:
                r = c.request(method, path, headers={"authorization": f"Bearer {JOIN}"},
                              data={"x": "1"} if method == "POST" else None)
                assert JOIN_REFUSED not in r.text, (method, registered)
        assert c.get(f"/join?t={JOIN}").status_code == 200
        # the cookie now carries the join token: still nothing of the host's
        assert c.get("/").status_code == 403 and c.get("/history").status_code == 403


@contextlib.contextmanager
def _opened(app: Guard, link: str) -> Iterator[TestClient]:
    """A phone of its own (its own cookies) that has opened ``link``."""
    with TestClient(app, raise_server_exceptions=False) as c:
        c.get(link)
        yield c


def _send(c: TestClient, name: str, photo: Path = COMBO) -> str:
    r = c.post("/join/name", data={"name": name}, follow_redirects=False)
    assert r.status_code == 303, r.text
    r = c.post("/join/upload", files=[("photo", (photo.name, photo.read_bytes(),
                                                  "image/jpeg"))])
    assert r.status_code == 200, r.text
    return r.text


def test_a_remote_player_sends_a_sheet_and_sees_only_their_own(store, readers):
    app = _app(store, readers)
    with _opened(app, f"/join?t={JOIN}") as ann, _opened(app, f"/join?t={JOIN}") as bo:
        page = _send(ann, "Ann")
        total = re.search(r'data-testid="total">(\d+)<', page)
        assert total and int(total.group(1)) > 0 and 'data-testid="breakdown"' in page
        _send(bo, "Bo", TILTED)  # a sheet of his own: Ann's photo again is refused
        sheets = {r.player_id: r.id for sc in store.scorings(store.current_night().id)
                  for r in store.readings(sc.id)}
        ann_id, bo_id = (store.player(n).id for n in ("Ann", "Bo"))
        before = store.corrections(sheets[ann_id])
        # Bo answers a question on Ann's sheet, undoes it, or looks at its crop: refused
        r = bo.post("/join/correct", data={"reading": sheets[ann_id], "field": "garden.honey",
                                           "value": ""})
        assert r.status_code == 404
        assert bo.post("/join/undo", data={"reading": sheets[ann_id]}).status_code == 404
        assert bo.get(f"/join/crop/{sheets[ann_id]}.png?field=garden.honey").status_code == 404
        assert store.corrections(sheets[ann_id]) == before
        # Bo cannot take Ann's name either: it has sent sheets from another phone
        r = bo.post("/join/name", data={"player": ann_id})
        assert r.status_code == 400 and "another phone" in r.text
        # a forged player cookie names no one
        with TestClient(app, cookies={"companion_player": f"{ann_id}.0000"}) as forged:
            r = forged.get("/join/me", headers={"authorization": f"Bearer {JOIN}"},
                           follow_redirects=False)
            assert r.status_code == 303 and r.headers["location"] == "/join"
        # her own answer goes through
        r = ann.post("/join/correct", data={"reading": sheets[ann_id], "field": "garden.honey",
                                            "value": ""}, follow_redirects=False)
        assert r.status_code == 303 and len(store.corrections(sheets[ann_id])) == 1
        assert sheets[bo_id] != sheets[ann_id]


def test_another_players_photo_is_refused_and_theirs_kept(store, readers):
    """Bo sends the very bytes Ann sent (a photo passed on in the video call's chat): one
    sheet, never two players who tie. Refused in one line naming both files; Ann's sheet
    stays hers, and Bo's own sheet goes through after."""
    app = _app(store, readers)
    with _opened(app, f"/join?t={JOIN}") as ann, _opened(app, f"/join?t={JOIN}") as bo:
        _send(ann, "Ann")
        assert bo.post("/join/name", data={"name": "Bo"},
                       follow_redirects=False).status_code == 303
        r = bo.post("/join/upload", files=[("photo", ("mine.jpg", COMBO.read_bytes(),
                                                       "image/jpeg"))])
        assert r.status_code == 400 and "Traceback" not in r.text
        assert (f"mine.jpg is a copy of {COMBO.name}, which Ann sent (the same bytes): send "
                "a photo of your own sheet") in r.text
        kept = [r for sc in store.scorings(store.current_night().id)
                for r in store.readings(sc.id)]
        assert [r.player_id for r in kept] == [store.player("Ann").id]
        assert 'data-testid="total"' in _send(bo, "Bo", TILTED)


def test_a_name_the_table_has_is_refused_to_another_phone(store, readers):
    """Two phones typing "Ann" and "ann" before either sends were one player (the store
    folds names); the second is told the name is taken, keeps no one's cookie, and goes on
    under a name of its own. The phone that is Ann may type her name again."""
    app = _app(store, readers)
    with _opened(app, f"/join?t={JOIN}") as ann, _opened(app, f"/join?t={JOIN}") as other:
        assert ann.post("/join/name", data={"name": "Ann"},
                        follow_redirects=False).status_code == 303
        for typed in ("ann", " ANN ", "Ａｎｎ"):  # full-width letters fold to "ann" too
            r = other.post("/join/name", data={"name": typed}, follow_redirects=False)
            assert r.status_code == 400 and "Traceback" not in r.text
            line = (f"{typed.strip()!r} is taken at this table (Ann): pick it from the list "
                    "if it is yours, or type another name")
            assert line in r.text.replace("&#39;", "'"), r.text
            assert 'href="/history"' not in r.text  # no host menu on a remote player's page
            assert "companion_player" not in other.cookies
        r = other.post("/join/name", data={"name": "ann"},
                       headers={"accept": "application/json"}, follow_redirects=False)
        assert r.status_code == 400 and "is taken at this table" in r.json()["error"]
        assert other.get("/join/me", follow_redirects=False).headers["location"] == "/join"
        assert [p.name for p in store.night_players(store.current_night().id)] == ["Ann"]
        assert ann.post("/join/name", data={"name": "ann"},
                        follow_redirects=False).status_code == 303  # her own name again
        assert 'data-testid="total"' in _send(ann, "Ann")
        assert 'data-testid="total"' in _send(other, "Annie", TILTED)
    assert {p.name for p in store.night_players(store.current_night().id)} == {"Ann", "Annie"}


def test_a_sheet_sent_twice_is_kept_once(store, readers):
    """A double tap, or a retry after the answer was lost, sends the same photo again: it
    is the player's one sheet, not a second player of their name at the host's table."""
    app = _app(store, readers)
    photo = [("photo", (COMBO.name, COMBO.read_bytes(), "image/jpeg"))]
    with _opened(app, f"/join?t={JOIN}") as ann:
        _send(ann, "Ann")
        assert ann.post("/join/upload", files=photo).status_code == 200  # again, later
        with ThreadPoolExecutor(2) as pool:  # and twice at once
            answers = list(pool.map(lambda _: ann.post("/join/upload", files=photo), range(2)))
        assert [r.status_code for r in answers] == [200, 200]
        assert 'data-testid="total"' in answers[0].text
    kept = [r for sc in store.scorings(store.current_night().id) for r in store.readings(sc.id)]
    assert len(kept) == 1 and kept[0].player_id == store.player("Ann").id


def test_the_ranking_shows_on_the_join_page_only_once_revealed(store, readers):
    app = _app(store, readers)
    with _opened(app, f"/join?t={JOIN}") as ann, _opened(app, f"/big?t={HOST}") as host:
        assert 'id="ranking"' not in _send(ann, "Ann")
        assert host.post("/big/reveal", data={"show": "1"}).status_code == 200
        assert 'id="ranking"' in ann.get("/join/me").text
        assert ann.post("/big/reveal", data={"show": "0"}).status_code == 403


def test_the_big_screen_events_answer_a_script_once_and_a_browser_as_a_stream(store, readers):
    app = _app(store, readers)
    with _opened(app, f"/big?t={HOST}") as host:
        doc = host.get("/big/events", headers={"accept": "application/json"}).json()
        assert doc["revealed"] is False and doc["players"] == [] and doc["ranking"] == []
        with host.stream("GET", "/big/events", headers={"accept": "text/event-stream"}) as r:
            assert r.headers["content-type"].startswith("text/event-stream")
            first = next(r.iter_lines())
            assert first.startswith("data: {") and '"revealed": false' in first


def test_a_remote_sketcher_names_a_group_of_drawings_with_one_tap(store, readers, tmp_path):
    """Questions about alike drawings reach the remote player's page (not only the host's)
    as cards; one tap names the whole group; another player cannot answer them."""
    from tools.example_photos import sketched_sheet_photo

    photo = sketched_sheet_photo(tmp_path)
    app = _app(store, readers)
    with _opened(app, f"/join?t={JOIN}") as cat, _opened(app, f"/join?t={JOIN}") as bo:
        assert cat.post("/join/name", data={"name": "Cat"},
                        follow_redirects=False).status_code == 303
        page = cat.post("/join/upload", files=[("photo", (photo.name, photo.read_bytes(),
                                                          "image/jpeg"))]).text
        asked = page.count('data-testid="question"')
        assert asked >= 1 and "Every field was read with confidence" not in page
        me = cat.get("/join/me", headers={"accept": "application/json"}).json()
        for g in me["groups"]:  # every drawing of every card has its crop
            for f in g["fields"]:
                crop = cat.get(f"/join/crop/{f['reading']}.png", params={"field": f["field"]})
                assert crop.status_code == 200 and crop.content[:4] == b"\x89PNG"
        group = max(me["groups"], key=lambda g: len(g["fields"]))
        first = group["fields"][0]
        other = next(c for c in group["choices"] if c != group["guess"])
        assert cat.post("/join/plant", data={**first, "value": "dragonfruit"}).status_code == 400
        _send(bo, "Bo")
        assert bo.post("/join/plant", data={**first, "value": other}).status_code == 404
        r = cat.post("/join/plant", data={**first, "value": other}, follow_redirects=False)
        assert r.status_code == 303
        fixed = {c.field: c.value for c in store.corrections(first["reading"])}
        assert {f["field"] for f in group["fields"]} <= set(fixed)
        assert set(fixed.values()) == {other}
        # that card is gone (an answer can settle others too: its plant is ruled out for
        # the player's other drawings)
        assert cat.get("/join/me").text.count('data-testid="question"') <= asked - 1
        left = cat.get("/join/me", headers={"accept": "application/json"}).json()["groups"]
        assert all(f["field"] != first["field"] for g in left for f in g["fields"])

"""``companion serve --public https://NAME``: only that Host (and this machine's names
from this machine), Secure cookies, strict headers without HSTS, and a one-line refusal
of anything that is not an https origin (issue 31)."""

from __future__ import annotations

import httpx
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from companion.cli.serve import serve
from companion.store import Store
from companion.web.app import create_app
from companion.web.security import LOCAL_HOSTS
from tests.web_support import Server

NAME = "night.example.org"
HOST, JOIN = "h" * 32, "j" * 32


def _client(store: Store, client: tuple[str, int] = ("203.0.113.9", 5000),
            host: str = NAME) -> TestClient:
    app = create_app(store, token=HOST, join_token=JOIN, public=f"https://{NAME}",
                     allowed_hosts=frozenset({NAME}), loopback_hosts=frozenset(LOCAL_HOSTS))
    return TestClient(app, base_url=f"https://{host}", client=client,
                      raise_server_exceptions=False)


@pytest.mark.parametrize("value", ["http://night.example.org", "night.example.org",
                                   "https://night.example.org/path", "https://", "ftp://x.org",
                                   "https://user@night.example.org", "https://localhost",
                                   "https://night.example.org:99999"])
def test_a_public_value_that_is_not_an_https_origin_is_refused_in_one_line(tmp_path, value):
    result = CliRunner().invoke(serve, ["--data", str(tmp_path), "--port", "0",
                                        "--public", value])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert "--public" in result.output and "Traceback" not in result.output


def test_lan_and_public_together_are_refused(tmp_path):
    result = CliRunner().invoke(serve, ["--data", str(tmp_path), "--lan", "--public",
                                        f"https://{NAME}"])
    assert result.exit_code == 2 and "do not go together" in result.output


def test_only_the_public_name_is_trusted(store):
    with _client(store) as c:
        assert c.get(f"/?t={HOST}").status_code == 200
    with _client(store, host="evil.example") as c:
        assert c.get(f"/?t={HOST}").status_code == 400
    # this machine's names: only from this machine, never from the world through the proxy
    with _client(store, host="127.0.0.1:8000") as c:
        assert c.get(f"/?t={HOST}").status_code == 400
    with _client(store, client=("127.0.0.1", 5000), host="127.0.0.1:8000") as c:
        assert c.get(f"/?t={HOST}").status_code == 200


def test_cookies_are_secure_and_headers_strict_without_hsts(store):
    with _client(store) as c:
        r = c.get(f"/?t={HOST}")
        assert "Secure" in r.headers["set-cookie"] and "HttpOnly" in r.headers["set-cookie"]
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"
        assert "strict-transport-security" not in r.headers
        # the cookie alone carries the token on the next request
        assert c.get("/").status_code == 200


def test_lan_mode_keeps_its_headers_and_plain_cookie(store):
    app = create_app(store, token=HOST, join_token=JOIN)
    with TestClient(app) as c:
        r = c.get(f"/?t={HOST}")
        assert "Secure" not in r.headers["set-cookie"]
        assert "content-security-policy" not in r.headers


def test_serve_public_prints_both_links_and_answers_the_public_name(tmp_path):
    with Server(tmp_path, "--public", f"https://{NAME}") as s:
        assert s.proc is not None and s.proc.stdout is not None
        assert s.url.startswith("http://127.0.0.1:") and "?t=" in s.url
        host_line = s.proc.stdout.readline()
        assert host_line.startswith(f"host link (keep it to yourself): https://{NAME}/?t=")
        join = ""
        for _ in range(60):  # the QR code's lines, then the join link
            join = s.proc.stdout.readline()
            if join.startswith("join link"):
                break
        assert f"https://{NAME}/join?t=" in join
        token = s.url.split("?t=")[1]
        assert (tmp_path / "lan-token").read_text().strip() == token
        assert (tmp_path / "join-token").read_text().strip() == join.split("?t=")[1].strip()
        # the proxy passes the public name on; this machine's own browser uses 127.0.0.1
        r = httpx.get(f"{s.root}/?t={token}", headers={"Host": NAME}, timeout=10)
        assert r.status_code == 200 and "Secure" in r.headers["set-cookie"]
        assert httpx.get(s.url, timeout=10).status_code == 200
        assert httpx.get(f"{s.root}/?t={token}", headers={"Host": "evil.example"},
                         timeout=10).status_code == 400


def test_tonight_shows_the_join_link_and_the_way_to_the_big_screen(store):
    join = f"https://{NAME}/join?t={JOIN}"
    app = create_app(store, token=HOST, join_token=JOIN, public=f"https://{NAME}",
                     join_url=join, allowed_hosts=frozenset({NAME}))
    with TestClient(app, base_url=f"https://{NAME}") as c:
        page = c.get(f"/?t={HOST}").text
        assert "Join link for remote players" in page and join in page
        assert 'href="/big"' in page and "<svg" in page


@pytest.mark.parametrize("bind", ["0.0.0.0", "::"])
def test_public_on_all_addresses_prints_a_url_this_machine_is_answered_on(bind):
    # in public mode this machine's LAN address is refused (400): the local URL is loopback
    from companion.cli.serve import shown_host

    assert shown_host(bind, public=True) == "127.0.0.1"
    assert shown_host("127.0.0.1", public=True) == "127.0.0.1"
    assert shown_host("::1", public=False) == "[::1]"

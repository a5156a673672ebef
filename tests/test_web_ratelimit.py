"""Rate limits per link and per address (issue 31): a token bucket for each link and for
each address under it; past it 429 with Retry-After and one line; the host's link is the
more generous."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from companion.web.app import create_app
from companion.web.ratelimit import LIMITS, Limits, Rate, RateLimiter
from companion.web.roles import Role

HOST, JOIN = "h" * 32, "j" * 32


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_lets_its_burst_through_then_refills_at_its_rate():
    clock = Clock()
    lim = RateLimiter({r: Limits(Rate(100, 100), Rate(3, 2)) for r in Role}, clock)
    assert [lim.take(Role.JOIN, "a") for _ in range(3)] == [0, 0, 0]
    assert lim.take(Role.JOIN, "a") == pytest.approx(0.5)  # one more in half a second
    assert lim.take(Role.JOIN, "b") == 0  # another address has its own bucket
    clock.now = 0.5
    assert lim.take(Role.JOIN, "a") == 0
    clock.now = 100
    assert [lim.take(Role.JOIN, "a") for _ in range(4)][-1] > 0  # never above the burst


def test_the_link_bucket_holds_across_addresses():
    clock = Clock()
    lim = RateLimiter({r: Limits(Rate(5, 1), Rate(100, 100)) for r in Role}, clock)
    assert all(lim.take(Role.JOIN, f"10.0.0.{i}") == 0 for i in range(5))
    assert lim.take(Role.JOIN, "10.0.0.99") > 0
    assert lim.take(Role.HOST, "10.0.0.99") == 0  # the host's link is another bucket


def test_the_host_link_is_more_generous_than_the_join_link():
    host, join = LIMITS[Role.HOST], LIMITS[Role.JOIN]
    assert host.address.burst > join.address.burst and host.address.per_s > join.address.per_s
    assert LIMITS[Role.NONE].address.burst < join.address.burst


def test_past_the_limit_the_server_answers_429_with_retry_after(store):
    app = create_app(store, token=HOST, join_token=JOIN)
    with TestClient(app) as c:
        join = {"authorization": f"Bearer {JOIN}"}
        codes = [c.get("/join", headers=join).status_code
                 for _ in range(int(LIMITS[Role.JOIN].address.burst) + 5)]
        assert codes[0] == 200 and codes[-1] == 429
        r = c.get("/join", headers=join)
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert r.text.startswith("too many requests") and "\n" not in r.text.strip()
        assert c.get("/api/x", headers=join).json()["error"].startswith("too many requests")
        # the pages' static shell is not counted for a link's own phones
        assert c.get("/favicon.ico", headers=join).status_code == 200
        # the host, from the same address, is still answered
        assert c.get("/join", headers={"authorization": f"Bearer {HOST}"}
                     ).status_code == 200
        # guessing tokens runs out sooner still
        bad = [c.get("/", headers={"authorization": "Bearer nope"}).status_code
               for _ in range(int(LIMITS[Role.NONE].address.burst) + 2)]
        assert bad[0] == 403 and bad[-1] == 429


def test_a_server_for_this_machine_alone_has_no_limit(store):
    with TestClient(create_app(store)) as c:
        n = int(LIMITS[Role.HOST].address.burst) + 20  # past even the host link's burst
        assert all(c.get("/favicon.ico").status_code == 200 for _ in range(n))

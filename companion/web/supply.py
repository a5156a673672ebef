"""The supply page: the community supply of a seed, revealed round by round on a shared
screen. The seed and round live in the URL, so a reload, a second screen or a player
checking afterwards all see the same reveal as ``companion delicious supply --seed S``.
A seed kept for the night checks that night's Delicious sheets against its supply."""

from __future__ import annotations

import secrets
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import Response

from companion.errors import InputError
from companion.games.delicious.supply import ALGORITHM, Reveal, Supply, check_seed, supply
from companion.games.delicious.symbols import ROUNDS
from companion.store import Store
from companion.store.supplies import forget_supply_seed, keep_supply_seed, supply_seed
from companion.web.render import go, page, state, whole

# A suggested seed has at most this many digits: short enough to read aloud on a call.
SUGGESTED_SEED_DIGITS = 6


def night_supply(store: Store, night_id: int | None) -> Supply | None:
    """The supply the night kept, to check its sheets against (None: none kept)."""
    kept = supply_seed(store, night_id)
    if kept is None:
        return None
    seed, algorithm = kept
    if algorithm != ALGORITHM:
        raise InputError(f"the night's supply was dealt by {algorithm}, which this "
                         f"companion does not know; upgrade companion")
    return supply(seed)


def supply_url(seed: int, rnd: int) -> str:
    return "/supply?" + urlencode({"seed": seed, "round": rnd})


def _label(value: object) -> str:
    return str(value).replace("-", " ")


def reveal_view(reveal: Reveal) -> dict[str, str]:
    """What the template shows of one flipped card and its token."""
    card = reveal.card.card
    return {"position": str(reveal.position), "vegetable": str(card.vegetable),
            "icon": str(card.icon), "token": str(reveal.face), "side": reveal.side,
            "vegetable_label": _label(card.vegetable), "token_label": _label(reveal.face)}


async def supply_page(request: Request) -> Response:
    query = request.query_params
    raw_seed = query.get("seed", "").strip()
    st = state(request)
    kept = supply_seed(st.store, st.store.current_night().id)
    tonight = kept[0] if kept else None
    if not raw_seed:
        return page(request, "supply.html", seed=None, tonight=tonight,
                    suggested=secrets.randbelow(10**SUGGESTED_SEED_DIGITS))
    seed = check_seed(whole(raw_seed, "seed"))
    rnd = whole(query.get("round", "0"), "round")
    if not 0 <= rnd <= ROUNDS:
        raise InputError(f"round must be 0 to {ROUNDS}")
    deal = supply(seed)
    current = deal.rounds[rnd - 1] if rnd else None
    return page(
        request, "supply.html", seed=seed, round=rnd, rounds=ROUNDS, tonight=tonight,
        current=[reveal_view(r) for r in (current.top, current.bottom)] if current else [],
        earlier=[(r.number, [reveal_view(r.top), reveal_view(r.bottom)])
                 for r in reversed(deal.rounds[:max(rnd - 1, 0)])],
        next_url=supply_url(seed, rnd + 1) if rnd < ROUNDS else None,
        prev_url=supply_url(seed, rnd - 1) if rnd > 0 else None)


async def keep(request: Request) -> Response:
    """Keep the seed with tonight: its Delicious sheets are then checked against it."""
    form = await request.form()
    seed = check_seed(whole(form.get("seed", ""), "seed"))
    st = state(request)
    keep_supply_seed(st.store, st.store.current_night().id, seed, ALGORITHM)
    back = whole(form.get("round", "0"), "round")
    return go(request, supply_url(seed, back if 0 <= back <= ROUNDS else 0))


async def forget(request: Request) -> Response:
    st = state(request)
    forget_supply_seed(st.store, st.store.current_night().id)
    return go(request, "/supply")


ROUTES_POST = (("/supply/keep", keep), ("/supply/forget", forget))
ROUTES_GET = (("/supply", supply_page),)

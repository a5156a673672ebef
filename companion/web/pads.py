"""The score pads: each game's form (its columns come from the game registry), the
state document the game scores, built from what was typed, and the Dulce advice box.

Scoring and saving go through the game's own ``finish`` and ``play`` (the registry), the
functions the command line calls too.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from companion.errors import IllegalMoveError, InputError
from companion.fileio import parse_json
from companion.games.dulce.outcome import Advice, advise
from companion.games.outcome import Finished
from companion.games.registry import BY_SLUG, GAMES, ColumnKind, PadColumn, title
from companion.store import NotFoundError
from companion.text import ascii_number
from companion.web.constants import THINK_POLL_S, THINK_WAIT_S
from companion.web.render import form_once, go, page, render, state, wants_json, whole
from companion.web.thinking import Thinking

PADS: Mapping[str, tuple[PadColumn, ...]] = MappingProxyType(
    {g.slug: g.pad for g in GAMES if g.pad})

MAX_PAD_PLAYERS = 8
MAX_DIGITS = 6  # a pad's numbers: far above any game's reach, which the engines check


def _number(text: str) -> int | None:
    """Digits 0-9 as a number (not "²", "1_0" or 5,000 digits, which int() takes or
    chokes on), None when the text is not one."""
    t = text.strip()
    if not ascii_number(t, MAX_DIGITS):
        return None
    return int(t)


def _whole(text: str, where: str) -> int:
    if not text.strip():
        return 0
    n = _number(text)
    if n is None:
        raise InputError(f"{where}: a whole number up to {MAX_DIGITS} digits, "
                         f"not {text.strip()[:20]!r}")
    return n


def _recipes(text: str, where: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i, part in enumerate(p for p in text.replace(";", ",").split(",") if p.strip()):
        nums = [_number(x) for x in part.split("+")]
        if None in nums:
            raise InputError(f"{where} recipe {i + 1}: write stars+hype like 7+3, "
                             f"not {part.strip()[:20]!r}")
        recipe: dict[str, Any] = {"stars": nums[0]}
        if len(nums) == 2:
            recipe["hype"] = nums[1]
        elif len(nums) > 2:
            recipe["hype"] = nums[1:]
        out.append(recipe)
    return out


def state_from_form(game: str, form: Mapping[str, str]) -> dict[str, Any]:
    """The engine's state document from the pad's rows (rows without a name are skipped)."""
    columns = PADS.get(game)
    if columns is None:
        raise InputError(f"no score pad for {game!r}")
    players = []
    for i in range(MAX_PAD_PLAYERS):
        name = " ".join(str(form.get(f"name{i}", "")).split())
        if not name:
            continue
        row: dict[str, Any] = {"name": name}
        for col in columns:
            raw = str(form.get(f"{col.key}{i}", ""))
            if col.kind is ColumnKind.FLAG:
                row[col.key] = raw in ("on", "true", "1")
            elif col.kind is ColumnKind.TEXT:
                row[col.key] = _recipes(raw, name)
            else:
                row[col.key] = _whole(raw, f"{name}, {col.label}")
        players.append(row)
    if not players:
        raise InputError("write at least one player's name")
    return {"game": game, "players": players}


def _save_key(once: str | None, doc: Mapping[str, Any]) -> str | None:
    """The pad's one-time key with what it saves: the same form sent twice is one play,
    the form changed and sent again (after Back) is another."""
    if once is None:
        return None
    digest = hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]
    return f"{once}:{digest}"


# ---- routes -------------------------------------------------------------------------------


def _pad_game(request: Request) -> str:
    game = str(request.path_params["game"])
    if game not in PADS:
        raise NotFoundError(f"no score pad for {game!r}")
    return game


async def pad(request: Request) -> Response:
    st = state(request)
    game = _pad_game(request)
    names = [p.name for p in st.store.night_players(st.store.current_night().id)]
    rows = min(MAX_PAD_PLAYERS, max(len(names), 2))
    return _pad_page(request, game, rows, {}, None, None)


def _pad_page(request: Request, game: str, rows: int, values: dict[str, str],
              result: Finished | None, advice: list[str] | None) -> Response:
    st = state(request)
    names = [p.name for p in st.store.night_players(st.store.current_night().id)]
    return page(request, "pad.html", game=game, title=title(game), columns=PADS[game],
                rows=rows, values=values, result=result, advice=advice, suggestions=names)


async def pad_post(request: Request) -> Response:
    st = state(request)
    game = _pad_game(request)
    form = await request.form()
    values = {k: str(v) for k, v in form.items()}
    rows = min(MAX_PAD_PLAYERS, max(2, whole(form.get("rows", "2"), "rows")))
    action = str(form.get("action", ""))
    if action == "more":
        rows = min(MAX_PAD_PLAYERS, rows + 1)
        return _pad_page(request, game, rows, values, None, None)
    if action in tuple(Advice):
        doc = parse_json(str(form.get("state", "")), "the Dulce state")
        if not isinstance(doc, dict):
            raise InputError("the Dulce state is a JSON object")
        job = st.thinker.start(advise, Advice(action), doc,
                               context={"game": game, "rows": rows, "values": values})
        return _advice(request, job)
    info = BY_SLUG[game]
    result = info.score_pad(state_from_form(game, values))
    if action == "save":
        if result.problems:
            raise IllegalMoveError(f"not saved: {result.problems[0]}")
        play = st.store.save_outcome(info.play(result.doc),
                                     night_id=st.store.current_night().id, source="web",
                                     once=_save_key(form_once(values), result.doc))
        return go(request, "/", play=play.id)
    return _pad_page(request, game, rows, values, result, None)


def _advice(request: Request, job: str) -> Response:
    """The advice when the engine's process has it within a moment, else "still
    thinking" (202) with the address to look again; "too big" (422) past the limit."""
    st = state(request)
    context = st.thinker.context(job)
    answer = st.thinker.wait(job, THINK_WAIT_S)
    game = str(context["game"])
    if isinstance(answer, Thinking):
        again = f"/pads/{game}/thinking/{job}"
        if wants_json(request):
            return JSONResponse({"thinking": again, "elapsed_s": round(answer.elapsed_s, 1),
                                 "limit_s": answer.limit_s}, status_code=202,
                                headers={"Retry-After": str(THINK_POLL_S)})
        return render(request, "thinking.html", 202, {
            "what": "Working out the best move", "elapsed_s": answer.elapsed_s,
            "limit_s": answer.limit_s, "every_s": THINK_POLL_S, "next_url": again,
            "back_url": f"/pads/{game}"})
    assert isinstance(answer, Finished)
    if wants_json(request):
        return JSONResponse(answer.doc)
    return _pad_page(request, game, int(context["rows"]), dict(context["values"]), None,
                     answer.lines)


async def thinking(request: Request) -> Response:
    _pad_game(request)
    return _advice(request, str(request.path_params["job"]))


ROUTES_POST = (("/pads/{game}", pad_post),)
ROUTES_GET = (("/pads/{game}", pad), ("/pads/{game}/thinking/{job}", thinking))

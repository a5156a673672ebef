"""A store of many game nights made through the store's own API (tests build on it)."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from companion.store import SeatInput, Store

PEOPLE = ("Ann", "Bo", "Cy", "Dee", "Eli", "Fay")
GAMES = ("delicious", "diced-veggies", "dulce", "wild-gardens", "deli-duel")


@dataclass(frozen=True)
class Seeded:
    """What was saved, kept apart from the store so the tests can count it themselves."""

    plays: list[tuple[str, str, list[SeatInput]]]  # (game, date, seats)
    nights: int


def seed(store: Store, nights: int = 50, seed_value: int = 15) -> Seeded:
    rng = random.Random(seed_value)
    start = dt.date(2025, 1, 3)
    saved: list[tuple[str, str, list[SeatInput]]] = []
    for n in range(nights):
        day = (start + dt.timedelta(days=7 * n)).isoformat()
        night = store.new_night(f"Friday {n + 1}", date=day,
                                location=rng.choice(("Home", "Cafe", None)))
        for _ in range(rng.randint(1, 4)):
            game = rng.choice(GAMES)
            who = rng.sample(PEOPLE, rng.randint(2, 4))
            scores = {p: rng.randint(10, 60) for p in who}
            order = sorted(who, key=lambda p: -scores[p])
            places = {p: 1 + sum(scores[q] > scores[p] for q in who) for p in who}
            seats = [SeatInput(p, float(scores[p]), places[p], places[p] == 1) for p in order]
            tie = "shared" if sum(s.winner for s in seats) > 1 else None
            store.save_play(game, seats, night_id=night.id, tiebreak=tie,
                            detail={"seed": n}, duration_min=rng.choice((None, 30, 45)))
            saved.append((game, day, seats))
    return Seeded(saved, nights)

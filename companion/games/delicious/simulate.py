"""Whole simulated games: random but legal choices, reproducible per seed.

Players pick among legal options at random, slightly preferring the garden over the
play-sheet spots so the sheets look like real play. Every move is replayed through
``moves.apply``, so a simulated game is legal by construction.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion.errors import InputError
from companion.games.delicious.constants import DEFAULT_RULES, Rules
from companion.games.delicious.fieldmap import GAME
from companion.games.delicious.game import Table
from companion.games.delicious.garden import FRUIT_BONUS, FRUIT_WILD, VEG_BONUS, VEG_WILD, garden
from companion.games.delicious.moves import (
    Move,
    Round,
    Sketch,
    Source,
    legal_choices,
    legal_moves,
    legal_sketches,
    move_reason,
    put_sketch,
    wild_follow_up,
)
from companion.games.delicious.scoring import Score, rank, score
from companion.games.delicious.state import SheetState
from companion.games.delicious.supply import deal
from companion.games.delicious.symbols import Tool

MAX_PLAYERS = 8  # a sanity cap for the simulator, not a rule (4 pencils in the box)
SPOT_WEIGHT = 0.15  # relative chance of a play-sheet spot against one garden space
SKIP_TOOL_CHANCE = 0.1  # a player sometimes leaves a tool unused
RANDOM_TRIES = 20  # random moves tried before enumerating legal moves
FILL_TASTE = 6.0  # extra weight for a container space, times the container's filled share
FRUIT_TASTE = 1.5  # extra weight per equal fruit already in the space's lines

_SPOTS = frozenset({VEG_WILD, VEG_BONUS, FRUIT_WILD, FRUIT_BONUS})


def _weight(state: SheetState, s: Sketch) -> float:
    """Mild taste: finish what is started, group equal fruits, rarely use the spots."""
    if s.field in _SPOTS:
        return SPOT_WEIGHT
    g = state.garden
    for c in g.containers:
        if s.field in c.cells:
            filled = sum(1 for cell in c.cells if not state.is_empty(cell))
            return 1.0 + FILL_TASTE * filled / len(c.cells)
    same = sum(
        1
        for ln in g.lines
        if s.field in ln.cells
        for cell in ln.cells
        if state.get(cell) == str(s.plant)
    )
    return 1.0 + FRUIT_TASTE * same


def _pick(state: SheetState, options: list[Sketch], rng: random.Random) -> Sketch:
    weights = [_weight(state, s) for s in options]
    return rng.choices(options, weights=weights, k=1)[0]


def _attempt(state: SheetState, rnd: Round, rng: random.Random, rules: Rules) -> Move:
    choice, cards = rng.choice(legal_choices(state, rnd))
    base = Move(rnd, choice, cards)
    queue = [(p, s) for p in cards for s in (Source.VEGETABLE, Source.TOKEN)]
    rng.shuffle(queue)
    done: list[Sketch] = []
    lost = []
    cur = state
    while queue:
        position, source = queue.pop(0)
        is_tool = source is Source.TOKEN and isinstance(rnd.card(position).token, Tool)
        options = legal_sketches(cur, base, position, source, done, rules)
        if is_tool and rng.random() < SKIP_TOOL_CHANCE:
            continue  # left unused on purpose
        if not options:
            lost.append((position, source))
            continue
        s = _pick(cur, options, rng)
        done.append(s)
        cur = put_sketch(cur, s)
        follow = wild_follow_up(s)
        if follow is not None:
            queue.insert(0, (position, follow))
    for position, source in lost:  # later sketches may have opened a row
        if source in (Source.VEG_WILD, Source.FRUIT_WILD):
            continue
        options = legal_sketches(cur, base, position, source, done, rules)
        if options:
            s = _pick(cur, options, rng)
            done.append(s)
            cur = put_sketch(cur, s)
    return Move(rnd, choice, cards, tuple(done))


def random_move(
    state: SheetState, rnd: Round, rng: random.Random, rules: Rules = DEFAULT_RULES
) -> Move:
    """A random legal move for one player."""
    for _ in range(RANDOM_TRIES):
        move = _attempt(state, rnd, rng, rules)
        if move_reason(state, move, rules)[0] is not None:
            return move
    return next(legal_moves(state, rnd, rules))


@dataclass(frozen=True)
class GameRecord:
    seed: int
    variant: str
    rounds: list[Round]
    moves: list[list[Move]]  # per round, one move per player
    sheets: list[SheetState]
    scores: list[Score] = field(default_factory=list)

    @property
    def field_maps(self) -> list[dict[str, str]]:
        return [s.to_field_map() for s in self.sheets]

    def player_document(self, i: int) -> dict[str, Any]:
        """Player ``i``'s field map file (docs/contracts.md), named player<i+1>."""
        return {
            "game": GAME,
            "variant": self.variant,
            "player": f"player{i + 1}",
            "fields": self.field_maps[i],
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "variant": self.variant,
            "players": [
                {"player": f"player{i + 1}", "fields": fm, "score": sc.to_json()}
                for i, (fm, sc) in enumerate(zip(self.field_maps, self.scores, strict=True))
            ],
            "ranking": [s.to_json() for s in rank(self.scores)],
            "rounds": [r.to_json() for r in self.rounds],
        }


def simulate_game(
    seed: int, players: int = 2, variant: str = "A", rules: Rules = DEFAULT_RULES
) -> GameRecord:
    """Play a full game for ``players`` at one table; same seed, same game."""
    garden(variant)
    if not 1 <= players <= MAX_PLAYERS:
        raise InputError(f"players must be 1 to {MAX_PLAYERS}, not {players}")
    rng = random.Random(seed)
    rounds = deal(rng)
    table = Table.new(players, variant, rules)
    history: list[list[Move]] = []
    for rnd in rounds:
        moves = [random_move(s, rnd, rng, rules) for s in table.sheets]
        table = table.play(rnd, moves)
        history.append(moves)
    sheets = list(table.sheets)
    return GameRecord(seed, variant, rounds, history, sheets, [score(s) for s in sheets])

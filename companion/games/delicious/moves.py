"""Move-level play of one round for one player, in the spirit of python-chess.

A round reveals two cards (top and bottom), each with the token side it shows. A
``Move`` is one Plant Choice, the card(s) it uses and the ordered sketches the player
makes; order matters because rows fill bottom-up and a tool may go before or after the
card's vegetable. ``apply`` replays the sketches one by one and raises
``IllegalMoveError`` naming the first one the rules forbid. ``legal_moves`` is lazy: the
move space is a product of every plant's spots and can run to millions.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.errors import IllegalMoveError, InputError
from companion.games.delicious.constants import CARDS_PER_CHOICE, DEFAULT_RULES, Rules
from companion.games.delicious.garden import (
    FRUIT_BONUS,
    FRUIT_WILD,
    VEG_BONUS,
    VEG_WILD,
    Container,
    Garden,
    ToolIcon,
)
from companion.games.delicious.state import SheetState
from companion.games.delicious.symbols import Area, Fruit, Mark, PlantChoice, Shape, Tool, Vegetable

Plant = Vegetable | Fruit


@dataclass(frozen=True)
class Card:
    """A revealed vegetable card with the token side placed on it this round."""

    vegetable: Vegetable
    icon: Shape
    token: Fruit | Tool

    def __str__(self) -> str:
        return f"{self.vegetable}/{self.icon}/{self.token}"

    def to_json(self) -> dict[str, str]:
        return {"vegetable": str(self.vegetable), "icon": str(self.icon), "token": str(self.token)}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Card:
        try:
            token = doc["token"]
            side: Fruit | Tool = Fruit(token) if token in set(Fruit) else Tool(token)
            return cls(Vegetable(doc["vegetable"]), Shape(doc["icon"]), side)
        except (KeyError, ValueError, TypeError) as exc:
            raise InputError(f"not a card: {dict(doc)!r} ({exc})") from None


@dataclass(frozen=True)
class Round:
    top: Card
    bottom: Card

    def card(self, position: Area) -> Card:
        return self.top if position is Area.TOP else self.bottom

    def to_json(self) -> dict[str, Any]:
        return {"top": self.top.to_json(), "bottom": self.bottom.to_json()}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Round:
        try:
            return cls(Card.from_json(doc["top"]), Card.from_json(doc["bottom"]))
        except (KeyError, TypeError):
            raise InputError("a round is {\"top\": card, \"bottom\": card}") from None


class Source(StrEnum):
    """Which of a card's gifts a sketch uses."""

    VEGETABLE = "vegetable"  # the card's own vegetable
    TOKEN = "token"  # the token's fruit, or the plant a tool adds
    VEG_WILD = "veg-wild"  # the free vegetable after sketching in the vegetable wild spot
    FRUIT_WILD = "fruit-wild"  # the free fruit after sketching in the fruit wild spot


@dataclass(frozen=True)
class Sketch:
    card: Area  # position of the card this sketch belongs to
    source: Source
    field: str
    plant: Plant
    tool_field: str | None = None  # the tool icon crossed out, for a tool's plant

    def __str__(self) -> str:
        tool = f" (crossing {self.tool_field})" if self.tool_field else ""
        return f"{self.card}.{self.source}: {self.plant} -> {self.field}{tool}"

    def to_json(self) -> dict[str, str]:
        out = {"card": str(self.card), "source": str(self.source), "field": self.field,
               "plant": str(self.plant)}
        if self.tool_field:
            out["tool_field"] = self.tool_field
        return out

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Sketch:
        try:
            plant = doc["plant"]
            p: Plant = Vegetable(plant) if plant in set(Vegetable) else Fruit(plant)
            return cls(Area(doc["card"]), Source(doc["source"]), str(doc["field"]), p,
                       doc.get("tool_field"))
        except (KeyError, ValueError, TypeError) as exc:
            raise InputError(f"not a sketch: {dict(doc)!r} ({exc})") from None


@dataclass(frozen=True)
class Move:
    round: Round
    choice: PlantChoice
    cards: tuple[Area, ...]  # positions of the cards used
    sketches: tuple[Sketch, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round.to_json(),
            "choice": str(self.choice),
            "cards": [str(c) for c in self.cards],
            "sketches": [s.to_json() for s in self.sketches],
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Move:
        """Inverse of ``to_json``; raises ``InputError`` for a malformed document."""
        try:
            return cls(
                Round.from_json(doc["round"]),
                PlantChoice(doc["choice"]),
                tuple(Area(c) for c in doc["cards"]),
                tuple(Sketch.from_json(s) for s in doc.get("sketches", ())),
            )
        except (KeyError, ValueError, TypeError) as exc:
            raise InputError(f"not a move: {exc}") from None

    def __str__(self) -> str:
        used = "+".join(str(c) for c in self.cards)
        body = "; ".join(str(s) for s in self.sketches) or "nothing placed"
        return f"{self.choice} [{used}] {body}"


def card_sets(choice: PlantChoice) -> list[tuple[Area, ...]]:
    """The card positions a Plant Choice may use."""
    if CARDS_PER_CHOICE[choice] == 2:
        return [(Area.TOP, Area.BOTTOM)]
    return [(Area.TOP,), (Area.BOTTOM,)]


def allowed_areas(choice: PlantChoice, position: Area) -> frozenset[Area]:
    """Areas where a card's vegetable may be potted under a Plant Choice."""
    if choice is PlantChoice.TWO_ANYWHERE:
        return frozenset(Area)
    if choice is PlantChoice.ONE_REVERSE:
        return frozenset({position.other})
    return frozenset({position})


# ---- single sketches ---------------------------------------------------------------


def _pot_reason(state: SheetState, g: Garden, cell: str, veg: Vegetable) -> tuple[
    Container | None, str | None
]:
    """(container, why the vegetable may not go into this cell) for any container cell."""
    for c in g.containers:
        if cell in c.cells:
            row = c.row_of(cell)
            open_row = state.open_row(c)
            if open_row is None:
                return c, f"the {c.id} is full"
            if row != open_row:
                return c, (
                    f"{cell} is in row {row + 1} of the {c.id} but row {open_row + 1} "
                    "is not full yet (rows fill from the bottom)"
                )
            return c, state.fits_kind(c, cell, veg)
    return None, f"{cell} is not a container space"


def _icon(g: Garden, field: str) -> ToolIcon | None:
    return next((t for t in g.tool_icons if t.field == field), None)


def sketch_reason(
    state: SheetState,
    move: Move,
    sketch: Sketch,
    previous: Sequence[Sketch] = (),
    rules: Rules = DEFAULT_RULES,
) -> str | None:
    """Why ``sketch`` is illegal now (after ``previous`` of the same move), or None."""
    g = state.garden
    if sketch.card not in move.cards:
        return f"the {sketch.card} card is not used by this move"
    card = move.round.card(sketch.card)
    if not state.is_empty(sketch.field):
        return f"{sketch.field} is already filled"
    if sketch.tool_field is not None and (
        sketch.source is not Source.TOKEN or not isinstance(card.token, Tool)
    ):
        return "only a tool token crosses out a tool icon"
    areas = allowed_areas(move.choice, sketch.card)
    src = sketch.source
    if src in (Source.VEG_WILD, Source.FRUIT_WILD):
        spot = VEG_WILD if src is Source.VEG_WILD else FRUIT_WILD
        last = previous[-1] if previous else None
        if last is None or last.card is not sketch.card or last.field != spot:
            return f"a free plant from {spot} must directly follow a sketch in {spot}"
    if src is Source.VEGETABLE:
        if sketch.plant != card.vegetable:
            return f"the {sketch.card} card shows {card.vegetable}, not {sketch.plant}"
        if sketch.field in (VEG_WILD, VEG_BONUS):
            return None
        container, why = _pot_reason(state, g, sketch.field, card.vegetable)
        if why:
            return why
        assert container is not None
        if container.area not in areas:
            return (
                f"with {move.choice} the {sketch.card} card's vegetable goes to the "
                f"{'/'.join(sorted(areas))} area, not the {container.area} ({container.id})"
            )
        return None
    if src is Source.VEG_WILD:
        if not isinstance(sketch.plant, Vegetable):
            return "the vegetable wild spot grants a vegetable"
        if sketch.field == VEG_BONUS:
            return None if rules.wild_extra_to_bonus else "a wild spot cannot feed a bonus spot"
        return _pot_reason(state, g, sketch.field, sketch.plant)[1]
    if src is Source.FRUIT_WILD:
        if not isinstance(sketch.plant, Fruit):
            return "the fruit wild spot grants a fruit"
        if sketch.field == FRUIT_BONUS:
            return None if rules.wild_extra_to_bonus else "a wild spot cannot feed a bonus spot"
        if sketch.field not in {p.id for p in g.planter}:
            return f"{sketch.field} is not a planter space"
        return None
    # TOKEN
    if isinstance(card.token, Fruit):
        if sketch.plant != card.token:
            return f"the {sketch.card} card's token shows {card.token}, not {sketch.plant}"
        if sketch.field in (FRUIT_WILD, FRUIT_BONUS):
            return None
        if sketch.field not in {p.id for p in g.planter}:
            return f"{sketch.field} is not a planter space"
        shape = g.planter_cell(sketch.field).shape
        if shape is not card.icon:
            return f"{sketch.field} is a {shape} space; the card's garden icon is a {card.icon}"
        return None
    tool = card.token
    if sketch.tool_field is None:
        return f"name the {tool} icon to cross out"
    icon = _icon(g, sketch.tool_field)
    if icon is None or icon.tool is not tool:
        return f"{sketch.tool_field} is not a {tool} icon"
    if state.get(icon.field) == Mark.CROSS:
        return f"the {tool} icon {icon.field} is already crossed out"
    if icon.container is not None and icon.row is not None:
        c = g.container(icon.container)
        if sketch.field not in c.rows[icon.row].cells:
            return f"the {tool} of {icon.field} marks row {icon.row + 1} of the {c.id} only"
        if not isinstance(sketch.plant, Vegetable):
            return "a container row takes a vegetable, not a fruit"
        if rules.tool_obeys_area and c.area not in areas:
            return (
                f"with {move.choice} the {sketch.card} card's tool may pot only in the "
                f"{'/'.join(sorted(areas))} area"
            )
        return _pot_reason(state, g, sketch.field, sketch.plant)[1]
    line = next(ln for ln in g.lines if ln.id == icon.line)
    if sketch.field not in line.cells:
        return f"the {tool} of {icon.field} marks planter {line.id} only"
    if not isinstance(sketch.plant, Fruit):
        return "a planter space takes a fruit, not a vegetable"
    return None


def put_sketch(state: SheetState, sketch: Sketch) -> SheetState:
    updates = {sketch.field: str(sketch.plant)}
    if sketch.tool_field:
        updates[sketch.tool_field] = Mark.CROSS
    return state.with_values(updates)


def _candidates(state: SheetState, move: Move, position: Area, source: Source) -> Iterator[
    Sketch
]:
    """Every sketch worth testing for one gift (filtered later by ``sketch_reason``)."""
    g = state.garden
    card = move.round.card(position)
    open_cells = [
        cell
        for c in g.containers
        if (r := state.open_row(c)) is not None
        for cell in c.rows[r].cells
        if state.is_empty(cell)
    ]
    empty_planter = [p.id for p in g.planter if state.is_empty(p.id)]
    if source is Source.VEGETABLE:
        for f in [*open_cells, VEG_WILD, VEG_BONUS]:
            yield Sketch(position, source, f, card.vegetable)
    elif source is Source.VEG_WILD:
        for veg in Vegetable:
            for f in [*open_cells, VEG_BONUS]:
                yield Sketch(position, source, f, veg)
    elif source is Source.FRUIT_WILD:
        for fruit in Fruit:
            for f in [*empty_planter, FRUIT_BONUS]:
                yield Sketch(position, source, f, fruit)
    elif isinstance(card.token, Fruit):
        for f in [*empty_planter, FRUIT_WILD, FRUIT_BONUS]:
            yield Sketch(position, source, f, card.token)
    else:
        for icon in g.tool_icons:
            if icon.tool is not card.token or state.get(icon.field) == Mark.CROSS:
                continue
            if icon.container is not None and icon.row is not None:
                for cell in g.container(icon.container).rows[icon.row].cells:
                    if cell in open_cells:
                        for veg in Vegetable:
                            yield Sketch(position, source, cell, veg, icon.field)
            else:
                line = next(ln for ln in g.lines if ln.id == icon.line)
                for cell in line.cells:
                    if state.is_empty(cell):
                        for fruit in Fruit:
                            yield Sketch(position, source, cell, fruit, icon.field)


def legal_sketches(
    state: SheetState,
    move: Move,
    position: Area,
    source: Source,
    previous: Sequence[Sketch] = (),
    rules: Rules = DEFAULT_RULES,
) -> list[Sketch]:
    """Every legal sketch for one gift of one card, in the current state."""
    return [
        s
        for s in _candidates(state, move, position, source)
        if sketch_reason(state, move, s, previous, rules) is None
    ]


# ---- whole moves -------------------------------------------------------------------


def wild_follow_up(sketch: Sketch) -> Source | None:
    if sketch.source is Source.VEGETABLE and sketch.field == VEG_WILD:
        return Source.VEG_WILD
    if sketch.source is Source.TOKEN and sketch.field == FRUIT_WILD:
        return Source.FRUIT_WILD
    return None


def _must_place(card: Card, source: Source, rules: Rules) -> bool:
    if source in (Source.VEGETABLE, Source.VEG_WILD):
        return rules.must_place_vegetable
    if source is Source.FRUIT_WILD:
        return rules.must_place_fruit
    return rules.must_use_tool if isinstance(card.token, Tool) else rules.must_place_fruit


def _gifts(move: Move) -> list[tuple[Area, Source]]:
    """Every gift the move's cards bring, wild follow-ups included."""
    gifts = [(p, s) for p in move.cards for s in (Source.VEGETABLE, Source.TOKEN)]
    for s in move.sketches:
        follow = wild_follow_up(s)
        if follow is not None:
            gifts.append((s.card, follow))
    return gifts


def _lost_reason(before: SheetState, after: SheetState, move: Move, rules: Rules) -> str | None:
    """Why a gift the move leaves unplaced could have been placed, or None."""
    done = {(s.card, s.source) for s in move.sketches}
    for position, source in _gifts(move):
        if (position, source) in done:
            continue
        card = move.round.card(position)
        if not _must_place(card, source, rules):
            continue
        if source in (Source.VEG_WILD, Source.FRUIT_WILD):
            # The free plant must follow its spot at once; test it as if it did.
            spot_sketch = next(
                s for s in move.sketches if s.card is position and wild_follow_up(s) is source
            )
            options = legal_sketches(after, move, position, source, [spot_sketch], rules)
        else:
            options = legal_sketches(after, move, position, source, (), rules)
        if options:
            what = card.vegetable if source is Source.VEGETABLE else source.value
            return (
                f"the {position} card's {what} could still go to {options[0].field}; "
                "a plant may be lost only when it has no legal spot"
            )
    return None


def move_reason(
    state: SheetState, move: Move, rules: Rules = DEFAULT_RULES
) -> tuple[SheetState | None, str | None]:
    """(state after the move, None) if legal, else (None, the first reason it is not)."""
    if state.circles_left(move.choice) == 0:
        return None, f"all circles of {move.choice} are already marked"
    if move.cards not in card_sets(move.choice):
        want = " or ".join("+".join(c) for c in card_sets(move.choice))
        return None, f"{move.choice} uses the cards {want}, not {'+'.join(move.cards) or 'none'}"
    seen: set[tuple[Area, Source]] = set()
    after = state
    for i, s in enumerate(move.sketches):
        if (s.card, s.source) in seen:
            return None, f"the {s.card} card's {s.source} is sketched twice"
        seen.add((s.card, s.source))
        why = sketch_reason(after, move, s, move.sketches[:i], rules)
        if why:
            return None, f"{s}: {why}"
        after = put_sketch(after, s)
    circle = state.next_circle(move.choice)
    assert circle is not None
    after = after.with_values({circle: Mark.MARKED})
    lost = _lost_reason(state, after, move, rules)
    if lost:
        return None, lost
    return after, None


def apply(state: SheetState, move: Move, rules: Rules = DEFAULT_RULES) -> SheetState:
    """The sheet after ``move``; raises ``IllegalMoveError`` saying what breaks a rule."""
    after, why = move_reason(state, move, rules)
    if after is None:
        raise IllegalMoveError(why or "illegal move")
    return after


def is_legal(state: SheetState, move: Move, rules: Rules = DEFAULT_RULES) -> bool:
    return move_reason(state, move, rules)[0] is not None


def legal_choices(state: SheetState, rnd: Round) -> list[tuple[PlantChoice, tuple[Area, ...]]]:
    """Plant Choices with circles left, each with the card positions it may use."""
    return [
        (ch, cards)
        for ch in PlantChoice
        if state.circles_left(ch) > 0
        for cards in card_sets(ch)
    ]


def legal_moves(
    state: SheetState, rnd: Round, rules: Rules = DEFAULT_RULES
) -> Iterator[Move]:
    """Every legal move, lazily, each distinct outcome once."""
    for choice, cards in legal_choices(state, rnd):
        base = Move(rnd, choice, cards)
        seen: set[frozenset[Sketch]] = set()
        pending = [(p, s) for p in cards for s in (Source.VEGETABLE, Source.TOKEN)]
        for sketches in _orders(state, base, pending, (), rules):
            key = frozenset(sketches)
            if key in seen:
                continue
            move = Move(rnd, choice, cards, sketches)
            if is_legal(state, move, rules):
                seen.add(key)
                yield move


def _orders(
    state: SheetState,
    base: Move,
    pending: list[tuple[Area, Source]],
    done: tuple[Sketch, ...],
    rules: Rules,
) -> Iterator[tuple[Sketch, ...]]:
    """Depth-first over which gift to place next and where (or to lose it)."""
    if not pending:
        yield done
        return
    forced = wild_follow_up(done[-1]) if done else None
    if forced is not None and (done[-1].card, forced) in pending:
        choices = [(done[-1].card, forced)]
    else:
        choices = pending
    for item in choices:
        rest = [p for p in pending if p != item]
        position, source = item
        options = legal_sketches(state, base, position, source, done, rules)
        for s in options:
            follow = wild_follow_up(s)
            nxt = rest + ([(position, follow)] if follow else [])
            yield from _orders(put_sketch(state, s), base, nxt, (*done, s), rules)
        yield from _orders(state, base, rest, done, rules)  # the gift is lost

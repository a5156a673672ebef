"""What a final sheet can show to be wrong, all problems at once (docs/rules-readings.md).

A sheet carries no history, so these checks are the ones paper alone can prove: the
shape and kind of each container, marks that need a full container or area, the Plant
Choice marks, and upper bounds on plants from the cards, tools and wild spots used.
"""

from __future__ import annotations

from companion.games.delicious.constants import CARDS_PER_CHOICE, CHOICE_MARKS_PER_GAME
from companion.games.delicious.garden import (
    FRUIT_BONUS,
    FRUIT_WILD,
    HONEY_FIELD,
    VEG_BONUS,
    VEG_WILD,
    Container,
    choice_id,
)
from companion.games.delicious.state import SheetState
from companion.games.delicious.symbols import (
    CHOICE_CIRCLES_PER_OPTION,
    Area,
    ContainerKind,
    Mark,
    PlantChoice,
    Vegetable,
)
from companion.games.problems import Problem, ProblemCode


class SheetCode(ProblemCode):
    """What one final sheet can show to be wrong (public: users script against them)."""

    WRONG_VALUE = "wrong-value"  # a value the field cannot hold (a fruit in a vegetable cell...)
    SAME_MIXED = "same-mixed"  # a "same" container holds more than one vegetable
    DIFFERENT_REPEAT = "different-repeat"  # a "different" container holds a vegetable twice
    PAIR_SPLIT = "pair-split"  # two linked spaces hold different vegetables
    PAIRS_REPEAT = "pairs-repeat"  # two pairs of one container hold the same vegetable
    BOTTOM_UP = "bottom-up"  # a vegetable sits above a row that is not full
    FIRST_POTTER_NOT_FULL = "first-potter-not-full"  # First Potter checked, container not full
    HONEY_NOT_EARNED = "honey-not-earned"  # Jar of Honey circled, no area full
    CHOICE_COUNT = "choice-count"  # not exactly 12 Plant Choice marks
    TOOL_LINE_EMPTY = "tool-line-empty"  # a tool crossed, yet its row or line holds no plant
    TOO_MANY_VEGETABLES = "too-many-vegetables"  # more than cards, tools and wild spot give
    TOO_MANY_FRUITS = "too-many-fruits"  # more than tokens, tools and wild spot give


CODES = tuple(SheetCode)


def _kinds(state: SheetState, c: Container) -> list[Problem]:
    filled = [(cell, v) for cell in c.cells if (v := state.vegetable(cell)) is not None]
    out: list[Problem] = []
    if c.kind is ContainerKind.SAME:
        kinds = {v for _, v in filled}
        if len(kinds) > 1:
            out.append(
                Problem(
                    SheetCode.SAME_MIXED,
                    tuple(cell for cell, _ in filled),
                    f"the {c.id} must hold one vegetable but holds "
                    f"{', '.join(sorted(kinds))}",
                )
            )
    elif c.kind is ContainerKind.DIFFERENT:
        for veg in Vegetable:
            cells = tuple(cell for cell, v in filled if v is veg)
            if len(cells) > 1:
                out.append(
                    Problem(
                        SheetCode.DIFFERENT_REPEAT,
                        cells,
                        f"the {c.id} must hold different vegetables but has {len(cells)} {veg}",
                    )
                )
    else:
        pair_veg: dict[Vegetable, list[tuple[str, str]]] = {}
        for a, b in c.pairs:
            va, vb = state.vegetable(a), state.vegetable(b)
            if va is not None and vb is not None and va is not vb:
                out.append(
                    Problem(
                        SheetCode.PAIR_SPLIT, (a, b), f"a pair in the {c.id} holds {va} and {vb}"
                    )
                )
            for v in {x for x in (va, vb) if x is not None}:
                pair_veg.setdefault(v, []).append((a, b))
        for veg, pairs in pair_veg.items():
            if len(pairs) > 1:
                out.append(
                    Problem(
                        SheetCode.PAIRS_REPEAT,
                        tuple(cell for p in pairs for cell in p if state.vegetable(cell) is veg),
                        f"{len(pairs)} pairs in the {c.id} hold {veg}; each pair needs "
                        "its own vegetable",
                    )
                )
    return out


def _bottom_up(state: SheetState, c: Container) -> list[Problem]:
    full = state.full_rows(c)
    above = tuple(
        cell for r in c.rows[full + 1 :] for cell in r.cells if not state.is_empty(cell)
    )
    if not above:
        return []
    return [
        Problem(
            SheetCode.BOTTOM_UP,
            above,
            f"the {c.id} has plants in row {full + 2} or higher while row {full + 1} "
            "is not full (rows fill from the bottom)",
        )
    ]


def _count_bounds(state: SheetState) -> list[Problem]:
    g = state.garden
    cards = sum(CARDS_PER_CHOICE[ch] * state.circles_marked(ch) for ch in PlantChoice)
    veg_tools = [t.field for t in g.tool_icons if t.container is not None]
    fruit_tools = [t.field for t in g.tool_icons if t.line is not None]
    tv = sum(1 for f in veg_tools if state.get(f) == Mark.CROSS)
    tf = sum(1 for f in fruit_tools if state.get(f) == Mark.CROSS)
    veg_fields = [c for ct in g.containers for c in ct.cells] + [VEG_WILD, VEG_BONUS]
    fruit_fields = [p.id for p in g.planter] + [FRUIT_WILD, FRUIT_BONUS]
    veg = [f for f in veg_fields if not state.is_empty(f)]
    fruit = [f for f in fruit_fields if not state.is_empty(f)]
    wild_v = 0 if state.is_empty(VEG_WILD) else 1
    wild_f = 0 if state.is_empty(FRUIT_WILD) else 1
    out: list[Problem] = []
    veg_cap = cards + tv + wild_v
    if len(veg) > veg_cap:
        out.append(
            Problem(
                SheetCode.TOO_MANY_VEGETABLES,
                tuple(veg),
                f"{len(veg)} vegetables sketched, but {cards} cards used, {tv} crossed "
                f"container tools and {wild_v} wild-spot extra allow at most {veg_cap}",
            )
        )
    # Every crossed tool used one card's token, so fewer tokens were fruit.
    fruit_cap = max(0, cards - tv - tf) + tf + wild_f
    if len(fruit) > fruit_cap:
        out.append(
            Problem(
                SheetCode.TOO_MANY_FRUITS,
                tuple(fruit),
                f"{len(fruit)} fruits sketched, but {cards} cards used less {tv + tf} tool "
                f"tokens, {tf} crossed planter tools and {wild_f} wild-spot extra allow at "
                f"most {fruit_cap}",
            )
        )
    return out


def check(state: SheetState, *, final: bool = True) -> list[Problem]:
    """Every problem the sheet shows; ``final=False`` skips the end-of-game choice count."""
    g = state.garden
    kinds = g.field_kinds()
    out: list[Problem] = []
    for fid, value in state.items():
        allowed = kinds[fid][1]
        if value not in allowed:
            out.append(
                Problem(
                    SheetCode.WRONG_VALUE,
                    (fid,),
                    f"{fid} is a {kinds[fid][0].value} field and cannot hold {value!r}",
                )
            )
    for c in g.containers:
        out += _kinds(state, c)
        out += _bottom_up(state, c)
        if state.first_potter(c) == Mark.CHECK and not state.is_full(c):
            out.append(
                Problem(
                    SheetCode.FIRST_POTTER_NOT_FULL,
                    (c.first_potter,),
                    f"First Potter checked on the {c.id}, which is not full",
                )
            )
    if state.honey and not any(state.area_full(a) for a in Area):
        out.append(
            Problem(
                SheetCode.HONEY_NOT_EARNED,
                (HONEY_FIELD,),
                "Jar of Honey circled but neither the top nor the bottom area is full",
            )
        )
    marks = sum(state.circles_marked(ch) for ch in PlantChoice)
    if final and marks != CHOICE_MARKS_PER_GAME:
        out.append(
            Problem(
                SheetCode.CHOICE_COUNT,
                tuple(
                    choice_id(ch, i)
                    for ch in PlantChoice
                    for i in range(CHOICE_CIRCLES_PER_OPTION)
                    if not state.is_empty(choice_id(ch, i))
                ),
                f"{marks} Plant Choice circles marked; a finished game marks all "
                f"{CHOICE_MARKS_PER_GAME}",
            )
        )
    for t in g.tool_icons:
        if state.get(t.field) != Mark.CROSS:
            continue
        if t.container is not None and t.row is not None:
            cells = g.container(t.container).rows[t.row].cells
            where = f"row {t.row + 1} of the {t.container}"
        else:
            cells = next(ln.cells for ln in g.lines if ln.id == t.line)
            where = f"planter {t.line}"
        if all(state.is_empty(c) for c in cells):
            out.append(
                Problem(
                    SheetCode.TOOL_LINE_EMPTY,
                    (t.field,),
                    f"the {t.tool} of {where} is crossed but nothing was planted there",
                )
            )
    out += _count_bounds(state)
    return out

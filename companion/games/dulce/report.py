"""Plans and results as JSON-ready dicts and as short human text (no printing here)."""

from __future__ import annotations

from typing import Any

from companion.games.dulce.final import Standing, solo_title
from companion.games.dulce.harvest import HarvestAdvice, HarvestPlan
from companion.games.dulce.model import Board, Content, Tiebreak
from companion.games.dulce.planting import PlantResult
from companion.games.dulce.scoring import Fill, Kitchen, ScoringPlan
from companion.plural import count


def space_ref(kitchen: Kitchen, slot: int) -> dict[str, Any]:
    s = kitchen.slots[slot]
    return {
        "cafe": s.cafe,
        "name": kitchen.cafes[s.cafe].name,
        "space": s.space,
        "type": s.bean.value,
        "level": int(s.level),
    }


def _where(kitchen: Kitchen, slot: int) -> str:
    s = kitchen.slots[slot]
    rings = "1 ring" if s.level == 1 else f"{int(s.level)} rings"
    return f"{kitchen.cafes[s.cafe].name} ({s.bean.value}, {rings})"


def _holds(c: Content, bean: str) -> str | None:
    return None if c is Content.EMPTY else ("egg" if c is Content.EGG else bean)


def cafes_json(kitchen: Kitchen, fill: Fill) -> list[dict[str, Any]]:
    """The cafés in the input format, holding what ``fill`` says (feed it back in)."""
    holds: dict[tuple[int, int], Content] = {
        (s.cafe, s.space): fill[i] for i, s in enumerate(kitchen.slots)
    }
    out = []
    for ci, cafe in enumerate(kitchen.cafes):
        d: dict[str, Any] = {"name": cafe.name}
        if cafe.card is not None:
            d["card"] = cafe.card
        if cafe.corner is not None:
            d["corner"] = cafe.corner
        if cafe.covered:
            d["covered"] = True
        d["spaces"] = [
            {
                "type": sp.bean.value,
                "level": int(sp.level),
                "holds": _holds(holds.get((ci, si), cafe.holds[si]), sp.bean.value),
            }
            for si, sp in enumerate(cafe.spaces)
        ]
        out.append(d)
    return out


def board_json(board: Board) -> list[list[dict[str, Any] | None]]:
    return [
        [None if c.field is None else {"field": c.field.value, "cubes": c.cubes} for c in row]
        for row in board
    ]


def scoring_json(plan: ScoringPlan) -> dict[str, Any]:
    k = plan.kitchen
    steps = []
    for st in plan.steps:
        steps.append(
            {
                "score": k.cafes[st.cafe].name,
                "cafe": st.cafe,
                "points": 1,
                "byproducts": [
                    {
                        "bean": k.slots[b.source].bean.value,
                        "from": space_ref(k, b.source),
                        "to": None if b.target is None else space_ref(k, b.target),
                    }
                    for b in st.byproducts
                ],
                "discarded": [
                    {
                        "what": "egg" if i in st.eggs else k.slots[i].bean.value,
                        "from": space_ref(k, i),
                    }
                    for i in st.discarded
                ],
                "chicken": st.chicken,
            }
        )
    return {
        "points": plan.points,
        "chicken": plan.chicken,
        "proven_best": plan.proven,
        "steps": steps,
        "cafes_after": cafes_json(k, plan.end),
    }


def scoring_text(plan: ScoringPlan) -> list[str]:
    k = plan.kitchen
    lines: list[str] = []
    if not plan.steps:
        lines.append("No café is full: nothing scores.")
    for n, st in enumerate(plan.steps, 1):
        lines.append(f"{n}. Score {k.cafes[st.cafe].name}: +1 point")
        for b in st.byproducts:
            bean = k.slots[b.source].bean.value
            src = _where(k, b.source)
            if b.target is None:
                lines.append(f"   {bean} from {src}: no lower space free, fed to the chicken (+1)")
            else:
                lines.append(f"   {bean} from {src} -> {_where(k, b.target)}")
        for i in st.discarded:
            what = "egg" if i in st.eggs else k.slots[i].bean.value
            lines.append(f"   {what} from {_where(k, i)}: back to the supply")
    tag = "" if plan.proven else " (search budget hit: good, not proven best)"
    lines.append(f"Total: {plan.points} points, chicken +{plan.chicken}{tag}")
    return lines


def _harvest_plan_json(p: HarvestPlan) -> dict[str, Any]:
    k = p.scoring.kitchen
    return {
        "line": {"kind": p.line.kind.value, "index": p.line.index},
        "gathered": {b.value: n for b, n in p.gathered},
        "placements": [
            {
                "what": "egg" if pl.content is Content.EGG else k.slots[pl.slot].bean.value,
                "to": space_ref(k, pl.slot),
            }
            for pl in p.placements
        ],
        "fed_to_chicken": p.fed,
        "eggs": p.eggs,
        "points": p.points,
        "chicken_after": p.chicken_after,
        "scoring": scoring_json(p.scoring),
    }


def harvest_json(advice: HarvestAdvice) -> dict[str, Any]:
    best = _harvest_plan_json(advice.best)
    best["proven_best"] = advice.proven
    best["board_after"] = board_json(advice.board_after)
    best["per_line"] = [
        {
            "line": {"kind": q.line.kind.value, "index": q.line.index},
            "points_seen": q.points_seen,
            "at_most": q.at_most,
        }
        for q in advice.per_line
    ]
    return best


def harvest_text(advice: HarvestAdvice) -> list[str]:
    p = advice.best
    k = p.scoring.kitchen
    got = ", ".join(f"{n} {b.value}" for b, n in p.gathered) or "nothing"
    lines = [f"Harvest {p.line} (gathers {got}); chicken at {p.chicken_before}."]
    for pl in p.placements:
        what = "egg" if pl.content is Content.EGG else k.slots[pl.slot].bean.value
        lines.append(f"  put {what} on {_where(k, pl.slot)}")
    if p.eggs:
        lines.append(f"  ({count(p.eggs, 'egg')} cost {count(3 * p.eggs, 'chicken step')})")
    if p.fed:
        lines.append(f"  {count(p.fed, 'bean')} {'has' if p.fed == 1 else 'have'} no free "
                     "space: fed to the chicken")
    lines.append("Then score:")
    lines.extend("  " + s for s in scoring_text(p.scoring))
    lines.append(f"Round: {p.points} points, chicken ends at {p.chicken_after}.")
    if not advice.proven:
        lines.append("Search budget hit: this plan is good but not proven best.")
    others = [q for q in advice.per_line if q.line != p.line]
    lines.append(
        "Other lines reach at most: "
        + ", ".join(f"{q.line} {q.at_most}" for q in others)
        + " points."
    )
    return lines


def plant_json(r: PlantResult) -> dict[str, Any]:
    return {
        "legal": True,
        "chicken": r.chicken,
        "gained": {b.value: n for b, n in r.gained},
        "bonus_cells": [list(c) for c in r.bonus_cells],
        "covered_cafes": list(r.covered_cafes),
        "lost_from_cafes": r.lost_from_cafes,
        "board": board_json(r.board),
    }


def plant_text(r: PlantResult) -> list[str]:
    gained = ", ".join(f"{n} {b.value}" for b, n in r.gained)
    lines = [f"Legal. New cubes: {gained}."]
    if r.bonus_cells:
        cells = ", ".join(f"(row {a}, col {b})" for a, b in r.bonus_cells)
        lines.append(f"Same-type bonus cube on {cells}.")
    lines.append(f"Covered cubes fed to the chicken: {r.chicken}.")
    if r.covered_cafes:
        lines.append(
            f"Now covered, unusable: {', '.join(r.covered_cafes)}"
            + (f" ({count(r.lost_from_cafes, 'resource')} there returned)"
               if r.lost_from_cafes else "")
            + "."
        )
    for row in r.board:
        lines.append(
            " ".join(f"{c.field.value[:3]}:{c.cubes}" if c.field else " ---- " for c in row)
        )
    return lines


READINGS = {
    Tiebreak.SUM: "eggs plus cubes left in the field, as one count",
    Tiebreak.EGGS_FIRST: "most eggs first; only equal eggs compare cubes left in the field",
}


def standings_json(
    standings: list[Standing], reading: Tiebreak = Tiebreak.SUM
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "tiebreak_reading": reading.value,
        "standings": [
            {
                "place": s.place,
                "name": s.player.name,
                "points": s.player.points,
                "eggs": s.eggs,
                "field_cubes": s.player.field_cubes,
                "tiebreak": list(s.tiebreak),
                "decided_by": s.decided_by,
            }
            for s in standings
        ],
        "winners": [s.player.name for s in standings if s.place == 1],
    }
    if len(standings) == 1:
        out["solo_title"] = solo_title(standings[0].player.points)
    return out


def standings_text(standings: list[Standing], reading: Tiebreak = Tiebreak.SUM) -> list[str]:
    lines = []
    for i, s in enumerate(standings):
        note = ""
        if s.decided_by == "tiebreak":
            note = f" [tied on points with {standings[i - 1].player.name}, behind on the tiebreak]"
        elif i and s.decided_by is None:
            note = " [tied on points and tiebreak: shared]"
        lines.append(
            f"{s.place}. {s.player.name}: {s.player.points} points "
            f"(tiebreak: {count(s.eggs, 'egg')}, {count(s.player.field_cubes, 'field cube')})"
            f"{note}"
        )
    if len(standings) == 1:
        lines.append(f"Solo title: {solo_title(standings[0].player.points)}")
    else:
        lines.append(f"Tiebreak reading {reading.value}: {READINGS[reading]}.")
    return lines

"""Plain-text descriptions for people at a game table (the CLI prints these)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.delicious.garden import (
    FRUIT_BONUS,
    VEG_BONUS,
    Garden,
)
from companion.games.delicious.scoring import Score, Standing
from companion.games.delicious.state import SheetState
from companion.games.delicious.symbols import Area, Mark
from companion.games.problems import Problem
from companion.plural import count

WIDTH = 58  # characters of a report line


def garden_text(g: Garden) -> str:
    lines = [f"Delicious garden, variant {g.variant}", ""]
    for area in Area:
        lines.append(f"{area.capitalize()} area")
        for c in g.area(area):
            rows = ", ".join(
                f"{_pairs_note(len(r.cells), c.kind.value == 'pairs')}->{r.points}"
                + (f" [{r.tool}]" if r.tool else "")
                for r in c.rows
            )
            lines.append(f"  {c.id:<13} {c.kind:<9} rows bottom-up: {rows}")
        lines.append("")
    lines.append("Planter (H hexagon, O oval, S star); tool of each row and column")
    shapes = {(p.row, p.col): p.shape.value[0].upper() for p in g.planter}
    ncols = 1 + max(p.col for p in g.planter)
    nrows = 1 + max(p.row for p in g.planter)
    row_tools = {ln.id: ln.tool for ln in g.lines}
    for r in range(nrows):
        cells = " ".join(shapes[(r, c)] for c in range(ncols))
        lines.append(f"  {cells}   {row_tools[f'row{r}']}")
    lines.append("  " + "  ".join(f"col{c}={row_tools[f'col{c}']}" for c in range(ncols)))
    lines.append("")
    lines.append("Scoring: highest full row of each container (+1 First Potter); planter lines")
    lines.append("with 3+ fruits; vegetable bonus 2/container; fruit bonus 1/fruit; honey 3.")
    return "\n".join(lines)


def _pairs_note(n_cells: int, pairs: bool) -> str:
    if not pairs:
        return f"{n_cells} cell{'s' if n_cells != 1 else ''}"
    return f"{n_cells // 2} pair{'s' if n_cells // 2 != 1 else ''}"


def score_text(
    name: str, state: SheetState, sc: Score, violations: Sequence[Problem]
) -> str:
    g = state.garden
    lines = [f"{name} - garden {g.variant}", "-" * WIDTH]
    for area in Area:
        lines.append(f"{area.capitalize()} area")
        for c in g.area(area):
            full = sc.container_rows[c.id]
            mark = state.first_potter(c)
            fp = {Mark.CHECK.value: "  First Potter +1",
                  Mark.CROSS.value: "  (First Potter crossed)"}.get(mark or "", "")
            lines.append(
                f"  {c.id:<13}{c.kind:<10} {full}/{len(c.rows)} rows"
                f"{sc.containers[c.id]:>8}{fp}"
            )
    scoring_lines = [f"{k} {v}" for k, v in sc.planter_lines.items() if v]
    lines.append(
        f"Planter{'':<24}{sc.planter:>9}  " + (", ".join(scoring_lines) or "no scoring line")
    )
    veg = state.get(VEG_BONUS)
    fruit = state.get(FRUIT_BONUS)
    lines.append(
        f"Vegetable bonus{'':<16}{sc.veg_bonus:>9}  "
        + (f"{veg} in {count(sc.veg_bonus // 2, 'container')}" if veg else "spot empty")
    )
    lines.append(
        f"Fruit bonus{'':<20}{sc.fruit_bonus:>9}  "
        + (f"{fruit} x {sc.fruit_bonus}" if fruit else "spot empty")
    )
    lines.append(f"First Potter{'':<19}{sc.first_potter:>9}")
    lines.append(f"Jar of Honey{'':<19}{sc.honey:>9}")
    lines.append("-" * WIDTH)
    lines.append(f"TOTAL{'':<26}{sc.total:>9}")
    if violations:
        lines.append(f"{len(violations)} problem{'s' if len(violations) > 1 else ''}:")
        for v in violations:
            lines.append(f"  ! [{v.code}] {v.message}")
    else:
        lines.append("Sheet checks: all good")
    return "\n".join(lines)


def ranking_text(standings: Sequence[Standing]) -> str:
    lines = ["Ranking", "-" * WIDTH]
    for s in standings:
        why = {
            "points": "",
            "planter": f"  (tie on points; planter {s.planter})",
            "first potter": f"  (tie on points and planter; {s.first_potter_checks} First Potter)",
            "shared": "  (shared place: tied after both tiebreaks)",
        }[s.decided_by]
        lines.append(f"  {s.place}. {s.player:<20}{s.total:>4} points{why}")
    return "\n".join(lines)

"""Score pads for the five games: one row per scoring category, a column per player, a
total row and the game's tiebreak rows.

Field ids: ``pad.<row>.p<k>`` (kind ``number``), k = 1..players, row as listed in PADS; the
box is the inner writing area of the cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.games.registry import sheet_game
from companion.paper.model import FieldKind
from layouts.constants import (
    CORNER_KEEPOUT_MM,
    HEADER_BOTTOM_MM,
    LINE_MM,
    PAD_CELL_QUIET_MM,
    PAD_LABEL_W_MM,
    PAD_ROW_MAX_MM,
    PAD_ROW_MIN_MM,
    PAGE_MARGIN_MM,
    SMALL_FONT_MM,
)
from layouts.registration import registration
from layouts.sheet import SheetContext

NOTES_MIN_MM = 25.0
NUMBER_ALLOWED: tuple[str, ...] = ()  # any whole number: nothing to enumerate


class RowKind(StrEnum):
    SCORE = "score"
    TOTAL = "total"
    TIEBREAK = "tiebreak"


@dataclass(frozen=True)
class PadRow:
    id: str
    label: str
    hint: str
    kind: RowKind = RowKind.SCORE


@dataclass(frozen=True)
class PadSpec:
    sheet: str  # its id in the game registry, which also names its game
    players: int
    rows: tuple[PadRow, ...]
    note: str


S, T, X = RowKind.SCORE, RowKind.TOTAL, RowKind.TIEBREAK

PADS: dict[str, PadSpec] = {
    "delicious-scorepad": PadSpec(
        "delicious-scorepad", 6,
        (
            PadRow("wheelbarrow", "Wheelbarrow", "highest full row +1 First Potter"),
            PadRow("boots", "Boots", "highest full row +1 First Potter"),
            PadRow("watering-can", "Watering can", "highest full row +1 First Potter"),
            PadRow("bathtub", "Bathtub", "highest full row +1 First Potter"),
            PadRow("crate", "Crate", "highest full row +1 First Potter"),
            PadRow("teapot", "Teapot", "highest full row +1 First Potter"),
            PadRow("planter", "Fruit planter", "lines with 3+ fruits"),
            PadRow("veg-bonus", "Vegetable bonus", "2 per container, max 12"),
            PadRow("fruit-bonus", "Fruit bonus", "1 per fruit in planter"),
            PadRow("honey", "Jar of Honey", "3 if circled"),
            PadRow("total", "TOTAL", "", T),
            PadRow("first-potter-checks", "First Potter checks", "if tied after planter", X),
        ),
        "Ties: higher planter score wins, then more First Potter checks, then shared.",
    ),
    "diced-veggies-scorepad": PadSpec(
        "diced-veggies-scorepad", 4,
        tuple(PadRow(f"recipe-{k}", f"Recipe {k}", "stars + its hype") for k in range(1, 10))
        + (
            PadRow("total", "TOTAL", "", T),
            PadRow("recipes-cooked", "Recipes cooked", "for the record", X),
        ),
        "Seventh recipe: everyone else gets one more turn. Ties share the victory.",
    ),
    "dulce-scorepad": PadSpec(
        "dulce-scorepad", 4,
        tuple(PadRow(f"rounds-{k}-{k + 4}", f"Rounds {k}-{k + 4}", "caf\u00e9s scored, 1 each")
              for k in range(1, 21, 5))
        + (
            PadRow("total", "TOTAL", "the track after round 20", T),
            PadRow("chicken-steps", "Chicken steps", "track position of the chicken", X),
            PadRow("eggs", "Eggs", "1 per 3 chicken steps (ties only)", X),
            PadRow("field-resources", "Resources in field", "left at the end (ties only)", X),
        ),
        "Ties: most eggs (1 per 3 chicken steps), then most resources left in the field.",
    ),
    "wild-gardens-scorepad": PadSpec(
        "wild-gardens-scorepad", 4,
        (
            PadRow("pollinator", "Pollinator position", "+60 per lap"),
            PadRow("jar", "Jar position", "+60 per lap"),
            PadRow("guests-game-end", "Guests: at game end", "served guests only"),
            PadRow("ingredients-vp", "Ingredients", "1 VP per 4 tokens"),
            PadRow("total", "TOTAL", "", T),
            PadRow("guests", "Guests", "tiebreak 1: most", X),
            PadRow("recipes", "Cooked recipes", "tiebreak 2: most", X),
            PadRow("ingredients", "Ingredient tokens", "tiebreak 3: most", X),
            PadRow("jar-position", "Jar position", "tiebreak 4: highest", X),
            PadRow("skills", "Skill tokens", "tiebreak 5: most", X),
            PadRow("reserved-recipes", "Reserved recipes", "tiebreak 6: most", X),
        ),
        "Ties: work down the tiebreak rows in order.",
    ),
    "deli-duel-scorepad": PadSpec(
        "deli-duel-scorepad", 6,
        tuple(PadRow(f"game-{k}", f"Game {k}", "completed orders; FB = Fairy Bread win")
              for k in range(1, 9))
        + (
            PadRow("total", "WINS", "games won", T),
            PadRow("orders", "Orders, all games", "if wins are tied", X),
        ),
        "A game is won at 5 orders (2-3 players) or 3 orders (4-6), or by Fairy Bread.",
    ),
}


def pad_field_id(row: str, player: int) -> str:
    return f"pad.{row}.p{player}"


def build_pad(ctx: SheetContext) -> None:
    spec = PADS[ctx.sheet]
    pen = ctx.pen
    registration(ctx, f"{sheet_game(spec.sheet).title} \u00b7 Score pad", "one column per player",
                 title_x=CORNER_KEEPOUT_MM + 1.5)
    x0 = PAGE_MARGIN_MM + 6.0
    x1 = ctx.width - PAGE_MARGIN_MM - 6.0
    top = HEADER_BOTTOM_MM + 4.0
    bottom = ctx.height - CORNER_KEEPOUT_MM - 2.0
    label_w = PAD_LABEL_W_MM
    col_w = (x1 - x0 - label_w) / spec.players
    n_rows = len(spec.rows) + 1  # + the names row
    extra = 8.0 + (7.0 if any(r.kind is X for r in spec.rows) else 0.0)  # note, tiebreak title
    row_h = min(PAD_ROW_MAX_MM, (bottom - top - extra) / n_rows)
    if row_h < PAD_ROW_MIN_MM:
        raise ValueError(f"{spec.sheet} has too many rows for the page")  # a layout bug
    # player names
    pen.rect(x0, top, x1 - x0, row_h, radius=1.5, fill="banner", stroke=None)
    pen.text(x0 + 2.5, top + row_h / 2 + 1.2, "Player", 3.4, bold=True, color="banner-text")
    for k in range(spec.players):
        cx = x0 + label_w + k * col_w
        pen.rect(cx + 1.0, top + 1.0, col_w - 2.0, row_h - 2.0, radius=1.0, fill="paper",
                 stroke=None)
    y = top + row_h + 1.0
    for i, row in enumerate(spec.rows):
        if row.kind is X and (i == 0 or spec.rows[i - 1].kind is not X):
            y += 2.0
            pen.text(x0, y + 3.2, "TIEBREAKS", 2.8, bold=True, color="soft-ink")
            y += 5.0
        fill = "panel" if i % 2 == 0 else "paper"
        if row.kind is T:
            fill = "top-area"
        pen.rect(x0, y, x1 - x0, row_h, fill=fill, stroke=None)
        pen.text(x0 + 2.5, y + row_h / 2 + (0.2 if row.hint else 1.2), row.label,
                 3.6 if row.kind is T else 3.2, bold=row.kind is not X)
        if row.hint:
            pen.text(x0 + 2.5, y + row_h / 2 + 3.4, row.hint, 2.1, color="soft-ink")
        for k in range(spec.players):
            cx = x0 + label_w + k * col_w
            pen.rect(cx + 0.8, y + 0.8, col_w - 1.6, row_h - 1.6, radius=1.0, fill="paper",
                     width=LINE_MM * (1.6 if row.kind is T else 1.0))
            q = 0.8 + PAD_CELL_QUIET_MM
            ctx.add_field(pad_field_id(row.id, k + 1), FieldKind.NUMBER, cx + q, y + q,
                          col_w - 2 * q, row_h - 2 * q, NUMBER_ALLOWED)
        y += row_h
    pen.text(x0, y + 5.0, spec.note, SMALL_FONT_MM, color="soft-ink")
    notes_top = y + 10.0
    if bottom - notes_top > NOTES_MIN_MM:  # spare paper becomes a box for date and notes
        pen.rect(x0, notes_top, x1 - x0, bottom - notes_top, radius=2.0, fill="paper",
                 stroke="faint", width=0.5, dash=(2.0, 1.5))
        pen.text(x0 + 3.0, notes_top + 6.0, "Date, winner, notes", 3.0, bold=True,
                 color="soft-ink")

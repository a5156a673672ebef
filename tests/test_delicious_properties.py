"""Hypothesis properties of the Delicious engine.

The corruption property compares ``check`` with an independent oracle written only
against the public ``garden --json`` document, the way an outside tool would.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.delicious.fieldmap import load_field_map
from companion.games.delicious.game import Table
from companion.games.delicious.garden import garden
from companion.games.delicious.scoring import score
from companion.games.delicious.simulate import GameRecord, simulate_game
from companion.games.delicious.state import SheetState
from companion.games.delicious.symbols import Vegetable
from companion.games.delicious.table import table_check
from companion.games.delicious.validate import check

VEG_NAMES = {v.value for v in Vegetable}
CARDS = {"1-as-is": 1, "1-reverse": 1, "2-as-is": 2, "2-anywhere": 2}

seeds = st.integers(min_value=0, max_value=10**6)
variants = st.sampled_from(["A", "B"])


@cache
def game(seed: int, players: int, variant: str) -> GameRecord:
    return simulate_game(seed, players, variant)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=st.integers(1, 4), variant=variants)
def test_every_simulated_game_is_legal_and_scores_add_up(seed, players, variant):
    rec = game(seed, players, variant)
    assert len(rec.sheets) == players
    assert all(check(s) == [] for s in rec.sheets)
    assert all(vs == [] for vs in table_check(rec.sheets))
    for sc in rec.scores:
        b = sc.to_json()["breakdown"]
        parts = sum(b["containers"].values()) + b["planter"] + b["veg_bonus"]
        parts += b["fruit_bonus"] + b["honey"] + b["first_potter"]
        assert sc.total == parts == sc.to_json()["total"]


@settings(max_examples=10, deadline=None)
@given(seed=seeds, players=st.integers(1, 3), variant=variants)
def test_every_position_of_a_simulated_game_is_legal_bottom_up(seed, players, variant):
    rec = game(seed, players, variant)
    doc = garden(variant).to_json()
    table = Table.new(players, variant)
    for rnd, moves in zip(rec.rounds, rec.moves, strict=True):
        table = table.play(rnd, moves)
        for s in table.sheets:
            assert check(s, final=False) == []
            fields = s.to_field_map()
            for c in doc["containers"]:
                filled = [sum(x in fields for x in r["cells"]) for r in c["rows"]]
                for k in range(1, len(filled)):
                    if filled[k]:
                        assert filled[k - 1] == len(c["rows"][k - 1]["cells"])
        assert all(vs == [] for vs in table_check(table.sheets))
    assert list(table.sheets) == rec.sheets


@settings(max_examples=10, deadline=None)
@given(seed=seeds, variant=variants)
def test_simulation_is_reproducible_and_round_trips(seed, variant):
    a, b = simulate_game(seed, 2, variant), simulate_game(seed, 2, variant)
    assert a.field_maps == b.field_maps
    for i, s in enumerate(a.sheets):
        assert SheetState.from_field_map(s.to_field_map(), variant) == s
        fm = load_field_map(a.player_document(i))
        assert fm.fields == s.to_field_map() and fm.variant == variant
        assert fm.player == f"player{i + 1}"
        assert score(SheetState.from_field_map(fm.fields, fm.variant)) == a.scores[i]


# ---- corruption against an independent oracle -------------------------------------


def oracle(fields: dict[str, str], variant: str) -> set[str]:
    """Violation codes computed from the public garden JSON only."""
    doc: dict[str, Any] = garden(variant).to_json()
    kinds = garden(variant).field_kinds()
    out: set[str] = set()
    if any(v not in kinds[f][1] for f, v in fields.items()):
        out.add("wrong-value")
    area_full = {"top": True, "bottom": True}
    for c in doc["containers"]:
        cells = [x for r in c["rows"] for x in r["cells"]]
        vegs = [fields[x] for x in cells if fields.get(x) in VEG_NAMES]
        if c["kind"] == "same" and len(set(vegs)) > 1:
            out.add("same-mixed")
        if c["kind"] == "different" and len(vegs) != len(set(vegs)):
            out.add("different-repeat")
        if c["kind"] == "pairs":
            held = [{fields.get(a), fields.get(b)} & VEG_NAMES for a, b in c["pairs"]]
            if any(len(h) == 2 for h in held):
                out.add("pair-split")
            if any(sum(v in h for h in held) > 1 for v in VEG_NAMES):
                out.add("pairs-repeat")
        full = [all(x in fields for x in r["cells"]) for r in c["rows"]]
        used = [any(x in fields for x in r["cells"]) for r in c["rows"]]
        if any(used[k] and not all(full[:k]) for k in range(len(full))):
            out.add("bottom-up")
        if fields.get(c["first_potter"]) == "check" and not all(full):
            out.add("first-potter-not-full")
        area_full[c["area"]] &= all(full)
    if fields.get(doc["honey"]) == "circled" and not any(area_full.values()):
        out.add("honey-not-earned")
    marks = {ch: sum(f in fields for f in ids) for ch, ids in doc["play"]["choices"].items()}
    if sum(marks.values()) != 12:
        out.add("choice-count")
    lines = {ln["id"]: ln["cells"] for ln in doc["planter"]["lines"]}
    rows = {c["id"]: [r["cells"] for r in c["rows"]] for c in doc["containers"]}
    tv = tf = 0
    for t in doc["tools"]:
        if fields.get(t["field"]) != "cross":
            continue
        target = t["target"]
        if "container" in target:
            tv += 1
            cells = rows[target["container"]][target["row"]]
        else:
            tf += 1
            cells = lines[target["planter_line"]]
        if not any(x in fields for x in cells):
            out.add("tool-line-empty")
    cards = sum(CARDS[ch] * n for ch, n in marks.items())
    play = doc["play"]
    veg_fields = [x for c in doc["containers"] for r in c["rows"] for x in r["cells"]]
    veg_fields += [play["veg_wild"], play["veg_bonus"]]
    fruit_fields = [p["id"] for p in doc["planter"]["cells"]]
    fruit_fields += [play["fruit_wild"], play["fruit_bonus"]]
    n_veg = sum(f in fields for f in veg_fields)
    n_fruit = sum(f in fields for f in fruit_fields)
    if n_veg > cards + tv + (play["veg_wild"] in fields):
        out.add("too-many-vegetables")
    if n_fruit > max(0, cards - tv - tf) + tf + (play["fruit_wild"] in fields):
        out.add("too-many-fruits")
    return out


@cache
def legal_sheets() -> list[SheetState]:
    return [s for seed in range(6) for s in game(seed, 2, "AB"[seed % 2]).sheets]


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_single_field_corruption_is_legal_or_reported(data):
    base = data.draw(st.sampled_from(legal_sheets()))
    kinds = base.garden.field_kinds()
    fid = data.draw(st.sampled_from(sorted(kinds)))
    every_value = sorted({v for _, allowed in kinds.values() for v in allowed})
    value = data.draw(
        st.one_of(st.sampled_from(["", *kinds[fid][1]]), st.sampled_from(every_value))
    )
    bad = base.with_values({fid: value})
    got = {v.code for v in check(bad)}
    assert got == oracle(bad.to_field_map(), bad.variant)
    assert oracle(base.to_field_map(), base.variant) == set()

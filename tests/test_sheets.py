"""Sheet names, geometry contents and invariants (no rendering)."""

from __future__ import annotations

import io
import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.pdfgen.canvas import Canvas

import layouts
from companion.errors import InputError, UnknownNameError
from companion.games.delicious.garden import garden, play_field_kinds
from companion.paper.model import Box, FieldKind, paper_size_mm
from layouts.registry import sheet_spec
from layouts.scorepads import PADS, RowKind
from layouts.sheet import SheetContext

CONTRACT_NAMES = {
    "delicious-garden", "delicious-play", "delicious-combo", "delicious-scorepad",
    "diced-veggies-mat", "diced-veggies-scorepad", "dulce-scorepad", "wild-gardens-scorepad",
    "deli-duel-scorepad",
}
PAPERS = ("letter", "a4")
VARIANTS = ("A", "B")


def _overlap(a: Box, b: Box) -> bool:
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


def test_sheet_names_are_the_contract_names() -> None:
    assert set(layouts.SHEET_NAMES) == CONTRACT_NAMES
    assert len(layouts.SHEET_NAMES) == 9
    assert set(layouts.READABLE_SHEETS) == {
        "delicious-garden", "delicious-play", "delicious-combo", "diced-veggies-mat",
    }


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("paper", PAPERS)
def test_delicious_sheets_carry_exactly_the_garden_fields(paper: str, variant: str) -> None:
    kinds = garden(variant).field_kinds()
    play = play_field_kinds()
    expected = {
        "delicious-garden": {k: v for k, v in kinds.items() if k not in play},
        "delicious-play": play,
        "delicious-combo": kinds,
    }
    for name, want in expected.items():
        geo = layouts.geometry(name, paper, variant)
        got = {f.id: (f.kind, f.allowed) for f in geo.fields}
        assert got == want, name


def test_every_tool_icon_and_first_potter_is_printed() -> None:
    g = garden("A")
    ids = {f.id for f in layouts.geometry("delicious-garden").fields}
    assert {t.field for t in g.tool_icons} <= ids
    assert {c.first_potter for c in g.containers} <= ids
    assert "garden.honey" in ids


@pytest.mark.parametrize("name", sorted(CONTRACT_NAMES))
def test_fields_are_unique_disjoint_and_clear_of_registration(name: str) -> None:
    for paper, variant in itertools.product(PAPERS, VARIANTS):
        geo = layouts.geometry(name, paper, variant)
        w, h = geo.page_mm
        assert geo.page_mm == paper_size_mm(paper, sheet_spec(name).landscape)
        assert [m.id for m in geo.markers] == [0, 1, 2, 3]
        assert geo.qr_box_mm is not None
        ids = [f.id for f in geo.fields]
        assert len(ids) == len(set(ids))
        keepouts = [Box(m.center_mm[0] - 10.5, m.center_mm[1] - 10.5, 21, 21)
                    for m in geo.markers] + [geo.qr_box_mm]
        for f in geo.fields:
            b = f.box_mm
            assert 0 < b.x and b.x + b.w < w and 0 < b.y and b.y + b.h < h, f.id
            assert not any(_overlap(b, k) for k in keepouts), f.id
        for a, b in itertools.combinations(geo.fields, 2):
            assert not _overlap(a.box_mm, b.box_mm), (a.id, b.id)


def test_markers_sit_in_the_corners_in_order() -> None:
    geo = layouts.geometry("delicious-combo", "a4", "B")
    w, h = geo.page_mm
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = (m.center_mm for m in geo.markers)
    assert x0 < w / 4 and y0 < h / 4 and x1 > 3 * w / 4 and y1 < h / 4
    assert x2 > 3 * w / 4 and y2 > 3 * h / 4 and x3 < w / 4 and y3 > 3 * h / 4
    assert all(14 <= m.size_mm <= 16 for m in geo.markers)


@pytest.mark.parametrize("name", ["delicious-garden", "delicious-play", "delicious-combo"])
def test_plant_cells_are_large_enough_to_write_in(name: str) -> None:
    for paper, variant in itertools.product(PAPERS, VARIANTS):
        for f in layouts.geometry(name, paper, variant).fields:
            if f.kind is FieldKind.VEGETABLE:
                # writing area + two quiet margins = the printed cell, at least 9 mm
                assert f.box_mm.w >= 6.6 and f.box_mm.h >= 6.6, f.id
            if f.kind is FieldKind.FRUIT:
                assert f.box_mm.w >= 5.0, f.id


def test_geometry_is_what_the_drawing_records() -> None:
    """Drawing onto a real canvas records the same fields as geometry()."""
    for name in layouts.SHEET_NAMES:
        spec = sheet_spec(name)
        ctx = SheetContext(name, "a4", "B", "ZZ9", spec.landscape, Canvas(io.BytesIO()), True)
        spec.build(ctx)
        assert ctx.geometry() == layouts.geometry(name, "a4", "B"), name


def test_score_pad_fields_follow_the_documented_ids() -> None:
    for name, spec in PADS.items():
        geo = layouts.geometry(name)
        ids = {f.id for f in geo.fields}
        assert all(f.kind is FieldKind.NUMBER for f in geo.fields)
        assert all(re.fullmatch(r"pad\.[a-z0-9-]+\.p[1-9]", i) for i in ids)
        assert len(ids) == len(spec.rows) * spec.players
        assert any(r.kind is RowKind.TOTAL for r in spec.rows), name
        assert any(r.kind is RowKind.TIEBREAK for r in spec.rows), name


def test_delicious_pad_scores_every_category_of_the_tally() -> None:
    rows = [r.id for r in PADS["delicious-scorepad"].rows]
    containers = [c.id for c in garden("A").containers]
    assert rows[:6] == containers
    assert {"planter", "veg-bonus", "fruit-bonus", "honey", "total"} <= set(rows)
    assert "first-potter-checks" in rows  # the second tiebreak after the planter score


def test_wild_gardens_pad_lists_the_six_tiebreaks_in_order() -> None:
    tb = [r.id for r in PADS["wild-gardens-scorepad"].rows if r.kind is RowKind.TIEBREAK]
    assert tb == ["guests", "recipes", "ingredients", "jar-position", "skills",
                  "reserved-recipes"]


def test_dice_mat_reports_where_the_block_goes() -> None:
    geo = layouts.geometry("diced-veggies-mat")
    doc = geo.to_json()
    x, y = doc["block_origin_mm"]
    assert doc["die_mm"] == 16.0
    assert 30 < x < geo.page_mm[0] / 2 and 30 < y < geo.page_mm[1] / 2


def test_bad_names_raise_project_errors() -> None:
    with pytest.raises(UnknownNameError, match="unknown sheet"):
        layouts.geometry("delicious-gardn")
    with pytest.raises(UnknownNameError, match="unknown paper"):
        layouts.geometry("delicious-garden", paper="a5")
    with pytest.raises(UnknownNameError, match="unknown variant"):
        layouts.geometry("delicious-garden", variant="C")
    with pytest.raises(InputError, match="player code"):
        layouts.render_pdf(["delicious-garden"], io.BytesIO(), code="no;way")
    with pytest.raises(InputError):
        layouts.render_pdf([], io.BytesIO())


def test_fresh_codes_use_the_unambiguous_alphabet() -> None:
    codes = {layouts.new_code() for _ in range(50)}
    assert len(codes) > 40
    assert all(re.fullmatch(r"[A-HJ-NP-Z2-9]{4}", c) for c in codes)


@settings(max_examples=15, deadline=None)
@given(
    name=st.sampled_from(sorted(CONTRACT_NAMES)),
    paper=st.sampled_from(PAPERS),
    variant=st.sampled_from(VARIANTS),
)
def test_geometry_json_round_trips_and_is_stable(name: str, paper: str, variant: str) -> None:
    a = layouts.geometry(name, paper, variant)
    b = layouts.geometry(name, paper, variant)
    assert a == b
    doc = a.to_json()
    assert doc["sheet"] == name and doc["paper"] == paper and doc["variant"] == variant
    assert len(doc["fields"]) == len(a.fields)
    assert all(len(f["box_mm"]) == 4 for f in doc["fields"])


def test_every_score_pad_sheet_has_a_pad_spec() -> None:
    pads = {n for n in layouts.SHEET_NAMES if n.endswith("-scorepad")}
    assert pads == set(PADS)


@settings(max_examples=40, deadline=None)
@given(
    frames=st.lists(
        st.tuples(st.floats(-50, 50), st.floats(-50, 50), st.floats(0.2, 3.0)),
        min_size=0, max_size=4,
    ),
    box=st.tuples(st.floats(0, 30), st.floats(0, 30), st.floats(0.1, 20), st.floats(0.1, 20)),
)
def test_nested_frames_compose_like_affine_maps(frames, box) -> None:
    """A field recorded inside nested frames lands where composing the maps says."""
    from contextlib import ExitStack

    from layouts.pen import Pen

    pen = Pen(None, (200.0, 300.0), False)
    ox, oy, s = 0.0, 0.0, 1.0
    with ExitStack() as stack:
        for fx, fy, fs in frames:
            stack.enter_context(pen.frame(fx, fy, fs))
            ox, oy, s = ox + fx * s, oy + fy * s, s * fs
        got = pen.page_box(*box)
    x, y, w, h = box
    assert got.x == pytest.approx(ox + x * s, abs=1e-9)
    assert got.y == pytest.approx(oy + y * s, abs=1e-9)
    assert got.w == pytest.approx(w * s) and got.h == pytest.approx(h * s)
    assert pen.scale == 1.0  # every frame was popped


def test_layouts_stay_clear_of_opencv_and_click() -> None:
    """The layer rule: drawing sheets never loads OpenCV or the command line."""
    import subprocess
    import sys

    code = ("import sys, layouts; layouts.geometry('delicious-combo'); "
            "print(sorted(m for m in ('cv2', 'click') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"

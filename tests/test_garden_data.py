"""The garden data matches docs/rules-readings.md's reference garden and its invariants."""

from collections import Counter

import pytest

from companion.errors import UnknownNameError
from companion.games.delicious.garden import VARIANTS, garden
from companion.games.delicious.symbols import Area, ContainerKind, Tool


def test_reference_garden_a_matches_rules():
    g = garden("A")
    expected = {
        "wheelbarrow": ("top", "different", [(3, 2), (2, 5), (1, 10)]),
        "boots": ("top", "same", [(2, 2), (2, 4), (1, 7)]),
        "watering-can": ("top", "pairs", [(2, 2), (2, 5), (2, 9)]),
        "bathtub": ("bottom", "pairs", [(4, 3), (2, 8)]),
        "crate": ("bottom", "same", [(3, 3), (2, 7)]),
        "teapot": ("bottom", "different", [(2, 1), (2, 4), (1, 8)]),
    }
    got = {
        c.id: (c.area.value, c.kind.value, [(len(r.cells), r.points) for r in c.rows])
        for c in g.containers
    }
    assert got == expected


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_area_has_one_container_of_each_kind(variant):
    g = garden(variant)
    for area in Area:
        assert sorted(c.kind for c in g.area(area)) == sorted(ContainerKind)


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_tool_marks_one_row_per_area_and_one_or_two_lines(variant):
    g = garden(variant)
    for area in Area:
        tools = [r.tool for c in g.area(area) for r in c.rows if r.tool is not None]
        assert sorted(tools) == sorted(Tool)
    per_tool = Counter(ln.tool for ln in g.lines)
    assert set(per_tool) == set(Tool)
    assert all(1 <= n <= 2 for n in per_tool.values())


@pytest.mark.parametrize("variant", VARIANTS)
def test_planter_lines_mix_shapes(variant):
    g = garden(variant)
    shapes = {(p.row, p.col): p.shape for p in g.planter}
    for ln in g.lines:
        cells = [g.planter_cell(c) for c in ln.cells]
        assert len({shapes[(p.row, p.col)] for p in cells}) >= 2


@pytest.mark.parametrize("variant", VARIANTS)
def test_pairs_containers_have_even_rows(variant):
    for c in garden(variant).containers:
        if c.kind is ContainerKind.PAIRS:
            assert all(len(r.cells) % 2 == 0 for r in c.rows)
            assert len(c.pairs) * 2 == len(c.cells)


def test_unknown_variant_is_a_clear_error():
    with pytest.raises(UnknownNameError, match="unknown variant 'C'"):
        garden("C")

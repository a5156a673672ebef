"""The web's icons are the sheets' own art (layouts/art) and stay in step with it."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from companion.games.delicious.symbols import Fruit, Shape, Tool, Vegetable
from layouts.svg_icons import icon_svgs
from tools.web_icons import ICON_DIR


def test_every_plant_tool_and_garden_icon_has_an_svg():
    names = set(icon_svgs())
    assert names == {f"{v}.svg" for v in (*Vegetable, *Fruit, *Tool, *Shape)}


def test_the_committed_icons_are_the_art_run_tools_web_icons_after_a_change():
    drawn = icon_svgs()
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in ICON_DIR.glob("*.svg")}
    assert on_disk == drawn


def test_each_icon_is_well_formed_svg_with_a_title():
    ns = "{http://www.w3.org/2000/svg}"
    for name, svg in icon_svgs().items():
        root = ET.fromstring(svg)
        assert root.tag == f"{ns}svg", name
        assert root.find(f"{ns}title") is not None and len(root.findall(f"{ns}path")) >= 1

"""``companion sheets`` through click's test runner."""

from __future__ import annotations

import json
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

import layouts
from companion.cli import main


def _run(*args: str):
    return CliRunner().invoke(main, ["sheets", *args])


def test_list_json_names_every_sheet() -> None:
    r = _run("list", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert [s["name"] for s in doc["sheets"]] == list(layouts.SHEET_NAMES)
    assert {s["name"] for s in doc["sheets"] if s["readable"]} == set(layouts.READABLE_SHEETS)


def test_list_plain_has_one_line_per_sheet() -> None:
    r = _run("list")
    assert r.exit_code == 0
    assert len(r.stdout.strip().splitlines()) == len(layouts.SHEET_NAMES)


def test_geometry_json_is_the_contract_document() -> None:
    r = _run("geometry", "delicious-combo", "--paper", "a4", "--variant", "B", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc == json.loads(json.dumps(layouts.geometry("delicious-combo", "a4", "B").to_json()))
    assert set(doc) >= {"sheet", "version", "variant", "paper", "page_mm", "markers", "fields"}
    assert doc["page_mm"] == [297.0, 210.0]
    f = next(f for f in doc["fields"] if f["id"] == "garden.wheelbarrow.r0.c1")
    assert f["kind"] == "vegetable" and len(f["box_mm"]) == 4


def test_print_writes_all_pages_into_one_pdf(tmp_path: Path) -> None:
    out = tmp_path / "set.pdf"
    r = _run("print", "delicious-garden", "delicious-play", "dulce-scorepad", "-o", str(out),
             "--paper", "a4", "--bw", "--variant", "B", "--code", "ab12")
    assert r.exit_code == 0, r.output
    assert "AB12" in r.stdout
    pdf = pdfium.PdfDocument(str(out))
    try:
        assert len(pdf) == 4  # the play sheet has a back page
        w, h = pdf[0].get_size()
        assert (round(w / 72 * 25.4), round(h / 72 * 25.4)) == (210, 297)
    finally:
        pdf.close()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["print", "delicious-gardn", "-o", "{tmp}/x.pdf"], "unknown sheet 'delicious-gardn'"),
        (["print", "delicious-garden", "--paper", "legal", "-o", "{tmp}/x.pdf"],
         "unknown paper 'legal'"),
        (["print", "delicious-garden", "-o", "{tmp}/no/such/dir/x.pdf"], "cannot write"),
        (["print", "delicious-garden", "--variant", "Z", "-o", "{tmp}/x.pdf"],
         "unknown variant"),
        (["geometry", "nope", "--json"], "unknown sheet 'nope'"),
        (["print", "delicious-garden", "--players", "101", "-o", "{tmp}/x.pdf"],
         "101 is not in the range 1<=x<=100"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], needle: str) -> None:
    r = _run(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion: error: ") and needle in lines[0]
    assert "Traceback" not in r.output
    assert not (tmp_path / "x.pdf").exists()


def test_print_counts_pages_and_prints_no_code_on_a_pad(tmp_path: Path) -> None:
    out = tmp_path / "four.pdf"
    r = CliRunner().invoke(main, ["sheets", "print", "delicious-garden", "delicious-play",
                                  "--players", "4", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert len(pdfium.PdfDocument(out)) == 12  # the play sheet is two pages
    assert ": 12 pages (4 players x 2 sheets)," in r.stdout
    pad = tmp_path / "pad.pdf"
    r = CliRunner().invoke(main, ["sheets", "print", "dulce-scorepad", "--code", "K7Q2",
                                  "-o", str(pad)])
    assert r.exit_code == 0 and "1 page (1 sheet)" in r.stdout and "code" not in r.stdout
    text = pdfium.PdfDocument(pad)[0].get_textpage().get_text_range()
    assert "K7Q2" not in text

"""The documentation stays true: the CLI reference is the commands' own help, the README
stays a short guide, every page is in the site's navigation, and make bench can put its
tables on the benchmarks page."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tools import cli_reference
from tools.bench import markdown_tables, replace_between_markers, with_measured_row

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README_MAX_LINES = 200


def _nav_pages(node: object) -> list[str]:
    """Every page file named anywhere in a mkdocs nav."""
    if isinstance(node, str):
        return [node]
    if isinstance(node, list):
        return [page for item in node for page in _nav_pages(item)]
    if isinstance(node, dict):
        return [page for value in node.values() for page in _nav_pages(value)]
    return []


def test_the_cli_reference_is_what_the_commands_say() -> None:
    """Checked in a fresh process: click keeps each command's help option once asked, so a
    test that invoked a subcommand on its own (without the root's ``-h``) would change what
    ``render()`` prints in this one."""
    done = subprocess.run([sys.executable, "-m", "tools.cli_reference", "--check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, (
        f"docs/cli.md is out of date: run python -m tools.cli_reference\n{done.stderr}")


def test_the_cli_reference_has_every_command_once() -> None:
    page = cli_reference.render()
    for path in ("companion delicious read", "companion dice cuts", "companion serve",
                 "companion dulce best-harvest", "companion wild-gardens score"):
        assert page.count(f"`{path}`") == 2, path  # the list and its heading
    assert "Usage: companion delicious read [OPTIONS] PHOTOS..." in page


def test_the_cli_reference_does_not_depend_on_the_terminal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    first = cli_reference.render()
    monkeypatch.setenv("COLUMNS", "40")
    assert cli_reference.render() == first


def test_the_check_fails_on_a_stale_page(monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    stale = tmp_path / "cli.md"
    stale.write_text(cli_reference.render().replace("Usage:", "Use:", 1))
    monkeypatch.setattr(cli_reference, "PAGE", stale)
    monkeypatch.setattr(cli_reference, "ROOT", tmp_path)
    assert cli_reference.main(["--check"]) == 1
    assert cli_reference.main([]) == 0
    assert cli_reference.main(["--check"]) == 0


def test_the_readme_is_a_short_guide() -> None:
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines"


def test_every_docs_page_is_in_the_nav_and_every_nav_page_exists() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    nav = _nav_pages(config["nav"])
    pages = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
    assert sorted(set(nav)) == pages
    assert len(nav) == len(set(nav)), "a page is listed twice"


def test_the_benchmarks_page_has_a_block_for_every_benchmark() -> None:
    from tools.bench import BENCHES, MEASURED, PAGE, area_of, between_markers

    text = PAGE.read_text()
    measured = between_markers(text, MEASURED)
    for _, module in BENCHES:
        assert between_markers(text, area_of(module)).startswith("|"), module
        assert f"| {area_of(module)} |" in measured, module


def test_replace_between_markers_replaces_only_that_block() -> None:
    text = ("intro\n<!-- bench:reader:start -->\n| old |\n<!-- bench:reader:end -->\n"
            "<!-- bench:dice:start -->\n| dice |\n<!-- bench:dice:end -->\nend\n")
    new = replace_between_markers(text, "reader", "| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert new == ("intro\n<!-- bench:reader:start -->\n| a | b |\n|---|---|\n| 1 | 2 |\n"
                   "<!-- bench:reader:end -->\n<!-- bench:dice:start -->\n| dice |\n"
                   "<!-- bench:dice:end -->\nend\n")
    assert replace_between_markers(new, "reader", "| old |") == text


def test_replace_between_markers_refuses_a_page_without_the_block() -> None:
    with pytest.raises(ValueError, match="bench:glare:start"):
        replace_between_markers("no markers here\n", "glare", "| x |")
    with pytest.raises(ValueError):
        replace_between_markers("<!-- bench:glare:end -->\n<!-- bench:glare:start -->\n",
                                "glare", "| x |")


def test_markdown_tables_keeps_the_tables_and_drops_the_chatter() -> None:
    output = ("wrote /tmp/x.pdf\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
              "Load average 1.5\n  | c |\n  |---|\n")
    assert markdown_tables(output) == "| a | b |\n|---|---|\n| 1 | 2 |\n\n| c |\n|---|"
    assert markdown_tables("no table\n") == ""


def test_a_measured_row_is_replaced_or_added() -> None:
    table = "| benchmark | measured | machine |\n|---|---|---|\n| reader | 2026-12-01 | old |"
    assert with_measured_row(table, "reader", "2026-12-02", "new").splitlines()[-1] == (
        "| reader | 2026-12-02 | new |")
    added = with_measured_row(table, "glare", "2026-12-02", "m")
    assert added.splitlines()[-2:] == ["| reader | 2026-12-01 | old |",
                                       "| glare | 2026-12-02 | m |"]

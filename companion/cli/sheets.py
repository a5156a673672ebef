"""``companion sheets``: list, print and describe printable sheets (thin: layouts does
the work)."""

from __future__ import annotations

import click

import layouts
from companion.cli.output import echo_json, json_option, not_stdout
from companion.plural import count
from layouts.registry import sheet_spec
from layouts.render import pairs_by_code

# Sets of one PDF: a club's evening, far short of an hour's rendering (and of the million
# four-letter codes, past which no fresh code is left to draw).
MAX_PLAYERS = 100


@click.group(name="sheets")
def sheets() -> None:
    """Print sheets and score pads, and export their geometry."""


@sheets.command(name="list")
@json_option
def list_sheets(as_json: bool) -> None:
    """List the sheets that can be printed."""
    rows: list[dict[str, str | bool]] = [
        {
            "name": name,
            "title": sheet_spec(name).title,
            "readable": name in layouts.READABLE_SHEETS,
            "landscape": sheet_spec(name).landscape,
        }
        for name in layouts.SHEET_NAMES
    ]
    if as_json:
        echo_json({"sheets": rows})
        return
    width = max(len(name) for name in layouts.SHEET_NAMES)
    for r in rows:
        mark = "  (photo-readable)" if r["readable"] else ""
        click.echo(f"{r['name']:<{width}}  {r['title']}{mark}")


@sheets.command(name="print")
@click.argument("names", nargs=-1, required=True)
@click.option("-o", "--output", "out", required=True, callback=not_stdout,
              help="PDF file to write.")
@click.option("--paper", default="letter", show_default=True, help="letter or a4.")
@click.option("--bw", is_flag=True, help="Black and white, for laser printers.")
@click.option("--variant", default="A", show_default=True, help="Garden side: A or B.")
@click.option("--code", default=None, help="Player code (default: a fresh random one).")
@click.option("--players", type=click.IntRange(1, MAX_PLAYERS), default=None,
              help="Print the sheets once per player, each set with its own player code "
                   "(so garden and play photos pair by code, never by order).")
def print_sheets(
    names: tuple[str, ...], out: str, paper: str, bw: bool, variant: str, code: str | None,
    players: int | None,
) -> None:
    """Write the named sheets into one PDF."""
    if players is not None and code is not None and players > 1:
        raise click.UsageError("--code names one player; with --players N each player gets "
                               "a fresh code")
    codes = layouts.new_codes(players) if players is not None and code is None else None
    if codes is None:
        code = layouts.new_code() if code is None else code
    pages = layouts.render_pdf(list(names), out, paper=paper, variant=variant, bw=bw,
                               code=code, codes=codes)
    shown = ", ".join(c.upper() for c in (codes or [code or ""]))
    who = f"{len(codes)} players x " if codes else ""
    word = "codes" if codes and len(codes) > 1 else "code"
    coded = any(pairs_by_code(n) for n in names)
    click.echo(f"wrote {out}: {count(pages, 'page')} ({who}{count(len(names), 'sheet')}), "
               f"{paper}, side {variant}" + (f", player {word} {shown}" if coded else ""))


@sheets.command(name="geometry")
@click.argument("name")
@click.option("--paper", default="letter", show_default=True, help="letter or a4.")
@click.option("--variant", default="A", show_default=True, help="Garden side: A or B.")
@json_option
def geometry(name: str, paper: str, variant: str, as_json: bool) -> None:
    """Every readable field of a sheet, its kind, allowed values and box in mm."""
    g = layouts.geometry(name, paper=paper, variant=variant)
    if as_json:
        echo_json(g.to_json())
        return
    click.echo(f"{g.sheet} v{g.version} side {g.variant} on {g.paper} "
               f"({g.page_mm[0]} x {g.page_mm[1]} mm): {len(g.fields)} fields, "
               f"{len(g.markers)} markers")
    for f in g.fields:
        x, y, w, h = f.box_mm.as_list()
        click.echo(f"  {f.id:<40} {f.kind.value:<12} {x:7.1f} {y:7.1f} {w:5.1f} x {h:4.1f}")

"""``companion delicious supply``: the community supply of a seed, for a group playing apart."""

from __future__ import annotations

import click

from companion.cli.output import echo_json, json_option
from companion.games.delicious.supply import MAX_SEED, Reveal, SupplyRound, supply


def _reveal_text(reveal: Reveal) -> str:
    card = reveal.card.card
    plant = f"{card.vegetable} ({card.icon})"
    return f"{reveal.position:<6}  {plant:<19} with {reveal.face} ({reveal.side} side up)"


def round_text(rnd: SupplyRound) -> list[str]:
    return [f"Round {rnd.number:>2}  {_reveal_text(rnd.top)}",
            f"          {_reveal_text(rnd.bottom)}"]


@click.command(name="supply")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), required=True,
              help="Whole number; the same seed deals the same supply anywhere.")
@click.option("--round", "only_round", type=click.IntRange(1, 12),
              help="Show only this round (1 to 12).")
@json_option
def supply_cmd(seed: int, only_round: int | None, as_json: bool) -> None:
    """Deal the community supply: 12 rounds of a top and a bottom card, each with its token.

    30 cards shuffled, 6 set aside unseen, two decks of 12; a token from the bag on each
    flipped card, turned to the side the card names (docs/formats.md has the algorithm).
    """
    deal = supply(seed)
    if as_json:
        echo_json(deal.to_json(only_round))
        return
    rounds = deal.rounds if only_round is None else (deal.round(only_round),)
    click.echo(f"Delicious community supply, seed {seed}")
    for rnd in rounds:
        click.echo("\n".join(round_text(rnd)))

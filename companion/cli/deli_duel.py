"""``companion deli-duel``."""

import click


@click.group(name="deli-duel")
def deli_duel() -> None:
    """Deli Duel: order checks and the winning count."""

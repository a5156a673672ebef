"""``companion dice``."""

import click


@click.group(name="dice")
def dice() -> None:
    """Diced Veggies: read a block photo, list and check cleaver cuts."""

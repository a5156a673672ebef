"""``companion dulce``."""

import click


@click.group(name="dulce")
def dulce() -> None:
    """Dulce: validate plants, best scoring order, best harvest, final score."""

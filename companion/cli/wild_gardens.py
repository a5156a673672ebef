"""``companion wild-gardens``."""

import click


@click.group(name="wild-gardens")
def wild_gardens() -> None:
    """Wild Gardens: final scoring and tiebreaks."""

"""``companion sheets``."""

import click


@click.group(name="sheets")
def sheets() -> None:
    """Print sheets and score pads, and export their geometry."""

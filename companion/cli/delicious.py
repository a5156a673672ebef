"""``companion delicious``."""

import click


@click.group(name="delicious")
def delicious() -> None:
    """Delicious: garden, simulate, score, read photos."""

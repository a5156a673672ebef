"""Where the shipped model files live, in a source checkout and in an installed copy.

A checkout (and an editable install, which is what the Makefile makes) keeps them in the
repository's ``assets/``; a regular install puts them under ``<prefix>/share/companion/assets``
(pyproject's data-files), because ``assets/`` is not inside a Python package.
"""

from __future__ import annotations

import sys
from pathlib import Path

CHECKOUT_ASSETS = Path(__file__).resolve().parents[2] / "assets"
INSTALLED_ASSETS = Path(sys.prefix) / "share" / "companion" / "assets"


def asset_path(name: str) -> Path:
    """The first existing copy of a shipped file; the checkout's path when there is none
    (so a missing-model error names the place a developer would look)."""
    for folder in (CHECKOUT_ASSETS, INSTALLED_ASSETS):
        if (folder / name).is_file():
            return folder / name
    return CHECKOUT_ASSETS / name

"""Where the store lives: ``--data DIR``, else ``$COMPANION_DATA``, else the platform's
user data directory (so the CLI and ``companion serve`` share one database by default)."""

from __future__ import annotations

import os
from pathlib import Path

DATA_ENV = "COMPANION_DATA"
APP_NAME = "companion"
DB_NAME = "companion.sqlite3"
PHOTO_DIR = "photos"


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The data directory chosen by option, environment or platform, in that order."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME))

"""The store: nights, players, plays, photos, readings and corrections in SQLite.

``Store.open(data)`` is the one entry point; the web app and the CLI share it.
"""

from companion.store.db import Store, clean_name, migrate
from companion.store.errors import (
    NotFoundError,
    StoreBusyError,
    StoreError,
    StoreFullError,
    StoreVersionError,
)
from companion.store.models import (
    Correction,
    NewPhoto,
    Night,
    Photo,
    Play,
    Player,
    Reading,
    Scoring,
    Seat,
    SeatInput,
    Standing,
)
from companion.store.paths import DATA_ENV, data_dir
from companion.store.schema import MIGRATIONS, SCHEMA_VERSION

__all__ = [
    "DATA_ENV", "MIGRATIONS", "SCHEMA_VERSION", "Correction", "NewPhoto", "Night", "NotFoundError",
    "Photo", "Play", "Player", "Reading", "Scoring", "Seat", "SeatInput", "Standing", "Store",
    "StoreBusyError", "StoreError", "StoreFullError", "StoreVersionError", "clean_name",
    "data_dir", "migrate",
]

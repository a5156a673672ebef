"""``companion backup``: a consistent copy of the live database, taken while others write.

SQLite's online backup API copies page by page and restarts if a writer changes a page
under it, so the copy is one committed state even with ``companion serve`` running. The
copy is written beside the target, checked, fsynced and renamed into place: a crash
leaves either the old file or the whole new one. Photo files are not in the database;
they never change once written, so any file copy of ``photos/`` is a good backup of them.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from companion.store.db import BUSY_TIMEOUT_S, Store
from companion.store.errors import StoreError


@dataclass(frozen=True)
class BackupReport:
    path: Path
    bytes: int
    plays: int
    version: int


def writable_target(store: Store, dest: str | os.PathLike[str], overwrite: bool) -> Path:
    """Where a backup or export may be written: never over the store's own files (the
    database, its journal, its photos), never over what is not a regular file (a device
    node, a FIFO, a folder), never over an existing file without ``overwrite``."""
    target = Path(dest).expanduser()
    resolved = target.resolve()
    db = store.db_path.resolve()
    own = {db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm"),
           db.with_name(db.name + "-journal")}
    if resolved in own:
        raise StoreError(f"{target} is the live database itself")
    if resolved.is_relative_to(store.photo_dir.resolve()):
        raise StoreError(f"{target} is inside the store's photo folder")
    if target.exists() or target.is_symlink():
        if not target.is_file():
            raise StoreError(f"{target} is not a regular file; choose a file name")
        if not overwrite:
            raise StoreError(f"{target} exists; pass --force to replace it")
    return target


def backup(store: Store, dest: str | os.PathLike[str], overwrite: bool = False) -> BackupReport:
    target = writable_target(store, dest, overwrite)
    tmp = target.with_name(f".{target.name}.part")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp.unlink(missing_ok=True)
        src = sqlite3.connect(store.db_path, timeout=BUSY_TIMEOUT_S)
        dst = sqlite3.connect(tmp)
        try:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            ok = dst.execute("PRAGMA integrity_check").fetchone()[0]
            plays = int(dst.execute("SELECT COUNT(*) FROM plays").fetchone()[0])
            version = int(dst.execute("SELECT MAX(version) FROM schema_version").fetchone()[0])
        finally:
            dst.close()
            src.close()
        if ok != "ok":
            raise StoreError(f"the copy failed its integrity check ({ok})")
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except (OSError, sqlite3.Error) as exc:
        tmp.unlink(missing_ok=True)
        raise StoreError(f"cannot back up to {target}: {exc}") from None
    return BackupReport(target, target.stat().st_size, plays, version)

"""Where the real data that nobody on the team made is found: ``shared/data`` beside the
checkout (or one level further up, for a git worktree), or the folder that
``COMPANION_SHARED_DATA`` names. It is never copied into the repository; tests and
benchmarks that need it skip where it is absent."""

from __future__ import annotations

import os
from pathlib import Path

SHARED_DATA_ENV = "COMPANION_SHARED_DATA"
_REPO = Path(__file__).resolve().parents[2]
CANDIDATES = (_REPO.parent / "shared" / "data", _REPO.parent.parent / "shared" / "data")


def shared_data(*parts: str) -> Path | None:
    """The path ``parts`` under the shared data folder, or None where it is not there."""
    env = os.environ.get(SHARED_DATA_ENV)
    roots = [Path(env)] if env else list(CANDIDATES)
    for root in roots:
        path = root.joinpath(*parts)
        if path.exists():
            return path
    return None

"""Real people's capitals (UNIPEN pen trajectories), split by writer, for training and benches.

The data set lives outside the repository (``../shared/data/handwriting/unipen-dev.json``
beside the checkout, or wherever ``COMPANION_UNIPEN`` points); nothing here copies it. The
split is fixed by a hash of the writer id, so a writer is in exactly one part, whatever
else changes: the model is trained on ``train`` writers, its confidence calibrated on
``calib`` writers, and it is measured on ``test`` writers it never met in either way.

One site (``val``) files all its 1,561 letters under a single writer id, so its writers
cannot be told apart: it always goes to ``train``, never to a measuring part.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections import defaultdict
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from companion.errors import InputError

ENV_VAR = "COMPANION_UNIPEN"
_REPO = Path(__file__).resolve().parents[2]
_RELATIVE = Path("shared") / "data" / "handwriting" / "unipen-dev.json"
# ``../shared`` beside the checkout; a git worktree one level further down looks one up too.
CANDIDATES = (_REPO.parent / _RELATIVE, _REPO.parent.parent / _RELATIVE)
# Share of writers (by hash bucket out of 100) in each measuring part; the rest train.
TEST_BUCKETS = 32
CALIB_BUCKETS = 15
ALWAYS_TRAIN_SITES = ("val",)  # one writer id for a whole site: cannot be held out
# The data's README: a letter under 0.2 or over 2.5 times as wide as tall is almost
# always noise (a stray dash filed as a letter).
ASPECT_RANGE = (0.2, 2.5)
MIN_POINTS = 3  # fewer points in all strokes: not a letter


class RealSplit(StrEnum):
    """The hand option of the synthetic letters that draws real writers of one part."""

    TRAIN = "real-train"
    CALIB = "real-calib"
    TEST = "real-test"


Stroke = NDArray[np.float64]  # (n, 2) x, y; the letter is 1 high, y down


@dataclass(frozen=True)
class Sample:
    letter: str
    writer: str
    strokes: tuple[Stroke, ...]


class RealDataMissing(InputError):
    """The real handwriting file is not where it should be."""


def data_path() -> Path:
    """Where the real handwriting is read from (``COMPANION_UNIPEN`` overrides)."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    return next((c for c in CANDIDATES if c.is_file()), CANDIDATES[0])


def available() -> bool:
    return data_path().is_file()


def split_of(writer: str) -> RealSplit:
    """The fixed part a writer belongs to."""
    if writer.split(":", 1)[0] in ALWAYS_TRAIN_SITES:
        return RealSplit.TRAIN
    bucket = int(hashlib.sha1(writer.encode()).hexdigest()[:8], 16) % 100
    if bucket < TEST_BUCKETS:
        return RealSplit.TEST
    if bucket < TEST_BUCKETS + CALIB_BUCKETS:
        return RealSplit.CALIB
    return RealSplit.TRAIN


def _clean(raw: object) -> tuple[Stroke, ...] | None:
    """Strokes as arrays, or None for the README's known noise and empty samples."""
    if not isinstance(raw, list):
        return None
    strokes = [np.asarray(s, np.float64).reshape(-1, 2) for s in raw if len(s) > 0]
    if not strokes or sum(len(s) for s in strokes) < MIN_POINTS:
        return None
    allp = np.concatenate(strokes)
    w, h = allp.max(axis=0) - allp.min(axis=0)
    if h <= 1e-6 or not ASPECT_RANGE[0] <= w / h <= ASPECT_RANGE[1]:
        return None
    return tuple(strokes)


@functools.lru_cache(maxsize=2)
def _load(path: str) -> tuple[Sample, ...]:
    try:
        doc = json.loads(Path(path).read_text())
        raw = doc["samples"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"cannot read real handwriting from {path}: {exc}") from None
    out = []
    for s in raw:
        strokes = _clean(s.get("strokes"))
        if strokes is not None:
            out.append(Sample(str(s["letter"]).upper(), str(s["writer"]), strokes))
    return tuple(out)


def samples(split: RealSplit | str | None = None) -> tuple[Sample, ...]:
    """Cleaned samples of one part (all parts when None)."""
    path = data_path()
    if not path.is_file():
        raise RealDataMissing(f"real handwriting not found at {path} (set {ENV_VAR})")
    every = _load(str(path))
    if split is None:
        return every
    part = RealSplit(split)
    return tuple(s for s in every if split_of(s.writer) is part)


@functools.lru_cache(maxsize=8)
def _index(path: str, split: RealSplit) -> dict[str, dict[str, tuple[Sample, ...]]]:
    """writer -> letter -> samples, of one part (cached per file and part)."""
    table: dict[str, dict[str, list[Sample]]] = defaultdict(lambda: defaultdict(list))
    for s in samples(split):
        table[s.writer][s.letter].append(s)
    return {w: {k: tuple(v) for k, v in d.items()} for w, d in sorted(table.items())}


def writers(split: RealSplit | str) -> list[str]:
    """The writers of one part, sorted."""
    return list(_index(str(data_path()), RealSplit(split)))


def pick(letter: str, rng: np.random.Generator, split: RealSplit | str,
         writer: str | None = None) -> Sample:
    """One sample of ``letter`` from the part, by ``writer`` when given.

    A writer who never wrote that letter lends it from another writer of the same site and
    part (a sheet then mixes two hands of one site), so every sheet can be filled.
    """
    part = RealSplit(split)
    table = _index(str(data_path()), part)
    letter = letter.upper()
    if writer is not None:
        if writer not in table:
            raise InputError(f"writer {writer!r} is not in the {part.value} part")
        own = table[writer].get(letter)
        if own:
            return own[int(rng.integers(len(own)))]
        site = writer.split(":", 1)[0]
        pool = [s for w, d in table.items() if w.startswith(site + ":") for s in d.get(letter, ())]
        if pool:
            return pool[int(rng.integers(len(pool)))]
    pool = [s for d in table.values() for s in d.get(letter, ())]
    if not pool:
        raise InputError(f"no real {letter!r} in the {part.value} part")
    return pool[int(rng.integers(len(pool)))]

"""numpy's median, percentile and norm for the few numbers a cell holds, to the last bit.

A cell is read some 150 times per photo, and on arrays of a handful to a few thousand
values numpy's general machinery (axis handling, NaN checks, dispatch) costs far more than
the arithmetic. These give the very same floats as the numpy calls they name, by doing
the same operations in the same float type and order, so a reading does not change.
"""

from __future__ import annotations

import math

import numpy as np


def median(values: list[float]) -> float:
    """``np.median`` of a short list of Python floats."""
    ordered = sorted(values)
    half = len(ordered) // 2
    return ordered[half] if len(ordered) % 2 else (ordered[half - 1] + ordered[half]) / 2


def median_of(values: np.ndarray) -> float:
    """``float(np.median(values))`` of a 1-D float array without NaNs (the middle value, or
    the mean of the middle two in the array's own float type)."""
    n = values.size
    half = n // 2
    if n % 2:
        return float(np.partition(values, half)[half])
    part = np.partition(values, (half - 1, half))
    return float((part[half - 1] + part[half]) / 2)


def median_rows(rows: np.ndarray) -> np.ndarray:
    """``np.median(rows, axis=0)`` of a few rows without NaNs."""
    ordered = np.sort(rows, axis=0)
    half = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[half]
    return (ordered[half - 1] + ordered[half]) / 2


def percentile(values: np.ndarray, q: float) -> np.floating:
    """``np.percentile(values, q)`` of a 1-D float array without NaNs (its linear method,
    in the array's own float type)."""
    n = values.size
    at = (n - 1) * (q / 100)
    lo = math.floor(at)
    if lo >= n - 1:
        return values.max()
    part = np.partition(values, (lo, lo + 1))
    a, b = part[lo], part[lo + 1]
    t = at - lo
    diff = b - a
    return b - diff * (1 - t) if t >= 0.5 else a + diff * t


def norm(v: np.ndarray) -> float:
    """``float(np.linalg.norm(v))`` of a vector (its own dot product and root)."""
    return float(np.sqrt(v.dot(v)))

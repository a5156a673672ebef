"""Letters read by more than one network.

A letter network trained on 76 real writers meets, on a new writer, shapes it has never
seen; a second network trained on other crops with other weights is wrong on other shapes,
so where the two are averaged a shape only one of them mistakes reads less sure, and goes to
review instead of being trusted. The other networks run on the letters the first one reads
below ``doubt_below`` among the field's letters: 1.0 in the shipped model, every letter (a
sure letter of an unseen hand can be a shape only the first mistakes; it costs about 0.02 s
a photo), 0.995 before 2026-12-06. Their probabilities pool every member's calibrated
probabilities (each member's own temperature): their mean, or the mean of their logs (the
shipped ensemble: a letter one member doubts stays doubted), sharpened or softened by one
more temperature fitted on the real calibration writers' crops
(tools/fit_letter_ensemble.py). Everything here works on scores: natural-log probabilities
over all classes, read with temperature 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np
from numpy.typing import NDArray

from companion.errors import InputError, UnknownNameError
from companion.vision.sheet.constants_letters import LETTER_CLASSES

# One member network: preprocessed inputs (n, px, px) -> raw logits (n, classes).
Logits = Callable[[NDArray[np.float32]], NDArray[np.float32]]
Ranked = list[tuple[str, float]]  # (letter, probability), likeliest first


class EnsembleMean(Enum):
    """How the members' calibrated probabilities are pooled."""

    PROBABILITY = "probability"  # their mean: one sure member outweighs unsure others less
    LOG = "log"  # the mean of their logs (a geometric mean): one member's doubt weighs more


@dataclass(frozen=True)
class EnsembleSettings:
    """How the extra members are used (``ensemble`` in assets/letters.json)."""

    doubt_below: float  # the first model's letter probability below which the others run
    temperature: float  # applied to the log of the members' pooled probabilities
    mean: EnsembleMean = EnsembleMean.PROBABILITY

    def __post_init__(self) -> None:
        if not 0.0 < self.doubt_below <= 1.0:
            raise InputError(f"ensemble doubt_below must be in (0, 1], got {self.doubt_below}")
        if self.temperature <= 0.0:
            raise InputError(f"ensemble temperature must be > 0, got {self.temperature}")


def log_softmax(logits: NDArray[np.floating], temperature: float) -> NDArray[np.float64]:
    """Row-wise log-probabilities of ``logits / temperature``."""
    z = np.asarray(logits, np.float64) / temperature
    z = z - z.max(axis=1, keepdims=True)
    return np.asarray(z - np.log(np.exp(z).sum(axis=1, keepdims=True)), np.float64)


def mean_scores(logits: Sequence[NDArray[np.floating]], temperatures: Sequence[float],
                temperature: float, mean: EnsembleMean = EnsembleMean.PROBABILITY
                ) -> NDArray[np.float64]:
    """Scores of the members' pooled calibrated probabilities (``mean``), then
    ``temperature``."""
    if not logits or len(logits) != len(temperatures):
        raise InputError("need one temperature per member's logits, and at least one member")
    logps = [log_softmax(lg, t) for lg, t in zip(logits, temperatures, strict=True)]
    if mean is EnsembleMean.LOG:
        return log_softmax(np.mean(logps, axis=0), temperature)
    probs = np.mean([np.exp(lp) for lp in logps], axis=0)
    return log_softmax(np.log(np.maximum(probs, 1e-300)), temperature)


def letter_index(letter: str) -> int:
    """The network's class index of a letter (either case)."""
    try:
        return LETTER_CLASSES.index(letter.upper())
    except ValueError:
        raise UnknownNameError(
            f"unknown letter {letter!r}; known: {' '.join(LETTER_CLASSES)}") from None


def softmax_restricted(logits: NDArray[np.floating], allowed: Sequence[str],
                       temperature: float) -> Ranked:
    """Ranked (letter, probability) among ``allowed`` only, probabilities summing to 1."""
    idx = [letter_index(a) for a in dict.fromkeys(allowed)]
    if not idx:
        raise InputError("a letter field must allow at least one letter")
    z = logits[idx].astype(np.float64) / temperature
    p = np.exp(z - z.max())
    p /= p.sum()
    order = np.argsort(-p, kind="stable")
    return [(LETTER_CLASSES[idx[i]], float(p[i])) for i in order]


def top_allowed(scores: NDArray[np.floating], alloweds: Sequence[Sequence[str]]
                ) -> NDArray[np.float64]:
    """Each row's top probability among its field's letters (renormalised)."""
    return np.array([softmax_restricted(row, allowed, 1.0)[0][1]
                     for row, allowed in zip(scores, alloweds, strict=True)], np.float64)


def ensemble_scores(inputs: NDArray[np.float32], alloweds: Sequence[Sequence[str]],
                    first: NDArray[np.floating], temperatures: Sequence[float],
                    others: Sequence[Logits], settings: EnsembleSettings
                    ) -> NDArray[np.float64]:
    """Scores for every input: the first model's (its ``first`` logits at its temperature)
    where it reads the field's letter at ``settings.doubt_below`` or above; elsewhere those
    of all members together (``others`` run once, on the doubtful rows only, batched).
    ``temperatures`` holds the first model's and then each other member's."""
    if len(temperatures) != len(others) + 1:
        raise InputError("need one temperature per member, the first model's first")
    scores = log_softmax(first, temperatures[0])
    if not others or len(inputs) == 0:
        return scores
    doubtful = np.nonzero(top_allowed(scores, alloweds) < settings.doubt_below)[0]
    if len(doubtful) == 0:
        return scores
    sub = np.ascontiguousarray(inputs[doubtful])
    member_logits = [np.asarray(first)[doubtful], *(run(sub) for run in others)]
    scores[doubtful] = mean_scores(member_logits, temperatures, settings.temperature,
                                   settings.mean)
    return scores

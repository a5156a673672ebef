"""Handwritten capital letters read by a small CNN (ONNX, run with ``cv2.dnn``).

The network scores all ten Delicious letters; a field then keeps only the letters it allows
and renormalises, so a vegetable cell never reads as F. Logits are divided by a temperature
fitted on validation data (``assets/letters.json``) so that probabilities mean what they say.
Whether a cell is empty is the pipeline's call (it measures ink), not the classifier's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.errors import InputError
from companion.vision.onnx_model import load_onnx_model
from companion.vision.sheet.constants_letters import (
    BG_KERNEL_FRACTION,
    BG_KERNEL_MIN_PX,
    EDGE_BAND_FRACTION,
    EDGE_INK_LEVEL,
    EDGE_LINE_COVER,
    EDGE_RIM_COVER,
    INK_FLOOR,
    INK_LEVEL,
    INK_NOISE_MARGIN,
    INK_PERCENTILE,
    INPUT_MARGIN,
    INPUT_PX,
    LETTER_CLASSES,
    META_PATH,
    MODEL_PATH,
    SPECK_FRACTION,
)
from companion.vision.sheet.letter_ensemble import (
    EnsembleMean,
    EnsembleSettings,
    Ranked,
    ensemble_scores,
    softmax_restricted,
)


def ink_image(crop_gray: np.ndarray) -> NDArray[np.float32]:
    """Ink darkness in [0, 1] with uneven light divided out and contrast stretched."""
    gray = np.asarray(crop_gray)
    if gray.ndim == 3:
        gray = cv2.cvtColor(gray, cv2.COLOR_BGR2GRAY)
    g = gray.astype(np.float32)
    h, w = g.shape
    k = max(BG_KERNEL_MIN_PX, int(min(h, w) * BG_KERNEL_FRACTION)) | 1
    # paper brightness: a max filter wider than any pen stroke, then smoothed (square
    # kernels: separable, hence fast)
    bg = cv2.blur(cv2.dilate(g, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))), (k, k))
    ink = np.clip(1.0 - g / np.maximum(bg, 1.0), 0.0, 1.0)
    floor = _quantile(ink, 50.0) + INK_NOISE_MARGIN  # paper grain and noise
    ink = np.clip(ink - floor, 0.0, 1.0)
    return restretch(ink)


def _quantile(values: np.ndarray, percent: float) -> float:
    """Percentile of values in [0, 1] to 1/255, from a histogram (np.percentile is slow)."""
    q = (np.clip(values, 0.0, 1.0) * 255.0 + 0.5).astype(np.uint8)
    cdf = np.cumsum(np.bincount(q.ravel(), minlength=256))
    return float(np.searchsorted(cdf, cdf[-1] * percent / 100.0)) / 255.0


def erase_edge_lines(ink: np.ndarray) -> None:
    """Erase printed border lines that run along the crop's edges, in place."""
    h, w = ink.shape
    on = ink > EDGE_INK_LEVEL
    for arr, cover in ((ink, on.mean(axis=1)), (ink.T, on.mean(axis=0))):
        n = len(cover)
        band = max(1, int(round(n * EDGE_BAND_FRACTION)))
        for i in [*range(band), *range(n - band, n)]:
            if cover[i] > EDGE_LINE_COVER:  # a line across the crop, and its blurred rims
                lo, hi = i, i + 1
                while lo > 0 and cover[lo - 1] > EDGE_RIM_COVER:
                    lo -= 1
                while hi < n and cover[hi] > EDGE_RIM_COVER:
                    hi += 1
                arr[lo:hi] = 0


def restretch(ink: np.ndarray) -> NDArray[np.float32]:
    """Stretch again once dark border lines are gone, so faint pencil next to them counts."""
    top = _quantile(ink, INK_PERCENTILE)
    return np.asarray(np.clip(ink / max(top, INK_FLOOR), 0.0, 1.0), np.float32)


def ink_box(ink: np.ndarray) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1) around the writing, specks ignored; None when there is no ink."""
    on = (ink > INK_LEVEL).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(on, connectivity=8)
    if n <= 1:
        return None
    areas = stats[1:, cv2.CC_STAT_AREA]
    keep = np.nonzero(areas >= SPECK_FRACTION * areas.max())[0] + 1
    inner = [k for k in keep if not _edge_sliver(stats[k], on.shape)]
    if inner:  # leftover print at the rim (cell corners) would shrink the letter
        keep = np.array(inner)
    x0 = int(stats[keep, cv2.CC_STAT_LEFT].min())
    y0 = int(stats[keep, cv2.CC_STAT_TOP].min())
    x1 = int((stats[keep, cv2.CC_STAT_LEFT] + stats[keep, cv2.CC_STAT_WIDTH]).max())
    y1 = int((stats[keep, cv2.CC_STAT_TOP] + stats[keep, cv2.CC_STAT_HEIGHT]).max())
    return x0, y0, x1, y1


def _edge_sliver(stat: np.ndarray, shape: tuple[int, ...]) -> bool:
    """A blob that touches the crop's edge and stays in the band along it: print, not ink."""
    h, w = shape[:2]
    x, y = int(stat[cv2.CC_STAT_LEFT]), int(stat[cv2.CC_STAT_TOP])
    x1, y1 = x + int(stat[cv2.CC_STAT_WIDTH]), y + int(stat[cv2.CC_STAT_HEIGHT])
    bx, by = w * EDGE_BAND_FRACTION, h * EDGE_BAND_FRACTION
    return ((x == 0 and x1 <= bx) or (x1 == w and x >= w - bx)
            or (y == 0 and y1 <= by) or (y1 == h and y >= h - by))


def preprocess(crop_gray: np.ndarray) -> NDArray[np.float32]:
    """Network input (INPUT_PX square, ink 1 on 0) from a cell's writing-area crop."""
    crop = np.asarray(crop_gray)
    if crop.ndim not in (2, 3) or crop.shape[0] < 4 or crop.shape[1] < 4:
        raise InputError(f"letter crop must be an image of at least 4x4 px, got {crop.shape}")
    ink: np.ndarray = ink_image(crop)
    erase_edge_lines(ink)
    ink = restretch(ink)
    box = ink_box(ink)
    if box is None:
        return np.zeros((INPUT_PX, INPUT_PX), np.float32)
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0) * INPUT_MARGIN + 2
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    scale = INPUT_PX / side
    m = np.array([[scale, 0, INPUT_PX / 2 - scale * cx],
                  [0, scale, INPUT_PX / 2 - scale * cy]], np.float32)
    if scale < 1:  # shrink with an antialiasing blur first
        ink = cv2.GaussianBlur(ink, (0, 0), 0.5 / scale)
    out = cv2.warpAffine(ink, m, (INPUT_PX, INPUT_PX), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return np.asarray(out, np.float32)


@dataclass
class LetterMember:
    """An extra network of the letter ensemble and the temperature of its own logits."""

    net: cv2.dnn.Net
    temperature: float

    def logits(self, inputs: NDArray[np.float32]) -> NDArray[np.float32]:
        return _forward(self.net, inputs)


def _forward(net: cv2.dnn.Net, inputs: NDArray[np.float32]) -> NDArray[np.float32]:
    if len(inputs) == 0:
        return np.zeros((0, len(LETTER_CLASSES)), np.float32)
    net.setInput(np.ascontiguousarray(inputs[:, None, :, :], np.float32))
    out = net.forward()
    return np.asarray(out, np.float32).reshape(len(inputs), len(LETTER_CLASSES))


@dataclass
class LetterClassifier:
    """The shipped letter CNN (and the ensemble's other members, where letters.json names
    any, companion/vision/sheet/letter_ensemble.py). Build it with :meth:`load`; reuse one
    instance."""

    net: cv2.dnn.Net
    temperature: float
    classes: tuple[str, ...]
    meta: dict[str, object] = field(default_factory=dict)
    members: tuple[LetterMember, ...] = ()
    ensemble: EnsembleSettings | None = None

    @classmethod
    def load(cls, path: str | Path | None = None, members: bool = True) -> LetterClassifier:
        """Load the ONNX model and its JSON metadata (same name, ``.json``); with
        ``members``, also the ensemble members its metadata names (files beside it)."""
        model = Path(path) if path is not None else MODEL_PATH
        meta_path = model.with_suffix(".json") if path is not None else META_PATH
        loaded = load_onnx_model(model, meta_path, LETTER_CLASSES, INPUT_PX, "letter")
        extra, settings = _load_members(model.parent, loaded.meta) if members else ((), None)
        return cls(net=loaded.net, temperature=loaded.temperature, classes=LETTER_CLASSES,
                   meta=loaded.meta, members=extra, ensemble=settings)

    def logits(self, inputs: NDArray[np.float32]) -> NDArray[np.float32]:
        """Raw network scores (n, classes) for preprocessed inputs (n, INPUT_PX, INPUT_PX)."""
        return _forward(self.net, inputs)

    def scores(self, inputs: NDArray[np.float32], alloweds: Sequence[Sequence[str]],
               logits: NDArray[np.float32] | None = None) -> NDArray[np.float64]:
        """Calibrated log-probabilities (n, classes), to read with temperature 1: the first
        network's, or the ensemble's where that one is unsure of the field's letter.
        ``logits``: the first network's, when already computed."""
        first = self.logits(inputs) if logits is None else logits
        settings = self.ensemble or EnsembleSettings(1.0, 1.0)
        return ensemble_scores(inputs, alloweds, first,
                               [self.temperature, *(m.temperature for m in self.members)],
                               [m.logits for m in self.members], settings)

    def rank(self, inputs: NDArray[np.float32], alloweds: Sequence[Sequence[str]],
             logits: NDArray[np.float32] | None = None) -> list[Ranked]:
        """Ranked letters of each field from :meth:`scores`."""
        scores = self.scores(inputs, alloweds, logits)
        return [softmax_restricted(sc, al, 1.0) for sc, al in zip(scores, alloweds, strict=True)]

    def logits_and_features(self, inputs: NDArray[np.float32]
                            ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """Logits and the network's last hidden layer (the flattened convolution features,
        one row per input): how the network itself sees a letter, for comparing two."""
        names = list(self.net.getUnconnectedOutLayersNames())
        if len(names) < 2 or len(inputs) == 0:  # an older model: logits only
            return self.logits(inputs), np.zeros((len(inputs), 0), np.float32)
        blob = np.ascontiguousarray(inputs[:, None, :, :], np.float32)
        self.net.setInput(blob)
        out, feats = self.net.forward(names[:2])
        lg = np.asarray(out, np.float32).reshape(len(inputs), len(self.classes))
        return lg, np.asarray(feats, np.float32).reshape(len(inputs), -1)

    def classify(self, crop_gray: np.ndarray, allowed: Sequence[str]) -> Ranked:
        """Ranked (letter, probability) among ``allowed`` for one writing-area crop."""
        return self.classify_many([crop_gray], [allowed])[0]

    def classify_many(self, crops: Sequence[np.ndarray],
                      alloweds: Sequence[Sequence[str]]) -> list[Ranked]:
        """:meth:`classify` for many crops in one network pass (a second pass of the other
        ensemble members over the doubtful ones)."""
        if len(crops) != len(alloweds):
            raise InputError("need one allowed-letters list per crop")
        if not crops:
            return []
        return self.rank(np.stack([preprocess(c) for c in crops]), alloweds)


def _load_members(folder: Path, meta: dict[str, object]
                  ) -> tuple[tuple[LetterMember, ...], EnsembleSettings | None]:
    """The members ``meta["ensemble"]`` names (ONNX files in ``folder``, each with its JSON)."""
    spec = meta.get("ensemble")
    if not isinstance(spec, dict) or not spec.get("members"):
        return (), None
    try:
        settings = EnsembleSettings(float(spec["doubt_below"]), float(spec["temperature"]),
                                    EnsembleMean(str(spec.get("mean", "probability"))))
        names = [str(n) for n in spec["members"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"letter model metadata has a bad ensemble entry: {exc}") from None
    members = []
    for name in names:
        path = folder / name
        got = load_onnx_model(path, path.with_suffix(".json"), LETTER_CLASSES, INPUT_PX,
                              "letter ensemble member")
        members.append(LetterMember(got.net, got.temperature))
    return tuple(members), settings

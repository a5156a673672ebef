"""Find a printed sheet in a photo: corner markers, QR label, homography to a flat sheet.

Markers are searched on a downscaled copy (fast) and their corners refined at full
resolution (accurate). Each ArUco id names its corner, so any rotation of the photo works.
The QR code says which sheet, variant and paper it is; it is read from the rectified page
using where each known sheet prints it, and from the whole photo as a fallback.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

import cv2
import numpy as np

import layouts
from companion.errors import CompanionError, ImageError
from companion.paper.model import (
    CORNER_MARKER_IDS,
    QR_PREFIX,
    SheetGeometry,
    SheetLabel,
)
from companion.vision.constants import (
    CORNER_REFINE_HALF_WINDOW_PX,
    DETECT_LONG_SIDE_PX,
    IDENTIFY_DIFFER_GREY,
    IDENTIFY_MIN_MARGIN,
    IDENTIFY_MIN_NCC,
    IDENTIFY_PX_PER_MM,
    IDENTIFY_RESIDUAL_SLACK_MM,
    MAX_MARKER_RESIDUAL_MM,
    MAX_PLACES_PER_MARKER,
    QR_MARGIN_MM,
    QR_PX_PER_MM,
    RECTIFIED_PX_PER_MM,
)
from companion.vision.shrink import shrink

DELICIOUS_SHEETS = ("delicious-combo", "delicious-garden", "delicious-play")
PAPERS = ("letter", "a4")
CORNER_NAMES = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}

SHEET_VARIANTS = ("A", "B")

GeometryFn = Callable[[str, str, str, int], SheetGeometry]  # sheet, paper, variant, version
BlankFn = Callable[[SheetGeometry, float], np.ndarray]


@cache
def layout_geometry(name: str, paper: str, variant: str,
                    version: int = layouts.LAYOUT_VERSION) -> SheetGeometry:
    """A layout's geometry, built once per process: building it draws the whole sheet
    (QR code included), which cost a 12 MP read a tenth of its time on every photo.
    ``version``: the layout the sheet was printed from (its QR code says)."""
    return layouts.geometry(name, paper=paper, variant=variant, version=version)


@dataclass(frozen=True, eq=False)
class Registration:
    """A sheet found in a photo: what it is and how photo pixels map onto it."""

    geometry: SheetGeometry
    label: SheetLabel
    homography: np.ndarray  # photo px -> rectified px (3x3)
    px_per_mm: float
    markers_found: tuple[int, ...]
    residual_mm: float  # mean marker-corner reprojection error on the sheet
    marker_corners: dict[int, np.ndarray] = field(default_factory=dict)  # photo px, 4x2
    identified_by: str = "qr"  # or "layout" when the QR was unreadable

    @property
    def size_px(self) -> tuple[int, int]:
        w, h = self.geometry.page_mm
        return (round(w * self.px_per_mm), round(h * self.px_per_mm))

    def photo_px_per_mm(self, x_mm: float, y_mm: float) -> float:
        """How many photo pixels cover a millimetre of paper at (x_mm, y_mm): detail there."""
        inv = np.linalg.inv(self.homography)
        p = np.array([x_mm * self.px_per_mm, y_mm * self.px_per_mm, 1.0])
        q = inv @ p
        w = q[2]
        # Jacobian of the projective map at p, scaled to mm.
        jac = (inv[:2, :2] * w - np.outer(q[:2], inv[2, :2])) / (w * w)
        return float(np.sqrt(abs(np.linalg.det(jac)))) * self.px_per_mm

    def rectify(self, image: np.ndarray) -> np.ndarray:
        """The whole sheet, flat, at ``px_per_mm`` (grey or colour like ``image``)."""
        return cv2.warpPerspective(
            image, self.homography, self.size_px, flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )


# ---- markers ---------------------------------------------------------------------------------


def _detector(adaptive_wide: bool) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    if adaptive_wide:
        # Shadows and uneven light: try more, and larger, thresholding windows.
        params.adaptiveThreshWinSizeMin = 3
        params.adaptiveThreshWinSizeMax = 53
        params.adaptiveThreshWinSizeStep = 6
        params.adaptiveThreshConstant = 5
        params.minMarkerPerimeterRate = 0.01
        params.polygonalApproxAccuracyRate = 0.05
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    return cv2.aruco.ArucoDetector(dictionary, params)


def _collect(
    corners: Sequence[np.ndarray], ids: np.ndarray | None, scale: float,
    seen: dict[int, list[np.ndarray]],
) -> None:
    """Every corner-marker detection by id, in full-resolution coordinates. A marker seen
    again (another pass, another scale) is kept once, at its largest; one id seen at two
    places is kept at both (a second sheet in the photo, or a neighbour's corner)."""
    if ids is None:
        return
    for c, i in zip(corners, ids.ravel(), strict=True):
        mid = int(i)
        if mid not in CORNER_MARKER_IDS:
            continue
        pts = c.reshape(4, 2).astype(np.float32) / scale
        places = seen.setdefault(mid, [])
        for k, q in enumerate(places):
            if _same_place(q, pts):
                if cv2.contourArea(pts) > cv2.contourArea(q):
                    places[k] = pts
                break
        else:
            places.append(pts)


def _same_place(a: np.ndarray, b: np.ndarray) -> bool:
    """Do two detections show one marker? Their centres lie within a marker's side."""
    side = math.sqrt(max(cv2.contourArea(a), cv2.contourArea(b), 1.0))
    return math.dist(a.mean(axis=0), b.mean(axis=0)) < side


def _search(gray: np.ndarray, search_blind: bool) -> tuple[dict[int, list[np.ndarray]], float]:
    """Every corner-marker detection by id (unrefined), and the scale searched at.

    When the first, plain search misses some ids, harder ones follow (shadows, small
    markers); ``search_blind=False`` skips those when it found none at all.
    """
    h, w = gray.shape[:2]
    scale = min(1.0, DETECT_LONG_SIDE_PX / max(h, w))
    small = shrink(gray, scale) if scale < 1.0 else gray
    seen: dict[int, list[np.ndarray]] = {}
    corners, ids, _ = _detector(False).detectMarkers(small)
    _collect(corners, ids, scale, seen)
    if not seen and not search_blind:
        return seen, scale
    if len(seen) < 4:
        clahe = cv2.createCLAHE(clipLimit=3.0, tileGridSize=(8, 8)).apply(small)
        for img in (clahe, small):
            corners, ids, _ = _detector(True).detectMarkers(img)
            _collect(corners, ids, scale, seen)
            if len(seen) == 4:
                break
    if len(seen) < 4 and scale < 0.75:
        # Small sheet in a big frame: markers may need more pixels than the copy holds.
        mid_scale = min(1.0, 2 * scale)
        mid = cv2.resize(gray, None, fx=mid_scale, fy=mid_scale, interpolation=cv2.INTER_AREA)
        corners, ids, _ = _detector(True).detectMarkers(mid)
        _collect(corners, ids, mid_scale, seen)
    return seen, scale


def find_markers(gray: np.ndarray, search_blind: bool = True) -> dict[int, np.ndarray]:
    """Corner markers by id -> their 4 corners (photo px, ArUco order), at most one each:
    the largest where an id shows at two places.

    ``search_blind=False`` skips the harder searches when a first look finds no marker at
    all: for photos that need not show a sheet (dice on a table), where they would cost
    time for nothing.
    """
    seen, scale = _search(gray, search_blind)
    found = _largest(seen)
    if scale < 1.0 and found:
        _refine(gray, found)
    return found


def _largest(seen: dict[int, list[np.ndarray]]) -> dict[int, np.ndarray]:
    """Each id at the largest of the places it shows."""
    return {i: max(q, key=cv2.contourArea) for i, q in seen.items()}


def find_sheet_markers(
    gray: np.ndarray, candidates: Sequence[SheetGeometry]
) -> dict[int, np.ndarray]:
    """The corner markers of the one sheet in a photo (``candidates``: the layouts it may
    be). A neighbour's corner at the photo's edge is left out where the markers fit a
    sheet without it; a photo holding two sheets is refused (ImageError), since reading
    one of them would drop a player without a word."""
    seen, scale = _search(gray, True)
    found = _one_sheet(seen, candidates)
    left = {i for i, q in seen.items() if any(p is not found.get(i) for p in q)}
    if len(left) >= 3:
        raise ImageError(
            "this photo shows more than one sheet; photograph each sheet on its own"
        )
    if scale < 1.0 and found:
        _refine(gray, found)
    return found


def _one_sheet(
    seen: dict[int, list[np.ndarray]], candidates: Sequence[SheetGeometry]
) -> dict[int, np.ndarray]:
    """One detection per id that fit one flat sheet together: all four ids where some
    choice of them fits, else three; the largest of each id where nothing fits (the
    caller's own checks then say what is wrong)."""
    largest = _largest(seen)
    if len(seen) < 3 or not candidates or all(len(q) == 1 for q in seen.values()):
        return largest  # the common case (each marker seen once) as it always was

    def fit(choice: dict[int, np.ndarray]) -> float:
        best = math.inf
        for geo in candidates:
            try:
                best = min(best, marker_homography(choice, geo, 1.0)[1])
            except ImageError:
                continue
        return best

    ids = sorted(seen)
    for n in range(len(ids), 2, -1):
        fits = [
            (fit(choice), choice)
            for keep in itertools.combinations(ids, n)
            for pick in itertools.product(*(seen[i][:MAX_PLACES_PER_MARKER] for i in keep))
            for choice in [dict(zip(keep, pick, strict=True))]
        ]
        res, choice = min(fits, key=lambda f: f[0])
        if res <= MAX_MARKER_RESIDUAL_MM:
            return choice
    return largest


def _refine(gray: np.ndarray, found: dict[int, np.ndarray]) -> None:
    """Sub-pixel corners at full resolution; keep the coarse ones if refinement wanders."""
    pts = np.concatenate([found[i] for i in sorted(found)]).reshape(-1, 1, 2).copy()
    before = pts.copy()
    win = CORNER_REFINE_HALF_WINDOW_PX
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    cv2.cornerSubPix(gray, pts, (win, win), (-1, -1), crit)
    moved = np.linalg.norm((pts - before).reshape(-1, 2), axis=1)
    pts = np.where((moved > win)[:, None, None], before, pts)
    for k, i in enumerate(sorted(found)):
        found[i] = pts[4 * k: 4 * k + 4].reshape(4, 2)


def _recover_missing(
    gray: np.ndarray, found: dict[int, np.ndarray], candidates: Sequence[SheetGeometry]
) -> None:
    """With three markers, look again where the fourth must be, enlarged (in place).

    A far, steeply tilted corner can hold a marker too small for the whole-image search.
    """
    missing = [i for i in CORNER_MARKER_IDS if i not in found]
    if len(missing) != 1 or not candidates:
        return
    mid = missing[0]
    h, w = gray.shape[:2]
    for geo in candidates[:1]:  # every sheet puts its markers alike; one layout is enough
        ref = marker_corners_mm(geo)
        if mid not in ref:
            return
        hom, _ = marker_homography(found, geo, 1.0)  # photo px -> mm
        inv = np.linalg.inv(hom)
        quad = cv2.perspectiveTransform(ref[mid].reshape(-1, 1, 2), inv).reshape(4, 2)
        side = float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
        pad = 1.5 * side
        x0, y0 = max(0, int(quad[:, 0].min() - pad)), max(0, int(quad[:, 1].min() - pad))
        x1, y1 = min(w, int(quad[:, 0].max() + pad)), min(h, int(quad[:, 1].max() + pad))
        if x1 - x0 < 8 or y1 - y0 < 8:
            return
        up = max(1.0, min(4.0, 60.0 / max(side, 1.0)))
        patch = cv2.resize(gray[y0:y1, x0:x1], None, fx=up, fy=up, interpolation=cv2.INTER_CUBIC)
        for adaptive in (False, True):
            corners, ids, _ = _detector(adaptive).detectMarkers(patch)
            got: dict[int, list[np.ndarray]] = {}
            _collect(corners, ids, up, got)
            if mid in got:
                found[mid] = max(got[mid], key=cv2.contourArea) + np.array([x0, y0], np.float32)
                return


def marker_corners_mm(geometry: SheetGeometry) -> dict[int, np.ndarray]:
    """Each marker's outer corners on paper (mm), in ArUco order TL, TR, BR, BL."""
    out = {}
    for m in geometry.markers:
        cx, cy = m.center_mm
        s = m.size_mm / 2
        out[m.id] = np.array(
            [[cx - s, cy - s], [cx + s, cy - s], [cx + s, cy + s], [cx - s, cy + s]], np.float32
        )
    return out


def wrong_sheet(found: str, expected: Sequence[str]) -> str:
    """Which sheet a photo shows, when it is not one this reader reads, in players' words:
    the sheet's title and where to read it instead, never its id."""
    from companion.games.registry import SHEETS_BY_ID, sheet_game

    def game_of(sheet: str) -> str:
        try:
            return sheet_game(sheet).title
        except CompanionError:
            return sheet

    wanted = " or ".join(dict.fromkeys(f"{game_of(s)} sheet" for s in expected))
    info = SHEETS_BY_ID.get(found)
    if info is None:
        return f"this photo shows a sheet this version does not know ({found}), not a {wanted}"
    if found.endswith("-scorepad"):
        where = "type its scores on the Pads page"
    elif game_of(found) == "Diced Veggies":
        where = "read it on the Dice page (or companion dice read)"
    else:  # a sheet of the same game that this reader does not take
        titles = [SHEETS_BY_ID[s].title if s in SHEETS_BY_ID else s for s in expected]
        return f"That's the {info.title}; this reads only the {' or the '.join(titles)}"
    return f"That's the {info.title}, not a {wanted}: {where}"


def _missing_markers_error(found: dict[int, np.ndarray], shape: tuple[int, ...]) -> ImageError:
    n = len(found)
    if n == 0:
        return ImageError(
            "found 0 of 4 corner markers; photograph a whole companion sheet, flat, in focus "
            "and well lit"
        )
    names = ", ".join(CORNER_NAMES[i] for i in sorted(found))
    missing = [i for i in CORNER_MARKER_IDS if i not in found]
    h, w = shape[:2]
    near_edge = any(
        float(c[:, 0].min()) < 0.04 * w or float(c[:, 0].max()) > 0.96 * w
        or float(c[:, 1].min()) < 0.04 * h or float(c[:, 1].max()) > 0.96 * h
        for c in found.values()
    )
    hint = (
        "step back so the whole sheet is in the frame"
        if near_edge or n < 3
        else f"uncover the {', '.join(CORNER_NAMES[i] for i in missing)} corner and avoid glare"
    )
    return ImageError(f"found {n} of 4 corner markers ({names}); {hint}")


# ---- QR label --------------------------------------------------------------------------------


def _decode_text(img: np.ndarray) -> str:
    """QR text in a grey image, or "". zxing-cpp reads small, blurred codes far more often
    than OpenCV's detector (measured: 4 vs 12 misses in 40 hard photos) and 30x faster;
    OpenCV remains the fallback where zxing-cpp is not installed."""
    try:
        import zxingcpp
    except ImportError:
        pass
    else:
        qr_only = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
        for code in zxingcpp.read_barcodes(img, formats=qr_only):
            if code.text.startswith(QR_PREFIX):
                return str(code.text)
        return ""
    try:
        text, _, _ = cv2.QRCodeDetector().detectAndDecode(img)
    except cv2.error:
        text = ""
    return text if text.startswith(QR_PREFIX) else ""


def sheet_label(grey: np.ndarray) -> SheetLabel | None:
    """The label of whichever of our sheets shows in a grey image, if its QR reads."""
    return _label(_decode_text(grey))


def _label(text: str) -> SheetLabel | None:
    if not text:
        return None
    try:
        return SheetLabel.decode(text)
    except CompanionError:
        return None


def marker_homography(
    found: dict[int, np.ndarray], geometry: SheetGeometry, px_per_mm: float
) -> tuple[np.ndarray, float]:
    """Photo px -> sheet px (at ``px_per_mm``) from all visible marker corners, and the mean
    residual in mm. Two markers (eight corners) only fix an affine map, which is fitted
    then; fewer, or corners that fit no sheet, raise ImageError."""
    ref = marker_corners_mm(geometry)
    ids = [i for i in sorted(found) if i in ref]
    if len(ids) < 2:
        raise ImageError(f"found {len(ids)} of 4 corner markers; at least 2 are needed")
    src = np.concatenate([found[i] for i in ids]).astype(np.float32)
    dst = np.concatenate([ref[i] for i in ids]).astype(np.float32) * px_per_mm
    if len(ids) >= 3:
        hom, _ = cv2.findHomography(src, dst, 0)
    else:
        affine, _ = cv2.estimateAffine2D(src, dst)
        hom = None if affine is None else np.vstack([affine, [0.0, 0.0, 1.0]])
    if hom is None:
        raise ImageError("the corner markers do not form a sheet; retake the photo")
    proj = cv2.perspectiveTransform(src.reshape(-1, 1, 2), hom).reshape(-1, 2)
    residual = float(np.linalg.norm(proj - dst, axis=1).mean()) / px_per_mm
    return hom, residual


def _qr_from_candidates(
    gray: np.ndarray, found: dict[int, np.ndarray], candidates: Sequence[SheetGeometry]
) -> SheetLabel | None:
    """Read the QR where each candidate layout prints it, trying each distinct spot once,
    at a few resolutions (a decoder that fails at one scale often succeeds at another)."""
    spots: dict[tuple[float, ...], SheetGeometry] = {}
    for geo in candidates:
        if geo.qr_box_mm is not None:
            key = (*geo.page_mm, *geo.qr_box_mm.as_list(),
                   *(v for m in geo.markers for v in (*m.center_mm, m.size_mm)))
            spots.setdefault(key, geo)
    for ppm in QR_PX_PER_MM:
        for geo in spots.values():
            assert geo.qr_box_mm is not None
            hom, _ = marker_homography(found, geo, ppm)
            b = geo.qr_box_mm
            x0, y0 = (b.x - QR_MARGIN_MM) * ppm, (b.y - QR_MARGIN_MM) * ppm
            shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
            size = (round((b.w + 2 * QR_MARGIN_MM) * ppm), round((b.h + 2 * QR_MARGIN_MM) * ppm))
            crop = cv2.warpPerspective(gray, shift @ hom, size, flags=cv2.INTER_CUBIC,
                                       borderValue=255)
            label = _label(_decode_text(crop))
            if label is not None:
                return label
    return None


def _ncc(a: np.ndarray, b: np.ndarray, mask: np.ndarray | None = None) -> float:
    if mask is not None:
        a, b = a[mask], b[mask]
    if a.size < 16:
        return -1.0
    a = a - a.mean()
    b = b - b.mean()
    return float((a * b).sum() / max(float(np.sqrt((a * a).sum() * (b * b).sum())), 1e-6))


def _identify_by_layout(
    gray: np.ndarray, found: dict[int, np.ndarray], candidates: Sequence[SheetGeometry],
    blank_fn: BlankFn,
) -> SheetGeometry | None:
    """Without a QR: which blank sheet does the flattened photo look like?

    The markers' fit already tells the page shape (a wrong paper size or orientation leaves
    a residual of millimetres). Among sheets of the right shape, the flattened photo is
    compared with each blank; two close ones (variants A and B look alike) are compared
    again only where their blanks differ. Only a clear winner is accepted.
    """
    ppm = IDENTIFY_PX_PER_MM
    fits = [(marker_homography(found, geo, ppm), geo) for geo in candidates]
    best_res = min(res for (_, res), _ in fits)
    flats: list[tuple[np.ndarray, np.ndarray, SheetGeometry]] = []
    for (hom, res), geo in fits:
        if res > 2 * best_res + IDENTIFY_RESIDUAL_SLACK_MM:
            continue
        size = (round(geo.page_mm[0] * ppm), round(geo.page_mm[1] * ppm))
        flat = cv2.warpPerspective(gray, hom, size, flags=cv2.INTER_AREA, borderValue=255)
        blank = blank_fn(geo, ppm)
        if blank.shape[:2] != flat.shape[:2]:
            blank = cv2.resize(blank, size, interpolation=cv2.INTER_AREA)
        flats.append((
            cv2.GaussianBlur(flat.astype(np.float32), (0, 0), 1.0),
            cv2.GaussianBlur(blank.astype(np.float32), (0, 0), 1.0),
            geo,
        ))
    if not flats:
        return None
    scored = sorted(((_ncc(f, t), k) for k, (f, t, _) in enumerate(flats)), reverse=True)
    top, k1 = scored[0]
    if top < IDENTIFY_MIN_NCC:
        return None
    if len(scored) == 1 or top - scored[1][0] >= IDENTIFY_MIN_MARGIN:
        return flats[k1][2]
    k2 = scored[1][1]
    f1, t1, g1 = flats[k1]
    f2, t2, g2 = flats[k2]
    if f1.shape != f2.shape:
        return None
    differ = np.abs(t1 - t2) > IDENTIFY_DIFFER_GREY
    n1, n2 = _ncc(f1, t1, differ), _ncc(f2, t2, differ)
    if abs(n1 - n2) < IDENTIFY_MIN_MARGIN:
        return None
    return g1 if n1 > n2 else g2


def _layout_blank(geo: SheetGeometry, px_per_mm: float) -> np.ndarray:
    img = layouts.render_image(geo.sheet, paper=geo.paper, variant=geo.variant,
                               dpi=round(px_per_mm * 25.4), bw=True, code="",
                               version=geo.version)
    return np.asarray(img.convert("L"), dtype=np.uint8)


def candidate_geometries(
    sheets: Sequence[str] = DELICIOUS_SHEETS, geometry_fn: GeometryFn = layout_geometry,
    variants: Sequence[str] = ("A",), every_version: bool = False,
) -> list[SheetGeometry]:
    """The sheets' layouts on each paper; ``every_version``: each older layout of a sheet
    too (to tell a sheet apart without its QR code, which names its version)."""
    return [geometry_fn(s, p, v, n) for s in sheets for p in PAPERS for v in variants
            for n in (layouts.layout_versions(s) if every_version
                      else (layouts.LAYOUT_VERSION,))]


def register(
    bgr: np.ndarray,
    sheets: Sequence[str] = DELICIOUS_SHEETS,
    geometry_fn: GeometryFn = layout_geometry,
    px_per_mm: float = RECTIFIED_PX_PER_MM,
    blank_fn: BlankFn | None = None,
) -> Registration:
    """Locate one of ``sheets`` in a photo; ImageError says what was missing and what to do.

    ``blank_fn`` renders a blank sheet (grey) at a px/mm, used to recognise a sheet whose QR
    code cannot be read; the player code is then unknown ("").
    """
    blank_fn = blank_fn or _layout_blank
    gray = bgr if bgr.ndim == 2 else cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    found = find_sheet_markers(gray, candidate_geometries(sheets, geometry_fn))
    if len(found) == 3:
        _recover_missing(gray, found, candidate_geometries(sheets[:1], geometry_fn))
    if len(found) < 3:
        raise _missing_markers_error(found, gray.shape)
    label = _qr_from_candidates(gray, found, candidate_geometries(sheets, geometry_fn))
    if label is None:
        label = _label(_decode_text(gray))
    identified_by = "qr"
    if label is None:
        known = candidate_geometries(sheets, geometry_fn, SHEET_VARIANTS, every_version=True)
        geo = _identify_by_layout(gray, found, known, blank_fn)
        if geo is None:
            raise ImageError(
                f"found {len(found)} of 4 corner markers but could not read the sheet's QR "
                "code; keep it in focus, uncovered and out of glare"
            )
        label = geo.label("")
        identified_by = "layout"
    if label.sheet not in sheets:
        raise ImageError(wrong_sheet(label.sheet, sheets))
    if not 1 <= label.version <= layouts.LAYOUT_VERSION:
        raise ImageError(
            f"this sheet was printed from layout version {label.version}; this reader knows "
            f"versions 1 to {layouts.LAYOUT_VERSION}; update companion or reprint the sheet"
        )
    try:
        geometry = geometry_fn(label.sheet, label.paper, label.variant, label.version)
    except CompanionError as exc:
        raise ImageError(f"the sheet's QR code names an unknown layout: {exc}") from None
    hom, residual = marker_homography(found, geometry, px_per_mm)
    if residual > MAX_MARKER_RESIDUAL_MM:
        raise ImageError(
            "the corner markers do not line up with a flat sheet; flatten the paper and retake"
        )
    return Registration(
        geometry, label, hom, px_per_mm, tuple(sorted(found)), residual, dict(found),
        identified_by,
    )

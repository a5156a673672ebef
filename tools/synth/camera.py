"""A virtual phone camera: turns a flat page image into a believable photo of it.

The page lies on a table (wood, cloth or a plain top of random colour) and is seen by a
pinhole camera: tilted, rotated any way, near or far, a little out of focus, under uneven
light with a soft shadow of a hand or phone across it, then sensor noise and JPEG. Every
random choice comes from the numpy Generator given, so a seed always gives the same photo.
Heavy pixel work happens at a fraction of the resolution wherever the result is smooth
(backgrounds, light, shadows), so a 12 MP photo takes about a second to make.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from companion.errors import InputError
from tools.synth import constants as K
from tools.synth.page_bend import Bend, BendGeometry, BendKind, place

Range = tuple[float, float]

# Backgrounds, light and shadows are computed at this fraction of the frame and scaled up.
_LOW_RES_FACTOR = 4
_LIGHT_RES_FACTOR = 8
_NOISE_TILE_PX = 1024
_REF_LONG_SIDE_PX = 4000  # blur sizes in constants are given for this frame width
_PAGE_BEND_FRACTION_PER_MM = 1.0 / 279.4  # bend is given in mm of a letter-size long side
_DROP_SHADOW_FRACTION_PER_MM = 1.0 / 279.4


@dataclass(frozen=True)
class CameraOptions:
    """Ranges the camera samples from; narrow a range to pin a property down."""

    size_px: tuple[int, int] = K.PHOTO_SIZE_PX
    portrait_chance: float = K.PORTRAIT_CHANCE
    tilt_deg: Range = K.TILT_DEG
    rotation_deg: Range = K.ROTATION_DEG
    # When set, the sheet's share of the frame area is drawn from this range and decides the
    # span; ``fill`` is used only when it is None.
    sheet_area: Range | None = K.SHEET_AREA_FRACTION
    fill: Range = K.FILL_FRACTION
    focal_length: Range = K.FOCAL_LENGTH_FRAMES
    lens_blur_sigma_px: Range = K.LENS_BLUR_SIGMA_PX
    motion_blur_chance: float = K.MOTION_BLUR_CHANCE
    motion_blur_px: Range = K.MOTION_BLUR_LENGTH_PX
    light_gradient: Range = K.LIGHT_GRADIENT
    vignette: Range = K.VIGNETTE
    shadow_chance: float = K.SHADOW_CHANCE
    shadow_depth: Range = K.SHADOW_DEPTH
    shadow_softness: Range = K.SHADOW_SOFTNESS_FRAMES
    paper_brightness: Range = K.PAPER_BRIGHTNESS
    paper_warmth: Range = K.PAPER_WARMTH
    exposure: Range = K.EXPOSURE_GAIN
    noise_sigma: Range = K.SENSOR_NOISE_SIGMA
    jpeg_quality: tuple[int, int] = K.JPEG_QUALITY
    paper_bend_mm: Range = K.PAPER_BEND_MM
    drop_shadow_mm: Range = K.DROP_SHADOW_MM
    backgrounds: tuple[str, ...] = K.BACKGROUNDS
    # Paper off the table (page_bend.py): how often, which kinds and how strongly. At 0 no
    # bend is drawn at all, so every photo of an unbent camera stays as it was.
    bend_chance: float = 0.0
    bend_kinds: tuple[str, ...] = tuple(BendKind)
    bend_reach_mm: Range = K.BEND_REACH_MM
    bend_angle_deg: Range = K.BEND_ANGLE_DEG
    bend_hinge_mm: Range = K.BEND_HINGE_MM

    def __post_init__(self) -> None:
        long_side, short_side = self.size_px
        if short_side < 64 or long_side < short_side:
            raise InputError(f"photo size must be (long, short) >= 64 px, got {self.size_px}")
        if not 0.05 <= self.fill[0] <= self.fill[1] <= 1.0:
            raise InputError(f"fill must lie in (0.05, 1], got {self.fill}")
        area = self.sheet_area
        if area is not None and not 0.02 <= area[0] <= area[1] <= 0.9:
            raise InputError(f"sheet_area must lie in [0.02, 0.9], got {self.sheet_area}")
        if not 0.0 <= self.tilt_deg[0] <= self.tilt_deg[1] < 80.0:
            raise InputError(f"tilt must lie in [0, 80) degrees, got {self.tilt_deg}")
        unknown = set(self.backgrounds) - set(K.BACKGROUNDS)
        if unknown or not self.backgrounds:
            raise InputError(f"backgrounds must be some of {K.BACKGROUNDS}, got {unknown}")
        kinds = set(self.bend_kinds) - set(BendKind)
        if kinds or (self.bend_chance > 0 and not self.bend_kinds):
            raise InputError(f"bend kinds must be some of {', '.join(BendKind)}, got {kinds}")
        if not 0.0 <= self.bend_angle_deg[0] <= self.bend_angle_deg[1] <= 75.0:
            raise InputError(f"bend angle must lie in [0, 75] degrees, got {self.bend_angle_deg}")

    def bent(self, setting: str) -> CameraOptions:
        """The same camera, every photo's paper bent as ``setting`` of K.BEND_SETTINGS says."""
        if setting not in K.BEND_SETTINGS:
            raise InputError(f"bend setting must be one of {', '.join(K.BEND_SETTINGS)}")
        kinds, reach, angle = K.BEND_SETTINGS[setting]
        return replace(self, bend_chance=1.0, bend_kinds=kinds, bend_reach_mm=reach,
                       bend_angle_deg=angle)

    def sized(self, long_side_px: int) -> CameraOptions:
        """The same camera with a smaller sensor (4:3), for fast tests."""
        return replace(self, size_px=(long_side_px, round(long_side_px * 3 / 4)))

    @classmethod
    def good_light(cls) -> CameraOptions:
        """A careful photo: nearly straight, sheet large, even light, no shadow."""
        return cls(
            tilt_deg=(0.0, 8.0),
            rotation_deg=(-4.0, 4.0),
            sheet_area=None,
            fill=(0.8, 0.9),
            lens_blur_sigma_px=(0.4, 0.8),
            motion_blur_chance=0.0,
            light_gradient=(0.0, 0.1),
            vignette=(0.0, 0.1),
            shadow_chance=0.0,
            noise_sigma=(1.5, 2.5),
            jpeg_quality=(88, 92),
            portrait_chance=0.0,
        )


@dataclass(frozen=True)
class Shot:
    """The properties one photo was taken with (sampled from ``CameraOptions``)."""

    width_px: int
    height_px: int
    tilt_deg: float
    tilt_axis_deg: float
    rotation_deg: float
    fill: float
    focal_length: float
    centre: tuple[float, float]  # sheet centre as a fraction of the frame (x, y)
    lens_blur_sigma_px: float
    motion_blur_px: float
    motion_blur_deg: float
    light_gradient: float
    light_direction_deg: float
    vignette: float
    light_colour_bgr: tuple[float, float, float]
    shadow_depth: float  # 0 when there is no shadow
    shadow_softness: float
    paper_tint_bgr: tuple[float, float, float]
    exposure: float
    noise_sigma: float
    jpeg_quality: int
    paper_bend_mm: float
    drop_shadow_mm: float
    background: str
    seed: int  # drives the textures, shadow shape and noise
    sheet_area: float = 0.0  # wanted share of the frame's area; 0 when ``fill`` was drawn
    bend: Bend | None = None  # paper lifted off the table, if any


@dataclass(frozen=True)
class Photo:
    """A finished photo: the JPEG bytes as a phone would save them, and where the page is."""

    jpeg: bytes
    corners_px: np.ndarray = field(repr=False)  # page TL, TR, BR, BL in photo pixels (4x2)
    shot: Shot

    def image(self) -> np.ndarray:
        """The photo decoded to BGR, as a reader would see it."""
        buf = np.frombuffer(self.jpeg, dtype=np.uint8)
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        assert img is not None
        return img


def _f32(a: object) -> np.ndarray:
    return np.asarray(a, dtype=np.float32)


def _uniform(rng: np.random.Generator, r: Range) -> float:
    return float(rng.uniform(r[0], r[1])) if r[1] > r[0] else float(r[0])


def sample_shot(rng: np.random.Generator, options: CameraOptions) -> Shot:
    """Draw every property of one photo; the draw order is fixed for reproducibility."""
    o = options
    long_side, short_side = o.size_px
    portrait = bool(rng.random() < o.portrait_chance)
    width, height = (short_side, long_side) if portrait else (long_side, short_side)
    px_scale = long_side / _REF_LONG_SIDE_PX
    motion = bool(rng.random() < o.motion_blur_chance)
    motion_px = _uniform(rng, o.motion_blur_px) * px_scale
    has_shadow = bool(rng.random() < o.shadow_chance)
    shadow_depth = _uniform(rng, o.shadow_depth)
    paper = _uniform(rng, o.paper_brightness)
    paper_warm = _uniform(rng, o.paper_warmth)
    warm = float(rng.uniform(0.0, 0.12))
    shot = Shot(
        width_px=width,
        height_px=height,
        tilt_deg=_uniform(rng, o.tilt_deg),
        tilt_axis_deg=float(rng.uniform(0.0, 180.0)),
        rotation_deg=_uniform(rng, o.rotation_deg),
        fill=_uniform(rng, o.fill),
        focal_length=_uniform(rng, o.focal_length),
        centre=(float(rng.random()), float(rng.random())),
        lens_blur_sigma_px=_uniform(rng, o.lens_blur_sigma_px) * px_scale,
        motion_blur_px=motion_px if motion else 0.0,
        motion_blur_deg=float(rng.uniform(0.0, 180.0)),
        light_gradient=_uniform(rng, o.light_gradient),
        light_direction_deg=float(rng.uniform(0.0, 360.0)),
        vignette=_uniform(rng, o.vignette),
        light_colour_bgr=(1.0 - warm, 1.0 - warm / 3.0, 1.0),
        shadow_depth=shadow_depth if has_shadow else 0.0,
        shadow_softness=_uniform(rng, o.shadow_softness),
        paper_tint_bgr=(paper * (1 - paper_warm), paper * (1 - paper_warm / 2), paper),
        exposure=_uniform(rng, o.exposure),
        noise_sigma=_uniform(rng, o.noise_sigma),
        jpeg_quality=int(rng.integers(o.jpeg_quality[0], o.jpeg_quality[1] + 1)),
        paper_bend_mm=_uniform(rng, o.paper_bend_mm),
        drop_shadow_mm=_uniform(rng, o.drop_shadow_mm),
        background=str(o.backgrounds[int(rng.integers(len(o.backgrounds)))]),
        seed=int(rng.integers(2**62)),
        # Drawn last, so cameras that give ``fill`` directly keep their earlier photos.
        sheet_area=0.0 if o.sheet_area is None else _uniform(rng, o.sheet_area),
    )
    if o.bend_chance <= 0.0:
        return shot
    # Drawn after everything else: a bent camera shoots the same photos, only bent.
    bent = bool(rng.random() < o.bend_chance)
    bend = Bend(
        kind=BendKind(o.bend_kinds[int(rng.integers(len(o.bend_kinds)))]),
        where=int(rng.integers(4)),
        reach_mm=_uniform(rng, o.bend_reach_mm),
        angle_deg=_uniform(rng, o.bend_angle_deg),
        hinge_mm=_uniform(rng, o.bend_hinge_mm),
        light_elevation_deg=float(rng.uniform(35.0, 75.0)),
    )
    return replace(shot, bend=bend) if bent else shot


# ---- geometry ------------------------------------------------------------------------------


def _rotation(axis: np.ndarray, angle_rad: float) -> np.ndarray:
    """Rodrigues: rotation matrix about a unit axis."""
    x, y, z = axis
    c, s = math.cos(angle_rad), math.sin(angle_rad)
    skew = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]], dtype=np.float64)
    return np.eye(3) * c + s * skew + (1 - c) * np.outer(axis, axis)


@dataclass(frozen=True)
class _Projector:
    """The pinhole camera of one shot: page px (with a height above the table) to frame px."""

    page_size: tuple[int, int]
    rotation: np.ndarray  # page frame -> camera frame
    distance: float
    focal_length: float
    lo: np.ndarray  # the flat page's projected outline starts here ...
    zoom: float  # ... and is scaled by this ...
    offset: np.ndarray  # ... and moved here, in frame px

    def _raw(self, x: np.ndarray, y: np.ndarray, up: np.ndarray | None) -> np.ndarray:
        page_w, page_h = self.page_size
        scale = max(page_w, page_h)
        pts = (np.column_stack([x, y]) - [page_w / 2, page_h / 2]) / scale
        # Up from the table is towards the camera: the page frame's -z.
        z = np.zeros(len(pts)) if up is None else -np.asarray(up, np.float64) / scale
        cam = np.column_stack([pts, z]) @ self.rotation.T
        cam[:, 2] += self.distance
        return np.asarray(self.focal_length * cam[:, :2] / cam[:, 2:3])

    def project(self, x: np.ndarray, y: np.ndarray, up: np.ndarray | None = None
                ) -> np.ndarray:
        """Frame px (N x 2) of page points (x, y) lying ``up`` px above the table."""
        return np.asarray((self._raw(x, y, up) - self.lo) * self.zoom + self.offset)


def _projector(page_w: int, page_h: int, shot: Shot) -> _Projector:
    """The page is a flat rectangle seen by a pinhole camera, rotated in its plane, tilted
    about a random in-plane axis, then zoomed and moved so that its outline spans
    ``shot.fill`` of the frame and lies wholly inside it."""
    rz = _rotation(np.array([0.0, 0.0, 1.0]), math.radians(shot.rotation_deg))
    a = math.radians(shot.tilt_axis_deg)
    rt = _rotation(np.array([math.cos(a), math.sin(a), 0.0]), math.radians(shot.tilt_deg))
    distance = shot.focal_length / max(shot.fill, 1e-3)
    cam = _Projector((page_w, page_h), rt @ rz, distance, shot.focal_length,
                     np.zeros(2), 1.0, np.zeros(2))
    proj = cam._raw(np.array([0.0, page_w, page_w, 0.0]), np.array([0.0, 0.0, page_h, page_h]),
                    None)
    lo, hi = proj.min(axis=0), proj.max(axis=0)
    span = hi - lo
    frame = np.array([shot.width_px, shot.height_px], dtype=np.float64)
    zoom = shot.fill / max(span[0] / frame[0], span[1] / frame[1])
    room = frame - span * zoom
    return replace(cam, lo=lo, zoom=zoom, offset=room * np.array(shot.centre))


def page_quad(page_w: int, page_h: int, shot: Shot) -> np.ndarray:
    """Where the flat page's corners (TL, TR, BR, BL) land in the frame, in pixels (4x2)."""
    cam = _projector(page_w, page_h, shot)
    return np.asarray(cam.project(np.array([0.0, page_w, page_w, 0.0]),
                                  np.array([0.0, 0.0, page_h, page_h])), dtype=np.float64)


def quad_area_fraction(quad: np.ndarray, width_px: int, height_px: int) -> float:
    """Share of a ``width_px`` x ``height_px`` frame covered by a quadrilateral (4x2)."""
    x, y = quad[:, 0], quad[:, 1]
    area = 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))
    return area / float(width_px * height_px)


def fill_for_area(page_w: int, page_h: int, shot: Shot) -> float:
    """The span (``Shot.fill``) at which the page covers ``shot.sheet_area`` of the frame.

    The area grows nearly with the span squared (only the perspective's strength changes
    with distance), so square-root steps from span 1 converge in two or three; a steep
    view can need the third to land within 1% of the share.
    """
    fill = 1.0
    for _ in range(4):
        got = quad_area_fraction(page_quad(page_w, page_h, replace(shot, fill=fill)),
                                 shot.width_px, shot.height_px)
        if abs(got / shot.sheet_area - 1) < 0.005:
            break
        fill = min(K.FILL_MAX, fill * math.sqrt(shot.sheet_area / max(got, 1e-9)))
    return fill


# ---- textures and light ------------------------------------------------------------------


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    """Low-frequency noise in [-1, 1]: a coarse random grid scaled up smoothly."""
    h, w = shape
    gh = max(2, round(cells * h / max(h, w)) + 1)
    gw = max(2, round(cells * w / max(h, w)) + 1)
    grid = rng.uniform(-1.0, 1.0, size=(gh, gw)).astype(np.float32)
    return np.asarray(cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC))


def _random_colour(rng: np.random.Generator, kind: str) -> np.ndarray:
    """A table colour in BGR 0-255; wood stays in browns, cloth and plain can be anything."""
    if kind == "wood":
        hue, sat, val = rng.uniform(8, 22), rng.uniform(0.35, 0.75), rng.uniform(70, 200)
    else:
        hue, sat, val = rng.uniform(0, 180), rng.uniform(0.05, 0.7), rng.uniform(40, 220)
    hsv = np.array([[[hue, sat * 255, val]]], dtype=np.uint8)
    return np.asarray(cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0], dtype=np.float32)


def _background(rng: np.random.Generator, kind: str, width: int, height: int) -> np.ndarray:
    """A table texture at low resolution (float32 BGR, 0-255)."""
    w, h = max(8, width // _LOW_RES_FACTOR), max(8, height // _LOW_RES_FACTOR)
    colour = _random_colour(rng, kind)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        angle = rng.uniform(0, math.pi)
        across = -xx * math.sin(angle) + yy * math.cos(angle)
        along = xx * math.cos(angle) + yy * math.sin(angle)
        # Grain lines: 1-D noise across the grain, bent by a slow wobble, at two scales.
        wobble = _smooth_noise(rng, (h, w), 5) * rng.uniform(4, 14)
        offset = across - float(across.min()) + wobble - float(wobble.min())
        n = int(offset.max()) + 2
        fine = rng.uniform(-1.0, 1.0, size=n).astype(np.float32)
        coarse = np.interp(np.arange(n) / 12.0, np.arange(n // 12 + 2),
                           rng.uniform(-1.0, 1.0, size=n // 12 + 2)).astype(np.float32)
        grain_line = 0.5 * fine + coarse
        lines = np.interp(offset, np.arange(n), grain_line).astype(np.float32)
        # Planks: a dark seam every so often, across the grain.
        plank = rng.uniform(40, 90)
        seam = np.abs(((across - float(across.min())) % plank) - plank / 2) > plank / 2 - 0.7
        knots = _smooth_noise(rng, (h, w), 10)
        shade = 1.0 + 0.07 * lines + 0.05 * knots - 0.3 * seam.astype(np.float32)
        shade += 0.03 * np.sin(along / rng.uniform(30, 80))
    elif kind == "cloth":
        period = rng.uniform(2.5, 5.0)
        a = rng.uniform(0, math.pi / 2)
        u = xx * math.cos(a) + yy * math.sin(a)
        v = -xx * math.sin(a) + yy * math.cos(a)
        weave = np.sin(2 * math.pi * u / period) * np.sin(2 * math.pi * v / period)
        folds = _smooth_noise(rng, (h, w), 4)
        shade = 1.0 + 0.08 * weave + 0.10 * folds
    else:
        shade = 1.0 + 0.05 * _smooth_noise(rng, (h, w), 3)
    grain = rng.normal(0.0, 0.025, size=(h, w)).astype(np.float32)
    shade = (shade + grain).astype(np.float32)
    return colour[None, None, :] * shade[:, :, None]


def _shadow_mask(
    rng: np.random.Generator, shot: Shot, quad: np.ndarray, w: int, h: int
) -> np.ndarray:
    """A soft blob (an arm, a hand, a phone) from outside the frame reaching over the page."""
    mask = np.zeros((h, w), dtype=np.float32)
    sx, sy = w / shot.width_px, h / shot.height_px
    # Tip: a random point well inside the page, so the arm crosses part of it.
    weights = 0.5 * rng.dirichlet(np.ones(4)) + 0.125
    tip = (weights @ quad) * [sx, sy]
    ang = rng.uniform(0, 2 * math.pi)
    far = tip + 3.0 * max(w, h) * np.array([math.cos(ang), math.sin(ang)])
    width = rng.uniform(0.08, 0.25) * max(w, h)
    cv2.line(mask, tuple(int(v) for v in tip), tuple(int(v) for v in far), 1.0,
             thickness=max(1, int(width)))
    cv2.circle(mask, tuple(int(v) for v in tip), max(1, int(width / 2)), 1.0, -1)
    if rng.random() < 0.6:  # a thumb or the phone's corner
        side = ang + rng.choice([-1.0, 1.0]) * rng.uniform(0.6, 1.2)
        start = tip + (far - tip) * rng.uniform(0.02, 0.08)
        end = start + width * rng.uniform(0.6, 1.2) * np.array([math.cos(side + math.pi),
                                                                 math.sin(side + math.pi)])
        cv2.line(mask, tuple(int(v) for v in start), tuple(int(v) for v in end), 1.0,
                 thickness=max(1, int(width * 0.35)))
    sigma = max(1.0, shot.shadow_softness * max(w, h))
    return np.asarray(cv2.GaussianBlur(mask, (0, 0), sigma))


def _light_map(rng: np.random.Generator, shot: Shot, quad: np.ndarray) -> np.ndarray:
    """Multiplicative light over the frame, at low resolution (h, w) float32."""
    w = max(8, shot.width_px // _LIGHT_RES_FACTOR)
    h = max(8, shot.height_px // _LIGHT_RES_FACTOR)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xn, yn = xx / (w - 1) - 0.5, yy / (h - 1) - 0.5
    d = math.radians(shot.light_direction_deg)
    ramp = xn * math.cos(d) + yn * math.sin(d)
    ramp = (ramp - ramp.min()) / max(float(ramp.max() - ramp.min()), 1e-6)
    light = 1.0 - shot.light_gradient * ramp
    light *= 1.0 - shot.vignette * (xn**2 + yn**2) / 0.5
    light *= 1.0 + 0.04 * _smooth_noise(rng, (h, w), 3)
    if shot.shadow_depth > 0:
        light *= 1.0 - shot.shadow_depth * _shadow_mask(rng, shot, quad, w, h)
    return np.asarray(light * shot.exposure, dtype=np.float32)


def _bend(rng: np.random.Generator, page: np.ndarray, amplitude_px: float) -> np.ndarray:
    """Displace the page by a smooth random field, as a gently curled sheet would look."""
    if amplitude_px < 0.25:
        return page
    h, w = page.shape[:2]
    dx = _smooth_noise(rng, (h, w), 3) * amplitude_px
    dy = _smooth_noise(rng, (h, w), 3) * amplitude_px
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    return np.asarray(
        cv2.remap(page, xx + dx, yy + dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    )


def _motion_kernel(length_px: float, angle_deg: float) -> np.ndarray:
    n = max(3, int(math.ceil(length_px)) | 1)
    k = np.zeros((n, n), dtype=np.float32)
    c = n // 2
    a = math.radians(angle_deg)
    dx, dy = math.cos(a) * length_px / 2, math.sin(a) * length_px / 2
    cv2.line(k, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1,
             cv2.LINE_AA)
    return k / max(float(k.sum()), 1e-6)


# ---- bent paper ------------------------------------------------------------------------------

_BEND_GRID_PX = 8  # the bent page's frame-to-page map is solved on this grid, then scaled up
_BEND_NEWTON_STEPS = 12
_BEND_SHADOW_DEPTH = 0.45  # light the table loses under the lifted paper's shadow


@dataclass(frozen=True)
class _BentView:
    """Where each frame pixel sees the bent page (page px; -1 off the page), how high the
    page is there (page px above the table, on a coarse grid) and the page's corners."""

    map_x: np.ndarray
    map_y: np.ndarray
    up_coarse: np.ndarray
    corners: np.ndarray


def _bent_view(cam: _Projector, geo: BendGeometry, page_w: int, page_h: int, width: int,
               height: int, flat: np.ndarray) -> _BentView:
    """Invert the bent page's projection by Newton's method from the flat page's answer.

    The profile never folds, so from where the flat page would be seen a few steps reach
    the bent point; a pixel with no solution (seen past the paper's edge) is off the page.
    """
    gx = np.arange(0, width + _BEND_GRID_PX, _BEND_GRID_PX, dtype=np.float64)
    gy = np.arange(0, height + _BEND_GRID_PX, _BEND_GRID_PX, dtype=np.float64)
    px, py = (a.ravel() for a in np.meshgrid(gx, gy))
    target = np.column_stack([px, py])
    start = cv2.perspectiveTransform(target.reshape(-1, 1, 2), np.linalg.inv(flat))
    u = start.reshape(-1, 2).astype(np.float64)

    def seen(pts: np.ndarray) -> np.ndarray:
        return cam.project(*geo.surface(pts[:, 0], pts[:, 1]))

    eps = 0.5
    for _ in range(_BEND_NEWTON_STEPS):
        f = seen(u) - target
        jx = (seen(u + [eps, 0.0]) - seen(u)) / eps
        jy = (seen(u + [0.0, eps]) - seen(u)) / eps
        det = jx[:, 0] * jy[:, 1] - jy[:, 0] * jx[:, 1]
        det = np.where(np.abs(det) < 1e-9, 1e-9, det)
        du = (jy[:, 1] * f[:, 0] - jy[:, 0] * f[:, 1]) / det
        dv = (-jx[:, 1] * f[:, 0] + jx[:, 0] * f[:, 1]) / det
        step = np.column_stack([du, dv])
        u -= np.clip(step, -50.0, 50.0)
        if float(np.abs(step).max()) < 0.01:
            break
    missed = np.linalg.norm(seen(u) - target, axis=1) > 1.0
    # Far off the page the straight run of the profile rises past the camera: no answer.
    missed |= (np.abs(u[:, 0] - page_w / 2) > page_w) | (np.abs(u[:, 1] - page_h / 2) > page_h)
    u[missed] = -10.0
    shape = (len(gy), len(gx))
    _, _, up = geo.surface(u[:, 0], u[:, 1])
    inside = (u[:, 0] >= 0) & (u[:, 0] <= page_w) & (u[:, 1] >= 0) & (u[:, 1] <= page_h)
    up_coarse = np.where(inside, up, 0.0).reshape(shape).astype(np.float32)
    # Scale the coarse map up to every pixel (the map is smooth between grid points).
    full_w, full_h = len(gx) * _BEND_GRID_PX, len(gy) * _BEND_GRID_PX
    mx = cv2.resize(u[:, 0].reshape(shape).astype(np.float32), (full_w, full_h),
                    interpolation=cv2.INTER_LINEAR)
    my = cv2.resize(u[:, 1].reshape(shape).astype(np.float32), (full_w, full_h),
                    interpolation=cv2.INTER_LINEAR)
    # cv2.resize puts grid point k at pixel k * step + (step - 1) / 2: undo that half step.
    half = (_BEND_GRID_PX - 1) // 2
    mx = np.ascontiguousarray(mx[half:half + height, half:half + width])
    my = np.ascontiguousarray(my[half:half + height, half:half + width])
    # Between a solved and an unsolved grid point the scaled-up map means nothing.
    solved = cv2.resize((~missed).reshape(shape).astype(np.float32), (full_w, full_h),
                        interpolation=cv2.INTER_LINEAR)[half:half + height, half:half + width]
    mx[solved < 0.999] = my[solved < 0.999] = -10.0
    cx = np.array([0.0, page_w, page_w, 0.0])
    cy = np.array([0.0, 0.0, page_h, page_h])
    corners = cam.project(*geo.surface(cx, cy))
    return _BentView(mx, my, up_coarse, corners)


def _shaded_page(page: np.ndarray, geo: BendGeometry, shot: Shot) -> np.ndarray:
    """The page lit by its own slope where it bends (made small, the light is smooth)."""
    assert shot.bend is not None
    h, w = page.shape[:2]
    sw, sh = max(8, w // _LOW_RES_FACTOR), max(8, h // _LOW_RES_FACTOR)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float64)
    light = geo.shading((xx + 0.5) * w / sw, (yy + 0.5) * h / sh, shot.light_direction_deg,
                        shot.bend.light_elevation_deg)
    light = _f32(cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR))
    return _f32(page * light[:, :, None])


def _lift_shadow(view: _BentView, shot: Shot, low: tuple[int, int], page_px: float
                 ) -> np.ndarray:
    """Where the lifted paper shades the table (0-1, at the low resolution)."""
    assert shot.bend is not None
    top = float(view.up_coarse.max())
    if top <= 0.0:
        return np.zeros((low[1], low[0]), np.float32)
    lifted = _f32(cv2.resize(view.up_coarse / top, low, interpolation=cv2.INTER_LINEAR))
    # The shadow falls away from the light, further the higher the paper and the lower the
    # light; ``page_px`` converts page px of height to low-res frame px.
    e = math.radians(shot.bend.light_elevation_deg)
    d = math.radians(shot.light_direction_deg + shot.rotation_deg)
    reach = top * page_px / math.tan(e)
    move = np.array([[1, 0, -reach * math.cos(d)], [0, 1, -reach * math.sin(d)]], np.float32)
    cast = cv2.warpAffine(lifted, move, low, flags=cv2.INTER_LINEAR)
    soft = max(1.0, reach / 2)
    return _f32(np.clip(cv2.GaussianBlur(np.maximum(cast, lifted), (0, 0), soft), 0.0, 1.0))


# ---- the camera ------------------------------------------------------------------------------


def shoot(page_bgr: np.ndarray, rng: np.random.Generator, options: CameraOptions) -> Photo:
    """Photograph a page (uint8 BGR, any resolution, white paper) with a sampled camera."""
    if page_bgr.ndim != 3 or page_bgr.shape[2] != 3 or page_bgr.dtype != np.uint8:
        raise InputError("the page must be a uint8 BGR image")
    shot = sample_shot(rng, options)
    sub = np.random.default_rng(shot.seed)
    ph, pw = page_bgr.shape[:2]
    if shot.sheet_area > 0.0:
        shot = replace(shot, fill=fill_for_area(pw, ph, shot))
    quad = page_quad(pw, ph, shot)
    W, H = shot.width_px, shot.height_px

    page = page_bgr.astype(np.float32) * np.array(shot.paper_tint_bgr, dtype=np.float32)
    page = _bend(sub, page, shot.paper_bend_mm * _PAGE_BEND_FRACTION_PER_MM * max(pw, ph))
    view: _BentView | None = None
    if shot.bend is not None:
        geo = place(shot.bend, pw, ph, max(pw, ph) * _PAGE_BEND_FRACTION_PER_MM)
        page = _shaded_page(page, geo, shot)
        flat = cv2.getPerspectiveTransform(
            np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32), quad.astype(np.float32))
        view = _bent_view(_projector(pw, ph, shot), geo, pw, ph, W, H, flat)
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], dtype=np.float32)
    # Shrink the page first when the photo shows it smaller, so the warp does not alias.
    side_px = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    shrink = float(np.mean(side_px) / np.mean([pw, ph, pw, ph]))
    if shrink < 0.8:
        size = (max(1, round(pw * shrink)), max(1, round(ph * shrink)))
        page = _f32(cv2.resize(page, size, interpolation=cv2.INTER_AREA))
        src = src * np.array([page.shape[1] / pw, page.shape[0] / ph], dtype=np.float32)
    if view is None:
        homography = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
        # Replicated borders keep the page's own colour up to its edge; the coverage mask
        # (anti-aliased, subpixel via the shift argument) decides where paper meets table.
        warped = _f32(cv2.warpPerspective(page, homography, (W, H), flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_REPLICATE))
        mask = np.zeros((H, W), dtype=np.uint8)
        cv2.fillConvexPoly(mask, np.round(quad * 16).astype(np.int32), 255, cv2.LINE_AA,
                           shift=4)
        alpha = _f32(mask) * np.float32(1.0 / 255.0)
    else:
        sx, sy = page.shape[1] / pw, page.shape[0] / ph
        map_x, map_y = view.map_x * np.float32(sx), view.map_y * np.float32(sy)
        warped = _f32(cv2.remap(page, map_x, map_y, cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE))
        ones = np.ones(page.shape[:2], np.float32)
        alpha = _f32(cv2.remap(ones, map_x, map_y, cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=0.0))
        del map_x, map_y
        quad = view.corners

    # Table, its shadow under the sheet's edge and the light are smooth: work small.
    low = (max(8, W // _LOW_RES_FACTOR), max(8, H // _LOW_RES_FACTOR))
    table_low = _background(sub, shot.background, W, H)
    table_low = _f32(cv2.resize(table_low, low, interpolation=cv2.INTER_LINEAR))
    reach = max(1.0, shot.drop_shadow_mm * _DROP_SHADOW_FRACTION_PER_MM * float(side_px.max()))
    cover_low = _f32(cv2.resize(alpha, low, interpolation=cv2.INTER_AREA))
    drop = _f32(cv2.GaussianBlur(cover_low, (0, 0), max(0.5, reach / _LOW_RES_FACTOR)))
    table_low *= (1.0 - 0.35 * drop)[:, :, None]
    if view is not None:
        lift = _lift_shadow(view, shot, low, shrink / _LOW_RES_FACTOR)
        table_low *= (1.0 - _BEND_SHADOW_DEPTH * lift)[:, :, None]
    table = _f32(cv2.resize(table_low, (W, H), interpolation=cv2.INTER_LINEAR))
    scene = _f32(cv2.blendLinear(warped, table, alpha, 1.0 - alpha))
    del warped, table

    light_low = _light_map(sub, shot, quad)[:, :, None] * np.array(shot.light_colour_bgr,
                                                                   dtype=np.float32)
    light = _f32(cv2.resize(_f32(light_low), (W, H), interpolation=cv2.INTER_LINEAR))
    cv2.multiply(scene, light, dst=scene)
    del light

    if shot.motion_blur_px > 0:
        kernel = _motion_kernel(shot.motion_blur_px, shot.motion_blur_deg)
        scene = _f32(cv2.filter2D(scene, -1, kernel))
    scene = _f32(cv2.GaussianBlur(scene, (0, 0), shot.lens_blur_sigma_px))

    # Sensor noise from a random tile repeated over the frame: per-pixel noise at a
    # fraction of the cost, and no reader could tell it repeats.
    tile = min(_NOISE_TILE_PX, W, H)
    lum = sub.standard_normal((tile, tile), dtype=np.float32) * np.float32(shot.noise_sigma)
    chroma = sub.standard_normal((tile, tile, 3), dtype=np.float32)
    noise = lum[:, :, None] + chroma * np.float32(shot.noise_sigma / 2)
    reps = (-(-H // tile), -(-W // tile), 1)
    dy, dx = int(sub.integers(tile)), int(sub.integers(tile))
    noise = np.tile(noise, reps)[:H, :W] if (dy, dx) == (0, 0) else np.tile(
        np.roll(noise, (dy, dx), axis=(0, 1)), reps)[:H, :W]
    cv2.add(scene, np.ascontiguousarray(noise), dst=scene)
    out = np.clip(scene, 0, 255, out=scene).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, shot.jpeg_quality])
    assert ok
    return Photo(jpeg=buf.tobytes(), corners_px=quad, shot=shot)


def photograph(
    page_bgr: np.ndarray, rng: np.random.Generator, options: CameraOptions | None = None
) -> np.ndarray:
    """A virtual phone photo of a page, decoded to BGR (what a reader would load)."""
    return shoot(page_bgr, rng, options or CameraOptions()).image()

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
    return Shot(
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


# ---- geometry ------------------------------------------------------------------------------


def _rotation(axis: np.ndarray, angle_rad: float) -> np.ndarray:
    """Rodrigues: rotation matrix about a unit axis."""
    x, y, z = axis
    c, s = math.cos(angle_rad), math.sin(angle_rad)
    skew = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]], dtype=np.float64)
    return np.eye(3) * c + s * skew + (1 - c) * np.outer(axis, axis)


def page_quad(page_w: int, page_h: int, shot: Shot) -> np.ndarray:
    """Where the page's corners (TL, TR, BR, BL) land in the frame, in pixels (4x2).

    The page is a flat rectangle seen by a pinhole camera, rotated in its plane, tilted
    about a random in-plane axis, then zoomed and moved so that its outline spans
    ``shot.fill`` of the frame and lies wholly inside it.
    """
    scale = max(page_w, page_h)
    pts = np.array([[0, 0], [page_w, 0], [page_w, page_h], [0, page_h]], dtype=np.float64)
    pts = (pts - [page_w / 2, page_h / 2]) / scale
    pts3 = np.column_stack([pts, np.zeros(4)])
    rz = _rotation(np.array([0.0, 0.0, 1.0]), math.radians(shot.rotation_deg))
    a = math.radians(shot.tilt_axis_deg)
    rt = _rotation(np.array([math.cos(a), math.sin(a), 0.0]), math.radians(shot.tilt_deg))
    cam = pts3 @ (rt @ rz).T
    distance = shot.focal_length / max(shot.fill, 1e-3)
    cam[:, 2] += distance
    proj = shot.focal_length * cam[:, :2] / cam[:, 2:3]
    lo, hi = proj.min(axis=0), proj.max(axis=0)
    span = hi - lo
    frame = np.array([shot.width_px, shot.height_px], dtype=np.float64)
    zoom = shot.fill / max(span[0] / frame[0], span[1] / frame[1])
    proj = (proj - lo) * zoom
    room = frame - span * zoom
    offset = room * np.array(shot.centre)
    return np.asarray(proj + offset, dtype=np.float64)


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
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], dtype=np.float32)
    # Shrink the page first when the photo shows it smaller, so the warp does not alias.
    side_px = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    shrink = float(np.mean(side_px) / np.mean([pw, ph, pw, ph]))
    if shrink < 0.8:
        size = (max(1, round(pw * shrink)), max(1, round(ph * shrink)))
        page = _f32(cv2.resize(page, size, interpolation=cv2.INTER_AREA))
        src = src * np.array([page.shape[1] / pw, page.shape[0] / ph], dtype=np.float32)
    homography = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    # Replicated borders keep the page's own colour up to its edge; the coverage mask
    # (anti-aliased, subpixel via the shift argument) decides where paper meets table.
    warped = _f32(cv2.warpPerspective(page, homography, (W, H), flags=cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REPLICATE))
    mask = np.zeros((H, W), dtype=np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad * 16).astype(np.int32), 255, cv2.LINE_AA, shift=4)
    alpha = _f32(mask) * np.float32(1.0 / 255.0)

    # Table, its shadow under the sheet's edge and the light are smooth: work small.
    low = (max(8, W // _LOW_RES_FACTOR), max(8, H // _LOW_RES_FACTOR))
    table_low = _background(sub, shot.background, W, H)
    table_low = _f32(cv2.resize(table_low, low, interpolation=cv2.INTER_LINEAR))
    reach = max(1.0, shot.drop_shadow_mm * _DROP_SHADOW_FRACTION_PER_MM * float(side_px.max()))
    cover_low = _f32(cv2.resize(alpha, low, interpolation=cv2.INTER_AREA))
    drop = _f32(cv2.GaussianBlur(cover_low, (0, 0), max(0.5, reach / _LOW_RES_FACTOR)))
    table_low *= (1.0 - 0.35 * drop)[:, :, None]
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

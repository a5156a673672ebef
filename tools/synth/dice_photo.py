"""Synthetic photos of a Diced Veggies block, for tests and the reader's benchmark.

A pinhole camera looks down (slightly tilted) at dice standing on a table or on our
printed mat. Each die is a rounded cube: its top face is shaded as a plastic fillet with a
highlight and painted pips, its visible sides are drawn from their true 3-D corners, and
the block casts a soft shadow. Everything random comes from one seeded numpy Generator, so
a seed always gives the same photo and the same true block.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from tools.synth import dice_constants as K
from tools.synth.dice_style import Look, PipShape, Plastic, Shading, Style, draw_look
from tools.synth.dice_table import table_texture

INGREDIENTS = ("carrot", "mushroom", "onion", "pepper", "tomato")
FACES = (2, 2, 3, 4, 5, 6)

Cell = tuple[int, int]


@dataclass(frozen=True)
class DicePhoto:
    """A rendered photo and what is really in it."""

    image: np.ndarray  # BGR uint8, decoded from ``jpeg``
    jpeg: bytes
    block: dict[str, Any]  # the true block JSON, rows and cols starting at 0
    centers_px: dict[Cell, tuple[float, float]] = field(compare=False)  # top-face centres
    on_mat: bool = False
    pitch_px: float = 0.0  # mean distance between neighbouring die centres in the photo
    table: str = ""  # the table kind under the block (or the mat)
    lamp_k: float = 5500.0  # the light's colour temperature, kelvin


@dataclass(frozen=True)
class _Die:
    row: int
    col: int
    ingredient: str
    value: int


# ---- blocks --------------------------------------------------------------------------------------


def random_block(
    rng: np.random.Generator, *, irregular: bool = False, rows: int = 5, cols: int = 7
) -> dict[str, Any]:
    """A full rows x cols block of dice drawn from the 35 in the box, or one with dice taken
    away from its rim (and sometimes a hole) as after earlier cuts and restocks."""
    pool = [ing for ing in INGREDIENTS for _ in range(7)]
    rng.shuffle(pool)
    cells = {(r, c) for r in range(rows) for c in range(cols)}
    if irregular:
        for _ in range(int(rng.integers(2, 14))):
            rim = sorted(cell for cell in cells if _open_neighbours(cell, cells))
            pick = rim[int(rng.integers(len(rim)))]
            if _connected(cells - {pick}):
                cells.discard(pick)
        inner = sorted(cell for cell in cells if not _open_neighbours(cell, cells))
        if inner and rng.random() < 0.4:
            hole = inner[int(rng.integers(len(inner)))]
            if _connected(cells - {hole}):
                cells.discard(hole)
    dice = []
    for i, (r, c) in enumerate(sorted(cells)):
        value = int(FACES[int(rng.integers(len(FACES)))])
        dice.append({"row": r, "col": c, "ingredient": pool[i % len(pool)], "value": value})
    return _normalised({"dice": dice})


def restocked_block(
    rng: np.random.Generator, *, rows: int = 5, cols: int = 7, fewest: int = 18
) -> dict[str, Any]:
    """A block just after a restock (the rulebook's Restocking): the spent dice and the
    block's leftovers, rolled into the frame and dragged into a corner, the players keeping
    their unspent dice. So a subset of the box's 35 dice (never more than 7 of an
    ingredient), ``fewest`` to 35 of them, settled into one corner: every row starts at
    the frame's side and is no longer than the row before it."""
    pool = [ing for ing in INGREDIENTS for _ in range(7)]
    rng.shuffle(pool)
    n = int(rng.integers(fewest, rows * cols + 1))
    cells = {(r, c) for r in range(rows) for c in range(cols)}
    while len(cells) > n:
        # a corner of the staircase, leaving the block at least as wide as it is tall: off
        # the mat a block is numbered that way round (orient.own_axes_turn), so the truth
        # keeps one numbering
        outer = sorted((r, c) for r, c in cells
                       if (r, c + 1) not in cells and (r + 1, c) not in cells
                       and _wide_enough(cells - {(r, c)}))
        cells.discard(outer[int(rng.integers(len(outer)))])
    dice = [{"row": r, "col": c, "ingredient": pool[i],
             "value": int(FACES[int(rng.integers(len(FACES)))])}
            for i, (r, c) in enumerate(sorted(cells))]
    return _normalised({"dice": dice})


def _wide_enough(cells: set[Cell]) -> bool:
    return max(c for _, c in cells) >= max(r for r, _ in cells)


def _open_neighbours(cell: Cell, cells: set[Cell]) -> int:
    r, c = cell
    return sum((r + dr, c + dc) not in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))


def _connected(cells: set[Cell]) -> bool:
    if not cells:
        return False
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells)


def _normalised(block: Mapping[str, Any]) -> dict[str, Any]:
    dice = list(block.get("dice", []))
    if not dice:
        return {"dice": []}
    r0 = min(int(d["row"]) for d in dice)
    c0 = min(int(d["col"]) for d in dice)
    out = [
        {
            "row": int(d["row"]) - r0,
            "col": int(d["col"]) - c0,
            "ingredient": str(d["ingredient"]),
            "value": int(d["value"]),
        }
        for d in dice
    ]
    return {"dice": sorted(out, key=lambda d: (d["row"], d["col"]))}


# ---- camera --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Camera:
    k: np.ndarray  # 3x3 intrinsics
    r: np.ndarray  # 3x3 world -> camera rotation
    c: np.ndarray  # camera centre in world mm (X right, Y down, Z into the table)
    size: tuple[int, int]  # (width, height) px

    def plane(self, z: float) -> np.ndarray:
        """Homography from the plane Z = z (mm) to the photo; dice tops sit at Z = -edge."""
        cols = np.stack([self.r[:, 0], self.r[:, 1], self.r @ (np.array([0, 0, z]) - self.c)])
        return self.k @ cols.T

    def project(self, pts: np.ndarray) -> np.ndarray:
        cam = (self.r @ (pts - self.c).T).T
        uvw = (self.k @ cam.T).T
        return uvw[:, :2] / uvw[:, 2:3]


def _camera(
    rng: np.random.Generator, target: np.ndarray, extent_mm: float, fill: float, frame_px: int,
    size: tuple[int, int], tilt_deg: tuple[float, float] = K.TILT_DEG,
) -> _Camera:
    w, h = size
    f = rng.uniform(*K.FOCAL_LENGTH_FRAMES) * max(w, h)
    dist = f * extent_mm / (fill * frame_px)
    tilt = math.radians(rng.uniform(*tilt_deg))
    az = rng.uniform(0, 2 * math.pi)
    d = np.array([math.sin(tilt) * math.cos(az), math.sin(tilt) * math.sin(az), math.cos(tilt)])
    yaw = math.radians(rng.uniform(*K.YAW_DEG))
    x0 = np.array([math.cos(yaw), math.sin(yaw), 0.0])
    xc = x0 - (x0 @ d) * d
    xc /= np.linalg.norm(xc)
    yc = np.cross(d, xc)
    r = np.stack([xc, yc, d])
    kmat = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    return _Camera(kmat, r, target - dist * d, size)


# ---- one die -------------------------------------------------------------------------------------


def _light(rng: np.random.Generator) -> np.ndarray:
    az = rng.uniform(0, 2 * math.pi)
    el = math.radians(rng.uniform(40, 75))
    # x right, y down on the table, z up towards the camera
    return np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])


def _face_texture(
    die: _Die, colour: np.ndarray, pip_rgb: tuple[int, int, int], pip_r: float,
    light: np.ndarray, quarter: bool, look: Look | None = None, glare: bool = False,
    swirl: np.ndarray | None = None,
) -> np.ndarray:
    """The top of one die seen straight down, as a BGRA float image (0-255, alpha 0-1);
    ``swirl``: marbled paint, a factor field on the face's colour."""
    n = K.FACE_TEXTURE_PX
    ax = (np.arange(n) + 0.5) / n * 2 - 1
    x, y = np.meshgrid(ax, ax)
    rc = K.CORNER_RADIUS
    qx, qy = np.abs(x) - (1 - rc), np.abs(y) - (1 - rc)
    sd = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0) - rc
    gy, gx = np.gradient(sd)
    gn = np.hypot(gx, gy) + 1e-9
    t = np.clip((sd + K.BEVEL) / K.BEVEL, 0, 1)
    sin_a = t
    cos_a = np.sqrt(1 - sin_a**2)
    normal = np.stack([sin_a * gx / gn, sin_a * gy / gn, cos_a], axis=-1)
    lam = normal @ light
    half = light + np.array([0, 0, 1.0])
    half /= np.linalg.norm(half)
    hx, hy = -0.45 * light[0], -0.45 * light[1]
    if look is not None and look.shading is Shading.SATIN:
        # wrapped diffuse (light bleeds past the terminator), a Schlick rim brightening at
        # grazing view, and a sharp-edged rectangular window reflection
        shade = 0.25 + 0.75 * np.clip((lam + 0.3) / 1.3, 0, None) / ((light[2] + 0.3) / 1.3)
        fres = 0.04 + 0.96 * (1 - np.clip(normal[..., 2], 0, 1)) ** 5
        spec = 0.35 * fres + 0.3 * t * np.clip(normal @ half, 0, 1) ** 60
        win = (np.abs(x - hx) < 0.22) & (np.abs(y - hy) < 0.12)
        spec = spec + 0.12 * cv2.GaussianBlur(win.astype(np.float32), (0, 0), 1.5)
    else:
        shade = 0.35 + 0.65 * np.clip(lam, 0, None) / light[2]
        # glossy rim where the edge curves towards the light, and a small soft window
        # reflection on the flat top
        spec = 0.45 * t * np.clip(normal @ half, 0, 1) ** 30
        spec += 0.14 * np.exp(-((x - hx) ** 2 + (y - hy) ** 2) / (2 * 0.2**2))
    if look is not None:
        spec = spec * look.gloss
        if glare:  # a bright (often clipped) glint of the lamp on the face
            spec = spec + 0.9 * np.exp(-((x - hx) ** 2 + (y - hy) ** 2) / (2 * 0.09**2))

    plastic = look.plastic if look is not None else Plastic.OPAQUE
    shape = look.pip_shape if look is not None else PipShape.ROUND
    col = colour[None, None, :]
    if swirl is not None:
        col = np.clip(col * swirl[..., None], 0, 255)
    if plastic is Plastic.TRANSLUCENT:
        # light scattered inside the die: evenly lit, paler, a glow towards the rim
        shade = 0.55 + 0.45 * shade
        glow = 0.12 + 0.1 * t
        rgb = col * shade[..., None] * (1 - glow[..., None])
        rgb = rgb + 255 * glow[..., None] * (0.35 + 0.65 * col / 255.0)
    elif plastic is Plastic.MATTE:
        rgb = col * (0.2 + 0.8 * shade)[..., None]
    else:
        rgb = col * shade[..., None]
    pip_col = np.array(pip_rgb, dtype=np.float64)
    edge_soft = 0.06 if plastic is Plastic.TRANSLUCENT else 0.03
    for pr, pc in _pip_cells(die.value, quarter):
        px, py = pc * K.PIP_LATTICE, pr * K.PIP_LATTICE
        dx, dy = x - px, y - py
        if shape is PipShape.SQUARE:
            dr = (np.abs(dx) ** 4 + np.abs(dy) ** 4) ** 0.25 * 1.08
        else:
            dr = np.hypot(dx, dy)
        inside = np.clip((pip_r - dr) / edge_soft + 0.5, 0, 1)
        wall = np.ones_like(dr)
        if shape is PipShape.RING:  # a drilled pip: its wall in shadow round the floor
            wall = 1 - 0.5 * np.exp(-((dr - 0.8 * pip_r) ** 2) / (2 * (0.12 * pip_r) ** 2))
        # a painted dimple: darker on the side facing the light, a faint dark rim
        dimple = 0.86 + 0.14 * np.clip(-(dx * light[0] + dy * light[1]) / pip_r, -1, 1)
        rim = np.exp(-((dr - pip_r) ** 2) / (2 * 0.02**2))
        pip_rgb_px = pip_col[None, None, :] * (dimple * wall)[..., None]
        rgb = rgb * (1 - inside[..., None]) + pip_rgb_px * inside[..., None]
        rgb *= (1 - 0.25 * rim)[..., None]
    rgb = rgb + 255 * spec[..., None]
    alpha = np.clip(0.5 - sd / 0.03, 0, 1)
    bgr = np.clip(rgb[..., ::-1], 0, 255)
    return np.dstack([bgr, alpha]).astype(np.float32)


def _swirl(rng: np.random.Generator, amount: float) -> np.ndarray:
    """Marbled paint: a smooth random field of colour factors round 1, at most ``amount``
    away, in streaks (a coarse noise stretched along a random direction)."""
    n = K.FACE_TEXTURE_PX
    coarse = rng.normal(0.0, 1.0, (5, 5)).astype(np.float32)
    field = cv2.resize(coarse, (n, n), interpolation=cv2.INTER_CUBIC)
    turn = cv2.getRotationMatrix2D((n / 2, n / 2), float(rng.uniform(0, 180)), 1.0)
    field = cv2.warpAffine(field, turn, (n, n), borderMode=cv2.BORDER_REFLECT)
    field = np.tanh(field) * amount
    return (1.0 + field).astype(np.float64)


def _pip_cells(value: int, quarter: bool) -> list[tuple[int, int]]:
    layouts = {
        1: [(0, 0)],
        2: [(-1, -1), (1, 1)],
        3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
        5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
        6: [(-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)],
    }
    cells = layouts[value]
    return [(c, -r) for r, c in cells] if quarter else cells


def _paste(photo: np.ndarray, tex: np.ndarray, h_tex: np.ndarray) -> None:
    """Warp a BGRA texture into the photo (float BGR) through homography ``h_tex``."""
    n = tex.shape[0]
    corners = np.array([[0, 0], [n, 0], [n, n], [0, n]], dtype=np.float64)
    pts = cv2.perspectiveTransform(corners[None], h_tex)[0]
    x0, y0 = np.floor(pts.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 1
    hgt, wid = photo.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, wid), min(y1, hgt)
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]])
    warped = cv2.warpPerspective(
        tex, shift @ h_tex, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0),
    )
    a = warped[..., 3:4]
    roi = photo[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + warped[..., :3] * a


# ---- the scene -----------------------------------------------------------------------------------


def render_dice_photo(
    block: Mapping[str, Any],
    rng: np.random.Generator | int,
    *,
    on_mat: bool = False,
    table: str | None = None,
    dark_pips: bool | None = None,
    paper: str = "letter",
    style: Style | None = None,
    look: Look | None = None,
) -> DicePhoto:
    """Photograph ``block`` (block JSON) on a table or on the printed mat; ``look``: one
    already drawn from a style (the same dice, lamp and camera as another photo of the
    game), else drawn here from ``style``.

    Returns the decoded JPEG, its bytes, the true block (normalised so rows and cols start
    at 0) and each die's top-face centre in photo pixels.
    """
    rng = np.random.default_rng(rng) if isinstance(rng, int) else rng
    truth = _normalised(block)
    if look is None and style is not None:
        look = draw_look(style, rng)
    tilt = look.tilt_deg if look is not None else K.TILT_DEG
    dice = [_Die(d["row"], d["col"], d["ingredient"], d["value"]) for d in truth["dice"]]
    long_px, short_px = K.PHOTO_SIZE_PX
    portrait = rng.random() < K.PORTRAIT_CHANCE
    size = (short_px, long_px) if portrait else (long_px, short_px)
    edge = rng.uniform(*K.DIE_SIZE_MM)
    pitch = edge + (look.gap_mm if look is not None else rng.uniform(*K.DIE_GAP_MM))
    rows = 1 + max((d.row for d in dice), default=0)
    cols = 1 + max((d.col for d in dice), default=0)

    mat_img: np.ndarray | None = None
    if on_mat:
        mat_img, page_mm, corner = _mat(paper)
        turn = math.radians(rng.uniform(*K.BLOCK_ON_MAT_TURN_DEG))
        # settled against the printed corner guide, give or take a millimetre
        centre = corner + np.array([cols * pitch, rows * pitch]) / 2 + rng.uniform(0.2, 1.5, 2)
        cam = _camera(
            rng, np.array([page_mm[0] / 2, page_mm[1] / 2, 0.0]), max(page_mm),
            rng.uniform(*K.MAT_FILL), min(size), size, tilt,
        )
    else:
        centre = np.array([0.0, 0.0])
        turn = 0.0
        block_mm = max(cols, rows) * pitch
        cam = _camera(
            rng, np.array([0.0, 0.0, 0.0]), block_mm, rng.uniform(*K.BLOCK_FILL), max(size) if
            cols >= rows else min(size), size, tilt,
        )

    # die centres on the table (mm)
    ct, st = math.cos(turn), math.sin(turn)
    places: dict[Cell, tuple[float, float, float]] = {}
    for d in dice:
        lx = (d.col - (cols - 1) / 2) * pitch + rng.uniform(-1, 1) * K.DIE_JITTER_MM
        ly = (d.row - (rows - 1) / 2) * pitch + rng.uniform(-1, 1) * K.DIE_JITTER_MM
        x = centre[0] + ct * lx - st * ly
        y = centre[1] + st * lx + ct * ly
        places[(d.row, d.col)] = (x, y, turn + math.radians(rng.uniform(-1, 1) * K.DIE_TILT_DEG))

    light = _light(rng)
    used: list[str] = []
    photo = _background(rng, cam, places, edge, light, mat_img, table,
                        look.shadow_blur if look is not None else 0.18, used,
                        look.tables if look is not None else None)

    dark = bool(rng.random() < K.DARK_PIPS_CHANCE) if dark_pips is None else dark_pips
    pip_rgb = K.DARK_PIP_RGB if dark else K.WHITE_PIP_RGB
    if look is not None and look.pip_rgb is not None and dark_pips is None:
        pip_rgb = look.pip_rgb
    pip_r = rng.uniform(*K.PIP_RADIUS)
    if look is not None and look.pip_shape is PipShape.SMALL:
        pip_r *= 0.75
    _draw_sides(photo, cam, dice, places, edge, light, rng, look)
    h_top = cam.plane(-edge)
    centers: dict[Cell, tuple[float, float]] = {}
    n = K.FACE_TEXTURE_PX
    for d in dice:
        x, y, ang = places[(d.row, d.col)]
        base = _die_colour(d.ingredient, look)
        base = np.clip(base + rng.normal(0, K.DIE_COLOUR_JITTER / 2, 3), 0, 255)
        glare = look is not None and bool(rng.random() < look.glare_chance)
        quarter = bool(rng.random() < 0.5)
        swirl = _swirl(rng, look.marble) if look is not None and look.marble > 0 else None
        tex = _face_texture(d, base, pip_rgb, pip_r, light, quarter, look, glare, swirl)
        s = edge / n
        ca, sa = math.cos(ang), math.sin(ang)
        tex_to_world = np.array(
            [[ca * s, -sa * s, x - (ca - sa) * edge / 2],
             [sa * s, ca * s, y - (sa + ca) * edge / 2],
             [0, 0, 1.0]]
        )
        _paste(photo, tex, h_top @ tex_to_world)
        p = h_top @ np.array([x, y, 1.0])
        centers[(d.row, d.col)] = (float(p[0] / p[2]), float(p[1] / p[2]))

    jpeg = _camera_effects(rng, photo, look)
    image = np.asarray(cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR))
    pitch_px = _mean_pitch(centers)
    return DicePhoto(image, jpeg, truth, centers, on_mat, pitch_px, used[0] if used else "",
                     look.cct_k if look is not None else 5500.0)


def _die_colour(ingredient: str, look: Look | None) -> np.ndarray:
    if look is not None:
        return np.array(look.batch[ingredient], dtype=np.float64)
    return np.array(K.DIE_COLOURS_RGB[ingredient], dtype=np.float64)


def _mean_pitch(centers: Mapping[Cell, tuple[float, float]]) -> float:
    gaps = [
        math.dist(p, centers[(r, c + 1)]) for (r, c), p in centers.items() if (r, c + 1) in centers
    ]
    return float(np.mean(gaps)) if gaps else 0.0


def _mat(paper: str) -> tuple[np.ndarray, tuple[float, float], np.ndarray]:
    """The printed mat as a BGR image at CANVAS_PX_PER_MM, its size in mm and the corner
    (mm) the block's top-left die is pushed into."""
    import layouts  # imported late: the mat may not exist in a partial checkout

    geo = layouts.geometry("diced-veggies-mat", paper, "A")
    dpi = round(K.CANVAS_PX_PER_MM * 25.4)
    pil = layouts.render_image("diced-veggies-mat", paper=paper, dpi=dpi)
    rgb = np.asarray(pil.convert("RGB"))
    w_mm, h_mm = geo.page_mm
    ppm = K.CANVAS_PX_PER_MM
    img = cv2.resize(
        rgb[..., ::-1], (round(w_mm * ppm), round(h_mm * ppm)),
        interpolation=cv2.INTER_AREA,
    )
    origin = geo.extra.get("block_origin_mm", (w_mm / 3, h_mm / 3))
    return img, (w_mm, h_mm), np.array(origin, dtype=np.float64)


def _background(
    rng: np.random.Generator, cam: _Camera, places: Mapping[Cell, tuple[float, float, float]],
    edge: float, light: np.ndarray, mat_img: np.ndarray | None, table: str | None,
    shadow_blur: float = 0.18, used_table: list[str] | None = None,
    more_tables: Mapping[str, tuple[tuple[int, int, int], ...]] | None = None,
) -> np.ndarray:
    """The table (and mat) with the block's shadow, warped into the photo as float BGR."""
    w, h = cam.size
    h0 = cam.plane(0.0)
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
    world = cv2.perspectiveTransform(corners[None], np.linalg.inv(h0))[0]
    (x0, y0), (x1, y1) = world.min(axis=0) - 5, world.max(axis=0) + 5
    ppm = K.CANVAS_PX_PER_MM
    cw, ch = int((x1 - x0) * ppm), int((y1 - y0) * ppm)
    kind = table or str(rng.choice(sorted(K.TABLES)))
    if used_table is not None:
        used_table.append(kind)
    canvas = table_texture(rng, kind, (cw, ch), ppm, more_tables).astype(np.float32)
    if mat_img is not None:
        mh, mw = mat_img.shape[:2]
        ox, oy = int(round(-x0 * ppm)), int(round(-y0 * ppm))
        sx0, sy0 = max(0, -ox), max(0, -oy)
        dx0, dy0 = max(0, ox), max(0, oy)
        ww = min(mw - sx0, cw - dx0)
        hh = min(mh - sy0, ch - dy0)
        if ww > 0 and hh > 0:
            canvas[dy0 : dy0 + hh, dx0 : dx0 + ww] = mat_img[sy0 : sy0 + hh, sx0 : sx0 + ww]
    # soft shadow: footprints pushed away from the light, blurred
    shadow = np.zeros((ch, cw), np.float32)
    off = -light[:2] / max(light[2], 0.3) * edge * rng.uniform(*K.SHADOW_OFFSET)
    for x, y, ang in places.values():
        sq = _square(x + off[0], y + off[1], ang, edge * 1.02)
        pts = ((sq - [x0, y0]) * ppm).astype(np.int32)
        cv2.fillConvexPoly(shadow, pts, 1.0, lineType=cv2.LINE_AA)
    shadow = np.asarray(cv2.GaussianBlur(shadow, (0, 0), edge * shadow_blur * ppm), np.float32)
    canvas *= (1 - rng.uniform(*K.SHADOW_DEPTH) * shadow)[..., None]
    to_canvas = np.array([[ppm, 0, -x0 * ppm], [0, ppm, -y0 * ppm], [0, 0, 1.0]])
    return cv2.warpPerspective(
        canvas, h0 @ np.linalg.inv(to_canvas), (w, h), flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REFLECT,
    )


def _square(x: float, y: float, ang: float, edge: float) -> np.ndarray:
    c, s = math.cos(ang), math.sin(ang)
    half = edge / 2
    local = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    return local @ np.array([[c, s], [-s, c]]) + [x, y]


def _draw_sides(
    photo: np.ndarray, cam: _Camera, dice: Iterable[_Die],
    places: Mapping[Cell, tuple[float, float, float]], edge: float, light: np.ndarray,
    rng: np.random.Generator, look: Look | None = None,
) -> None:
    """The die walls the camera can see, flat-shaded from the light."""
    ambient, diffuse = look.side_shade if look is not None else (0.3, 0.5)
    for d in dice:
        x, y, ang = places[(d.row, d.col)]
        base = _die_colour(d.ingredient, look)[::-1]
        sq = _square(x, y, ang, edge * 0.97)
        for i in range(4):
            a, b = sq[i], sq[(i + 1) % 4]
            mid = (a + b) / 2
            out = mid - np.array([x, y])
            out /= np.linalg.norm(out)
            normal3 = np.array([out[0], out[1], 0.0])
            to_cam = cam.c - np.array([mid[0], mid[1], -edge / 2])
            if normal3 @ to_cam <= 0:
                continue
            lam = max(0.0, float(out[0] * light[0] + out[1] * light[1]))
            shade = ambient + diffuse * lam + rng.uniform(-0.03, 0.03)
            quad = np.array(
                [[a[0], a[1], -edge], [b[0], b[1], -edge], [b[0], b[1], 0.0], [a[0], a[1], 0.0]]
            )
            pts = np.round(cam.project(quad) * 16).astype(np.int32)
            cv2.fillConvexPoly(photo, pts, tuple(float(v) for v in base * shade), cv2.LINE_AA, 4)


def _camera_effects(rng: np.random.Generator, photo: np.ndarray, look: Look | None = None) -> bytes:
    """Light colour, exposure, gradient, blur, sensor noise and JPEG."""
    h, w = photo.shape[:2]
    gains = rng.uniform(*K.ILLUMINANT_GAIN, 3) * rng.uniform(*K.EXPOSURE)
    if look is not None:
        gains = gains * look.lamp_gains / float(look.lamp_gains.max())
    ang = rng.uniform(0, 2 * math.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ramp = (xx / w - 0.5) * math.cos(ang) + (yy / h - 0.5) * math.sin(ang)
    ramp = (ramp - ramp.min()) / max(float(np.ptp(ramp)), 1e-6)
    light = 1 - rng.uniform(*K.LIGHT_GRADIENT) * ramp
    out = photo * gains[None, None, :].astype(np.float32) * light[..., None]
    if look is not None and look.second_gains is not None:
        # mixed light: a second lamp's colour grows across the frame, in its own direction
        ang2 = rng.uniform(0, 2 * math.pi)
        ramp2 = (xx / w - 0.5) * math.cos(ang2) + (yy / h - 0.5) * math.sin(ang2)
        ramp2 = (ramp2 - ramp2.min()) / max(float(np.ptp(ramp2)), 1e-6)
        share = (look.second_share * ramp2)[..., None]
        ratio = (look.second_gains / float(look.second_gains.max())) / (
            look.lamp_gains / float(look.lamp_gains.max()))
        out = out * ((1 - share) + share * ratio[None, None, :].astype(np.float32))
    sigma = look.blur_px if look is not None else rng.uniform(*K.BLUR_SIGMA_PX)
    out = cv2.GaussianBlur(out, (0, 0), sigma)
    out += rng.normal(0, rng.uniform(*K.NOISE_SIGMA), out.shape).astype(np.float32)
    if look is not None and look.chroma_noise > 0:
        # a phone in dim light: colour blotches a few pixels wide, per channel
        blotch = rng.normal(0, 1.0, out.shape).astype(np.float32)
        blotch = cv2.GaussianBlur(blotch, (0, 0), 1.5)
        blotch *= look.chroma_noise / max(float(blotch.std()), 1e-6)
        out += blotch
    img = np.clip(out, 0, 255).astype(np.uint8)
    quality = int(rng.integers(K.JPEG_QUALITY[0], K.JPEG_QUALITY[1] + 1))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:  # pragma: no cover - OpenCV always encodes a uint8 BGR image
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()

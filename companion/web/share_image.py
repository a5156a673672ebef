"""The picture of a finished table a phone sends to the group chat: the ranking, then
each player's overlay thumbnails, drawn with Pillow on the server (a phone's share sheet
takes a file, not a page)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image, ImageFont

WIDTH_PX = 1080  # what chat apps show without scaling a picture down
MARGIN_PX = 48
ROW_PX = 84
THUMB_HEIGHT_PX = 420  # an overlay thumbnail: the sheet stays readable at a glance
THUMB_GAP_PX = 16
BACKGROUND = (246, 244, 239)  # the app's light colours (static/app.css)
CARD = (255, 255, 255)
TEXT = (28, 27, 24)
MUTED = (104, 98, 88)
ACCENT = (46, 125, 50)
LINE = (221, 215, 204)


@dataclass(frozen=True)
class ShareSeat:
    place: int | None
    name: str
    score: float | None
    winner: bool


@dataclass(frozen=True)
class ShareTable:
    """What the picture shows; ``overlays`` holds each player's sheet overlays (JPEG
    bytes), in ranking order, for the tables read from photos."""

    title: str
    subtitle: str
    seats: tuple[ShareSeat, ...]
    overlays: tuple[tuple[str, tuple[bytes, ...]], ...] = ()
    tiebreak: str | None = None


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    return ImageFont.load_default(size=size)  # Pillow's own font: no system font needed


def _fit(draw: object, text: str, font: object, width: int) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels."""
    length = draw.textlength  # type: ignore[attr-defined]
    if length(text, font=font) <= width:
        return text
    while text and length(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def _number(x: float | None) -> str:
    return "" if x is None else f"{x:g}"


def _thumbs(overlays: Sequence[bytes]) -> list[Image.Image]:
    from PIL import Image

    out = []
    room = WIDTH_PX - 2 * MARGIN_PX
    per = max(1, len(overlays))
    for data in overlays:
        with Image.open(io.BytesIO(data)) as img:
            rgb = img.convert("RGB")
        w = min(room // per - THUMB_GAP_PX, round(rgb.width * THUMB_HEIGHT_PX / rgb.height))
        h = round(rgb.height * w / rgb.width)
        out.append(rgb.resize((max(1, w), max(1, h)), Image.Resampling.LANCZOS))
    return out


def share_png(table: ShareTable) -> bytes:
    """The table as one PNG, WIDTH_PX wide and as tall as it needs."""
    from PIL import Image, ImageDraw

    groups = [(name, _thumbs(data)) for name, data in table.overlays if data]
    height = MARGIN_PX + 150 + ROW_PX * len(table.seats) + (60 if table.tiebreak else 0)
    for _, thumbs in groups:
        height += 70 + max(t.height for t in thumbs) + 24
    height += MARGIN_PX + 40
    img = Image.new("RGB", (WIDTH_PX, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    inner = WIDTH_PX - 2 * MARGIN_PX
    big, mid, small = _font(60), _font(40), _font(30)
    y = MARGIN_PX
    draw.text((MARGIN_PX, y), _fit(draw, table.title, big, inner), font=big, fill=TEXT)
    y += 78
    draw.text((MARGIN_PX, y), _fit(draw, table.subtitle, small, inner), font=small, fill=MUTED)
    y += 72
    for seat in table.seats:
        draw.rounded_rectangle((MARGIN_PX, y, WIDTH_PX - MARGIN_PX, y + ROW_PX - 12), 14,
                               fill=CARD, outline=ACCENT if seat.winner else LINE,
                               width=4 if seat.winner else 2)
        mid_y = y + (ROW_PX - 12) // 2
        draw.text((MARGIN_PX + 24, mid_y), f"{seat.place or '–'}.", font=mid, fill=MUTED,
                  anchor="lm")
        score = _number(seat.score)
        draw.text((WIDTH_PX - MARGIN_PX - 24, mid_y), score, font=mid, fill=TEXT, anchor="rm")
        name_room = inner - 120 - 24 - int(draw.textlength(score, font=mid)) - 40
        name = seat.name + ("  (won)" if seat.winner else "")
        draw.text((MARGIN_PX + 100, mid_y), _fit(draw, name, mid, name_room), font=mid,
                  fill=ACCENT if seat.winner else TEXT, anchor="lm")
        y += ROW_PX
    if table.tiebreak:
        draw.text((MARGIN_PX, y + 8), _fit(draw, table.tiebreak, small, inner), font=small,
                  fill=MUTED)
        y += 60
    for name, thumbs in groups:
        y += 24
        draw.text((MARGIN_PX, y), _fit(draw, name, mid, inner), font=mid, fill=TEXT)
        y += 46
        x = MARGIN_PX
        for t in thumbs:
            img.paste(t, (x, y))
            draw.rectangle((x, y, x + t.width - 1, y + t.height - 1), outline=LINE, width=2)
            x += t.width + THUMB_GAP_PX
        y += max(t.height for t in thumbs) + 24
    draw.text((MARGIN_PX, height - MARGIN_PX - 10), "Scored with companion", font=small,
              fill=MUTED, anchor="ls")
    out = io.BytesIO()
    # zlib's default level: optimize=True saves 4% of the bytes for 5 times the time
    img.save(out, format="PNG", compress_level=6)
    return out.getvalue()

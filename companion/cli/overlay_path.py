"""Where an ``--overlay PATH`` goes, alike for every reader: a path ending in .png, .jpg or
.jpeg is the overlay file itself; any other path is a folder (made when missing) that gets
``<photo name>.overlay.png`` for each photo."""

from __future__ import annotations

from pathlib import Path

from companion.errors import InputError

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")


def is_overlay_file(path: str | Path) -> bool:
    return Path(path).suffix.lower() in IMAGE_SUFFIXES


def overlay_file(target: str | Path, photo: str | Path) -> Path:
    """The overlay of ``photo`` under ``target`` (a file, or a folder made here)."""
    out = Path(target)
    if is_overlay_file(out):
        return out
    if out.exists() and not out.is_dir():
        raise InputError(f"--overlay {out} is a file, not a folder: give a folder, or a .png "
                         "or .jpg file to write")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create {out}: {exc.strerror}") from None
    return out / f"{Path(photo).stem}.overlay.png"


def one_overlay_file(target: str | Path, photos: int) -> None:
    """Refuse an overlay file for several photos: one picture cannot hold them all."""
    if is_overlay_file(target) and photos > 1:
        raise InputError(f"--overlay {target}: one image file for {photos} photos; give a "
                         "folder (a path without .png or .jpg) to get one overlay per photo")

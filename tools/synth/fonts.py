"""Handwriting fonts from Debian packages, split once and for all into train and held-out.

The split is by family (one person's hand), fixed here rather than hashed, so a font never
drifts from held-out into training when packages are added. Files are found by name under
the system font folders; a missing package simply contributes nothing.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

FONT_DIRS: tuple[Path, ...] = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))
# Folders to search instead of FONT_DIRS, separated by os.pathsep; set but empty means no
# fonts at all, which lets the suite be run as on a machine without the font packages.
FONT_DIRS_ENV = "COMPANION_FONT_DIRS"


class FontSplit(StrEnum):
    TRAIN = "train"
    HELDOUT = "heldout"


@dataclass(frozen=True)
class FontFamily:
    name: str
    package: str  # Debian package that installs the files
    files: tuple[str, ...]  # file names, searched for anywhere under FONT_DIRS
    split: FontSplit


_T = FontSplit.TRAIN
_H = FontSplit.HELDOUT

# Chosen by looking at B C F G L M O P S W in each: legible print-like capitals only
# (left out: Ecolier, Femkeklaver (hollow), Kristi, Leckerli One, GNU Typewriter).
FONT_FAMILIES: tuple[FontFamily, ...] = (
    FontFamily("andika", "fonts-sil-andika",
               ("Andika-Regular.ttf", "Andika-Bold.ttf", "Andika-Italic.ttf",
                "Andika-BoldItalic.ttf"), _T),
    FontFamily("because-we-build", "fonts-bwht", ("BecauseWeBuild-Regular.otf",), _T),
    FontFamily("because-we-connect", "fonts-bwht", ("BecauseWeConnect-Regular.otf",), _H),
    FontFamily("because-we-create", "fonts-bwht", ("BecauseWeCreate-Regular.otf",), _T),
    FontFamily("because-we-learn", "fonts-bwht", ("BecauseWeLearn-Regular.otf",), _T),
    FontFamily("because-we-mentor", "fonts-bwht", ("BecauseWeMentor-Regular.otf",), _T),
    FontFamily("because-we-organize", "fonts-bwht", ("BecauseWeOrganize-Regular.otf",), _T),
    FontFamily("breip", "fonts-breip", ("Breip.ttf", "breipfont.ttf"), _T),
    FontFamily("comic-neue", "fonts-comic-neue",
               ("ComicNeue-Regular.otf", "ComicNeue-Bold.otf", "ComicNeue-Italic.otf",
                "ComicNeue-BoldItalic.otf", "ComicNeue-Light.otf",
                "ComicNeue-LightItalic.otf"), _T),
    FontFamily("dancing-script", "fonts-dancingscript",
               ("DancingScript-Regular.otf", "DancingScript-Bold.otf"), _T),
    FontFamily("delphine", "fonts-sjfonts", ("Delphine.ttf",), _T),
    FontFamily("dkg", "fonts-dkg-handwriting",
               ("dkg.ttf", "dkgBd.ttf", "dkgIt.ttf", "dkgBI.ttf"), _T),
    FontFamily("humor-sans", "fonts-humor-sans", ("Humor-Sans.ttf",), _H),
    FontFamily("kaushan-script", "fonts-kaushanscript", ("KaushanScript-Regular.otf",), _T),
    FontFamily("klee-one", "fonts-klee", ("KleeOne-Regular.ttf", "KleeOne-SemiBold.ttf"), _H),
    FontFamily("purisa", "fonts-tlwg-purisa-ttf",
               ("Purisa.ttf", "Purisa-Bold.ttf", "Purisa-Oblique.ttf",
                "Purisa-BoldOblique.ttf"), _H),
    FontFamily("rufscript", "fonts-rufscript", ("Rufscript010.ttf",), _T),
    FontFamily("steve-hand", "fonts-sjfonts", ("SteveHand.ttf",), _H),
    FontFamily("tomson-talks", "fonts-tomsontalks", ("TomsonTalks.ttf",), _T),
    FontFamily("yusei-magic", "fonts-yusei-magic", ("YuseiMagic-Regular.ttf",), _T),
)


def font_dirs() -> tuple[Path, ...]:
    """The folders searched for font files: FONT_DIRS unless the environment names others."""
    setting = os.environ.get(FONT_DIRS_ENV)
    if setting is None:
        return FONT_DIRS
    return tuple(Path(p) for p in setting.split(os.pathsep) if p)


def debian_packages() -> list[str]:
    """Sorted apt package names that provide every font above."""
    return sorted({f.package for f in FONT_FAMILIES})


@functools.cache
def _installed_files() -> dict[str, str]:
    """Font file name -> first path found, searched once per process."""
    found: dict[str, str] = {}
    for root in font_dirs():
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.suffix.lower() in (".ttf", ".otf") and path.name not in found:
                found[path.name] = str(path)
    return found


def font_families(split: FontSplit | str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Installed families of one split as (name, sorted font paths), sorted by name.

    Families with no installed file are left out.
    """
    wanted = FontSplit(split)
    files = _installed_files()
    out: list[tuple[str, tuple[str, ...]]] = []
    for fam in sorted(FONT_FAMILIES, key=lambda f: f.name):
        if fam.split is not wanted:
            continue
        paths = tuple(sorted(files[n] for n in fam.files if n in files))
        if paths:
            out.append((fam.name, paths))
    return tuple(out)

"""Photo-level verdicts: one reason that explains many doubtful fields, said once.

A photo taken too far away leaves every small mark in doubt for the same reason; listing
ninety fields with one note hides the one thing to do (retake it closer). Readers write
the notes below on their fields; this module, free of image libraries, turns a shared
note into one verdict for the photo, and the front ends show it instead of the fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.games.delicious.players import FieldLike

LOW_DETAIL_NOTE = "too little detail in the photo here to be sure"
BLUR_NOTE = "the photo is out of focus here: too little detail to be sure"
GLARE_NOTE = "glare: the photo is washed out here"
BENT_NOTE = "the paper bends here: it is not where the sheet should be"
COVER_NOTE = "something lies on the sheet here: its print is hidden"
LOW_LIGHT_NOTE = "the photo is too dark or grainy to be sure"
# The photo lost or blurred the ink here (or the paper is not where it should be): a
# drawn cell's letter is not taken under these notes, and low light does not replace them.
SIGHT_NOTES = frozenset({LOW_DETAIL_NOTE, BLUR_NOTE, GLARE_NOTE, BENT_NOTE, COVER_NOTE})
VERDICT_MIN_FIELDS = 5  # fewer fields sharing a note are listed one by one
GLARE_PARTS_NAMED = 3  # a reflection over more parts of the sheet is "much of the sheet"


class VerdictCode(StrEnum):
    LOW_DETAIL = "low-detail"
    GLARE = "glare"
    BENT = "bent"
    LOW_LIGHT = "low-light"
    COVERED = "covered"


_PHOTO_WIDE: dict[str, VerdictCode] = {
    LOW_DETAIL_NOTE: VerdictCode.LOW_DETAIL,
    BLUR_NOTE: VerdictCode.LOW_DETAIL,  # the same want of detail; another cure, said so
    GLARE_NOTE: VerdictCode.GLARE,
    BENT_NOTE: VerdictCode.BENT,
    LOW_LIGHT_NOTE: VerdictCode.LOW_LIGHT,
    COVER_NOTE: VerdictCode.COVERED,
}


@dataclass(frozen=True)
class Verdict:
    """One reason covering many fields of one photo, and what to do about it."""

    code: VerdictCode
    photo: str
    fields: tuple[str, ...]
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code.value, "photo": self.photo, "fields": list(self.fields),
                "message": self.message}


def _where(fields: tuple[str, ...]) -> str:
    """"the planter", "the play sheet" or "the whole sheet": where most of the fields are."""
    parts = sorted({f"the {f.split('.')[1]}" if f.startswith("garden.") else "the play sheet"
                    for f in fields})
    if len(parts) > GLARE_PARTS_NAMED:
        return "much of the sheet"
    return " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)


def _message(code: VerdictCode, fields: tuple[str, ...], blurred: bool = False) -> str:
    n = len(fields)
    if code is VerdictCode.LOW_DETAIL and blurred:
        return (f"too little detail, the photo is out of focus: retake it holding the phone "
                f"still until it focuses on the sheet ({n} fields in doubt)")
    if code is VerdictCode.LOW_DETAIL:
        return (f"too little detail: retake the photo closer or at a higher resolution "
                f"({n} fields in doubt)")
    if code is VerdictCode.LOW_LIGHT:
        return (f"too dark or grainy: retake the photo in better light, holding the phone "
                f"still ({n} fields in doubt)")
    if code is VerdictCode.BENT:
        return (f"the paper lifts off the table at {_where(fields)}: lay the sheet flat and "
                f"retake the photo ({n} fields in doubt)")
    if code is VerdictCode.COVERED:
        return (f"something lies on {_where(fields)}: move it off the sheet and retake the "
                f"photo ({n} fields hidden)")
    return (f"glare over {_where(fields)}: retake the photo without the reflection, tilting "
            f"the phone or moving the light ({n} fields washed out)")


def photo_verdicts(photo: str, readings: Mapping[str, FieldLike]) -> list[Verdict]:
    """The photo-wide reasons behind this photo's fields in review (none when few)."""
    shared: dict[VerdictCode, list[str]] = {}
    doubtful = [fid for fid, r in sorted(readings.items()) if r.review]
    for fid in doubtful:
        code = _PHOTO_WIDE.get(readings[fid].note)
        if code is not None:
            shared.setdefault(code, []).append(fid)
    # out of focus rather than too far: most of the fields short of detail say so
    blurs = [readings[f].note == BLUR_NOTE for f in shared.get(VerdictCode.LOW_DETAIL, [])]
    blurred = 2 * sum(blurs) > len(blurs)
    shared = {c: f for c, f in shared.items() if len(f) >= VERDICT_MIN_FIELDS}
    for code in (VerdictCode.LOW_DETAIL, VerdictCode.LOW_LIGHT):
        if code in shared:
            # On a photo this coarse (or this grainy) every doubt has the same cure, so the
            # one verdict covers all of them.
            shared = {code: doubtful}
            break
    return [Verdict(code, photo, tuple(fids), _message(code, tuple(fids), blurred))
            for code, fids in shared.items()]

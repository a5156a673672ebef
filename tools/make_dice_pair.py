"""Render the before/after example pair in examples/dice/photos/ (a cut, then the after
photo taken from the next side of the table: the camera moved and turned a quarter).

    python -m tools.make_dice_pair
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from companion.games.diced_veggies.model import Block
from tools.synth.dice_photo import random_block, render_dice_photo

OUT = Path(__file__).resolve().parents[1] / "examples/dice/photos"
SEED = 2024


def main() -> None:
    rng = np.random.default_rng(SEED)
    before = random_block(rng)
    block = Block.from_json(before)
    checks = [c for c in block.legal_cut_checks() if len(c.taken) >= 2]
    chosen = checks[len(checks) // 2]
    assert chosen.cut is not None
    after = block.without(chosen.taken).to_json()
    shot_before = render_dice_photo(before, rng, table="wood", dark_pips=True)
    shot_after = render_dice_photo(after, rng, table="wood", dark_pips=True)
    turned = np.ascontiguousarray(np.rot90(shot_after.image, -1))  # a quarter turn clockwise
    import cv2

    cv2.imwrite(str(OUT / "pair-before.jpg"), shot_before.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    cv2.imwrite(str(OUT / "pair-after-turned.jpg"), turned, [cv2.IMWRITE_JPEG_QUALITY, 90])
    truth = {
        "before": shot_before.block,
        "after": shot_after.block,
        "after_photo": "turned a quarter clockwise after the shot: the camera stood at the "
                       "next side of the table",
        "cut": str(chosen.cut),
        "taken": [list(c) for c in chosen.taken],
        "sum": chosen.sum,
        "legal": True,
    }
    (OUT / "pair.json").write_text(json.dumps(truth, indent=1) + "\n")
    print(f"cut {chosen.cut}: takes {chosen.taken} ({chosen.sum} pips)")


if __name__ == "__main__":
    main()

"""Example photos changed on purpose for the web tests and the docs' screenshots."""

from __future__ import annotations

from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# Half of the B written in garden.planter.r0.c1 of the example photo below, in its pixels
# (x0, y0, x1, y1): painted over in the paper's colour, the cell reads as an erased letter
# and goes to review. With the letter ensemble no example photo has a field in review.
HALF_A_LETTER = (1821, 543, 1864, 562)
REVIEW_EXAMPLE = EXAMPLES / "delicious" / "photos" / "combo-upside-down-B.jpg"


def photo_with_a_field_to_review(folder: Path) -> Path:
    """An example photo with one letter half rubbed out, so that one field is in review."""
    import cv2
    import numpy as np

    img = cv2.imread(str(REVIEW_EXAMPLE))
    x0, y0, x1, y1 = HALF_A_LETTER
    patch = img[y0:y1, x0:x1]
    img[y0:y1, x0:x1] = np.median(patch.reshape(-1, 3), axis=0)
    out = folder / "combo-half-erased.jpg"
    cv2.imwrite(str(out), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return out


# A dice game in the wider synthetic setting (tools/synth) where the colours learnt from
# the full block change how a later photo of a cut block is read: read alone, some of its
# dice are named wrong or sent to review for their colour; read with the learnt colours,
# they are not. The seed was chosen for that (tests/test_dice_colours_web.py checks it).
DICE_GAME_SEED = 40_003


def dice_game_photos(folder: Path, seed: int = DICE_GAME_SEED) -> tuple[Path, Path, object]:
    """A game's full starting block and a later cut block (same dice, lamp and table) as
    JPEG files in ``folder``, and the later photo's ``DicePhoto`` (its truth)."""
    import numpy as np

    from tools.synth.dice_photo import random_block, render_dice_photo
    from tools.synth.dice_style import WIDER, draw_look

    rng = np.random.default_rng(seed)
    look = draw_look(WIDER, rng)
    start = render_dice_photo(random_block(rng), rng, table="wood", look=look)
    later = render_dice_photo(random_block(rng, irregular=True), rng, table="wood", look=look)
    full, cut = folder / "block-full.jpg", folder / "block-cut.jpg"
    full.write_bytes(start.jpeg)
    cut.write_bytes(later.jpeg)
    return full, cut, later


# A sketched combo sheet for the web tests and the sketch guide's screenshot: one player of
# the generator's held-out setting sketching these plants (the rest in letters).
SKETCH_PLANTS = ("carrot", "broccoli", "mushroom", "onion", "strawberry", "watermelon", "fig",
                 "blueberry")
SKETCH_SEEDS = (1001, 5, 11)  # game, player style, photo


def sketched_sheet_photo(folder: Path, size_px: int = 2400) -> Path:
    """A photo of a combo sheet whose plants are mostly sketched."""
    return sketched_game_photos(folder, size_px, games=1)[0][0]


def sketched_game_photos(folder: Path, size_px: int = 2400, games: int = 2,
                         key: bool = False) -> list[tuple[Path, dict[str, str]]]:
    """Photos of one sketching player's combo sheets in ``games`` games (the same hand and
    plants drawn, other fields and photos), each with its true field values; ``key``: the
    player draws each plant once in the sheet's key too (the same photos otherwise)."""
    import numpy as np

    from companion.games.delicious.simulate import simulate_game
    from tools.synth.camera import CameraOptions
    from tools.synth.sheet_photo import render_sheet_photo
    from tools.synth.sketches import make_player

    game, style, photo = SKETCH_SEEDS
    out = []
    for k in range(games):
        field_map = dict(simulate_game(game + k, 3, "A").field_maps[0])
        player = make_player(np.random.default_rng(style), "heldout", SKETCH_PLANTS)
        made = render_sheet_photo("delicious-combo", field_map, photo + k,
                                  camera=CameraOptions().sized(size_px), sketcher=player,
                                  key=key)
        name = "combo-sketched" + ("-key" if key else "") + (f"-{k + 1}" if k else "")
        path = folder / f"{name}.jpg"
        path.write_bytes(made.photo.jpeg)
        out.append((path, dict(made.truth)))
    return out

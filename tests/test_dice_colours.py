"""Dice colours judged from the photo's own dice: the 7-each constraint of a full block, a
family split in two, colours learnt from a game's full block and read back from a file."""

from __future__ import annotations

import io
import itertools
import json
import sys

import numpy as np
import pytest

from companion.errors import InputError
from companion.vision.dice.assign import balanced_labels, min_cost_assignment
from companion.vision.dice.colour import CENTROIDS, INGREDIENT_NAMES
from companion.vision.dice.colours import (
    DiceColours,
    colours_from,
    load_colours,
    save_colours_file,
)
from companion.vision.dice.constants import REVIEW_BELOW
from companion.vision.dice.families import fit_families
from tests.conftest import invoke

NAMES = list(INGREDIENT_NAMES)


def test_the_assignment_is_the_cheapest_of_all():
    rng = np.random.default_rng(1)
    for _ in range(200):
        n = int(rng.integers(1, 6))
        m = int(rng.integers(n, 7))
        cost = rng.random((n, m))
        got = min_cost_assignment(cost)
        assert len(set(got.tolist())) == n
        best = min(sum(cost[i, p[i]] for i in range(n))
                   for p in itertools.permutations(range(m), n))
        assert sum(cost[i, got[i]] for i in range(n)) == pytest.approx(best)


def test_balanced_labels_hold_each_group_to_its_places():
    rng = np.random.default_rng(2)
    cost = rng.random((35, 5))
    cost[:, 0] -= 5  # every row would rather be in group 0
    labels = balanced_labels(cost, 7)
    assert np.bincount(labels, minlength=5).tolist() == [7] * 5
    with pytest.raises(ValueError):
        balanced_labels(rng.random((36, 5)), 7)


def _full_block(layout: np.ndarray, rng: np.random.Generator, noise: float = 0.03):
    feats, names = [], []
    for k, name in enumerate(NAMES):
        for _ in range(7):
            feats.append(layout[k] + rng.normal(0, noise, 2))
            names.append(name)
    return feats, names


def _orange_as_tan() -> np.ndarray:
    """A box whose carrots lie nearer our tan than our orange, and whose reds lean pink:
    the failure of the independent renders under warm light."""
    layout = CENTROIDS.copy()
    carrot, mushroom = NAMES.index("carrot"), NAMES.index("mushroom")
    tomato, onion = NAMES.index("tomato"), NAMES.index("onion")
    layout[carrot] = CENTROIDS[mushroom] + 0.62 * (CENTROIDS[carrot] - CENTROIDS[mushroom])
    layout[mushroom] = CENTROIDS[mushroom] + np.array([-0.12, 0.1])
    layout[tomato] = CENTROIDS[onion] + 0.6 * (CENTROIDS[tomato] - CENTROIDS[onion])
    return layout


def test_a_full_block_is_named_seven_of_each():
    rng = np.random.default_rng(3)
    feats, names = _full_block(_orange_as_tan(), rng)
    fit = fit_families(feats, np.zeros(2), True)
    assert fit.seven_each
    assert [c.ingredient for c in fit.calls] == names


def test_a_restocked_block_of_any_mix_is_not_forced_to_seven_each():
    rng = np.random.default_rng(4)
    counts = [12, 3, 7, 6, 7]  # 35 dice, not 7 of each
    feats, names = [], []
    for k, n in enumerate(counts):
        for _ in range(n):
            feats.append(CENTROIDS[k] + rng.normal(0, 0.03, 2))
            names.append(NAMES[k])
    fit = fit_families(feats, np.zeros(2), True)
    assert not fit.seven_each
    assert [c.ingredient for c in fit.calls] == names


def test_a_family_holding_two_groups_apart_is_split_and_renamed():
    """A cut block whose carrots the light fit calls mushroom (no die in the carrot
    family): the mushroom family holds two groups far apart, one of them the carrots."""
    rng = np.random.default_rng(5)
    layout = CENTROIDS.copy()
    carrot, mushroom = NAMES.index("carrot"), NAMES.index("mushroom")
    layout[carrot] = CENTROIDS[mushroom] + 0.52 * (CENTROIDS[carrot] - CENTROIDS[mushroom])
    feats, names = [], []
    for k, n in enumerate([5, 5, 4, 4, 4]):
        for _ in range(n):
            feats.append(layout[k] + rng.normal(0, 0.02, 2))
            names.append(NAMES[k])
    calls = fit_families(feats, np.zeros(2), True).calls
    wrong = [(n, c.ingredient, c.confidence) for n, c in zip(names, calls, strict=True)
             if c.ingredient != n]
    assert all(conf < REVIEW_BELOW for *_, conf in wrong), wrong  # never a silent error
    assert len(wrong) <= 1


def test_learnt_colours_read_a_later_photo_of_the_same_dice():
    rng = np.random.default_rng(6)
    layout = _orange_as_tan()
    feats, names = _full_block(layout, rng)
    learnt = colours_from(np.array(feats), names, "pips")
    # a later cut block, its white found a little differently
    later, truth = [], []
    for k, n in enumerate([2, 5, 1, 4, 3]):
        for _ in range(n):
            later.append(layout[k] + np.array([0.08, -0.05]) + rng.normal(0, 0.03, 2))
            truth.append(NAMES[k])
    fit = fit_families(later, np.zeros(2), True, known=learnt.centres,
                       known_scatter=learnt.scatter)
    assert [c.ingredient for c in fit.calls] == truth
    assert all(c.confidence >= REVIEW_BELOW for c in fit.calls)


def test_learnt_colours_follow_a_white_found_far_from_the_game_start_s():
    """A later photo whose white came from its own brightest pixels, far from the game
    start's (the learnt layout lies shifted by 0.45 and 1.05 log units): within the usual
    search round no shift the layout names the dice in a ring; laid on the photo's own
    families it names every die."""
    rng = np.random.default_rng(9)
    feats, names = _full_block(CENTROIDS, rng)
    learnt = colours_from(np.array(feats), names, "photo")
    far = np.array([-0.45, -1.05])
    later, truth = [], []
    for k, n in enumerate([4, 3, 5, 4, 3]):
        for _ in range(n):
            later.append(CENTROIDS[k] + far + rng.normal(0, 0.03, 2))
            truth.append(NAMES[k])
    fit = fit_families(later, np.zeros(2), False, known=learnt.centres,
                       known_scatter=learnt.scatter)
    assert [c.ingredient for c in fit.calls] == truth


def test_a_later_full_block_keeps_its_seven_groups_and_takes_the_games_names():
    """A box whose carrots look like our tan and mushrooms lie between: alone, the five
    groups of seven would be named by our nominal colours (carrots as mushrooms); with
    the game's learnt colours the same groups are named as the game's dice are."""
    rng = np.random.default_rng(8)
    layout = CENTROIDS.copy()
    carrot, mushroom = NAMES.index("carrot"), NAMES.index("mushroom")
    layout[carrot] = CENTROIDS[mushroom]
    layout[mushroom] = CENTROIDS[mushroom] + 0.7 * (CENTROIDS[carrot] - CENTROIDS[mushroom])
    feats, names = _full_block(layout, rng)
    learnt = colours_from(np.array(feats), names, "pips")
    later, truth = _full_block(layout + np.array([0.05, -0.04]), rng)
    fit = fit_families(later, np.zeros(2), True, known=learnt.centres,
                       known_scatter=learnt.scatter)
    assert fit.seven_each
    assert [c.ingredient for c in fit.calls] == truth


def test_colours_are_learnt_only_from_a_full_block():
    rng = np.random.default_rng(7)
    feats, names = _full_block(CENTROIDS, rng)
    with pytest.raises(InputError, match="not a full starting block"):
        colours_from(np.array(feats[:20]), names[:20], "pips")
    doubled = ["carrot"] * 10 + names[10:]
    with pytest.raises(InputError, match="10 carrot"):
        colours_from(np.array(feats), doubled, "pips")


def test_the_colours_file_round_trips_and_refuses_other_documents(tmp_path):
    rng = np.random.default_rng(8)
    feats, names = _full_block(CENTROIDS, rng)
    colours = colours_from(np.array(feats), names, "paper")
    path = tmp_path / "colours.json"
    save_colours_file(colours, path)
    doc = json.loads(path.read_text())
    assert doc["format"] == "companion-dice-colours" and doc["version"] == 1
    assert set(doc["families"]) == set(NAMES)
    back = load_colours(path)
    assert np.allclose(back.centres, colours.centres, atol=1e-4)
    assert back.white == "paper"
    bad = {**doc, "families": {k: v for k, v in doc["families"].items() if k != "onion"}}
    for wrong, needle in (({"dice": []}, "not a dice colours file"),
                          ({**doc, "version": 9}, "version"),
                          (bad, "exactly the five families")):
        path.write_text(json.dumps(wrong))
        with pytest.raises(InputError, match=needle):
            load_colours(path)
    path.write_text("{")
    with pytest.raises(InputError, match="not a JSON"):
        load_colours(path)
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(InputError, match="not a JSON"):
        load_colours(path)
    assert isinstance(DiceColours.from_json(doc), DiceColours)


def test_the_colours_file_is_read_from_stdin(tmp_path, monkeypatch):
    feats, names = _full_block(CENTROIDS, np.random.default_rng(8))
    path = tmp_path / "colours.json"
    save_colours_file(colours_from(np.array(feats), names, "paper"), path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(path.read_text()))
    assert load_colours("-").white == "paper"


# ---- photos: the wider synthetic setting (tools/synth), read through the CLI ---------------


def _game_photos(tmp_path):
    from tools.synth.dice_photo import random_block, render_dice_photo
    from tools.synth.dice_style import WIDER, draw_look

    rng = np.random.default_rng(40_003)
    look = draw_look(WIDER, rng)
    start = render_dice_photo(random_block(rng), rng, table="wood", look=look)
    later = render_dice_photo(random_block(rng, irregular=True), rng, table="wood", look=look)
    full, cut = tmp_path / "full.jpg", tmp_path / "cut.jpg"
    full.write_bytes(start.jpeg)
    cut.write_bytes(later.jpeg)
    return str(full), str(cut), later


def test_save_colours_then_read_the_game_with_them(tmp_path):
    from companion.vision.dice.reader import read_dice_photo
    from tools.synth.dice_truth import score_reading

    full, cut, later = _game_photos(tmp_path)
    colours = str(tmp_path / "colours.json")
    plain = invoke("dice", "read", full, "--json")
    saved = invoke("dice", "read", full, "--json", "--save-colours", colours)
    assert saved.exit_code == 0, saved.output
    # saving the colours leaves the reading itself as it was
    strip = [json.loads(r.stdout) for r in (plain, saved)]
    for doc in strip:
        doc.pop("seconds")
    assert strip[0] == strip[1]
    assert json.loads(open(colours).read())["format"] == "companion-dice-colours"
    result = invoke("dice", "read", cut, "--json", "--colours", colours)
    assert result.exit_code == 0, result.output
    reading = read_dice_photo(cut, load_colours(colours))
    assert reading.with_colours
    score = score_reading(later, reading.dice)
    assert score.silent == 0 and score.ingredient_ok == score.dice - score.missed
    for cmd in (["cuts", cut], ["check", cut, "--cut", "V1L"]):
        assert invoke("dice", *cmd, "--json", "--colours", colours).exit_code in (0, 1)


def test_a_cut_block_does_not_teach_colours(tmp_path):
    _, cut, _ = _game_photos(tmp_path)
    result = invoke("dice", "read", cut, "--save-colours", str(tmp_path / "c.json"))
    assert result.exit_code == 2
    assert "not a full starting block" in result.stderr
    assert not (tmp_path / "c.json").exists()


def test_a_bad_colours_file_is_one_line(tmp_path):
    _, cut, _ = _game_photos(tmp_path)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something-else"}')
    result = invoke("dice", "read", cut, "--colours", str(bad))
    assert result.exit_code == 2
    assert "not a dice colours file" in result.stderr
    assert "Traceback" not in result.output


def test_overlay_is_a_file_or_a_folder_by_its_suffix(tmp_path):
    _, cut, _ = _game_photos(tmp_path)
    as_file = tmp_path / "mine.png"
    assert invoke("dice", "read", cut, "--overlay", str(as_file)).exit_code == 0
    assert as_file.is_file()
    folder = tmp_path / "overlays"
    assert invoke("dice", "read", cut, "--overlay", str(folder)).exit_code == 0
    assert (folder / "cut.overlay.png").is_file()
    assert invoke("dice", "cuts", cut, "--overlay", str(folder / "sub")).exit_code == 0
    assert (folder / "sub" / "cut.overlay.png").is_file()


def test_a_later_photo_whose_colours_all_doubt_is_read_not_refused(tmp_path):
    """With the game's colours a photo is a block when its dice are surely there with
    their pips read, even if this light leaves every colour in doubt: read, every die in
    review, rather than refused as "no dice". Inputs without a block are still refused."""
    from companion.vision.dice import gate
    from companion.vision.dice.reader import read_dice_image, read_dice_photo
    from tools.bench_dice_vision import bad_inputs

    full, cut, _ = _game_photos(tmp_path)
    learnt = load_colours_of(full, tmp_path)
    # the families' colours turned round: every die named against the wrong layout
    wrong = DiceColours(np.roll(learnt.centres, 1, axis=0), learnt.scatter, learnt.white)
    reading = read_dice_photo(cut, wrong)
    assert len(reading.dice) >= 20 and all(d.review for d in reading.dice)
    with pytest.raises(gate.NoDiceError):
        gate.confirm(reading.dice)  # counted by colour too, as a photo read alone is
    for name, item in itertools.islice(bad_inputs(), 6):
        with pytest.raises(gate.NoDiceError):
            read_dice_image(item, learnt)  # blank, noise, empty tables: still no block
        assert name


def load_colours_of(full, tmp_path):
    path = tmp_path / "colours.json"
    assert invoke("dice", "read", full, "--save-colours", str(path)).exit_code == 0
    return load_colours(path)

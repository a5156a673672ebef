"""Which ingredient each die is, judged on all the photo's dice together.

A person names the colours of a block by comparing its dice with each other and with
something white, not with remembered paint chips. Here each die's face colour is taken as
log-chromaticity relative to the photo's white (the mat's paper, the pips, or the glints),
so the light's colour is one shift. That shift, and how saturated this batch and light make
the dice, are then fitted to all the dice at once against the five families' layout
(``colour.CENTROIDS``); the families actually seen then pull their own centres to where
this photo shows them. A die between two families (orange carrot or tan mushroom, red
tomato or pink onion) gets a low confidence and goes to review rather than a guess.

A full starting block holds 7 dice of each family: when a photo's 35 dice fall naturally
into five groups of seven, each group is one family, and the five groups are named
together (one light fitted to all five, every family once), so a whole family cannot pass
for its neighbour. A photo of fewer dice that names more than 7 of one family, its dice
falling by themselves into groups of at most 7 (a warm lamp squeezes the carrots' dim blue
so that one light per axis lays them on the mushrooms' place, yet they lie together, apart
from the mushrooms), is named by those groups; the dice it names otherwise go to review
with both families named. Colours learnt from a game's full block (``known``) replace the
fit: later photos are read against the table's own dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from companion.vision.dice import constants as C
from companion.vision.dice.assign import balanced_labels, min_cost_assignment
from companion.vision.dice.colour import CENTROIDS, DICE_PER_FAMILY, INGREDIENT_NAMES


@dataclass(frozen=True)
class FamilyCall:
    ingredient: str
    confidence: float  # 0-1, from the margin to the runner-up family in this photo
    runner_up: str
    distance: float  # spread units to the chosen family's centre in this photo
    rival: bool = False  # another light, fitting nearly as well, names this die otherwise
    twin: str | None = None  # a die of this photo that looks just like it is named this
    too_many: bool = False  # its family holds more dice here than the game has of it
    # a family holds more dice here than the game has of it, and named with at most 7 in
    # each this die is another family: that one
    crowded: str | None = None
    # its family's dice fall in two groups a little apart and it is in the smaller: the
    # family it may be instead (the one its group lies towards)
    apart: str | None = None
    # named with at most 7 dice in each family, the photo's dice fell into groups of their
    # own (``_capped_groups``) that name this die otherwise than the plain fit did: that
    # family, the one it may be instead
    regrouped: str | None = None
    # its family holds the game's full 7 in a photo naming no die of another family (read
    # alone, not as a full block): the absent family, which its 7 may hide
    beside_absent: str | None = None


def _fit_light(
    rel: np.ndarray, prior_sigma: float, base: np.ndarray = CENTROIDS,
    saturations: Sequence[float] = C.FAMILY_SATURATIONS, centre: np.ndarray | None = None,
    fits: list[tuple[np.ndarray, np.ndarray]] | None = None,
) -> tuple[np.ndarray, np.ndarray, set[int]]:
    """Shift t and saturation s (one per axis) with rel ~ s * centroid + t, chosen by every
    die at once: a robust sum of distances to the nearest family, plus priors keeping t
    near zero (the white reference is right unless the dice say clearly otherwise) and s
    near one. Each axis has its own saturation: under a warm lamp the blue channel is
    weak, and noise and compression squeeze the blue-green axis more than the red-green.
    Also the dice a rival fit, nearly as good, names otherwise: there the light itself is
    in doubt (several dice of one family could pass for the next family under another
    light). ``base``: the families' layout fitted (the nominal one, or a game's learnt
    colours), with these saturations tried on each axis; ``centre``: the shift the search
    is centred on and its prior drawn to (none: no shift); ``fits``: where the coarse
    search's candidates are also kept (``_search``), for ``_capped_light``."""
    span, step = C.FAMILY_SHIFT_SPAN, C.FAMILY_SHIFT_STEP
    mid = np.zeros(2) if centre is None else np.asarray(centre, np.float64)
    sats = [np.array([a, b]) for a in saturations for b in saturations]
    fits = [] if fits is None else fits
    coarse = _search(rel, _lattice(mid, span, 3 * step), sats, prior_sigma, fits, base, mid)
    fine = _search(rel, _lattice(coarse[0], 1.5 * step, step / 2), [coarse[1]], prior_sigma,
                   base=base, centre=mid)
    return fine[0], fine[1], _rivals(fits)


def _misfit(rel: np.ndarray, base: np.ndarray, shift: np.ndarray, sat: np.ndarray) -> float:
    """How badly the families' layout ``base`` under one light fits the dice: the robust
    sum _search minimises, without its priors."""
    model = base * sat[None, :] + shift
    nearest = np.linalg.norm(rel[:, None, :] - model[None], axis=-1).min(axis=1)
    return float((np.minimum(nearest / C.COLOUR_SPREAD, C.FAMILY_ROBUST_CAP) ** 2).sum())


def _layout_shift(base: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """The shift of the light that lays ``base`` best on ``centres``, family for family: a
    least-squares line per axis, its slope (the saturation) kept within
    KNOWN_SATURATIONS."""
    shift = np.zeros(2)
    for a in range(2):
        x, y = base[:, a], centres[:, a]
        dx = x - x.mean()
        slope = float((dx * (y - y.mean())).sum() / max(float((dx * dx).sum()), 1e-9))
        sat = min(max(slope, min(C.KNOWN_SATURATIONS)), max(C.KNOWN_SATURATIONS))
        shift[a] = float(y.mean() - sat * x.mean())
    return shift


def _rivals(fits: list[tuple[np.ndarray, np.ndarray]]) -> set[int]:
    """Dice named otherwise by the best fit that differs from the best at several dice,
    when its cost is within FAMILY_RIVAL_COST of the best's."""
    totals = np.concatenate([t for t, _ in fits])
    labels = np.concatenate([lab for _, lab in fits])
    b = int(np.argmin(totals))
    differ = labels != labels[b]
    several = differ.sum(axis=1) >= C.FAMILY_RIVAL_MIN_DICE
    if not several.any():
        return set()
    a = int(np.argmin(np.where(several, totals, np.inf)))
    if totals[a] - totals[b] > C.FAMILY_RIVAL_COST:
        return set()
    return {int(i) for i in np.flatnonzero(differ[a])}


def _lattice(centre: np.ndarray, span: float, step: float) -> np.ndarray:
    ax = np.arange(-span, span + 1e-9, step)
    tx, ty = np.meshgrid(ax, ax)
    return np.stack([tx.ravel(), ty.ravel()], axis=1) + centre  # (T, 2)


def _search(
    rel: np.ndarray, shifts: np.ndarray, saturations: Sequence[np.ndarray], prior_sigma: float,
    fits: list[tuple[np.ndarray, np.ndarray]] | None = None, base: np.ndarray = CENTROIDS,
    centre: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The best (shift, saturation); with ``fits``, every candidate's total cost and the
    family each die is nearest are appended to it, one (T,), (T, N) pair per saturation."""
    best = (np.inf, np.zeros(2), np.ones(2))
    cap = C.FAMILY_ROBUST_CAP
    # each die's offset from each shift, (T, N) per axis; then, per saturation, the squared
    # distance to each family in turn, worked out in place (the same bits as the (T, N, K)
    # arrays, whose fresh copies and short inner axis cost more than the arithmetic)
    ox = rel[None, :, 0] - shifts[:, None, 0]
    oy = rel[None, :, 1] - shifts[:, None, 1]
    dx, dy = np.empty_like(ox), np.empty_like(oy)
    mid = np.zeros(2) if centre is None else centre
    prior = (np.linalg.norm(shifts - mid, axis=1) / prior_sigma) ** 2
    for s in saturations:
        model = base * s[None, :]  # (K, 2)
        # distance to the nearest family, (T, N): the root of the least squared distance
        # is the least distance, bit for bit, at a fifth of the roots; ``label`` is the
        # first family at that least distance, as argmin gives it
        least = np.empty_like(ox)
        label = np.zeros(ox.shape, np.intp)
        for k in range(len(model)):
            np.subtract(ox, model[k, 0], out=dx)
            dx *= dx
            np.subtract(oy, model[k, 1], out=dy)
            dy *= dy
            dx += dy
            if k == 0:
                least[...] = dx
                continue
            if fits is not None:
                label[dx < least] = k
            np.minimum(least, dx, out=least)
        nearest = np.sqrt(least) / C.COLOUR_SPREAD
        cost = np.minimum(nearest, cap) ** 2
        total = cost.sum(axis=1) + prior
        total = total + float(np.sum((np.log(s) / C.FAMILY_SATURATION_SIGMA) ** 2))
        if fits is not None:
            fits.append((total, label))
        i = int(np.argmin(total))
        if total[i] < best[0]:
            best = (float(total[i]), shifts[i].copy(), s)
    return best[1], best[2]


def _drift(step: np.ndarray, k: int, centres: np.ndarray) -> np.ndarray:
    """How far family ``k``'s centre moves towards where its dice show: only a little
    towards any other family (a misnamed group cannot drag a family across to a
    neighbour's place), further away from them all (a deep red batch of tomatoes moves out
    where no other family lies)."""
    norm = float(np.linalg.norm(step))
    if norm == 0.0:
        return step
    towards = 0.0
    for j in range(len(centres)):
        if j != k:
            u = centres[j] - centres[k]
            towards = max(towards, float(step @ u) / max(float(np.linalg.norm(u)), 1e-9))
    scale = min(1.0, C.FAMILY_MAX_DRIFT_AWAY / norm)
    if towards > C.FAMILY_MAX_DRIFT:
        scale = min(scale, C.FAMILY_MAX_DRIFT / towards)
    return step * scale


def level_scales(levels: Sequence[Sequence[float]]) -> np.ndarray:
    """For each face (BGR levels), how much wider than COLOUR_SPREAD its colour is in
    doubt on each log-chromaticity axis (ln R/G, ln B/G). A little light added or taken
    (a glint's haze, a shadow's ambient, compression) moves the log of a dim channel far
    more than that of a bright one: a deep red face's blue says little."""
    lv = np.maximum(np.asarray(levels, np.float64).reshape(-1, 3), 0.0) + 1.0
    inv_b, inv_g, inv_r = (1.0 / lv[:, i] for i in range(3))
    noise = C.COLOUR_LEVEL_NOISE * np.stack(
        [np.sqrt(inv_r**2 + inv_g**2), np.sqrt(inv_b**2 + inv_g**2)], axis=1)
    return np.sqrt(1.0 + (noise / C.COLOUR_SPREAD) ** 2)


_GAUSS_MEDIAN_RADIUS = float(np.sqrt(2.0 * np.log(2.0)))  # of a round 2-D Gaussian, in sigmas


def family_scatter(d: np.ndarray) -> np.ndarray:
    """Each family's scatter in this photo, in COLOUR_SPREAD units (at least 1), from the
    dice nearest to it (``d``: dice x families, spread units): the median distance of its
    dice to its centre over that of a round Gaussian's (sqrt(2 ln 2) of its sigma), once
    it has FAMILY_SCATTER_MIN_DICE dice; 1 for a family with fewer."""
    label = np.argmin(d, axis=1)
    out = np.ones(d.shape[1])
    for k in range(d.shape[1]):
        near = d[label == k, k]
        if len(near) >= C.FAMILY_SCATTER_MIN_DICE:
            out[k] = max(1.0, float(np.median(near)) / _GAUSS_MEDIAN_RADIUS)
    return out


@dataclass(frozen=True)
class FamilyFit:
    """The calls, and what they were judged against: each family's centre in this photo
    and each die's colour (both log-chromaticity relative to the photo's white)."""

    calls: list[FamilyCall]
    centres: np.ndarray  # (5, 2), in INGREDIENT_NAMES order
    rel: np.ndarray  # (N, 2)
    seven_each: bool = False  # named as a full starting block, 7 dice of each family


def name_families(
    features: Sequence[np.ndarray], white: np.ndarray, white_is_sure: bool,
    levels: Sequence[Sequence[float]] | None = None,
) -> list[FamilyCall]:
    """One call per die from its face log-chromaticity, all dice of the photo together;
    ``levels``: the faces' BGR, whose dim channels make the margin to the runner-up family
    count for less (``level_scales``)."""
    return fit_families(features, white, white_is_sure, levels).calls


def fit_families(
    features: Sequence[np.ndarray], white: np.ndarray, white_is_sure: bool,
    levels: Sequence[Sequence[float]] | None = None, known: np.ndarray | None = None,
    known_scatter: np.ndarray | None = None,
) -> FamilyFit:
    """``name_families`` with the centres it judged by; ``known``: the five families'
    centres learnt from this game's full block (relative to white), used instead of a
    light fitted to this photo's dice, with ``known_scatter`` their own scatter there
    (COLOUR_SPREAD units)."""
    if not features:
        return FamilyFit([], CENTROIDS.copy(), np.zeros((0, 2)))
    rel = np.array(features, np.float64) - white
    prior = C.FAMILY_PRIOR_SURE if white_is_sure else C.FAMILY_PRIOR_LOOSE
    searched: list[tuple[np.ndarray, np.ndarray]] = []  # the photo's own light search
    centres, rivals, seven = _photo_centres(rel, prior, searched)
    plain: np.ndarray | None = None  # the plain fit's families, when regrouped
    if known is None and not seven:
        nearest = _nearest(rel, centres)
        capped = _capped_groups(rel, centres, nearest, prior)
        if capped is not None:
            plain, centres = nearest, capped
    if known is not None:
        # the game's own layout of its five colours, moved by this photo's light (its white
        # is found a little differently from one photo to the next); a die the photo's
        # own dice name otherwise is in doubt
        alone = _nearest(rel, centres)
        base = np.asarray(known, np.float64)
        shift, sat, rivals = _fit_light(rel, C.KNOWN_PRIOR, base, C.KNOWN_SATURATIONS)
        if not white_is_sure:
            # a white taken from the photo's brightest pixels can sit far from the game
            # start's, beyond the shifts searched round none; the light that lays the
            # game's layout on this photo's own families is a second start, kept when
            # the dice fit it better
            shift2, sat2, rivals2 = _fit_light(rel, C.KNOWN_PRIOR, base, C.KNOWN_SATURATIONS,
                                               _layout_shift(base, centres))
            if _misfit(rel, base, shift2, sat2) < _misfit(rel, base, shift, sat):
                shift, sat, rivals = shift2, sat2, rivals2
        learnt = base * sat[None, :] + shift
        if seven:
            # a full block's dice fell into five groups of seven by themselves: keep the
            # groups, and let the game's own colours say which group is which family
            cost = ((centres[:, None, :] - learnt[None]) ** 2).sum(axis=-1)
            named_as = min_cost_assignment(cost)  # group (nominal family) -> family
            renamed = np.empty_like(centres)
            renamed[named_as] = centres
            centres = renamed
        else:
            centres = learnt
        named = _nearest(rel, centres)
        rivals |= {int(i) for i in np.flatnonzero(named != alone)}
    spread = np.full(len(CENTROIDS), C.COLOUR_SPREAD)
    d = np.linalg.norm(rel[:, None, :] - centres[None], axis=-1) / spread[None]
    scales = None if levels is None else level_scales(levels)
    # the same distances in units of each family's own scatter in this photo
    scatter = family_scatter(d)
    if known_scatter is not None:
        scatter = np.maximum(scatter, np.asarray(known_scatter, np.float64))
    own = d / scatter[None]
    # the distances in units of each face's own doubt on each axis, where known
    faced = None if scales is None else np.linalg.norm(
        (rel[:, None, :] - centres[None]) / scales[:, None, :], axis=-1) / spread[None]
    out = []
    for i, row in enumerate(d):
        order = np.argsort(row)
        d1, d2 = float(row[order[0]]), float(row[order[1]])
        # the margin between the two nearest families, measured on the line between them
        conf = min(1.0, max(0.0, (d2 - d1) / C.FAMILY_SURE_MARGIN))
        # and measured in the families' own scatter: a die just past the edge of a family
        # whose dice spread wide here (a deep red under a warm lamp, lit unevenly) is
        # nearer to being one of them than the fixed spread says
        rest = float(np.delete(own[i], order[0]).min())
        conf = min(conf, max(0.0, (rest - float(own[i, order[0]])) / C.FAMILY_SURE_MARGIN))
        if faced is not None:
            # the same margin in units of this face's own doubt on each axis
            w = faced[i]
            others = np.delete(w, order[0])
            conf = min(conf, max(0.0, (float(others.min()) - float(w[order[0]]))
                                 / C.FAMILY_SURE_MARGIN))
        if d1 > C.COLOUR_MAX_DISTANCE:
            conf *= C.COLOUR_MAX_DISTANCE / d1
        was = None if plain is None or plain[i] == order[0] else INGREDIENT_NAMES[plain[i]]
        out.append(FamilyCall(INGREDIENT_NAMES[order[0]], conf, INGREDIENT_NAMES[order[1]], d1,
                              i in rivals, regrouped=was))
    # what naming a die one family costs, in its face's own doubt where known
    cost = (d if faced is None else faced) ** 2
    # (a photo regrouped with at most 7 of each was named so by one light already)
    light = _capped_light(searched, len(rel)) if known is None and not seven \
        and plain is None else None
    calls = _apart(rel, centres, _twins(rel, _too_many(out, cost, light)))
    if known is None and not seven:
        calls = _beside_absent(rel, centres, calls)
    return FamilyFit(calls, centres, rel, seven)


def _too_many(calls: list[FamilyCall], cost: np.ndarray,
              light: np.ndarray | None = None) -> list[FamilyCall]:
    """The game has 7 dice of each family, so a photo naming more than 7 of one has named
    some of another family's dice with it (a light that makes orange look tan names the
    carrots mushrooms): its dice whose runner-up family holds fewer than 7 are in doubt.
    So are the dice that a naming with at most 7 in each family, the least ``cost`` in
    all (dice x families, squared spread units), names otherwise: the surplus can have
    come along a chain (the same lamp makes red look orange: the tomatoes named carrots,
    the carrots mushrooms), whose middle family holds its 7 and looks sure (``crowded``:
    the family the capped naming gives). ``light``: each die's family under the best
    light naming at most 7 of each (``_capped_light``), when the best light named more;
    a die it names otherwise is in doubt too (``crowded``: that family), the calls'
    counts holding or not."""
    count = {n: 0 for n in INGREDIENT_NAMES}
    for c in calls:
        count[c.ingredient] += 1
    over = {n for n, k in count.items() if k > DICE_PER_FAMILY}
    if not over and light is None:
        return calls
    capped = _capped_names(cost, DICE_PER_FAMILY) if over else [None] * len(calls)
    if light is not None:
        capped = [a if a is not None and a != c.ingredient else INGREDIENT_NAMES[k]
                  for a, c, k in zip(capped, calls, light, strict=True)]
    out = []
    for c, alt in zip(calls, capped, strict=True):
        moved = alt if alt is not None and alt != c.ingredient else None
        if c.ingredient in over and (count[c.runner_up] < DICE_PER_FAMILY or moved is not None):
            out.append(replace(c, too_many=True, crowded=moved))
        elif moved is not None:
            out.append(replace(c, crowded=moved))
        else:
            out.append(c)
    return out


def _capped_groups(
    rel: np.ndarray, centres: np.ndarray, nearest: np.ndarray, prior_sigma: float
) -> np.ndarray | None:
    """The families' centres when the plain fit names more than 7 dice of one family and
    the photo's dice fall by themselves into groups of at most 7: each family's group is
    found again with that cap (a balanced assignment to the families' centres, each
    centre then moved to its group's median, until the groups hold), and kept when every
    die is nearer its own group than any other by SEVEN_EACH_MARGIN and naming the groups
    together (``_name_groups``: one light for all, each family once, no naming nearly as
    good) gives each group the family it grew from. A warm lamp that squeezes orange
    towards tan cannot be one shift and saturation per axis, but the carrots still lie
    together, apart from the mushrooms. ``nearest``: each die's family in the plain fit.
    None otherwise (the centres stand)."""
    if len(rel) > C.FULL_BLOCK_DICE:
        return None
    if np.bincount(nearest, minlength=len(centres)).max() <= DICE_PER_FAMILY:
        return None
    groups, label, settled = _balanced_groups(rel, centres, C.CAPPED_ROUNDS)
    if not settled:
        return None
    if not _groups_apart(rel, groups, label):
        return None  # a die nearer another group than its own: no groups of their own
    sizes = np.bincount(label, minlength=len(groups))
    used = np.flatnonzero(sizes)
    names, rival = _name_groups(groups[used], prior_sigma, sizes[used])
    if rival is not None or not np.array_equal(names, used):
        return None  # the one light names the groups otherwise, or nearly as well
    return groups


def _capped_light(fits: list[tuple[np.ndarray, np.ndarray]], n_dice: int
                  ) -> np.ndarray | None:
    """Each die's family (its index) under the light, of those ``_fit_light``'s coarse
    search tried on the photo's ``n_dice`` dice (its ``fits``), that fits best while
    naming no family more than 7 dice, when the best light
    names more: the game has 7 of each, so that light has named some dice as their
    neighbours, and may have moved whole families along a chain with them (on paper the
    tan mushrooms named carrots and the green peppers, then nearest the mushrooms' place,
    named mushrooms at full confidence, 4 carrots, 5 mushrooms and 4 peppers in all, while
    the best light naming at most 7 of each named all 25 right). None when the best
    light names at most 7 of each, or no light does, or the dice are more than a full
    block."""
    if n_dice > C.FULL_BLOCK_DICE or not fits:
        return None
    totals = np.concatenate([t for t, _ in fits])
    labels = np.concatenate([lab for _, lab in fits])
    most = (labels[:, :, None] == np.arange(len(CENTROIDS))).sum(axis=1).max(axis=1)
    if most[int(np.argmin(totals))] <= DICE_PER_FAMILY:
        return None
    held = most <= DICE_PER_FAMILY
    if not held.any():
        return None
    return labels[int(np.argmin(np.where(held, totals, np.inf)))]


def _capped_names(cost: np.ndarray, per: int) -> list[str | None]:
    """Each die's family in the naming of least total ``cost`` (dice x families) that
    gives no family more than ``per`` dice; all None when the dice are too many for it
    (a phantom or two beside a full block)."""
    n, k = cost.shape
    if n > k * per:
        return [None] * n
    return [INGREDIENT_NAMES[j] for j in balanced_labels(cost, per)]


def _photo_centres(rel: np.ndarray, prior: float,
                   searched: list[tuple[np.ndarray, np.ndarray]] | None = None,
                   ) -> tuple[np.ndarray, set[int], bool]:
    """The families' centres judged from this photo's dice alone: the light fitted to all
    of them, each family's centre drawn to its dice, then the 7-each naming of a full
    block or a family split in two. Also the dice left in doubt, and whether the block
    was named 7 of each; ``searched`` keeps the light search's candidates (``_fit_light``)."""
    shift, sat, rivals = _fit_light(rel, prior, fits=searched)
    centres = CENTROIDS * sat[None, :] + shift
    for _ in range(C.FAMILY_ROUNDS):
        d = np.linalg.norm(rel[:, None, :] - centres[None], axis=-1)
        label = np.argmin(d, axis=1)
        new = centres.copy()
        for k in range(len(CENTROIDS)):
            members = rel[label == k]
            if len(members) >= C.FAMILY_MIN_MEMBERS:
                seen = np.median(members, axis=0)
                new[k] = centres[k] + _drift(seen - centres[k], k, centres)
        centres = new
    full = _seven_each(rel, centres, prior) if len(rel) == C.FULL_BLOCK_DICE else None
    if full is not None:
        return full[0], full[1], True
    split = _split_families(rel, centres, prior)
    if split is not None:
        return split[0], rivals | split[1], False
    return centres, rivals, False


def _nearest(rel: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Each die's nearest centre (its index)."""
    return np.argmin(np.linalg.norm(rel[:, None, :] - centres[None], axis=-1), axis=1)


def _balanced_groups(
    rel: np.ndarray, start: np.ndarray, rounds: int
) -> tuple[np.ndarray, np.ndarray, bool]:
    """Groups of at most DICE_PER_FAMILY dice grown from the centres ``start``: a balanced
    assignment, each group's centre then moved to its dice's median (a group left empty
    keeps its centre), at most ``rounds`` times. The groups' centres, each die's group,
    and whether the groups settled (the last round changed no die's group)."""
    groups = start.copy()
    label = np.full(len(rel), -1)
    for _ in range(rounds):
        d2 = ((rel[:, None, :] - groups[None]) ** 2).sum(axis=-1)
        new = balanced_labels(d2, DICE_PER_FAMILY)
        for k in range(len(groups)):
            if np.any(new == k):
                groups[k] = np.median(rel[new == k], axis=0)
        if np.array_equal(new, label):
            return groups, label, True
        label = new
    return groups, label, False


def _groups_apart(rel: np.ndarray, groups: np.ndarray, label: np.ndarray) -> bool:
    """Every die at least SEVEN_EACH_MARGIN (spread units) nearer its own group (``label``)
    than any other: the dice fall into these groups by themselves."""
    d = np.linalg.norm(rel[:, None, :] - groups[None], axis=-1) / C.COLOUR_SPREAD
    own = d[np.arange(len(rel)), label]
    d[np.arange(len(rel)), label] = np.inf
    return not np.any(d.min(axis=1) - own < C.SEVEN_EACH_MARGIN)


def _seven_each(
    rel: np.ndarray, centres: np.ndarray, prior_sigma: float
) -> tuple[np.ndarray, set[int]] | None:
    """A full starting block's 35 dice are 7 of each family: group the dice in fives of
    seven (a balanced assignment, the groups' centres refound), and when every die's
    group is also its nearest (the photo falls into such groups by itself, which a
    restocked block of any mix does not), name the five groups together: the one light
    (shift and saturation per axis) under which the five groups' centres best match the
    five families, each family once. Returns the families' centres in this photo and the
    dice whose group a nearly as good naming calls otherwise; None when the dice do not
    fall into five groups of seven."""
    groups, label, _ = _balanced_groups(rel, centres, C.SEVEN_EACH_ROUNDS)
    if not _groups_apart(rel, groups, label):
        return None  # a die nearer another group than its own: not seven of each here
    names, rival = _name_groups(groups, prior_sigma)
    out = np.empty_like(groups)
    out[names] = groups
    doubt: set[int] = set()
    if rival is not None:
        differ = [k for k in range(len(groups)) if rival[k] != names[k]]
        doubt = {int(i) for i in np.flatnonzero(np.isin(label, differ))}
    return out, doubt


def _name_groups(
    groups: np.ndarray, prior_sigma: float, sizes: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray | None]:
    """Each group's family, every family at most once, by the light fitted to each
    naming: per axis, groups ~ saturation * family centre + shift by least squares (the
    shift alone, saturation 1, for fewer than three groups), its cost the residual
    (spread units squared, times each group's dice, ``sizes``) plus the priors of the
    light fit. Also the rival naming when others are nearly as good (within
    SEVEN_EACH_RIVAL_COST of the best's cost, or RIVAL_COST_SHARE of it where no naming
    fits well): each group named as the first of those that names it otherwise."""
    import itertools

    k = len(groups)
    w = np.ones(k) if sizes is None else np.asarray(sizes, np.float64)
    results: list[tuple[float, tuple[int, ...]]] = []
    for perm in itertools.permutations(range(len(CENTROIDS)), k):
        model = CENTROIDS[list(perm)]
        cost = 0.0
        shift = np.zeros(2)
        for ax in range(2):
            x, y = model[:, ax], groups[:, ax]
            xm, ym = float(np.average(x, weights=w)), float(np.average(y, weights=w))
            var = float((w * (x - xm) ** 2).sum())
            s = float((w * (x - xm) * (y - ym)).sum()) / var if k >= 3 and var > 0 else 1.0
            s = min(max(s, C.FAMILY_SATURATIONS[0]), C.FAMILY_SATURATIONS[-1])
            t = ym - s * xm
            shift[ax] = t
            cost += float((w * ((y - (s * x + t)) / C.COLOUR_SPREAD) ** 2).sum())
            cost += float(np.log(s) / C.FAMILY_SATURATION_SIGMA) ** 2
        cost += float(np.linalg.norm(shift) / prior_sigma) ** 2
        results.append((cost, perm))
    results.sort()
    best = np.array(results[0][1])
    near = max(C.SEVEN_EACH_RIVAL_COST, C.RIVAL_COST_SHARE * results[0][0])
    rival: np.ndarray | None = None
    for cost, perm in results[1:]:
        if cost - results[0][0] >= near:
            break
        other = np.array(perm)
        rival = other if rival is None else np.where(rival != best, rival, other)
    return best, rival


def _split_families(
    rel: np.ndarray, centres: np.ndarray, prior_sigma: float
) -> tuple[np.ndarray, set[int]] | None:
    """A family whose dice fall into two groups with a clear gap between them (no die of
    one within SPLIT_GAP spread units of the other) holds two families: one light has
    made, say, orange carrots look like tan mushrooms. The photo's groups are then named
    together, each family at most once (``_name_groups``). Returns the families' centres
    and the dice left in doubt (a group of one die renamed, or a runner-up naming nearly
    as good); None when no family splits."""
    label = _nearest(rel, centres)
    members_of = {k: np.flatnonzero(label == k) for k in range(len(centres))}
    members_of = {k: m for k, m in members_of.items() if len(m)}
    halves = {k: _two_parts(rel, m) for k, m in members_of.items()}
    found = {k: c for k, c in halves.items() if c is not None}
    strays = _strays(rel, centres, members_of, len(members_of) + len(found) - len(centres))
    members_of = {k: m for k, m in members_of.items() if k not in strays}
    cuts = _fewest_cuts(rel, members_of, found, len(centres))
    groups: list[np.ndarray] = []
    origin: list[tuple[int, bool]] = []  # each group's family in the light fit; split?
    for k, members in members_of.items():
        parts = cuts.get(k)
        for part in parts or [members]:
            groups.append(part)
            origin.append((k, parts is not None))
    if all(not cut for _, cut in origin) or len(groups) > len(centres):
        # no family in two, or more groups than families: a family's dice spread wide (a
        # dim channel does that to a deep red), not two families in one; names stand
        return None
    mids = np.array([np.median(rel[g], axis=0) for g in groups])
    sizes = np.array([len(g) for g in groups])
    names, rival = _name_groups(mids, prior_sigma, sizes)
    out = centres.copy()
    out[names] = mids  # the families no group holds stay where the light fit put them
    doubt = {int(i) for k in strays for i in np.flatnonzero(label == k)}
    for g, members in enumerate(groups):
        k, cut = origin[g]
        kept = any(names[h] == k for h in range(len(groups)) if origin[h][0] == k)
        # a whole group renamed, a family split with neither part keeping its name, a
        # lone die renamed, or a naming nearly as good that differs: in doubt
        unsure = ((not cut and names[g] != k) or (cut and not kept)
                  or (names[g] != k and len(members) == 1)
                  or (rival is not None and rival[g] != names[g]))
        if unsure:
            doubt |= {int(i) for i in members}
    return out, doubt


def _strays(rel: np.ndarray, centres: np.ndarray, members_of: dict[int, np.ndarray],
            surplus: int) -> set[int]:
    """Up to ``surplus`` families (of ``members_of``, each family's dice) to leave out of
    naming the groups, farthest first: a family whose lone die lies beyond
    COLOUR_MAX_DISTANCE of its centre, of no family's colour here. Such a stray (a tomato
    under the warm half of two lamps, nearest the carrots' empty place) would make the
    groups outnumber the families and keep a family's clear cut in two from being named
    (two-lamp 235: 4 carrots and 2 mushrooms named mushrooms, the carrots at full
    confidence); it is left in doubt, named by the groups' centres."""
    if surplus <= 0:
        return set()
    far = {k: float(np.linalg.norm(rel[m[0]] - centres[k])) / C.COLOUR_SPREAD
           for k, m in members_of.items() if len(m) == 1}
    far = {k: v for k, v in far.items() if v > C.COLOUR_MAX_DISTANCE}
    return set(sorted(far, key=lambda k: -far[k])[:surplus])


def _fewest_cuts(
    rel: np.ndarray, members_of: dict[int, np.ndarray], cuts: dict[int, list[np.ndarray]],
    families: int,
) -> dict[int, list[np.ndarray]]:
    """The cuts kept when they would make more groups than there are families: a family
    holding more dice than the game has of it (7) must hold two families, so its cut is
    kept first; then the cuts with the widest gaps. A family whose one stray die (a glint,
    a shadowed face) stands off alone would otherwise stop the real two-family cut."""
    room = families - len(members_of)
    if len(cuts) <= room:
        return cuts

    def rank(k: int) -> tuple[bool, float]:
        a, b = cuts[k]
        gap = float(np.linalg.norm(rel[a][:, None, :] - rel[b][None], axis=-1).min())
        return (len(members_of[k]) > DICE_PER_FAMILY, gap)

    keep = sorted(cuts, key=rank, reverse=True)[:room]
    return {k: cuts[k] for k in keep}


def _two_parts(
    rel: np.ndarray, members: np.ndarray, least_gap: float = C.SPLIT_GAP
) -> list[np.ndarray] | None:
    """The members cut in two at the widest gap along their longest spread, when no die
    of one part lies within ``least_gap`` spread units of the other part."""
    if len(members) < 2:
        return None
    pts = rel[members]
    centred = pts - pts.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    along = centred @ vt[0]
    order = np.argsort(along)
    cut = int(np.argmax(np.diff(along[order]))) + 1
    a, b = members[order[:cut]], members[order[cut:]]
    gap = np.linalg.norm(rel[a][:, None, :] - rel[b][None], axis=-1).min() / C.COLOUR_SPREAD
    return [a, b] if gap >= least_gap else None


def _apart(rel: np.ndarray, centres: np.ndarray, calls: list[FamilyCall]) -> list[FamilyCall]:
    """Mark the dice of a family's smaller group when its dice fall into two groups with
    a gap of FAMILY_DOUBT_GAP spread units or more between them (too little for
    ``_split_families`` to name them apart): one light can bring a few dice of another
    family (tomatoes under a warm lamp) next to this one's, their own family's centre
    left far off with no die near it. The family each such die may be instead is the one
    its group lies towards, seen from the larger group."""
    names = np.array([c.ingredient for c in calls])
    out = list(calls)
    for k, name in enumerate(INGREDIENT_NAMES):
        members = np.flatnonzero(names == name)
        parts = _two_parts(rel, members, C.FAMILY_DOUBT_GAP)
        if parts is None:
            continue
        small, large = sorted(parts, key=len)
        if len(small) == len(large):
            continue  # no group is the family's own: the light fit and split judged them
        core = np.median(rel[large], axis=0)
        way = np.median(rel[small], axis=0) - core
        towards = (np.delete(centres, k, axis=0) - core) @ way / (
            np.linalg.norm(np.delete(centres, k, axis=0) - core, axis=1)
            * max(float(np.linalg.norm(way)), 1e-9))
        alt = [n for n in INGREDIENT_NAMES if n != name][int(np.argmax(towards))]
        for i in small:
            out[i] = replace(out[i], apart=alt)
    return out


def _beside_absent(rel: np.ndarray, centres: np.ndarray, calls: list[FamilyCall]
                   ) -> list[FamilyCall]:
    """Mark the dice of a family named on the game's full 7 when the photo names no die of
    some other family: two paints a light draws almost alike (a dark orange and a red
    under a warm lamp) pass for one family of 7 there, the cap on 7 holds, and no die is
    left near the absent family's centre to show it (no gap inside the 7 either, so
    ``_apart`` cannot see it). Which family the 7 may hide: the absent one whose centre
    in this photo lies nearest their middle. Colours learnt from the game's full block
    tell the two paints apart, so the caller asks this only of a photo read alone."""
    names = [c.ingredient for c in calls]
    absent = [k for k, n in enumerate(INGREDIENT_NAMES) if n not in names]
    if not absent:
        return calls
    out = list(calls)
    for name in INGREDIENT_NAMES:
        members = [i for i, n in enumerate(names) if n == name]
        if len(members) != DICE_PER_FAMILY:
            continue
        mid = np.median(rel[members], axis=0)
        hidden = min(absent, key=lambda k: float(np.linalg.norm(centres[k] - mid)))
        for i in members:
            out[i] = replace(out[i], beside_absent=INGREDIENT_NAMES[hidden])
    return out


def _twins(rel: np.ndarray, calls: list[FamilyCall]) -> list[FamilyCall]:
    """Mark each die with a look-alike named otherwise: dice of one family in one photo
    look alike and those of two families lie far apart (on our tuning photos no two dice
    named right lay closer than 4.7 spread units across families), so a pair of dice this
    alike but named apart has one of them named wrong, and both are in doubt."""
    if len(calls) < 2:
        return calls
    gap = np.linalg.norm(rel[:, None, :] - rel[None], axis=-1) / C.COLOUR_SPREAD
    names = np.array([c.ingredient for c in calls])
    gap[names[:, None] == names[None]] = np.inf
    out = []
    for i, call in enumerate(calls):
        j = int(np.argmin(gap[i]))
        out.append(replace(call, twin=calls[j].ingredient) if gap[i, j] < C.FAMILY_TWIN_GAP
                   else call)
    return out

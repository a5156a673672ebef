"""Property tests: the cut engine against a brute-force oracle written from docs/rules-readings.md.

The oracle shares no code with the engine: it walks every seam, entry end, depth and push
side with plain loops over ``(row, col)`` sets and checks connectivity by its own flood
fill.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.diced_veggies.cut import Cut, End, Push, Seam
from companion.games.diced_veggies.cutting import CutOptions
from companion.games.diced_veggies.model import FACES, Block, Die, Ingredient

LIMIT_PIPS = 10
LIMIT_KIDS = 3


# ---- the oracle ------------------------------------------------------------------------


def flood(cells: set) -> int:
    """Number of 4-connected pieces."""
    left, pieces = set(cells), 0
    while left:
        pieces += 1
        stack = [left.pop()]
        while stack:
            r, c = stack.pop()
            for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if n in left:
                    left.remove(n)
                    stack.append(n)
    return pieces


def oracle_cuts(values: dict, kids: bool, full_only: bool):
    """Yield (seam, k, end, depth, push, taken) for every geometric cut; depth == length
    means the whole seam."""
    rows = [r for r, _ in values]
    cols = [c for _, c in values]
    r0, r1, c0, c1 = min(rows), max(rows), min(cols), max(cols)
    # vertical seams k lie between columns k-1 and k, strictly inside the box
    for k in range(c0 + 1, c1 + 1):
        n = r1 - r0 + 1
        for end in ("top", "bottom"):
            for depth in range(1, n + 1):
                if full_only and depth < n:
                    continue
                covered = range(r0, r0 + depth) if end == "top" else range(r1 - depth + 1, r1 + 1)
                for push, step, start in (("left", -1, k - 1), ("right", 1, k)):
                    taken = set()
                    for r in covered:
                        c = start
                        while (r, c) in values:
                            taken.add((r, c))
                            c += step
                    yield "vertical", k, end, depth, push, frozenset(taken)
    for k in range(r0 + 1, r1 + 1):
        n = c1 - c0 + 1
        for end in ("left", "right"):
            for depth in range(1, n + 1):
                if full_only and depth < n:
                    continue
                covered = range(c0, c0 + depth) if end == "left" else range(c1 - depth + 1, c1 + 1)
                for push, step, start in (("up", -1, k - 1), ("down", 1, k)):
                    taken = set()
                    for c in covered:
                        r = start
                        while (r, c) in values:
                            taken.add((r, c))
                            r += step
                    yield "horizontal", k, end, depth, push, frozenset(taken)


def oracle_small_enough(values: dict, taken, kids: bool) -> bool:
    if kids:
        return len(taken) <= LIMIT_KIDS
    return sum(values[c] for c in taken) <= LIMIT_PIPS


def oracle_legal(values: dict, taken, kids: bool) -> bool:
    if oracle_small_enough(values, values, kids):
        return False  # the block is taken whole, not cut
    if not taken or not oracle_small_enough(values, taken, kids):
        return False
    return flood(set(values) - set(taken)) == 1


# ---- random blocks ---------------------------------------------------------------------


@st.composite
def blocks(draw, max_rows: int = 5, max_cols: int = 7):
    """A random 4-connected block grown die by die from one cell."""
    h = draw(st.integers(1, max_rows))
    w = draw(st.integers(1, max_cols))
    top = draw(st.integers(0, 2))
    left = draw(st.integers(0, 2))
    start = (top + draw(st.integers(0, h - 1)), left + draw(st.integers(0, w - 1)))
    cells = [start]
    size = draw(st.integers(1, h * w))
    while len(cells) < size:
        frontier = sorted({
            (r + dr, c + dc)
            for r, c in cells
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if top <= r + dr < top + h and left <= c + dc < left + w
        } - set(cells))
        if not frontier:
            break
        cells.append(draw(st.sampled_from(frontier)))
    values = [draw(st.sampled_from(FACES)) for _ in cells]
    kinds = [draw(st.sampled_from(list(Ingredient))) for _ in cells]
    return Block.of(Die(r, c, k, v) for (r, c), k, v in zip(cells, kinds, values, strict=True))


def to_cut(seam, k, end, depth, push, length) -> Cut:
    return Cut(Seam(seam), k, End(end), None if depth == length else depth, Push(push))


options = st.sampled_from([
    (False, False), (True, False), (False, True), (True, True)
])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocks(), options)
def test_listed_cuts_are_exactly_the_legal_taken_sets(block, opts):
    full_only, kids = opts
    values = dict(block.values)
    options_ = CutOptions(full_length_only=full_only, kids=kids)
    expected = {
        taken for *_, taken in oracle_cuts(values, kids, full_only)
        if oracle_legal(values, taken, kids)
    }
    listed = block.legal_cut_checks(options_)
    got = [frozenset(c.taken) for c in listed]
    assert len(got) == len(set(got)), "one entry per distinct taken set"
    assert set(got) == expected
    for entry in listed:
        assert entry.cut is not None
        verdict = block.check(entry.cut, options_)
        assert verdict.legal, verdict.reasons
        assert frozenset(verdict.taken) == frozenset(entry.taken)
        assert entry.sum == sum(values[c] for c in entry.taken)
        assert not full_only or entry.cut.is_full
    assert block.take_all(options_) == oracle_small_enough(values, values, kids)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocks(max_rows=4, max_cols=5), options)
def test_check_agrees_with_the_oracle_on_every_cut(block, opts):
    full_only, kids = opts
    values = dict(block.values)
    options_ = CutOptions(full_length_only=full_only, kids=kids)
    rows = [r for r, _ in values]
    cols = [c for _, c in values]
    for seam, k, end, depth, push, taken in oracle_cuts(values, kids, False):
        length = (max(rows) - min(rows) + 1) if seam == "vertical" else (max(cols) - min(cols) + 1)
        cut = to_cut(seam, k, end, depth, push, length)
        verdict = block.check(cut, options_)
        assert frozenset(verdict.taken) == taken, str(cut)
        allowed = not full_only or depth == length
        assert verdict.legal == (allowed and oracle_legal(values, taken, kids)), str(cut)
        assert verdict.legal == (verdict.reasons == [])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocks(max_rows=4, max_cols=4), st.data())
def test_explain_agrees_with_the_listing(block, data):
    """``explain``/``cut_for`` accept exactly the listed taken sets (plus take-all)."""
    legal = {frozenset(c.taken) for c in block.legal_cut_checks()}
    cells = sorted(block.cells)
    candidates = {taken for *_, taken in oracle_cuts(dict(block.values), False, False)}
    candidates.add(frozenset(data.draw(st.sets(st.sampled_from(cells), min_size=1))))
    for taken in candidates:
        if not taken:
            continue
        verdict = block.explain(taken)
        whole = taken == frozenset(cells)
        expected = taken in legal or (whole and block.take_all())
        assert verdict.legal == expected, (sorted(taken), verdict.reasons)
        if verdict.legal and not verdict.take_all:
            assert verdict.cut is not None
            assert frozenset(block.check(verdict.cut).taken) == taken
        if not verdict.legal:
            assert verdict.reasons


@settings(max_examples=60, deadline=None)
@given(blocks(), st.integers(-3, 3), st.integers(-3, 3), st.data())
def test_judge_change_finds_the_cut_after_a_nudge(block, dr, dc, data):
    from companion.games.diced_veggies.compare import judge_change

    checks = block.legal_cut_checks()
    if not checks:
        return
    chosen = data.draw(st.sampled_from(checks))
    after = block.without(chosen.taken).moved(dr, dc)
    verdict = judge_change(block, after)
    assert verdict.legal, verdict.reasons
    # the judged reading always explains the after block exactly ...
    assert after.moved(*verdict.offset) == block.without(verdict.taken)
    # ... and is the true one unless another shift explains it equally well
    if verdict.offset == (-dr, -dc):
        assert verdict.taken == chosen.taken
        assert verdict.sum == chosen.sum


@settings(max_examples=60, deadline=None)
@given(blocks(), st.integers(1, 3), st.integers(-2, 2), st.integers(-2, 2), st.data())
def test_judge_change_finds_the_cut_when_the_after_photo_is_turned(block, k, dr, dc, data):
    """The after photo taken from another side of the table: the block turned by k
    quarter turns (and shifted) is turned back and judged the same."""
    from companion.games.diced_veggies.compare import judge_change, turned

    checks = block.legal_cut_checks()
    if not checks:
        return
    chosen = data.draw(st.sampled_from(checks))
    rest = block.without(chosen.taken)
    after = turned(rest, k).moved(dr, dc)
    verdict = judge_change(block, after)
    assert verdict.legal, verdict.reasons
    # the judged turn and shift explain the after block exactly
    assert turned(after, verdict.turns).moved(*verdict.offset) == block.without(verdict.taken)
    assert verdict.sum == sum(block.values[c] for c in verdict.taken)

"""Exact Halali reveal odds (spec ``docs/rules/halali.md`` §2, H-1, H-3): the laws sum to 1, they
match setups made by the reference (``reference.setup``) at a fixed seed, and the
exposure probability matches a brute force that reveals every (kind, direction)
explicitly and asks the reference (``legal_actions``) which captures the opponent has."""

from __future__ import annotations

import doctest
import functools
import math
from collections import Counter
from fractions import Fraction as F

import pytest

import toolkit
from toolkit.core.rng import Stream
from toolkit.games.halali import odds
from toolkit.games.halali import reference as ref
from toolkit.games.halali.rules import (
    BEAR, COLOUR_OF_KIND, DIRECTIONS, DUCK, FOX, HUNTER, KINDS, LUMBERJACK, PHEASANT, TREE, Rules,
)

STD = Rules()
N, E, S, W = range(4)
N_SETUPS = 20_000
SEED = 20240611
Z = 4.5  # per-quantity bound in standard errors (fixed seed, so deterministic)

# rules whose capture geometry differs from the standard one
FREE_HUNTERS = STD.replace(hunter_direction_restricted_capture=False, ranges={"hunter": 2},
                           capture_matrix={"duck": ("fox",)})
NEUTRAL_HUNT = STD.replace(capture_matrix={"pheasant": ("fox", "hunter"), "bear": ("lumberjack", "hunter", "fox")},
                           ranges={"bear": 2, "fox": 3},
                           tile_counts={"bear": 4, "fox": 4, "lumberjack": 4, "hunter": 6, "pheasant": 6, "duck": 6,
                                        "tree": 18})


def sq(name: str) -> int:
    return ref.parse_square(name)


def position(tiles: dict, rules=STD, to_move: int = 0) -> ref.State:
    """A hand-built state: ``{"c3": (FOX, True), "c5": (HUNTER, False, S), ...}``; ids in order."""
    st = ref.State(rules=rules, grid=[None] * 49, colour=[0, 1], to_move=to_move)
    for i, (name, spec) in enumerate(tiles.items()):
        kind, up = spec[0], spec[1]
        st.grid[sq(name)] = ref.Tile(kind, i, up, spec[2] if len(spec) > 2 else (N if kind == HUNTER else -1))
    st.face_down = sum(1 for t in st.grid if t is not None and not t.face_up)
    return st


# ---------------------------------------------------------------------- brute force


def threatened(st: ref.State, seat: int) -> frozenset:
    """Squares of ``seat``'s own tiles the opponent can capture with a legal action (reference),
    with the lock, no-return and forced-reveal rules switched off (as odds.py defines it)."""
    s = st.copy()
    opp = 1 - seat
    s.to_move, s.lock, s.last_move, s.since_progress, s.phase = opp, -1, [None, None], 0, "main"
    out = set()
    for kind, origin, d, n in ref.legal_actions(s, opp):
        if kind != ref.MOVE:
            continue
        target = ref.step(origin, d, n)
        victim = s.grid[target] if target >= 0 else None
        if victim is not None:
            assert victim.face_up
            if COLOUR_OF_KIND[victim.kind] == s.colour[seat]:
                out.add(target)
    return frozenset(out)


def brute_force(st: ref.State, square: int, seat: int):
    """Every (kind, direction) on ``square``, its weight from the public counts, and the threats."""
    counts = ref.face_down_counts(st)
    total = sum(counts)
    rows = []
    for k in range(7):
        if counts[k] == 0:
            continue
        for d in (range(4) if k == HUNTER else (-1,)):
            s = st.copy()
            s.grid[square] = ref.Tile(k, 999, True, d)
            s.face_down -= 1
            weight = F(counts[k], total) * (F(1, 4) if k == HUNTER else 1)
            rows.append((KINDS[k], None if d < 0 else DIRECTIONS[d], weight, threatened(s, seat)))
    return rows


def brute_exposure(st: ref.State, square: int, seat: int, new_only: bool = True) -> F:
    before = threatened(st, seat)
    return sum((w for _, _, w, after in brute_force(st, square, seat) if (after - before if new_only else after)),
               F(0))


def check_position(st: ref.State, seat: int, squares=None) -> int:
    """Compare odds.py with the brute force on every (or the given) face-down square; returns
    the number of squares where the reveal can expose something."""
    squares = [s for s in range(49) if st.grid[s] is not None and not st.grid[s].face_up] if squares is None \
        else squares
    view = ref.observe(st, seat)
    assert odds.capturable_squares(st.rules, view.grid, st.colour[seat]) == threatened(st, seat)
    exposing = 0
    for square in squares:
        got = [(o.kind, o.direction, o.probability, o.capturable) for o in odds.reveal_outcomes_at(view, square, seat)]
        assert got == brute_force(st, square, seat)
        assert sum(o[2] for o in got) == 1
        for new_only in (True, False):
            p = odds.exposure_probability(view, square, seat, new_only=new_only)
            assert p == brute_exposure(st, square, seat, new_only)
            assert p == odds.exposure_probability(st, square, seat, new_only=new_only)  # State = its View
        exposing += odds.exposure_probability(view, square, seat) > 0
    return exposing


# ---------------------------------------------------------------------- laws sum to 1


COUNT_CASES = [
    [2, 6, 2, 8, 8, 7, 15],
    [0, 0, 0, 1, 0, 0, 0],
    [1, 0, 3, 0, 2, 0, 5],
    {"hunter": 3, "tree": 1},
    {BEAR: 1, DUCK: 2},
    NEUTRAL_HUNT,
]


@pytest.mark.parametrize("counts", COUNT_CASES, ids=range(len(COUNT_CASES)))
def test_distributions_sum_to_one(counts):
    c = odds.face_down_counts(counts)
    dist = odds.reveal_distribution(counts)
    assert list(dist) == list(KINDS) and sum(dist.values()) == 1
    assert all(isinstance(p, F) for p in dist.values())
    assert [dist[k] for k in KINDS] == [F(x, sum(c)) for x in c]
    outcomes = odds.reveal_outcomes(counts)
    assert sum(outcomes.values()) == 1
    assert sum(p for (kind, _), p in outcomes.items() if kind == "hunter") == dist["hunter"]
    joint = odds.hunter_direction(counts)
    assert list(joint) == list(DIRECTIONS) and sum(joint.values()) == dist["hunter"]
    assert all(joint[d] == dist["hunter"] / 4 == odds.hunter_direction(counts, d) for d in DIRECTIONS)


def test_hunter_direction_conditional_is_uniform():
    cond = odds.hunter_direction()
    assert cond == {d: F(1, 4) for d in DIRECTIONS} and sum(cond.values()) == 1
    assert odds.hunter_direction(direction=2) == odds.hunter_direction(direction="S") == F(1, 4)


def test_start_position_numbers():
    dist = odds.reveal_distribution(STD)
    assert dist == {"bear": F(1, 24), "fox": F(1, 8), "lumberjack": F(1, 24), "hunter": F(1, 6),
                    "pheasant": F(1, 6), "duck": F(7, 48), "tree": F(5, 16)}
    assert odds.hunter_direction(STD, "N") == F(1, 24)
    assert odds.expected_reveal_points(STD) == F(168, 48)
    assert odds.points_face_down(STD)["hunter"] == 40


def test_every_input_form_gives_the_same_counts():
    st = ref.setup(STD, Stream(SEED, 0, 0))
    for s in (0, 5, 30, 48):
        st.grid[s].face_up = True
        st.face_down -= 1
    view = ref.observe(st, 1)
    expected = ref.face_down_counts(st)
    assert sum(expected) == 44
    as_dict = dict(zip(KINDS, expected))
    for form in (expected, tuple(expected), as_dict, dict(enumerate(expected)), view, st):
        assert odds.face_down_counts(form) == expected
        assert odds.reveal_distribution(form) == odds.reveal_distribution(expected)
    assert odds.face_down_counts(NEUTRAL_HUNT) == [NEUTRAL_HUNT.tile_counts[k] for k in KINDS]


@pytest.mark.parametrize("bad, text", [
    ([0] * 7, "nothing to reveal"),
    ([1] * 6, "needs 7 entries"),
    ([1, -1, 0, 0, 0, 0, 0], ">= 0"),
    ({"wolf": 1}, "kind='wolf'"),
])
def test_bad_counts_are_refused(bad, text):
    with pytest.raises(ValueError, match=text):
        odds.reveal_distribution(bad)


def test_bad_direction_and_square_are_refused():
    with pytest.raises(ValueError, match="direction='X'"):
        odds.hunter_direction(direction="X")
    st = position({"c3": (FOX, True), "c5": (TREE, False)})
    for bad in (sq("c3"), sq("d4"), 49):
        with pytest.raises(ValueError, match="face-down tile"):
            odds.exposure_probability(st, bad, 0)


# ---------------------------------------------------------------------- summary


@pytest.mark.parametrize("rules", [STD, NEUTRAL_HUNT], ids=["standard", "neutral_hunt"])
def test_summary_rows(rules, capsys):
    df = odds.summary(rules)
    assert list(df.columns) == ["quantity", "exact", "value"]
    rows = dict(zip(df["quantity"], df["exact"]))
    assert len(rows) == len(df)  # quantities are unique
    for q, exact, value in zip(df["quantity"], df["exact"], df["value"]):
        assert math.isclose(float(F(exact)), value)
    dist = odds.reveal_distribution(rules)
    assert sum(F(rows[f"P(first reveal is a {k})"]) for k in KINDS) == 1
    assert all(F(rows[f"P(first reveal is a {k})"]) == dist[k] for k in KINDS)
    groups = [q for q in rows if q.startswith("P(first reveal is") and "(" in q[len("P(first reveal is"):]]
    assert len(groups) == 4 and sum(F(rows[q]) for q in groups) == 1
    assert sum(F(rows[f"P(a revealed hunter faces {d})"]) for d in DIRECTIONS) == 1
    assert sum(F(rows[f"P(first reveal is a hunter facing {d})"]) for d in DIRECTIONS) == dist["hunter"]
    total = sum(rules.tile_counts[k] * rules.points[k] for k in KINDS)
    assert F(rows["points face down at the start (all kinds)"]) == total
    assert F(rows["expected points of the first reveal"]) == F(total, 48)
    # printable by the CLI, reachable through the game's registry, no per-outcome tables declared
    from toolkit import cli
    from toolkit.core.runner import get_spec

    cli._print_table(df)
    assert "P(first reveal is a bear)" in capsys.readouterr().out
    assert get_spec("halali").odds(rules).equals(df)
    assert dict(toolkit.GAMES["halali"].extra_odds) == {}  # the CLI prints no per-outcome table before it


def test_docstring_examples():
    result = doctest.testmod(odds, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 20 and result.failed == 0


# ---------------------------------------------------------------------- the reference's setup


FIXED_SQUARES = (0, 23, 48)  # a1, c4 (next to the empty centre), g7


@functools.lru_cache(maxsize=None)
def setups():
    """One pass over N_SETUPS reference setups: kind counts on fixed squares, hunter directions
    (on a1 and over all hunters), and a calibration sum for a reveal after public reveals."""
    kinds = {s: Counter() for s in FIXED_SQUARES}
    joint = Counter()  # (kind, dir) on a1
    directions = Counter()
    calib = dict.fromkeys(KINDS, 0.0)  # sum of (indicator - predicted)
    calib_var = dict.fromkeys(KINDS, 0.0)
    order = [s for s in range(49) if s != ref.CENTRE]
    for g in range(N_SETUPS):
        st = ref.setup(STD, Stream(SEED, g, 0))
        for s in FIXED_SQUARES:
            kinds[s][st.grid[s].kind] += 1
        a1 = st.grid[0]
        joint[(a1.kind, a1.dir)] += 1
        for t in st.grid:
            if t is not None and t.kind == HUNTER:
                directions[t.dir] += 1
        # reveal the first m squares (public), then predict the next one from the view alone
        m = g % 40
        for s in order[:m]:
            st.grid[s].face_up = True
        st.face_down -= m
        predicted = odds.reveal_distribution(ref.observe(st, g % 2))
        shown = KINDS[st.grid[order[m]].kind]
        for k in KINDS:
            p = float(predicted[k])
            calib[k] += (k == shown) - p
            calib_var[k] += p * (1 - p)
    return kinds, joint, directions, calib, calib_var


def within(count: int, trials: int, p: F) -> bool:
    sd = math.sqrt(trials * float(p) * (1 - float(p)))
    return abs(count - trials * float(p)) <= Z * sd


@pytest.mark.parametrize("square", FIXED_SQUARES)
def test_kind_on_a_fixed_square_matches_setup(square):
    kinds = setups()[0][square]
    assert sum(kinds.values()) == N_SETUPS
    for k, p in odds.reveal_distribution(STD).items():
        assert within(kinds[KINDS.index(k)], N_SETUPS, p), (square, k, kinds[KINDS.index(k)], float(p))


def test_hunter_directions_match_setup():
    _, joint, directions, _, _ = setups()
    hunters = sum(directions.values())
    assert hunters == N_SETUPS * STD.tile_counts["hunter"]
    for d, p in odds.hunter_direction().items():
        assert within(directions[DIRECTIONS.index(d)], hunters, p), (d, directions)
    for (kind, d), p in odds.reveal_outcomes(STD).items():
        k = KINDS.index(kind)
        count = joint[(k, -1 if d is None else DIRECTIONS.index(d))]
        assert within(count, N_SETUPS, p), (kind, d, count, float(p))
    assert sum(joint.values()) == N_SETUPS


def test_reveal_after_public_reveals_is_calibrated():
    _, _, _, calib, calib_var = setups()
    for k in KINDS:
        assert abs(calib[k]) <= Z * math.sqrt(calib_var[k]), (k, calib[k], calib_var[k])


def test_variant_tile_counts_match_setup():
    n = 4000
    counts = Counter(ref.setup(NEUTRAL_HUNT, Stream(SEED, g, 0)).grid[sq("e2")].kind for g in range(n))
    for k, p in odds.reveal_distribution(NEUTRAL_HUNT).items():
        assert within(counts[KINDS.index(k)], n, p), (k, counts)


# ---------------------------------------------------------------------- exposure vs brute force


def test_exposure_blue_reveals_next_to_hunters():
    # fox on c3 and bear on e5 (Blue's); a Brown hunter on a5 aims E at the face-down c5, and one on
    # g1 already aims N at the fox on g3; face-down tiles on c5, a1, b7, g5
    st = position({"c3": (FOX, True), "e5": (BEAR, True), "a5": (HUNTER, True, E), "g1": (HUNTER, True, N),
                   "g3": (FOX, True), "c5": (TREE, False), "a1": (TREE, False), "b7": (DUCK, False),
                   "g5": (HUNTER, False, S)})
    assert threatened(st, 0) == {sq("g3")}
    c5 = sq("c5")
    counts = ref.face_down_counts(st)
    total = sum(counts)
    # a hunter on c5 facing S takes the fox on c3, facing E the bear on e5 (d5 empty); a bear or fox
    # revealed on c5 is in the a5 hunter's line
    expected = F(counts[HUNTER], total) * F(2, 4) + F(counts[BEAR] + counts[FOX], total)
    assert odds.exposure_probability(st, c5, 0) == expected
    assert odds.exposure_probability(st, c5, 0, new_only=False) == 1  # the g3 fox is already capturable
    # a hunter on g5 facing S would take only the g3 fox, already threatened: not new
    g5 = {(o.kind, o.direction): o.capturable for o in odds.reveal_outcomes_at(st, sq("g5"), 0)}
    assert g5[("hunter", "S")] == {sq("g3")}
    assert check_position(st, 0) >= 2


def test_exposure_brown_reveals_next_to_a_bear():
    # Blue bear on b2; Brown lumberjack on c3 and hunter on d2; a duck on c1; face down: c2, b3, f6
    st = position({"b2": (BEAR, True), "c3": (LUMBERJACK, True), "d2": (HUNTER, True, N), "c1": (DUCK, True),
                   "c2": (PHEASANT, False), "b3": (TREE, False), "f6": (FOX, False)}, to_move=1)
    assert threatened(st, 1) == frozenset()
    counts = ref.face_down_counts(st)
    total = sum(counts)
    # c2: a lumberjack or hunter there is next to the bear; a bear there is next to c3 and d2
    assert odds.exposure_probability(st, sq("c2")) == F(counts[LUMBERJACK] + counts[HUNTER] + counts[BEAR], total)
    # b3: own tiles are next to the b2 bear, a bear is next to the c3 lumberjack
    assert odds.exposure_probability(st, sq("b3")) == F(counts[LUMBERJACK] + counts[HUNTER] + counts[BEAR], total)
    # f6: a bear there threatens nothing, no bear next to it
    assert odds.exposure_probability(st, sq("f6")) == 0
    assert check_position(st, 1) == 2
    assert check_position(st, 0) >= 1  # Blue's side: a hunter on c2 facing W takes the bear


def test_exposure_with_unrestricted_hunters_and_a_capturing_duck():
    # hunters capture any way (range 2), ducks capture foxes: a Brown-usable duck on a1, a hunter on e4
    st = position({"a1": (DUCK, True), "e4": (HUNTER, True, N), "a4": (TREE, False), "c4": (TREE, False),
                   "g4": (TREE, False), "e7": (TREE, False), "b1": (FOX, True)}, rules=FREE_HUNTERS)
    counts = ref.face_down_counts(st)
    total = sum(counts)
    # a4: a fox there is in the duck's line (a2, a3 empty); a bear is not duck prey
    assert odds.exposure_probability(st, sq("a4"), 0) == F(counts[FOX], total)
    # c4 and g4: two squares from the hunter (d4 / f4 empty), any direction: bear or fox
    for name in ("c4", "g4"):
        assert odds.exposure_probability(st, sq(name), 0) == F(counts[BEAR] + counts[FOX], total)
    # the b1 fox is next to the duck already
    assert threatened(st, 0) == {sq("b1")}
    assert check_position(st, 0) == 3
    assert check_position(st, 1) == 0  # no Blue bear near Brown's hunter, and foxes take only neutrals


def test_exposure_is_zero_at_the_start():
    st = ref.setup(STD, Stream(SEED, 1, 0))
    for seat in (0, 1):
        view = ref.observe(st, seat)
        assert all(odds.exposure_probability(view, s, seat, new_only=False) == 0 for s in range(49) if s != 24)


def test_exposure_uses_public_information_only():
    st = position({"c3": (FOX, True), "c5": (HUNTER, False, S), "a1": (TREE, False), "b7": (BEAR, False)})
    p = odds.exposure_probability(st, sq("c5"), 0)
    assert p == F(ref.face_down_counts(st)[HUNTER], sum(ref.face_down_counts(st))) / 4
    # swap what lies face down: the answer cannot change
    for kind, d in ((TREE, -1), (HUNTER, N), (BEAR, -1)):
        other = st.copy()
        other.grid[sq("c5")] = ref.Tile(kind, 1, False, d)
        assert odds.exposure_probability(other, sq("c5"), 0) == p
    # explicit counts replace the view's
    assert odds.exposure_probability(st, sq("c5"), 0, counts={"hunter": 1, "tree": 1, "bear": 1}) == F(1, 12)


def random_positions(rules, n: int, seed: int):
    """States in the main phase after a random number of random legal actions."""
    out = []
    for g in range(n):
        st = ref.setup(rules, Stream(seed, g, 0))
        decide = Stream(seed, g, 1)
        steps = 5 + decide.below(50)
        for _ in range(steps):
            options = ref.legal_actions(st, st.to_move)
            if st.over or st.face_down <= 1 or not options:
                break
            ref.apply_action(st, st.to_move, options[decide.below(len(options))])
        if not st.over and st.phase == "main":
            out.append((st, decide))
    return out


@pytest.mark.parametrize("rules", [STD, FREE_HUNTERS, NEUTRAL_HUNT], ids=["standard", "free_hunters", "neutral_hunt"])
def test_exposure_matches_brute_force_in_played_positions(rules):
    exposing = 0
    positions = random_positions(rules, 10, SEED + 7)
    assert len(positions) >= 8
    for st, decide in positions:
        down = [s for s in range(49) if st.grid[s] is not None and not st.grid[s].face_up]
        picks = sorted({down[decide.below(len(down))] for _ in range(5)})
        for seat in (0, 1):
            exposing += check_position(st, seat, picks)
    assert exposing > 0  # the positions do test something


def test_trees_never_attack_even_with_prey_and_range():
    # H-3.1: nobody moves a tree, so a tree given a range and prey still threatens nothing
    rules = STD.replace(capture_matrix={"tree": ("fox", "hunter")}, ranges={"tree": 3})
    st = position({"c3": (TREE, True), "c5": (TREE, False), "e3": (TREE, False), "a1": (DUCK, False)}, rules=rules)
    for seat in (0, 1):
        assert check_position(st, seat) == 0
        assert odds.exposure_probability(st, sq("c5"), seat, new_only=False) == 0

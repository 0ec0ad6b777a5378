"""Exact Walhalla odds (spec ``docs/rules/walhalla.md`` §2, §3, W-2, W-8, W-9, §5): hand-checked small cases,
brute-force enumeration of the tile subsets and of the fjord choices, the scoring tables against the
reference's own scorings, and Monte Carlo checks within 4.5 sigma at fixed seeds against setups made by
``reference.Game`` and against raids played by the reference with ``random`` policies."""

from __future__ import annotations

import copy
import doctest
import itertools
import math
import random
from collections import Counter
from fractions import Fraction as F

import pytest

from toolkit.core.exact import hypergeometric
from toolkit.games.walhalla import odds
from toolkit.games.walhalla import reference as ref
from toolkit.games.walhalla.data import FIELD_TYPES, VILLAGE, load_tiles
from toolkit.games.walhalla.rules import Rules

pytestmark = pytest.mark.slow  # about 16 s of CI: started early (tests/conftest.py), so the suite ends on short modules

STANDARD = Rules()
VARIABLE = Rules.preset("variable")
Z = 4.5
N_SETUPS = 20_000


def _within(hits: int, n: int, p: F, what: str = "") -> None:
    """``hits`` successes of ``n`` agree with probability ``p`` within Z sigma (exactly, if p is 0 or 1)."""
    p = F(p)
    if p in (0, 1):
        assert hits == n * p, f"{what}: {hits}/{n}, exact {p}"
        return
    sigma = math.sqrt(n * float(p) * (1 - float(p)))
    z = (hits - n * float(p)) / sigma
    assert abs(z) <= Z, f"{what}: {hits}/{n} = {hits / n:.5f}, exact {float(p):.5f}, z = {z:.2f}"


def _mean_within(values: list, dist: dict, what: str = "") -> None:
    mu = odds._mean(dist)
    var = sum((k - mu) ** 2 * p for k, p in dist.items())
    z = (sum(values) - len(values) * float(mu)) / math.sqrt(len(values) * float(var))
    assert abs(z) <= Z, f"{what}: mean {sum(values) / len(values):.4f}, exact {float(mu):.4f}, z = {z:.2f}"


def _ceil_or_floor(x: F, up: bool) -> int:
    return math.ceil(x) if up else math.floor(x)


# ---------------------------------------------------------------------- doctests, summary


def test_doctests():
    result = doctest.testmod(odds, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.parametrize("rules", [STANDARD, VARIABLE, Rules(num_players=3, tie_rounding="down"),
                                   Rules(peninsula_tiles=(5, 7, 6))], ids=["standard", "variable", "3p_down", "576"])
def test_summary_shape(rules):
    df = odds.summary(rules)
    assert list(df.columns) == ["quantity", "exact", "value"]
    assert df.quantity.is_unique
    for exact, value in zip(df.exact, df.value):
        assert abs(float(F(exact)) - value) < 1e-12
    assert not any(hasattr(odds, name) for name in ("throw_table", "value_distribution"))
    rows = dict(zip(df.quantity, df.exact))
    assert rows["P(no wheat field on a 6-tile peninsula)"] == "1/221"
    assert rows["majority: strengths 3,3,1 on tips 8/5, VP of each tied first"] == (
        "7" if rules.tie_rounding == "up" else "6")
    assert rows["Walhalla majority: counts 2,2,2,1, VP of each tied first"] == (
        "4" if rules.tie_rounding == "up" else "3")
    # the lengths rows are a law
    assert sum(F(e) for q, e in rows.items() if q.startswith("P(peninsula lengths")) == 1


# ---------------------------------------------------------------------- majorities (W-8.3, W-9.3)


@pytest.mark.parametrize("strength, eligible, first, second, rounding, places, ties, vp", [
    # a sole first, a sole second, a third with nothing
    ([5, 3, 1, 0], [1, 1, 1, 0], 8, 5, "up", ["first", "second", "none", "ineligible"], [1, 1, 0, 0], [8, 5, 0, 0]),
    # two tied for first split 8 + 5 = 13: 7 (up) or 6 (down) each; nobody is second
    ([3, 3, 1, 0], [1, 1, 1, 1], 8, 5, "up", ["first", "first", "none", "none"], [2, 2, 0, 0], [7, 7, 0, 0]),
    ([3, 3, 1, 0], [1, 1, 1, 1], 8, 5, "down", ["first", "first", "none", "none"], [2, 2, 0, 0], [6, 6, 0, 0]),
    # three tied for second split the inner tip 5: 2 (up) or 1 (down)
    ([4, 2, 2, 2], [1, 1, 1, 1], 8, 5, "up", ["first"] + ["second"] * 3, [1, 3, 3, 3], [8, 2, 2, 2]),
    ([4, 2, 2, 2], [1, 1, 1, 1], 8, 5, "down", ["first"] + ["second"] * 3, [1, 3, 3, 3], [8, 1, 1, 1]),
    # the strongest player is not eligible: the others play for the places
    ([9, 4, 4, 1], [0, 1, 1, 1], 6, 3, "up", ["ineligible", "first", "first", "none"], [0, 2, 2, 0], [0, 5, 5, 0]),
    # a lone eligible player takes first only
    ([0, 2, 0], [0, 1, 0], 7, 4, "up", ["ineligible", "first", "ineligible"], [0, 1, 0], [0, 7, 0]),
    # nobody eligible
    ([1, 1, 1], [0, 0, 0], 7, 4, "up", ["ineligible"] * 3, [0, 0, 0], [0, 0, 0]),
    # four tied for first: 10 / 4 = 5/2 -> 3 (up) or 2 (down)
    ([2, 2, 2, 2], [1, 1, 1, 1], 6, 4, "up", ["first"] * 4, [4] * 4, [3] * 4),
    ([2, 2, 2, 2], [1, 1, 1, 1], 6, 4, "down", ["first"] * 4, [4] * 4, [2] * 4),
])
def test_scoring_table_hand_cases(strength, eligible, first, second, rounding, places, ties, vp):
    t = odds.scoring_table(strength, eligible, first, second, rounding)
    assert t.place.tolist() == places
    assert t.tie.tolist() == ties
    assert t.vp.tolist() == vp


def _majority_cases():
    """Every strength vector 0..2 of 3 players with every eligibility, then 150 random 4-player cases."""
    rng = random.Random(5)
    for strength in itertools.product(range(3), repeat=3):
        for eligible in itertools.product((False, True), repeat=3):
            yield strength, eligible, 7, 4
    for _ in range(150):
        yield ([rng.randrange(5) for _ in range(4)], [rng.random() < 0.8 for _ in range(4)],
               rng.randrange(6, 9), rng.randrange(3, 6))


def test_scoring_table_describes_majority_gains():
    """Both roundings: the rows describe the VP of ``majority_gains`` (vp = round(pot / tie)), the places are
    consistent, and the ranks are dense."""
    checked = 0
    for up in (True, False):
        for strength, eligible, first, second in _majority_cases():
            t = odds.scoring_table(strength, eligible, first, second, "up" if up else "down")
            assert t.vp.tolist() == ref.majority_gains(list(strength), list(eligible), first, second, up)
            for row in t.itertuples():
                assert row.vp == (_ceil_or_floor(row.share, up) if row.tie else 0)
                assert row.share == (F(row.pot, row.tie) if row.tie else 0)
                assert (row.place == "ineligible") == (not row.eligible)
                assert (row.rank == 0) == (not row.eligible)
            firsts = (t.place == "first").sum()
            if any(eligible):
                assert firsts >= 1 and set(t[t.place == "first"].tie) == {firsts}
                assert (t[t.place == "first"]["rank"] == 1).all() and (t[t.place == "second"]["rank"] == 2).all()
                if firsts >= 2:
                    assert (t.place != "second").all()
                    assert set(t[t.place == "first"].pot) == {first + second}
            else:
                assert firsts == 0 and t.vp.sum() == 0
            checked += 1
    assert checked == 2 * (27 * 8 + 150)


def _play_raid(rules, seed, g, observer=None):
    """Raid 1 of a reference game with ``random`` policies, turn by turn as ``Game.play_out`` runs it."""
    game = ref.Game(rules, seed, g, ("random",) * rules.num_players, observer)
    game.raid, active = 0, game.start
    while not game.raid_over():
        game.turn(active)
        active = (active + 1) % game.n
    game.dragon, game.fjord = -1, -1
    return game


def _position(game):
    vikings = [[sum(1 for o in game.occupant[k] if o == p) for p in range(game.n)] for k in range(3)]
    villages = [[sum(1 for j, o in enumerate(game.occupant[k]) if o == p and game.field_type[k][j] == VILLAGE)
                 for p in range(game.n)] for k in range(3)]
    return vikings, villages


@pytest.mark.parametrize("rules", [STANDARD, Rules(num_players=3, tie_rounding="down"),
                                   Rules(peninsula_eligibility_min_vikings=2, village_bonus=3,
                                         peninsula_tiles="draw_18")],
                         ids=["standard", "3p_down", "elig2_var"])
def test_peninsula_scoring_table_matches_reference(rules):
    """After raid 1 of seeded games (random policies, random horns), the table's VP are what
    ``Game.peninsula_scoring`` gives for majorities."""
    rng = random.Random(11)
    for g in range(150):
        game = _play_raid(rules, 505, g)
        horns = [[rules.horn_strength * rng.randrange(2) for _ in range(3)] for _ in range(game.n)]
        vikings, villages = _position(game)
        strengths = odds.peninsula_strengths(rules, vikings, villages, [[horns[p][k] for p in range(game.n)]
                                                                        for k in range(3)])
        table = odds.peninsula_scoring_table(rules, strengths, vikings, game.inner_tip, game.outer_tip)
        after = copy.deepcopy(game)
        after.peninsula_scoring(horns)
        gains = [after.vp_from["peninsula"][p] - game.vp_from["peninsula"][p] for p in range(game.n)]
        assert table.groupby("player")["vp"].sum().tolist() == gains
        assert table[table.place == "first"].groupby("peninsula").size().index.isin(range(3)).all()


@pytest.mark.parametrize("rules", [STANDARD, Rules(num_players=3, tie_rounding="down", walhalla_final_vp=(7, 3))],
                         ids=["standard", "3p_down_73"])
def test_walhalla_majority_table_matches_reference(rules):
    for g in range(150):
        game = _play_raid(rules, 606, g)
        after = copy.deepcopy(game)
        after.final_scoring([[0, 0, 0] for _ in range(game.n)])
        gains = [after.vp_from["walhalla"][p] - game.vp_from["walhalla"][p] for p in range(game.n)]
        assert odds.walhalla_majority_table(rules, game.walhalla).vp.tolist() == gains


def test_walhalla_majority_hand_cases():
    assert odds.walhalla_majority_table(STANDARD, [3, 1, 1, 0]).vp.tolist() == [6, 2, 2, 0]
    assert odds.walhalla_majority_table(STANDARD, [2, 2, 1, 0]).vp.tolist() == [5, 5, 0, 0]
    assert odds.walhalla_majority_table(STANDARD, [0, 0, 0, 0]).vp.tolist() == [0, 0, 0, 0]
    assert odds.walhalla_majority_table(STANDARD, [0, 0, 4, 0]).vp.tolist() == [0, 0, 6, 0]
    assert odds.walhalla_majority_table(Rules(tie_rounding="down"), [1, 1, 1]).vp.tolist() == [3, 3, 3]


def test_scoring_table_refuses_bad_input():
    with pytest.raises(ValueError, match="eligible has 2 entries"):
        odds.scoring_table([1, 2, 3], [True, True], 8, 5)
    with pytest.raises(ValueError, match="tie_rounding"):
        odds.scoring_table([1, 2], [True, True], 8, 5, "nearest")


# ---------------------------------------------------------------------- lengths and tips (W-2.1, W-2.3)


def test_lengths_distribution_exact():
    assert odds.lengths_distribution(STANDARD) == {(6, 6, 6): 1}
    assert odds.lengths_distribution(Rules(peninsula_tiles=(5, 7, 6))) == {(5, 7, 6): 1}
    d = odds.lengths_distribution(VARIABLE)
    assert sum(d.values()) == 1 and len(d) == 10 and all(sum(a) == 18 for a in d)
    assert {a for a in d if sorted(a) == [5, 5, 8]} == {(5, 5, 8), (5, 8, 5), (8, 5, 5)}
    assert all(d[a] == F(1, 9) for a in ((5, 5, 8), (5, 8, 5), (8, 5, 5)))
    assert all(d[a] == F(1, 18) for a in itertools.permutations((5, 6, 7)))
    assert d[(6, 6, 6)] == F(1, 3)
    for k in range(3):
        assert odds.peninsula_length_distribution(VARIABLE, k) == {5: F(1, 3), 6: F(4, 9), 7: F(1, 9), 8: F(1, 9)}
    assert odds.peninsula_length_distribution((5, 7, 6), 2) == {6: 1}


def test_tips_exact():
    full = odds.tips_distribution()
    assert len(full) == 36 and set(full.values()) == {F(1, 36)}
    for k in range(3):
        one = odds.tips_distribution(k)
        assert set(one) == set(itertools.product((3, 4, 5), (6, 7, 8))) and set(one.values()) == {F(1, 9)}
    assert odds.tip_total_distribution(1) == {9: F(1, 9), 10: F(2, 9), 11: F(3, 9), 12: F(2, 9), 13: F(1, 9)}


# ---------------------------------------------------------------------- tiles (W-2.2)


def _composition(tile_ids, tiles) -> odds.Composition:
    fields, value = [0] * 4, 0
    for t in tile_ids:
        for kind, v in zip(tiles.types[t], tiles.values[t]):
            fields[kind] += 1
            value += v
    return odds.Composition(*fields, value)


@pytest.mark.parametrize("n", [1, 5, 6, 8])
def test_composition_matches_brute_force(n):
    """Every n-subset of the 18 physical tiles, each with weight 1."""
    tiles = load_tiles()
    brute = Counter(_composition(c, tiles) for c in itertools.combinations(range(tiles.n), n))
    total = math.comb(tiles.n, n)
    assert odds.composition_distribution(tiles=n) == {c: F(w, total) for c, w in sorted(brute.items())}


def test_composition_hand_values():
    assert odds.p_no_wheat(tiles=6) == F(math.comb(9, 6), math.comb(18, 6)) == F(1, 221)
    assert odds.p_no_wheat(STANDARD, 1) == F(1, 221)
    assert odds.expected_fields(STANDARD, 0, "village") == 3
    assert odds.expected_fields(VARIABLE, 2, "village") == 3
    for n in (5, 6, 7, 8):
        for kind in FIELD_TYPES:  # each type lies on 9 of the 18 tiles, once per tile
            assert odds.field_count_distribution(tiles=n, field_type=kind) == hypergeometric(18, 9, n)
        assert odds._mean(odds.wheat_value_distribution(tiles=n)) == n  # n/2 wheat fields of mean value 2
        assert all(sum(c[:4]) == 2 * n for c in odds.composition_distribution(tiles=n))
    d = odds.wheat_value_distribution(tiles=6)
    assert d[15] == F(1, math.comb(18, 6))  # all six wheat tiles of value 2 and 3
    assert max(d) == 15 and d[1] == F(3 * math.comb(9, 5), math.comb(18, 6))  # one wheat tile, of value 1
    # mixture over the length
    assert odds.p_no_wheat(VARIABLE, 0) == sum(
        (q * F(math.comb(9, n), math.comb(18, n)) for n, q in {5: F(1, 3), 6: F(4, 9), 7: F(1, 9),
                                                                8: F(1, 9)}.items()), F(0))


def test_field_distribution_exact():
    for j in (1, 2, 11, 12):
        d = odds.field_distribution(STANDARD, 0, j)
        assert sum(d.values()) == 1 and None not in d
        assert d[("village", 0)] == d[("forest", 0)] == d[("cult", 0)] == F(1, 4)
        assert d[("wheat", 1)] == d[("wheat", 2)] == d[("wheat", 3)] == F(1, 12)
    assert odds.field_distribution(STANDARD, 2, 13) == {None: 1}
    d = odds.field_distribution(VARIABLE, 1, 11)  # P1 has field 11 iff it has >= 6 tiles
    assert d[None] == F(1, 3) and d[("village", 0)] == F(2, 3) * F(1, 4)


def test_wheat_tiles_joint():
    d = odds.wheat_tiles_distribution(STANDARD)
    assert sum(d.values()) == 1
    assert d[(3, 3, 3)] == F(math.comb(6, 3) ** 3, math.comb(18, 9))
    assert odds.p_some_peninsula_without_wheat(STANDARD) == 3 * F(1, 221)  # two at once need 9 in 6 tiles
    for rules in (VARIABLE, Rules(peninsula_tiles=(5, 5, 5))):
        d = odds.wheat_tiles_distribution(rules)
        assert sum(d.values()) == 1
        for k in range(3):
            marg = Counter()
            for w, p in d.items():
                marg[w[k]] += p
            assert {w: p for w, p in marg.items() if p} == {
                w: p for w, p in odds.field_count_distribution(rules, k, "wheat").items() if p}


# ---------------------------------------------------------------------- setups, Monte Carlo (W-2)


J_CHECKED = (1, 2, 11, 12, 15)


@pytest.fixture(scope="module", params=[STANDARD, VARIABLE], ids=["standard", "variable"])
def setups(request):
    """N_SETUPS reference setups: lengths, tips, each peninsula's composition and some fields."""
    rules = request.param
    out = []
    for g in range(N_SETUPS):
        game = ref.Game(rules, 7_001, g, ("random",) * rules.num_players)
        comps, fields = [], []
        for k in range(3):
            types, values = game.field_type[k], game.field_value[k]
            count = [types.count(t) for t in range(4)]
            comps.append(odds.Composition(*count, sum(values)))
            fields.append({j: (FIELD_TYPES[types[j - 1]], values[j - 1]) if j <= len(types) else None
                           for j in J_CHECKED})
        out.append((tuple(game.lengths), tuple(game.inner_tip), tuple(game.outer_tip), comps, fields))
    return rules, out


def test_setups_lengths_and_tips(setups):
    rules, data = setups
    n = len(data)
    lengths = Counter(d[0] for d in data)
    exact = odds.lengths_distribution(rules)
    assert set(lengths) <= set(exact)
    for a, p in exact.items():
        _within(lengths[a], n, p, f"lengths {a}")
    tips = Counter((d[1], d[2]) for d in data)
    for key, p in odds.tips_distribution().items():
        _within(tips[key], n, p, f"tips {key}")
    for k in range(3):
        one = Counter((d[1][k], d[2][k]) for d in data)
        for key, p in odds.tips_distribution(k).items():
            _within(one[key], n, p, f"P{k} tips {key}")


def test_setups_compositions(setups):
    rules, data = setups
    n = len(data)
    for k in range(3):
        comps = [d[3][k] for d in data]
        for kind in range(4):
            counts = Counter(c[kind] for c in comps)
            exact = odds.field_count_distribution(rules, k, kind)
            assert set(counts) <= {v for v, p in exact.items() if p}
            for v, p in exact.items():
                _within(counts[v], n, p, f"P{k} {FIELD_TYPES[kind]} = {v}")
            _mean_within([c[kind] for c in comps], exact, f"P{k} mean {FIELD_TYPES[kind]}")
        wheat = odds.wheat_value_distribution(rules, k)
        counts = Counter(c.wheat_value for c in comps)
        for v, p in wheat.items():
            _within(counts[v], n, p, f"P{k} wheat value = {v}")
        _mean_within([c.wheat_value for c in comps], wheat, f"P{k} mean wheat value")
        _within(sum(1 for c in comps if c.wheat == 0), n, odds.p_no_wheat(rules, k), f"P{k} no wheat")
        # the joint law, on its most likely compositions
        joint = Counter(comps)
        for c, p in sorted(odds.composition_distribution(rules, k).items(), key=lambda cp: -cp[1])[:10]:
            _within(joint[c], n, p, f"P{k} composition {c}")
        for j in J_CHECKED:
            seen = Counter(d[4][k][j] for d in data)
            exact = odds.field_distribution(rules, k, j)
            assert set(seen) <= set(exact)
            for key, p in exact.items():
                _within(seen[key], n, p, f"P{k} field {j} = {key}")
    without = sum(1 for d in data if any(c.wheat == 0 for c in d[3]))
    _within(without, n, odds.p_some_peninsula_without_wheat(rules), "some peninsula without wheat")


# ---------------------------------------------------------------------- fjords (§3.4, DP-3 under random)


def _brute_moorings(lengths, k):
    """Every sequence of k fjord choices, weighted by the product of 1 / (legal fjords)."""
    cap = odds.fjord_capacities(lengths)
    law = Counter()

    def walk(state, p, left):
        if left == 0:
            law[state] += p
            return
        legal = [f for f in range(4) if state[f] < cap[f]]
        if not legal:
            walk(state, p, left - 1)
            return
        for f in legal:
            walk(state[:f] + (state[f] + 1,) + state[f + 1:], p / len(legal), left - 1)

    walk((0, 0, 0, 0), F(1), k)
    return dict(law)


def test_fjord_capacities():
    assert odds.fjord_capacities((6, 6, 6)) == (4, 4, 4, 4)
    assert odds.fjord_capacities((5, 5, 8)) == (4, 4, 6, 6)
    assert odds.fjord_capacities((8, 5, 5)) == (6, 6, 4, 4)
    assert odds.fjord_capacities((5, 6, 7)) == (4, 4, 5, 5)
    assert odds.fjord_capacities((1, 1, 1)) == (1, 1, 1, 1)
    # the reference's legality agrees: a game whose moored counts are at capacity - 1 / capacity
    for rules in (STANDARD, VARIABLE):
        for g in range(20):
            game = ref.Game(rules, 3, g, ("random",) * 4)
            cap = odds.fjord_capacities(game.lengths)
            for f in range(4):
                game.moored = [0, 0, 0, 0]
                game.moored[f] = cap[f] - 1
                assert f in game.legal_fjords()
                game.moored[f] = cap[f]
                assert f not in game.legal_fjords()


def test_fjord_chain_hand_values():
    # (6, 6, 6): every fjord holds 4.  A fjord is full after 4 dragons only if all went there: 1/256.
    assert odds.p_fjord_open((6, 6, 6), 0, 4) == F(255, 256)
    # after 5: the first four all to f, or three of the first four and the fifth: 1/256 + 4 * 3/4^5 = 1/64
    assert odds.p_fjord_open((6, 6, 6), 2, 5) == F(63, 64)
    assert all(odds.p_fjord_open((6, 6, 6), f, k) == 1 for f in range(4) for k in range(4))
    assert all(odds.p_fjord_open((6, 6, 6), f, 16) == 0 for f in range(4))
    assert odds.mooring_distribution((6, 6, 6), 2)[(1, 1, 0, 0)] == F(2, 16)
    assert odds.mooring_distribution((6, 6, 6), 2)[(2, 0, 0, 0)] == F(1, 16)
    # four 1-tile peninsulas' fjords hold one dragon each; the fifth dragon is set aside (W-4.4)
    assert odds.mooring_distribution((1, 1, 1), 5) == {(1, 1, 1, 1): 1}
    assert odds.p_fjord_open((1, 1, 1), 3, 1) == F(3, 4)


@pytest.mark.parametrize("lengths", [(6, 6, 6), (5, 5, 8), (7, 5, 6), (2, 1, 1)])
def test_fjord_chain_matches_brute_force(lengths):
    for k in range(7):
        assert odds.mooring_distribution(lengths, k) == _brute_moorings(lengths, k)


@pytest.mark.parametrize("rules", [STANDARD, VARIABLE, Rules(peninsula_tiles=(8, 5, 5))],
                         ids=["standard", "variable", "855"])
def test_fjord_chain_properties(rules):
    for lengths in odds.lengths_distribution(rules):
        cap = odds.fjord_capacities(lengths)
        for k in range(odds.K_MAX + 1):
            law = odds.mooring_distribution(lengths, k)
            assert sum(law.values()) == 1
            assert all(sum(s) == k and all(s[f] <= cap[f] for f in range(4)) for s in law)
    for f in range(4):
        ps = [odds.p_fjord_open(rules, f, k) for k in range(odds.K_MAX + 1)]
        assert ps[0] == 1 and all(a >= b for a, b in zip(ps, ps[1:]))
        if rules.peninsula_tiles in ("draw_18", (6, 6, 6)):  # mirror symmetry F0 <-> F3, F1 <-> F2
            assert ps == [odds.p_fjord_open(rules, 3 - f, k) for k in range(odds.K_MAX + 1)]
    table = odds.fjord_open_table(rules)
    assert len(table) == 13 * 4 and (table.exact.map(float) == table.value).all()
    assert odds.expected_open_fjords(rules, 12) == sum(table[table.k == 12].exact)


def _naive_open(k: int, cap: int) -> F:
    """A wrong model for the power checks: each dragon picks one of the 4 fjords uniformly, legal or not."""
    return sum((F(math.comb(k, j) * 3 ** (k - j), 4 ** k) for j in range(cap)), F(0))


@pytest.mark.parametrize("rules", [STANDARD, VARIABLE], ids=["standard", "variable"])
def test_fjord_chain_vs_legal_fjords_loop(rules):
    """The chain itself, on reference setups: k = 0..12 dragons, each to a uniform choice among
    ``Game.legal_fjords()``; whether f is legal after k dragons, independently of any raid end."""
    rng = random.Random(8_101)
    n = 12_000
    hits = Counter()
    for g in range(n):
        game = ref.Game(rules, 8_100, g, ("random",) * 4)
        for k in range(odds.K_MAX + 1):
            legal = game.legal_fjords()
            for f in legal:
                hits[(f, k)] += 1
            if k < odds.K_MAX:
                game.moored[rng.choice(legal)] += 1
    for k in range(odds.K_MAX + 1):
        for f in range(4):
            _within(hits[(f, k)], n, odds.p_fjord_open(rules, f, k), f"F{f} open after {k}")
    if rules == STANDARD:  # the check has power: it rejects the "legality ignored" model at k = 12
        naive = _naive_open(12, 4)
        assert abs(hits[(0, 12)] - n * naive) > Z * math.sqrt(n * float(naive) * (1 - float(naive)))
    else:  # and the wrong mixture that weighs the 10 orderings of draw_18 equally, at F1 after 12
        layouts = odds.lengths_distribution(rules)
        wrong = sum((odds.p_fjord_open(a, 1, 12) for a in layouts), F(0)) / len(layouts)
        assert abs(hits[(1, 12)] - n * wrong) > Z * math.sqrt(n * float(wrong) * (1 - float(wrong)))


@pytest.mark.parametrize("rules, games", [(STANDARD, 4_000), (Rules.preset("variable", num_players=3), 4_000)],
                         ids=["standard_4p", "variable_3p"])
def test_fjord_chain_vs_reference_random_policies(rules, games):
    """Raid 1 played by the reference with ``random`` policies (``Game.turn`` as ``play_out`` runs it).  An
    observer at DP-3 records whether f is among the options at the (k+1)-th turn (k = 0..11); after the
    raid, ``legal_fjords()`` gives k = 12.  Each frequency is over the games in which that turn happened
    (a raid may end early when no player has Midgard left); the early ends are counted and are rare."""
    offered, turns = Counter(), Counter()

    def observer(game, decision, choice):
        if decision.kind == ref.DP_FJORD and game.raid == 0:
            k = game.turns_per_raid[0] - 1
            assert sum(game.moored) == k and decision.options == game.legal_fjords()
            turns[k] += 1
            for f in decision.options:
                offered[(f, k)] += 1

    early = 0
    for g in range(games):
        game = _play_raid(rules, 9_009, g, observer)
        if game.turns_per_raid[0] == odds.K_MAX:
            turns[odds.K_MAX] += 1
            for f in game.legal_fjords():
                offered[(f, odds.K_MAX)] += 1
        else:
            early += 1
    assert turns[0] == games and early <= games // 100, f"{early} raids ended early"
    for k in range(odds.K_MAX + 1):
        for f in range(4):
            _within(offered[(f, k)], turns[k], odds.p_fjord_open(rules, f, k), f"F{f} offered at turn {k + 1}")


def test_fjord_refusals():
    with pytest.raises(ValueError, match="fjord=4"):
        odds.p_fjord_open((6, 6, 6), 4, 1)
    with pytest.raises(ValueError, match="lengths"):
        odds.mooring_distribution((8, 8, 8), 1)
    with pytest.raises(ValueError, match="k=-1"):
        odds.mooring_distribution((6, 6, 6), -1)
    with pytest.raises(ValueError, match="peninsula=3"):
        odds.p_no_wheat(STANDARD, 3)

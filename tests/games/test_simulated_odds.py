"""Simulated odds beside the exact ones (``GameSpec.simulated_odds``) for Herrlof, Halali, Attila and Walhalla.

Their exact odds are about the deal, which the records do not hold, so each
game's ``odds.simulated`` replays the run's deals through the reference set-up
(``toolkit.core.deals``).  Checked here, with fixed seeds:

- every value it returns lies within 4.5 standard errors of the exact one
  (binomial with the exact p for a probability row, plus 1/n for the count's
  discreteness; sample SD / sqrt(n) for a mean), and it fills exactly the
  rows it should;
- the replayed deals are the run's own: compared with what the kernel
  recorded (Herrlof's round log, the start player) and with the state the
  reference ``play_game`` starts from;
- the check goes red on a biased subset of the games, on another seed, and
  ``simulated`` refuses rules or policies that are not the run's.
"""

from __future__ import annotations

import importlib

import numpy as np
import pandas as pd
import pytest

import toolkit
from toolkit.core.runner import get_spec

pytestmark = pytest.mark.slow  # about 19 s of CI: started early (tests/conftest.py), so the suite ends on short modules

SEED = 11
Z = 4.5  # standard errors a simulated value may stray from the exact one


def odds_module(game: str):
    return importlib.import_module(f"toolkit.games.{game}.odds")


def run(game: str, rules, n_games: int, policies="random", first_game: int = 0, seed: int = SEED):
    spec = get_spec(game)
    policies = spec.check_policies(policies, rules)
    frame = toolkit.simulate(game, rules=rules, n_games=n_games, seed=seed, policies=policies,
                             first_game=first_game, progress=False)
    return frame, policies


def misfits(game: str, frame, rules, policies) -> list[str]:
    """The rows of ``simulated_odds`` more than ``Z`` standard errors from the exact value."""
    spec = get_spec(game)
    found = spec.simulated_odds(frame, rules, policies)
    sample = odds_module(game).samples(frame, rules, policies)
    exact = spec.odds(rules).set_index("quantity")["value"]
    out = []
    for quantity, value in found.items():
        n, p = len(sample[quantity]), float(exact[quantity])
        assert value == pytest.approx(np.mean(sample[quantity]), abs=1e-12)
        if quantity.startswith("P("):
            # plus one game's worth, the count's discreteness: a one-in-a-million outcome seen once
            # in 3,000 games is 10 standard errors out, yet no sign of a wrong deal
            se, slack = np.sqrt(p * (1 - p) / n), 1 / n
        else:  # a mean; a constant (the points face down) has SD 0 and must be exact
            se, slack = np.std(sample[quantity], ddof=1) / np.sqrt(n), 1e-9
        if abs(value - p) > Z * se + slack:
            out.append(f"{quantity}: simulated {value:.5f}, exact {p:.5f} (n={n}, se={se:.5f})")
    return out


def expected_rows(game: str, rules) -> set:
    """The rows each game's replay should fill: all of ``summary`` but what no deal shows."""
    rows = set(get_spec(game).odds(rules)["quantity"])
    if game == "halali" and rules.tile_counts["hunter"] == 0:  # no hunter is ever revealed
        rows -= {q for q in rows if q.startswith("P(a revealed hunter faces")}
    if game == "walhalla":
        odds = odds_module(game)
        # the fjords are about a raid's play and the majority rows are worked examples: not in a set-up
        rows = {q for q in rows if "fjord" not in q and "majority" not in q}
        if all(6 not in lengths for lengths in odds.lengths_distribution(rules)):
            rows.discard(odds.NO_WHEAT_ON_6)
    return rows


def rules_of(game: str, preset: str = "standard", **overrides):
    return get_spec(game).Rules.preset(preset, **overrides)


# game, rules, policies, games
CASES = [
    ("herrlof", rules_of("herrlof"), "random", 3000),
    ("herrlof", rules_of("herrlof", "publisher"), "greedy", 3000),
    ("herrlof", rules_of("herrlof", special_indicator_means="redraw", first_dealer="seat1"), "random", 3000),
    ("herrlof", rules_of("herrlof", suits=3, max_rank=12, valknut_count=1, hagalaz_count=4, hand_size=8),
     "random", 3000),
    ("halali", rules_of("halali"), "random,greedy", 4000),
    ("halali", rules_of("halali", first_player="random", match_games=2), "greedy,random", 4000),
    ("halali", rules_of("halali", tile_counts={"hunter": 0, "tree": 23}), "random", 3000),
    ("halali", rules_of("halali"), "lookahead,random", 400),
    *[("attila", rules_of("attila", num_players=n), "random", 3000) for n in (2, 3, 4, 5)],
    ("attila", rules_of("attila", num_players=5, hand_size=8, cards_per_tribe=7), "random", 3000),
    *[("walhalla", rules_of("walhalla", preset, num_players=n), "random", 3000)
      for preset in ("standard", "variable") for n in (3, 4)],
    ("walhalla", rules_of("walhalla", peninsula_tiles=(5, 5, 8)), "random", 2000),
]


@pytest.mark.parametrize("case", range(len(CASES)), ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_simulated_odds_agree_with_the_exact_ones(case):
    game, rules, policies, n_games = CASES[case]
    frame, policies = run(game, rules, n_games, policies, seed=SEED + case)  # each case its own deals
    found = get_spec(game).simulated_odds(frame, rules, policies)
    assert set(found) == expected_rows(game, rules)
    assert misfits(game, frame, rules, policies) == []


def test_the_dashboard_shows_them_beside_the_exact_ones():
    from toolkit.viz.dashboard import simulated_odds

    for game in ("herrlof", "halali", "attila", "walhalla"):
        rules = rules_of(game)
        frame, policies = run(game, rules, 50)
        table = simulated_odds(get_spec(game), rules, frame, policies)
        assert set(table.dropna(subset=["simulated"])["quantity"]) == expected_rows(game, rules)


def test_an_empty_run_fills_no_row():
    for game in ("herrlof", "halali", "attila", "walhalla"):
        rules = rules_of(game)
        frame, policies = run(game, rules, 10)
        assert get_spec(game).simulated_odds(frame.iloc[:0], rules, policies) == {}


# ---------------------------------------------------------------------- the replayed deals are the run's


class _Stop(Exception):
    pass


def _start_of(play_game, rules, seed, game_index, policies):
    """The reference game's state at its first decision (``play_game`` is stopped there)."""
    seen = []

    def observer(state, *decision):
        seen.append((state, decision))
        raise _Stop

    with pytest.raises(_Stop):
        play_game(rules, seed, game_index, policies, observer=observer)
    return seen[0]


def test_herrlof_replay_deals_what_the_kernel_dealt():
    """The kernel's round log holds each dealt hand's trumps, specials and ranks; the first
    dealer is in the records.  Games 500.. of a run, so the index is not the row number."""
    from toolkit.games.herrlof import round_log

    odds = odds_module("herrlof")
    rules = rules_of("herrlof")
    frame, policies = run("herrlof", rules, 300, "greedy,random", first_game=500)
    log = round_log(rules, 300, seed=SEED, policies=policies, first_game=500)
    hand = log[(log["round"] == 1) & (log["seat"] == 0)]
    sample = odds.samples(frame, rules, policies)
    assert np.array_equal(sample[odds.MEAN_TRUMPS], hand["trumps"])
    assert np.array_equal(sample[odds.MEAN_SPECIALS.format(label="V or N")], hand["specials"])
    assert np.array_equal(sample[odds.ONE_RANK.format(k=1)], hand["ones"] == 1)
    assert np.array_equal(sample[odds.MEAN_EFFECT.format(ranks="1, 3, 6, 9")],
                          hand[["ones", "threes", "sixes", "nines"]].sum(axis=1))
    # no trump (R-2.2) exactly when the first indicator is a V or N
    assert np.array_equal(sample[odds.NO_TRUMP], sample[odds.SPECIAL_INDICATOR])
    assert 0 < sample[odds.NO_TRUMP].sum() < 300
    dealers = [st.first_dealer for _, st in odds.deals(frame, rules, policies)]
    assert np.array_equal(dealers, frame["first_dealer"])
    assert len(set(dealers)) == 2
    frame.attrs["seed"] += 1  # negative control: another seed's deals are not the run's
    assert not np.array_equal(odds.samples(frame, rules, policies)[odds.MEAN_TRUMPS], hand["trumps"])


def test_halali_replay_reveals_what_the_game_revealed_first():
    """Each replayed first action (and the tile under it) is the reference game's own; the
    first player is in the records under ``first_player = random``."""
    from toolkit.games.halali.reference import play_game
    from toolkit.games.halali.rules import DIRECTIONS, HUNTER, KINDS

    odds = odds_module("halali")
    rules = rules_of("halali", first_player="random")
    frame, policies = run("halali", rules, 200, "greedy,random", first_game=70)
    replayed = list(odds.deals(frame, rules, policies))
    movers = [st.to_move for st, _ in replayed]
    assert np.array_equal(movers, frame["first_player"]) and len(set(movers)) == 2
    sample = odds.samples(frame, rules, policies)
    for row in range(12):
        state, (seat, options, action) = _start_of(play_game, rules, SEED, 70 + row, policies)
        st, first = replayed[row]
        assert (seat, action) == (st.to_move, first)
        tile = state.grid[action[1]]
        assert sample[odds.FIRST_REVEAL.format(what=f"a {KINDS[tile.kind]}")][row]
        assert sample[odds.FIRST_REVEAL_POINTS][row] == rules.points[KINDS[tile.kind]]
        facing = [sample[odds.FIRST_REVEAL_FACING.format(d=d)][row] for d in DIRECTIONS]
        assert facing == [tile.kind == HUNTER and tile.dir == i for i in range(4)]
    frame.attrs["seed"] += 1
    assert not np.array_equal([st.to_move for st, _ in odds.deals(frame, rules, policies)], frame["first_player"])


@pytest.mark.parametrize("game", ["attila", "walhalla"])
def test_replayed_set_up_is_where_the_reference_game_starts(game):
    """The start player (drawn before Attila's shuffle, after Walhalla's whole set-up) is in the
    records; what the samples measure is what ``play_game`` meets at its first decision."""
    from toolkit.games.walhalla.data import VILLAGE, WHEAT

    odds = odds_module(game)
    play_game = importlib.import_module(f"toolkit.games.{game}.reference").play_game
    rules = rules_of(game, num_players=3)
    frame, policies = run(game, rules, 200, first_game=900)
    replayed = list(odds.deals(frame, rules, policies))
    sample = odds.samples(frame, rules, policies)
    starts = [g.start_player if game == "attila" else g.first_player for g in replayed]
    assert np.array_equal(starts, frame["start_player"]) and len(set(starts)) == 3
    for row in range(8):
        state, _ = _start_of(play_game, rules, SEED, 900 + row, policies)
        if game == "attila":  # seat 0's hand, tribes 0 and 1
            hand = state.hands[0]
            assert sample[odds.MEAN_TRIBE][row] == hand[0]
            assert sample[odds.MEAN_DISTINCT][row] == sum(1 for k in hand if k > 0)
            assert sample[odds.TWO_TRIBES][row] == (hand[0] > 0 and hand[1] > 0)
        else:  # P0 for "a given peninsula"
            tips = state.inner_tip[0] + state.outer_tip[0]
            assert sample[odds.TIPS_TOTAL.format(t=tips)][row]
            for where, k in (("a given peninsula", 0), ("P0", 0), ("P1", 1), ("P2", 2)):
                assert sample[odds.VILLAGES.format(where=where)][row] == state.field_type[k].count(VILLAGE)
                assert sample[odds.WHEAT_VALUE.format(where=where)][row] == sum(state.field_value[k])
                assert sample[odds.NO_WHEAT.format(where=where)][row] == (WHEAT not in state.field_type[k])
    frame.attrs["seed"] += 1
    other = [g.start_player if game == "attila" else g.first_player for g in odds.deals(frame, rules, policies)]
    assert not np.array_equal(other, frame["start_player"])


# ---------------------------------------------------------------------- negative controls


BIASED = [  # a game's run, and a row whose games are dropped when its indicator is 1
    ("herrlof", rules_of("herrlof"), "P(no trump)"),
    ("halali", rules_of("halali"), "P(first reveal is a tree)"),
    ("attila", rules_of("attila", num_players=4), "P(at least 1 card of a given tribe in a hand)"),
    ("walhalla", rules_of("walhalla", "variable"), "P(a given peninsula has 6 tiles)"),
]


@pytest.mark.parametrize("game, rules, row", BIASED, ids=[b[0] for b in BIASED])
def test_a_biased_subset_of_the_games_goes_red(game, rules, row):
    """Keeping only the games whose replayed deal lacks some outcome is a frame of the run
    whose ``game_index`` is a biased subset: the check must fail on that row."""
    frame, policies = run(game, rules, 3000)
    assert misfits(game, frame, rules, policies) == []
    lacking = ~np.asarray(odds_module(game).samples(frame, rules, policies)[row], bool)
    biased = frame[lacking]
    biased.attrs = dict(frame.attrs)
    assert any(m.startswith(row + ":") for m in misfits(game, biased, rules, policies))


@pytest.mark.parametrize("game, other", [
    ("herrlof", {"valknut_count": 2}),
    ("halali", {"tile_counts": {"hunter": 7, "tree": 16}}),
    ("attila", {"hand_size": 5}),
    ("walhalla", {"peninsula_tiles": (5, 6, 7)}),
])
def test_rules_that_are_not_the_runs_are_refused(game, other):
    """Another deck (or tile set) would replay other deals than the run's."""
    rules = rules_of(game)
    frame, policies = run(game, rules, 20)
    with pytest.raises(ValueError, match="other rules"):
        get_spec(game).simulated_odds(frame, rules.replace(**other), policies)
    stripped = frame.copy()
    stripped.attrs = {"seed": frame.attrs["seed"]}  # a frame that does not say its rules cannot be checked
    assert get_spec(game).simulated_odds(stripped, rules, policies)


def test_halali_policies_that_are_not_the_runs_are_refused():
    """Halali replays the first player's choice, so it needs the run's policies."""
    rules = rules_of("halali")
    frame, _ = run("halali", rules, 20, "random,greedy")
    with pytest.raises(ValueError, match="policies"):
        get_spec("halali").simulated_odds(frame, rules, ("greedy", "greedy"))


@pytest.mark.parametrize("game", ["herrlof", "halali", "attila", "walhalla"])
def test_the_replay_takes_the_first_rows_up_to_its_cap(game):
    """``DEALS_REPLAYED``: ``SAMPLE_DEALS``, or fewer for a slower set-up (its docstring says why)."""
    from toolkit.core.deals import SAMPLE_DEALS

    odds = odds_module(game)
    rules = rules_of(game)
    policies = get_spec(game).check_policies("random", rules)
    assert odds.DEALS_REPLAYED <= SAMPLE_DEALS
    frame = pd.DataFrame({"game_index": np.arange(odds.DEALS_REPLAYED + 5)})
    frame.attrs["seed"] = SEED
    assert max(len(v) for v in odds.samples(frame, rules, policies).values()) == odds.DEALS_REPLAYED
    assert max(len(v) for v in odds.samples(frame.iloc[:7], rules, policies).values()) == 7

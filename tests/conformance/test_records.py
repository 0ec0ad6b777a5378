"""Conformance, part 3: every registered game's records keep the shared contract of the §6 row
(architecture decision 5), at every seat count it declares, with ``check=True`` (the kernel's
invariant hook) on every run.

The shared contract: one row per game with the game's columns for these rules, in order, after
``game_index`` and ``first_seat`` (an int64 seat; ``test_first_seat.py`` checks its values against the
games themselves); ``winner`` a seat or -1; ``win_<seat>`` 0/1, with ``winner >= 0`` exactly when one
seat won (``result`` "win"); ``turns``, ``plies``, ``decisions`` and ``options`` positive, options at
least the decisions and the decisions the plies (every decision point is a ply); the design-metric
columns in range (``lead_changes`` >= 0, ``decisive_turn`` in 0..turns and 0 exactly when nobody won
alone); coded columns as categories with the declared labels; the provenance in ``attrs``; and a CSV and
a Parquet file that load back to the same frame. Game-specific checks stay in each game's folder.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import toolkit
from conformance_games import NAMES, SPECS

GAMES = NAMES  # the registered games and the test-only ones (conformance_games.py)
SEED = 31
N = 300


def cases():
    for game in GAMES:
        spec = SPECS[game]
        counts = spec.seat_counts()
        for seats in counts:
            for policy in ("random", "greedy"):
                yield game, (seats if len(counts) > 1 else None), policy


CASES = list(cases())


def rules_for(game, seats):
    return toolkit.rules(game, **({"num_players": seats} if seats else {}))


def record_problems(spec, rules, df: pd.DataFrame) -> list[str]:
    problems = []
    seats = spec.seats(rules)
    expected = ["game_index", "first_seat", *spec.result_columns(rules)]
    if list(df.columns) != expected:
        problems.append(f"columns {list(df.columns)[:6]}... are not game_index, first_seat + result_columns(rules)")
        return problems
    first = df["first_seat"]
    if first.dtype != np.int64 or not first.between(0, seats - 1).all():
        problems.append(f"first_seat ({first.dtype}) is not an int64 seat")
    wins = df[[f"win_{s}" for s in range(seats)]]
    if not wins.isin([0, 1]).all().all():
        problems.append("a win column outside 0/1")
    winner = df["winner"].to_numpy()
    if not ((winner >= -1) & (winner < seats)).all():
        problems.append("winner outside -1..seats-1")
    sole = wins.sum(axis=1).to_numpy() == 1
    if not ((winner >= 0) == sole).all():
        problems.append("winner >= 0 is not 'exactly one win column set'")
    for s in range(seats):
        if not (wins[f"win_{s}"].to_numpy()[winner == s] == 1).all():
            problems.append(f"winner {s} without win_{s}")
    if "result" in df and not ((df["result"].astype(str) == "win").to_numpy() == (winner >= 0)).all():
        problems.append("result 'win' is not winner >= 0")
    for column in ("turns", "plies", "decisions", "options"):
        if not (df[column] >= 1).all():
            problems.append(f"{column} below 1")
    if not (df["options"] >= df["decisions"]).all():
        problems.append("fewer options than decisions")
    if not (df["decisions"] == df["plies"]).all():
        problems.append("decisions differ from plies")
    if not (df["lead_changes"] >= 0).all():
        problems.append("lead_changes below 0")
    if not ((df["decisive_turn"] >= 0) & (df["decisive_turn"] <= df["turns"])).all():
        problems.append("decisive_turn outside 0..turns")
    if not ((df["decisive_turn"] == 0) == (df["winner"] == -1)).all():
        problems.append("decisive_turn 0 is not 'no sole winner'")
    for column, labels in spec.categories.items():
        if column in df and (not isinstance(df[column].dtype, pd.CategoricalDtype)
                             or list(df[column].cat.categories) != list(labels)):
            problems.append(f"{column} is not a category with labels {labels}")
    attrs = df.attrs
    if attrs.get("game") != spec.name or attrs.get("seed") != SEED or len(attrs.get("policies", ())) != seats:
        problems.append(f"attrs {sorted(attrs)} do not name the game, seed and one policy per seat")
    return problems


@pytest.mark.parametrize("game,seats,policy", CASES)
def test_records_keep_the_shared_contract(game, seats, policy):
    spec = toolkit.GAMES[game]
    rules = rules_for(game, seats)
    df = toolkit.simulate(game, rules, N, seed=SEED, policies=policy, check=True, progress=False)
    assert record_problems(spec, rules, df) == []


@pytest.mark.parametrize("game", GAMES)
def test_csv_and_parquet_load_back_the_same_frame(game, tmp_path):
    df = toolkit.simulate(game, n_games=60, seed=SEED, policies="greedy", progress=False)
    for name in ("games.csv", "games.parquet"):
        toolkit.save(df, tmp_path / name)
        back = toolkit.load(tmp_path / name)
        # CSV does not keep the integer widths (int32 comes back int64); the values and categories it keeps
        pd.testing.assert_frame_equal(back, df, check_exact=True, check_dtype=name.endswith(".parquet"))
        assert back.attrs["rules"] == df.attrs["rules"] and back.attrs["policies"] == df.attrs["policies"]


# ---------------------------------------------------------------------- negative controls


@pytest.fixture(scope="module")
def attila_three():
    rules = rules_for("attila", 3)
    return rules, toolkit.simulate("attila", rules, N, seed=SEED, policies="random", progress=False)


@pytest.mark.parametrize("corrupt", [
    lambda d: d.assign(winner=d["winner"].where(d["winner"] < 0, 3)),   # a seat the game does not have
    lambda d: d.assign(win_0=1),                                         # seat 0 wins every game
    lambda d: d.assign(options=d["decisions"] - 1),
    lambda d: d.assign(decisions=d["plies"] + 1, options=d["options"] + 1),
    lambda d: d.assign(decisive_turn=d["turns"] + 1),
    lambda d: d.assign(lead_changes=-1),
    lambda d: d.assign(result=d["result"].astype(str)),                 # the category lost
    lambda d: d.drop(columns=["score_2"]),
    lambda d: d.drop(columns=["first_seat"]),
    lambda d: d.assign(first_seat=d["first_seat"] + 3),                 # a seat the game does not have
    lambda d: d.assign(first_seat=d["first_seat"].astype(np.int32)),
])
def test_a_broken_record_is_reported(attila_three, corrupt):
    rules, df = attila_three
    broken = corrupt(df.copy())
    broken.attrs = dict(df.attrs)
    assert record_problems(toolkit.GAMES["attila"], rules, df) == []
    assert record_problems(toolkit.GAMES["attila"], rules, broken)

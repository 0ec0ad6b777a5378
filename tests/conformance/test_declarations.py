"""Conformance, part 1: what each registered game declares (``GameSpec``) is what it does.

Every test here runs over ``toolkit.GAMES`` and the test-only games (``conformance_games.py``): a new game is
checked by being registered.  Each check is a function returning its problems (an empty list: conforms), so
that each has a negative control below: a declaration made wrong on purpose must be reported.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

import toolkit
from conformance_games import NAMES
from toolkit.analysis import metrics
from toolkit.core.game import PageRuns, with_presentation
from toolkit.core.params import params_of

GAMES = NAMES  # the registered games and the test-only ones (conformance_games.py)
N = 1_500
SEED = 11


def random_run(spec, seats: int | None = None) -> pd.DataFrame:
    rules = spec.Rules.preset("standard", **({"num_players": seats} if seats else {}))
    return toolkit.simulate(spec, rules, N, seed=SEED, policies="random", progress=False)


def outcome_problems(spec, df: pd.DataFrame) -> list[str]:
    """The rows agree with the declared outcomes (``results``: shared wins, draws, aborts), and so do the
    labels of the kernel's ``result`` codes where it records them."""
    problems = []
    codes = tuple(getattr(spec.kernel, "RESULT_CODES", spec.categories.get("result", spec.results)))
    if codes != tuple(spec.results):
        problems.append(f"results={spec.results} but the kernel's result codes are {codes}")
    winners = df[[c for c in df.columns if c.startswith("win_")]].sum(axis=1).to_numpy()
    result = df["result"].astype(str).to_numpy() if "result" in df else np.array([])
    if not spec.shared_wins and (winners >= 2).any():
        problems.append(f"{int((winners >= 2).sum())} games with a shared win, none declared")
    nobody = winners == 0
    if nobody.any() and not (spec.draws or spec.aborts):
        problems.append(f"{int(nobody.sum())} games without a winner, but neither draws nor aborts declared")
    if len(result):
        solo = result == "win"
        if not ((winners == 1) == solo).all():
            problems.append("result 'win' is not the games with exactly one winner")
        if not ((df["winner"].to_numpy() >= 0) == solo).all():
            problems.append("winner >= 0 is not result 'win'")
    return problems


def seat_problems(spec) -> list[str]:
    """Each declared seat count plays, with one win column per seat and first movers among the seats."""
    problems = []
    for seats in spec.seat_counts():
        rules = spec.Rules.preset("standard", **({"num_players": seats} if len(spec.seat_counts()) > 1 else {}))
        if spec.seats(rules) != seats:
            problems.append(f"seats(rules) = {spec.seats(rules)} for a {seats}-seat game")
            continue
        df = toolkit.simulate(spec, rules, 40, seed=SEED, policies="random", progress=False)
        win_columns = sorted(c for c in df.columns if c.startswith("win_"))
        if win_columns != [f"win_{s}" for s in range(seats)]:
            problems.append(f"{seats} seats: win columns {win_columns}")
        first = df["first_seat"].to_numpy()  # the frame's first_seat: spec.first_mover over its columns
        if not ((0 <= first) & (first < seats)).all():
            problems.append(f"{seats} seats: first movers {sorted(set(first.tolist()))}")
    return problems


def settings_problems(spec) -> list[str]:
    """Report, page and notebook settings name real policies, rules and metrics."""
    problems = []
    shown = spec.presentation
    ladder = [p for p in shown.page_runs.ladder_policies if p != "lookahead"]  # "lookahead": the setting above
    for name in (shown.page_runs.lookahead, shown.notebook_lookahead, *spec.default_policies(spec.Rules()), *ladder):
        try:
            spec.check_policy_name(name)
        except ValueError as error:
            problems.append(str(error))
    runs = spec.presentation.page_runs
    if spec.presentation.report_games < 1 or runs.tournament < 1 or runs.skill < 1 or runs.ladder < 1:
        problems.append("a run size below 1")
    if runs.decisions < 2:
        problems.append("decisions judged in fewer than 2 games (the intervals are counted over games)")
    q = spec.presentation.rule_question
    if q is not None:
        fields = params_of(spec.Rules)
        if q.rule not in fields:
            problems.append(f"rule_question.rule {q.rule!r} is not a rule")
        else:
            for value in q.values:
                try:
                    spec.Rules.preset("standard", **dict(q.base), **{q.rule: value})
                except ValueError as error:
                    problems.append(str(error))
        shown = metrics.design_metrics(random_run(spec, dict(q.base).get("num_players"))).index
        if q.metric not in shown:
            problems.append(f"rule_question.metric {q.metric!r} is not a design metric")
    return problems


def odds_problems(spec) -> list[str]:
    """Each extra exact table is a distribution (probabilities summing to one) or a table."""
    problems = []
    for title in spec.extra_odds:
        value = spec.extra_table(title)(spec.Rules())
        if isinstance(value, dict):
            total = sum(value.values())
            if total != 1:
                problems.append(f"{title}: probabilities sum to {total}")
        elif not isinstance(value, pd.DataFrame) or value.empty:
            problems.append(f"{title}: neither a distribution nor a table")
    return problems


def hook_problems(spec) -> list[str]:
    """A declared replay gives positions a declared drawing draws; the replay is the run's game."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    problems = []
    if spec.replay is None:
        return ["draw_position declared without replay"] if spec.draw_position else []
    positions = spec.hook("replay")(spec.Rules(), SEED, 0, None)
    if len(positions) < 2:
        problems.append(f"replay gave {len(positions)} positions")
    if spec.draw_position is not None:
        for position in (positions[0], positions[-1]):
            ax = spec.hook("draw_position")(position)
            if not ax.get_children():
                problems.append("draw_position drew nothing")
            plt.close(ax.figure)
    return problems


class _Runs(dict):
    """Each game's random run, played when a test first asks for it: a run of one game's tests (``-k``, the
    tutorial copy's) compiles that game only."""

    def __missing__(self, name):
        self[name] = random_run(toolkit.GAMES[name])
        return self[name]


@pytest.fixture(scope="module")
def runs():
    return _Runs()


@pytest.mark.parametrize("game", GAMES)
def test_outcomes_are_as_declared(game, runs):
    assert outcome_problems(toolkit.GAMES[game], runs[game]) == []


@pytest.mark.parametrize("game", GAMES)
def test_every_declared_seat_count_plays(game):
    assert seat_problems(toolkit.GAMES[game]) == []


@pytest.mark.parametrize("game", GAMES)
def test_settings_name_real_policies_rules_and_metrics(game):
    assert settings_problems(toolkit.GAMES[game]) == []


@pytest.mark.parametrize("game", GAMES)
def test_extra_odds_are_distributions(game):
    assert odds_problems(toolkit.GAMES[game]) == []


@pytest.mark.parametrize("game", GAMES)
def test_hooks_replay_and_draw(game):
    assert hook_problems(toolkit.GAMES[game]) == []


def test_the_declared_outcomes_are_seen():
    """Each declared outcome happens in random play somewhere (else the declaration is untested)."""
    seen = {flag: [g for g in GAMES if getattr(toolkit.GAMES[g], flag)] for flag in ("shared_wins", "draws", "aborts")}
    assert all(seen.values()), seen
    assert [g for g in GAMES if toolkit.GAMES[g].replay] and [g for g in GAMES if toolkit.GAMES[g].extra_odds]


# ---------------------------------------------------------------------- negative controls


def test_a_wrong_outcome_declaration_is_reported(runs):
    attila = toolkit.GAMES["attila"]
    assert outcome_problems(dataclasses.replace(attila, results=("win", "aborted")), runs["attila"])
    herrlof = toolkit.GAMES["herrlof"]
    assert outcome_problems(dataclasses.replace(herrlof, results=("win",)), runs["herrlof"])
    valhalla = toolkit.GAMES["valhalla"]
    assert outcome_problems(dataclasses.replace(valhalla, results=("win", "shared", "aborted")), runs["valhalla"])
    pig = toolkit.GAMES["pig"]
    nobody = runs["pig"].copy()
    nobody.loc[nobody.index[0], ["win_0", "win_1"]] = 0  # a game without a winner in a game declaring none
    assert outcome_problems(pig, runs["pig"]) == [] and outcome_problems(pig, nobody)
    shared = runs["valhalla"].copy()
    shared.loc[shared.index[0], ["win_0", "win_1"]] = 1  # a shared win in a game declaring none
    assert outcome_problems(valhalla, runs["valhalla"]) == [] and outcome_problems(valhalla, shared)


def test_a_wrong_seat_declaration_is_reported():
    walhalla = toolkit.GAMES["walhalla"]
    assert seat_problems(dataclasses.replace(walhalla, seats=lambda rules: 4))
    assert seat_problems(dataclasses.replace(walhalla, first_mover=lambda column: column("start_player") + 4))


def test_wrong_settings_are_reported():
    halali = toolkit.GAMES["halali"]
    assert settings_problems(with_presentation(halali, notebook_lookahead="minimax:9"))
    assert settings_problems(with_presentation(halali, notebook_lookahead="mcts:0"))
    assert settings_problems(with_presentation(halali, page_runs=PageRuns(ladder_policies=("random", "mcts:x"))))
    assert settings_problems(with_presentation(halali, page_runs=PageRuns(ladder=0)))
    assert settings_problems(with_presentation(halali, page_runs=PageRuns(decisions=1)))
    question = dataclasses.replace(halali.presentation.rule_question, rule="no_such_rule")
    assert settings_problems(with_presentation(halali, rule_question=question))
    question = dataclasses.replace(halali.presentation.rule_question, values=(1, 999))
    assert settings_problems(with_presentation(halali, rule_question=question))
    question = dataclasses.replace(halali.presentation.rule_question, metric="fun")
    assert settings_problems(with_presentation(halali, rule_question=question))


def test_a_table_that_is_no_distribution_is_reported():
    valhalla = toolkit.GAMES["valhalla"]
    assert odds_problems(dataclasses.replace(valhalla, extra_odds={"half": lambda rules: {0: 0.5}}))


def test_a_missing_replay_is_reported():
    halali = toolkit.GAMES["halali"]
    assert hook_problems(dataclasses.replace(halali, replay=None))
    with pytest.raises(ValueError, match="declares no replay hook"):
        toolkit.GAMES["valhalla"].hook("replay")

"""Herrlof: a 2-player trick-taking card game with secret exact bids (spec ``docs/rules/herrlof.md``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from toolkit.core.game import GameSpec, PageRuns, Presentation, RuleQuestion, TuneQuestion
from toolkit.games.herrlof.layout import RESULT_CODES


def warm_logs(policies) -> None:
    """Compile the round log's loop for these policies' copy (``toolkit warm``: ``core.warm``)."""
    round_log(n_games=2, policies=policies)


def round_log(rules=None, n_games: int = 10_000, *, seed: int = 0, policies=("random", "random"),
              first_game: int = 0) -> pd.DataFrame:
    """One row per round and seat: the bid, the tricks won, the points, and the dealt hand's
    strength (``reference.hand_strength``, quarter tricks), trumps, specials and cards of rank
    1/3/6/9, and the effects that seat executed that round.

    The games are the same as ``toolkit.simulate("herrlof", ...)`` with the same seed and
    policies (the kernel plays them once more, writing the log).

    Examples
    --------
    >>> log = round_log(n_games=100, seed=1, policies=("greedy", "random"))
    >>> bool((log["tricks"] <= 15).all())
    True
    """
    from toolkit.core.mcts import policy_codes
    from toolkit.games.herrlof import kernel, roundlog
    from toolkit.games.herrlof.rules import Rules

    rules = Rules() if rules is None else (Rules.preset("standard", **rules) if isinstance(rules, dict) else rules)
    policies = SPEC.check_policies(policies, rules)
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 1:
        raise ValueError(f"n_games={n_games!r} is not allowed: an integer >= 1")
    out, log = roundlog.play_logged(kernel.to_kernel(rules), policy_codes(kernel, policies), seed, first_game,
                                    n_games, rules.max_rounds)
    rounds = out[:, kernel.C_ROUNDS]
    game = np.repeat(np.arange(first_game, first_game + n_games), 2 * rules.max_rounds)
    flat = log.reshape(-1, roundlog.N_LOG)
    keep = np.arange(2 * rules.max_rounds)[None, :] < 2 * rounds[:, None]
    frame = pd.DataFrame(flat[keep.ravel()], columns=list(roundlog.LOG_FIELDS))
    frame.insert(0, "game", game[keep.ravel()])
    frame.insert(3, "policy", np.asarray(policies, dtype=object)[frame["seat"].to_numpy()])
    return frame


SPEC = GameSpec(
    name="herrlof",
    description="2-player trick-taking card game with exact bids",
    default_policies=lambda rules: ("greedy", "greedy"),
    seats=lambda rules: 2,
    histogram_columns=("turns", "plies", "rounds", "first_dealer"),
    turn_word="one trick",
    first_mover=lambda column: 1 - column("first_dealer"),  # the non-dealer bids and leads first
    results=RESULT_CODES,  # ("win", "draw")
    hidden_information=True,  # the hands, the stock and the secret bids
    presentation=Presentation(
        panel_games=30_000,  # greedy: 30,000 games played and drawn in about 1 s (benchmarks/redraw.py)
        # toolkit report --html: lookahead:32 (the default, PIMC) plays 12 games/s against random,
        # lookahead:4 140; the tournament at lookahead:4 takes 4.4 CPU s for 200 games per pair, skill gap
        # and luck 3.2 CPU s for 200
        page_runs=PageRuns(tournament=400, skill=400, lookahead="lookahead:4"),
        # the overview notebook: 60-70 lookahead:8 games a second against random (two cores)
        notebook_lookahead="lookahead:8",
        lookahead_share=100,
        rule_question=RuleQuestion(
            "exact_bid_bonus", (0, 5, 10, 15, 20), "lead_changes",
            "the bonus for making one's bid exactly is the heart of the bidding game. It decides how fast the "
            "50 points are reached and how much a round can swing."),
        tune_question=TuneQuestion(
            "The special cards' effects (the 1 steals a trick, the 3 trades with the stock, the 6 swaps a card, "
            "the 9 cedes the lead): which settings make skill matter most, greedy against random?",
            {"skill_gap": "max"}, {"effect_1": None, "effect_3": None, "three_trigger": None, "effect_6": None,
                                   "effect_9": None},
            skilled="greedy", trials=20, n_games=2_000),
    ),
)

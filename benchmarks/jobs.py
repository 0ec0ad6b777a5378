"""The dashboard's default long jobs, timed for every game and player count (issue 36, point 4: each under 60 s
warm on 2 cores).

    .venv/bin/python benchmarks/jobs.py [GAME ...]

For each game and each player count it allows: the tournament and the ladder at their default sizes
(``toolkit.viz.dashboard.job_games``, the report's players) and the tuning at its defaults (the game's own
question, the report's players), each played once and timed; a run over :data:`BUDGET` is a miss and the
script exits 1.  Run it on a warm cache (``make warm``), nothing else on the machine.
"""

from __future__ import annotations

import sys
import time

from toolkit.analysis import strength, tournament, tuning
from toolkit.core.runner import get_spec
from toolkit.games import GAMES
from toolkit.viz.dashboard import TUNE_GAMES, TUNE_TRIALS, job_games, job_players

BUDGET = 60.0


def main(names) -> int:
    misses = 0
    for name in names or list(GAMES):
        spec = get_spec(name)
        for seats in spec.seat_counts():
            rules = spec.Rules(num_players=seats) if hasattr(spec.Rules(), "num_players") else spec.Rules()
            policies = spec.default_policies(rules)
            question = spec.presentation.tune_question
            jobs = {
                "tournament": lambda: tournament.compare(spec, job_players(spec, "tournament"),
                                                         job_games(spec, rules, "tournament"), rules=rules,
                                                         progress=False),
                "ladder": lambda: strength.ladder(spec, rules, policies=job_players(spec, "ladder"),
                                                  n_games=job_games(spec, rules, "ladder"), progress=False),
            }
            if question is not None:
                (metric, goal), = list(question.targets.items())[:1]
                jobs["tuning"] = lambda: tuning.tune(spec, {metric: goal}, dict.fromkeys(question.vary), TUNE_TRIALS,
                                                     TUNE_GAMES, rules=rules, policies=policies, progress=False,
                                                     skilled=question.skilled, unskilled=question.unskilled)
            for job, run in jobs.items():
                start = time.perf_counter()
                run()
                seconds = time.perf_counter() - start
                miss = seconds > BUDGET
                misses += miss
                print(f"{name:9s} {seats} players  {job:10s} {seconds:7.1f} s  {'MISS' if miss else 'ok'}", flush=True)
    print(f"{misses} of the default jobs over {BUDGET:.0f} s")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

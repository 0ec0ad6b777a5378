"""The time left a watched job says, against the time it really had left (issue 52, point 3: within 2x after
the first tenth of the job, for simulate, tournament, ladder, tuning, decisions and sweep).

    .venv/bin/python benchmarks/progress.py [KIND ...]

Each kind is played once under a :class:`toolkit.core.jobs.Job`, as the dashboard and the command line's bar
watch it, at the sizes a designer meets (the dashboard's defaults where it has them); every report of the
time left (:meth:`~toolkit.core.jobs.Job.remaining`, the pace of the work since the first games) made after a
tenth of the work is set beside the time the job then really had left.  A report counts as a miss when it
is outside half to twice the truth and more than :data:`SLACK` seconds off (the last seconds of a job
are said as "about 1 s"); the script prints each kind's worst ratio and its misses, and exits 1 if there
are any.  Run it on a warm cache (``make warm``), nothing else on the machine.
"""

from __future__ import annotations

import os
import sys
import time

from toolkit.analysis import decisions, strength, sweep, tournament, tuning
from toolkit.core import jobs
from toolkit.core.runner import get_spec, simulate
from toolkit.viz.dashboard import TUNE_GAMES, TUNE_TRIALS, job_games, job_players

WITHIN = 2.0
SLACK = 1.0  # seconds: a report this close to the truth is right whatever the ratio


def _kinds():
    valhalla, attila = get_spec("valhalla"), get_spec("attila")
    question = valhalla.presentation.tune_question
    return {
        "simulate": lambda: simulate("valhalla", None, 100, policies=("mcts:100", "greedy"), keep="summary",
                                     progress=False),
        "tournament": lambda: tournament.compare(attila, job_players(attila, "tournament"),
                                                 job_games(attila, attila.Rules(), "tournament"), progress=False),
        "ladder": lambda: strength.ladder(valhalla, None, policies=job_players(valhalla, "ladder"),
                                          n_games=job_games(valhalla, valhalla.Rules(), "ladder"), progress=False),
        # the dashboard's trials and games a trial, played by lookahead so that the job lasts seconds
        "tuning": lambda: tuning.tune(valhalla, question.targets, question.vary, TUNE_TRIALS, TUNE_GAMES,
                                      preset=question.preset, policies="lookahead", progress=False),
        "decisions": lambda: decisions.decisions("walhalla", None, n_games=300, progress=False),
        "sweep": lambda: sweep.sweep("valhalla", {"stick_rune_up_probability": [0.2, 0.35, 0.5, 0.65, 0.8]},
                                     n_games=10_000, policies="lookahead", progress=False),
    }


def watched(run) -> tuple[float, list[tuple[float, float, float]]]:
    """Play ``run`` under a job; (its seconds, [(share of the work done, said left, truly left)])."""
    reports = []
    job = jobs.Job(on_progress=lambda j: reports.append((time.perf_counter(), j.fraction(), j.remaining())),
                   every=0.2)
    start = time.perf_counter()
    with jobs.running(job):
        run()
    end = time.perf_counter()
    return end - start, [(share, said, end - at) for at, share, said in reports if said is not None]


def main(names) -> int:
    print(f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")
    kinds = _kinds()
    misses = 0
    print(f"{'job':11} {'seconds':>8} {'reports':>8} {'worst said/true':>16} {'misses':>7}")
    for name in names or list(kinds):
        seconds, reports = watched(kinds[name])
        bad = [r for r in reports if not (r[2] / WITHIN <= r[1] <= WITHIN * r[2] or abs(r[1] - r[2]) <= SLACK)]
        worst = max(reports, key=lambda r: abs(r[1] - r[2]) / max(r[2], SLACK), default=None)
        misses += len(bad)
        shown = "-" if worst is None else f"{worst[1]:.1f}/{worst[2]:.1f} s"
        print(f"{name:11} {seconds:8.1f} {len(reports):8} {shown:>16} {len(bad):7}", flush=True)
        for share, said, true in bad[:5]:
            print(f"    at {share:.0%} of the work: said {said:.1f} s left, {true:.1f} s were")
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

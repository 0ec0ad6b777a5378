"""Every option of ``toolkit decisions`` read back from what it changes (the rule of
``tests/test_effect_cli.py``, whose ``EFFECTS`` names these tests).

The command plays its games through :class:`toolkit.core.protocol.KernelGame`, not the kernel's driver, so
the games are recorded here where it makes them (the game, the kernel parameters of the rules, the seats'
policy codes, the seed and game index), and the searches where the judge runs (their policy name); each
option is read there or in the file ``-o`` writes, against the run without it (the control)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

import toolkit
from toolkit.analysis import decisions as metric
from toolkit.cli import main
from toolkit.core import mcts, results
from toolkit.core.protocol import KernelGame


@pytest.fixture
def recorded(monkeypatch):
    """Every game the command starts (``games``: name, parameters, policy codes, seed, game index), every
    search its judge runs (``judges``: the policy name) and the threads of its pool (``threads``)."""
    log = {"games": [], "judges": [], "threads": []}

    class Recorded(KernelGame):
        def __init__(self, kernel, rules, policies, seed, game):
            super().__init__(kernel, rules, policies, seed, game)
            log["games"].append((kernel.__name__.split(".")[-2], key(self.params), tuple(self.policies.tolist()),
                                 seed, game))

        def root_statistics(self, policy="mcts:1000", twin=False):
            log["judges"].append(policy)
            return super().root_statistics(policy, twin)

    class Pool(metric.ThreadPoolExecutor):
        def __init__(self, workers, *args, **kwargs):
            log["threads"].append(workers)
            super().__init__(workers, *args, **kwargs)

    monkeypatch.setattr(metric, "KernelGame", Recorded)
    monkeypatch.setattr(metric, "ThreadPoolExecutor", Pool)
    return log


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


BASE = ("decisions", "pig", "-n", "3", "--judge", "mcts:30", "--no-progress")


def key(params) -> str:
    """Kernel parameters as a comparable text (an array, or a tuple of them)."""
    with np.printoptions(threshold=1_000_000):
        return repr(params)


def params(game, **rules):
    return key(toolkit.GAMES[game].kernel.to_kernel(toolkit.rules(game, **rules)))


def test_the_game_and_its_rules_are_the_ones_played(capsys, recorded):
    """``game``, ``--preset``, ``--set`` and ``--players``: the kernel parameters of those rules, and of the
    standard ones without them."""
    assert run(capsys, *BASE)[0] == 0
    assert {g[:2] for g in recorded["games"]} == {("pig", params("pig"))}
    recorded["games"].clear()
    assert run(capsys, *BASE, "--preset", "quick", "--set", "die_sides=8")[0] == 0
    assert {g[:2] for g in recorded["games"]} == {("pig", params("pig", preset="quick", die_sides=8))}
    recorded["games"].clear()
    assert run(capsys, "decisions", "attila", "-n", "2", "--judge", "mcts:5:0:flat", "--per-kind", "1", "--no-progress",
               "--players", "3")[0] == 0
    assert {g[:2] for g in recorded["games"]} == {("attila", params("attila", num_players=3))}


def test_n_seed_and_policies_are_the_games_played(capsys, recorded):
    assert run(capsys, *BASE)[0] == 0
    default = int(toolkit.GAMES["pig"].kernel.policy_ids(("greedy",) * 2)[0])
    assert sorted(g[3:] for g in recorded["games"]) == [(0, 0), (0, 1), (0, 2)]  # seed 0, games 0..2
    assert {g[2] for g in recorded["games"]} == {(default, default)}  # the game's line-up: greedy, greedy
    recorded["games"].clear()
    assert run(capsys, *BASE[:3], "5", *BASE[4:], "--seed", "9", "--policies", "random,greedy")[0] == 0
    assert sorted(g[3:] for g in recorded["games"]) == [(9, g) for g in range(5)]
    assert {g[2] for g in recorded["games"]} == {(0, default)}


def test_judge_and_per_kind_are_the_searches_run(capsys, recorded):
    """``--judge``: every search is that policy; ``--per-kind``: two searches per judged decision, at most
    that many decisions of each kind a game (Pig: one kind, dozens of decisions a game)."""
    assert run(capsys, *BASE)[0] == 0
    assert set(recorded["judges"]) == {"mcts:30"} and len(recorded["judges"]) == 3 * 2 * metric.PER_KIND
    recorded["judges"].clear()
    assert run(capsys, *BASE[:5], "mcts:20", "--no-progress", "--per-kind", "3")[0] == 0
    assert set(recorded["judges"]) == {"mcts:20"} and len(recorded["judges"]) == 3 * 2 * 3
    recorded["judges"].clear()  # issue 50: a judge cut off rates in heuristic score, refused before any game
    code, out, err = run(capsys, "decisions", "valhalla", "-n", "3", "--judge", "mcts:20", "--no-progress")
    assert code == 2 and recorded["judges"] == [] and out == "", out
    assert err.strip().endswith("judge='mcts:20' is not allowed: in Valhalla its rollouts are cut off after 48 plies "
                                "and scored by the game's heuristic, a score, not a win probability; the decisions "
                                "are judged in win probability: play them to the end (mcts:N:0, for example "
                                "mcts:200:0:flat)") and err.count("\n") == 1, err


def test_epsilon_is_how_close_counts_as_trivial(capsys, monkeypatch, tmp_path):
    """Options rated 0.50 and 0.51: trivial within the default 0.02, not within 0.005."""
    def root_statistics(self, policy="mcts:1000", twin=False):
        codes = self.options()
        return mcts.RootStatistics(policy, self.seat, tuple(codes), (100, 100), (50.0, 51.0), 1)

    monkeypatch.setattr(KernelGame, "root_statistics", root_statistics)
    for epsilon, trivial in ((None, 1.0), ("0.005", 0.0)):
        out = tmp_path / f"eps-{epsilon}.csv"
        argv = [*BASE, "-o", out] + (["--epsilon", epsilon] if epsilon else [])
        assert run(capsys, *argv)[0] == 0
        sidecar = json.loads(results.sidecar_path(out).read_text())
        assert sidecar["epsilon"] == (metric.EPSILON if epsilon is None else float(epsilon))
        import pandas as pd

        assert pd.read_csv(out).set_index("kind").loc["roll or hold", "trivial"] == trivial


def test_output_holds_the_table_and_threads_are_the_pool(capsys, recorded, tmp_path):
    out = tmp_path / "pig.parquet"
    code, printed, _ = run(capsys, *BASE, "--threads", "1", "-o", out)
    assert code == 0 and recorded["threads"] == [1]
    import pandas as pd

    saved = pd.read_parquet(out).set_index("kind")
    assert saved.loc["roll or hold", "dp"] == 1 and saved.loc["roll or hold", "forced"] == 0.0
    assert f"{saved.loc['roll or hold', 'impact']:+.3f}" in printed
    sidecar = json.loads(results.sidecar_path(out).read_text())
    assert (sidecar["game"], sidecar["judge"], sidecar["n_games"], sidecar["per_kind"]) == ("pig", "mcts:30", 3, 2)
    recorded["threads"].clear()
    assert run(capsys, *BASE)[0] == 0 and recorded["threads"] == [metric.os.cpu_count() or 1]  # the control


def test_no_progress_shows_no_bar(capsys, monkeypatch):
    from tqdm import std

    original = std.tqdm.__init__

    def at_once(self, *args, **kwargs):
        kwargs["delay"] = 0
        original(self, *args, **kwargs)

    monkeypatch.setattr(std.tqdm, "__init__", at_once)
    code, _, err = run(capsys, *BASE[:-1])
    # the job's one bar: the games judged, then the time left by the work (issue 52, point 3)
    assert code == 0 and re.search(r"decisions pig: +\d+%\|.*\| \d+/\d+ games judged \[", err), err
    code, _, err = run(capsys, *BASE)
    assert code == 0 and err == ""

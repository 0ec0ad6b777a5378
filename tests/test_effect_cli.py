"""Every option of every ``toolkit`` command, read back from what it changes (issue 36, point 8).

An option that parses but is then ignored passed the suite: each option needs a test that reads its
effect back.  :data:`EFFECTS` names, for every option the parser declares (checked against
``build_parser()``, so a new option without such a test fails here), the test that reads it; the options
no other file read are read here.

Most of them are read where they act: every game a command plays goes through a game's kernel driver
(``core.driver.Blocks.__call__``), which the ``played`` fixture wraps to record, for each call, the game,
the rules' kernel parameters, the seats' policy codes, the seed, the first game, the number of games and
the Numba threads it ran on.  So ``--preset``, ``--set`` and ``--players`` must give the kernel the
parameters of those rules (``spec.prepare``), ``--seed`` the seed, ``-n`` the number of games per
line-up, ``--policies`` the codes, ``--threads 1`` one thread, ``--scheduler`` no local game at all; and
each without the option gives the defaults (the control).  Others are read in the command's output:
``--skill`` and ``--skill-games`` in the metrics table against ``metrics.luck``, ``--selfplay-games`` in the
ladder against ``analysis.ladder``, the tuning's settings in its JSON, ``--no-progress`` on stderr with
every bar forced to show at once, ``toolkit app``'s options in the Voila command and notebook it starts,
``toolkit warm``'s in the copies it compiles.

Negative controls, one-line bugs in a scratch copy of ``toolkit/cli.py``, each caught here (the old CLI,
report, tuning, ladder, sweep, warm and dashboard tests stayed green with the ones marked *): ``compare``
not passing ``--threads``*, ``metrics`` playing the standard rules*, ``ladder`` dropping
``--selfplay-games``*, ``metrics`` ignoring ``--skill-games``*, ``sweep`` ignoring ``--seed``* and
``--policies``*, ``simulate`` ignoring ``--scheduler`` (old: only its bad-address test), ``report``
ignoring ``--no-progress``*, ``warm`` ignoring ``--search``*, ``app`` always passing ``--no-browser``* and
dropping ``-n``*, ``tune`` ignoring ``--final-seed`` (old: only its error test) and dropping the rules.
"""

from __future__ import annotations

import collections
import json
import re
import subprocess
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest

import toolkit
from toolkit.analysis import metrics
from toolkit.cli import build_parser, main
from toolkit.core import driver
from toolkit.games import GAMES

TESTS = Path(__file__).resolve().parent
HERE = "tests/test_effect_cli.py"

# (command, option) -> the test that reads the option's effect back ("path::name"); a positional
# argument is named by its dest.  test_every_option_has_an_effect_test checks this against the parser.
EFFECTS = {
    ("report", "--rules"): "tests/test_report_variants.py::test_each_variant_is_set_against_the_baseline_on_the_same_seed",
    ("report", "--baseline"): "tests/test_report_variants.py::test_a_variant_file_as_the_baseline",
    ("simulate", "--rules"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("compare", "--rules"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("metrics", "--rules"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("ladder", "--rules"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("sweep", "--rules"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("tune", "--rules"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("paired", "--rules"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("odds", "--rules"): "tests/core/test_variants.py::test_odds_decisions_and_rules_read_the_variant_file",
    ("decisions", "--rules"): "tests/core/test_variants.py::test_odds_decisions_and_rules_read_the_variant_file",
    ("rules", "--rules"): "tests/core/test_variants.py::test_odds_decisions_and_rules_read_the_variant_file",
    ("rules", "--set"): "tests/core/test_variants.py::test_odds_decisions_and_rules_read_the_variant_file",
    ("rules", "--save"): "tests/core/test_variants.py::test_the_command_line_saves_a_variant_and_every_command_reads_it",
    ("rules", "--name"): "tests/core/test_variants.py::test_the_command_line_saves_a_variant_and_every_command_reads_it",
    ("rules", "--note"): "tests/core/test_variants.py::test_the_command_line_saves_a_variant_and_every_command_reads_it",
    ("check", "games"): f"{HERE}::test_check_checks_the_games_asked",
    ("warm", "games"): f"{HERE}::test_warm_compiles_the_copies_asked",
    ("warm", "--search"): f"{HERE}::test_warm_compiles_the_copies_asked",
    ("warm", "--jobs"): f"{HERE}::test_warm_compiles_the_copies_asked",
    ("warm", "--no-progress"): f"{HERE}::test_warm_compiles_the_copies_asked",
    ("rules", "game"): "tests/conformance/test_entry_points.py::test_cli_rules_lists_every_declared_rule",
    ("rules", "--preset"): "tests/test_cli.py::test_rules_with_preset_shows_its_values",
    ("rules", "--players"): "tests/test_cli.py::test_rules_attila_with_players_shows_their_values",
    ("simulate", "game"): "tests/conformance/test_entry_points.py::test_cli_simulate_writes_the_games_simulate_returns",
    ("simulate", "--n-games"): f"{HERE}::test_n_is_the_games_of_every_line_up",
    ("simulate", "--seed"): f"{HERE}::test_seed_is_the_seed_of_every_game",
    ("simulate", "--threads"): f"{HERE}::test_threads_is_the_threads_the_games_run_on",
    ("simulate", "--no-progress"): f"{HERE}::test_no_progress_shows_no_bar",
    ("simulate", "--preset"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("simulate", "--set"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("simulate", "--players"): f"{HERE}::test_players_is_the_player_count_played",
    ("simulate", "--policies"): f"{HERE}::test_policies_are_the_seats_played",
    ("simulate", "--output"): "tests/test_cli.py::test_simulate_output_is_the_saved_frame_byte_for_byte",
    ("simulate", "--summary"): "tests/test_cli_values.py::test_output_summary_numbers_are_the_frames_and_the_files",
    ("simulate", "--scheduler"): f"{HERE}::test_scheduler_plays_every_game_on_the_cluster",
    ("odds", "game"): "tests/conformance/test_entry_points.py::test_cli_odds_prints_the_exact_table",
    ("odds", "--preset"): "tests/test_cli.py::test_odds_with_preset_and_set",
    ("odds", "--set"): "tests/test_cli.py::test_odds_with_preset_and_set",
    ("odds", "--players"): "tests/test_cli.py::test_odds_attila_with_players",
    ("compare", "game"): "tests/test_cli.py::test_compare_halali_every_pair",
    ("compare", "--policies"): "tests/test_cli.py::test_compare_prints_every_pair_and_the_matrix",
    ("compare", "--n-games"): f"{HERE}::test_n_is_the_games_of_every_line_up",
    ("compare", "--seed"): f"{HERE}::test_seed_is_the_seed_of_every_game",
    ("compare", "--threads"): f"{HERE}::test_threads_is_the_threads_the_games_run_on",
    ("compare", "--no-progress"): f"{HERE}::test_no_progress_shows_no_bar",
    ("compare", "--preset"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("compare", "--set"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("compare", "--players"): f"{HERE}::test_players_is_the_player_count_played",
    ("compare", "--output"): "tests/test_cli_outputs.py::test_each_suffix_writes_its_format_with_a_sidecar_of_its_own",
    ("metrics", "game"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("metrics", "--n-games"): f"{HERE}::test_n_is_the_games_of_every_line_up",
    ("metrics", "--seed"): f"{HERE}::test_seed_is_the_seed_of_every_game",
    ("metrics", "--threads"): f"{HERE}::test_threads_is_the_threads_the_games_run_on",
    ("metrics", "--no-progress"): f"{HERE}::test_no_progress_shows_no_bar",
    ("metrics", "--preset"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("metrics", "--set"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("metrics", "--players"): f"{HERE}::test_players_is_the_player_count_played",
    ("metrics", "--policies"): f"{HERE}::test_policies_are_the_seats_played",
    ("metrics", "--skill"): f"{HERE}::test_metrics_skill_and_skill_games_are_the_luck_runs",
    ("metrics", "--skill-games"): f"{HERE}::test_metrics_skill_and_skill_games_are_the_luck_runs",
    ("metrics", "--output"): "tests/test_cli_outputs.py::test_the_metrics_file_holds_the_metrics",
    ("ladder", "game"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("ladder", "--policies"): "tests/test_cli_outputs.py::test_the_ladder_file_holds_the_ladder",
    ("ladder", "--n-games"): f"{HERE}::test_n_is_the_games_of_every_line_up",
    ("ladder", "--seed"): f"{HERE}::test_seed_is_the_seed_of_every_game",
    ("ladder", "--threads"): f"{HERE}::test_threads_is_the_threads_the_games_run_on",
    ("ladder", "--no-progress"): f"{HERE}::test_no_progress_shows_no_bar",
    ("ladder", "--selfplay-games"): f"{HERE}::test_ladder_selfplay_games_are_the_self_play_runs",
    ("ladder", "--preset"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("ladder", "--set"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("ladder", "--players"): f"{HERE}::test_players_is_the_player_count_played",
    ("ladder", "--output"): "tests/test_cli_outputs.py::test_the_ladder_file_holds_the_ladder",
    ("ladder", "--plot"): "tests/analysis/test_ladder.py::test_cli_prints_the_ladder_and_writes_the_table_and_plot",
    ("decisions", "game"): "tests/analysis/test_decisions_cli.py::test_the_game_and_its_rules_are_the_ones_played",
    ("decisions", "--preset"): "tests/analysis/test_decisions_cli.py::test_the_game_and_its_rules_are_the_ones_played",
    ("decisions", "--set"): "tests/analysis/test_decisions_cli.py::test_the_game_and_its_rules_are_the_ones_played",
    ("decisions", "--players"): "tests/analysis/test_decisions_cli.py::test_the_game_and_its_rules_are_the_ones_played",
    ("decisions", "--n-games"): "tests/analysis/test_decisions_cli.py::test_n_seed_and_policies_are_the_games_played",
    ("decisions", "--seed"): "tests/analysis/test_decisions_cli.py::test_n_seed_and_policies_are_the_games_played",
    ("decisions", "--policies"): "tests/analysis/test_decisions_cli.py::test_n_seed_and_policies_are_the_games_played",
    ("decisions", "--judge"): "tests/analysis/test_decisions_cli.py::test_judge_and_per_kind_are_the_searches_run",
    ("decisions", "--per-kind"): "tests/analysis/test_decisions_cli.py::test_judge_and_per_kind_are_the_searches_run",
    ("decisions", "--epsilon"): "tests/analysis/test_decisions_cli.py::test_epsilon_is_how_close_counts_as_trivial",
    ("decisions", "--threads"): "tests/analysis/test_decisions_cli.py::test_output_holds_the_table_and_threads_are_the_pool",
    ("decisions", "--output"): "tests/analysis/test_decisions_cli.py::test_output_holds_the_table_and_threads_are_the_pool",
    ("decisions", "--no-progress"): "tests/analysis/test_decisions_cli.py::test_no_progress_shows_no_bar",
    ("sweep", "game"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("sweep", "--vary"): "tests/test_cli_analysis.py::test_sweep_prints_one_row_per_variant_and_writes_csv",
    ("sweep", "--n-games"): f"{HERE}::test_n_is_the_games_of_every_line_up",
    ("sweep", "--seed"): f"{HERE}::test_seed_is_the_seed_of_every_game",
    ("sweep", "--threads"): f"{HERE}::test_threads_is_the_threads_the_games_run_on",
    ("sweep", "--no-progress"): f"{HERE}::test_no_progress_shows_no_bar",
    ("sweep", "--preset"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("sweep", "--set"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("sweep", "--players"): f"{HERE}::test_players_is_the_player_count_played",
    ("sweep", "--policies"): f"{HERE}::test_policies_are_the_seats_played",
    ("sweep", "--scheduler"): f"{HERE}::test_scheduler_plays_every_game_on_the_cluster",
    ("sweep", "--output"): "tests/test_cli_outputs.py::test_each_suffix_writes_its_format_with_a_sidecar_of_its_own",
    ("tune", "game"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("tune", "--target"): "tests/analysis/test_tuning.py::test_the_json_and_the_set_flags_reproduce_the_tuned_rules",
    ("tune", "--vary"): "tests/analysis/test_tuning.py::test_the_json_and_the_set_flags_reproduce_the_tuned_rules",
    ("tune", "--trials"): "tests/analysis/test_tuning.py::test_the_json_and_the_set_flags_reproduce_the_tuned_rules",
    ("tune", "--n-games"): f"{HERE}::test_n_is_the_games_of_every_line_up",
    ("tune", "--seed"): f"{HERE}::test_seed_is_the_seed_of_every_game",
    ("tune", "--threads"): f"{HERE}::test_threads_is_the_threads_the_games_run_on",
    ("tune", "--no-progress"): f"{HERE}::test_no_progress_shows_no_bar",
    ("tune", "--preset"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("tune", "--set"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("tune", "--players"): f"{HERE}::test_players_is_the_player_count_played",
    ("tune", "--policies"): f"{HERE}::test_policies_are_the_seats_played",
    ("tune", "--finalists"): f"{HERE}::test_tune_finalists_final_seed_and_skill_policies_are_played",
    ("tune", "--final-games"): f"{HERE}::test_tune_finalists_final_seed_and_skill_policies_are_played",
    ("tune", "--final-seed"): f"{HERE}::test_tune_finalists_final_seed_and_skill_policies_are_played",
    ("tune", "--check-seed"): f"{HERE}::test_tune_finalists_final_seed_and_skill_policies_are_played",
    ("tune", "--tolerance"): "tests/analysis/test_tuning.py::test_base_rules_that_already_meet_the_target_get_no_proposal",
    ("tune", "--skilled"): f"{HERE}::test_tune_finalists_final_seed_and_skill_policies_are_played",
    ("tune", "--unskilled"): f"{HERE}::test_tune_finalists_final_seed_and_skill_policies_are_played",
    ("tune", "--batch"): "tests/analysis/test_tuning.py::test_the_command_plays_its_trials_on_a_scheduler",
    ("tune", "--scheduler"): "tests/analysis/test_tuning.py::test_the_command_plays_its_trials_on_a_scheduler",
    ("tune", "--output"): "tests/analysis/test_tuning.py::test_the_json_and_the_set_flags_reproduce_the_tuned_rules",
    ("tune", "--until-settled"): f"{HERE}::test_tune_until_settled_checks_the_answer_in_batches",
    ("tune", "--max-games"): f"{HERE}::test_tune_until_settled_checks_the_answer_in_batches",
    ("tune", "--first-batch"): f"{HERE}::test_tune_until_settled_checks_the_answer_in_batches",
    ("paired", "game"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("paired", "--n-games"): f"{HERE}::test_n_is_the_games_of_every_line_up",
    ("paired", "--seed"): f"{HERE}::test_seed_is_the_seed_of_every_game",
    ("paired", "--threads"): f"{HERE}::test_threads_is_the_threads_the_games_run_on",
    ("paired", "--no-progress"): f"{HERE}::test_no_progress_shows_no_bar",
    ("paired", "--preset"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("paired", "--set"): f"{HERE}::test_preset_and_set_are_the_rules_played",
    ("paired", "--players"): f"{HERE}::test_players_is_the_player_count_played",
    ("paired", "--policies"): f"{HERE}::test_policies_are_the_seats_played",
    ("paired", "--baseline-preset"): f"{HERE}::test_paired_baseline_is_played_as_asked",
    ("paired", "--baseline-set"): f"{HERE}::test_paired_baseline_is_played_as_asked",
    ("paired", "--baseline-policies"): f"{HERE}::test_paired_baseline_is_played_as_asked",
    ("paired", "--baseline-seed"): f"{HERE}::test_paired_baseline_is_played_as_asked",
    ("paired", "--until-settled"): f"{HERE}::test_paired_until_settled_plays_its_batches",
    ("paired", "--max-games"): f"{HERE}::test_paired_until_settled_plays_its_batches",
    ("paired", "--first-batch"): f"{HERE}::test_paired_until_settled_plays_its_batches",
    ("paired", "--quantity"): f"{HERE}::test_paired_until_settled_plays_its_batches",
    ("paired", "--tolerance"): f"{HERE}::test_paired_until_settled_plays_its_batches",
    ("paired", "--output"): "tests/test_cli_analysis.py::test_paired_until_settled_plays_on_and_says_what_it_showed",
    ("app", "game"): f"{HERE}::test_app_serves_the_notebook_its_options_ask_for",
    ("app", "--port"): f"{HERE}::test_app_serves_the_notebook_its_options_ask_for",
    ("app", "--no-browser"): f"{HERE}::test_app_serves_the_notebook_its_options_ask_for",
    ("app", "--n-games"): f"{HERE}::test_app_serves_the_notebook_its_options_ask_for",
    ("app", "--threads"): f"{HERE}::test_app_serves_the_notebook_its_options_ask_for",
    ("app", "--variants"): f"{HERE}::test_app_serves_the_notebook_its_options_ask_for",
    ("app", "--cull-disconnected"): f"{HERE}::test_app_passes_its_culling_and_pool_to_the_server",
    ("app", "--cull-idle"): f"{HERE}::test_app_passes_its_culling_and_pool_to_the_server",
    ("app", "--pool"): f"{HERE}::test_app_passes_its_culling_and_pool_to_the_server",
    ("report", "games"): "tests/test_cli.py::test_report_herrlof_writes_csv_odds_and_plots",
    ("report", "--n-games"): f"{HERE}::test_n_is_the_games_of_every_line_up",
    ("report", "--seed"): f"{HERE}::test_report_seed_is_the_seed_of_the_written_games",
    ("report", "--out"): "tests/test_cli.py::test_report_writes_csv_odds_and_plots",
    ("report", "--html"): "tests/test_report_html.py::test_cli_report_html",
    ("report", "--threads"): f"{HERE}::test_threads_is_the_threads_the_games_run_on",
    ("report", "--no-progress"): f"{HERE}::test_no_progress_shows_no_bar",
}

# every command that plays games, on Valhalla with a few games: (argv, -n)
COMMANDS = {
    "simulate": (["simulate", "valhalla"], 40),
    "compare": (["compare", "valhalla", "--policies", "random,greedy"], 20),
    "metrics": (["metrics", "valhalla"], 40),
    "ladder": (["ladder", "valhalla", "--policies", "random,greedy"], 10),
    "sweep": (["sweep", "valhalla", "--vary", "zero_runes_value=4,5"], 40),
    "tune": (["tune", "valhalla", "--target", "duration_turns=300", "--vary", "zero_runes_value=4..6",
              "--trials", "3"], 40),
    "report": (["report", "valhalla"], 30),
    "paired": (["paired", "valhalla"], 40),
}
RULES_COMMANDS = ["simulate", "compare", "metrics", "ladder", "sweep", "tune", "paired"]  # those with --preset/--set/--players
VARIED = {"sweep": ("zero_runes_value", [4, 5]), "tune": ("zero_runes_value", [4, 5, 6])}
# Attila, for --players: the same commands on 3 players instead of 4
ATTILA = {
    "simulate": ["simulate", "attila", "-n", "10"],
    "compare": ["compare", "attila", "--policies", "random", "-n", "5"],
    "metrics": ["metrics", "attila", "-n", "10"],
    "ladder": ["ladder", "attila", "--policies", "random,greedy", "-n", "3"],
    "sweep": ["sweep", "attila", "--vary", "later_seat_vp=0,1", "-n", "10"],
    "tune": ["tune", "attila", "--target", "duration_turns=60", "--vary", "later_seat_vp=0..2", "--trials", "2",
             "-n", "10"],
    "paired": ["paired", "attila", "-n", "10"],
}
ATTILA_VARIED = {"sweep": ("later_seat_vp", [0, 1]), "tune": ("later_seat_vp", [0, 1, 2])}

Played = collections.namedtuple("Played", "game rules lineup seed first_game games threads")


# --------------------------------------------------------------------- instruments


def _fingerprint(params) -> bytes:
    """The kernel parameters of a rules object (``spec.prepare(...)[0]``: an array or a tuple of them)."""
    if isinstance(params, (tuple, list)):
        return b"(" + b",".join(_fingerprint(p) for p in params) + b")"
    array = np.asarray(params)
    return f"{array.dtype}{array.shape}".encode() + np.ascontiguousarray(array).tobytes()


def kernel_rules(game: str, rules) -> bytes:
    spec = GAMES[game]
    return _fingerprint(spec.prepare(rules, spec.check_policies(None, rules))[0])


def kernel_lineup(game: str, rules, policies) -> tuple:
    spec = GAMES[game]
    return tuple(int(c) for c in spec.prepare(rules, spec.check_policies(policies, rules))[1])


def _record_into(calls: list, mp) -> None:
    original = driver.Blocks.__call__
    names = {id(spec.play_many): name for name, spec in GAMES.items()}

    def record(self, params, policies, seed, first_game, out, violations, check):
        calls.append(Played(names[id(self)], _fingerprint(params), tuple(int(c) for c in policies), int(seed),
                            int(first_game), len(out), numba.get_num_threads()))
        return original(self, params, policies, seed, first_game, out, violations, check)

    mp.setattr(driver.Blocks, "__call__", record)


@pytest.fixture
def played(monkeypatch):
    """Every call of a game's kernel driver in this test, as :class:`Played` records."""
    calls = []
    _record_into(calls, monkeypatch)
    return calls


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _argv(command: str, tmp: Path, n: int | None = None, *extra) -> list:
    argv, default_n = COMMANDS[command]
    argv = [*argv, "-n", str(default_n if n is None else n), *extra]
    if command == "report":
        argv += ["--out", str(tmp / "report")]
    return argv


@pytest.fixture(scope="module")
def plain_runs(tmp_path_factory):
    """The kernel calls of each command of :data:`COMMANDS` without the options under test (the control),
    on every Numba thread (``make test``'s workers play on one where a test does not ask: the control of
    ``--threads 1`` needs more)."""
    tmp = tmp_path_factory.mktemp("plain")
    runs = {}
    before = numba.get_num_threads()
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    try:
        with pytest.MonkeyPatch.context() as mp:
            for command in COMMANDS:
                calls = []
                _record_into(calls, mp)
                assert main(_argv(command, tmp) + ["--no-progress"]) == 0, command
                mp.undo()
                runs[command] = calls
    finally:
        numba.set_num_threads(before)
    return runs


def _runs(calls) -> dict:
    """Games per run: ``(rules, line-up, seed) -> games`` summed over the chunks of each run."""
    games = collections.Counter()
    for c in calls:
        games[c.rules, c.lineup, c.seed] += c.games
    return dict(games)


def _rules_played(calls) -> set:
    return {c.rules for c in calls}


def _expected_rules(command: str, game: str, base, varied=VARIED) -> set:
    """The rules a command run on ``base`` plays: ``base``, or each variant of the parameter it varies
    (``paired``: ``base`` beside its baseline, the standard preset with the same players)."""
    if command == "paired":
        players = {"num_players": base.num_players} if hasattr(base, "num_players") else {}
        return {kernel_rules(game, base), kernel_rules(game, GAMES[game].Rules.preset("standard", **players))}
    if command not in varied:
        return {kernel_rules(game, base)}
    name, values = varied[command]
    return {kernel_rules(game, base.replace(**{name: v})) for v in values}


def _check_rules(command: str, game: str, calls, base, varied=VARIED) -> None:
    played = _rules_played(calls)
    expected = _expected_rules(command, game, base, varied)
    assert played, f"{command} played nothing"
    if command == "tune":
        # the search may not ask every value, but it plays only these rules, and the base on the fresh seed
        assert played <= expected | {kernel_rules(game, base)}
        assert kernel_rules(game, base) in {c.rules for c in calls if c.seed == max(c.seed for c in calls)}
    else:
        assert played == expected, f"{command}: the rules played are not the rules asked"


# --------------------------------------------------------------------- the option table


def _declared_options() -> set:
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    found = set()
    for name, sub in commands.items():
        for action in sub._actions:
            if action.dest == "help":
                continue
            found.add((name, max(action.option_strings, key=len) if action.option_strings else action.dest))
    return found


def test_every_option_has_an_effect_test():
    """Each option of each command names a test that reads its effect back, and that test exists."""
    assert set(EFFECTS) == _declared_options(), (
        f"options without an effect test: {sorted(_declared_options() - set(EFFECTS))}; "
        f"gone from the parser: {sorted(set(EFFECTS) - _declared_options())}")
    for option, where in EFFECTS.items():
        path, name = where.split("::")
        assert re.search(rf"^def {name}\(", (TESTS.parent / path).read_text(), re.M), (option, where)


# --------------------------------------------------------------------- the options every command shares


@pytest.mark.parametrize("command", RULES_COMMANDS)
def test_preset_and_set_are_the_rules_played(capsys, tmp_path, played, plain_runs, command):
    """``--preset``, ``--set`` and ``--rules FILE`` (a variant file) reach every game the command plays;
    without them the standard rules do."""
    Rules = GAMES["valhalla"].Rules
    _check_rules(command, "valhalla", plain_runs[command], Rules.preset("standard"))
    variant = toolkit.save_rules(Rules.preset("alternative", zero_runes_value=4), tmp_path / "variant.toml")
    for option, base in ((["--preset", "alternative"], Rules.preset("alternative")),
                         (["--set", "ships_per_player=5"], Rules(ships_per_player=5)),
                         (["--rules", str(variant)], Rules.preset("alternative", zero_runes_value=4))):
        played.clear()
        output = ["-o", str(tmp_path / "best.json")] if command == "tune" else []
        code, out, err = run(capsys, *_argv(command, tmp_path), *option, *output, "--no-progress")
        assert code == 0, err
        _check_rules(command, "valhalla", played, base)
        if command == "tune":  # the base rules it reports are these
            assert json.loads((tmp_path / "best.json").read_text())["base_rules"] == base.to_json()


@pytest.mark.parametrize("command", RULES_COMMANDS)
def test_players_is_the_player_count_played(capsys, tmp_path, played, command):
    """``--players 3`` plays Attila's 3-player rules (3 seats); without it the standard 4 players."""
    Rules = GAMES["attila"].Rules
    for option, base in (([], Rules()), (["--players", "3"], Rules(num_players=3))):
        played.clear()
        code, out, err = run(capsys, *ATTILA[command], *option, "--no-progress")
        assert code == 0, err
        _check_rules(command, "attila", played, base, ATTILA_VARIED)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_seed_is_the_seed_of_every_game(capsys, tmp_path, played, plain_runs, command):
    """``--seed 5``: every game is played on seed 5 (the tuning's finalists on the fresh seed 6, its winner and
    the base rules on 7)."""
    expected = {0, 1, 2} if command == "tune" else {0}
    assert {c.seed for c in plain_runs[command]} == expected
    code, out, err = run(capsys, *_argv(command, tmp_path), "--seed", "5", "--no-progress")
    assert code == 0, err
    assert {c.seed for c in played} == {s + 5 for s in expected}
    if command != "tune":  # the same runs otherwise: only the seed moved (the search's candidates depend on it)
        unseeded = [sorted((r, lineup, games) for (r, lineup, _), games in _runs(calls).items())
                    for calls in (played, plain_runs[command])]
        assert unseeded[0] == unseeded[1]


def test_report_seed_is_the_seed_of_the_written_games(capsys, tmp_path):
    code, out, err = run(capsys, "report", "valhalla", "-n", "30", "--seed", "5", "--out", tmp_path, "--no-progress")
    assert code == 0, err
    written = toolkit.load(tmp_path / "valhalla.csv")
    expected = toolkit.simulate("valhalla", n_games=30, seed=5, policies="greedy", progress=False)
    pd.testing.assert_frame_equal(written, expected, check_dtype=False)
    other = toolkit.simulate("valhalla", n_games=30, seed=0, policies="greedy", progress=False)
    assert not written.drop(columns="game_index").equals(other.drop(columns="game_index"))  # the control


@pytest.mark.parametrize("command", list(COMMANDS))
def test_n_is_the_games_of_every_line_up(capsys, tmp_path, played, plain_runs, command):
    """``-n N``: each run (rules, line-up, seed) plays N games; the tuning's finalists 2.5 N, and its winner
    and the base rules 2.5 N on the check seed (a finalist with the base rules' values: twice that)."""
    def check(calls, n):
        search = min(c.seed for c in calls) if command == "tune" else None
        for (_, _, seed), games in _runs(calls).items():
            if command == "tune" and seed != search:
                assert games in (round(2.5 * n), 2 * round(2.5 * n)), (games, n)
            elif command == "paired":  # the baseline and the change: the same run twice when nothing changed
                assert games in (n, 2 * n), (games, n)
            else:
                assert games == n, (games, n)

    n = COMMANDS[command][1]
    check(plain_runs[command], n)
    code, out, err = run(capsys, *_argv(command, tmp_path, 2 * n + 1), "--no-progress")
    assert code == 0, err
    check(played, 2 * n + 1)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_threads_is_the_threads_the_games_run_on(capsys, tmp_path, played, plain_runs, command):
    """``--threads 1``: every game runs on one Numba thread (all of them without it), the same games."""
    assert numba.config.NUMBA_NUM_THREADS >= 2, "the control needs two Numba threads"
    assert {c.threads for c in plain_runs[command]} == {numba.config.NUMBA_NUM_THREADS}
    code, out, err = run(capsys, *_argv(command, tmp_path), "--threads", "1", "--no-progress")
    assert code == 0, err
    assert {c.threads for c in played} == {1}
    assert _runs(played) == _runs(plain_runs[command])


@pytest.mark.parametrize("command", ["simulate", "metrics", "sweep", "tune", "paired"])
def test_policies_are_the_seats_played(capsys, tmp_path, played, plain_runs, command):
    """``--policies greedy,random`` seats greedy in seat 0 and random in seat 1 in every game; random
    everywhere without it."""
    rules = GAMES["valhalla"].Rules()
    assert {c.lineup for c in plain_runs[command]} == {kernel_lineup("valhalla", rules, "random")}
    code, out, err = run(capsys, *_argv(command, tmp_path), "--policies", "greedy,random", "--no-progress")
    assert code == 0, err
    assert {c.lineup for c in played} == {kernel_lineup("valhalla", rules, "greedy,random")}


@pytest.fixture
def bars_at_once(monkeypatch):
    """Every tqdm bar shows at once (a run of a few games is over before the usual delay)."""
    from tqdm import std

    original = std.tqdm.__init__

    def at_once(self, *args, **kwargs):
        kwargs["delay"] = 0
        original(self, *args, **kwargs)

    monkeypatch.setattr(std.tqdm, "__init__", at_once)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_no_progress_shows_no_bar(capsys, tmp_path, bars_at_once, command):
    """With every bar shown at once, a run draws one on stderr; ``--no-progress`` draws none."""
    code, _, err = run(capsys, *_argv(command, tmp_path))
    assert code == 0, err
    assert re.search(r"\d+%\|", err), err  # a bar: "valhalla:   0%|          | 0/40 ..."
    code, _, err = run(capsys, *_argv(command, tmp_path), "--no-progress")
    assert code == 0 and err == ""


def test_scheduler_plays_every_game_on_the_cluster(capsys, tmp_path, played, cluster_client):
    """``--scheduler``: no game is played in this process, and the files are the local run's."""
    address = cluster_client.scheduler.address
    for command, argv in (("simulate", ["simulate", "valhalla"]),
                          ("sweep", ["sweep", "valhalla", "--vary", "zero_runes_value=4,5"])):
        argv += ["-n", "300", "--seed", "4"]
        code, _, err = run(capsys, *argv, "-o", tmp_path / f"{command}-local.csv", "--no-progress")
        assert code == 0, err
        assert played, "the control: the local run plays here"
        played.clear()
        code, _, err = run(capsys, *argv, "-o", tmp_path / f"{command}-dask.csv", "--scheduler", address,
                           "--no-progress")
        assert code == 0, err
        assert played == [], f"{command} --scheduler played games in this process"
        assert (tmp_path / f"{command}-dask.csv").read_bytes() == (tmp_path / f"{command}-local.csv").read_bytes()
    assert json.loads((tmp_path / "sweep-dask.csv.json").read_text())["backend"] == "dask"
    assert json.loads((tmp_path / "sweep-local.csv.json").read_text())["backend"] == "local"


# --------------------------------------------------------------------- one command's own options


def test_metrics_skill_and_skill_games_are_the_luck_runs(capsys, tmp_path, played):
    """``--skill greedy --skill-games 30``: the skill gap, luck and skill rows are ``metrics.luck`` of greedy
    against random, 30 games a seating, on the run's rules and seed."""
    rules = GAMES["valhalla"].Rules.preset("alternative")
    code, out, err = run(capsys, "metrics", "valhalla", "-n", "40", "--seed", "3", "--preset", "alternative",
                         "--skill", "greedy", "--skill-games", "30", "-o", tmp_path / "m.csv", "--no-progress")
    assert code == 0, err
    runs = _runs(played)  # before the API's own runs below
    table = pd.read_csv(tmp_path / "m.csv", index_col="metric")
    found = metrics.luck("valhalla", rules, 30, seed=3, policies=("greedy", "random"), progress=False)
    for name in ("skill_gap", "luck", "skill"):
        assert table.loc[name, ["value", "ci_low", "ci_high"]].tolist() == pytest.approx(
            [found[name], found[f"{name}_low"], found[f"{name}_high"]]), name
    skill_runs = {lineup: games for (_, lineup, _), games in runs.items()
                  if lineup != kernel_lineup("valhalla", rules, "random")}
    assert skill_runs == {kernel_lineup("valhalla", rules, "greedy,random"): 30,
                          kernel_lineup("valhalla", rules, "random,greedy"): 30}
    # the control: another skilled policy and another count give other runs and other rows
    played.clear()
    code, out, err = run(capsys, "metrics", "valhalla", "-n", "40", "--seed", "3", "--preset", "alternative",
                         "--skill", "lookahead", "--skill-games", "20", "-o", tmp_path / "l.csv", "--no-progress")
    assert code == 0, err
    assert kernel_lineup("valhalla", rules, "lookahead,random") in {lineup for _, lineup, _ in _runs(played)}
    assert {games for (_, lineup, _), games in _runs(played).items()
            if lineup != kernel_lineup("valhalla", rules, "random")} == {20}
    assert pd.read_csv(tmp_path / "l.csv", index_col="metric").loc["skill_gap", "value"] \
        != table.loc["skill_gap", "value"]


def test_ladder_selfplay_games_are_the_self_play_runs(capsys, tmp_path, played):
    """``--selfplay-games 30``: each policy plays 30 games in every seat for the metrics, beside the
    tournament's 10 a pairing, and the table is ``analysis.ladder(selfplay_games=30)``'s."""
    rules = GAMES["valhalla"].Rules()
    code, out, err = run(capsys, "ladder", "valhalla", "--policies", "random,greedy", "-n", "10", "--seed", "2",
                         "--selfplay-games", "30", "-o", tmp_path / "l.csv", "--no-progress")
    assert code == 0, err
    by_lineup = collections.defaultdict(list)
    for c in played:
        by_lineup[c.lineup].append(c.games)
    for name in ("random", "greedy"):  # its self-play: the tournament's 10 games, then 30 of its own
        assert sum(by_lineup[kernel_lineup("valhalla", rules, name)]) == 10 + 30
    assert sum(by_lineup[kernel_lineup("valhalla", rules, "random,greedy")]) == 10
    found = toolkit.load(tmp_path / "l.csv").set_index("policy")
    expected = toolkit.analysis.ladder("valhalla", policies=("random", "greedy"), n_games=10, selfplay_games=30,
                                       seed=2, progress=False)
    assert found.attrs["selfplay_games"] == 30
    for column in ("duration_turns", "duration_turns_low", "first_player_advantage", "rating"):
        assert found.loc[expected.index, column].tolist() == pytest.approx(expected[column].tolist()), column
    ten = toolkit.analysis.ladder("valhalla", policies=("random", "greedy"), n_games=10, seed=2, progress=False)
    assert ten["duration_turns"].tolist() != pytest.approx(expected["duration_turns"].tolist())  # the control


def test_tune_finalists_final_seed_and_skill_policies_are_played(capsys, tmp_path, played):
    """``--finalists 2 --final-games 70 --final-seed 9 --check-seed 12``: two candidates are played again, 70
    games each on seed 9, and the winner and the base rules 70 games each on seed 12; ``--skilled greedy
    --unskilled random`` are the seats of its skill gap."""
    code, out, err = run(capsys, "tune", "valhalla", "--target", "skill_gap=max", "--vary", "zero_runes_value=4..6",
                         "--trials", "4", "-n", "30", "--seed", "3", "--finalists", "2", "--final-games", "70",
                         "--final-seed", "9", "--check-seed", "12", "--skilled", "greedy", "--unskilled", "random",
                         "-o", tmp_path / "t.json", "--no-progress")
    assert code == 0, err
    saved = json.loads((tmp_path / "t.json").read_text())
    assert len(saved["finalists"]) == 2 and saved["settings"]["final_seed"] == 9
    assert saved["settings"]["check_seed"] == 12
    assert saved["settings"]["final_games"] == 70 and saved["settings"]["skill"] == ["greedy", "random"]
    rules = GAMES["valhalla"].Rules()
    assert {c.seed for c in played} == {3, 9, 12}
    check = {(r, lineup): games for (r, lineup, seed), games in _runs(played).items() if seed == 12}
    winner = rules.replace(**{k: v for k, v in saved["tuned"].items()})
    assert {r for r, _ in check} == {kernel_rules("valhalla", winner), kernel_rules("valhalla", rules)}
    assert set(check.values()) <= {70, 140}  # 140: the winner with the base rules' values, played beside them
    final = {(r, lineup): games for (r, lineup, seed), games in _runs(played).items() if seed == 9}
    assert set(final.values()) == {70}
    # the candidates and the base, each as random self-play and as greedy against random in both seats
    lineups = {kernel_lineup("valhalla", rules, p) for p in ("random", "greedy,random", "random,greedy")}
    assert {lineup for _, lineup in final} == lineups
    assert {r for r, _ in final} == {kernel_rules("valhalla", rules.replace(zero_runes_value=f["zero_runes_value"]))
                                     for f in saved["finalists"]}  # the finalists only: the base on the check seed
    # the control: other skill policies, other seats
    played.clear()
    code, out, err = run(capsys, "tune", "valhalla", "--target", "skill_gap=max", "--vary", "zero_runes_value=4..6",
                         "--trials", "2", "-n", "10", "--finalists", "1", "--skilled", "lookahead",
                         "--unskilled", "greedy", "--no-progress")
    assert code == 0, err
    assert {c.lineup for c in played} == {kernel_lineup("valhalla", rules, p) for p in
                                          ("random", "lookahead,greedy", "greedy,lookahead")}


def test_tune_until_settled_checks_the_answer_in_batches(capsys, tmp_path, played):
    """``--until-settled --first-batch 1000 --max-games 2500``: after the tuning, the nearest rules and the base
    rules are played on the check seed (12), the same games for both (paired), in batches of 1,000 and the
    last 1,500 games a side, from game 0 on, until the first player's rate is settled or the budget is spent;
    the tuning's own runs are as without it (the control: the same command without the flags plays nothing
    on seed 12 beyond its 70 check games a side).  A target the games do not hold (the skill gap) is refused
    before any game; --max-games without --until-settled too."""
    argv = ["tune", "valhalla", "--target", "first_player_win_rate=0.5", "--vary", "zero_runes_value=4..6",
            "--trials", "2", "-n", "30", "--finalists", "1", "--final-games", "70", "--check-seed", "12",
            "-o", tmp_path / "t.json", "--no-progress"]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    without = _runs(played)
    played.clear()
    code, out, err = run(capsys, *argv, "--until-settled", "--first-batch", "1000", "--max-games", "2500")
    assert code == 0, err
    saved = json.loads((tmp_path / "t.json").read_text())
    rules = GAMES["valhalla"].Rules()
    nearest = kernel_rules("valhalla", rules.replace(**saved["tuned"]))
    runs = _runs(played)
    probe = [c for c in played if c.games == 1]  # one game: the names checked before the tuning's work, and
    assert len(probe) == 2 and played[0] == probe[0]  # again by the check
    runs = _runs([c for c in played if c.games > 1])
    checked = {r: g - without.get((r, lineup, seed), 0) for (r, lineup, seed), g in runs.items() if seed == 12}
    side = int(re.search(r"settled after ([\d,]+) games a side \(looks at ", out).group(1).replace(",", ""))
    assert side in (1000, 2500) and re.search(r"looks at 1,000(, 2,500)?\)", out), out
    assert checked == {nearest: side, kernel_rules("valhalla", rules): side} or \
        (nearest == kernel_rules("valhalla", rules) and checked == {nearest: 2 * side}), checked
    assert {k: g for k, g in runs.items() if k[2] != 12} == {k: g for k, g in without.items() if k[2] != 12}
    assert "checked until settled" in out
    played.clear()
    code, out, err = run(capsys, "tune", "valhalla", "--target", "skill_gap=max", "--vary", "zero_runes_value=4..6",
                         "--until-settled")
    assert code == 2 and played == [] or all(c.games == 1 for c in played)
    assert "--until-settled is not allowed with these targets" in err and "skill_gap" in err, err
    code, out, err = run(capsys, *argv[:-3], "--max-games", "5")
    assert code == 2 and "--max-games is for --until-settled" in err, err


# --------------------------------------------------------------------- paired


def test_paired_baseline_is_played_as_asked(capsys, played):
    """``--baseline-preset alternative --baseline-set zero_runes_value=6 --baseline-policies greedy,random
    --baseline-seed 7``: the baseline run is those rules, seats and seed, 40 games; the change keeps its own
    (the standard rules, random seats, seed 0).  Without them (the control) both are the change's."""
    Rules = GAMES["valhalla"].Rules
    code, out, err = run(capsys, "paired", "valhalla", "-n", "40", "--baseline-preset", "alternative",
                         "--baseline-set", "zero_runes_value=6", "--baseline-policies", "greedy,random",
                         "--baseline-seed", "7", "--no-progress")
    assert code == 0, err
    baseline = Rules.preset("alternative", zero_runes_value=6)
    assert _runs(played) == {
        (kernel_rules("valhalla", baseline), kernel_lineup("valhalla", baseline, "greedy,random"), 7): 40,
        (kernel_rules("valhalla", Rules()), kernel_lineup("valhalla", Rules(), "random"), 0): 40}
    assert "seeds 0 and 7: independent games" in out
    played.clear()
    code, out, err = run(capsys, "paired", "valhalla", "-n", "40", "--no-progress")
    assert code == 0, err
    assert _runs(played) == {(kernel_rules("valhalla", Rules()), kernel_lineup("valhalla", Rules(), "random"), 0): 80}


def test_paired_until_settled_plays_its_batches(capsys, played):
    """``--until-settled --first-batch 1000 --max-games 5000 --quantity duration_turns --tolerance
    duration_turns=0.001`` on two seeds of the same rules: a tolerance no interval can reach and no change,
    so every batch is played: 1,000, then 500, 750, 1,125 and the last 1,625 games a side, from game 0 on,
    the budget and no more, ``-n`` unused.  With a wide tolerance (the control) the first look settles it:
    1,000 games a side."""
    code, out, err = run(capsys, "paired", "valhalla", "--baseline-seed", "1", "-n", "10", "--until-settled",
                         "--first-batch", "1000", "--max-games", "5000", "--quantity", "duration_turns",
                         "--tolerance", "duration_turns=0.001", "--no-progress")
    assert code == 0, err
    probes = [c for c in played if c.games == 1]  # one game of the change's rules: the names checked first
    assert len(probes) == 1 and probes[0].seed == 0 and probes[0].first_game == 0
    for seed in (0, 1):
        calls = sorted((c.first_game, c.games) for c in played if c.seed == seed and c not in probes)
        starts = {}
        for first, games in calls:  # chunks of a batch, merged
            starts[first] = games
        assert sum(games for _, games in calls) == 5000
        assert [first for first, _ in calls][0] == 0 and {1000, 1500, 2250, 3375} <= set(starts)
    assert "looks at 1,000, 1,500, 2,250, 3,375, 5,000" in out and "duration_turns" in out
    played.clear()
    code, out, err = run(capsys, "paired", "valhalla", "--until-settled", "--first-batch", "1000",
                         "--max-games", "5000", "--quantity", "win_rate_0", "--tolerance", "0.5", "--no-progress")
    assert code == 0, err
    assert sum(c.games for c in played) == 2 * 1000 + 1 and "settled after 1,000 games a side" in out


# --------------------------------------------------------------------- warm and app


def test_warm_compiles_the_copies_asked(capsys, monkeypatch, bars_at_once):
    """``toolkit warm GAME... [--search] [--jobs N] [--no-progress]``: the copies of the games asked (the
    searching copy too with ``--search``), on N processes, with a bar unless ``--no-progress``.  The copies
    are counted as cold and "compiled" by a stand-in in threads: what is compiled is ``ahead.warm_up``'s
    business (tests/core/test_warm.py); this is what the command asks of it."""
    import concurrent.futures

    from toolkit.core import ahead, warm

    pools = []

    class Pool(concurrent.futures.ThreadPoolExecutor):
        def __init__(self, workers, mp_context=None):
            pools.append(workers)
            super().__init__(workers)

    monkeypatch.setattr(warm, "is_warm", lambda game, copy: False)
    monkeypatch.setattr(ahead, "compile_copy", lambda game, copy: (game, copy, 0.0))
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Pool)

    def copies(out):
        return sorted(tuple(line.split()[:2]) for line in out.splitlines() if line.split()[:1] in (["valhalla"],
                                                                                              ["halali"]))

    code, out, err = run(capsys, "warm", "valhalla", "halali", "--jobs", "1")
    assert code == 0, err
    assert copies(out) == [("halali", "plain"), ("halali", "random"), ("valhalla", "plain"), ("valhalla", "random")]
    assert pools == [1] and "on 1 processes" in err
    code, out, err = run(capsys, "warm", "valhalla", "--search", "--no-progress")
    assert code == 0, err
    assert copies(out) == [("valhalla", "plain"), ("valhalla", "random"), ("valhalla", "search")]
    assert err == ""
    code, out, err = run(capsys, "warm", "valhalla", "halali", "--jobs", "2")
    assert code == 0 and pools[-1] == 2 and "on 2 processes" in err


def _server_stand_in(monkeypatch) -> tuple[list, int]:
    """A stand-in for the server ``toolkit app`` starts, recording what it was given (and its notebook's
    source), and a free port."""
    import socket

    started = []

    class Server:
        def __init__(self, argv, cwd, env, start_new_session):
            notebook = Path(cwd) / next(a for a in argv if a.endswith(".ipynb"))
            started.append({"argv": argv, "env": env, "session": start_new_session,
                            "source": json.loads(notebook.read_text())["cells"][0]["source"]})

        def wait(self):
            return 0

        def poll(self):
            return 0

    monkeypatch.setattr(subprocess, "Popen", Server)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return started, probe.getsockname()[1]


def test_app_serves_the_notebook_its_options_ask_for(capsys, monkeypatch):
    """``toolkit app GAME --port P [--no-browser] -n N --threads T``: Voila is started on port P (with
    ``--no-browser`` only when asked) on a notebook that opens GAME's dashboard with N games and T threads.
    Voila itself is a stand-in here that records what it was given."""
    started, port = _server_stand_in(monkeypatch)
    folder = Path.cwd()
    code, out, err = run(capsys, "app", "halali", "--port", port, "--no-browser", "-n", "5000", "--threads", "1",
                         "--variants", "tests")
    assert code == 0, err
    (first,) = started
    assert f"--port={port}" in first["argv"] and "--no-browser" in first["argv"]
    assert f"http://127.0.0.1:{port}/" in out
    source = first["source"] if isinstance(first["source"], str) else "".join(first["source"])
    assert f"dashboard('halali', n_games=5000, threads=1, variants={str(folder / 'tests')!r})" in source
    code, out, err = run(capsys, "app", "--port", port)  # the control: the defaults
    assert code == 0, err
    second = started[1]
    assert "--no-browser" not in second["argv"] and f"--port={port}" in second["argv"]
    source = second["source"] if isinstance(second["source"], str) else "".join(second["source"])
    # the first registered game, the variants in the folder the command ran in
    assert source.endswith(f"dashboard({next(iter(GAMES))!r}, variants={str(folder)!r})")


def test_app_passes_its_culling_and_pool_to_the_server(capsys, monkeypatch):
    """``toolkit app --cull-disconnected S --cull-idle T --pool N``: the server (toolkit.viz.serve, in a
    session of its own) gets the culling kernel manager with those settings and a pool of N preheated
    kernels; ``--pool 0`` preheats none; a value out of range names the option and its range.  (What the
    settings do to real pages: tests/browser/test_app_serving.py.)"""
    started, port = _server_stand_in(monkeypatch)
    code, _, err = run(capsys, "app", "--port", port, "--cull-disconnected", "30", "--cull-idle", "0",
                       "--pool", "2")
    assert code == 0, err
    argv, env, session = (started[-1][k] for k in ("argv", "env", "session"))
    assert argv[1:3] == ["-m", "toolkit.viz.serve"] and session
    assert {"--VoilaExecutor.iopub_timeout=120",
            "--VoilaConfiguration.multi_kernel_manager_class=toolkit.viz.culling.CullingKernelManager",
            "--CullingKernelManager.cull_disconnected=30", "--CullingKernelManager.cull_idle_timeout=0",
            "--CullingKernelManager.cull_interval=7", "--preheat_kernel=True",
            "--VoilaConfiguration.default_pool_size=2"} <= set(argv)
    assert Path(env["TOOLKIT_APP_FOLDER"]).name.startswith("toolkit-app-")
    code, _, err = run(capsys, "app", "--port", port, "--pool", "0")  # the control: no pool, the defaults
    assert code == 0, err
    argv = started[-1]["argv"]
    assert not any("preheat" in a or "pool_size" in a for a in argv)
    assert {"--CullingKernelManager.cull_disconnected=60", "--CullingKernelManager.cull_idle_timeout=3600",
            "--CullingKernelManager.cull_interval=10"} <= set(argv)
    for option, value, words in [("--cull-disconnected", "0", "at least 1 second"),
                                 ("--cull-idle", "-1", "0 (never) or more seconds"),
                                 ("--pool", "9", "0..8 preheated kernels")]:
        code, _, err = run(capsys, "app", "--port", port, option, value)
        assert code == 2 and f"{option} {value} is not allowed: {words}" in err
    assert len(started) == 2


def test_check_checks_the_games_asked(capsys):
    """``toolkit check GAME``: only the games named are checked; none named, every registered game."""
    code, out, _ = run(capsys, "check", "pig")
    assert code == 0 and [line.split(":")[0] for line in out.splitlines()] == ["pig"]
    code, out, _ = run(capsys, "check")
    assert code == 0 and [line.split(":")[0] for line in out.splitlines()] == list(toolkit.GAMES)
    code, _, err = run(capsys, "check", "nosuchgame")
    assert code == 2 and "'nosuchgame' is not registered" in err

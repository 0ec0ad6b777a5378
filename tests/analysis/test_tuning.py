"""Rule tuning (``toolkit.analysis.tuning``, ``toolkit tune``; issue 17): known answers recovered, the local
mode deterministic and equal to the Dask mode at the same batch, bad targets and ranges refused in one
line, and the JSON and ``--set`` flags reproducing the tuned rules."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import toolkit
from toolkit.analysis import tuning as tn
from toolkit.cli import main

VALHALLA = toolkit.GAMES["valhalla"]


def measured(metric, seed=3, n_games=4000, **values):
    """``metric`` of random play under the standard rules with ``values``, on ``seed``: a known answer."""
    rules = toolkit.rules("valhalla").replace(**values)
    return tn.evaluate("valhalla", rules.to_json(), ("random", "random"), seed, n_games)[metric]


def test_a_float_rule_is_recovered_from_the_metric_it_gives():
    # Valhalla's mean duration grows with the rune-up probability from 0.2 to 0.45 (235 turns at 0.2,
    # 374 at 0.4): the probability that gave a duration is the one to find
    target = measured("duration_turns", stick_rune_up_probability=0.3)
    found = tn.tune("valhalla", {"duration_turns": target}, {"stick_rune_up_probability": "0.2..0.45"},
                    trials=20, n_games=4000, seed=3, final_games=4000, progress=False)
    assert abs(found.best_values["stick_rune_up_probability"] - 0.3) < 0.01, found.trials
    # the negative control: another target, another answer
    other = tn.tune("valhalla", {"duration_turns": measured("duration_turns", stick_rune_up_probability=0.4)},
                    {"stick_rune_up_probability": "0.2..0.45"}, trials=20, n_games=4000, seed=3,
                    final_games=4000, progress=False)
    assert abs(other.best_values["stick_rune_up_probability"] - 0.4) < 0.01
    # on the fresh seed the tuned rules' duration is within 2% of the target, the base rules' is not
    table = found.table()
    assert abs(table.loc["duration_turns", "tuned"] / target - 1) < 0.02
    assert abs(table.loc["duration_turns", "base"] / target - 1) > 0.1


def test_an_integer_and_a_choice_are_recovered_exactly():
    target = measured("duration_turns", ships_per_player=3, throw_mode="simplified")
    found = tn.tune("valhalla", {"duration_turns": target}, {"ships_per_player": None, "throw_mode": None},
                    trials=25, n_games=4000, seed=3, final_games=4000, progress=False)
    assert found.best_values == {"ships_per_player": 3, "throw_mode": "simplified"}, found.finalists
    assert found.finalists.loc[0, "distance"] < 0.01  # played on the fresh seed: near, not exact


def test_max_finds_the_best_value_a_sweep_finds():
    from toolkit.analysis.sweep import sweep

    grid = sweep("valhalla", {"zero_runes_value": [1, 2, 3, 4, 5, 6]}, n_games=3000, seed=4, progress=False)
    found = tn.tune("valhalla", {"duration_turns": "max"}, {"zero_runes_value": None}, trials=12, n_games=3000,
                    seed=4, progress=False)
    best_trial = found.trials.sort_values("distance").iloc[0]
    assert best_trial["zero_runes_value"] == grid.loc[grid["duration_turns"].idxmax(), "zero_runes_value"]
    assert best_trial["distance"] == pytest.approx(-grid["duration_turns"].max())
    low = tn.tune("valhalla", {"duration_turns": "min"}, {"zero_runes_value": None}, trials=12, n_games=3000,
                  seed=4, progress=False)
    assert low.trials.sort_values("distance").iloc[0]["zero_runes_value"] == \
        grid.loc[grid["duration_turns"].idxmin(), "zero_runes_value"]


def test_several_targets_make_a_weighted_distance():
    found = tn.tune("valhalla", {"duration_turns": 300.0, "first_player_win_rate": 0.5},
                    {"stick_rune_up_probability": "0.2..0.45"}, weights={"duration_turns": 2.0}, trials=6,
                    n_games=2000, seed=1, progress=False)
    for row in found.trials.itertuples():
        expected = 2.0 * abs(row.duration_turns - 300.0) / 300.0 + abs(row.first_player_win_rate - 0.5)
        assert row.distance == pytest.approx(expected)


def test_the_local_mode_is_deterministic_for_a_seed():
    args = ({"first_player_win_rate": 0.5}, {"stick_rune_up_probability": "0.3..0.7", "zero_runes_value": None})
    a = tn.tune("valhalla", *args, trials=10, n_games=1000, seed=8, final_games=1000, progress=False)
    b = tn.tune("valhalla", *args, trials=10, n_games=1000, seed=8, final_games=1000, progress=False)
    pd.testing.assert_frame_equal(a.trials, b.trials, check_exact=True)
    pd.testing.assert_frame_equal(a.finalists, b.finalists, check_exact=True)
    assert a.to_json() == b.to_json()
    c = tn.tune("valhalla", *args, trials=10, n_games=1000, seed=9, final_games=1000, progress=False)
    assert not a.trials["stick_rune_up_probability"].equals(c.trials["stick_rune_up_probability"])


def test_dask_plays_the_local_trials_at_the_same_batch(cluster_client):
    args = ({"first_player_win_rate": 0.5}, {"stick_rune_up_probability": "0.3..0.7"})
    local = tn.tune("valhalla", *args, trials=6, n_games=1000, seed=2, batch=3, final_games=1000, progress=False)
    remote = tn.tune("valhalla", *args, trials=6, n_games=1000, seed=2, batch=3, final_games=1000,
                     client=cluster_client, progress=False)
    pd.testing.assert_frame_equal(local.trials, remote.trials, check_exact=True)
    pd.testing.assert_frame_equal(local.finalists, remote.finalists, check_exact=True)
    assert remote.settings["backend"] == "dask" and remote.settings["batch"] == 3
    assert tn.tune("valhalla", *args, trials=1, n_games=10, final_games=10, progress=False).settings["batch"] == 1


def test_rules_the_game_refuses_are_recorded_not_played():
    # alternating_blocks needs 6 ships: those trials are refused by the rules' own check
    found = tn.tune("valhalla", {"duration_turns": 300.0}, {"setup": None, "ships_per_player": "4..6"}, trials=12,
                    n_games=500, seed=1, final_games=500, progress=False)
    refused = found.trials[found.trials["state"] == "refused"]
    assert len(refused) >= 1
    assert (refused["setup"] == "alternating_blocks").all() and (refused["ships_per_player"] != 6).all()
    assert refused["note"].str.contains("ships_per_player=").all()
    assert refused["distance"].isna().all()


def test_a_subset_rule_is_searched_choice_by_choice():
    found = tn.tune("valhalla", {"duration_turns": "max"}, {"extra_throw_values": None},
                    rules=toolkit.rules("valhalla").replace(extra_throw_enabled=True), trials=8, n_games=500,
                    seed=1, final_games=500, progress=False)
    values = found.trials["extra_throw_values"].tolist()
    assert len({tuple(v) for v in values}) > 1
    allowed = set(tn.space("valhalla", {"extra_throw_values": None})[0].values)
    assert all(set(v) <= allowed for v in values)
    assert set(found.importance()) <= {"extra_throw_values"}


def test_the_json_and_the_set_flags_reproduce_the_tuned_rules(tmp_path, capsys):
    out = tmp_path / "best.json"
    code = main(["tune", "valhalla", "--preset", "alternative", "--target", "duration_turns=120",
                 "--policies", "greedy,random",
                 "--vary", "stick_rune_up_probability=0.3..0.8", "--vary", "zero_runes_value=4,5", "--trials", "6",
                 "-n", "1000", "--final-games", "1500", "--no-progress", "-o", str(out)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    saved = json.loads(out.read_text())
    rules = VALHALLA.Rules.from_json(saved["rules"])
    assert set(saved["rules"]) == set(toolkit.rules("valhalla").to_json())
    assert rules.setup == "alternating_blocks"  # the preset is kept under the tuned values
    assert saved["metrics"]["duration_turns"]["low"] < saved["metrics"]["duration_turns"]["value"] \
        < saved["metrics"]["duration_turns"]["high"]
    assert saved["verdict"] == "moved" and saved["proposed"]
    assert saved["base_metrics"]["games"]["value"] == 1500 and len(saved["trials"]) == 6
    lines = printed.strip().splitlines()
    last = lines[-1]
    # the command replays what was tuned: the preset, the players and the tuned values
    assert last.startswith("the tuned rules: toolkit simulate valhalla --preset alternative --policies greedy,random "
                           "--set ")
    flags = last.split("valhalla ", 1)[1].split()
    assignments = [flags[i + 1] for i, f in enumerate(flags) if f == "--set"]
    assert VALHALLA.Rules.from_assignments(assignments, preset="alternative") == rules
    # and the tuned rules' duration printed is the one a run on the fresh seed gives
    again = tn.evaluate("valhalla", saved["rules"], ("greedy", "random"), saved["settings"]["check_seed"], 1500)
    assert again["duration_turns"] == saved["metrics"]["duration_turns"]["value"]
    # the answer in words is printed, with the tuned values and the measured duration
    rate = saved["metrics"]["duration_turns"]
    answer = [line for line in lines if line.startswith("Probability that one stick lands rune-up = ")]
    assert len(answer) == 1 and f"{rate['value']:.4g} [{rate['low']:.4g}, {rate['high']:.4g}]" in answer[0]
    assert "parameter importance (each rule's share of how much the distance to the target varied" in printed


@pytest.mark.parametrize("argv, message", [
    (["--vary", "nope=1..2", "--target", "duration_turns=300"], "no rule parameter 'nope'"),
    (["--vary", "zero_runes_value=0..4", "--target", "duration_turns=300"], "zero_runes_value='0' is not allowed"),
    (["--vary", "zero_runes_value=4..4", "--target", "duration_turns=300"], "LOW < HIGH"),
    (["--vary", "safe_squares", "--target", "duration_turns=300"], "declared domain"),
    (["--vary", "throw_mode=dice", "--target", "duration_turns=300"], "throw_mode='dice' is not allowed"),
    (["--vary", "zero_runes_value=", "--target", "duration_turns=300"], "NAME=LOW..HIGH"),
    (["--vary", "zero_runes_value", "--target", "duration=300"], "a metric of valhalla, one of"),
    (["--vary", "zero_runes_value", "--target", "duration_turns=long"], "a number, max or min"),
    (["--vary", "zero_runes_value", "--target", "duration_turns=300:-1"], "weight -1.0 is not allowed"),
    (["--vary", "zero_runes_value", "--target", "duration_turns"], "METRIC=VALUE"),
    (["--vary", "zero_runes_value", "--target", "duration_turns=3", "--trials", "0"], "trials=0 is not allowed"),
    (["--vary", "zero_runes_value", "--target", "duration_turns=3", "-o", "x.csv"], "must end in .json"),
    (["--vary", "zero_runes_value", "--target", "duration_turns=3", "--final-seed", "0"], "a fresh seed"),
])
def test_bad_targets_and_ranges_are_one_line_errors(capsys, argv, message):
    code = main(["tune", "valhalla", *argv, "-n", "10", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1, err


def test_player_counts_are_not_searched_and_each_seat_can_be_a_target():
    with pytest.raises(ValueError, match="num_players is not allowed"):
        tn.tune("attila", {"win_rate_0": 0.25}, {"num_players": "2..5"}, trials=2, n_games=10, progress=False)
    assert "win_rate_3" in tn.metric_names("attila", toolkit.rules("attila", num_players=4))
    assert "win_rate_3" not in tn.metric_names("attila", toolkit.rules("attila", num_players=3))
    assert "first_player_advantage" in tn.metric_names("valhalla") and "skill_gap" in tn.metric_names("valhalla")


def test_a_skill_gap_target_plays_the_skilled_policy_in_every_seat():
    row = tn.evaluate("valhalla", toolkit.rules("valhalla").to_json(), ("random", "random"), 1, 200,
                      skill=("greedy", "random"))
    from toolkit.analysis.metrics import skill_gap

    gap = skill_gap("valhalla", n_games=200, seed=1, skilled="greedy", progress=False)
    assert row["skill_gap"] == gap["skill_gap"] and row["skill_gap_low"] == gap["skill_gap_low"]
    assert np.isfinite(row["skill_gap"]) and row["skill_gap"] > 0.1


def test_a_bare_name_searches_the_declared_domain():
    dims = {d.name: d for d in tn.space("valhalla", {"stick_rune_up_probability": None, "zero_runes_value": None,
                                                     "extra_throw_enabled": None, "throw_mode": None,
                                                     "extra_throw_values": None})}
    p = dims["stick_rune_up_probability"]  # declared (0, 1), open: stepped inside by a millionth
    assert (p.kind, p.low, p.high) == ("float", pytest.approx(1e-6), pytest.approx(1 - 1e-6))
    assert 0 < p.low and p.high < 1
    assert (dims["zero_runes_value"].kind, dims["zero_runes_value"].low, dims["zero_runes_value"].high) == ("int", 1, 6)
    assert dims["extra_throw_enabled"].values == (False, True)
    assert dims["throw_mode"].values == ("runes", "simplified")
    assert dims["extra_throw_values"].kind == "subset" and len(dims["extra_throw_values"].values) == 7
    given = tn.space("valhalla", {"stick_rune_up_probability": "0.25..0.5", "zero_runes_value": ["2", 4, "4"]})
    assert (given[0].low, given[0].high) == (0.25, 0.5) and given[1].values == (2, 4)


def test_the_command_plays_its_trials_on_a_scheduler(cluster_client, tmp_path, capsys):
    argv = ["tune", "valhalla", "--target", "duration_turns=300", "--vary", "stick_rune_up_probability=0.2..0.45",
            "--trials", "4", "-n", "500", "--final-games", "500", "--batch", "2", "--no-progress"]
    assert main([*argv, "-o", str(tmp_path / "local.json")]) == 0
    address = cluster_client.scheduler.address
    assert main([*argv, "--scheduler", address, "-o", str(tmp_path / "dask.json")]) == 0
    printed = capsys.readouterr().out
    assert f"dask at {address}" in printed and "batches of 2" in printed
    local, remote = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("local", "dask"))
    assert remote["settings"]["backend"] == "dask" and local["settings"]["backend"] == "local"
    assert remote["trials"] == local["trials"] and remote["rules"] == local["rules"]


# -- answers that say what they rest on (issue 36, point 5) --------------------------------------


def test_base_rules_that_already_meet_the_target_get_no_proposal(capsys):
    """Valhalla's standard rules sit at a first-player rate of about 0.5 (random players): on 3,000 fresh
    games their interval, 0.51 [0.49, 0.53], lies within 0.5 ± 0.03, so with that tolerance the tuning says
    they meet it and proposes nothing.  At the default tolerance (± 0.01) the same interval holds 0.5 but
    does not show it met (issue 50: fewer games must not meet a target more easily): no "met", and the
    games that would tell.  The control: a target far off (0.9) is not met."""
    vary = {"stick_rune_up_probability": "0.2..0.8"}
    found = tn.tune("valhalla", {"first_player_win_rate": 0.5}, vary, trials=4, n_games=1000, final_games=3000,
                    tolerances={"first_player_win_rate": 0.03}, progress=False)
    low, high = found.base["first_player_win_rate_low"], found.base["first_player_win_rate_high"]
    assert 0.47 <= low <= 0.5 <= high <= 0.53 and high - low > 0.02
    assert found.verdict == "met" and not found.proposed
    assert found.answer().startswith("The base rules already meet the target: first player's win rate ")
    assert "lies within the target 0.5 ± 0.03" in found.answer()
    assert "no change proposed (players random,random, base rules the standard preset)" in found.answer()
    assert found.to_json()["set_flags"] == []  # best.json proposes nothing either
    strict = tn.tune("valhalla", {"first_player_win_rate": 0.5}, vary, trials=4, n_games=1000, final_games=3000,
                     progress=False)
    assert strict.base == found.base and strict.verdict != "met"
    assert "holds 0.5 but is wider than ± 0.01, so it does not show them meeting it: at about " in strict.answer()
    far = tn.tune("valhalla", {"first_player_win_rate": 0.9}, vary, trials=4, n_games=1000, final_games=3000,
                  progress=False)
    assert far.verdict != "met"
    code = main(["tune", "valhalla", "--target", "first_player_win_rate=0.5", "--vary",
                 "stick_rune_up_probability=0.2..0.8", "--trials", "4", "-n", "1000", "--final-games", "3000",
                 "--tolerance", "first_player_win_rate=0.03", "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0 and "The base rules already meet the target" in out
    assert out.strip().splitlines()[-1] == "no change proposed; the base rules: toolkit simulate valhalla --policies random,random"


def test_the_winner_is_reported_on_a_seed_that_did_not_choose_it():
    """The finalists are ranked on the fresh seed, and the winner and the base rules are measured on a third
    (issue 50: the seed that chose the winner flatters it); a winner at the end of its range says so."""
    found = tn.tune("valhalla", {"duration_turns": 50}, {"ships_per_player": "4..6"}, trials=5, n_games=800,
                    final_games=1000, seed=3, progress=False)
    s = found.settings
    assert (s["seed"], s["final_seed"], s["check_seed"]) == (3, 4, 5)
    rules = found.best_rules.to_json()
    on_final = tn.evaluate("valhalla", rules, ("random", "random"), s["final_seed"], 1000)
    on_check = tn.evaluate("valhalla", rules, ("random", "random"), s["check_seed"], 1000)
    assert found.finalists.loc[0, "duration_turns"] == on_final["duration_turns"]
    assert found.best["duration_turns"] == on_check["duration_turns"] != on_final["duration_turns"]
    base = tn.evaluate("valhalla", found.base_rules.to_json(), ("random", "random"), s["check_seed"], 1000)
    assert found.base["duration_turns"] == base["duration_turns"]
    assert found.verdict == "moved" and found.best_values["ships_per_player"] == 4  # 50 turns: beyond reach
    assert found.edges() == [("ships_per_player", 4, 4, 6)]
    assert found.answer().endswith("The tuned Ships per player = 4 is at the edge of the range searched (4..6): "
                                   "widen it.")
    inside = tn.tune("valhalla", {"duration_turns": 300}, {"ships_per_player": "4..6"}, trials=5, n_games=800,
                     final_games=1000, seed=3, progress=False)  # the control: 300 turns lie between 4 and 6 ships
    assert inside.best_values["ships_per_player"] == 5 and inside.edges() == [] and "edge" not in inside.answer()
    with pytest.raises(ValueError, match="check_seed=1 is not allowed"):
        tn.tune("valhalla", {"duration_turns": 150}, {"ships_per_player": "4..6"}, trials=2, n_games=10,
                check_seed=1, progress=False)


def test_a_change_within_the_noise_is_not_proposed():
    """With greedy against random the stick probability barely moves the first player's rate: the nearest
    candidate's interval overlaps the base rules', so nothing is proposed (the proposal above, a duration
    moved far beyond its interval, is the control)."""
    found = tn.tune("valhalla", {"first_player_win_rate": 0.5}, {"stick_rune_up_probability": "0.3..0.8",
                                                                   "zero_runes_value": [4, 5]},
                    trials=6, n_games=1000, final_games=1500, preset="alternative", policies="greedy,random",
                    progress=False)
    m = "first_player_win_rate"
    assert found.best[f"{m}_low"] <= found.base[f"{m}_high"] and found.base[f"{m}_low"] <= found.best[f"{m}_high"]
    assert found.verdict == "not moved" and not found.proposed
    assert found.answer().startswith("No candidate moves the metric measurably toward the target")


def test_proposed_floats_are_rounded_and_measured_as_rounded():
    found = tn.tune("valhalla", {"duration_turns": 200}, {"stick_rune_up_probability": "0.3..0.8"},
                    trials=5, n_games=800, final_games=1000, preset="alternative", progress=False)
    assert tn.table_step(found.dimensions[0]) == pytest.approx(0.01)
    for value in [found.best_values["stick_rune_up_probability"], *found.finalists["stick_rune_up_probability"]]:
        assert value == round(value, 2)
    assert found.set_flags() == [f"--set stick_rune_up_probability={found.best_values['stick_rune_up_probability']}"]
    again = tn.evaluate("valhalla", found.best_rules.to_json(), ("random", "random"), found.settings["check_seed"],
                        1000)
    assert again["duration_turns"] == found.best["duration_turns"]  # the rounded rules were played
    raw = found.trials["stick_rune_up_probability"]
    assert any(v != round(v, 2) for v in raw)  # the search itself is not rounded (the control)

"""The dashboard (toolkit.viz.dashboard) without a browser, and the ``toolkit app`` command's checks.

The browser side is tests/browser/test_app_browser.py."""

from __future__ import annotations

import base64
import dataclasses
import html
import io
import re

import numpy as np
import pandas as pd
import pytest

import toolkit
from toolkit.core.game import with_parts
from toolkit.core.params import params_of
from toolkit.cli import app_notebook, main
from toolkit.core.runner import get_spec
from toolkit.games.valhalla import odds as valhalla_odds
from toolkit.viz.dashboard import Dashboard, simulated_odds

pytestmark = pytest.mark.slow  # about 27 s of CI: started early (tests/conftest.py), so the suite ends on short modules

N = 400


@pytest.fixture
def board():
    return Dashboard("valhalla", n_games=N, threads=1, tournament_games=20)


def test_a_run_is_simulate_with_the_panels_rules_and_the_seat_policies(board):
    assert board.policies == ("greedy", "greedy")  # the report's players (GameSpec.default_policies)
    board.seat_policies[0].value = "random"  # reruns
    board.panel.widgets["throw_mode"].value = "simplified"  # reruns
    assert board.panel.last_error is None
    assert board.policies == ("random", "greedy") and board.rules.throw_mode == "simplified"
    expected = toolkit.simulate("valhalla", board.panel.rules(), N, seed=0, policies=("random", "greedy"),
                                threads=1, progress=False)
    pd.testing.assert_frame_equal(board.frame, expected)
    shown = board.panel.last_result.data
    assert shown.startswith('<img src="data:image/png;base64,') and "Design metrics" in shown


def test_a_bad_value_keeps_the_last_run(board):
    board.panel.widgets["ships_per_player"].value = 5  # allowed on an empty board: a run
    before = board.frame
    assert board.rules.ships_per_player == 5
    board.panel.widgets["setup"].value = "alternating_blocks"  # needs 6 ships: no run
    assert "ships_per_player" in board.panel.last_error
    assert board.frame is before and board.rules.setup == "empty_board"
    board.panel.widgets["ships_per_player"].value = 6
    assert board.panel.last_error is None and board.rules.setup == "alternating_blocks"


def test_seats_follow_the_player_count():
    board = Dashboard("attila", n_games=50, threads=1)
    assert len(board.seat_policies) == 4 and board.policies == ("greedy",) * 4  # the report's players
    board.seat_policies[0].value = "random"
    board.panel.widgets["num_players"].value = 3
    assert len(board.seat_policies) == 3
    assert board.policies == ("random", "greedy", "greedy")  # the seats that stay keep their choice
    assert len(board.frame) == 50 and {"score_2"} <= set(board.frame.columns) and "score_3" not in board.frame


def test_switching_game_rebuilds_everything(board):
    board.prepare_csv()
    board.game.value = "herrlof"
    assert board.spec.name == "herrlof" and "throw_mode" not in board.panel.widgets
    assert board.csv_link.value == "" and board.rules.__class__ is get_spec("herrlof").Rules


def test_csv_is_what_toolkit_save_writes(board, tmp_path):
    data = board.prepare_csv()
    toolkit.save(board.frame, tmp_path / "run.csv")
    assert data == (tmp_path / "run.csv").read_bytes()
    href = board.csv_link.value.split('href="', 1)[1].split('"', 1)[0]
    assert base64.b64decode(href.split(",", 1)[1]) == data
    assert len(pd.read_csv(io.BytesIO(data))) == N


def test_csv_before_any_run_says_so():
    board = Dashboard("valhalla", n_games=N, threads=1, refresh=False)
    assert board.prepare_csv() is None and "no run yet" in board.csv_link.value


def test_tournament_plays_every_policy_pair_on_the_panels_rules(board):
    from toolkit.viz.dashboard import job_players

    board.panel.widgets["extra_throw_enabled"].value = True
    job = board.run_tournament()
    expected = toolkit.compare("valhalla", job_players(get_spec("valhalla"), "tournament"), 20, seed=0,
                               rules=board.panel.rules(), threads=1, progress=False)
    pd.testing.assert_frame_equal(board.tournament, expected)
    assert job.done == job.total == 9 * 20  # every ordered pair of the three players, counted as played
    shown = [o["data"]["text/html"] for o in board.tournament_output.outputs]
    assert len(shown) == 1 and shown[0].startswith('<img src="data:image/png;base64,') and "lookahead" in shown[0]


def test_tournament_with_a_bad_value_shows_the_message_and_plays_nothing(board):
    board.panel.widgets["ships_per_player"].value = 5
    board.panel.widgets["setup"].value = "alternating_blocks"
    assert board.run_tournament() is None
    shown = [o["data"].get("text/html", "") for o in board.tournament_output.outputs]
    assert len(shown) == 1 and "ships_per_player" in shown[0] and "b00020" in shown[0]


def test_the_command_shown_for_a_big_run_writes_the_same_file(monkeypatch, tmp_path):
    import shlex

    import toolkit.viz.dashboard as dashboard_module

    board = Dashboard("halali", n_games=60, threads=1)
    board.panel.widgets["match_games"].value = 2
    board.seat_policies[0].value = "greedy"
    monkeypatch.setattr(dashboard_module, "CSV_LINK_LIMIT", 1000)  # this run's CSV is "too big" for a link
    data = board.prepare_csv()
    assert "<a " not in board.csv_link.value and "toolkit simulate halali" in board.csv_link.value
    argv = shlex.split(board.command(str(tmp_path / "out.csv")))
    assert argv[:2] == ["toolkit", "simulate"]
    assert main(argv[1:] + ["--threads", "1", "--no-progress"]) == 0
    assert (tmp_path / "out.csv").read_bytes() == data


def test_a_new_game_gets_its_own_seat_controls(board):
    old = board.seat_policies
    board.seat_policies[0].value = "greedy"
    board.game.value = "attila"
    assert len(board.seat_policies) == 4 and all(d.value == "greedy" for d in board.seat_policies)
    assert all(d.comm is None for d in old)  # the replaced controls are closed


def test_simulated_odds_of_valhalla_agree_with_the_exact_ones():
    spec = get_spec("valhalla")
    rules = spec.Rules.preset("alternative")
    frame = toolkit.simulate("valhalla", rules, 20_000, seed=3, progress=False)
    table = simulated_odds(spec, rules, frame, ("random", "random")).set_index("quantity")
    shown = table.dropna(subset=["simulated"])
    assert set(shown.index) == {"P(seat 0 starts)", "P(natural one)", "throws per turn (random policy)"}
    # 20,000 games: P(seat 0 starts) within 4 standard errors; the other two are far more precise
    assert abs(shown.loc["P(seat 0 starts)", "simulated"] - 16 / 29) < 4 * np.sqrt(0.25 / 20_000)
    assert abs(shown.loc["P(natural one)", "simulated"] - 3 / 16) < 0.005
    assert abs(shown.loc["throws per turn (random policy)", "simulated"] - 32 / 27) < 0.01


def test_simulated_odds_measures_what_the_records_say():
    """Hand-made records: the functions count, they do not look the answer up (negative control)."""
    frame = pd.DataFrame({"start_seat": [0, 1, 1, 1], "start_throws": [0, 2, 3, 7],
                          "throws_0": [5, 5, 5, 5], "throws_1": [5, 5, 5, 5], "turns": [8, 8, 8, 8]})
    found = valhalla_odds.simulated(frame, get_spec("valhalla").Rules(), ("random", "random"))
    # the opening turn (one throw: the natural one) is left out: (40 - 4) throws over (32 - 4) turns
    assert found == {"P(seat 0 starts)": 0.25, "P(natural one)": 4 / 16, "throws per turn (random policy)": 36 / 28}
    blocks = get_spec("valhalla").Rules(setup="alternating_blocks", start_player_rule="random")
    found = valhalla_odds.simulated(frame, blocks, ("random", "random"))  # an opening turn without a throw
    assert found == {"P(seat 0 starts)": 0.25, "throws per turn (random policy)": 40 / 28}
    assert "throws per turn (random policy)" not in valhalla_odds.simulated(
        frame, get_spec("valhalla").Rules(), ("greedy", "random"))


def test_games_without_simulated_odds_show_exact_ones_only():
    # every registered game has them now; a game folder without odds.simulated gets None (GameSpec fills
    # None from the folder, so replace() cannot say "none": set it on the copy)
    spec = dataclasses.replace(get_spec("halali"))
    object.__setattr__(spec, "simulated_odds", None)
    rules = spec.Rules()
    table = simulated_odds(spec, rules, toolkit.simulate("halali", rules, 20, progress=False), ("random", "random"))
    assert table["simulated"].isna().all() and len(table) == len(spec.odds(rules))


@pytest.mark.parametrize("game", sorted(toolkit.GAMES))
def test_every_games_page_shows_simulated_odds_beside_the_exact_ones(game):
    """The page's odds table has a measured value in the rows the game measures (and "–" in the others),
    each one the game's ``simulated_odds`` of the run shown."""
    board = Dashboard(game, n_games=300, threads=1)
    shown = board.panel.last_result.data
    measured = board.spec.simulated_odds(board.frame, board.rules, board.policies)
    table = board.spec.odds(board.rules)
    assert measured and set(measured) <= set(table["quantity"])
    assert "Exact odds and simulated ones" in shown and "replaying the deals of up to its first 300 games" in shown \
        or game == "valhalla"  # Valhalla's rows come from the records alone
    for quantity, exact in zip(table["quantity"], table["value"]):
        row = shown[shown.index(f"<td>{html.escape(quantity, quote=False)}</td>"):]
        row = row[:row.index("</tr>")]
        cells = row.split("<td>")[1:]
        assert cells[2].startswith(f"{exact:.4f}")
        expected = f"{measured[quantity]:.4f}" if quantity in measured else "–"
        assert cells[3].startswith(expected + "</td>"), (quantity, cells)


def test_app_notebook_opens_the_dashboard_of_the_game():
    cell = app_notebook("halali", 5000).cells[0].source
    assert cell == "from toolkit.viz.dashboard import dashboard\n\ndashboard('halali', n_games=5000)"


@pytest.mark.parametrize("argv, message", [
    (["app", "nosuchgame"], "nosuchgame"),
    (["app", "valhalla", "--port", "70000"], "--port 70000 is not allowed"),
    (["app", "valhalla", "-n", "0"], "-n 0 is not allowed"),
    (["app", "valhalla", "-n", "100000001"], "-n 100000001 is not allowed"),
    (["app", "valhalla", "--threads", "0"], "--threads 0 is not allowed"),
])
def test_app_refuses_bad_input_in_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_app_without_voila_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(__import__("sys").modules, "voila", None)  # import voila -> ImportError
    assert main(["app", "valhalla", "--no-browser"]) == 2
    assert "pip install 'toolkit[app]'" in capsys.readouterr().err


def test_app_refuses_a_busy_port(capsys):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["app", "valhalla", "--port", str(port), "--no-browser"]) == 2
    err = capsys.readouterr().err
    assert f"--port {port} is not allowed: it is in use" in err and err.count("\n") == 1


def test_the_tuning_is_prefilled_with_the_games_question_and_offers_bounded_rules():
    board = Dashboard("valhalla", n_games=N, threads=1, refresh=False)
    question = toolkit.GAMES["valhalla"].presentation.tune_question
    assert board.tune_metric.value == "first_player_win_rate" and board.tune_value.value == 0.5
    assert board.tune_rules.value == tuple(question.vary)
    offered = {name for _, name in board.tune_rules.options}  # each shown by its label (issue 52)
    assert all(label == params_of(toolkit.GAMES["valhalla"].Rules)[name].label
               for label, name in board.tune_rules.options)
    assert {"throw_mode", "extra_throw_enabled", "zero_runes_value", "stick_rune_up_probability",
            "extra_throw_values"} <= offered
    assert not offered & {"safe_squares", "blockade_zone"}  # a set of squares, a list: no bounded domain
    question = get_spec("valhalla").presentation.tune_question
    assert board.tune_question.value.startswith(f"<p><i>{html.escape(question.question)}</i> (the game's question, "
                                                "asked of the alternative preset with random players;")
    board.game.value = "attila"
    assert html.escape(get_spec("attila").presentation.tune_question.question) in board.tune_question.value
    assert "with greedy players" in board.tune_question.value
    assert board.tune_metric.value == "first_player_advantage" and board.tune_rules.value == ("finish_round",
                                                                                             "later_seat_vp")
    assert "num_players" not in {name for _, name in board.tune_rules.options}
    assert ("seat 3's win rate", "win_rate_3") in board.tune_metric.options


def test_a_tuning_is_tune_from_the_current_rules_and_policies(board):
    from toolkit.analysis import tuning

    board.seat_policies[0].value = "random"
    board.panel.widgets["throw_mode"].value = "simplified"
    board.tune_metric.value, board.tune_goal.value = "duration_turns", "max"
    board.tune_rules.value = ("zero_runes_value",)
    board.tune_trials.value, board.tune_games.value = 6, 300
    job = board.run_tuning()
    found = board.tuning
    assert job.done == job.total > 0  # every game of the plan counted
    expected = tuning.tune("valhalla", {"duration_turns": "max"}, {"zero_runes_value": None}, 6, 300,
                           rules=board.panel.rules(), policies=("random", "greedy"), threads=1, progress=False)
    pd.testing.assert_frame_equal(found.trials, expected.trials)
    assert found.best_values == expected.best_values and found.base_rules.throw_mode == "simplified"
    shown = board.tune_output.outputs[0]["data"]["text/html"]
    assert shown.startswith('<img src="data:image/png;base64,')
    assert html.escape(expected.answer()) in shown
    assert (html.escape(" ".join(expected.set_flags())) in shown) == expected.proposed
    assert ("No change proposed." in shown) == (not expected.proposed)


def test_a_tuning_without_rules_to_vary_says_so():
    board = Dashboard("valhalla", n_games=N, threads=1, refresh=False)
    board.tune_rules.value = ()
    assert board.run_tuning() is None and board.tuning is None
    assert "choose at least one" in board.tune_output.outputs[0]["data"]["text/html"]
    board.tune_rules.value = ("ships_per_player",)
    board.panel.widgets["blockade_zone"].value = "25,99"  # a bad rule in the panel: named, nothing run
    assert board.run_tuning() is None
    assert "blockade_zone" in board.tune_output.outputs[0]["data"]["text/html"]


# -- any player in any seat (issue 36, point 1) ------------------------------------------------


@pytest.mark.parametrize("name", list(toolkit.GAMES))
def test_every_seat_choice_is_a_player_the_game_accepts(name):
    spec = get_spec(name)
    choices = spec.player_choices()
    assert choices[:len(spec.policies)] == tuple(spec.policies)
    assert {"mcts:100", "mcts:1000"} <= set(choices) and len(set(choices)) == len(choices)
    for choice in choices:
        spec.check_policy_name(choice)  # raises on a name the game refuses


def test_the_named_players_are_offered_and_a_typed_name_is_played(board):
    assert "mcts:1000" in board.seat_policies[0].options and "lookahead" in board.seat_policies[0].options
    games = 40  # a search's games: played here twice (400 took 5 s of CI)
    board.panel.n_games.value = games
    board.seat_policies[0].value = "mcts:7"  # not in the menu: typed, checked, played
    assert "b00020" not in board.seat_message.value and board.policies == ("mcts:7", "greedy")
    expected = toolkit.simulate("valhalla", board.panel.rules(), games, seed=0, policies=("mcts:7", "greedy"),
                                threads=1, progress=False)
    pd.testing.assert_frame_equal(board.frame, expected)
    herrlof = Dashboard("herrlof", n_games=20, threads=1, refresh=False)
    assert {"lookahead:64", "greedy:no_steal"} <= set(herrlof.seat_policies[1].options)


def test_a_name_the_game_refuses_is_shown_at_the_seats_and_nothing_is_played(board):
    before, runs = board.frame, board.panel.runs
    board.seat_policies[1].value = "minimax"
    message = html.unescape(board.seat_message.value)
    assert "policy='minimax' is not allowed" in message and "b00020" in message
    assert board.frame is before and board.panel.runs == runs  # no run, the last plots stay
    board.seat_policies[1].value = "random"  # the control: a good name clears the message and plays
    assert board.seat_message.value == "" and board.panel.runs == runs + 1 and board.policies == ("greedy", "random")


def test_a_slow_line_up_says_how_long_it_should_take(board, monkeypatch):
    from toolkit.viz import dashboard

    monkeypatch.setattr(dashboard, "SLOW_RUN", 0.0)  # every estimate counts as slow here
    games = 8  # the run after the estimate plays them all: about 2 s
    board.panel.n_games.value = games
    board.seat_policies[0].value = "mcts:100"
    said = html.unescape(board.seat_message.value)
    assert said.count(f"{games:,} games of mcts:100,greedy: about ") == 1
    assert "(estimated from the players' measured speed)" in said  # a run of seconds is not probed
    guess = board.estimate(board.rules, ("mcts:100", "random"), N)
    assert guess.probed >= 1 and 0 < guess.seconds < 600 and guess.shipped > 0  # minutes of play: probed
    quick = board.estimate(board.rules, ("greedy", "random"), N)  # the control: milliseconds, not probed
    assert quick.probed == 0 and quick.seconds < 0.1
    assert [dashboard._duration(s) for s in (0.2, 59.4, 125, 3 * 3600 + 200)] == ["1 s", "59 s", "2 min 5 s",
                                                                                  "3 h 3 min"]


def _text(markup: str) -> str:
    """What a person reads of some HTML: its text, no tags."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def test_a_run_over_the_time_that_starts_unasked_is_asked_about_with_the_games_that_fit():
    """Issue 52, point 2: a line-up expected over the threshold (30 s by default; here a tenth of a
    second, less than a game of mcts:100) is not started: the status says how long it would take, the
    plots stay, and two buttons offer the games that fit and the whole run."""
    board = Dashboard("valhalla", n_games=N, threads=1, ask_above=0.1)
    before, runs = board.frame, board.panel.runs
    assert board.ask_box.layout.display == "none"
    board.seat_policies[0].value = "mcts:100"
    status = _text(board.panel.status.value)
    assert f"not started: {N:,} games of mcts:100,greedy would take about " in status
    assert "The plots below are the last run's" in status and board.panel.last_error is None
    assert board.frame is before and board.ask_box.layout.display == "flex"
    fewer, guess = board._asked[1], board._asked[2]
    assert fewer == min(max(1, int(0.1 / guess.per_game)), N - 1) >= 1  # what fits a tenth of a second, on 1 thread
    assert board.fewer_button.description.startswith(f"play {fewer:,} games (about ")
    assert board.all_button.description.startswith(f"play all {N:,} games (about ")
    board.play_fewer()  # the offer: played at once, without asking again
    assert board.panel.n_games.value == fewer and len(board.frame) == fewer and board.policies[0] == "mcts:100"
    assert board.ask_box.layout.display == "none" and "not started" not in board.panel.status.value
    board.panel.n_games.value = 3  # over the threshold again: asked again; the whole run when asked for
    assert "not started: 3 games" in _text(board.panel.status.value) and len(board.frame) == fewer
    board.play_all()
    assert len(board.frame) == 3 and board.ask_box.layout.display == "none"
    board.seat_policies[0].value = "greedy"  # the control: a quick line-up is never asked about
    assert len(board.frame) == 3 and board.policies == ("greedy", "greedy")
    assert board.ask_box.layout.display == "none"


def test_zero_games_is_refused_not_run_as_one(board):
    before = board.frame
    board.panel.n_games.value = 0
    assert board.panel.last_error == "games=0 is not allowed: an integer in 1..100,000,000"
    assert board.frame is before
    board.panel.n_games.value = 5  # the control
    assert board.panel.last_error is None and len(board.frame) == 5


def test_a_rule_number_out_of_range_is_refused_by_name_not_clamped():
    board = Dashboard("herrlof", n_games=20, threads=1)
    before = board.frame
    board.panel.widgets["target_score"].value = 0  # a box, 1..10000: was clamped to 1 without a word
    assert "target_score=0 is not allowed: an integer in 1..10000" in board.panel.last_error
    assert board.frame is before
    board.panel.widgets["target_score"].value = 40
    assert board.panel.last_error is None and board.rules.target_score == 40


def test_the_status_line_writes_rules_in_words_the_set_text_in_the_tooltip_and_the_player_count():
    """Issue 52, point 4: each changed rule by its label and its value in words (a choice's declared words,
    yes/no); the ``--set`` text only in the tooltip."""
    board = Dashboard("walhalla", n_games=20, threads=1)
    assert board.panel.status.value == "preset <code>standard</code>, 4 players"
    board.panel.widgets["num_players"].value = 3
    assert board.panel.status.value.endswith(", 3 players")
    valhalla = Dashboard("valhalla", n_games=20, threads=1)
    valhalla.panel.widgets["zero_runes_value"].value = 4
    assert valhalla.panel.status.value == ('custom rules: <span title="zero_runes_value=4">Value of a throw with '
                                           "no rune up: <b>4</b></span>")  # two seats: no count
    status = valhalla.panel.describe(toolkit.rules("valhalla", valhalla_entry="direct_off",
                                                   extra_throw_enabled=True))
    assert ('<span title="valhalla_entry=direct_off">What an overshoot of square 36 does: <b>straight off the '
            "board</b></span>") in status and "Extra throws exist: <b>yes</b>" in status
    tiles = toolkit.rules("walhalla", num_players=3, peninsula_tiles=frozenset({5, 6, 7}))
    assert board.panel.describe(tiles) == ('custom rules: <span title="peninsula_tiles=5,6,7">Tiles of P0, P1, P2 '
                                           "(sum &lt;= 18), or all 18 drawn at random: <b>5,6,7</b></span>, "
                                           "3 players")


def test_metric_descriptions_name_no_rule_a_game_lacks():
    """Issue 36, point 13: Halali's page said "completion ... max_turns", a rule Halali does not have; a
    ply is explained beside the turn."""
    from toolkit.analysis.metrics import DESCRIPTIONS
    from toolkit.core.params import params_of

    every_rule = {name for g in toolkit.GAMES for name in params_of(toolkit.GAMES[g].Rules)}
    for game in toolkit.GAMES:
        own = set(params_of(toolkit.GAMES[game].Rules))
        for metric, text in DESCRIPTIONS.items():
            named = {word.strip("(),.`") for word in text.split() if "_" in word} & every_rule  # identifiers
            assert named <= own, (game, metric, named - own)
    assert "a ply is one decision point of one seat" in DESCRIPTIONS["duration_plies"]


def test_no_game_named_opens_the_first_registered_game(monkeypatch):
    """Issue 37, point 3: no default game by name; with the registry in another order, another game opens."""
    from toolkit.games import GAMES

    assert Dashboard(n_games=20, threads=1, refresh=False).spec.name == next(iter(GAMES))
    monkeypatch.setattr("toolkit.games.GAMES", dict(reversed(list(GAMES.items()))))
    import toolkit.games

    assert Dashboard(n_games=20, threads=1, refresh=False).spec.name == next(iter(toolkit.games.GAMES)) != "valhalla"


def test_the_simulated_odds_are_remembered_per_rules_players_seed_and_games(monkeypatch):
    """Issue 52, point 7: the replayed deals of the simulated odds (most of Attila's and Walhalla's redraw)
    are computed once per run: a rule toggled there and back redraws without replaying them; another seed
    or other rules replay (the control), and the remembered odds equal a fresh computation."""
    from toolkit.viz import dashboard as dash

    spec = toolkit.GAMES["attila"]
    calls = []
    fresh = spec.simulated_odds

    def counted(frame, rules, policies):
        calls.append((frame.attrs["seed"], rules))
        return fresh(frame, rules, policies)

    monkeypatch.setattr(dash, "_SIMULATED", {})
    spec = with_parts(spec, simulated_odds=counted)
    rules = toolkit.rules("attila", num_players=3)
    policies = ("random",) * 3
    frames = {seed: toolkit.simulate("attila", rules, n_games=300, seed=seed, policies=policies, progress=False)
              for seed in (0, 1)}
    first = dash.simulated_odds(spec, rules, frames[0], policies)
    again = dash.simulated_odds(spec, rules, frames[0], policies)
    pd.testing.assert_frame_equal(first, again)
    assert len(calls) == 1
    dash.simulated_odds(spec, rules, frames[1], policies)  # another seed: other games, replayed
    other = rules.replace(later_seat_vp=1)
    dash.simulated_odds(spec, other, toolkit.simulate("attila", other, n_games=300, seed=0, policies=policies,
                                                      progress=False), policies)
    assert len(calls) == 3
    expected = spec.odds(rules).copy()
    found = fresh(frames[0], rules, policies)
    expected["simulated"] = [found.get(q, float("nan")) for q in expected["quantity"]]
    pd.testing.assert_frame_equal(first, expected)
    monkeypatch.setattr(dash, "SIMULATED_KEPT", 2)  # the oldest run is forgotten: seed 0's, replayed again
    dash.simulated_odds(spec, rules, frames[1], policies)  # remembered; the two newest kept
    assert len(calls) == 3 and len(dash._SIMULATED) == 2
    dash.simulated_odds(spec, rules, frames[0], policies)
    assert len(calls) == 4 and len(dash._SIMULATED) == 2

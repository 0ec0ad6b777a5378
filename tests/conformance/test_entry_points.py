"""Conformance, part 4: every registered game through the user's doors, the CLI, the rules panel and
the report, with the values checked against the library call they stand for.
"""

from __future__ import annotations

import pandas as pd
import pytest

import toolkit
from conformance_games import NAMES
from toolkit.cli import main
from toolkit.core.params import params_of

GAMES = NAMES  # the registered games and the test-only ones (conformance_games.py)
SEED = 2


def cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("game", GAMES)
def test_cli_simulate_writes_the_games_simulate_returns(game, capsys, tmp_path):
    code, out, err = cli(capsys, "simulate", game, "-n", "60", "--seed", str(SEED), "-o", str(tmp_path / "g.csv"),
                         "--no-progress")
    assert code == 0, err
    written = toolkit.load(tmp_path / "g.csv")
    expected = toolkit.simulate(game, n_games=60, seed=SEED, progress=False)
    pd.testing.assert_frame_equal(written, expected, check_dtype=False, check_exact=True)


@pytest.mark.parametrize("game", GAMES)
def test_cli_rules_lists_every_declared_rule(game, capsys):
    code, out, err = cli(capsys, "rules", game)
    assert code == 0, err
    names = {line.split()[0] for line in out.splitlines() if line.strip()}
    assert set(params_of(toolkit.GAMES[game].Rules)) <= names


@pytest.mark.parametrize("game", GAMES)
def test_cli_odds_prints_the_exact_table(game, capsys):
    code, out, err = cli(capsys, "odds", game)
    assert code == 0, err
    spec = toolkit.GAMES[game]
    table = spec.odds(spec.Rules())
    assert out.startswith(f"{spec.title}: exact odds")
    first = str(table.iloc[0, 0])
    assert first in out, first  # the table's first row is printed


@pytest.mark.parametrize("game", GAMES)
def test_rules_panel_has_a_control_per_rule_and_gives_the_preset(game):
    from toolkit.viz.widgets import rules_panel

    calls = []
    panel = rules_panel(game, calls.append, auto=False)
    assert set(panel.widgets) == set(params_of(toolkit.GAMES[game].Rules))
    assert panel.rules() == toolkit.rules(game)


@pytest.mark.parametrize("game", GAMES)
def test_report_writes_the_run_it_summarises(game, tmp_path):
    from toolkit.report import report

    table = report([game], n_games=40, seed=SEED, out_dir=tmp_path, progress=False)
    df = toolkit.load(tmp_path / f"{game}.csv")
    assert len(df) == 40 and int(table.loc[game, "games"]) == 40
    rates = toolkit.win_rates(df)
    for r in rates.itertuples():
        assert table.loc[game, f"win_rate_{r.seat}"] == pytest.approx(r.win_rate, abs=1e-12)
    policies = toolkit.GAMES[game].default_policies(toolkit.rules(game))
    assert table.loc[game, "policies"] == ",".join(policies)

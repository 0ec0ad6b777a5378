"""Rule sweeps: the grid, the table, and the local and Dask backends giving identical results."""

import numpy as np
import pandas as pd
import pytest

from toolkit.analysis import sweep as sw
from toolkit.analysis.metrics import design_metrics
from toolkit.core.runner import simulate
from toolkit.games.valhalla.rules import Rules as ValhallaRules


def test_grid_is_the_cartesian_product_in_order():
    from toolkit.games import GAMES

    variants = sw.grid(GAMES["valhalla"], ValhallaRules(), {"zero_runes_value": ["4", 5],
                                                            "extra_throw_enabled": [True, "false"]})
    assert [v for v, _ in variants] == [
        {"zero_runes_value": 4, "extra_throw_enabled": True}, {"zero_runes_value": 4, "extra_throw_enabled": False},
        {"zero_runes_value": 5, "extra_throw_enabled": True}, {"zero_runes_value": 5, "extra_throw_enabled": False}]
    assert variants[1][1].zero_runes_value == 4 and variants[1][1].extra_throw_enabled is False


@pytest.mark.parametrize("vary, message", [
    ({"no_such_rule": [1]}, "unknown parameter 'no_such_rule'"),
    ({"zero_runes_value": [9]}, "zero_runes_value"),
    ({"zero_runes_value": []}, "at least one value"),
    ({"zero_runes_value": "4,5"}, "a list of values"),
    ({}, "a dict of parameter name"),
])
def test_bad_variants_are_refused_before_anything_runs(vary, message):
    with pytest.raises(ValueError, match=message):
        sw.sweep("valhalla", vary, n_games=10, progress=False)


def test_parse_vary():
    assert sw.parse_vary(["a=1,2", "b = x"]) == {"a": ["1", "2"], "b": ["x"]}
    assert sw.parse_vary(["tiles=1,2,3;4,5,6"]) == {"tiles": ["1,2,3", "4,5,6"]}
    for bad in (["a"], ["a="], ["a=1,,2"]):
        with pytest.raises(ValueError, match="--vary"):
            sw.parse_vary(bad)
    with pytest.raises(ValueError, match="twice"):
        sw.parse_vary(["a=1", "a=2"])


def test_each_variant_equals_its_own_simulate_run():
    table = sw.sweep("valhalla", {"zero_runes_value": [4, 6]}, n_games=3000, seed=9, progress=False)
    assert table["zero_runes_value"].tolist() == [4, 6]
    assert table["games"].tolist() == [3000, 3000]
    for value, (_, row) in zip((4, 6), table.iterrows()):
        s = simulate("valhalla", ValhallaRules(zero_runes_value=value), 3000, seed=9, keep="summary", progress=False)
        m = design_metrics(s)
        for name in ("duration_turns", "branching_factor", "lead_changes", "first_player_win_rate"):
            assert row[name] == pytest.approx(m.loc[name, "value"], rel=1e-12), name
        assert row["win_rate_0"] == pytest.approx(s.win_rates()["win_rate"][0])
    assert table.attrs["seed"] == 9 and table.attrs["game"] == "valhalla"


def test_task_split_does_not_change_the_table():
    """The summaries' totals add exactly in any order: the decisiveness floats included."""
    one = sw.sweep("herrlof", {"hand_size": [10]}, n_games=900, seed=2, progress=False)
    split = sw.sweep("herrlof", {"hand_size": [10]}, n_games=900, seed=2, task_games=250, progress=False)
    pd.testing.assert_frame_equal(one, split, check_exact=True)
    assert 0 < one["decisiveness"].iloc[0] < 1


def test_player_count_can_be_swept():
    table = sw.sweep("attila", {"num_players": [2, 3]}, n_games=200, seed=1, progress=False)
    assert table["num_players"].tolist() == [2, 3]
    assert np.isnan(table.loc[0, "win_rate_2"]) and not np.isnan(table.loc[1, "win_rate_2"])


def test_dask_backend_equals_local_exactly(cluster_client):
    vary = {"zero_runes_value": [4, 5, 6], "extra_throw_enabled": [False, True]}
    local = sw.sweep("valhalla", vary, n_games=2000, seed=5, task_games=700, progress=False)
    remote = sw.sweep("valhalla", vary, n_games=2000, seed=5, task_games=700, progress=False,
                      backend="dask", client=cluster_client)
    pd.testing.assert_frame_equal(local, remote, check_exact=True)
    assert remote.attrs["backend"] == "dask"


def test_dask_backend_by_scheduler_address(cluster_client):
    address = cluster_client.scheduler.address
    local = sw.sweep("halali", {"end_phase_moves": [3, 5]}, n_games=300, seed=3, progress=False)
    remote = sw.sweep("halali", {"end_phase_moves": [3, 5]}, n_games=300, seed=3, progress=False,
                      backend="dask", scheduler=address)
    pd.testing.assert_frame_equal(local, remote, check_exact=True)


def test_dask_backend_needs_a_cluster():
    with pytest.raises(ValueError, match="client="):
        sw.sweep("valhalla", {"zero_runes_value": [4]}, n_games=10, backend="dask", progress=False)
    with pytest.raises(ValueError, match="backend='spark' is not allowed"):
        sw.sweep("valhalla", {"zero_runes_value": [4]}, n_games=10, backend="spark", progress=False)

"""Tests for ``toolkit.core.results``: the per-game frame (docs/architecture.md decision 5,
spec ``docs/rules/valhalla.md`` §6), its provenance attrs, and CSV / Parquet export."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest

import toolkit
from toolkit.core import results
from toolkit.games.valhalla.rules import Rules

SEAT_FIELDS = ("throws", "captures", "rock_hits", "dock_releases", "extra_throws", "backward_moves", "forfeits")
EXPECTED_COLUMNS = (
    ["game_index", "first_seat", "winner", "win_0", "win_1", "score_0", "score_1", "turns", "plies",
     "decisions", "options", "lead_changes", "decisive_turn", "result",
     "start_seat", "start_throws"]
    + [f"{name}_{seat}" for name in SEAT_FIELDS for seat in (0, 1)]
)
ATTR_KEYS = {"game", "preset", "rules", "rules_version", "policies", "seed", "n_games", "toolkit_version"}


@pytest.fixture(scope="module")
def df():
    # extra throws on, so every column (extra_throws_*) is exercised
    return toolkit.simulate("valhalla", n_games=500, seed=8, preset="alternative", policies="random,greedy",
                            progress=False)


@pytest.fixture(scope="module")
def aborted_df():
    return toolkit.simulate("valhalla", rules=Rules(max_turns=20), n_games=50, seed=1, progress=False)


def test_columns(df):
    assert list(df.columns) == EXPECTED_COLUMNS


def test_dtypes(df):
    assert df["game_index"].dtype == np.int64 and df["first_seat"].dtype == np.int64
    for c in EXPECTED_COLUMNS:
        if c not in ("game_index", "result"):
            assert pd.api.types.is_integer_dtype(df[c].dtype), c
    assert isinstance(df["result"].dtype, pd.CategoricalDtype)
    assert list(df["result"].cat.categories) == ["win", "aborted"]


def test_game_index(df):
    assert df["game_index"].tolist() == list(range(500))


def test_row_consistency(df):
    """Decision 5: winner, win_<seat> and score_<seat> agree."""
    assert set(df["result"].unique()) == {"win"}
    assert (df["win_0"] + df["win_1"] == 1).all()
    assert (df.loc[df["winner"] == 0, "win_0"] == 1).all()
    assert (df.loc[df["winner"] == 1, "win_1"] == 1).all()
    winners_score = np.where(df["winner"] == 0, df["score_0"], df["score_1"])
    losers_score = np.where(df["winner"] == 0, df["score_1"], df["score_0"])
    assert (winners_score == 6).all()
    assert ((losers_score >= 0) & (losers_score < 6)).all()
    assert df["start_seat"].isin([0, 1]).all()
    assert (df["first_seat"] == df["start_seat"]).all()  # Valhalla's first mover is its start seat (V-3)


def test_aborted_rows(aborted_df):
    assert set(aborted_df["result"].unique()) <= {"win", "aborted"}
    aborted = aborted_df[aborted_df["result"] == "aborted"]
    assert len(aborted) > 0
    assert (aborted["winner"] == -1).all()
    assert (aborted["win_0"] == 0).all() and (aborted["win_1"] == 0).all()
    assert (aborted["turns"] == 20).all()


def test_attrs(df):
    attrs = df.attrs
    assert set(attrs) >= ATTR_KEYS
    assert attrs["game"] == "valhalla"
    assert attrs["preset"] == "alternative"
    assert attrs["rules"] == Rules.preset("alternative").to_json()
    assert attrs["rules_version"] == Rules.RULES_VERSION
    assert attrs["policies"] == ["random", "greedy"]
    assert attrs["seed"] == 8
    assert attrs["n_games"] == 500
    assert attrs["toolkit_version"] == toolkit.__version__
    json.dumps(attrs)  # JSON-ready as written to the sidecar


def test_attrs_preset_none_for_custom_rules(aborted_df):
    assert aborted_df.attrs["preset"] is None
    assert aborted_df.attrs["rules"]["max_turns"] == 20
    assert Rules.from_json(aborted_df.attrs["rules"]) == Rules(max_turns=20)


def _check_round_trip(original, loaded):
    assert list(loaded.columns) == list(original.columns)
    assert loaded.attrs == json.loads(json.dumps(original.attrs))
    for c in original.columns:
        if c == "result":
            assert loaded[c].astype(str).tolist() == original[c].astype(str).tolist()
        else:
            assert loaded[c].tolist() == original[c].tolist(), c


def test_a_file_in_a_missing_folder_is_refused_not_made(df, tmp_path):
    """Issue 51: a typo in a folder's name made the folder (``/nonexistent_dir``, at the root of the disk)."""
    with pytest.raises(ValueError, match=r"the folder '.*typo' does not exist \(make it first\)"):
        toolkit.save(df, tmp_path / "typo" / "run.csv")
    assert not (tmp_path / "typo").exists()


def test_csv_round_trip(df, tmp_path):
    path = tmp_path / "run.csv"
    written = toolkit.save(df, path)
    assert written == [path, results.sidecar_path(path)]
    assert path.exists() and results.sidecar_path(path).exists()
    assert json.loads(results.sidecar_path(path).read_text()) == df.attrs
    loaded = toolkit.load(path)
    _check_round_trip(df, loaded)
    assert Rules.from_json(loaded.attrs["rules"]) == Rules.preset("alternative")


def test_parquet_round_trip(df, tmp_path):
    pytest.importorskip("pyarrow")
    path = tmp_path / "run.parquet"
    toolkit.save(df, path)
    assert results.sidecar_path(path).exists()
    loaded = toolkit.load(path)
    _check_round_trip(df, loaded)
    # Parquet keeps the dtypes, the categorical included
    assert isinstance(loaded["result"].dtype, pd.CategoricalDtype)
    for c in df.columns:
        assert loaded[c].dtype == df[c].dtype, c
    # save() must not strip the caller's attrs
    assert set(df.attrs) >= ATTR_KEYS


def test_load_without_sidecar(df, tmp_path):
    path = tmp_path / "bare.csv"
    toolkit.save(df, path)
    results.sidecar_path(path).unlink()
    loaded = toolkit.load(path)
    assert loaded.attrs == {}
    assert len(loaded) == len(df)


@pytest.mark.parametrize("name", ["run.txt", "run.xlsx", "run", "run.csv.gz"])
def test_bad_suffix_raises(df, tmp_path, name):
    with pytest.raises(ValueError, match="output"):
        toolkit.save(df, tmp_path / name)
    assert not (tmp_path / name).exists()


def test_first_seat_is_derived_from_every_kernel_column_whatever_the_frame_shows():
    """``first_seat`` (decision 5) comes right after ``game_index``, from the game's ``first_mover`` over
    the whole record, so a frame without the first mover's own column still has it; a game that
    declares no first mover has no such column."""
    spec = toolkit.GAMES["herrlof"]  # first_mover = 1 - first_dealer: the non-dealer moves first
    records = np.zeros((3, len(spec.columns)), np.int32)
    records[:, spec.columns.index("first_dealer")] = [0, 1, 1]
    shown = [c for c in spec.columns if c != "first_dealer"]
    df = results.to_frame(spec, records, 5, {}, columns=shown)
    assert df.columns.tolist() == ["game_index", "first_seat", *shown]
    assert df["first_seat"].tolist() == [1, 0, 0] and df["first_seat"].dtype == np.int64
    undeclared = results.to_frame(dataclasses.replace(spec, first_mover=None), records, 5, {})
    assert undeclared.columns.tolist() == ["game_index", *spec.columns]


def test_a_kernel_column_layout_that_does_not_fit_fails_at_import():
    """The kernels' result offsets come from the column names (toolkit.core.layout): a column moved or
    left out is an error naming it, not a silent shift of every column after it."""
    from toolkit.core.layout import block, offset, seat_run

    columns = ("winner", "win_0", "win_1", "score_0", "score_1", "turns")
    assert (offset(columns, "winner"), seat_run(columns, "win", 2), block(columns, ("win", "score"), 2)) == (0, 1, 1)
    with pytest.raises(ValueError, match=r"'score_1' is not at 2, 1 after 'score_0' \(found turns\)"):
        seat_run(("winner", "score_0", "turns", "score_1"), "score", 2)
    with pytest.raises(ValueError, match="no column 'plies'"):
        offset(columns, "plies")
    for game, spec in toolkit.GAMES.items():  # every kernel's offsets name their own columns
        kernel = spec.kernel
        assert kernel.COLUMNS[kernel.C_WINNER] == "winner" and kernel.COLUMNS[kernel.C_TURNS] == "turns", game
        assert kernel.COLUMNS[kernel.C_DECISIVE_TURN] == "decisive_turn", game


def test_a_result_code_the_declaration_does_not_name_is_said_so():
    """A kernel writing a code its game does not declare (Herrlof's draws, declared away) is refused by name,
    not by pandas' "codes need to be between -1 and len(categories)-1"."""
    herrlof = toolkit.GAMES["herrlof"]
    assert results.to_frame(herrlof, *_herrlof_records(herrlof)).shape[0] == 400  # the control: declared
    undeclared = dataclasses.replace(herrlof, results=("win",))
    with pytest.raises(ValueError, match=r"herrlof's kernel wrote result code\(s\) \[1\], which its labels \('win',\) "
                                         r"do not name: declare them \(GameSpec.results"):
        results.to_frame(undeclared, *_herrlof_records(undeclared))


def _herrlof_records(spec):
    """400 random games of Herrlof as the kernel writes them (some are draws, R-6.3): ``to_frame``'s arguments."""
    rules = spec.Rules()
    policies = ("random", "random")
    out = np.zeros((400, len(spec.columns)), np.int32)
    spec.play_many(*spec.prepare(rules, policies), 3, 0, out, np.zeros(400, np.int32), False)
    assert (out[:, list(spec.columns).index("result")] == 1).any()
    return out, 0, {}

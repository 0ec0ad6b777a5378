"""The numbers ``toolkit simulate --summary`` prints, recomputed from the per-game frame of the same run
(issue 15, point 6).

``tests/test_cli.py`` checks the summary's layout, and its ``-o`` comparison goes through the same
printer, so a printer that shows ``1 - win_rate`` for every seat passed all of it.  Here every number
the summary prints is read back from the text and compared with a value computed from
``toolkit.simulate(..., keep="games")`` of the same game, rules, policies, seed and number of games,
to the printed precision: wins, win rate and 95% Wilson interval per seat, the games nobody won (a
draw), the shared wins (a game that records ``n_winners``), the win rate by place in the turn order
(from the frame's ``first_seat``: issue 36, point 7) with the mean of the places, and the game length's
mean, standard error and quantiles.  The summary the CLI prints comes from the streaming ``Summary``, the expected
values from the frame's columns, so the two share nothing but ``stats.wilson`` (itself checked
against the roots of its quadratic in ``tests/core/test_stats.py``).

The cases: Valhalla with a strong and a weak seat (standard rules, and a preset with a ``--set``),
Halali with draws, Attila with 4 players and shared wins, Walhalla with 3 players.  Each checks that
it holds what it is there for (unequal seats, draws, shared wins).

Negative controls, each a one-line bug applied to a scratch copy of the code (``tests/test_cli.py``
and ``tests/test_cli_analysis.py`` stayed green with the first, second, fifth and sixth): ``1 - win_rate``
printed for every seat, the column of rates reversed, the seat numbers off by one, the no-winner
interval at z = 1.645, ``Summary.win_rates`` at z = 2.576, a standard error with ``ddof=0`` in
``mean_se_from_moments``, the policy column reversed (caught by the Valhalla cases) and shared wins
counted from 3 winners (caught by Attila and Walhalla).  For the places (issue 36, point 7): the table
printed from the seats' rows instead of the places' (caught by Valhalla, Attila and Walhalla, whose start
player varies), the places in reverse order, and the mean of the places printed as 1/seats (caught by the
draws and the shared wins).

``test_decided_shares_are_the_frames``: ``compare``'s share of the decided games (what an optional move is
worth, README's Herrlof steal) against the per-game frames of both seatings.  Negative controls: the
shares over every game (draws kept), a shared win left in a seat's sole wins (2-player Attila), the
matrix transposed, and the table not printed.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import toolkit
from toolkit.cli import main
from toolkit.core import stats
from toolkit.games import GAMES

PRINTED = 0.5e-4 + 1e-12  # half a unit of the 4th decimal: a value printed with "{:.4f}"
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)

RATE = r"(\d\.\d{4}) \[(\d\.\d{4}), (\d\.\d{4})\]"
SEAT_ROW = re.compile(r"^\s*(\d+)\s+(\S+)\s+(\d+)\s+" + RATE + r"$")
NO_WINNER = re.compile(r"^no winner: ([\d,]+) games, " + RATE + r"$")
SHARED = re.compile(r"^shared wins: ([\d,]+) games, " + RATE + r" \(a win for each tied seat\)$")
PLACE_ROW = re.compile(r"^(\d+)(?:st|nd|rd|th)\s+(\d+)\s+" + RATE + r"$")
PLACES_MEAN = re.compile(r"^mean of the places: (\d\.\d{4}) \(the fair share 1/(\d+) = (\d\.\d{4}), less the games "
                         r"nobody won, more the shared wins\)$")


# (game, CLI arguments, keyword arguments of toolkit.rules, policies, seed, games, what the case must hold)
CASES = {
    "valhalla-greedy-random": ("valhalla", [], {}, "greedy,random", 1, 400, "unequal seats"),
    "valhalla-alternative-set": ("valhalla", ["--preset", "alternative", "--set", "extra_throw_enabled=false"],
                                 {"preset": "alternative", "extra_throw_enabled": False}, "random,greedy", 7, 300,
                                 "unequal seats"),
    "halali-draws": ("halali", [], {}, "random,random", 2, 400, "draws"),
    "attila-4-players": ("attila", ["--players", "4"], {"num_players": 4}, "random", 1, 400, "shared wins"),
    "walhalla-3-players": ("walhalla", ["--players", "3"], {"num_players": 3}, "random", 2, 400, "shared wins"),
}


def _summary(out: str, game: str) -> dict:
    """The numbers of the summary ``toolkit simulate`` printed, as text pieces and numbers."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{game}: "))
    lines = lines[start:]
    header = re.fullmatch(r"(\S+): ([\d,]+) games, seed (\d+), (.*), policies (\S+)", lines[0])
    assert header, lines[0]
    seats = [SEAT_ROW.match(line) for line in lines]
    seats = [(int(m[1]), m[2], int(m[3]), float(m[4]), float(m[5]), float(m[6])) for m in seats if m]
    no_winner = [NO_WINNER.match(line) for line in lines]
    no_winner = [(int(m[1].replace(",", "")), float(m[2]), float(m[3]), float(m[4])) for m in no_winner if m]
    shared = [SHARED.match(line) for line in lines]
    shared = [(int(m[1].replace(",", "")), float(m[2]), float(m[3]), float(m[4])) for m in shared if m]
    title = "win rate by place in the turn order (1st = the seat that moved first):"
    assert lines.count(title) == 1, "no table of the places"
    places = [PLACE_ROW.match(line) for line in lines[lines.index(title):]]
    places = [(int(m[1]), int(m[2]), float(m[3]), float(m[4]), float(m[5])) for m in places if m]
    places_mean = [PLACES_MEAN.match(line) for line in lines]
    places_mean = [(float(m[1]), int(m[2]), float(m[3])) for m in places_mean if m]
    names = next(k for k, line in enumerate(lines) if line.split()[:2] == ["mean", "se"])
    length = dict(zip(lines[names].split(), lines[names + 1].split()))
    return {"n_games": int(header[2].replace(",", "")), "seed": int(header[3]), "label": header[4],
            "policies": header[5].split(","), "seats": seats, "no_winner": no_winner, "shared": shared,
            "places": places, "places_mean": places_mean, "length": length}


def _frame(game, rules_kw, policies, seed, n_games) -> pd.DataFrame:
    rules = toolkit.rules(game, **rules_kw)
    return toolkit.simulate(game, rules=rules, n_games=n_games, seed=seed, policies=policies, progress=False)


def _expected(frame: pd.DataFrame) -> dict:
    """Every number of the summary, from the frame's own columns (not through ``stats.win_rates``)."""
    n = len(frame)
    win_columns = sorted((c for c in frame.columns if re.fullmatch(r"win_\d+", c)), key=lambda c: int(c[4:]))
    winners = frame[win_columns].sum(axis=1)
    turns = frame["turns"].to_numpy(np.int64)
    # place k is the seat k after the one that moved first, going round in seat order
    first = frame["first_seat"].to_numpy(np.int64)
    won = frame[win_columns].to_numpy(np.int64)
    games = np.arange(n)
    place_wins = [int(won[games, (first + k) % len(win_columns)].sum()) for k in range(len(win_columns))]
    return {
        "n_games": n,
        "seats": [(int(c[4:]), int(frame[c].sum())) for c in win_columns],
        "places": place_wins,
        "no_winner": int((winners == 0).sum()),
        "shared": int((winners >= 2).sum()),
        "mean": float(turns.mean()),
        "se": float(turns.std(ddof=1) / np.sqrt(n)),
        # the summary's quantiles are the lower ones: the first value whose cumulative count reaches q * n
        "quantiles": {f"q{round(q * 100):02d}": int(np.quantile(turns, q, method="inverted_cdf"))
                      for q in QUANTILES},
    }


def _close(printed: float, value: float) -> bool:
    return abs(printed - value) <= PRINTED


def _check_rate(printed, successes: int, n: int, what: str) -> None:
    """``printed`` = (count, rate, low, high) equals ``successes`` of ``n`` with its Wilson 95% interval."""
    count, rate, low, high = printed
    want = stats.wilson(successes, n)
    assert count == successes, f"{what}: printed {count}, the frame has {successes}"
    assert all(_close(p, w) for p, w in zip((rate, low, high), want)), \
        f"{what}: printed {rate} [{low}, {high}], the frame gives {want}"


def _check_summary(out: str, game: str, frame: pd.DataFrame, policies: str, seed: int, purpose: str) -> None:
    got = _summary(out, game)
    want = _expected(frame)
    n = want["n_games"]
    assert (got["n_games"], got["seed"]) == (n, seed)
    seats = len(want["seats"])
    lineup = policies.split(",") * (seats if "," not in policies else 1)
    assert got["policies"] == lineup

    # per seat: its number, its policy, its wins, its win rate and interval
    assert [row[0] for row in got["seats"]] == list(range(seats))
    assert [row[1] for row in got["seats"]] == lineup
    for (seat, wins), row in zip(want["seats"], got["seats"]):
        _check_rate(row[2:], wins, n, f"seat {seat}")

    # draws and games stopped at a limit; shared wins where the game records them
    assert len(got["no_winner"]) == 1
    _check_rate(got["no_winner"][0], want["no_winner"], n, "no winner")
    if "n_winners" in frame.columns:
        assert len(got["shared"]) == 1
        _check_rate(got["shared"][0], want["shared"], n, "shared wins")
        # the game's own count of winners agrees with the win columns
        assert want["shared"] == int((frame["n_winners"] >= 2).sum())
        assert want["no_winner"] == int((frame["n_winners"] == 0).sum())
    else:
        assert got["shared"] == [] and want["shared"] == 0

    # by place in the turn order: 1st, 2nd, ... with wins and Wilson intervals, then their mean
    assert [row[0] for row in got["places"]] == list(range(1, seats + 1))
    for place, (wins, row) in enumerate(zip(want["places"], got["places"]), start=1):
        _check_rate(row[1:], wins, n, f"place {place}")
    assert len(got["places_mean"]) == 1
    mean, fair_seats, fair = got["places_mean"][0]
    assert _close(mean, sum(want["places"]) / (n * seats)), (mean, want["places"])
    assert (fair_seats, fair) == (seats, round(1 / seats, 4))

    # game length: mean, standard error (ddof=1) and the quantiles
    length = got["length"]
    assert list(length) == ["mean", "se", *want["quantiles"]]
    assert _close(float(length["mean"]), want["mean"]), (length["mean"], want["mean"])
    assert _close(float(length["se"]), want["se"]), (length["se"], want["se"])
    assert {k: int(length[k]) for k in want["quantiles"]} == want["quantiles"]

    # the case holds what it is there for, so the checks above have something to catch
    rates = [wins / n for _, wins in want["seats"]]
    if purpose == "unequal seats":
        assert max(rates) - min(rates) > 0.3, rates
    elif purpose == "draws":
        assert want["no_winner"] > 0
    elif purpose == "shared wins":
        assert want["shared"] > 0
    assert len(set(rates)) == len(rates), "equal seats would hide a mix-up of seats"
    if frame["first_seat"].nunique() > 1:  # the start player varies: places are not seats
        assert want["places"] != [wins for _, wins in want["seats"]], "places equal to seats"
    if want["no_winner"] or want["shared"]:  # the mean of the places is not 1 / seats
        assert not _close(sum(want["places"]) / (n * seats), 1 / seats)
    assert all(abs(r - 0.5) > 0.01 for r in rates), "a rate of 0.5 would hide 1 - rate"


def _argv(game, cli_args, policies, seed, n_games):
    return ["simulate", game, "-n", str(n_games), "--seed", str(seed), "--policies", policies, *cli_args,
            "--no-progress"]


@pytest.mark.parametrize("case", CASES)
def test_summary_numbers_are_the_frames(capsys, case):
    game, cli_args, rules_kw, policies, seed, n_games, purpose = CASES[case]
    code = main(_argv(game, cli_args, policies, seed, n_games))
    out, err = capsys.readouterr()
    assert code == 0, err
    frame = _frame(game, rules_kw, policies, seed, n_games)
    _check_summary(out, game, frame, policies, seed, purpose)


@pytest.mark.parametrize("case", ["valhalla-greedy-random", "halali-draws", "attila-4-players"])
@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_output_summary_numbers_are_the_frames_and_the_files(capsys, tmp_path, case, suffix):
    """``-o FILE --summary``: the printed numbers and the written rows are the frame's."""
    game, cli_args, rules_kw, policies, seed, n_games, purpose = CASES[case]
    path = tmp_path / f"run.{suffix}"
    code = main(_argv(game, cli_args, policies, seed, n_games) + ["-o", str(path), "--summary"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.splitlines()[0] == f"wrote {path}, {tmp_path / f'run.{suffix}.json'}"
    frame = _frame(game, rules_kw, policies, seed, n_games)
    _check_summary(out, game, frame, policies, seed, purpose)
    written = pd.read_csv(path) if suffix == "csv" else pd.read_parquet(path)
    counted = [c for c in frame.columns if re.fullmatch(r"win_\d+|n_winners|winner|turns|game_index", c)]
    assert list(written.columns) == list(frame.columns)
    for column in counted:
        assert written[column].tolist() == frame[column].tolist(), column


def test_the_summary_tells_the_seats_apart(capsys):
    """Swapping the seats' policies swaps their printed numbers: the rows follow the seats, not the order."""
    rows = {}
    for policies in ("greedy,random", "random,greedy"):
        assert main(_argv("valhalla", [], policies, 1, 400)) == 0
        out, _ = capsys.readouterr()
        rows[policies] = {row[1]: row[3] for row in _summary(out, "valhalla")["seats"]}
    assert rows["greedy,random"]["greedy"] > 0.8 and rows["random,greedy"]["greedy"] > 0.8
    assert rows["greedy,random"]["random"] < 0.2 and rows["random,greedy"]["random"] < 0.2


# (game, CLI arguments, keyword arguments of toolkit.rules, policies, seed, games per pairing, what it must hold)
DECIDED_CASES = {
    "herrlof-draws": ("herrlof", [], {}, "greedy,greedy:no_steal", 1, 400, "draws"),
    "attila-2-shared-wins": ("attila", ["--players", "2"], {"num_players": 2}, "random,greedy", 3, 300, "shared wins"),
}
DECIDED_TITLE = re.compile(r"^row policy's share of the decided games \(a sole winner\) against the column policy, "
                           r"both seatings pooled \[95% CI\]; the ([\d,]+) games without a sole winner left out:$")


def _decided_table(out: str) -> tuple[int, dict]:
    """The games left out and ``{(row, column): (rate, low, high)}`` of the decided-games matrix ``compare`` printed."""
    lines = out.splitlines()
    titles = [k for k, line in enumerate(lines) if DECIDED_TITLE.match(line)]
    assert len(titles) == 1, "no table of the shares of the decided games"
    start = titles[0]
    columns = lines[start + 1].split()[1:]
    cells = {}
    for line in lines[start + 2: start + 2 + len(columns)]:
        row, *rest = re.split(r"\s{2,}", line.strip())
        for column, cell in zip(columns, rest):
            cells[row, column] = tuple(float(x) for x in re.fullmatch(RATE, cell).groups())
    return int(DECIDED_TITLE.match(lines[start])[1].replace(",", "")), cells


@pytest.mark.parametrize("case", DECIDED_CASES)
def test_decided_shares_are_the_frames(capsys, case):
    """``compare``'s share of the decided games: A's sole wins against B over both seatings' games that had a
    sole winner, with its Wilson 95% interval, each cell from the per-game frames of the same seed."""
    game, cli_args, rules_kw, policies, seed, n_games, purpose = DECIDED_CASES[case]
    code = main(["compare", game, "--policies", policies, "-n", str(n_games), "--seed", str(seed), *cli_args,
                 "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0, err
    left_out, cells = _decided_table(out)
    names = policies.split(",")
    frames = {(a, b): _frame(game, rules_kw, f"{a},{b}", seed, n_games) for a in names for b in names}
    sole = {pair: frame[["win_0", "win_1"]].to_numpy().sum(axis=1) == 1 for pair, frame in frames.items()}
    undecided = sum(int((~mask).sum()) for mask in sole.values())
    assert left_out == undecided
    assert set(cells) == {(a, b) for a in names for b in names}
    for a in names:
        for b in names:
            wins = int((frames[a, b]["win_0"].to_numpy() == 1)[sole[a, b]].sum()
                       + (frames[b, a]["win_1"].to_numpy() == 1)[sole[b, a]].sum())
            decided = int(sole[a, b].sum() + sole[b, a].sum())
            want = stats.wilson(wins, decided)
            assert all(_close(p, w) for p, w in zip(cells[a, b], want)), (a, b, cells[a, b], want)
    # the case holds what it is there for: undecided games of its kind, and unequal players
    every = {pair: frame[["win_0", "win_1"]].to_numpy().sum(axis=1) for pair, frame in frames.items()}
    kind = {"draws": 0, "shared wins": 2}[purpose]
    assert sum(int((w == kind).sum()) for w in every.values()) > 0, purpose
    a, b = names
    assert abs(cells[a, b][0] - 0.5) > 0.02, "equal players would hide a transposed matrix"

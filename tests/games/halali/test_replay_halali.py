"""The Halali replay: the positions of one seeded game, checked against the kernel's record of that game."""

from __future__ import annotations

import pytest

import toolkit
from toolkit.games.halali import kernel
from toolkit.games.halali import reference as ref
from toolkit.games.halali.replay import Snapshot, positions
from toolkit.games.halali.rules import KINDS

STANDARD = toolkit.rules("halali")
CASES = [  # (rules, seed, game_index, policies)
    (STANDARD, 2024, 0, ("greedy", "random")),
    (STANDARD, 7, 3, ("random", "random")),
    (STANDARD, 11, 5, ("random", "greedy")),
    (STANDARD, 3, 1, ("lookahead", "greedy")),
    (STANDARD, 1, 205, ("greedy", "random")),  # an automatic end-phase pass
    (STANDARD, 1, 1296, ("greedy", "random")),  # an early end (H-5)
    (toolkit.rules("halali", match_games=2), 5, 2, ("greedy", "random")),
    (toolkit.rules("halali", first_player="brown", rescue_neutrals=True, exits_only_in_end_phase=False), 9, 4,
     ("random", "random")),
]


def _record(rules, seed, game_index, policies):
    df = toolkit.simulate("halali", rules, 1, seed=seed, first_game=game_index, policies=",".join(policies),
                          progress=False)
    return df.iloc[0]


def _games(snaps):
    out = {}
    for s in snaps:
        out.setdefault(s.game, []).append(s)
    return [out[g] for g in sorted(out)]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"seed{c[1]}-game{c[2]}-{'-'.join(c[3])}")
def case(request):
    rules, seed, game_index, policies = request.param
    return rules, positions(rules, seed, game_index, policies), _record(rules, seed, game_index, policies)


def test_final_snapshot_matches_the_kernel_record(case):
    rules, snaps, row = case
    last = snaps[-1]
    assert last.over and last.to_move == -1
    assert last.match_scores == (row["score_0"], row["score_1"])
    assert last.match_tiles == (row["tiles_0"], row["tiles_1"])
    games = _games(snaps)
    assert len(games) == rules.match_games
    assert sum(g[-1].turn for g in games) == row["turns"]
    assert sum(g[-1].ply for g in games) == row["plies"]
    assert games[0][-1].end_reason == row["end_reason"]
    for seat in (0, 1):
        for k, kind in enumerate(KINDS):
            assert sum(g[-1].captured[seat].count(k) for g in games) == row[f"captures_{kind}_{seat}"]
            assert sum(g[-1].rescued[seat].count(k) for g in games) == row[f"rescues_{kind}_{seat}"]


def test_one_snapshot_per_action_plus_the_start(case):
    _, snaps, row = case
    assert [s.index for s in snaps] == list(range(len(snaps)))
    for game in _games(snaps):
        start, last = game[0], game[-1]
        assert (start.turn, start.ply, start.action, start.seat, start.move) == (0, 0, "", -1, None)
        assert len(game) == last.turn + 1
        assert [s.turn for s in game] == list(range(len(game)))
        passes = sum(s.action == "pass" for s in game)
        assert last.ply == last.turn - passes
        assert all(not s.over for s in game[:-1])
    assert sum(s.action == "pass" for s in snaps) == row["passes_0"] + row["passes_1"]


def test_tiles_are_conserved_in_every_snapshot(case):
    _, snaps, _ = case
    for s in snaps:
        taken = sum(len(c) for c in s.captured) + sum(len(r) for r in s.rescued)
        assert s.on_board == 48 - taken, s.caption()
        assert s.tiles == tuple(len(s.captured[i]) + len(s.rescued[i]) for i in (0, 1))
        assert len(s.grid) == 49
        assert s.face_down == sum(t is not None and not t[1] for t in s.grid)


def test_start_position(case):
    rules, snaps, _ = case
    for game in _games(snaps):
        start = game[0]
        assert start.grid[24] is None  # d4
        assert start.face_down == 48 and start.phase == "main" and start.scores == (0, 0)
        first_colour = {"blue": 0, "brown": 1}[rules.first_player]
        assert start.colour[start.to_move] == first_colour
    if rules.match_games == 2:
        assert _games(snaps)[1][0].colour == (1, 0)  # H-8: colours swapped
        assert _games(snaps)[1][0].match_scores == _games(snaps)[0][-1].match_scores


def test_each_action_changes_the_board_as_its_text_says(case):
    rules, snaps, _ = case
    points = [rules.points[k] for k in KINDS]
    for before, after in zip(snaps, snaps[1:]):
        if after.game != before.game:
            continue
        seat = after.seat
        assert seat == before.to_move
        gained = after.scores[seat] - before.scores[seat]
        text = after.action
        if before.phase == "end":  # H-4: every end-phase action, a pass included, uses one of the seat's
            assert after.end_left[seat] == before.end_left[seat] - 1
            assert after.end_left[1 - seat] == before.end_left[1 - seat]
        elif after.face_down == 0 and not after.over:  # the last reveal starts the end phase
            assert after.phase == "end" and after.end_left == (rules.end_phase_moves,) * 2
        if text == "pass":
            assert after.grid == before.grid and gained == 0 and after.phase == "end"
            continue
        kind, s, d, n = after.move
        if kind == ref.REVEAL:
            assert text.startswith(f"reveal {'abcdefg'[s % 7]}{s // 7 + 1}: {KINDS[after.grid[s][0]]}")
            assert not before.grid[s][1] and after.grid[s][1]
            assert after.face_down == before.face_down - 1 and gained == 0
            continue
        mover = before.grid[s]
        assert text.startswith(f"{KINDS[mover[0]]} ") and after.grid[s] is None
        assert after.face_down == before.face_down
        if text.endswith(" exits"):
            assert after.to_square == -1 and after.rescued[seat][-1] == mover[0]
            assert gained == points[mover[0]]
        elif " captures " in text:
            victim = before.grid[after.to_square]
            assert text.endswith(f"captures {KINDS[victim[0]]}") and victim[1]
            assert after.captured[seat][-1] == victim[0] and gained == points[victim[0]]
            assert after.grid[after.to_square] == mover  # the gun direction travels with the hunter
        else:
            assert before.grid[after.to_square] is None and after.grid[after.to_square] == mover
            assert gained == 0


def test_capture_squares_match_the_kernel_heat_map():
    seed, game_index, policies = 2024, 6, ("greedy", "random")
    snaps = positions(STANDARD, seed, game_index, policies)
    heat, rows = kernel.capture_heat(kernel.to_kernel(STANDARD), kernel.policy_ids(policies), seed, game_index, 1)
    squares = [s.to_square for s in snaps if " captures " in s.action]
    assert heat.sum() == len(squares) > 0
    for sq in set(squares):
        assert heat[sq // 7, sq % 7] == squares.count(sq)


def test_snapshots_are_frozen_and_policies_checked():
    snaps = positions(seed=1, policies="random")
    assert isinstance(snaps[0], Snapshot)
    with pytest.raises(Exception):
        snaps[0].turn = 3
    assert snaps[-1].match_scores == tuple(_record(STANDARD, 1, 0, ("random", "random"))[["score_0", "score_1"]])
    with pytest.raises(ValueError, match="policies"):
        positions(STANDARD, 1, policies=("greedy", "clever"))


def test_view_is_the_public_position(case):
    rules, snaps, _ = case
    for s in snaps[:: max(1, len(snaps) // 10)]:
        view = s.view(rules)
        assert view.seat == (s.to_move if s.to_move >= 0 else 0)
        assert sum(view.face_down_counts) == s.face_down
        assert all(c >= 0 for c in view.face_down_counts)
        hidden = [t for t in s.grid if t is not None and not t[1]]
        assert sorted(k for k, _, _ in hidden) == sorted(k for k, c in enumerate(view.face_down_counts)
                                                         for _ in range(c))
        for t, v in zip(s.grid, view.grid):
            assert (t is None) == (v is None)
            if t is not None:
                assert v == (ref.FACE_DOWN if not t[1] else (t[0], -1, t[2]))

"""The Walhalla board picture: fields, Vikings, tips, dragons and panel as drawn; the replay's positions."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

import toolkit  # noqa: E402
from toolkit.games.walhalla import reference as ref  # noqa: E402
from toolkit.games.walhalla.data import load_dragons  # noqa: E402
from toolkit.games.walhalla.viz import (  # noqa: E402
    H, Mooring, MooringLog, Position, draw_board, main, parts, position_of, replay,
)

STANDARD = toolkit.rules("walhalla")
THREE = toolkit.rules("walhalla", num_players=3)
DRAGONS = load_dragons()


@pytest.fixture(autouse=True)
def close_figures(monkeypatch):
    def no_show(*args, **kwargs):
        raise AssertionError("plt.show() called")

    monkeypatch.setattr(plt, "show", no_show)
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def positions():
    return replay(STANDARD, seed=2024, game_index=0)


def _check_drawing(ax, position: Position):
    """Everything drawn matches the position, artist by artist."""
    fields = parts(ax, "field")
    for k in range(3):
        on_k = sorted(i for (kk, i), _ in fields if kk == k)
        assert on_k == list(range(2 * position.lengths[k])), "2 x tiles fields per peninsula"
        assert len([a for (kk, _), a in parts(ax, "tile") if kk == k]) == position.lengths[k]
    # one disc per occupied field, in the occupant's colour, and none elsewhere
    vikings = sorted(key for key, _ in parts(ax, "viking"))
    expected = sorted((k, i, o) for k in range(3) for i, o in enumerate(position.occupant[k]) if o >= 0)
    assert vikings == expected
    # the tips: two shapes and two numbers per peninsula
    tips = {(k, which): a.get_text() for (k, which), a in parts(ax, "tip") if hasattr(a, "get_text")}
    assert tips == {**{(k, "inner"): str(position.inner_tip[k]) for k in range(3)},
                    **{(k, "outer"): str(position.outer_tip[k]) for k in range(3)}}
    # dragons: one hull per mooring, as many per fjord as moored there
    hulls = sorted(key for key, _ in parts(ax, "dragon"))
    assert hulls == sorted((m.fjord, m.slot) for m in position.moorings)
    seats = {key[:3]: key[3] for key, _ in parts(ax, "seat")}
    assert len(seats) == 3 * len(position.moorings)
    for m in position.moorings:
        for j in range(3):
            assert seats[(m.fjord, m.slot, j)] == (m.colour if j == m.seat else -1)
    crew = sorted(key for key, _ in parts(ax, "crew"))
    assert crew == sorted((m.fjord, m.slot, j, c) for m in position.moorings for j, c in enumerate(m.crew) if c >= 0)
    # the panel: one row per player
    panel = {(p, key): a.get_text() for (p, key), a in parts(ax, "panel")}
    n = position.num_players
    assert {p for p, _ in panel} == set(range(n))
    for p in range(n):
        assert panel[(p, "vp")] == str(position.vp[p])
        assert panel[(p, "midgard")] == str(position.midgard[p])
        assert panel[(p, "asgard")] == str(position.asgard[p])
        assert panel[(p, "walhalla")] == str(position.walhalla[p])
        assert panel[(p, "cards")] == str(position.hand_sizes[p])
    assert ax.get_xlabel() and ax.get_ylabel()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["F0", "P0", "F1", "P1", "F2", "P2", "F3"]


def test_replay_events_and_the_same_game_as_the_kernel(positions):
    events = [p.event for p in positions]
    record = toolkit.simulate("walhalla", STANDARD, 1, seed=2024, policies="greedy", progress=False).iloc[0]
    assert events.count("turn") == record["turns"]
    assert events.count("raid end") == STANDARD.raids - 1 and events[-1] == "end"
    assert events.count("start") == STANDARD.raids
    assert [p.index for p in positions] == list(range(len(positions)))
    final = positions[-1]
    assert list(final.vp) == [int(record[f"score_{s}"]) for s in range(4)]
    assert [p for p in range(4) if record[f"win_{p}"]] == list(final.winners)
    for r in range(STANDARD.raids):
        turns = [p for p in positions if p.raid == r and p.event == "turn"]
        assert [p.turn_in_raid for p in turns] == list(range(1, record[f"turns_raid_{r}"] + 1))
        # one more dragon moored after every turn, the turn's dragon last
        assert [len(p.moorings) for p in turns] == [p.turn_in_raid for p in turns]
        ends = [p for p in positions if p.raid == r and p.event in ("raid end", "end")]
        assert len(ends) == 1 and len(ends[0].moorings) == record[f"turns_raid_{r}"]
    assert positions[0].event == "start" and not positions[0].moorings and positions[0].vp == (0, 0, 0, 0)
    # each raid uses each dragon at most once; the coloured seat is the dragon set's
    for r in range(STANDARD.raids):
        end = [p for p in positions if p.raid == r and p.event in ("raid end", "end")][0]
        assert len({m.dragon for m in end.moorings}) == len(end.moorings)
        for m in end.moorings:
            assert (m.colour, m.seat) == (DRAGONS.colours[m.dragon], DRAGONS.seats[m.dragon])


def test_replay_slots_positions_and_changed_fields(positions):
    for p in positions:
        counts = [0, 0, 0, 0]
        for m in p.moorings:
            assert m.slot == counts[m.fjord]  # the s-th dragon of the fjord ...
            assert m.positions == (3 * m.slot + 1, 3 * m.slot + 2, 3 * m.slot + 3)  # ... at 3s+1..3s+3 (§3.4)
            counts[m.fjord] += 1
    for before, after in zip(positions, positions[1:]):
        diff = {(k, i) for k in range(3) for i, o in enumerate(after.occupant[k]) if o != before.occupant[k][i]}
        assert set(after.changed) == diff
    # the cleanup between raids: only wheat fields stay occupied at a later raid's start
    for p in positions:
        if p.event == "start" and p.raid > 0:
            for k in range(3):
                for i, o in enumerate(p.occupant[k]):
                    assert o < 0 or p.field_type[k][i] == 3


def test_replay_crew_is_who_boarded():
    """The crew the log notes at DP-3 is the dragon's seats: the active player, or the colour owner on the
    coloured seat; each one lands (or returns to Midgard) when the dragon moors."""
    positions = replay(STANDARD, seed=5, game_index=3, policies=("random",) * 4)
    for p in positions:
        if p.event != "turn":
            continue
        m = p.moorings[-1]
        for j, c in enumerate(m.crew):
            assert c in (-1, p.active) or (j == m.seat and c == m.colour)


@pytest.mark.parametrize("index", [0, 5, 12, 20, -1])
def test_draw_replay_positions(positions, index):
    ax = draw_board(positions[index])
    assert isinstance(ax, matplotlib.axes.Axes)
    _check_drawing(ax, positions[index])
    assert ax.get_title() == positions[index].caption()


def test_the_last_turn_is_outlined(positions):
    turn = [p for p in positions if p.event == "turn"][6]
    ax = draw_board(turn)
    lasts = [a for _, a in parts(ax, "last")]
    assert len(lasts) == 1
    last = turn.moorings[-1]
    ys = [y for _, y in lasts[0].get_xy()]
    assert min(ys) >= 3 * last.slot * H and max(ys) <= (3 * last.slot + 3) * H
    changed = sorted(key for key, _ in parts(ax, "changed"))
    assert changed == sorted(turn.changed)
    assert not parts(draw_board(turn, highlight=False), "last")
    raid_end = [p for p in positions if p.event == "raid end"][0]
    assert not parts(draw_board(raid_end), "last")


@pytest.mark.parametrize("tiles", [(5, 6, 7), (8, 5, 5), (7, 5, 6), (5, 5, 5)])
def test_variable_lengths(tiles):
    rules = toolkit.rules("walhalla", num_players=4, peninsula_tiles=tiles)
    positions = replay(rules, seed=11, game_index=1, policies=("random",) * 4)
    end = [p for p in positions if p.event == "raid end"][0]
    assert end.lengths == tiles
    ax = draw_board(end)
    _check_drawing(ax, end)
    # dragons may moor beyond the shorter peninsula, never beyond the fjord's reach (§3.4)
    for m in end.moorings:
        reach = max(2 * tiles[k] for k in (m.fjord - 1, m.fjord) if 0 <= k <= 2)
        assert m.positions[0] <= reach


def test_variable_preset_draws_18_tiles():
    rules = toolkit.rules("walhalla", "variable")
    seen = set()
    for g in range(6):
        end = replay(rules, seed=2, game_index=g)[-1]
        assert sum(end.lengths) == 18 and sorted(end.lengths) in ([5, 5, 8], [5, 6, 7], [6, 6, 6])
        seen.add(end.lengths)
        _check_drawing(draw_board(end), end)
    assert len(seen) > 1


def test_three_players():
    positions = replay(THREE, seed=2024, game_index=0)
    record = toolkit.simulate("walhalla", THREE, 1, seed=2024, policies="greedy", progress=False).iloc[0]
    assert list(positions[-1].vp) == [int(record[f"score_{s}"]) for s in range(3)]
    end = [p for p in positions if p.event == "raid end"][0]
    ax = draw_board(end)
    _check_drawing(ax, end)
    assert len(parts(ax, "swatch")) == 3
    # yellow's dragons stay in the deck, their coloured seat always empty (W-2.4)
    yellow = [m for m in end.moorings if m.colour == 3]
    assert all(m.crew[m.seat] == -1 for m in yellow)
    assert all(c in (-1, 0, 1, 2) for m in end.moorings for c in m.crew)


def test_position_of_from_an_observer_at_any_moment():
    """position_of works mid-game: the log's dragons match game.moored at every decision point."""
    log = MooringLog()
    seen = []

    def observer(game, decision, choice):
        log(game, decision, choice)
        if decision.kind in (ref.DP_LANDING, ref.DP_RAID_CARDS, ref.DP_SELL):
            p = position_of(game, log.current(game))
            assert [sum(m.fjord == f for m in p.moorings) for f in range(4)] == list(game.moored)
            seen.append(p)

    game = ref.play_game(STANDARD, 9, 0, ("random",) * 4, observer=observer)
    assert seen and len(seen) < game.plies
    ax = draw_board(seen[len(seen) // 2])
    _check_drawing(ax, seen[len(seen) // 2])


def test_position_of_without_a_log_draws_anonymous_dragons():
    log = MooringLog()
    game = ref.play_game(STANDARD, 4, 0, ("greedy",) * 4, observer=log)
    ax = draw_board(game)  # a reference Game: the counts only
    hulls = parts(ax, "dragon")
    assert len(hulls) == sum(game.moored) == game.turns_per_raid[-1]
    assert {key[3] for key, _ in parts(ax, "seat")} == {-2}
    assert not parts(ax, "crew")
    named = position_of(game, log.current(game))
    assert sorted((m.fjord, m.slot) for m in named.moorings) == sorted(key for key, _ in hulls)


def test_position_of_refuses_moorings_that_do_not_match():
    log = MooringLog()
    game = ref.play_game(STANDARD, 4, 0, ("greedy",) * 4, observer=log)
    moorings = log.current(game)
    with pytest.raises(ValueError, match="moored_dragons is not allowed"):
        position_of(game, moorings[:-1])
    triples = [(m.fjord, m.dragon, m.crew) for m in moorings]
    assert position_of(game, triples).moorings == position_of(game, moorings).moorings
    assert isinstance(moorings[0], Mooring)


def test_main_writes_the_picture(tmp_path, capsys):
    path = tmp_path / "board.png"
    assert main([str(path)]) == 0
    assert path.stat().st_size > 20_000
    assert "wrote" in capsys.readouterr().out


def test_replay_refuses_wrong_policies():
    with pytest.raises(ValueError, match="one per seat"):
        replay(THREE, policies=("greedy",) * 4)

"""Valhalla seen and played (issue 38): the words of every §5 decision, the position snapshot, the picture.

Hand-built positions are set up as in ``test_scenarios.py`` (a reference :class:`Game` with a given
:class:`State` and scripted sticks); seeded games are stepped through the protocol
(``start``/``advance``/``apply``) as ``tests/conformance/test_protocol.py::lockstep`` does.
Valhalla hides nothing, so there is no hidden-information check beyond "every seat sees the same picture".
"""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

import toolkit  # noqa: E402
from toolkit.games.valhalla import reference, view  # noqa: E402
from toolkit.games.valhalla.reference import Game, ScriptedSticks, State, evaluate_sticks  # noqa: E402
from toolkit.games.valhalla.viz import draw  # noqa: E402

SPEC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "valhalla.md"
STANDARD = toolkit.rules("valhalla")
ALTERNATIVE = toolkit.rules("valhalla", "alternative")
OFF = 37

# sticks (S, T, G, H), 1 = rune up, and their runes value (§3.4)
ST = (1, 1, 0, 0)  # 2
STG = (1, 1, 1, 0)  # 3
STGH = (1, 1, 1, 1)  # 4
S = (1, 0, 0, 0)  # natural one
STH = (1, 1, 0, 1)  # unnatural one


@pytest.fixture(autouse=True)
def no_show(monkeypatch):
    def show(*args, **kwargs):
        raise AssertionError("plt.show() called")

    monkeypatch.setattr(plt, "show", show)


def pad(squares, n=6):
    """A seat's ships: ``squares`` and borne-off ships up to ``n``."""
    return list(squares) + [OFF] * (n - len(squares))


def decide(seat0, seat1, sticks, rules=STANDARD, seat=0, start_seat=1, repairing=None):
    """A hand-built game at the decision after ``seat`` throws ``sticks``; seat 0 is white unless ``start_seat=0``."""
    state = State.from_positions(pad(seat0), pad(seat1), repairing=repairing)
    game = Game(rules, (None, None), ScriptedSticks([evaluate_sticks(rules, sticks)]), state=state)
    game.record.start_seat = start_seat
    game.seat, game.phase = seat, "throw"
    return game, game.advance()


def words(game, decision):
    return [view.describe(game, decision, option) for option in decision.options]


def played(rules, seed=7, game_index=0, policies=("random", "random")):
    """Every decision of one seeded game as ``(game, decision)`` before its option is applied, then ``(game, None)``."""
    game = reference.new_game(rules, seed, game_index, policies)
    game.start()
    while (decision := game.advance()) is not None:
        yield game, decision
        game.apply(decision, game.choose(decision))
    yield game, None


# ---------------------------------------------------------------------- §5 names


def test_decisions_are_the_spec_section_5_names():
    section = SPEC.read_text().split("## 5.")[1].split("## 6.")[0]
    names = dict((int(n), name.strip()) for n, name in re.findall(r"^\| DP-(\d) ([a-z ]+?) \|", section, re.M))
    assert names == {1: "move", 2: "extra throw"}
    assert view.DECISIONS == names


# ---------------------------------------------------------------------- describe: DP-1 move


def test_v5_7_forward_move_hitting_the_black_ship():
    # seat 0 plays white (seat 1 started, so it is black); a 3 from 14 lands on black's 17 (not protected)
    game, decision = decide([14, 6], [17, 8, 9], STG)
    assert words(game, decision) == ["move the ship on 6 to 9, hitting the black ship",
                                     "move the ship on 14 to 17, hitting the black ship"]
    # the same from black's side names the white ship
    game, decision = decide([17, 8], [14], STG, seat=1)
    assert words(game, decision) == ["move the ship on 14 to 17, hitting the white ship"]


def test_v5_1_enter_a_ship_from_home_and_the_safe_entry_square():
    game, decision = decide([0, 0, 7], [8], STG)
    assert words(game, decision) == ["move the ship on 7 to 10", "enter a ship from home to 3"]
    # with the entry squares unsafe, entering onto an opponent attacks and sends it home (V-5.7)
    rules = toolkit.rules("valhalla", safe_squares=frozenset({29, 32, 34}))
    game, decision = decide([0], [3, 20], STG, rules=rules)
    assert words(game, decision) == ["enter a ship from home to 3, hitting the black ship, sending it home"]


def test_v5_4_bear_off_and_valhalla():
    # the gate is open (no ship on 1..12 nor at home): 36 bears off, 34 runs into Valhalla (exact_or_over)
    game, decision = decide([34, 36], [20], STG)
    assert words(game, decision) == ["move the ship on 34 to Valhalla (36)", "bear off the ship on 36"]
    # valhalla_entry = direct_off: two ships bear off with the same throw, each named by its square
    rules = toolkit.rules("valhalla", valhalla_entry="direct_off")
    game, decision = decide([34, 35], [20], STG, rules=rules)
    assert words(game, decision) == ["bear off the ship on 34", "bear off the ship on 35"]


def test_v5_5_forced_backward_move():
    # no forward move: with valhalla_entry = exact 35 + 2 overshoots, and 27 + 2 = 29 is a safe square
    # holding black; so the whole throw goes backward (V-5.5), attacking black's lone ship on 25
    rules = toolkit.rules("valhalla", valhalla_entry="exact")
    game, decision = decide([27, 35], [29, 25], ST, rules=rules)
    assert words(game, decision) == ["move the ship on 27 back to 25, hitting the black ship",
                                     "move the ship on 35 back to 33"]


def test_v6_3_rock_says_where_the_ship_goes():
    game, decision = decide([27, 10], [20], STG)  # 27 + 3 = 30, the rock; the dock (19) is empty
    assert words(game, decision) == [
        "move the ship on 10 to 13",
        "move the ship on 27 to 30 on the rock, which sends it to the dock (19) for repair"]
    game, decision = decide([27], [19, 20], STG)  # the dock is taken, square 1 is free
    assert words(game, decision) == ["move the ship on 27 to 30 on the rock, which sends it to 1"]


def test_v5_3_release_the_ship_under_repair():
    game, decision = decide([19, 22], [25], S, repairing=(0, 19))
    assert words(game, decision) == ["release the ship under repair on 19 to 20", "move the ship on 22 to 23"]
    # an unnatural one does not release it (dock_release = natural_one)
    game, decision = decide([19, 22], [25], STH, repairing=(0, 19))
    assert words(game, decision) == ["move the ship on 22 to 23"]


# ---------------------------------------------------------------------- describe: DP-2 extra throw


def test_v4_5_extra_throw_words():
    game, decision = decide([14], [25], STGH, rules=ALTERNATIVE)
    assert decision.kind == 1
    game.apply(decision, decision.options[0])
    decision = game.advance()
    assert (view.DECISIONS[decision.kind], decision.seat) == ("extra throw", 0)
    assert words(game, decision) == ["throw again", "end the turn"]


# ---------------------------------------------------------------------- describe: seeded games


VARIANTS = {
    "standard": STANDARD,
    "alternative": ALTERNATIVE,
    # rule variants that bring out the other kinds of text
    "direct_off": toolkit.rules("valhalla", valhalla_entry="direct_off", backward_rule="one_square"),
    "hagalaz_back": toolkit.rules("valhalla", hagalaz_alone_value=-1, safe_squares=frozenset({29, 32, 34})),
}


def test_every_option_of_a_decision_has_its_own_words():
    seen_kinds, texts = set(), []
    for name, rules in VARIANTS.items():
        for game_index in range(3):
            for game, decision in played(rules, seed=11, game_index=game_index):
                if decision is None:
                    continue
                said = words(game, decision)
                assert all(said), (name, game_index, said)
                assert len(set(said)) == len(said), (name, game_index, said)
                seen_kinds.add(decision.kind)
                texts.extend(said)
    assert seen_kinds == set(view.DECISIONS)
    # every kind of move text occurred, so the check above covered them all
    for part in ("enter a ship from home to", "move the ship on", "hitting the black ship", "hitting the white ship",
                 " back to ", "to Valhalla (36)", "bear off the ship on", "on the rock, which sends it to the dock",
                 "release the ship under repair on", "throw again", "end the turn"):
        assert any(part in t for t in texts), part


# ---------------------------------------------------------------------- position


def test_position_holds_the_board_the_throw_and_the_decision():
    game, decision = decide([0, 25, 26, 36], [19, 14, 31, 32], STG, repairing=(1, 19))
    snap = view.position(game, decision)
    assert snap.ships == (tuple(pad([0, 25, 26, 36])), tuple(pad([19, 14, 31, 32])))
    assert snap.repairing == ((False,) * 6, (True,) + (False,) * 5)
    assert snap.colours == ("white", "black")
    assert snap.score == (2, 2)
    assert snap.protected_runs == (25, 26, 31, 32)  # runs of two in 25..35 (V-6.4c)
    assert (snap.sticks, snap.throw_value, snap.natural_one) == (STG, 3, False)
    assert (snap.kind, snap.deciding_seat, snap.to_play, snap.over, snap.winner) == (1, 0, 0, False, None)
    assert (snap.safe_squares, snap.dock_square, snap.rock_square, snap.blockade_zone) == (
        (1, 2, 3, 4, 5, 29, 32, 34), 19, 30, (25, 35))


def test_position_at_the_end_of_a_game():
    *_, (game, last) = played(STANDARD, seed=3)
    snap = view.position(game)
    assert last is None and snap.over and snap.to_play is None and snap.kind is None
    assert snap.winner == game.record.winner and snap.score[snap.winner] == 6
    assert snap.ships[snap.winner] == (OFF,) * 6


def test_position_is_a_copy_that_later_moves_do_not_change():
    snaps = []
    for game, decision in played(ALTERNATIVE, seed=5):
        if decision is not None:
            snap = view.position(game, decision)
            snaps.append((snap, repr(snap), [list(p) for p in game.state.pos]))
    hash(snaps[0][0])  # plain immutable data
    for snap, text, ships in snaps:
        assert repr(snap) == text
        assert [list(p) for p in snap.ships] == ships
    assert snaps[0][0].ships != snaps[-1][0].ships  # the game did move on


# ---------------------------------------------------------------------- draw


def gids(ax):
    return [a.get_gid() for a in ax.patches + ax.texts + ax.lines + [ax.title] if a.get_gid()]


def drawn_ships(ax):
    """``{seat: sorted squares}`` read back from the ``ship-<seat>-<square>`` artists."""
    ships = {0: [], 1: []}
    for gid in (p.get_gid() for p in ax.patches):
        if gid and gid.startswith("ship-"):
            _, seat, square = gid.split("-")
            ships[int(seat)].append(int(square))
    return {seat: sorted(squares) for seat, squares in ships.items()}


def check_picture(ax, snap):
    assert drawn_ships(ax) == {seat: sorted(snap.ships[seat]) for seat in (0, 1)}
    patches = [p.get_gid() for p in ax.patches if p.get_gid()]
    repairing = sorted(g for g in patches if g.startswith("repairing-"))
    assert repairing == sorted(f"repairing-{seat}-{square}" for seat in (0, 1)
                               for square, r in zip(snap.ships[seat], snap.repairing[seat]) if r)
    sticks = [g for g in patches if g.startswith("stick-")]
    assert sticks == [f"stick-{rune}-{up}" for rune, up in zip("STGH", snap.sticks)]
    throws = [t.get_gid() for t in ax.texts if (t.get_gid() or "").startswith("throw-")]
    assert throws == ([f"throw-{snap.throw_value}"] if snap.sticks else [])
    assert sorted(g for g in patches if g.startswith("protected-")) == sorted(
        f"protected-{square}" for square in snap.protected_runs)
    expected = (f"to-play-{snap.to_play}" if not snap.over
                else f"winner-{snap.winner}" if snap.winner is not None else "aborted")
    assert ax.title.get_gid() == expected
    counts = [t.get_text() for t in ax.texts if " home: " in t.get_text() or " borne off: " in t.get_text()]
    assert sorted(counts) == sorted([f"{snap.colours[s]} (seat {s}) home: {snap.ships[s].count(0)}" for s in (0, 1)]
                                    + [f"{snap.colours[s]} (seat {s}) borne off: {snap.score[s]}" for s in (0, 1)])


def test_draw_every_decision_of_a_game_reads_back_the_position():
    # a game of 199 decisions with both kinds, a ship under repair at 57 of them, protected runs at 21
    # and ships in Valhalla at 162 (one Axes, cleared: 200 new figures would cost more than the drawing)
    fig, ax = plt.subplots()
    seen = set()
    for game, decision in played(ALTERNATIVE, seed=38, policies=("greedy", "random")):
        snap = view.position(game, decision)
        ax.clear()
        assert draw(snap, ax=ax) is ax
        check_picture(ax, snap)
        seen |= {("kind", snap.kind), ("repairing", any(map(any, snap.repairing))), ("runs", bool(snap.protected_runs)),
                 ("over", snap.over)}
    plt.close(fig)
    assert {("kind", 1), ("kind", 2), ("repairing", True), ("runs", True), ("over", True)} <= seen


def test_draw_a_hand_built_position_shows_the_special_squares():
    game, decision = decide([0, 26, 27, 36, 36], [19, 14, 31, 32, 36], STG, repairing=(1, 19))
    snap = view.position(game, decision)
    fig, ax = plt.subplots()
    assert draw(snap, ax=ax) is ax
    check_picture(ax, snap)
    labels = sorted(t.get_gid() for t in ax.texts if t.get_gid() and t.get_gid().split("-")[0] in
                    ("safe", "dock", "rock", "valhalla"))
    assert labels == sorted(["dock-19", "rock-30", "valhalla-36"] + [f"safe-{s}" for s in (1, 2, 3, 4, 5, 29, 32, 34)])
    assert sorted(p.get_gid() for p in ax.patches if (p.get_gid() or "").startswith("square-")) == sorted(
        f"square-{n}" for n in range(1, 37))
    assert [p.get_gid() for p in ax.patches].count("blockade-zone") == 1  # 25..35 lies in row 3
    assert ax.get_title() == "Valhalla, turn 0: white (seat 0) to play: move"
    plt.close(fig)


def test_draw_is_the_same_for_every_seat_valhalla_hides_nothing():
    game, decision = decide([0, 26, 27, 36], [19, 14, 31, 32], STG, repairing=(1, 19))
    snap = view.position(game, decision)
    pictures = []
    for seat in (None, 0, 1):
        ax = draw(snap, seat=seat)
        pictures.append((sorted(gids(ax)), sorted(t.get_text() for t in ax.texts), ax.get_title()))
        plt.close(ax.figure)
    assert pictures[0] == pictures[1] == pictures[2]

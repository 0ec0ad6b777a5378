"""Halali seen and played (issue 38): ``view.describe``, ``view.position`` and ``viz.draw``.

The words are checked on hand-built positions (one per kind of option of §5's DP-1) and over
seeded games: the options of one decision all read differently, and no text depends on a
face-down tile's face.  The snapshot is checked to be a copy.  The drawing is checked by reading
the values back from the gids of its artists.
"""

from __future__ import annotations

import copy
import dataclasses
import pathlib
import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

import toolkit  # noqa: E402
from toolkit.games.halali import reference as ref  # noqa: E402
from toolkit.games.halali import view  # noqa: E402
from toolkit.games.halali.rules import (  # noqa: E402
    BEAR, BLUE, BROWN, DIRECTIONS, DUCK, FOX, HUNTER, KINDS, PHEASANT, TREE, Rules, square_name,
)
from toolkit.games.halali.viz import draw  # noqa: E402

STANDARD = toolkit.rules("halali")
SPEC = pathlib.Path(__file__).resolve().parents[3] / "docs" / "rules" / "halali.md"
# every preset, and a variant that reaches the rest of the words: exits in the main phase, neutral
# exits, and a second game with the colours swapped
RULE_SETS = [toolkit.rules("halali", preset) for preset in Rules.PRESETS] + [
    toolkit.rules("halali", match_games=2, exits_only_in_end_phase=False, rescue_neutrals=True)]
SEEDS = (1, 2, 3)


@pytest.fixture(autouse=True)
def no_show(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("plt.show() called")

    monkeypatch.setattr(plt, "show", refuse)


def hand_built(tiles, phase="main", to_move=0):
    """A State with ``tiles`` = [(square name, kind, face up, gun)], seat 0 Blue; the DP-1 of ``to_move``."""
    grid = [None] * 49
    for i, (name, kind, face_up, gun) in enumerate(tiles):
        grid[ref.parse_square(name)] = ref.Tile(kind=kind, id=i, face_up=face_up, dir=gun)
    state = ref.State(rules=STANDARD, grid=grid, colour=[BLUE, BROWN], to_move=to_move, phase=phase)
    state.face_down = sum(t is not None and not t.face_up for t in grid)
    if phase == "end":
        state.end_left = [5, 5]
    return state, ref.Decision(1, to_move, ref.legal_actions(state, to_move), state)


def words(state, decision) -> dict:
    """{action: text} for every option of ``decision``."""
    return {option: view.describe(state, decision, option) for option in decision.options}


def seeded_decisions(rules, seed, policies=("random", "random")):
    """(game, decision, chosen option) at every DP-1 of one seeded game, applied after use."""
    game = ref.new_game(rules, seed, 0, policies)
    game.start()
    while (decision := game.advance()) is not None:
        option = game.choose(decision)
        yield game, decision, option
        game.apply(decision, option)


# ---------------------------------------------------------------------- DECISIONS


def test_decisions_are_the_spec_section_5_names():
    """§5's table: one row per DP, "| DP-n name |"."""
    rows = re.findall(r"^\| DP-(\d+) ([^|]+?) \|", SPEC.read_text(), flags=re.M)
    assert {int(n): name for n, name in rows} == view.DECISIONS == {1: "action"}


# ---------------------------------------------------------------------- describe, hand-built


def test_h2_1_reveal_names_only_the_square():
    state, decision = hand_built([("c4", HUNTER, False, 1), ("e2", FOX, False, -1), ("a1", BEAR, True, -1)])
    text = words(state, decision)
    assert text[(ref.REVEAL, ref.parse_square("c4"), 0, 0)] == "reveal c4"  # not "hunter", not its gun
    assert text[(ref.REVEAL, ref.parse_square("e2"), 0, 0)] == "reveal e2"
    assert text[(ref.MOVE, ref.parse_square("a1"), 0, 1)] == "bear a1 north 1"


def test_h3_4_hunter_captures_along_its_gun():
    # Brown's hunter on b2 aims north at a face-up fox on b5; a pheasant on d2 to the east
    state, decision = hand_built([("b2", HUNTER, True, 0), ("b5", FOX, True, -1), ("d2", PHEASANT, True, -1),
                                  ("g7", TREE, False, -1)], to_move=1)
    text = words(state, decision)
    b2 = ref.parse_square("b2")
    assert text[(ref.MOVE, b2, 0, 3)] == "hunter b2 north 3, capturing the fox"
    assert text[(ref.MOVE, b2, 0, 2)] == "hunter b2 north 2"
    assert text[(ref.MOVE, b2, 1, 1)] == "hunter b2 east 1"
    assert (ref.MOVE, b2, 1, 2) not in text  # the pheasant is east, off the gun: no capture (H-3.4)
    assert text[(ref.MOVE, ref.parse_square("d2"), 3, 1)] == "pheasant d2 west 1"  # neutral: Brown moves it too
    assert text[(ref.REVEAL, ref.parse_square("g7"), 0, 0)] == "reveal g7"


def test_h3_4_fox_takes_a_duck():
    state, decision = hand_built([("f6", FOX, True, -1), ("c6", DUCK, True, -1), ("a1", TREE, False, -1)])
    text = words(state, decision)
    assert text[(ref.MOVE, ref.parse_square("f6"), 3, 3)] == "fox f6 west 3, capturing the duck"
    assert text[(ref.MOVE, ref.parse_square("f6"), 2, 5)] == "fox f6 south 5"


def test_h3_7_exits_in_the_end_phase():
    state, decision = hand_built([("d7", BEAR, True, -1), ("d3", FOX, True, -1), ("g4", HUNTER, True, 2)],
                                 phase="end")
    text = words(state, decision)
    assert text[(ref.MOVE, ref.parse_square("d7"), 0, 1)] == "bear d7 north 1, leaving by the exit"
    assert text[(ref.MOVE, ref.parse_square("d3"), 2, 3)] == "fox d3 south 3, leaving by the exit"  # via d1
    assert text[(ref.MOVE, ref.parse_square("d3"), 2, 2)] == "fox d3 south 2"
    assert not any(o[0] == ref.REVEAL for o in decision.options)  # nothing left face down


# ---------------------------------------------------------------------- describe, seeded games


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"match{r.match_games}")
@pytest.mark.parametrize("seed", SEEDS)
def test_every_option_of_a_decision_reads_differently(rules, seed):
    kinds_seen = set()
    for game, decision, _ in seeded_decisions(rules, seed):
        texts = [view.describe(game, decision, option) for option in decision.options]
        assert len(set(texts)) == len(texts), [t for t in texts if texts.count(t) > 1]
        kinds_seen |= {t.split(",")[-1].split()[0] if "," in t else t.split()[0] for t in texts}
    assert {"reveal", "capturing", "leaving"} <= kinds_seen  # reveals, captures and exits all came up


def _scrambled(state):
    """``state`` with every face-down tile's face and gun changed (what no player can see)."""
    other = state.copy()
    for i, tile in enumerate(other.grid):
        if tile is not None and not tile.face_up:
            tile.kind, tile.dir = (HUNTER, (i + 1) % 4) if tile.kind != HUNTER else (TREE, -1)
    return other


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"match{r.match_games}")
def test_the_words_do_not_depend_on_face_down_tiles(rules):
    """The same decision over a board whose hidden faces differ reads the same (the hidden rule)."""
    reveals = 0
    for game, decision, _ in seeded_decisions(rules, SEEDS[0]):
        blind = ref.Decision(decision.kind, decision.seat, decision.options, _scrambled(decision.state))
        for option in decision.options:
            text = view.describe(game, decision, option)
            assert text == view.describe(game, blind, option)
            if option[0] == ref.REVEAL:
                reveals += 1
                assert text == f"reveal {square_name(option[1])}"
                assert not any(k in text for k in KINDS + ("gun",))
    assert reveals > 100


# ---------------------------------------------------------------------- position


def test_position_is_a_frozen_copy():
    steps = seeded_decisions(STANDARD, 4)
    for _ in range(30):
        game, decision, _ = next(steps)
    snap = view.position(game, decision)
    kept = copy.deepcopy(snap)  # plain values as they were, whatever snap holds
    hash(snap)  # tuples, ints and strings all the way down
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.turn = 0
    for game, decision, _ in steps:  # the game moves on to its end
        pass
    assert snap == kept
    assert view.position(game) != snap


def test_position_values():
    state, decision = hand_built([("b2", HUNTER, True, 0), ("b5", FOX, True, -1), ("d2", PHEASANT, True, -1),
                                  ("g7", TREE, False, -1)], to_move=1)
    state.lock = 2  # the pheasant (tile id 2), just moved by Blue
    state.captured[0] = [DUCK]
    snap = view.position(state, ref.Decision(1, 1, ref.legal_actions(state, 1), state))
    assert snap.grid[ref.parse_square("b2")] == (HUNTER, True, 0)
    assert snap.grid[ref.parse_square("g7")] == (TREE, False, -1)  # hidden information is kept
    assert (snap.lock, snap.scores, snap.tiles, snap.captured) == (ref.parse_square("d2"), (2, 0), (1, 0),
                                                                   ((DUCK,), ()))
    assert (snap.seat, snap.kind, snap.face_down, snap.to_move, snap.phase) == (1, 1, 1, 1, "main")
    assert snap.options == len(ref.legal_actions(state, 1))
    assert view.position(state).seat == -1 and view.position(state).kind == 0


def test_position_of_the_return_game_sums_the_match():
    rules = RULE_SETS[-1]
    for game, decision, _ in seeded_decisions(rules, 2):
        pass
    first, second = game.games
    end = view.position(game)
    assert (end.game, end.match_games, end.over, end.to_move, end.lock) == (1, 2, True, -1, -1)
    assert end.colour == (BROWN, BLUE)  # H-8: the colours swap
    assert end.match_scores == (first.score(0) + second.score(0), first.score(1) + second.score(1))
    assert end.scores == (second.score(0), second.score(1))


# ---------------------------------------------------------------------- draw


def _gids(ax) -> list:
    return [a.get_gid() for a in ax.patches + ax.texts if a.get_gid()]


def _read_back(ax) -> dict:
    """The drawn values, from the gids: {prefix: set of the rest}."""
    out = {}
    for gid in _gids(ax):
        head, _, rest = gid.partition("-")
        if head == "hidden" and rest.startswith("gun-"):
            head, rest = "hidden-gun", rest[4:]
        out.setdefault(head, set()).add(rest)
    return out


def _check_drawing(ax, snap, seat):
    drawn = _read_back(ax)
    up = {(KINDS[c[0]], square_name(s)) for s, c in enumerate(snap.grid) if c is not None and c[1]}
    down = {(KINDS[c[0]], square_name(s), c[2]) for s, c in enumerate(snap.grid) if c is not None and not c[1]}
    assert drawn.get("tile", set()) == {f"{k}-{s}" for k, s in up}
    assert drawn.get("gun", set()) == {f"{square_name(s)}-{DIRECTIONS[c[2]]}" for s, c in enumerate(snap.grid)
                                       if c is not None and c[1] and c[0] == HUNTER}
    assert drawn.get("back", set()) == {s for _, s, _ in down}
    assert drawn["score"] == {f"{s}-{snap.scores[s]}" for s in (0, 1)}
    assert drawn.get("lock", set()) == ({square_name(snap.lock)} if snap.lock >= 0 else set())
    for text in ax.texts:  # each seat's text names what it captured
        if (text.get_gid() or "").startswith("score-"):
            s = int(text.get_gid().split("-")[1])
            assert f"{snap.tiles[s]} tiles" in text.get_text()
            assert all(KINDS[k] in text.get_text() for k in snap.captured[s] + snap.rescued[s])
    if seat is None:
        assert drawn.get("hidden", set()) == {f"{k}-{s}" for k, s, _ in down}
        assert drawn.get("hidden-gun", set()) == {f"{s}-{DIRECTIONS[g]}" for k, s, g in down if k == "hunter"}
        assert "open tiles" in ax.get_title()
    else:  # nothing face down is drawn face up: no hidden gid, no letter on a face-down square
        assert not any(g.startswith("hidden") for g in _gids(ax))
        hidden_squares = {(s % 7, s // 7) for s, c in enumerate(snap.grid) if c is not None and not c[1]}
        on_board = [t for t in ax.texts if t.get_transform() == ax.transData]
        assert not [t.get_text() for t in on_board if tuple(round(v) for v in t.get_position()) in hidden_squares]
        assert "open" not in ax.get_title() and f"seat {seat}" in ax.get_title().splitlines()[-1]


def test_draw_every_decision_of_a_seeded_game():
    """Each decision is drawn once, in turn open, for the deciding seat and for the other seat."""
    n = 0
    for game, decision, _ in seeded_decisions(STANDARD, 5):
        snap = view.position(game, decision)
        seat = (None, decision.seat, 1 - decision.seat)[n % 3]
        ax = draw(snap, seat=seat)
        _check_drawing(ax, snap, seat)
        assert f"{len(decision.options)} options" in ax.get_title()
        plt.close(ax.figure)
        n += 1
    end = view.position(game)
    for seat in (None, 0):
        ax = draw(end, seat=seat)
        _check_drawing(ax, end, seat)
        assert "game over" in ax.get_title()
        plt.close(ax.figure)
    assert n > 50


def test_draw_a_return_game_with_face_down_hunters():
    steps = seeded_decisions(RULE_SETS[-1], 3)
    for game, decision, _ in steps:
        snap = view.position(game, decision)
        hidden_hunters = sum(c is not None and not c[1] and c[0] == HUNTER for c in snap.grid)
        if len(game.games) == 2 and hidden_hunters >= 2:
            break
    fig, ax = plt.subplots()
    assert draw(snap, ax=ax) is ax
    _check_drawing(ax, snap, None)
    assert len(_read_back(ax)["hidden-gun"]) == hidden_hunters
    assert "game 2 of 2" in ax.get_title()
    assert any("match:" in t.get_text() for t in ax.texts)
    fig.canvas.draw()  # renders
    plt.close(fig)

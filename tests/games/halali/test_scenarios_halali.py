"""Scenario tests for Halali: a hand-built position for every numbered rule of ``docs/rules/halali.md``.

Every expected value is read off the spec (the contract), never computed by the
reference.  Positions are built by :func:`position` from a map of square names
to tile codes: a letter for the kind (``B`` bear, ``F`` fox, ``L`` lumberjack,
``H`` hunter, ``P`` pheasant, ``D`` duck, ``T`` tree), a hunter's gun direction
after its letter (``"HN"``), and a ``?`` in front for a face-down tile.  The
reference counts face-down tiles in ``State.face_down``; the helper sets it.

Main-phase positions get face-down trees on the four corners (``SPARE``) unless
told otherwise: there must be face-down tiles in the main phase (H-2), and
revealing one is a harmless "idle" action for the player who is not under test.

The rule number is in each test name (``h3_4`` is H-3.4, ``s5`` is §5).
"""

from __future__ import annotations

import collections

import pytest

from toolkit.core.rng import CHANCE, Stream
from toolkit.games.halali import policies
from toolkit.games.halali import reference as ref
from toolkit.games.halali.rules import (
    BEAR, BLUE, BROWN, DUCK, FOX, HUNTER, KINDS, LUMBERJACK, PHEASANT, TREE, Rules, square_name,
)

STD = Rules()
N, E, S, W = range(4)
LETTER = {"B": BEAR, "F": FOX, "L": LUMBERJACK, "H": HUNTER, "P": PHEASANT, "D": DUCK, "T": TREE}
SPARE = {"a1": "?T", "g1": "?T", "a7": "?T", "g7": "?T"}


def sq(name: str) -> int:
    return ref.parse_square(name)


def position(tiles: dict, rules=STD, to_move=0, phase="main", colour=(BLUE, BROWN), spare=None, **fields):
    """A hand-built state; ``spare`` (default: in the main phase) adds face-down corner trees."""
    if spare is None:
        spare = phase == "main"
    layout = dict(SPARE) if spare else {}
    layout.update(tiles)
    st = ref.State(rules=rules, grid=[None] * 49, colour=list(colour), to_move=to_move)
    down = 0
    for i, (name, code) in enumerate(layout.items()):
        face_up = not code.startswith("?")
        code = code.lstrip("?")
        kind = LETTER[code[0]]
        gun = -1
        if kind == HUNTER:
            assert len(code) == 2, "a hunter needs a gun direction"
            gun = "NESW".index(code[1])
        assert st.grid[sq(name)] is None
        st.grid[sq(name)] = ref.Tile(kind, 100 + i, face_up=face_up, dir=gun)
        down += not face_up
    st.face_down = down
    st.phase = phase
    if phase == "end":
        assert down == 0, "no face-down tile is left in the end phase"
        st.end_left = [rules.end_phase_moves, rules.end_phase_moves]
    else:
        assert down > 0, "the main phase always has a face-down tile"
    for key, value in fields.items():
        setattr(st, key, value)
    return st


def at(st, name):
    return st.grid[sq(name)]


def dest(action) -> str:
    """Target square name of a move, or ``outN`` ... for an exit."""
    t = ref.step(action[1], action[2], action[3])
    return "out" + "NESW"[action[2]] if t < 0 else square_name(t)


def moves(st, seat):
    return [a for a in ref.legal_actions(st, seat) if a[0] == ref.MOVE]


def targets(st, seat, origin: str) -> set:
    return {dest(a) for a in moves(st, seat) if a[1] == sq(origin)}


def movable(st, seat) -> set:
    return {square_name(a[1]) for a in moves(st, seat)}


def reveals(st, seat) -> list:
    return [square_name(a[1]) for a in ref.legal_actions(st, seat) if a[0] == ref.REVEAL]


def play(st, seat, origin: str, target: str):
    """Apply the one legal move of ``seat`` from ``origin`` to ``target``."""
    assert st.to_move == seat and not st.over
    found = [a for a in moves(st, seat) if a[1] == sq(origin) and dest(a) == target]
    assert len(found) == 1, f"{origin}->{target} is not legal: {sorted(dest(a) for a in moves(st, seat))}"
    ref.apply_action(st, seat, found[0])


def reveal(st, seat, name: str):
    assert st.to_move == seat and not st.over
    action = (ref.REVEAL, sq(name), 0, 0)
    assert action in ref.legal_actions(st, seat)
    ref.apply_action(st, seat, action)


def idle(st, seat):
    """A harmless action: reveal the first spare corner tree still face down."""
    for name in SPARE:
        t = at(st, name)
        if t is not None and not t.face_up and t.kind == TREE:
            reveal(st, seat, name)
            return
    raise AssertionError("no spare face-down tree left")


def line(origin: str, d: int, n: int) -> set:
    """The ``n`` squares from ``origin`` in direction ``d`` (names)."""
    return {square_name(ref.step(sq(origin), d, k)) for k in range(1, n + 1)}


def install(monkeypatch, st, policy_cls=None):
    """Make ``ref.play_game`` start from the hand-built ``st`` (and use ``policy_cls`` in both seats)."""
    monkeypatch.setattr(ref, "setup", lambda rules, chance, colour0=BLUE: st.copy())
    if policy_cls is not None:
        monkeypatch.setattr(policies, "make_policy", lambda name, rules, stream: policy_cls())


def run(rules, seed, game, names=("random", "random"), observer=None, limit=12_000):
    """``ref.play_game`` with a guard: with ``progress_limit`` <= 60 a game has at most
    95 * 61 + 10 actions (H-7), so a game that goes past ``limit`` fails instead of hanging."""
    seen = [0]

    def guarded(st, seat, options, action):
        seen[0] += 1
        assert seen[0] <= limit, "the game does not end (H-7)"
        if observer is not None:
            observer(st, seat, options, action)

    return ref.play_game(rules, seed, game, names, observer=guarded)


class FirstMove:
    """Scripted: the first move (plain, capture or exit) if there is one, else the first option."""

    def choose(self, view, options):
        return next((a for a in options if a[0] == ref.MOVE), options[0])


class FirstOption:
    def choose(self, view, options):
        return options[0]


# ================================================================ H-1 setup


@pytest.mark.parametrize("seed", range(6))
def test_h1_1_setup_puts_48_face_down_tiles_around_an_empty_d4(seed):
    st = ref.setup(STD, Stream(seed, 3, CHANCE))
    assert st.grid[sq("d4")] is None
    tiles = [t for t in st.grid if t is not None]
    assert len(tiles) == 48 and st.face_down == 48
    assert all(not t.face_up for t in tiles)
    assert sorted(t.id for t in tiles) == list(range(48))
    counts = collections.Counter(KINDS[t.kind] for t in tiles)
    assert counts == {"bear": 2, "fox": 6, "lumberjack": 2, "hunter": 8, "pheasant": 8, "duck": 7, "tree": 15}
    assert st.phase == "main" and st.lock == -1 and st.last_move == [None, None]
    assert st.captured == [[], []] and st.rescued == [[], []] and not st.over


def test_h1_1_setup_follows_tile_counts():
    rules = Rules(tile_counts={"tree": 13, "duck": 9, "hunter": 6, "fox": 8})
    st = ref.setup(rules, Stream(5, 0, CHANCE))
    counts = collections.Counter(KINDS[t.kind] for t in st.grid if t is not None)
    assert counts == {"bear": 2, "fox": 8, "lumberjack": 2, "hunter": 6, "pheasant": 8, "duck": 9, "tree": 13}
    assert st.grid[sq("d4")] is None


def test_h1_1_setup_shuffle_is_uniform():
    """Every tile is equally likely on each of the 48 squares (a loose chi-square bound)."""
    n = 2400
    where = collections.Counter()
    trees_on_a1 = 0
    for g in range(n):
        st = ref.setup(STD, Stream(11, g, CHANCE))
        for s, t in enumerate(st.grid):
            if t is not None and t.id == 0:
                where[s] += 1
        trees_on_a1 += st.grid[0].kind == TREE
    assert sq("d4") not in where and len(where) == 48
    expected = n / 48
    chi2 = sum((where[s] - expected) ** 2 / expected for s in range(49) if s != sq("d4"))
    assert chi2 < 110, chi2  # 47 degrees of freedom: mean 47, sd 9.7
    assert abs(trees_on_a1 / n - 15 / 48) < 0.05


def test_h1_2_every_hunter_gets_an_independent_uniform_gun_direction():
    dirs = collections.Counter()
    mixed = 0
    for g in range(300):
        st = ref.setup(STD, Stream(2, g, CHANCE))
        hunters = [t for t in st.grid if t is not None and t.kind == HUNTER]
        assert len(hunters) == 8
        assert all(t.dir in (N, E, S, W) for t in hunters)
        assert all(t.dir == -1 for t in st.grid if t is not None and t.kind != HUNTER)
        dirs.update(t.dir for t in hunters)
        mixed += len({t.dir for t in hunters}) > 1
    total = sum(dirs.values())
    for d in range(4):
        assert abs(dirs[d] / total - 0.25) < 0.03, dirs
    assert mixed >= 295  # all eight alike has probability 4 / 4**8


def test_h1_3_seat0_is_blue_and_seat1_brown():
    st = ref.setup(STD, Stream(1, 0, CHANCE))
    assert st.colour == [BLUE, BROWN]
    games = run(STD, 4, 0)
    assert len(games) == 1 and games[0].colour == [BLUE, BROWN]


def test_h1_4_blue_moves_first_by_default_and_brown_when_set():
    for g in range(5):
        assert ref.setup(STD, Stream(1, g, CHANCE)).to_move == 0
        assert ref.setup(STD.replace(first_player="brown"), Stream(1, g, CHANCE)).to_move == 1
    seen = []
    run(STD.replace(first_player="brown"), 1, 0,
        observer=lambda st, seat, options, action: seen.append(seat))
    assert seen[0] == 1


def test_h1_4_random_first_player_is_a_fair_coin_drawn_before_the_shuffle():
    rules = STD.replace(first_player="random")
    firsts = []
    for g in range(400):
        st = ref.setup(rules, Stream(8, g, CHANCE))
        coin = Stream(8, g, CHANCE)
        blue_first = coin.below(2) == 0
        assert st.to_move == (0 if blue_first else 1)
        # the coin comes first: the rest of the stream gives the same layout as a fixed first player
        rest = ref.setup(STD, coin)
        assert [(t.kind, t.id, t.dir) if t else None for t in st.grid] == \
               [(t.kind, t.id, t.dir) if t else None for t in rest.grid]
        firsts.append(st.to_move)
    assert 0.42 < firsts.count(0) / len(firsts) < 0.58


def test_h1_5_players_alternate_one_action_each():
    st = position({"d2": "F", "f5": "L"})
    seats = []
    for _ in range(6):
        seat = st.to_move
        seats.append(seat)
        ref.apply_action(st, seat, moves(st, seat)[0])
    assert seats == [0, 1, 0, 1, 0, 1]
    assert st.turns == 6 and st.main_turns == 6


# ================================================================ H-2 main-phase turn


def test_h2_1_reveal_turns_the_tile_face_up_in_place_keeping_the_gun_direction():
    st = position({"c3": "?HE", "d2": "F"}, last_move=[(7, 1, 2), None])
    before = st.face_down
    reveal(st, 0, "c3")
    t = at(st, "c3")
    assert t.face_up and t.kind == HUNTER and t.dir == E
    assert st.face_down == before - 1
    assert st.reveals == [1, 0]
    assert st.last_move[0] is None  # §3: None after a reveal
    assert st.to_move == 1 and st.turns == 1 and st.since_progress == 0


def test_h2_2_move_slides_a_face_up_tile_and_records_last_move():
    st = position({"b2": "F", "e5": "L"})
    fox = at(st, "b2").id
    play(st, 0, "b2", "b5")
    assert at(st, "b2") is None and at(st, "b5").id == fox
    assert st.last_move[0][:2] == (fox, sq("b2"))
    assert st.face_down == 4 and st.reveals == [0, 0]


def test_h2_2_a_face_down_tile_cannot_be_moved_only_revealed():
    st = position({"b2": "?F", "e5": "?L", "c3": "D"})
    assert movable(st, 0) == {"c3"} and movable(st, 1) == {"c3"}
    assert reveals(st, 0) == ["a1", "g1", "b2", "e5", "a7", "g7"]


def test_h2_forced_reveal_after_progress_limit_non_progress_actions():
    rules = STD.replace(progress_limit=3)
    st = position({"d4": "F", "b6": "L"}, rules=rules, since_progress=2)
    assert movable(st, 0) == {"d4"}
    play(st, 0, "d4", "d5")  # a plain move: 3 actions without progress
    assert st.since_progress == 3
    opts = ref.legal_actions(st, 1)
    assert opts and all(a[0] == ref.REVEAL for a in opts)
    assert [square_name(a[1]) for a in opts] == ["a1", "g1", "a7", "g7"]
    assert ref.forced_reveal(st)
    reveal(st, 1, "g1")
    assert st.since_progress == 0 and not ref.forced_reveal(st)
    assert movable(st, 0) == {"d5"}


def test_h2_forced_reveal_is_off_with_progress_limit_0():
    st = position({"d4": "F"}, rules=STD.replace(progress_limit=0), since_progress=5000)
    assert movable(st, 0) == {"d4"} and not ref.forced_reveal(st)


def test_h2_progress_is_a_reveal_a_capture_or_an_exit_and_resets_the_counter():
    rules = STD.replace(exits_only_in_end_phase=False)
    st = position({"d5": "F", "d2": "HN", "b3": "D", "f6": "L"}, rules=rules, since_progress=7)
    play(st, 0, "d5", "d6")  # plain
    assert st.since_progress == 8
    play(st, 1, "f6", "f5")  # plain
    assert st.since_progress == 9
    play(st, 0, "d6", "outN")  # exit
    assert st.since_progress == 0
    play(st, 1, "f5", "f4")
    assert st.since_progress == 1
    st.grid[sq("b6")] = ref.Tile(FOX, 500, face_up=True)
    play(st, 0, "b6", "b3")  # capture of the duck
    assert st.since_progress == 0 and st.captured[0] == [DUCK]
    play(st, 1, "f4", "f3")
    assert st.since_progress == 1
    idle(st, 0)  # reveal
    assert st.since_progress == 0


def _capture_position(rules, phase="main"):
    # the fox on a5 can take the duck on a2 or leave by d-less moves; in the end phase the fox on d5 can exit
    tiles = {"a5": "F", "a2": "D", "d5": "F", "f6": "L"}
    return position(tiles, rules=rules, phase=phase, spare=None if phase == "main" else False)


def test_h2_forced_capture_off_by_default_keeps_every_option():
    st = _capture_position(STD)
    opts = ref.legal_actions(st, 0)
    assert any(a[0] == ref.REVEAL for a in opts)
    assert {dest(a) for a in opts if a[0] == ref.MOVE and a[1] == sq("a5")} == {"a6", "a4", "a3", "a2", "b5", "c5"}


def test_h2_forced_capture_on_leaves_only_captures():
    st = _capture_position(STD.replace(forced_capture=True))
    opts = ref.legal_actions(st, 0)
    assert opts == [(ref.MOVE, sq("a5"), S, 3)]
    assert dest(opts[0]) == "a2"


def test_h2_forced_capture_yields_to_a_forced_reveal():
    rules = STD.replace(forced_capture=True, progress_limit=4)
    st = _capture_position(rules)
    st.since_progress = 4
    opts = ref.legal_actions(st, 0)
    assert opts and all(a[0] == ref.REVEAL for a in opts)


def test_h2_forced_capture_excludes_exits_in_the_end_phase():
    st = _capture_position(STD, phase="end")
    assert "outN" in targets(st, 0, "d5")
    st = _capture_position(STD.replace(forced_capture=True), phase="end")
    assert ref.legal_actions(st, 0) == [(ref.MOVE, sq("a5"), S, 3)]


def test_h2_forced_capture_without_a_capture_changes_nothing():
    rules = STD.replace(forced_capture=True)
    st = position({"d4": "F", "b6": "L"}, rules=rules)
    assert ref.legal_actions(st, 0) == ref.legal_actions(position({"d4": "F", "b6": "L"}), 0)


def test_h2_forced_reveal_turns_counts_the_forced_reveals(monkeypatch):
    """A scripted mover never reveals unless forced: with L = 3 and k = 3 face-down tiles the
    main phase is k cycles of L moves and one forced reveal (§6 ``forced_reveal_turns`` = k)."""
    limit = 3
    rules = STD.replace(progress_limit=limit)
    # no capture is possible: foxes and a lumberjack, no neutral, no tree
    st = position({"a1": "?F", "c1": "?F", "e1": "?F", "d4": "F", "g5": "L"}, rules=rules, spare=False)
    install(monkeypatch, st, FirstMove)
    forced_dps = []

    def observer(state, seat, options, action):
        if options is not None and state.phase == "main" and state.since_progress >= limit:
            forced_dps.append(options)

    (game,) = run(rules, 0, 0, observer=observer)
    assert game.forced_reveal_turns == 3
    assert len(forced_dps) == 3 and all(a[0] == ref.REVEAL for opts in forced_dps for a in opts)
    assert game.main_turns == 3 * (limit + 1)
    assert game.end_reason == "end_phase_complete"
    assert ref.record_row(rules, [game])["forced_reveal_turns"] == 3


def test_h2_forced_reveal_turns_is_zero_without_a_limit(monkeypatch):
    rules = STD.replace(progress_limit=0)
    st = position({"a1": "?F", "d4": "F", "g5": "L"}, rules=rules, spare=False, since_progress=100)
    install(monkeypatch, st, FirstOption)  # reveals at once
    (game,) = run(rules, 0, 0, limit=25_000)
    assert game.forced_reveal_turns == 0 and game.main_turns == 1


# ================================================================ H-3.1 movable tiles


def _zoo(**kw):
    return position({"c3": "B", "e3": "F", "c5": "L", "e5": "HN", "b1": "D", "f1": "P", "d6": "T",
                     "b7": "?F", "f7": "?HS"}, **kw)


def test_h3_1_blue_moves_bears_foxes_and_neutrals_only():
    assert movable(_zoo(), 0) == {"c3", "e3", "b1", "f1"}


def test_h3_1_brown_moves_lumberjacks_hunters_and_neutrals_only():
    assert movable(_zoo(to_move=1), 1) == {"c5", "e5", "b1", "f1"}


def test_h3_1_movable_tiles_follow_the_seat_colour():
    st = _zoo(colour=(BROWN, BLUE))
    assert movable(st, 0) == {"c5", "e5", "b1", "f1"}
    assert movable(st, 1) == {"c3", "e3", "b1", "f1"}


def test_h3_1_trees_never_move_even_with_a_range():
    st = _zoo(rules=STD.replace(ranges={"tree": 3}))
    assert "d6" not in movable(st, 0) | movable(st, 1)


def test_h3_1_the_lock_tile_cannot_be_moved():
    st = _zoo()
    st.lock = at(st, "b1").id
    assert movable(st, 0) == {"c3", "e3", "f1"}
    st.to_move = 1
    assert movable(st, 1) == {"c5", "e5", "f1"}


# ================================================================ H-3.2 geometry

ALL_LINES_FROM_D4 = line("d4", N, 3) | line("d4", E, 3) | line("d4", S, 3) | line("d4", W, 3)
NEIGHBOURS_D4 = {"d5", "e4", "d3", "c4"}


@pytest.mark.parametrize("code, seat, expected", [
    ("B", 0, NEIGHBOURS_D4),
    ("L", 1, NEIGHBOURS_D4),
    ("F", 0, ALL_LINES_FROM_D4),
    ("HS", 1, ALL_LINES_FROM_D4),
    ("D", 0, ALL_LINES_FROM_D4),
    ("P", 1, ALL_LINES_FROM_D4),
])
def test_h3_2_ranges_bear_and_lumberjack_one_others_unlimited(code, seat, expected):
    st = position({"d4": code}, to_move=seat)
    assert targets(st, seat, "d4") == expected
    assert len(expected) in (4, 12)


def test_h3_2_ranges_parameter_limits_the_distance():
    st = position({"d4": "F"}, rules=STD.replace(ranges={"fox": 2}))
    assert targets(st, 0, "d4") == line("d4", N, 2) | line("d4", E, 2) | line("d4", S, 2) | line("d4", W, 2)
    st = position({"d4": "B"}, rules=STD.replace(ranges={"bear": 2}))
    assert targets(st, 0, "d4") == line("d4", N, 2) | line("d4", E, 2) | line("d4", S, 2) | line("d4", W, 2)


def test_h3_2_face_down_and_face_up_tiles_block_no_diagonals_no_null_moves():
    # N: a face-down tile on d6; E: a face-up tree on f4; S: an uncapturable lumberjack on d2;
    # W: a capturable duck on b4 (the capture stops the line)
    st = position({"d4": "F", "d6": "?D", "f4": "T", "d2": "L", "b4": "D"})
    assert targets(st, 0, "d4") == {"d5", "e4", "d3", "c4", "b4"}
    for a in moves(st, 0):
        origin, target = a[1], ref.step(a[1], a[2], a[3])
        assert a[3] >= 1 and target != origin
        assert origin % 7 == target % 7 or origin // 7 == target // 7


def test_h3_2_a_hunter_cannot_shoot_past_a_face_down_tile():
    st = position({"d1": "HN", "d3": "?F", "d5": "F"}, to_move=1)
    assert targets(st, 1, "d1") >= {"d2"}
    assert not {"d3", "d4", "d5"} & targets(st, 1, "d1")


# ================================================================ H-3.3 hunters' plain moves


def test_h3_3_hunter_moves_in_any_direction_by_default():
    st = position({"d4": "HE"}, to_move=1)
    assert targets(st, 1, "d4") == ALL_LINES_FROM_D4


def test_h3_3_hunter_moves_only_along_its_gun_when_free_movement_is_off():
    rules = STD.replace(hunter_free_movement_direction=False)
    st = position({"d4": "HE"}, rules=rules, to_move=1)
    assert targets(st, 1, "d4") == {"e4", "f4", "g4"}
    st = position({"d4": "HE", "f4": "F"}, rules=rules, to_move=1)
    assert targets(st, 1, "d4") == {"e4", "f4"}  # the capture along the gun stays
    st = position({"d4": "HN"}, rules=rules, to_move=1)
    assert targets(st, 1, "d4") == line("d4", N, 3)


# ================================================================ H-3.4 captures


def test_h3_4_bear_captures_hunter_and_lumberjack_from_any_side_even_a_hunter_facing_it():
    # the hunter on d5 points at the bear (S); the one on d3 points away (S)
    st = position({"d4": "B", "d5": "HS", "e4": "L", "d3": "HS", "c4": "F"})
    assert targets(st, 0, "d4") == {"d5", "e4", "d3"}
    st = position({"d4": "B", "c4": "HE"})
    assert "c4" in targets(st, 0, "d4")


def test_h3_4_bear_takes_nothing_else_and_only_next_to_it():
    st = position({"d4": "B", "d5": "D", "e4": "P", "d3": "T", "c4": "F", "d6": "HS"})
    assert targets(st, 0, "d4") == set()
    st = position({"d4": "B", "d6": "HS"})
    assert targets(st, 0, "d4") == NEIGHBOURS_D4


def test_h3_4_fox_captures_duck_and_pheasant_at_any_range():
    # N: a duck five squares away; E: a pheasant on g1; W: a face-up tree on a1 stops the line
    st = position({"d1": "F", "d6": "D", "g1": "P", "a1": "T", "b2": "L", "g7": "?T"}, spare=False)
    assert targets(st, 0, "d1") == {"d2", "d3", "d4", "d5", "d6", "e1", "f1", "g1", "c1", "b1"}
    play(st, 0, "d1", "g1")
    assert st.captured[0] == [PHEASANT] and st.score(0) == 3


def test_h3_4_fox_cannot_capture_hunter_bear_lumberjack_or_tree():
    st = position({"d4": "F", "d6": "HS", "f4": "B", "d2": "L", "b4": "T"})
    assert targets(st, 0, "d4") == {"d5", "e4", "d3", "c4"}


def test_h3_4_lumberjack_captures_an_adjacent_tree_only():
    st = position({"d4": "L", "d5": "T", "e4": "D", "d3": "F", "c4": "B", "b5": "T"}, to_move=1)
    assert targets(st, 1, "d4") == {"d5"}
    st = position({"d4": "L", "d6": "T"}, to_move=1)
    assert "d6" not in targets(st, 1, "d4")


@pytest.mark.parametrize("prey", ["B", "F", "D", "P"])
def test_h3_4_hunter_captures_bear_fox_duck_pheasant_along_its_gun_at_any_range(prey):
    st = position({"d1": "HN", "d6": prey}, to_move=1)
    assert "d6" in targets(st, 1, "d1")
    st = position({"d1": "HE", "d6": prey}, to_move=1)  # gun off the line: no capture
    assert targets(st, 1, "d1") & line("d1", N, 6) == line("d1", N, 4)


def test_h3_4_hunter_never_captures_lumberjack_hunter_or_tree():
    for prey in ("L", "HS", "T"):
        st = position({"d1": "HN", "d5": prey}, to_move=1)
        assert targets(st, 1, "d1") & line("d1", N, 6) == line("d1", N, 3)


def test_h3_4_hunter_captures_in_any_direction_when_restriction_is_off():
    rules = STD.replace(hunter_direction_restricted_capture=False)
    st = position({"d1": "HE", "d6": "F", "b1": "B"}, rules=rules, to_move=1)
    assert {"d6", "b1"} <= targets(st, 1, "d1")


def test_h3_4_hunter_along_gun_also_takes_the_adjacent_prey():
    st = position({"d4": "HW", "c4": "B"}, to_move=1)
    assert "c4" in targets(st, 1, "d4")


def test_h3_4_face_down_tiles_cannot_be_captured():
    st = position({"d1": "F", "d5": "?D"})
    assert targets(st, 0, "d1") & line("d1", N, 6) == {"d2", "d3", "d4"}
    st = position({"d4": "B", "d5": "?L", "e4": "?HN"})
    assert targets(st, 0, "d4") == {"d3", "c4"}


def test_h3_4_the_mover_ends_on_the_target_and_the_captured_kind_goes_to_captured():
    st = position({"d1": "HN", "d6": "B", "b3": "F"}, to_move=1)
    hunter = at(st, "d1").id
    play(st, 1, "d1", "d6")
    assert at(st, "d1") is None and at(st, "d6").id == hunter and at(st, "d6").dir == N
    assert st.captured == [[], [BEAR]] and st.captures[1][BEAR] == 1
    assert st.score(1) == 10 and st.tiles(1) == 1 and st.score(0) == 0
    assert st.last_move[1][:2] == (hunter, sq("d1"))


def test_h3_4_capture_matrix_parameter():
    rules = STD.replace(capture_matrix={"fox": ("tree",)})
    st = position({"d4": "F", "d6": "T", "b4": "D"}, rules=rules)
    assert "d6" in targets(st, 0, "d4") and "b4" not in targets(st, 0, "d4")
    play(st, 0, "d4", "d6")
    assert st.captured[0] == [TREE] and st.score(0) == 2


# ================================================================ H-3.5 no return


def test_h3_5_own_tile_cannot_go_back_to_from_square_on_the_next_action():
    st = position({"d2": "F", "f6": "L"})
    play(st, 0, "d2", "d4")
    idle(st, 1)
    t = targets(st, 0, "d4")
    assert "d2" not in t
    assert {"d3", "d1"} <= t  # short of it and passing over it are fine
    assert line("d4", N, 3) | line("d4", E, 3) | line("d4", W, 3) <= t  # other directions too


def test_h3_5_applies_to_brown_and_range_one_tiles():
    st = position({"d4": "L", "b2": "F"}, to_move=1)
    play(st, 1, "d4", "d5")
    idle(st, 0)
    assert targets(st, 1, "d5") == {"d6", "e5", "c5"}


def test_h3_5_only_that_tile_is_banned_from_the_square():
    st = position({"d2": "F", "a2": "F", "f6": "L"})
    play(st, 0, "d2", "d4")
    idle(st, 1)
    assert "d2" in targets(st, 0, "a2")


def test_h3_5_a_capture_landing_on_from_square_is_banned():
    st = position({"b2": "F", "g2": "D", "f6": "L"})
    play(st, 0, "b2", "b5")
    play(st, 1, "g2", "b2")  # Brown brings a duck onto the square the fox left
    assert "b2" not in targets(st, 0, "b5")
    control = position({"b5": "F", "b2": "D", "f6": "L"})
    assert "b2" in targets(control, 0, "b5")


def test_h3_5_lasts_only_one_action():
    st = position({"d2": "F", "b6": "F", "f6": "L"})
    play(st, 0, "d2", "d4")
    idle(st, 1)
    play(st, 0, "b6", "b5")
    idle(st, 1)
    assert "d2" in targets(st, 0, "d4")


def test_h3_5_a_reveal_clears_the_ban():
    st = position({"d2": "F", "f6": "L"})
    play(st, 0, "d2", "d4")
    idle(st, 1)
    idle(st, 0)
    idle(st, 1)
    assert "d2" in targets(st, 0, "d4")


def test_h3_5_off_allows_the_return():
    st = position({"d2": "F", "f6": "L"}, rules=STD.replace(no_return_rule=False))
    play(st, 0, "d2", "d4")
    idle(st, 1)
    assert "d2" in targets(st, 0, "d4")


def test_h3_5_neutrals_may_go_back_by_default():
    st = position({"b2": "D", "f6": "L"})
    play(st, 0, "b2", "b5")
    idle(st, 1)
    assert "b2" in targets(st, 0, "b5")


def test_h3_5_neutrals_banned_with_no_return_applies_to_neutrals():
    rules = STD.replace(no_return_applies_to_neutrals=True)
    st = position({"b2": "D", "f6": "L"}, rules=rules)
    play(st, 0, "b2", "b5")
    idle(st, 1)
    t = targets(st, 0, "b5")
    assert "b2" not in t and {"b3", "b4", "b1"} <= t


def test_h3_5_neutral_ban_only_while_the_tile_stands_where_it_was_put():
    rules = STD.replace(no_return_applies_to_neutrals=True, neutral_lock="off")
    st = position({"b2": "D", "f6": "L"}, rules=rules)
    play(st, 0, "b2", "b5")
    play(st, 1, "b5", "b4")  # the opponent moves the duck on
    assert "b2" in targets(st, 0, "b4")


# ================================================================ H-3.6 neutral lock


def test_h3_6_revealed_neutral_is_locked_for_the_opponent_but_capturable():
    st = position({"d4": "?D", "d1": "HN", "f6": "L"})
    reveal(st, 0, "d4")
    assert st.lock == at(st, "d4").id
    t = targets(st, 1, "d1")
    assert "d4" in t  # the capture stays
    assert "d4" not in movable(st, 1)


def test_h3_6_locked_neutral_not_capturable_when_switched_off():
    rules = STD.replace(locked_neutral_capturable=False)
    st = position({"d4": "?D", "d1": "HN", "f6": "L"}, rules=rules)
    reveal(st, 0, "d4")
    assert "d4" not in targets(st, 1, "d1")
    assert {"d2", "d3"} <= targets(st, 1, "d1")
    # an unlocked duck on the same line is capturable under the same rules
    st = position({"d4": "D", "d1": "HN", "f6": "L"}, rules=rules, to_move=1)
    assert "d4" in targets(st, 1, "d1")


@pytest.mark.parametrize("mode, after_reveal, after_move", [
    ("reveal_or_move", True, True),
    ("reveal_only", True, False),
    ("off", False, False),
])
def test_h3_6_lock_modes(mode, after_reveal, after_move):
    rules = STD.replace(neutral_lock=mode)
    st = position({"d4": "?P", "f6": "L"}, rules=rules)
    reveal(st, 0, "d4")
    assert ("d4" not in movable(st, 1)) == after_reveal
    st = position({"b2": "P", "f6": "L"}, rules=rules)
    play(st, 0, "b2", "b3")
    assert ("b3" not in movable(st, 1)) == after_move


def test_h3_6_brown_locks_for_blue_too():
    st = position({"b2": "D", "f6": "L", "e3": "F"}, to_move=1)
    play(st, 1, "b2", "b3")
    assert "b3" not in movable(st, 0) and "e3" in movable(st, 0)


def test_h3_6_lock_lasts_for_the_opponents_next_action_only():
    st = position({"b2": "D", "f6": "L", "e3": "F"})
    play(st, 0, "b2", "b3")
    assert "b3" not in movable(st, 1)
    idle(st, 1)
    assert st.lock == -1
    play(st, 0, "e3", "e4")
    assert "b3" in movable(st, 1)


def test_h3_6_the_same_player_may_move_it_again():
    st = position({"d4": "?D", "f6": "L"})
    reveal(st, 0, "d4")
    idle(st, 1)
    assert "d4" in movable(st, 0)
    play(st, 0, "d4", "d5")
    assert "d5" not in movable(st, 1)  # locked again, for Brown only
    idle(st, 1)
    play(st, 0, "d5", "d6")


def test_h3_6_an_automatic_pass_counts_as_the_locked_action():
    # end phase; Brown's lumberjack on a1 is boxed in by foxes, so with the duck locked Brown must pass
    st = position({"a1": "L", "a2": "F", "b1": "F", "d4": "D", "f5": "F"}, phase="end")
    play(st, 0, "d4", "d5")
    assert ref.legal_actions(st, 1) == []
    ref.apply_pass(st, 1)
    assert st.passes == [0, 1] and st.lock == -1
    assert "d5" in movable(st, 0)
    play(st, 0, "f5", "f6")
    assert "d5" in movable(st, 1)


# ================================================================ H-3.7 exits


def test_h3_7_exits_only_in_the_end_phase_by_default():
    st = position({"d5": "F", "b2": "L"})
    assert targets(st, 0, "d5") & {"d6", "d7", "outN"} == {"d6", "d7"}
    st = position({"d5": "F", "b2": "L"}, phase="end")
    assert "outN" in targets(st, 0, "d5")
    assert (ref.MOVE, sq("d5"), N, 3) in ref.legal_actions(st, 0)  # distance k + 1 with k = 2
    st = position({"d5": "F", "b2": "L"}, rules=STD.replace(exits_only_in_end_phase=False))
    assert "outN" in targets(st, 0, "d5")


def test_h3_7_only_outward_through_the_exit_square():
    st = position({"c7": "F", "f4": "F", "d2": "F", "b6": "L"}, phase="end")
    assert not any(x.startswith("out") for x in targets(st, 0, "c7"))  # passes d7 going E: no exit
    assert "outE" in targets(st, 0, "f4")  # through g4
    assert "outS" in targets(st, 0, "d2")  # through d1
    assert targets(st, 0, "d2") >= {"outN"} and (ref.MOVE, sq("d2"), N, 6) in ref.legal_actions(st, 0)
    st = position({"a6": "F", "b3": "L"}, phase="end")
    assert not any(x.startswith("out") for x in targets(st, 0, "a6"))  # a6 / a7 are no exits


def test_h3_7_bears_and_lumberjacks_must_stand_on_the_exit_square():
    st = position({"d6": "B", "f4": "L"}, phase="end")
    assert targets(st, 0, "d6") == {"d7", "e6", "d5", "c6"}
    assert not any(x.startswith("out") for x in targets(st, 1, "f4"))
    st = position({"d7": "B", "g4": "L"}, phase="end")
    assert "outN" in targets(st, 0, "d7")
    assert (ref.MOVE, sq("d7"), N, 1) in ref.legal_actions(st, 0)
    assert "outE" in targets(st, 1, "g4")


def test_h3_7_the_path_up_to_the_exit_square_must_be_empty():
    st = position({"d3": "F", "d6": "T", "b2": "L"}, phase="end")
    assert "outN" not in targets(st, 0, "d3")
    st = position({"d3": "F", "d7": "D", "b2": "L"}, phase="end")  # on the exit square itself
    assert "outN" not in targets(st, 0, "d3")


def test_h3_7_range_limits_apply_to_exits():
    rules = STD.replace(ranges={"fox": 2})
    st = position({"d6": "F", "b2": "L"}, rules=rules, phase="end")
    assert "outN" in targets(st, 0, "d6")
    st = position({"d5": "F", "b2": "L"}, rules=rules, phase="end")
    assert "outN" not in targets(st, 0, "d5")


def test_h3_7_only_own_colour_exits_unless_rescue_neutrals():
    tiles = {"d5": "D", "g4": "HN", "a4": "F", "b2": "L"}
    st = position(tiles, phase="end")
    assert "outN" not in targets(st, 0, "d5") and "outN" not in targets(st, 1, "d5")
    assert "outE" in targets(st, 1, "g4") and "outW" in targets(st, 0, "a4")
    st = position(tiles, rules=STD.replace(rescue_neutrals=True), phase="end")
    assert "outN" in targets(st, 0, "d5") and "outN" in targets(st, 1, "d5")


def test_h3_7_hunter_exits_only_along_its_gun_when_free_movement_is_off():
    rules = STD.replace(hunter_free_movement_direction=False)
    st = position({"d6": "HE", "b2": "F"}, rules=rules, phase="end", to_move=1)
    assert "outN" not in targets(st, 1, "d6")
    st = position({"d6": "HN", "b2": "F"}, rules=rules, phase="end", to_move=1)
    assert "outN" in targets(st, 1, "d6")
    st = position({"d6": "HE", "b2": "F"}, phase="end", to_move=1)
    assert "outN" in targets(st, 1, "d6")


def test_h3_7_custom_exit_squares():
    rules = STD.replace(exit_squares=("a1:S", "a1:W"))
    st = position({"a3": "F", "d3": "F", "f6": "L"}, rules=rules, phase="end")
    assert "outS" in targets(st, 0, "a3")
    assert "outS" not in targets(st, 0, "d3")  # d1 is no longer an exit
    st = position({"a1": "B", "f6": "L"}, rules=rules, phase="end")
    assert {"outS", "outW"} <= targets(st, 0, "a1")
    st = position({"d7": "B", "f6": "L"}, rules=rules, phase="end")
    assert "outN" not in targets(st, 0, "d7")


def test_h3_7_an_exit_scores_the_points_as_rescued():
    rules = STD.replace(points={"fox": 7})
    st = position({"d5": "F", "b2": "L", "f6": "F"}, rules=rules, phase="end")
    fox = at(st, "d5").id
    play(st, 0, "d5", "outN")
    assert at(st, "d5") is None and fox not in [t.id for t in st.grid if t]
    assert st.rescued == [[FOX], []] and st.rescues[0][FOX] == 1 and st.captured == [[], []]
    assert st.score(0) == 7 and st.tiles(0) == 1
    assert st.last_move[0][:2] == (fox, sq("d5"))
    assert st.end_left == [4, 5] and st.to_move == 1


# ================================================================ H-4 end phase


@pytest.mark.parametrize("revealer", [0, 1])
def test_h4_end_phase_starts_after_the_last_reveal_opponent_first_five_each(revealer):
    # no capture is possible: foxes, one lumberjack and no trees or neutrals
    st = position({"a1": "?F", "d4": "F", "g5": "L"}, spare=False, to_move=revealer)
    reveal(st, revealer, "a1")
    assert st.phase == "end" and st.end_left == [5, 5] and not st.over
    assert st.to_move == 1 - revealer
    assert st.main_turns == 1 and st.end_turns == 0
    seats = []
    for i in range(10):
        assert not st.over
        seat = st.to_move
        seats.append(seat)
        assert all(a[0] == ref.MOVE for a in ref.legal_actions(st, seat))
        ref.apply_action(st, seat, moves(st, seat)[0])
        assert st.end_left[seat] == 5 - (i // 2 + 1)
    assert seats == [1 - revealer, revealer] * 5
    assert st.over and st.end_reason == "end_phase_complete"
    assert st.end_turns == 10 and st.main_turns == 1 and st.turns == 11


def test_h4_end_phase_moves_parameter():
    rules = STD.replace(end_phase_moves=2)
    st = position({"a1": "?F", "d4": "F", "g5": "L"}, rules=rules, spare=False)
    reveal(st, 0, "a1")
    assert st.end_left == [2, 2]
    for _ in range(4):
        assert not st.over
        ref.apply_action(st, st.to_move, moves(st, st.to_move)[0])
    assert st.over and st.end_turns == 4


def test_h4_not_the_last_reveal_keeps_the_main_phase():
    st = position({"a1": "?F", "c1": "?F", "d4": "F", "g5": "L"}, spare=False)
    reveal(st, 0, "a1")
    assert st.phase == "main" and st.face_down == 1


def test_h4_4_a_player_without_a_legal_action_passes_and_the_pass_uses_an_action(monkeypatch):
    # Blue's only tile, a bear in the g7 corner, is boxed in by trees (a bear cannot take trees);
    # Brown's lumberjack on d2, playing its first option, walks north d3 .. d7 and never frees it
    st = position({"a1": "?T", "g7": "B", "g6": "T", "f7": "T", "d2": "L"}, spare=False)
    install(monkeypatch, st, FirstOption)
    log = []
    (game,) = run(STD, 3, 0,
                  observer=lambda s, seat, options, action: log.append((seat, options is None, s.phase)))
    assert log[0] == (0, False, "main")  # Blue reveals the last tile
    assert [seat for seat, _, _ in log[1:]] == [1, 0] * 5
    assert [passed for seat, passed, _ in log[1:]] == [False, True] * 5
    assert game.passes == [5, 0] and game.end_turns == 10 and game.turns == 11
    assert game.plies == 6  # an automatic pass is not a decision point (§5)
    assert game.over and game.end_reason == "end_phase_complete"
    row = ref.record_row(STD, [game])
    assert row["passes_0"] == 5 and row["passes_1"] == 0 and row["end_turns"] == 10


# ================================================================ H-5 early end


def test_h5_early_end_when_a_player_has_no_own_tile_left():
    # a duck remains, but neutrals are not Blue's own tiles
    st = position({"d1": "HN", "d5": "F", "b3": "D", "g6": "L"}, phase="end", to_move=1)
    play(st, 1, "d1", "d5")
    assert st.over and st.end_reason == "early_end"
    assert st.end_left == [5, 4]
    assert st.score(1) == 5 and ref.winner(STD, [0, 5], [0, 1]) == 1


def test_h5_early_end_for_brown_too():
    st = position({"d4": "B", "d5": "L", "b3": "D"}, phase="end")
    play(st, 0, "d4", "d5")
    assert st.over and st.end_reason == "early_end"


def test_h5_no_early_end_while_tiles_are_face_down():
    st = position({"d1": "HN", "d5": "F", "g6": "L"}, to_move=1)
    play(st, 1, "d1", "d5")
    assert not st.over and st.phase == "main"


def test_h5_checked_first_on_the_last_reveal_so_the_end_phase_never_starts():
    st = position({"a1": "?T", "d4": "L", "b3": "D"}, spare=False)  # Blue has no own tile
    reveal(st, 0, "a1")
    assert st.over and st.end_reason == "early_end"
    assert st.phase == "main" and st.main_turns == 1 and st.end_turns == 0


def test_h5_the_last_reveal_of_an_own_tile_avoids_the_early_end():
    st = position({"a1": "?F", "d4": "L", "b3": "D"}, spare=False)
    reveal(st, 0, "a1")
    assert not st.over and st.phase == "end"


def test_h5_checked_first_on_the_last_end_phase_action():
    st = position({"d1": "HN", "d5": "F", "g6": "L"}, phase="end", to_move=1)
    st.end_left = [0, 1]
    play(st, 1, "d1", "d5")
    assert st.over and st.end_reason == "early_end"


def test_h5_switched_off_the_game_goes_on():
    rules = STD.replace(early_end_no_own_tiles=False)
    st = position({"d1": "HN", "d5": "F", "g6": "L"}, rules=rules, phase="end", to_move=1)
    play(st, 1, "d1", "d5")
    assert not st.over
    assert ref.legal_actions(st, 0) == []
    ref.apply_pass(st, 0)
    assert not st.over and st.end_left == [4, 4]


# ================================================================ H-6 scoring


def test_h6_1_score_is_the_points_of_captured_and_rescued_tiles():
    st = position({"d4": "F"}, captured=[[BEAR, TREE], [DUCK]], rescued=[[FOX], [HUNTER, LUMBERJACK]])
    assert st.score(0) == 10 + 2 + 5 and st.score(1) == 2 + 5 + 5
    assert st.tiles(0) == 3 and st.tiles(1) == 3
    st.rules = STD.replace(points={"tree": 4, "duck": -1})
    assert st.score(0) == 10 + 4 + 5 and st.score(1) == -1 + 5 + 5


def test_h6_2_the_higher_score_wins():
    assert ref.winner(STD, [17, 12], [1, 5]) == 0
    assert ref.winner(STD, [12, 17], [5, 1]) == 1


def test_h6_3_tie_most_tiles_then_draw():
    assert ref.winner(STD, [10, 10], [3, 2]) == 0
    assert ref.winner(STD, [10, 10], [2, 3]) == 1
    assert ref.winner(STD, [10, 10], [2, 2]) == -1


def test_h6_3_tiebreak_draw():
    rules = STD.replace(tiebreak="draw")
    assert ref.winner(rules, [10, 10], [3, 2]) == -1
    assert ref.winner(rules, [11, 10], [0, 2]) == 0


def _finished(captured, rescued=([], []), rules=STD, end_reason="end_phase_complete", colour=(BLUE, BROWN)):
    st = position({"d4": "F", "b2": "L"}, rules=rules, phase="end", colour=colour,
                  captured=[list(x) for x in captured], rescued=[list(x) for x in rescued])
    st.over, st.end_reason, st.first_player = True, end_reason, 0
    return st


def test_h6_record_result_win_and_draw():
    row = ref.record_row(STD, [_finished(([BEAR], [FOX, DUCK]))])  # 10 v 7
    assert (row["winner"], row["result"], row["win_0"], row["win_1"]) == (0, 0, 1, 0)
    assert row["score_0"] == 10 and row["score_1"] == 7 and row["tiles_1"] == 2
    row = ref.record_row(STD, [_finished(([FOX], [HUNTER]))])  # 5 v 5, 1 v 1
    assert (row["winner"], row["result"]) == (-1, 1)
    row = ref.record_row(STD, [_finished(([FOX], [DUCK, DUCK]), rescued=([], [DUCK]))])  # 5 v 6
    assert row["winner"] == 1


# ================================================================ H-7 termination


def test_h7_aborted_at_10000_actions_with_progress_limit_0(monkeypatch):
    """Nobody ever reveals the one face-down tile: without a progress limit the game is aborted."""
    rules = STD.replace(progress_limit=0)
    st = position({"a1": "?F", "d4": "F", "g5": "L"}, rules=rules, spare=False)
    install(monkeypatch, st, FirstMove)
    (game,) = run(rules, 0, 0, limit=25_000)
    assert game.over and game.end_reason == "aborted"
    assert game.turns == 10_000 and game.main_turns == 10_000 and game.phase == "main"
    row = ref.record_row(rules, [game])
    assert row["result"] == 2 and row["winner"] == -1 and row["win_0"] == row["win_1"] == 0


def test_h7_not_aborted_before_the_cap():
    rules = STD.replace(progress_limit=0)
    st = position({"a1": "?F", "d4": "F", "g5": "L"}, rules=rules, spare=False)
    policy = FirstMove()
    for _ in range(9_999):
        ref.apply_action(st, st.to_move, policy.choose(None, ref.legal_actions(st, st.to_move)))
    assert not st.over and st.turns == 9_999
    ref.apply_action(st, st.to_move, policy.choose(None, ref.legal_actions(st, st.to_move)))
    assert st.over and st.end_reason == "aborted"


def test_h7_the_same_shuffling_terminates_with_a_progress_limit(monkeypatch):
    rules = STD.replace(progress_limit=60)
    st = position({"a1": "?F", "d4": "F", "g5": "L"}, rules=rules, spare=False)
    install(monkeypatch, st, FirstMove)
    (game,) = run(rules, 0, 0, limit=25_000)
    assert game.end_reason == "end_phase_complete" and game.main_turns == 61 and game.forced_reveal_turns == 1


def test_h7_the_cap_applies_only_with_progress_limit_0(monkeypatch):
    """With a limit of 10,000 the same shuffling makes 10,000 plain moves, then a forced reveal: not aborted."""
    rules = STD.replace(progress_limit=10_000)
    st = position({"a1": "?F", "d4": "F", "g5": "L"}, rules=rules, spare=False)
    install(monkeypatch, st, FirstMove)
    (game,) = run(rules, 0, 0, limit=25_000)
    assert game.end_reason != "aborted" and game.turns > 10_000
    assert game.main_turns == 10_001 and game.forced_reveal_turns == 1


# ================================================================ H-8 match


def test_h8_match_swaps_colours_and_blue_moves_first_again():
    rules = STD.replace(match_games=2)
    firsts = []
    layouts = []

    def observer(st, seat, options, action):
        if st.turns == 0:
            firsts.append((seat, list(st.colour)))
            layouts.append([t.kind if t else None for t in st.grid])

    g1, g2 = run(rules, 6, 0, observer=observer)
    assert g1.colour == [BLUE, BROWN] and g2.colour == [BROWN, BLUE]
    assert firsts == [(0, [BLUE, BROWN]), (1, [BROWN, BLUE])]
    assert layouts[0] != layouts[1]  # a fresh shuffle
    g1, g2 = run(rules.replace(first_player="brown"), 6, 0)
    assert (g1.first_player, g2.first_player) == (1, 0)


def test_h8_match_record_sums_points_and_tiles_per_seat():
    rules = STD.replace(match_games=2)
    g1, g2 = run(rules, 9, 1, ("greedy", "random"))
    row = ref.record_row(rules, [g1, g2])
    for seat in (0, 1):
        assert row[f"score_{seat}"] == g1.score(seat) + g2.score(seat)
        assert row[f"tiles_{seat}"] == g1.tiles(seat) + g2.tiles(seat)
    assert row["turns"] == g1.turns + g2.turns
    assert row["colour_0"] == BLUE


def test_h8_match_is_decided_by_summed_points_not_by_games_won():
    g1 = _finished(([BEAR], [FOX]))  # seat 0 wins 10 v 5
    g2 = _finished(([DUCK], [HUNTER, FOX]), colour=(BROWN, BLUE))  # seat 1 wins 2 v 10
    row = ref.record_row(STD.replace(match_games=2), [g1, g2])
    assert (row["game1_winner"], row["game2_winner"]) == (0, 1)
    assert (row["score_0"], row["score_1"]) == (12, 15)
    assert row["winner"] == 1 and row["result"] == 0
    g2 = _finished(([DUCK, PHEASANT, TREE], [HUNTER]), colour=(BROWN, BLUE))  # 7 v 5
    row = ref.record_row(STD.replace(match_games=2), [g1, g2])
    assert (row["score_0"], row["score_1"]) == (17, 10) and row["winner"] == 0


def _tied_match(seat1_tiles_game2: int, rules):
    """Summed points 15 v 15; summed tiles 2 v (1 + seat1_tiles_game2)."""
    g1 = _finished(([BEAR], [FOX]), rules=rules)  # 10 v 5
    g2 = _finished(([FOX], {5: [DUCK] * 5, 1: [BEAR], 2: [FOX, FOX]}[seat1_tiles_game2]),
                   rules=rules, colour=(BROWN, BLUE))  # 5 v 10
    return ref.record_row(rules, [g1, g2])


@pytest.mark.parametrize("seat1_tiles_game2, expected", [(5, 1), (1, -1)])
def test_h8_match_tied_on_points_goes_to_summed_tiles_then_draw(seat1_tiles_game2, expected):
    row = _tied_match(seat1_tiles_game2, STD.replace(match_games=2))
    assert (row["score_0"], row["score_1"]) == (15, 15)
    assert row["winner"] == expected and row["result"] == (0 if expected >= 0 else 1)


def test_h8_match_tiles_decide_seat0_too():
    rules = STD.replace(match_games=2)
    g1 = _finished(([DUCK] * 5, [FOX]), rules=rules)  # 10 v 5, tiles 5 v 1
    g2 = _finished(([FOX], [BEAR]), rules=rules, colour=(BROWN, BLUE))  # 5 v 10
    row = ref.record_row(rules, [g1, g2])
    assert (row["score_0"], row["score_1"], row["tiles_0"], row["tiles_1"]) == (15, 15, 6, 2)
    assert row["winner"] == 0


def test_h8_match_tiles_decide_even_with_tiebreak_draw():
    row = _tied_match(5, STD.replace(match_games=2, tiebreak="draw"))
    assert (row["score_0"], row["score_1"], row["tiles_0"], row["tiles_1"]) == (15, 15, 2, 6)
    assert row["winner"] == 1


def test_h8_match_aborted_if_either_game_is():
    g1 = _finished(([BEAR], []))
    g2 = _finished(([], []), end_reason="aborted", colour=(BROWN, BLUE))
    row = ref.record_row(STD.replace(match_games=2), [g1, g2])
    assert row["result"] == 2 and row["winner"] == -1


# ================================================================ §5 canonical order


def test_s5_canonical_option_order():
    """Reveals by square; then moves by origin, direction N, E, S, W, distance; an exit is the
    move whose distance leaves the board, so it comes last in its direction."""
    rules = STD.replace(exits_only_in_end_phase=False)
    st = position({"a1": "?T", "g1": "?T", "b6": "D", "d6": "F", "d5": "T", "e6": "T"}, rules=rules, spare=False)
    b6, d6 = sq("b6"), sq("d6")
    expected = [
        (ref.REVEAL, 0, 0, 0), (ref.REVEAL, 6, 0, 0),
        (ref.MOVE, b6, N, 1),
        (ref.MOVE, b6, E, 1),
        (ref.MOVE, b6, S, 1), (ref.MOVE, b6, S, 2), (ref.MOVE, b6, S, 3), (ref.MOVE, b6, S, 4), (ref.MOVE, b6, S, 5),
        (ref.MOVE, b6, W, 1),
        (ref.MOVE, d6, N, 1), (ref.MOVE, d6, N, 2),  # d7, then the exit through d7
        (ref.MOVE, d6, W, 1), (ref.MOVE, d6, W, 2),  # c6, then the capture of the duck on b6
    ]
    assert ref.legal_actions(st, 0) == expected
    assert [ref.action_code(a) for a in expected] == sorted(ref.action_code(a) for a in expected)
    # Brown moves only the duck
    assert ref.legal_actions(st, 1) == expected[:10]

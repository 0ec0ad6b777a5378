"""Scenario tests for Valhalla: one hand-built position per numbered rule.

Every expected value below is taken from the spec ``docs/rules/valhalla.md`` (the
contract), not from the reference implementation.  Positions are written as
lists of squares per seat; :func:`pos` pads a seat's list up to
``ships_per_player`` with borne-off ships (37), which never move and do not
close the bear-off gate.

Notation: ``N1`` is a natural one, ``U1`` an unnatural one, ``T(v)`` any
other throw of value ``v``.
"""

from __future__ import annotations


import pytest

from toolkit.core.rng import CHANCE, Stream
from toolkit.games.valhalla.reference import (
    Game,
    Move,
    ScriptedSticks,
    State,
    Sticks,
    Throw,
    apply_move,
    evaluate_sticks,
    gate_open,
    is_protected,
    legal_moves,
    play_game,
)
from toolkit.games.valhalla.rules import Rules

HOME, VALHALLA, OFF = 0, 36, 37

N1 = Throw(1, True)
U1 = Throw(1, False)


def T(value: int) -> Throw:
    """A throw of ``value`` that is not a natural one."""
    return Throw(value, False)


def pos(squares, n: int = 6) -> list:
    """A seat's ship list, padded with borne-off ships up to ``n`` ships."""
    squares = list(squares)
    return squares + [OFF] * (n - len(squares))


def state(seat0, seat1, repairing=None) -> State:
    return State.from_positions(pos(seat0), pos(seat1), repairing=repairing)


def squares(st: State, seat: int) -> list:
    """The squares of ``seat``'s ships that are still in play, sorted."""
    return sorted(p for p in st.pos[seat] if p != OFF)


def repairing_squares(st: State) -> list:
    return [(seat, p) for seat in (0, 1) for p, r in zip(st.pos[seat], st.repairing[seat]) if r]


class Scripted:
    """A policy that picks moves by origin square and answers DP-2 from a script.

    An empty move script picks the first option.  A DP-2 with no scripted
    answer fails the test (the DP must not have been presented).
    """

    def __init__(self, origins=(), extra=()):
        self.origins = list(origins)
        self.extra = list(extra)
        self.offered = []
        self.extra_calls = 0

    def choose_move(self, game, seat, throw, moves):
        self.offered.append(list(moves))
        if self.origins:
            origin = self.origins.pop(0)
            return next(m for m in moves if m.origin == origin)
        return moves[0]

    def choose_extra_throw(self, game, seat):
        self.extra_calls += 1
        assert self.extra, "DP-2 presented where the spec has none"
        return self.extra.pop(0)


def game(rules, seat0, seat1, throws, repairing=None, policies=None) -> Game:
    st = state(seat0, seat1, repairing) if seat0 is not None else None
    policies = policies if policies is not None else [Scripted(), Scripted()]
    return Game(rules, policies, ScriptedSticks(throws), state=st)


STD = Rules()
EXTRA_OPTIONAL = Rules(extra_throw_enabled=True)
EXTRA_FORCED = Rules(extra_throw_enabled=True, extra_throw_optional=False)


# ============================================================ §3 throws

# §3.4 table: runes up -> (runes value, simplified value, natural one)
TABLE = {
    "": (5, 5, False),
    "S": (1, 1, True),
    "T": (1, 1, True),
    "G": (1, 1, True),
    "H": (0, 1, False),
    "ST": (2, 2, False),
    "SG": (2, 2, False),
    "TG": (2, 2, False),
    "GH": (2, 2, False),
    "SH": (0, 2, False),
    "TH": (0, 2, False),
    "STG": (3, 3, False),
    "SGH": (3, 3, False),
    "TGH": (3, 3, False),
    "STH": (1, 3, False),
    "STGH": (4, 4, False),
}


def sticks_of(runes: str) -> tuple:
    return tuple(int(r in runes) for r in "STGH")


def test_s3_4_table_covers_all_16_outcomes():
    assert len({sticks_of(r) for r in TABLE}) == 16


@pytest.mark.parametrize("runes", list(TABLE), ids=lambda r: r or "none")
def test_s3_2_runes_mode_value_and_natural_one(runes):
    value, _, natural_one = TABLE[runes]
    throw = evaluate_sticks(STD, sticks_of(runes))
    assert (throw.value, throw.natural_one) == (value, natural_one)


@pytest.mark.parametrize("runes", list(TABLE), ids=lambda r: r or "none")
def test_s3_3_simplified_mode_value_and_natural_one(runes):
    _, value, natural_one = TABLE[runes]
    throw = evaluate_sticks(Rules(throw_mode="simplified"), sticks_of(runes))
    assert (throw.value, throw.natural_one) == (value, natural_one)


def test_s3_2_hagalaz_alone_value_minus_one_only_affects_hagalaz_alone():
    """Only "Hagalaz alone" is clamped; S+H and T+H stay 0 (value 0 drops to 2/16)."""
    rules = Rules(hagalaz_alone_value=-1)
    assert evaluate_sticks(rules, sticks_of("H")).value == -1
    assert evaluate_sticks(rules, sticks_of("SH")).value == 0
    assert evaluate_sticks(rules, sticks_of("TH")).value == 0
    values = [evaluate_sticks(rules, sticks_of(r)).value for r in TABLE]
    assert values.count(0) == 2 and values.count(-1) == 1


@pytest.mark.parametrize("mode", ["runes", "simplified"])
def test_s3_zero_runes_value_applies_in_both_modes(mode):
    rules = Rules(throw_mode=mode, zero_runes_value=6)
    throw = evaluate_sticks(rules, (0, 0, 0, 0))
    assert throw.value == 6 and not throw.natural_one


@pytest.mark.parametrize("mode, counts, mean_16ths", [
    ("runes", {0: 3, 1: 4, 2: 4, 3: 3, 4: 1, 5: 1}, 30),
    ("simplified", {1: 4, 2: 6, 3: 4, 4: 1, 5: 1}, 37),
])
def test_s3_4_value_distribution_by_enumeration(mode, counts, mean_16ths):
    rules = Rules(throw_mode=mode)
    throws = [evaluate_sticks(rules, sticks_of(r)) for r in TABLE]
    values = [t.value for t in throws]
    assert {v: values.count(v) for v in set(values)} == counts
    assert sum(values) == mean_16ths
    assert sum(t.natural_one for t in throws) == 3
    qualifying = [t for t in throws if t.klass in ("natural_one", "4", "5")]
    assert len(qualifying) == 5


def test_s3_1_sampled_throw_frequencies_match_table():
    """§7.10: 16,000 throws of the real sticks match the §3.4 runes distribution."""
    sticks = Sticks(STD, Stream(12345, 0, CHANCE))
    n = 16_000
    values = [sticks.throw().value for _ in range(n)]
    expected = {0: 3, 1: 4, 2: 4, 3: 3, 4: 1, 5: 1}
    for value, sixteenths in expected.items():
        assert values.count(value) / n == pytest.approx(sixteenths / 16, abs=0.015)
    assert set(values) == set(expected)  # §7.8: every value in the mode's range


# ============================================================ V-1 state


def test_v1_3_square_holds_at_most_one_ship_own_ship_blocks():
    st = state([10, 13], [])
    assert legal_moves(STD, st, 0, T(3)) == [Move(13, 16)]


def test_v1_4_square_36_holds_any_number_of_ships_of_both_colours():
    st = state([33, 36], [36])
    moves = legal_moves(STD, st, 0, T(3))
    assert Move(33, 36) in moves  # not an attack, not illegal
    apply_move(STD, st, 0, Move(33, 36))
    assert st.pos[0].count(VALHALLA) == 2
    assert st.pos[1].count(VALHALLA) == 1


def test_v1_2_attack_keeps_ship_counts_and_single_occupancy():
    """§7.1/§7.2: a swap leaves 6 ships per seat, one ship per square."""
    st = state([10, 20], [13, 14])
    apply_move(STD, st, 0, Move(10, 13, attack=True))
    assert len(st.pos[0]) == len(st.pos[1]) == 6
    on_track = [p for seat in (0, 1) for p in st.pos[seat] if 1 <= p <= 35]
    assert len(on_track) == len(set(on_track))


# ============================================================ V-2 throw classes


@pytest.mark.parametrize("throw, klass", [
    (Throw(1, True), "natural_one"),
    (Throw(1, False), "unnatural_one"),
    (Throw(0, False), "0"),
    (Throw(2, False), "2"),
    (Throw(3, False), "3"),
    (Throw(4, False), "4"),
    (Throw(5, False), "5"),
])
def test_v2_throw_class(throw, klass):
    assert throw.klass == klass


def test_v2_unnatural_one_is_not_in_default_extra_throw_classes():
    g = game(EXTRA_OPTIONAL, [10], [], [U1, T(2)])
    g.play_turn(0)
    assert g.record.throws[0] == 1 and g.record.plies == 1
    assert squares(g.state, 0) == [11]


def test_v2_custom_extra_throw_class_2_grants_and_4_does_not():
    rules = Rules(extra_throw_enabled=True, extra_throw_optional=False, extra_throw_values=("2",))
    g = game(rules, [10], [], [T(2), T(4), T(2)])
    g.play_turn(0)
    assert squares(g.state, 0) == [16]  # 10 -> 12 (extra) -> 16 (no extra)
    assert g.record.throws[0] == 2 and g.record.extra_throws[0] == 1


# ============================================================ V-3 setup and start player


def test_v3_1_empty_board_all_ships_at_home():
    g = Game(Rules(start_player_rule="seat0"), [Scripted(), Scripted()], ScriptedSticks([]))
    nxt = g.setup()
    assert g.state.pos == [[HOME] * 6, [HOME] * 6]
    assert nxt == 0 and g.record.turns == 0  # turn 1 is a normal turn, not yet played


def test_v3_2_first_natural_one_empty_board_opening():
    """Throws alternate from seat 0; seat 0's 5th-throw natural one (start throws 4) opens 0->1."""
    sticks = [T(0), U1, T(5), T(2), N1, T(3)]
    g = Game(STD, [Scripted(), Scripted()], ScriptedSticks(sticks))
    nxt = g.setup()
    r = g.record
    assert r.start_seat == 0
    assert r.start_throws == 4  # the unnatural one does not decide
    assert r.throws == [1, 0]   # only the deciding natural one counts as a turn throw
    assert r.turns == 1 and r.plies == 0  # automatic opening is not a DP
    assert sorted(g.state.pos[0]) == [0, 0, 0, 0, 0, 1]
    assert g.state.pos[1] == [HOME] * 6
    assert nxt == 1
    assert len(g.sticks.throws) == 1  # the opening used no extra throw


def test_v3_2_first_natural_one_by_seat1():
    g = Game(STD, [Scripted(), Scripted()], ScriptedSticks([T(2), N1]))
    nxt = g.setup()
    assert g.record.start_seat == 1 and g.record.start_throws == 1
    assert g.record.throws == [0, 1]
    assert sorted(g.state.pos[1]) == [0, 0, 0, 0, 0, 1]
    assert nxt == 0


def test_v3_2_first_natural_one_alternating_blocks_start_player_is_black_and_opens_12_to_13():
    """Alternative preset: the opening natural one grants no extra throw (no DP-2)."""
    rules = Rules.preset("alternative")
    policies = [Scripted(), Scripted()]
    g = Game(rules, policies, ScriptedSticks([T(3), N1, T(4)]))
    nxt = g.setup()
    r = g.record
    assert r.start_seat == 1
    assert sorted(g.state.pos[1]) == [7, 8, 9, 10, 11, 13]  # black
    assert sorted(g.state.pos[0]) == [1, 2, 3, 4, 5, 6]     # white
    assert r.turns == 1 and r.throws == [0, 1] and r.start_throws == 1
    assert r.extra_throws == [0, 0] and r.plies == 0
    assert policies[1].extra_calls == 0
    assert nxt == 0 and len(g.sticks.throws) == 1


def test_v3_2_seat0_alternating_blocks_throwless_opening():
    g = Game(Rules(setup="alternating_blocks", start_player_rule="seat0"),
             [Scripted(), Scripted()], ScriptedSticks([]))
    nxt = g.setup()
    assert g.record.start_seat == 0
    assert sorted(g.state.pos[0]) == [7, 8, 9, 10, 11, 13]
    assert sorted(g.state.pos[1]) == [1, 2, 3, 4, 5, 6]
    assert g.record.turns == 1 and g.record.throws == [0, 0] and g.record.plies == 0
    assert nxt == 1


def test_v3_2_random_alternating_blocks_throwless_12_to_13_and_uniform():
    rules = Rules(setup="alternating_blocks", start_player_rule="random")
    starts = []
    for g_index in range(2000):
        g = Game(rules, [Scripted(), Scripted()], ScriptedSticks([]), chance=Stream(7, g_index, CHANCE))
        nxt = g.setup()  # ScriptedSticks([]) would raise on any throw
        s = g.record.start_seat
        starts.append(s)
        assert sorted(g.state.pos[s]) == [7, 8, 9, 10, 11, 13]
        assert sorted(g.state.pos[1 - s]) == [1, 2, 3, 4, 5, 6]
        assert g.record.turns == 1 and g.record.throws == [0, 0] and nxt == 1 - s
    assert starts.count(0) / len(starts) == pytest.approx(0.5, abs=0.05)


def test_v3_2_random_empty_board_turn1_is_a_normal_turn():
    rules = Rules(start_player_rule="random")
    g = Game(rules, [Scripted(), Scripted()], ScriptedSticks([T(3)]), chance=Stream(1, 0, CHANCE))
    start = g.setup()
    assert start == g.record.start_seat
    assert g.record.turns == 0 and g.state.pos == [[HOME] * 6, [HOME] * 6]
    g.play_turn(start)  # a normal throw: value 3 enters square 3, not square 1
    assert sorted(g.state.pos[start]) == [0, 0, 0, 0, 0, 3]
    assert g.record.turns == 1 and g.record.throws[start] == 1


def test_v3_2_first_natural_one_seat0_starts_16_of_29():
    """§3.4 / §7.10: P(seat 0 starts) = 16/29 with real sticks (sampled)."""
    n = 3000
    zeros = 0
    for g_index in range(n):
        g = Game(STD, [Scripted(), Scripted()], Sticks(STD, Stream(99, g_index, CHANCE)))
        g.setup()
        zeros += g.record.start_seat == 0
    assert zeros / n == pytest.approx(16 / 29, abs=0.035)


# ============================================================ V-4 turn


def test_v4_2_forward_moves_are_compulsory_no_backward_offered():
    st = state([10, 13, 20], [])
    assert legal_moves(STD, st, 0, T(3)) == [Move(13, 16), Move(20, 23)]


def test_v4_2_backward_only_when_no_forward_move():
    """26+3 = 29 is a safe square holding an opponent: F is empty, so 26 -> 23."""
    g = game(STD, [26], [29], [T(3)])
    g.play_turn(0)
    assert squares(g.state, 0) == [23]
    assert g.record.backward_moves[0] == 1 and g.record.forfeits[0] == 0


def test_v4_2_throw_forfeited_when_no_forward_and_no_backward():
    g = game(STD, [1], [2], [N1])
    g.play_turn(0)
    assert squares(g.state, 0) == [1]
    assert g.record.forfeits[0] == 1 and g.record.throws[0] == 1 and g.record.plies == 0


def test_v4_2_value_zero_is_no_move():
    """Not even leaving Valhalla (V-5.4 needs v >= 1) nor a release under any_one."""
    rules = Rules(dock_release="any_one")
    g = game(rules, [13, 36, 19], [], [T(0)], repairing=(0, 19))
    g.play_turn(0)
    assert squares(g.state, 0) == [13, 19, 36]
    assert g.record.forfeits[0] == 1 and g.record.plies == 0


def test_v4_2_value_minus_one_moves_one_back_even_with_forward_moves():
    rules = Rules(hagalaz_alone_value=-1)
    st = state([10, 20], [9])
    assert legal_moves(rules, st, 0, T(-1)) == [Move(10, 9, backward=True, attack=True),
                                               Move(20, 19, backward=True)]


def test_v4_2_value_minus_one_forfeited_without_distance_one_backward_move():
    rules = Rules(hagalaz_alone_value=-1)
    g = game(rules, [1, 36, 0], [], [T(-1)])  # 1 -> 0 is below 1; 36 and 0 never go back
    g.play_turn(0)
    assert g.record.forfeits[0] == 1 and g.record.backward_moves[0] == 0


def test_v4_3_rock_applied_after_move():
    g = game(STD, [27], [], [T(3)])
    g.play_turn(0)
    assert squares(g.state, 0) == [19]
    assert repairing_squares(g.state) == [(0, 19)]
    assert g.record.rock_hits == [1, 0]


def test_v4_4_game_ends_at_once_no_extra_throw_after_winning():
    """Bearing off the last ship on a 5 ends the game: no DP-2 despite class 5."""
    policies = [Scripted(), Scripted()]
    g = game(EXTRA_OPTIONAL, [36], [10], [T(5), T(5)], policies=policies)
    g.play_turn(0)
    assert g.finished and g.record.winner == 0
    assert g.state.borne_off(0) == 6
    assert g.record.plies == 1 and policies[0].extra_calls == 0
    assert g.record.extra_throws == [0, 0] and len(g.sticks.throws) == 1


def test_v4_5_optional_extra_throw_declined():
    policies = [Scripted(extra=[False]), Scripted()]
    g = game(EXTRA_OPTIONAL, [10], [], [T(4), T(2)], policies=policies)
    g.play_turn(0)
    assert squares(g.state, 0) == [14]
    assert g.record.throws[0] == 1 and g.record.extra_throws[0] == 0
    assert g.record.plies == 2  # DP-1 + DP-2
    assert len(g.sticks.throws) == 1


def test_v4_5_optional_extra_throw_taken():
    policies = [Scripted(extra=[True]), Scripted()]
    g = game(EXTRA_OPTIONAL, [10], [], [T(5), T(3)], policies=policies)
    g.play_turn(0)
    assert squares(g.state, 0) == [18]
    assert g.record.throws[0] == 2 and g.record.extra_throws[0] == 1
    assert g.record.turns == 1
    assert g.record.plies == 3  # DP-1, DP-2, DP-1


def test_v4_5_extra_throw_after_a_forfeited_throw():
    """Natural one with no legal move: forfeited, but the extra throw still applies."""
    policies = [Scripted(extra=[True]), Scripted()]
    g = game(EXTRA_OPTIONAL, [1], [2], [N1, T(2)], policies=policies)
    g.play_turn(0)
    assert squares(g.state, 0) == [3]
    assert g.record.forfeits[0] == 1 and g.record.extra_throws[0] == 1
    assert g.record.throws[0] == 2
    assert g.record.plies == 2  # DP-2 then DP-1; the forfeit is no DP


def test_v4_5_forced_extra_throw_is_automatic_and_not_a_ply():
    policies = [Scripted(), Scripted()]  # any DP-2 would fail the test
    g = game(EXTRA_FORCED, [10], [], [T(4), N1, T(2)], policies=policies)
    g.play_turn(0)
    assert squares(g.state, 0) == [17]  # 10 -> 14 -> 15 -> 17
    assert g.record.throws[0] == 3 and g.record.extra_throws[0] == 2
    assert g.record.plies == 3 and policies[0].extra_calls == 0


def test_v4_5_no_extra_throw_when_disabled():
    """Standard preset: a 5 does not grant an extra throw (§7.9 turns alternate)."""
    g = game(STD, [10], [], [T(5), T(5)])
    g.play_turn(0)
    assert g.record.throws[0] == 1 and len(g.sticks.throws) == 1


def test_v4_5_value_zero_never_grants_extra_throw():
    g = game(EXTRA_FORCED, [10], [], [T(0), T(2)])
    g.play_turn(0)
    assert g.record.throws[0] == 1 and g.record.extra_throws[0] == 0


def test_v8_single_turn_reaching_1000_throws_aborts():
    """Forced extra throws on every throw, and no move possible: abort at 1,000 throws."""
    rules = Rules(ships_per_player=1, extra_throw_enabled=True, extra_throw_optional=False)
    st = State.from_positions([0], [5])  # entering square 5 is blocked (safe, occupied)
    g = Game(rules, [Scripted(), Scripted()], ScriptedSticks([T(5)] * 1005), state=st)
    g.play_turn(0)
    assert g.finished and g.record.result == "aborted"
    assert g.record.throws[0] == 1000
    assert len(g.sticks.throws) == 5


# ============================================================ V-5 moves


def test_v5_1_entering_is_an_ordinary_option_listed_last():
    st = state([0, 0, 10], [])
    assert legal_moves(STD, st, 0, T(4)) == [Move(10, 14), Move(0, 4)]


def test_v5_1_entering_onto_occupied_entry_square_is_illegal():
    """§7.6: with default safe squares an entering ship never attacks."""
    st = state([0], [4])
    assert legal_moves(STD, st, 0, T(4)) == []


def test_v5_2_forward_move():
    st = state([10], [])
    assert legal_moves(STD, st, 0, T(4)) == [Move(10, 14)]


def test_v5_2_overshoot_exact_or_over_stops_on_36():
    st = state([33], [])
    assert legal_moves(STD, st, 0, T(5)) == [Move(33, 36)]


def test_v5_2_overshoot_exact_is_illegal_then_backward():
    rules = Rules(valhalla_entry="exact")
    assert legal_moves(rules, state([33], []), 0, T(5)) == [Move(33, 28, backward=True)]
    assert legal_moves(rules, state([31], []), 0, T(5)) == [Move(31, 36)]


def test_v5_2_overshoot_direct_off_bears_off_when_gate_open():
    rules = Rules(valhalla_entry="direct_off")
    st = state([33, 20], [])
    assert Move(33, OFF) in legal_moves(rules, st, 0, T(5))
    apply_move(rules, st, 0, Move(33, OFF))
    assert squares(st, 0) == [20] and st.borne_off(0) == 5


def test_v5_2_overshoot_direct_off_blocked_by_closed_gate():
    rules = Rules(valhalla_entry="direct_off")
    st = state([33, 12], [])
    assert legal_moves(rules, st, 0, T(5)) == [Move(12, 17)]


def test_v5_3_repairing_ship_released_by_natural_one_only():
    st = state([10, 19], [], repairing=(0, 19))
    assert legal_moves(STD, st, 0, N1) == [Move(10, 11), Move(19, 20)]
    assert legal_moves(STD, st, 0, U1) == [Move(10, 11)]
    assert legal_moves(STD, st, 0, T(2)) == [Move(10, 12)]


def test_v5_3_repairing_ship_released_by_any_one():
    rules = Rules(dock_release="any_one")
    st = state([19], [], repairing=(0, 19))
    assert legal_moves(rules, st, 0, U1) == [Move(19, 20)]
    assert legal_moves(rules, st, 0, T(3)) == []


def test_v5_3_repairing_ship_cannot_move_on_other_values_nor_backward():
    st = state([19], [], repairing=(0, 19))
    assert legal_moves(STD, st, 0, T(2)) == []


def test_v5_3_release_may_attack_on_20_and_clears_flags():
    st = state([19], [20], repairing=(0, 19))
    moves = legal_moves(STD, st, 0, N1)
    assert moves == [Move(19, 20, attack=True)]
    apply_move(STD, st, 0, moves[0])
    assert squares(st, 0) == [20] and squares(st, 1) == [19]
    assert repairing_squares(st) == []  # the swapped ship on 19 is not repairing


def test_v5_3_dock_release_counted_in_record():
    g = game(STD, [19], [], [N1], repairing=(0, 19))
    g.play_turn(0)
    assert squares(g.state, 0) == [20] and repairing_squares(g.state) == []
    assert g.record.dock_releases == [1, 0]


@pytest.mark.parametrize("value", [1, 5])
def test_v5_4_leaving_valhalla_with_any_value(value):
    st = state([36], [])
    assert legal_moves(STD, st, 0, Throw(value, value == 1)) == [Move(36, OFF)]


def test_v5_4_leaving_valhalla_needs_open_gate():
    st = state([36, 8], [])
    assert legal_moves(STD, st, 0, T(2)) == [Move(8, 10)]


@pytest.mark.parametrize("rule, expected", [
    ("full_throw", [Move(26, 23, backward=True)]),
    ("one_square", [Move(26, 25, backward=True)]),
    ("none", []),
])
def test_v5_5_backward_rule(rule, expected):
    rules = Rules(backward_rule=rule)
    st = state([26], [29])
    assert legal_moves(rules, st, 0, T(3)) == expected


def test_v5_5_backward_target_must_be_at_least_1():
    st = state([2], [4])
    assert legal_moves(STD, st, 0, T(2)) == []


def test_v5_5_ships_at_home_36_and_repairing_never_move_backward():
    """Home ship blocked (3 occupied), 36 gated shut by the home ship, 19 repairing."""
    st = state([0, 36, 19], [3], repairing=(0, 19))
    assert legal_moves(STD, st, 0, T(3)) == []


def test_v5_5_backward_move_may_attack_when_allowed():
    st = state([26], [29, 23])
    assert legal_moves(STD, st, 0, T(3)) == [Move(26, 23, backward=True, attack=True)]
    assert legal_moves(Rules(backward_attacks_allowed=False), st, 0, T(3)) == []


def test_v5_6_blocked_entry_forfeits_whole_throw_when_on():
    st = state([0, 10], [3])
    assert legal_moves(STD, st, 0, T(3)) == [Move(10, 13)]  # off: only the entry is illegal
    rules = Rules(blocked_entry_forfeits_turn=True)
    assert legal_moves(rules, st, 0, T(3)) == []


def test_v5_6_blocked_entry_also_by_own_ship():
    rules = Rules(blocked_entry_forfeits_turn=True)
    assert legal_moves(rules, state([0, 3, 10], []), 0, T(3)) == []


def test_v5_6_blocked_entry_needs_ship_at_home_and_occupied_square():
    rules = Rules(blocked_entry_forfeits_turn=True)
    assert legal_moves(rules, state([10], [3]), 0, T(3)) == [Move(10, 13)]       # no ship home
    assert legal_moves(rules, state([0, 10], [4]), 0, T(3)) == [Move(10, 13), Move(0, 3)]  # 3 empty


def test_v5_6_blocked_entry_forfeit_counts_and_keeps_extra_throw():
    rules = Rules(blocked_entry_forfeits_turn=True, extra_throw_enabled=True, extra_throw_optional=False)
    g = game(rules, [0, 10], [1], [N1, T(2)])
    g.play_turn(0)
    assert squares(g.state, 0) == [0, 12]  # the 1 was voided, the extra 2 moved 10 -> 12
    assert g.record.forfeits[0] == 1 and g.record.extra_throws[0] == 1 and g.record.plies == 1


def test_v5_7_attack_swaps_ships():
    g = game(STD, [10], [13], [T(3)])
    g.play_turn(0)
    assert squares(g.state, 0) == [13] and squares(g.state, 1) == [10]
    assert g.record.captures == [1, 0]


def test_v5_7_opponent_on_safe_square_cannot_be_attacked():
    st = state([27], [29])
    assert Move(27, 29, attack=True) not in legal_moves(STD, st, 0, T(2))


def test_v5_7_swap_into_entry_area_is_allowed():
    st = state([3], [6])
    moves = legal_moves(STD, st, 0, T(3))
    assert moves == [Move(3, 6, attack=True)]
    apply_move(STD, st, 0, moves[0])
    assert squares(st, 1) == [3]


def test_v5_7_entering_attack_sends_victim_home_when_entry_not_safe():
    rules = Rules(safe_squares={29, 32, 34})
    st = state([0], [3])
    moves = legal_moves(rules, st, 0, T(3))
    assert moves == [Move(0, 3, attack=True)]
    apply_move(rules, st, 0, moves[0])
    assert squares(st, 0) == [3] and squares(st, 1) == [0]


def test_v5_7_ships_on_36_are_never_attacked():
    st = state([34], [36])
    moves = legal_moves(STD, st, 0, T(2))
    assert moves == [Move(34, 36)]  # legal, and not an attack
    apply_move(STD, st, 0, moves[0])
    assert squares(st, 1) == [36]


def test_v5_8_passage_blocked_by_protected_run_when_on():
    rules = Rules(blockade_blocks_passage=True)
    st = state([10, 24], [26, 27])
    assert legal_moves(STD, st, 0, T(5)) == [Move(10, 15), Move(24, 29)]
    assert legal_moves(rules, st, 0, T(5)) == [Move(10, 15)]


def test_v5_8_run_of_three_does_not_block_passage():
    rules = Rules(blockade_blocks_passage=True)
    st = state([24], [26, 27, 28])
    assert legal_moves(rules, st, 0, T(5)) == [Move(24, 29)]


def test_v5_8_passage_entering_counts_origin_as_0():
    """Square 1 lies strictly between origin 0 and target 3."""
    rules = Rules(blockade_blocks_passage=True, blockade_zone=(1, 12), protected_run_lengths={1})
    st = state([0], [1])
    assert legal_moves(rules, st, 0, T(3)) == []
    assert legal_moves(rules.replace(blockade_blocks_passage=False), st, 0, T(3)) == [Move(0, 3)]


def test_v5_8_passage_applies_to_backward_moves():
    """28+4 = 32 safe and occupied; backward 28 -> 24 would pass the run 25,26."""
    st = state([28], [32, 25, 26])
    assert legal_moves(STD, st, 0, T(4)) == [Move(28, 24, backward=True)]
    assert legal_moves(Rules(blockade_blocks_passage=True), st, 0, T(4)) == []


def test_v5_9_one_option_per_origin_canonical_order_home_last():
    st = state([0, 0, 7, 20, 36, 36], [])
    # gate closed (ships on 0 and 7): no move from 36
    assert legal_moves(STD, st, 0, N1) == [Move(7, 8), Move(20, 21), Move(0, 1)]


def test_v5_9_ships_sharing_36_give_one_option_and_home_after_36():
    rules = Rules(unentered_count_as_row1=False)
    st = state([0, 0, 14, 36, 36], [])
    assert legal_moves(rules, st, 0, T(2)) == [Move(14, 16), Move(36, OFF), Move(0, 2)]


# ============================================================ V-6 special squares


@pytest.mark.parametrize("square", [1, 2, 3, 4, 5, 29, 32, 34])
def test_v6_1_default_safe_squares_are_protected(square):
    assert is_protected(STD, state([], [square]), square)


@pytest.mark.parametrize("square", [6, 12, 19, 28, 31, 33, 35])
def test_v6_1_other_lone_ships_are_not_protected(square):
    assert not is_protected(STD, state([], [square]), square)


def test_v6_1_custom_safe_squares():
    rules = Rules(safe_squares={10})
    assert is_protected(rules, state([], [10]), 10)
    assert not is_protected(rules, state([], [3]), 3)


def test_v6_2_ship_reaching_dock_by_ordinary_move_is_not_repairing():
    st = state([16], [])
    apply_move(STD, st, 0, Move(16, 19))
    assert repairing_squares(st) == []
    assert legal_moves(STD, st, 0, T(2)) == [Move(19, 21)]


def test_v6_2_other_ships_move_while_one_repairs():
    st = state([19, 8], [], repairing=(0, 19))
    assert legal_moves(STD, st, 0, T(3)) == [Move(8, 11)]


def test_v6_3_rock_with_dock_empty_goes_to_dock_repairing():
    st = state([27], [])
    apply_move(STD, st, 0, Move(27, 30))
    assert squares(st, 0) == [19] and repairing_squares(st) == [(0, 19)]


def test_v6_3_rock_with_dock_taken_goes_to_square_1():
    st = state([27], [19])
    apply_move(STD, st, 0, Move(27, 30))
    assert squares(st, 0) == [1] and repairing_squares(st) == []


def test_v6_3_rock_with_dock_taken_by_repairing_ship_goes_to_square_1():
    """§7.4: at most one repairing ship."""
    st = state([27], [19], repairing=(1, 19))
    apply_move(STD, st, 0, Move(27, 30))
    assert squares(st, 0) == [1] and repairing_squares(st) == [(1, 19)]


def test_v6_3_rock_with_dock_and_1_taken_goes_to_lowest_empty_square():
    st = state([27, 3], [19, 1, 2])
    apply_move(STD, st, 0, Move(27, 30))
    assert squares(st, 0) == [3, 4] and repairing_squares(st) == []
    assert st.owner(30) is None  # §7.3


def test_v6_3_rock_hit_by_backward_move():
    g = game(STD, [32], [34], [T(2)])
    g.play_turn(0)
    assert squares(g.state, 0) == [19] and repairing_squares(g.state) == [(0, 19)]
    assert g.record.backward_moves[0] == 1 and g.record.rock_hits[0] == 1


def test_v6_3_custom_rock_and_dock_squares():
    rules = Rules(rock_square=20, dock_square=10)
    st = state([17], [])
    apply_move(rules, st, 0, Move(17, 20))
    assert squares(st, 0) == [10] and repairing_squares(st) == [(0, 10)]


def test_v6_4b_repairing_ship_protected():
    st = state([17], [19], repairing=(1, 19))
    assert is_protected(STD, st, 19)
    assert legal_moves(STD, st, 0, T(2)) == [Move(17, 15, backward=True)]


def test_v6_4b_repairing_ship_protected_off_allows_attack_and_clears_flag():
    rules = Rules(repairing_ship_protected=False)
    st = state([17], [19], repairing=(1, 19))
    moves = legal_moves(rules, st, 0, T(2))
    assert moves == [Move(17, 19, attack=True)]
    apply_move(rules, st, 0, moves[0])
    assert squares(st, 0) == [19] and squares(st, 1) == [17]
    assert repairing_squares(st) == []  # attacker arrived by a swap; victim left the dock


def test_v6_4b_non_repairing_ship_on_dock_is_not_protected():
    st = state([17], [19])
    assert not is_protected(STD, st, 19)
    assert legal_moves(STD, st, 0, T(2)) == [Move(17, 19, attack=True)]


@pytest.mark.parametrize("run, protected", [
    ([26, 27], True),
    ([26, 27, 28], False),
    ([25, 26, 27, 28], True),
    ([26], False),
])
def test_v6_4c_blockade_run_lengths(run, protected):
    st = state([], run)
    assert all(is_protected(STD, st, sq) == protected for sq in run)


def test_v6_4c_attack_on_run_of_two_illegal_run_of_three_legal():
    assert legal_moves(STD, state([24], [26, 27]), 0, T(3)) == [Move(24, 21, backward=True)]
    assert legal_moves(STD, state([24], [26, 27, 28]), 0, T(3)) == [Move(24, 27, attack=True)]


def test_v6_4c_runs_outside_zone_are_not_protected():
    st = state([], [21, 22])
    assert not is_protected(STD, st, 21) and not is_protected(STD, st, 22)
    zone = Rules(blockade_zone=(20, 24))
    assert is_protected(zone, st, 21) and is_protected(zone, st, 22)


def test_v6_4c_run_is_cut_at_the_zone_boundary():
    st = state([], [24, 25])  # only 25 lies in 25..35: run of length 1
    assert not is_protected(STD, st, 25)
    assert not is_protected(STD, st, 24)


def test_v6_4c_square_36_never_extends_a_run():
    st = state([33], [35, 36])
    assert not is_protected(STD, st, 35)
    assert Move(33, 35, attack=True) in legal_moves(STD, st, 0, T(2))


def test_v6_4c_run_needs_a_single_owner():
    st = state([27], [26, 28])
    assert not is_protected(STD, st, 26) and not is_protected(STD, st, 28)


def test_v6_4c_custom_protected_run_lengths():
    rules = Rules(protected_run_lengths={3})
    assert is_protected(rules, state([], [26, 27, 28]), 27)
    assert not is_protected(rules, state([], [26, 27]), 27)


# ============================================================ V-7 bearing off gate


def test_v7_every_bear_off_gate():
    assert gate_open(STD, state([36, 13], []), 0)
    assert not gate_open(STD, state([36, 12], []), 0)
    assert not gate_open(STD, state([36, 1], []), 0)
    # still closed after a ship was borne off (padding holds borne-off ships)
    st = State.from_positions([OFF, 36, 12, 20, 20, 20], pos([]))
    assert not gate_open(STD, st, 0)


def test_v7_unentered_ships_count_as_row1():
    st = state([36, 0], [])
    assert not gate_open(STD, st, 0)
    assert gate_open(Rules(unentered_count_as_row1=False), st, 0)


def test_v7_first_only_gate():
    rules = Rules(bear_off_gate="first_only")
    none_off = State.from_positions([36, 12, 20, 21, 22, 23], pos([]))
    one_off = State.from_positions([OFF, 36, 12, 20, 21, 22], pos([]))
    assert not gate_open(rules, none_off, 0)
    assert gate_open(rules, one_off, 0)
    assert legal_moves(rules, one_off, 0, T(4)) == [Move(12, 16), Move(20, 24), Move(21, 25),
                                                   Move(22, 26), Move(36, OFF)]


def test_v7_gate_none_always_open():
    rules = Rules(bear_off_gate="none")
    st = State.from_positions([36, 0, 1, 2, 3, 4], pos([]))
    assert gate_open(rules, st, 0)
    assert Move(36, OFF) in legal_moves(rules, st, 0, T(5))


# ============================================================ V-8 end of game


def test_v8_win_ends_game_and_record():
    rules = Rules(start_player_rule="seat0")
    g = game(rules, [36], [10, 11, 14, 15, 16, 17], [T(2)])  # seat 1 never throws
    record = g.play()
    assert record.result == "win" and record.winner == 0
    assert record.score == [6, 0]
    assert record.turns == 1 and record.plies == 1 and record.throws == [1, 0]


def test_v8_max_turns_aborts():
    rules = Rules(start_player_rule="seat0", max_turns=3)
    g = game(rules, [10], [10 + 1], [T(0), T(0), T(0)])  # a 4th turn would need a 4th throw
    record = g.play()
    assert record.result == "aborted"
    assert record.winner not in (0, 1)
    assert record.turns == 3
    assert record.throws == [2, 1] and record.forfeits == [2, 1]


# ============================================================ §5 decision points


def test_s5_single_option_dp1_is_a_ply():
    g = game(STD, [10], [], [T(2)])
    g.play_turn(0)
    assert g.record.plies == 1


def test_s5_dp1_options_offered_in_canonical_order():
    policy = Scripted(origins=[0])
    g = game(STD, [0, 20, 8], [], [T(3)], policies=[policy, Scripted()])
    g.play_turn(0)
    assert [m.origin for m in policy.offered[0]] == [8, 20, 0]
    assert squares(g.state, 0) == [3, 8, 20]


def test_s5_no_ply_for_forfeit_value_zero_or_rock():
    g = game(STD, [27], [], [T(0), T(3)])
    g.play_turn(0)  # value 0: no DP
    g.play_turn(0)  # one DP-1; the rock relocation is no DP
    assert g.record.plies == 1 and g.record.turns == 2


# ============================================================ §6 record


def test_s6_record_counts_over_several_turns():
    """Seat 0: capture, rock hit, dock release, backward move, forfeit; seat 1: value 0."""
    g = game(STD, [10, 27, 26], [13, 29], [T(3), T(3), T(0), N1, T(3)],
             policies=[Scripted(origins=[10, 27, 19, 20]), Scripted()])
    g.play_turn(0)  # 10 -> 13 attack: seat 1's ship goes to 10
    g.play_turn(0)  # 27 -> 30 rock -> 19 repairing
    g.play_turn(1)  # value 0: forfeit
    g.play_turn(0)  # natural one releases 19 -> 20
    g.play_turn(0)  # 20 -> 23 (26 + 3 = 29 is safe and occupied)
    r = g.record
    assert r.captures == [1, 0]
    assert r.rock_hits == [1, 0]
    assert r.dock_releases == [1, 0]
    assert r.forfeits == [0, 1]
    assert r.throws == [4, 1]
    assert r.turns == 5 and r.plies == 4
    assert squares(g.state, 0) == [13, 23, 26] and squares(g.state, 1) == [10, 29]


def test_s6_backward_moves_and_forfeits_counted_per_seat():
    g = game(STD, [26], [29, 2], [T(3), T(2), T(0)])
    g.play_turn(0)  # backward 26 -> 23
    g.play_turn(1)  # seat 1: 2 -> 4 forward (29 + 2 = 31)
    g.play_turn(0)  # value 0
    r = g.record
    assert r.backward_moves == [1, 0]
    assert r.forfeits == [1, 0]
    assert r.throws == [2, 1] and r.plies == 2


# ============================================================ §7 invariants


@pytest.mark.parametrize("preset", ["standard", "alternative"])
def test_s7_invariants_hold_in_random_games(preset):
    """§7.1-§7.8 checked after every move resolution of 10 random games."""
    rules = Rules.preset(preset)
    for g_index in range(10):
        seen = {"prev": None, "moves": 0}

        def observer(g, event, seen=seen):
            st = g.state
            for seat in (0, 1):
                assert len(st.pos[seat]) == rules.ships_per_player  # 7.1
                assert all(0 <= p <= 37 for p in st.pos[seat])
            on_track = [p for seat in (0, 1) for p in st.pos[seat] if 1 <= p <= 35]
            assert len(on_track) == len(set(on_track))  # 7.2
            assert st.owner(rules.rock_square) is None  # 7.3
            rep = repairing_squares(st)
            assert len(rep) <= 1 and all(sq == rules.dock_square for _, sq in rep)  # 7.4
            prev = seen["prev"]
            if prev is not None:
                for seat in (0, 1):
                    assert st.borne_off(seat) >= prev.borne_off(seat)  # 7.5
                    assert st.pos[seat].count(HOME) <= prev.pos[seat].count(HOME)  # 7.6
                    if st.borne_off(seat) > prev.borne_off(seat):
                        assert gate_open(rules, prev, seat)  # 7.7
            seen["prev"] = st.copy()
            seen["moves"] += 1

        record = play_game(rules, seed=2024, game_index=g_index, observer=observer)
        assert record.result == "win"
        assert record.score[record.winner] == 6 and record.score[1 - record.winner] < 6
        # 7.8: throws = moves after a throw + forfeits (the throwless opening excluded)
        throwless = 1 if (rules.setup == "alternating_blocks"
                          and rules.start_player_rule != "first_natural_one") else 0
        assert sum(record.throws) == seen["moves"] - throwless + sum(record.forfeits)


def test_s7_10_alternative_random_policy_throws_per_turn_tend_to_32_27():
    """§7.10: mean throws per turn (excluding turn 1 and the final turn) -> 32/27."""
    from toolkit.games.valhalla.policies import make_policy

    class CountingSticks:
        def __init__(self, sticks):
            self.sticks = sticks
            self.game = None
            self.per_turn = {}

        def throw(self):
            turn = self.game.record.turns
            self.per_turn[turn] = self.per_turn.get(turn, 0) + 1
            return self.sticks.throw()

    rules = Rules.preset("alternative")
    throws = turns = 0
    for g_index in range(300):
        chance = Stream(31, g_index, CHANCE)
        players = [make_policy("random", rules, Stream(31, g_index, 1 + s)) for s in (0, 1)]
        sticks = CountingSticks(Sticks(rules, chance))
        g = Game(rules, players, sticks, chance=chance)
        sticks.game = g
        record = g.play()
        assert record.result == "win"
        middle = [n for t, n in sticks.per_turn.items() if 1 < t < record.turns]
        throws += sum(middle)
        turns += len(middle)
    assert throws / turns == pytest.approx(32 / 27, abs=0.015)

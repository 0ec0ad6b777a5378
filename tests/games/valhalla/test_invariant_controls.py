"""Negative controls for the Valhalla kernel's §7 checks (issue 15, point 6).

``kernel.check_state`` runs after every move when ``check=True``; the games
of ``test_invariants.py`` only show it stays silent.  Silence is also what a
checker that never looks returns (``return INV_OK`` on its first line left
every invariant and runner test green), so here, as the other four games do:

- the checker passes valid states: hand-built ones, every position of a few
  seeded reference games (converted to the bitboard by :func:`bitboard`,
  written here from the state layout in the kernel's docstring) and the end
  of a kernel game;
- each way of breaking §7.1-7.6 is made by hand on a valid state, for either
  seat, and the checker must return that invariant's own code;
- §7.8's value range, checked inside ``play_game``, is fed a throw table
  with a value outside the mode's range.

§7.7 (the gate) is checked inside ``play_game`` against the same
``gate_bit`` that builds the options, so no input can reach it without
changing the code; it has no control here.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from toolkit.games.valhalla import kernel as K
from toolkit.games.valhalla import reference
from toolkit.games.valhalla.rules import Rules
from valhalla_configs import CONFIGS  # the shared rule configurations, beside this file

RULES = Rules()  # rock on 30, dock on 19, six ships, squares 1..5 safe: §7.6 applies
HOME, VALHALLA, OFF = 0, 36, 37


def bitboard(pos0, pos1, repairing=None) -> np.ndarray:
    """The kernel's state for ships on squares ``pos0`` / ``pos1`` (0 home, 1..35, 36, 37);
    ``repairing`` is the seat whose ship on the dock repairs."""
    st = np.zeros(K.STATE_SIZE, np.int64)
    for seat, pos in enumerate((pos0, pos1)):
        for p in pos:
            if p == HOME:
                st[K.HOME_N + seat] += 1
            elif p == VALHALLA:
                st[K.VAL_N + seat] += 1
            elif p == OFF:
                st[K.OFF + seat] += 1
            else:
                st[seat] |= 1 << p
    st[K.REP] = -1 if repairing is None else repairing
    return st


@functools.lru_cache(maxsize=None)
def kernel_rules(rules) -> np.ndarray:
    return K.to_kernel(rules)[0]


def check(st, off_before=None, home_before=None, home_monotone=True, rules=RULES) -> int:
    """``check_state`` with the counts before the move (by default: those of ``st``, nothing moved)."""
    ip = kernel_rules(rules)
    off = np.array(off_before if off_before is not None else st[K.OFF:K.OFF + 2], np.int64)
    home = np.array(home_before if home_before is not None else st[K.HOME_N:K.HOME_N + 2], np.int64)
    return int(K.check_state(ip, st, off, home, home_monotone))


# a mid-game position: both seats on the track, in Valhalla and borne off; seat 1 repairs on the dock (19)
MID_GAME = ([0, 3, 12, 25, 36, 37], [7, 19, 29, 33, 36, 0])


def valid(repairing=1) -> np.ndarray:
    return bitboard(*MID_GAME, repairing=repairing)


# ---------------------------------------------------------------------- valid states pass


def test_the_codes_are_distinct():
    codes = (K.INV_OK, K.INV_SHIPS, K.INV_OCCUPANCY, K.INV_ROCK, K.INV_REPAIRING, K.INV_OFF_DECREASED,
             K.INV_HOME_INCREASED, K.INV_GATE, K.INV_THROWS)
    assert K.INV_OK == 0 and len(set(codes)) == len(codes)


@pytest.mark.parametrize("pos0,pos1,repairing", [
    ([0] * 6, [0] * 6, None),  # the start
    (MID_GAME[0], MID_GAME[1], 1),
    (MID_GAME[0], MID_GAME[1], None),
    ([19, 0, 0, 0, 0, 0], [1, 2, 3, 4, 5, 6], 0),  # seat 0 repairs
    ([37] * 6, [35, 34, 31, 28, 1, 0], None),  # seat 0 has won
])
def test_a_valid_state_passes(pos0, pos1, repairing):
    assert check(bitboard(pos0, pos1, repairing)) == K.INV_OK


def test_a_legal_move_passes():
    """Counts before a bear-off and an entry: borne-off up by one, home down by one."""
    st = valid()
    assert check(st, off_before=(st[K.OFF] - 1, st[K.OFF + 1])) == K.INV_OK
    assert check(st, home_before=(st[K.HOME_N] + 1, st[K.HOME_N + 1])) == K.INV_OK


class Positions:
    """Observer of a reference game: every position after a move, with the counts before it."""

    def __init__(self):
        self.before = None  # the first move's 'before' (the set-up) is not observed: it is skipped
        self.seen = []

    def __call__(self, game, event):
        state = game.state
        repairing = [s for s in (0, 1) for r in state.repairing[s] if r]
        st = bitboard(state.pos[0], state.pos[1], repairing[0] if repairing else None)
        if self.before is not None:
            self.seen.append((st, self.before[K.OFF:K.OFF + 2].copy(), self.before[K.HOME_N:K.HOME_N + 2].copy()))
        self.before = st


@pytest.mark.parametrize("config,policies", [("standard", ("random", "random")), ("standard", ("greedy", "random")),
                                             ("variant_a", ("random", "greedy")), ("variant_d", ("random", "random"))])
def test_every_position_of_reference_games_passes(config, policies):
    """No false alarm on real play: positions after every move of seeded reference games (variant_a has
    an attackable repairing ship, variant_d three ships and the rock and dock moved to 20 and 10)."""
    rules = CONFIGS[config]
    home_monotone = kernel_rules(rules)[K.P_HOME_MONOTONE] == 1
    checked = repairs = 0
    for g in range(20):
        observer = Positions()
        reference.play_game(rules, 17, g, policies, observer=observer)
        for st, off_before, home_before in observer.seen:
            assert check(st, off_before, home_before, home_monotone, rules) == K.INV_OK, (g, st.tolist())
            checked += 1
            repairs += st[K.REP] >= 0
    assert checked > 500 and repairs > 20, (checked, repairs)


def test_the_end_of_a_kernel_game_passes():
    work = np.zeros(K.WORK_SIZE, np.int64)
    row = np.zeros(K.N_COLUMNS, np.int32)
    code = K.play_game(K.to_kernel(RULES), K.policy_ids(("greedy", "random")), 3, 0, row, True,
                       np.zeros(3, np.uint64), work)
    assert code == K.INV_OK
    st = work[:K.STATE_SIZE].copy()
    assert st[K.OFF + row[K.C_WINNER]] == RULES.ships_per_player
    assert check(st) == K.INV_OK


# ---------------------------------------------------------------------- each corruption, its own code


def _move_ship(st, seat, origin, target):
    st[seat] &= ~(1 << origin)
    st[seat] |= 1 << target


def corrupt(name, seat, st):
    """Break one §7 invariant of the valid state ``st`` for ``seat``, keeping the others."""
    other = 1 - seat
    on_track = [q for q in range(1, 36) if (st[seat] >> q) & 1 and q != RULES.dock_square]
    if name == "ship lost":  # §7.1
        st[seat] &= ~(1 << on_track[0])
    elif name == "ship added at home":
        st[K.HOME_N + seat] += 1
    elif name == "ship added in Valhalla":
        st[K.VAL_N + seat] += 1
    elif name == "ship added borne off":
        st[K.OFF + seat] += 1
    elif name == "ship below the track":  # bit 0 is not a square: the count of 1..35 still adds up
        st[seat] |= 1
    elif name == "ship beyond the track":
        st[seat] |= 1 << 36
    elif name == "negative home count":
        st[K.VAL_N + seat] += st[K.HOME_N + seat] + 1
        st[K.HOME_N + seat] = -1
    elif name == "two ships on a square":  # §7.2: one of seat's ships moves onto the other seat's
        target = next(q for q in range(1, 36) if (st[other] >> q) & 1 and q != RULES.dock_square)
        _move_ship(st, seat, on_track[0], target)
    elif name == "ship on the rock":  # §7.3
        _move_ship(st, seat, on_track[0], RULES.rock_square)
    elif name == "repairing beside the other seat's ship":  # §7.4: the ship on the dock is not seat's
        st[K.REP] = seat
    elif name == "repairing on an empty dock":  # the other seat's ship leaves the dock for home
        st[other] &= ~(1 << RULES.dock_square)
        st[K.HOME_N + other] += 1
        st[K.REP] = seat
    else:
        raise KeyError(name)


CONTROLS = {"ship lost": K.INV_SHIPS, "ship added at home": K.INV_SHIPS, "ship added in Valhalla": K.INV_SHIPS,
            "ship added borne off": K.INV_SHIPS, "ship below the track": K.INV_SHIPS,
            "ship beyond the track": K.INV_SHIPS, "negative home count": K.INV_SHIPS,
            "two ships on a square": K.INV_OCCUPANCY, "ship on the rock": K.INV_ROCK,
            "repairing beside the other seat's ship": K.INV_REPAIRING, "repairing on an empty dock": K.INV_REPAIRING}


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_a_corrupted_state_is_caught(name, seat):
    st = bitboard(*MID_GAME, repairing=None)
    # the dock holds a ship of the other seat's (so 'repairs' corruptions can move it), nobody repairs
    assert (st[1] >> RULES.dock_square) & 1 and check(st) == K.INV_OK
    if seat == 1:  # mirror: the same position with the seats swapped
        st = bitboard(MID_GAME[1], MID_GAME[0])
    corrupt(name, seat, st)
    assert check(st) == CONTROLS[name], (name, seat, st.tolist())


@pytest.mark.parametrize("seat", [0, 1])
def test_a_ship_coming_back_from_off_is_caught(seat):
    """§7.5: fewer ships borne off than before the move."""
    st = valid()
    off_before = st[K.OFF:K.OFF + 2].copy()
    off_before[seat] += 1
    assert check(st, off_before=off_before) == K.INV_OFF_DECREASED


@pytest.mark.parametrize("seat", [0, 1])
def test_a_ship_sent_home_is_caught_when_home_is_monotone(seat):
    """§7.6: more ships at home than before the move, where squares 1..5 are safe and no throw exceeds 5;
    under other rules (an attack on an entry square sends a ship home) the same state passes."""
    st = valid()
    home_before = st[K.HOME_N:K.HOME_N + 2].copy()
    home_before[seat] -= 1
    assert check(st, home_before=home_before) == K.INV_HOME_INCREASED
    assert check(st, home_before=home_before, home_monotone=False) == K.INV_OK
    assert K.to_kernel(RULES)[0][K.P_HOME_MONOTONE] == 1
    assert K.to_kernel(Rules(safe_squares=frozenset({29, 32, 34})))[0][K.P_HOME_MONOTONE] == 0


# ---------------------------------------------------------------------- §7.8 inside play_game


def _play(tvalue_change=None):
    ip, cdf, tvalue, tnat, gprob, gvalue, gnat = K.to_kernel(RULES)
    if tvalue_change is not None:
        tvalue = tvalue.copy()
        tvalue[tvalue_change[0]] = tvalue_change[1]
    codes = []
    for g in range(20):
        work = np.zeros(K.WORK_SIZE, np.int64)
        row = np.zeros(K.N_COLUMNS, np.int32)
        codes.append(int(K.play_game((ip, cdf, tvalue, tnat, gprob, gvalue, gnat),
                                     K.policy_ids(("random", "random")), 9, g, row, True, np.zeros(3, np.uint64),
                                     work)))
    return codes


def test_a_throw_value_out_of_range_is_caught():
    assert _play() == [K.INV_OK] * 20
    tvalue = K.to_kernel(RULES)[2]
    k = int(np.flatnonzero(tvalue == 2)[0])  # an outcome thrown in most games
    codes = _play((k, 9))  # no stick throw is worth 9 (§3)
    assert set(codes) <= {K.INV_OK, K.INV_THROWS} and codes.count(K.INV_THROWS) >= 15, codes

"""Walhalla §7 invariants in the kernel (``check=True``) on every test game, with negative controls.

The kernel tests §7.1-7.5 after setup, after every turn and after every raid
(:func:`invariants.check_between_turns`), §7.2 at every landing, §7.6-7.8 inside
the preparation and §7.9 after setup.  The controls corrupt a real
end-of-game state one way at a time and expect the matching code, from the
check itself and through the protocol (``check_step``, ``advance``,
``check_end``: what ``play_game`` returns).
"""

from __future__ import annotations

import numpy as np
import pytest

import toolkit
from toolkit.games.walhalla import invariants
from toolkit.games.walhalla import kernel as K
from toolkit.games.walhalla.rules import Rules

VARIANTS = {
    "standard": {},
    "variable": {"peninsula_tiles": "draw_18"},
    "flipped": {"landing_mandatory": False, "winner_loses_hero": False, "sell_cards_for_vikings": False,
                "tie_rounding": "down", "initial_walhalla_source": "midgard", "raids": 5, "cult_cards": 3,
                "action_deck": {"axe": 3, "shield": 1, "horn": 2, "walhalla": 1, "plunder": 1}},
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [3, 4])
def test_kernel_games_keep_the_invariants(variant, players):
    df = toolkit.simulate("walhalla", rules={"num_players": players, **VARIANTS[variant]}, n_games=5_000, seed=8,
                          progress=False, check=True)  # raises AssertionError naming the invariant
    assert (df["raids"] == df.attrs["rules"]["raids"]).all()


def _final_state(rules=None, seed=5):
    rules = rules or Rules()
    ip = K.to_kernel(rules)
    row = np.zeros(K.N_COLUMNS, np.int32)
    work = np.zeros(K.WORK_SIZE, np.int64)
    assert K.play_game(ip, K.policy_ids(("random",) * rules.num_players), seed, 0, row, True,
                       np.empty(2 * K.N_STREAMS, np.uint64), work) == 0
    st = work[:K.STATE_SIZE].copy()
    st[K.S_PREV_VP:K.S_PREV_VP + 4] = st[K.S_VP:K.S_VP + 4]
    return ip, st


def test_an_intact_state_passes():
    ip, st = _final_state()
    assert invariants.check_between_turns(ip, st) == 0
    assert invariants.check_lengths(st, 0) == 0


def _occupied(st):
    return next((k, j) for k in range(3) for j in range(16) if st[K.S_OCC + 16 * k + j] >= 0)


def _corrupt(name, st):
    if name == "viking lost":
        st[K.S_ASGARD + 1] -= 1
    elif name == "viking doubled":
        k, j = _occupied(st)
        st[K.S_MIDGARD + int(st[K.S_OCC + 16 * k + j])] -= 1
        st[K.S_OCC + 16 * k + j] = 7  # a colour not in the game
    elif name == "field beyond the peninsula":
        k = 0
        j = 2 * int(st[K.S_LEN + k])  # the first entry past the last field
        st[K.S_OCC + 16 * k + j] = 2  # not counted by fields_of, so §7.1 still holds
    elif name == "fjord over capacity":
        st[K.S_MOORED + 0] = 5
    elif name == "thirteen turns":
        st[K.S_TURNS_RAID + 1] = 13
    elif name == "card lost":
        st[K.S_DISCARD + int(np.argmax(st[K.S_DISCARD:K.S_DISCARD + 5]))] -= 1
    elif name == "vp falls":
        st[K.S_VP + 2] -= 1


CONTROLS = {"viking lost": K.INV_VIKINGS, "viking doubled": K.INV_VIKINGS,
            "field beyond the peninsula": K.INV_FIELDS, "fjord over capacity": K.INV_FJORDS,
            "thirteen turns": K.INV_FJORDS, "card lost": K.INV_CARDS, "vp falls": K.INV_VP}


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_a_corrupted_state_is_caught(name):
    ip, st = _final_state()
    _corrupt(name, st)
    assert invariants.check_between_turns(ip, st) == CONTROLS[name]


@pytest.mark.parametrize("lengths,draw18,code", [((5, 6, 7), 1, 0), ((6, 6, 6), 0, 0), ((5, 5, 5), 1, K.INV_LENGTHS),
                                                 ((4, 6, 8), 0, K.INV_LENGTHS), ((8, 8, 5), 0, K.INV_LENGTHS)])
def test_lengths_are_checked(lengths, draw18, code):
    _, st = _final_state()
    st[K.S_LEN:K.S_LEN + 3] = lengths
    assert invariants.check_lengths(st, draw18) == code


def test_landing_on_an_occupied_field_is_caught():
    ip, st = _final_state()
    k, j = _occupied(st)
    st[K.S_CHECK] = 1
    st[K.S_VIOLATION] = 0
    K.occupy(ip, st, np.zeros(K.N_STREAMS, np.uint64), 0, k, j)
    assert st[K.S_VIOLATION] == K.INV_FIELDS


def test_the_preparation_checks_run_clean_on_a_real_state():
    """7.6-7.8 sit inside ``preparation`` and ``heroes`` and hold by their construction (no control can break
    them without changing the code); on a real end-of-raid state they run and report nothing, and the
    heroes rule leaves a least Walhalla count of 0."""
    ip, st = _final_state()
    st[K.S_CHECK] = 1
    st[K.S_VIOLATION] = 0
    st[K.S_WALHALLA:K.S_WALHALLA + 4] = (3, 2, 4, 2)
    st[K.S_ASGARD:K.S_ASGARD + 4] -= st[K.S_WALHALLA:K.S_WALHALLA + 4] - 1
    K.preparation(ip, st, np.zeros(K.N_STREAMS, np.uint64))
    K.heroes(ip, st)
    assert st[K.S_VIOLATION] == 0
    assert tuple(st[K.S_WALHALLA:K.S_WALHALLA + 4]) == (1, 0, 2, 0)
    assert all(st[K.S_FTYPE + 16 * k + j] == K.WHEAT for k in range(3) for j in range(16)
               if st[K.S_OCC + 16 * k + j] >= 0)


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_the_protocol_reports_a_corrupted_state(name):
    """Through the protocol: a corruption at the end of a turn (``PH_TURN_END``, the game's own checks on) is
    caught by ``advance`` and returned by ``check_step`` and ``check_end``; with the checks off nothing is."""
    ip, st = _final_state()
    _corrupt(name, st)
    st[K.S_PHASE], st[K.S_VIOLATION] = K.PH_TURN_END, 0
    rs = np.zeros(2 * K.N_STREAMS, np.uint64)
    quiet = st.copy()
    quiet[K.S_CHECK] = 0
    K.advance_called(ip, quiet, rs.copy())
    assert quiet[K.S_VIOLATION] == 0
    st[K.S_CHECK] = 1
    K.advance_called(ip, st, rs)
    assert K.check_step(ip, st.copy(), st, 0) == CONTROLS[name]
    assert K.check_end(ip, st) == CONTROLS[name]


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_the_first_check_step_checks_the_set_up(name):
    """``check_step``'s first call (``S_CHECK`` still 0) runs the set-up's checks on ``before``."""
    ip, st = _final_state()
    before = st.copy()
    before[K.S_PREV_VP:K.S_PREV_VP + 4] = before[K.S_VP:K.S_VP + 4]
    _corrupt(name, before)
    st[K.S_CHECK], st[K.S_VIOLATION] = 0, 0
    assert K.check_step(ip, before, st.copy(), 0) == CONTROLS[name]
    intact = st.copy()
    assert K.check_step(ip, st.copy(), intact, 0) == 0 and intact[K.S_CHECK] == 1

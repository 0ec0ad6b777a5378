"""Attila §7 invariants in the kernel (``check=True``) on every test game, with negative controls.

The kernel checks §7 over every step of the protocol (:func:`kernel.check_step`:
a decision and the automatic steps up to the next one): §7.1-7.7 and 7.10 whenever
a turn ended in the step (:func:`kernel.check_turn`, against the state at the
step's decision point), the comparisons of §7.3, 7.5 and 7.7 on every other
step, §7.8 at every scoring and §7.9 at every DP-4 placement; the first code seen
is returned per game and ``simulate(check=True)`` raises on it.  The controls corrupt a real
end-of-game state one way at a time and expect the matching code, so the
checks can fail.
"""

from __future__ import annotations

import numpy as np
import pytest

import toolkit
from toolkit.games.attila import kernel as K
from toolkit.games.attila.rules import Rules

VARIANTS = {
    "standard": {},
    "strict": {"support_any_tribe": False, "war_tie_removes_all_weakest": False, "single_tribe_war_removes": True,
               "second_figure_option": False, "max_tiles_per_turn": 1, "tie_rounding": "up",
               "initiator_skips_refill_after_war": True, "tiebreak": "influence_sum", "start_player": "seat0"},
    "short": {"influence_track_max": 8, "war_threshold": 3, "figures_per_tribe": 4,
              "peace_tiles_per_century": (3, 3, 3, 3), "hand_size": 4, "cards_per_tribe": 4},
    # the toolkit's variants: wars dropped while the round finishes leave full provinces for turns
    "variants": {"finish_round": True, "later_seat_vp": 2, "influence_track_max": 10, "war_threshold": 3},
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_kernel_games_keep_the_invariants(variant, players, policy):
    rules = Rules(num_players=players, **VARIANTS[variant])
    df = toolkit.simulate("attila", rules=rules, n_games=1_000, seed=11, policies=policy, progress=False,
                          check=True)  # raises AssertionError naming the invariant
    assert (df["result"] != "aborted").all()  # §7 aside: every game ends by a rule, not the cap


@pytest.mark.parametrize("players", [2, 4])
def test_lookahead_games_keep_the_invariants(players):
    policies = ("lookahead:1",) + ("greedy",) * (players - 1)
    toolkit.simulate("attila", rules={"num_players": players}, n_games=10, seed=12, policies=policies,
                     progress=False, check=True)


def test_the_cap_ends_a_game_as_aborted():
    df = toolkit.simulate("attila", rules={"max_turns": 5}, n_games=200, seed=3, progress=False, check=True)
    assert (df["turns"] <= 5).all()
    aborted = df["result"] == "aborted"
    assert aborted.any() and (df.loc[aborted, "end_reason"] == "aborted").all()
    assert (df.loc[aborted, "n_winners"] == 0).all() and (df.loc[aborted, "winner"] == -1).all()


# ---------------------------------------------------------------------- negative controls


def _final_state(rules=None, seed=5):
    rules = rules or Rules()
    ip = K.to_kernel(rules)
    row = np.zeros(K.N_COLUMNS, np.int32)
    rs = np.empty(2 * K.N_STREAMS, np.uint64)
    work = np.zeros(K.WORK_SIZE, np.int64)
    code = K.play_game(ip, K.policy_ids(("greedy",) * rules.num_players), seed, 0, row, True, rs, work)
    assert code == 0
    st = work[:K.STATE_SIZE].copy()
    active = (int(row[K.C_START]) + int(row[K.C_TURNS]) - 1) % rules.num_players
    return ip, st, st.copy(), active


def test_an_intact_state_passes():
    ip, st, prev, active = _final_state()
    assert K.check_turn(ip, st, prev, active) == 0


def _pacified_province(st):
    return next(x for x in range(25) if (int(st[K.S_PACIFIED]) >> x) & 1)


def _corrupt(name, ip, st, prev, active):
    fig = lambda x, t: K.S_FIG + K.N_TRIBES * x + t  # noqa: E731
    if name == "figure lost":
        x = next(x for x in range(25) if st[K.S_TOTAL + x] > 0)
        t = next(t for t in range(6) if st[fig(x, t)] > 0)
        st[fig(x, t)] -= 1
        st[K.S_TOTAL + x] -= 1
    elif name == "card lost":
        st[K.S_DECK_N] -= 1 if st[K.S_DECK_N] > 0 else 0
        if st[K.S_DECK_N] == prev[K.S_DECK_N]:
            st[K.S_DISCARD + int(np.argmax(st[K.S_DISCARD:K.S_DISCARD + 6]))] -= 1
    elif name == "pacified province gains":
        x = _pacified_province(st)
        t = int(np.argmax(st[K.S_SUPPLY:K.S_SUPPLY + 6]))  # a figure from the supply: §7.1 still holds
        st[fig(x, t)] += 1
        st[K.S_TOTAL + x] += 1
        st[K.S_SUPPLY + t] -= 1
        st[K.S_PRESENCE + t] |= 1 << x
    elif name == "full province at peace":
        st[K.S_OVER] = 0
        x = next(x for x in range(25) if not (int(st[K.S_PACIFIED]) >> x) & 1)
        need = ip[K.P_THRESHOLD] - st[K.S_TOTAL + x]
        t = int(np.argmax(st[K.S_SUPPLY:K.S_SUPPLY + 6]))
        st[fig(x, t)] += need
        st[K.S_TOTAL + x] += need
        st[K.S_SUPPLY + t] -= need
        st[K.S_PRESENCE + t] |= 1 << x
        st[K.S_TOTAL_MASK] |= 1 << x
    elif name == "peace tile back":
        st[K.S_PEACE + 3] += 1
    elif name == "influence falls":
        prev[K.S_INF] = st[K.S_INF] + 1
    elif name == "vp falls":
        prev[K.S_VP + 1] = st[K.S_VP + 1] + 1
    elif name == "hand too big":
        t = int(np.argmax(st[K.S_DISCARD:K.S_DISCARD + 6]))
        st[K.S_DISCARD + t] -= 1
        st[K.S_HAND + K.N_TRIBES * active + t] += 1
    elif name == "tile used twice":
        p, k = next((p, k) for p in range(4) for k in range(3) if st[K.S_TILES_USED + 3 * p + k] > 0)
        st[K.S_TILES + p] |= 1 << k
    elif name == "five scorings":
        st[K.S_SCORINGS] = 5


CONTROLS = {"figure lost": K.INV_FIGURES, "card lost": K.INV_CARDS, "pacified province gains": K.INV_PROVINCE_CAP,
            "full province at peace": K.INV_PROVINCE_CAP, "peace tile back": K.INV_PEACE,
            "influence falls": K.INV_TRACKS, "vp falls": K.INV_TRACKS, "hand too big": K.INV_HANDS,
            "tile used twice": K.INV_TILES, "five scorings": K.INV_SCORINGS}


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_a_corrupted_state_is_caught(name):
    ip, st, prev, active = _final_state()
    _corrupt(name, ip, st, prev, active)
    assert K.check_turn(ip, st, prev, active) == CONTROLS[name]


def test_presence_bits_out_of_step_are_bookkeeping():
    ip, st, prev, active = _final_state()
    t = next(t for t in range(6) if st[K.S_PRESENCE + t] != 0)
    st[K.S_PRESENCE + t] = 0
    assert K.check_turn(ip, st, prev, active) == K.INV_BOOKKEEPING


def _at_play(st, t):
    """``st`` as a DP-4 of seat 0 holding a card of tribe ``t``: the state ``check_step`` is handed before a play."""
    before = st.copy()
    before[K.S_PHASE] = K.DP_PLAY
    before[K.S_SEAT] = before[K.S_DECIDER] = 0
    before[K.S_HAND + t] = max(before[K.S_HAND + t], 1)
    return before


def test_an_illegal_placement_is_caught():
    ip, st, _, _ = _final_state()
    x = _pacified_province(st)
    t = 0
    before = _at_play(st, t)
    assert K.check_step(ip, before, before.copy(), t << K.PAIR_SHIFT | x) == K.INV_PLACEMENT
    empty = before.copy()  # a legal province, but no card of the tribe in hand
    t = next(t for t in range(6) if K.legal_mask(ip, st, t) != 0)
    x = next(x for x in range(25) if (int(K.legal_mask(ip, st, t)) >> x) & 1)
    empty[K.S_HAND + t] = 0
    assert K.check_step(ip, empty, empty.copy(), t << K.PAIR_SHIFT | x) == K.INV_PLACEMENT


def test_a_legal_placement_is_not_flagged():
    ip, st, _, _ = _final_state()
    t = next(t for t in range(6) if K.legal_mask(ip, st, t) != 0)
    x = next(x for x in range(25) if (int(K.legal_mask(ip, st, t)) >> x) & 1)
    before = _at_play(st, t)
    assert K.check_step(ip, before, before.copy(), t << K.PAIR_SHIFT | x) == 0


def test_a_step_that_lowers_a_track_is_caught():
    """Within a turn (no turn ends in the step) ``check_step`` compares the step's states: §7.5."""
    ip, st, _, _ = _final_state()
    before = st.copy()
    before[K.S_PHASE] = K.DP_TILE
    after = before.copy()
    after[K.S_INF + 1] = before[K.S_INF + 1] - 1
    assert K.check_step(ip, before, after, K.PROCEED) == K.INV_TRACKS
    assert K.check_step(ip, before, before.copy(), K.PROCEED) == 0


def test_a_bad_scoring_is_reported():
    """§7.8 is tested inside ``scoring`` (it sets ``bad_scoring``); ``check_step`` and ``check_end`` report it."""
    ip, st, _, _ = _final_state()
    scored = st.copy()
    K.scoring(ip, scored)
    assert scored[K.S_BAD_SCORING] == 0 and scored[K.S_SCORINGS] == st[K.S_SCORINGS] + 1
    after = st.copy()
    after[K.S_BAD_SCORING] = 1
    assert K.check_step(ip, st.copy(), after, 0) == K.INV_SCORING
    assert K.check_end(ip, after) == K.INV_SCORING
    assert K.check_end(ip, st) == 0

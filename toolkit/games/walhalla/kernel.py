"""Walhalla, the Numba fast path: the kernel module, which wires the protocol from the game's modules below it.

Same rules, same random draws and same option order as ``reference.py``; the tests check both produce
identical games.  Rules, tiles and dragons arrive as one integer vector (:func:`to_kernel`).  The kernel
runs on the decision-point protocol (``docs/architecture.md``, "The game protocol"): ``core/driver``
builds ``play_game`` from :func:`start`, :func:`advance`, :func:`count`, :func:`nth`, :func:`options`,
:func:`apply`, :func:`choose`, :func:`check_step`, :func:`check_end` and :func:`record`, and plays
``random`` (one ``below(n)`` from the seat's decision stream at a decision point with n >= 2 options,
nothing with one) itself.

Where things are
----------------
The game's modules, each importing only those listed before it:

- ``layout.py``: the layouts of the rule vector (``P_*``), the state (``STATE``), the policies' scratch
  (``SCRATCH``) and the result (``COLUMNS``); the decision points' phases and option codes (its
  docstring), the §7 codes (``INV_*``) and the sizes;
- ``deal.py``: the set-up (W-2) and the action deck (W-5.6);
- ``turn.py``: a turn's rules (W-4 .. W-6): boarding, the fjords, disembarking, combat;
- ``raid_end.py``: the end of a raid (W-7 .. W-11), DP-8's and DP-9's count vectors among it;
- ``mechanics.py``: the state machine over them, whose ``advance`` and ``apply`` step through the game
  (W-3 .. W-12), the record, the lead measure and the checks between turns (its docstring: the design
  metrics);
- ``heuristics.py``: ``greedy`` and ``lookahead`` (``policies.py``'s, in Numba), ``evaluate``, ``determinize``;
- ``invariants.py``: the protocol's §7 checks;
- here: the rules as values (:func:`to_kernel`) and the players as codes (:func:`policy_ids`), ``kind`` and
  ``count``, :func:`choose` by policy id, and last the wiring (``finish_kernel``).  The names the toolkit
  and the tests read as ``kernel.X`` are imported here.

``benchmarks/notes/walhalla.md`` has the measurements behind these modules' settings.
"""

from __future__ import annotations

import numpy as np

from toolkit.core.driver import index_of
from toolkit.core.jit import njit
from toolkit.core.wiring import finish_kernel, state_entry
from toolkit.games.walhalla.layout import (
    DP_3, LOOKAHEAD, MAX_SEATS, N_CARDS, N_DRAGONS, N_PARAMS, N_TILES, POLICY_BITS, POLICY_ID, P_CULT_CARDS, P_DECK,
    P_DRAGON_COLOUR, P_DRAGON_SEAT, P_DRAW18, P_ELIGIBLE_MIN, P_FIELD_VP, P_FOREST_VP, P_FROM_MIDGARD, P_HORN,
    P_INITIAL_CARDS, P_LANDING_MANDATORY, P_LENGTHS, P_LOSES_HERO, P_PLAYERS, P_PLUNDER, P_RAIDS, P_REINFORCE,
    P_ROUND_UP, P_SELL, P_START_MIDGARD, P_START_RANDOM, P_TIEBREAK, P_TILE_TYPE, P_TILE_VALUE, P_VIKINGS,
    P_VILLAGE_BONUS, P_WALHALLA_VP, P_WCARD_BONUS, S_LEGAL, S_N, S_PHASE)
from toolkit.games.walhalla.heuristics import greedy_option, lookahead_fjord
# the rest of the protocol (core.wiring.PROTOCOL), for finish_kernel, and the called pair it keeps
from toolkit.games.walhalla.layout import COLUMNS, MAX_OPTIONS, RS_SIZE, SCRATCH_SIZE, STATE_SIZE  # noqa: F401
from toolkit.games.walhalla.mechanics import (  # noqa: F401
    advance, advance_called, apply, apply_called, nth, options, record, start)
from toolkit.games.walhalla.heuristics import determinize, evaluate  # noqa: F401
from toolkit.games.walhalla.invariants import check_end, check_step  # noqa: F401
# read as kernel.X by the toolkit (the runner, the OpenSpiel bridge) and the tests
from toolkit.games.walhalla.layout import (  # noqa: F401
    ACTION_BOUND, AXE, CATEGORIES, C_COMBATS_RAID, C_DECISIONS, C_DECISIVE_TURN, C_LEAD_CHANGES, C_LENGTHS,
    C_OPTIONS, C_SEAT, C_TURNS, C_TURNS_RAID, C_WINNER, DP_1, DP_2, DP_5, DP_8, DP_9, HORN, INV_CARDS, INV_FIELDS,
    INV_FJORDS, INV_LENGTHS, INV_VIKINGS, INV_VP, MAX_DECK, MAX_FIELDS, MAX_RAIDS, N_COLUMNS, N_STREAMS,
    PH_TURN_END, PLUNDER, RESULT_CODES, SEAT_FIELDS, STATE, S_ASGARD, S_CHECK, S_DECK, S_DECK_HEAD, S_DECK_N,
    S_DISCARD, S_DRAGONS, S_DRAGON_HEAD, S_FIELD, S_FTYPE, S_HAND, S_LAST, S_LEAD, S_LEN, S_MIDGARD, S_MOORED, S_OCC,
    S_PREV_VP, S_RAID, S_ROLLOUT, S_SEAT, S_TURNS, S_TURNS_RAID, S_VIOLATION, S_VP, S_WALHALLA, VEC_BITS, WHEAT,
    W_NET, W_TOTALS, action_of, code_of, columns_for)
from toolkit.games.walhalla.mechanics import lead_measure  # noqa: F401
from toolkit.games.walhalla.raid_end import heroes, nth_vector, preparation  # noqa: F401
from toolkit.games.walhalla.turn import occupy  # noqa: F401


def to_kernel(rules):
    from toolkit.games.walhalla.data import CARD_TYPES
    from toolkit.games.walhalla.rules import DRAW_18

    tiles, dragons = rules.tiles, rules.dragons
    ip = np.zeros(N_PARAMS, np.int64)
    ip[P_PLAYERS], ip[P_RAIDS], ip[P_VIKINGS] = rules.num_players, rules.raids, rules.vikings_per_colour
    ip[P_START_MIDGARD], ip[P_FROM_MIDGARD] = rules.start_midgard, rules.initial_walhalla_source == "midgard"
    ip[P_INITIAL_CARDS], ip[P_FOREST_VP], ip[P_CULT_CARDS] = rules.initial_action_cards, rules.forest_vp, \
        rules.cult_cards
    ip[P_VILLAGE_BONUS], ip[P_LANDING_MANDATORY] = rules.village_bonus, rules.landing_mandatory
    ip[P_LOSES_HERO], ip[P_HORN], ip[P_PLUNDER] = rules.winner_loses_hero, rules.horn_strength, rules.plunder_vp
    ip[P_WCARD_BONUS], ip[P_SELL] = rules.walhalla_card_bonus, rules.sell_cards_for_vikings
    ip[P_FIELD_VP], ip[P_ROUND_UP] = rules.final_vp_per_occupied_field, rules.tie_rounding == "up"
    ip[P_ELIGIBLE_MIN], ip[P_START_RANDOM] = rules.peninsula_eligibility_min_vikings, rules.start_player == "random"
    ip[P_TIEBREAK] = rules.tiebreak == "walhalla_then_fields"
    ip[P_DRAW18] = rules.peninsula_tiles == DRAW_18
    if rules.peninsula_tiles != DRAW_18:
        ip[P_LENGTHS:P_LENGTHS + 3] = rules.peninsula_tiles
    ip[P_DECK:P_DECK + N_CARDS] = [rules.action_deck[name] for name in CARD_TYPES]
    ip[P_REINFORCE:P_REINFORCE + rules.num_players] = rules.reinforcement_table
    ip[P_WALHALLA_VP:P_WALHALLA_VP + 2] = rules.walhalla_final_vp
    ip[P_TILE_TYPE:P_TILE_TYPE + 2 * N_TILES] = tiles.tile_types.ravel()
    ip[P_TILE_VALUE:P_TILE_VALUE + 2 * N_TILES] = tiles.tile_values.ravel()
    ip[P_DRAGON_COLOUR:P_DRAGON_COLOUR + N_DRAGONS] = dragons.dragon_colour
    ip[P_DRAGON_SEAT:P_DRAGON_SEAT + N_DRAGONS] = dragons.dragon_seat
    return ip


def policy_ids(policies) -> np.ndarray:
    """Policy names -> ``[ids of seats 0..3, their sample counts]``; a ``lookahead`` id carries its sample
    count too (``2 + (samples << POLICY_BITS)``), since ``choose`` sees only the seat's id."""
    from toolkit.games.walhalla.policies import parse_policy

    out = np.zeros(2 * MAX_SEATS, np.int64)
    for seat, name in enumerate(policies):
        base, samples = parse_policy(name)
        out[seat], out[MAX_SEATS + seat] = POLICY_ID[base] + (samples << POLICY_BITS), samples
    return out


# ------------------------------------------------------------------------ the protocol's remaining entries
#
# start, advance, nth, options, apply and record are mechanics.py's; evaluate and determinize
# heuristics.py's; check_step and check_end invariants.py's.


kind = state_entry("kind", S_PHASE, "The §5 kind of the current decision point: 1 .. 9 (DP-1 .. DP-9).")
count = state_entry("count", S_N, "The number of options of the current decision point (counted when presented).")


@njit
def choose(params, policy, st, rs, seat, opts, n, scratch):
    """``greedy`` (policy 1) or ``lookahead`` (2 + samples << POLICY_BITS; greedy but at DP-3): the index
    of the chosen option (``random`` is the driver's)."""
    if st[S_PHASE] == DP_3 and (policy & ((1 << POLICY_BITS) - 1)) == LOOKAHEAD:
        return lookahead_fjord(params, st, rs, seat, st[S_LEGAL], policy >> POLICY_BITS, scratch)
    return choose_plain(params, policy, st, rs, seat, opts, n, scratch)


@njit
def choose_plain(params, policy, st, rs, seat, opts, n, scratch):
    """:func:`choose` without the ``lookahead`` (``core.driver.make_play_game``): ``greedy``, the plain
    copy's; a line-up with a ``lookahead`` seat runs the whole copy (:func:`lookahead_in`)."""
    return index_of(opts, n, greedy_option(params, st, rs, seat, scratch))  # greedy's option is listed


def lookahead_in(policies) -> bool:
    """Whether a line-up (:func:`policy_ids`) has a ``lookahead`` seat, which only the whole copy of the
    driver plays (:func:`choose_plain`, ``core.driver.copy_for``)."""
    codes = policies[:MAX_SEATS]
    return bool(((codes > 0) & (codes & ((1 << POLICY_BITS) - 1) == LOOKAHEAD)).any())  # mcts: negative


# the plain and random copies inline advance and apply (core.driver.make_play_game): faster random seats at no
# cost in cold compile (benchmarks/notes/walhalla.md, "The plain and random copies inline advance and apply")
INLINE_STEPS = True
# returns, mcts, play_game, WORK_SIZE and play_many (core.wiring); advance_called and apply_called, made in
# mechanics.py for the lookahead's rollouts, are kept
finish_kernel(globals())

"""Walhalla's state machine in Numba: the protocol's rule functions (:func:`start`, :func:`advance`,
:func:`nth`, :func:`options`, :func:`apply`, :func:`record`) stepping through the game (W-3 .. W-12), the
lead measure and the §7 checks the game runs between turns; the same game as ``reference.py``, draw for
draw.

Over the layouts and the rule modules below it (layout <- deal <- turn <- raid_end <- mechanics <-
heuristics, invariants <- kernel): ``deal.py`` the set-up (W-2) and the action deck, ``turn.py`` a turn's
rules (W-4 .. W-6), ``raid_end.py`` the end of a raid (W-7 .. W-11); ``layout.py``'s docstring lists the
decision points and their option codes.  The compiled pair ``advance_called`` and ``apply_called``
(``core.driver.make_calls``, filed beside this module) is made here, for the lookahead's rollouts
(``heuristics.py``); the kernel's wiring keeps it.

The automatic steps between the decision points (``advance``): a turn's dragon (W-4.1), the Vikings
disembarking without a candidate, an uncancelled Axe's fight, the card reveal and the raid's scoring
(W-7.2 .. W-9), the preparation (W-10) and the heroes; ``apply`` may draw chance (a cult place's cards,
W-5.4).

Design metrics
--------------
Four columns follow ``plies``, counted as in ``reference.py`` (whose docstring gives the reasons):

- ``decisions``: the §5 decision points presented, every one of DP-1..DP-9 when its trigger holds, a
  single option included; it equals ``plies``.  :func:`present` counts each one when ``advance`` reaches
  it, for every policy.  The lookahead's rollouts play in their own world (``scratch[W_WORLD:]``), so
  their decision points never reach the real game's counters.
- ``options``: the options of those decision points, summed (the random policy's list, §5's canonical
  order); DP-8 and DP-9 count their count vectors with ``raid_end.nth_vector``.
- ``lead_changes`` and ``decisive_turn`` (``toolkit.core.lead``): after each turn of §6 (one dragon drawn,
  the rollouts' turns excluded) the lead measure :func:`lead_measure`, each seat's VP so far, goes to
  ``lead_update`` once everything the turn triggered is resolved, i.e. just before the next turn begins,
  or at the end of the game: the turn that ends a raid is measured after the raid's scoring (W-8, or W-9
  after the last raid) and the preparation (W-7.3), so the final scoring is seen.  Still exactly one
  update per turn of ``turns``.  The tracker lives in ``st`` (``S_LEAD``, ``S_LEAD_VALUES``).
"""

from __future__ import annotations

from toolkit.core.driver import make_calls
from toolkit.core.jit import njit_inline, njit_no_nrt
from toolkit.core.lead import LEAD_FIELDS, lead_reset, lead_result, lead_update
from toolkit.games.walhalla.layout import (
    AXE, C_ATT_WINS, C_COMBATS, C_COMBATS_RAID, C_DECISIONS, C_DECISIVE_TURN, C_DEF_CHOICES, C_DEF_WIN,
    C_LEAD_CHANGES, C_LENGTHS, C_N_WINNERS, C_OPTIONS, C_PLIES, C_RAIDS, C_RESULT, C_SEAT, C_START, C_TURNS,
    C_TURNS_RAID, C_WINNER, DP_1, DP_2, DP_3, DP_4, DP_5, DP_6, DP_7, DP_8, DP_9, HORN, INV_CARDS, INV_FIELDS,
    INV_FJORDS, INV_REINFORCEMENT, INV_VIKINGS, INV_VP, MAX_FIELDS, MAX_RAIDS, MAX_SEATS, N_CARDS, N_DRAGONS,
    N_SOURCES, PH_CARDS, PH_COLOUR, PH_COMBAT, PH_FIGHT, PH_FJORD, PH_LAND, PH_OVER, PH_RAID_END, PH_SCORED,
    PH_SELL, PH_SHIELD, PH_TURN, PH_TURN_END, PLUNDER, P_DECK, P_DRAGON_COLOUR, P_DRAGON_SEAT, P_LANDING_MANDATORY,
    P_PLAYERS, P_RAIDS, P_SELL, P_TIEBREAK, P_VIKINGS, SHIELD, STATE_SIZE, STAY, S_ABOARD, S_ACTIVE, S_ASGARD,
    S_ATT_WINS, S_AXE, S_AXES, S_AXES_PLAYED, S_BASE, S_CAND, S_CHECK, S_COLOUR, S_COMBATS, S_COMBATS_RAID, S_CSEAT,
    S_DECK_N, S_DEF_CHOICES, S_DEF_WIN, S_DISCARD, S_DRAGONS, S_DRAGON_HEAD, S_FIELD, S_FIRST, S_FJORD, S_HAND,
    S_HEROES, S_I, S_J, S_LAID, S_LANDINGS, S_LAST, S_LEAD, S_LEAD_VALUES, S_LEGAL, S_LEN, S_MIDGARD, S_MOORED, S_N,
    S_N_CAND, S_OCC, S_OPTIONS, S_PHASE, S_PLIES, S_PREV_VP, S_RAID, S_RAIDS, S_ROLLOUT, S_SEAT, S_SHIELDS,
    S_SHIELDS_PLAYED, S_SOLD, S_START, S_TMP, S_TO_WALHALLA, S_TURNS, S_TURNS_RAID, S_VP, S_VP_FROM, S_WALHALLA,
    WCARD, field_count, violation)
from toolkit.games.walhalla.deal import setup
from toolkit.games.walhalla.turn import boardable, landed, legal_mask, nth_fjord, occupy, resolve_combat
from toolkit.games.walhalla.raid_end import (
    fields_of, final_scoring, heroes, nth_vector, pack_vector, peninsula_scoring, preparation, raid_over, reveal_cards,
    vector_entry, vector_options, vector_rule)


# ------------------------------------------------------------------------ design metrics


@njit_inline
def lead_measure(ip, st, values):
    """The lead measure after a turn (module docstring, "Design metrics"): each seat's VP so far."""
    for p in range(ip[P_PLAYERS]):
        values[p] = st[S_VP + p]


@njit_inline
def lead_step(ip, st):
    """The lead after the previous turn, everything it triggered resolved (module docstring)."""
    values = st[S_LEAD_VALUES:S_LEAD_VALUES + MAX_SEATS]
    lead_measure(ip, st, values)
    lead_update(st[S_LEAD:S_LEAD + LEAD_FIELDS], values, ip[P_PLAYERS], st[S_TURNS])


# ------------------------------------------------------------------------ §7 checks
#
# The checks of §7 the game runs itself once S_CHECK is set (invariants.py has the protocol's check_step and
# check_end); the steps that check themselves record through layout.violation.


@njit_no_nrt
def check_between_turns(ip, st):
    """§7.1, 7.3, 7.4, 7.5 between two turns (nothing aboard, no card in play); returns a code or 0."""
    n = ip[P_PLAYERS]
    for p in range(n):  # §7.1 Vikings
        total = st[S_MIDGARD + p] + st[S_ASGARD + p] + st[S_WALHALLA + p] + fields_of(st, p)
        if total != ip[P_VIKINGS] or min(st[S_MIDGARD + p], st[S_ASGARD + p], st[S_WALHALLA + p]) < 0:
            return INV_VIKINGS
    for k in range(3):  # §7.2 no colour outside the game on a field
        for j in range(MAX_FIELDS):
            o = st[S_OCC + MAX_FIELDS * k + j]
            if o >= n or o < -1 or (o >= 0 and j >= field_count(st, k)):
                return INV_FIELDS
    for f in range(4):  # §7.3 fjord capacity and turns per raid
        reach = 0
        for k in (f - 1, f):
            if 0 <= k <= 2:
                reach = max(reach, field_count(st, k))
        if st[S_MOORED + f] > (reach + 2) // 3:
            return INV_FJORDS
    for r in range(MAX_RAIDS):
        if st[S_TURNS_RAID + r] > N_DRAGONS:
            return INV_FJORDS
    cards = st[S_DECK_N]  # §7.4 cards
    total = 0
    for c in range(N_CARDS):
        cards += st[S_DISCARD + c]
        total += ip[P_DECK + c]
        for p in range(n):
            cards += st[S_HAND + N_CARDS * p + c]
            if st[S_HAND + N_CARDS * p + c] < 0:
                return INV_CARDS
    if cards != total:
        return INV_CARDS
    for p in range(n):  # §7.5 VP never decreases
        if st[S_VP + p] < st[S_PREV_VP + p]:
            return INV_VP
        st[S_PREV_VP + p] = st[S_VP + p]
    return 0


# ------------------------------------------------------------------------ the protocol (one game)
#
# The rules' part of the decision-point protocol of docs/architecture.md: start, advance (the automatic steps
# and chance up to the next decision point), nth / options, apply and record; kind, count and choose are the
# kernel's, check_step and check_end invariants.py's.  ``st`` (STATE) holds the game and where it stands.


@njit_inline
def present(st, n_options):
    """A decision point of §5 is presented with ``n_options`` options: one ply (the ``plies`` and
    ``decisions`` columns) and its options (the ``options`` column)."""
    st[S_N] = n_options
    st[S_PLIES] += 1
    st[S_OPTIONS] += n_options


@njit_inline
def decide_at(st, seat, dp, n_options):
    """The decision point ``dp`` (DP-1 .. DP-7) of ``seat`` with ``n_options`` options (:func:`present`);
    returns the seat, for ``advance``."""
    present(st, n_options)
    st[S_SEAT] = seat
    st[S_PHASE] = dp
    return seat


@njit_no_nrt
def start(params, st, rs):
    """W-2: the set-up (chance from stream 0); then the first raid's first turn is due."""
    for q in range(STATE_SIZE):
        st[q] = 0
    lead_reset(st[S_LEAD:S_LEAD + LEAD_FIELDS])
    setup(params, st, rs)
    st[S_ACTIVE] = st[S_START]
    st[S_PHASE] = PH_TURN


@njit_inline
def _offer_vectors(ip, st, i, p, dp):
    """DP-8 or DP-9 (``dp``) to seat ``p``, the ``i``-th from the start player: its count vectors are
    counted (:func:`present`)."""
    st[S_I] = i
    st[S_SEAT] = p
    st[S_PHASE] = dp
    limits = st[S_TMP:S_TMP + N_CARDS]
    group_end, group_cap, total_cap = vector_rule(ip, st, limits)
    present(st, nth_vector(limits, group_end, group_cap, total_cap, -1, st[S_TMP + 8:S_TMP + 16]))


@njit_inline
def advance(params, st, rs):
    """The automatic steps and chance (W-3 .. W-10) up to the next decision point: returns the seat to
    decide, or -1 at the end of the game (in a lookahead's world: at the end of the raid's scoring)."""
    ip = params
    n = ip[P_PLAYERS]
    while True:
        phase = st[S_PHASE]
        if phase <= DP_9:
            return st[S_SEAT]
        if phase == PH_LAND:  # W-5: the next Viking aboard, bow first
            j = st[S_J]
            if j == 3:
                st[S_PHASE] = PH_TURN_END
                continue
            p = st[S_ABOARD + j]
            if p < 0:
                st[S_J] = j + 1
                continue
            q = st[S_BASE] + 1 + j
            f = st[S_FJORD]
            n_cand = 0
            for k in (f - 1, f):  # the left peninsula first
                if 0 <= k <= 2 and q <= field_count(st, k) and st[S_OCC + MAX_FIELDS * k + q - 1] != p:
                    st[S_CAND + n_cand] = k
                    n_cand += 1
            if n_cand == 0:
                st[S_MIDGARD + p] += 1
                st[S_ABOARD + j] = -1
                st[S_J] = j + 1
                continue
            st[S_N_CAND] = n_cand
            return decide_at(st, p, DP_4, n_cand + (0 if ip[P_LANDING_MANDATORY] == 1 else 1))
        if phase == PH_TURN:
            if raid_over(ip, st):  # W-7: the raid's scoring begins with the card phase
                st[S_LAST] = 1 if st[S_RAID] == ip[P_RAIDS] - 1 else 0
                st[S_RAIDS] += 1
                for i in range(N_CARDS * MAX_SEATS):
                    st[S_LAID + i] = 0
                st[S_I] = 0
                st[S_PHASE] = PH_CARDS
                continue
            if st[S_TURNS] > 0 and st[S_ROLLOUT] == 0:  # the lead after the previous turn
                lead_step(ip, st)
            active = st[S_ACTIVE]  # W-4.1: the dragon
            st[S_TURNS] += 1
            st[S_TURNS_RAID + st[S_RAID]] += 1
            d = st[S_DRAGONS + st[S_DRAGON_HEAD]]
            st[S_DRAGON_HEAD] += 1
            colour, cseat = ip[P_DRAGON_COLOUR + d], ip[P_DRAGON_SEAT + d]
            st[S_COLOUR] = colour
            st[S_CSEAT] = cseat
            for j in range(3):
                st[S_ABOARD + j] = -1
            midgard = st[S_MIDGARD + active]
            if midgard >= 1:  # DP-1: the seat sets by bitmask, ascending
                n_opts = 0
                for mask in range(8):
                    if boardable(mask, cseat, colour, active, midgard):
                        n_opts += 1
                return decide_at(st, active, DP_1, n_opts)
            st[S_PHASE] = PH_COLOUR
            continue
        if phase == PH_COLOUR:  # W-4.3: DP-2
            colour = st[S_COLOUR]
            if colour != st[S_ACTIVE] and colour < n and st[S_MIDGARD + colour] >= 1:
                return decide_at(st, colour, DP_2, 2)
            st[S_PHASE] = PH_FJORD
            continue
        if phase == PH_FJORD:  # DP-3
            legal = legal_mask(st)
            if legal == 0:  # cannot happen with lengths 5..8
                for j in range(3):
                    if st[S_ABOARD + j] >= 0:
                        st[S_MIDGARD + st[S_ABOARD + j]] += 1
                        st[S_ABOARD + j] = -1
                st[S_PHASE] = PH_TURN_END
                continue
            st[S_LEGAL] = legal
            return decide_at(st, st[S_ACTIVE], DP_3,
                             (legal & 1) + ((legal >> 1) & 1) + ((legal >> 2) & 1) + ((legal >> 3) & 1))
        if phase == PH_TURN_END:
            if st[S_CHECK] == 1:
                violation(st, check_between_turns(ip, st))
            st[S_ACTIVE] = (st[S_ACTIVE] + 1) % n
            st[S_PHASE] = PH_TURN
            continue
        if phase == PH_COMBAT:  # W-6 on S_FIELD: DP-5
            attacker = st[S_ABOARD + st[S_J]]
            if st[S_CHECK] == 1 and st[S_OCC + MAX_FIELDS * st[S_FIELD] + st[S_FIELD + 1]] == attacker:
                violation(st, INV_FIELDS)
            st[S_AXE] = 0
            st[S_AXES_PLAYED] = 0
            st[S_SHIELDS_PLAYED] = 0
            if st[S_HAND + N_CARDS * attacker + AXE] >= 1:
                return decide_at(st, attacker, DP_5, 2)
            st[S_PHASE] = PH_FIGHT
            continue
        if phase == PH_SHIELD:  # DP-6
            defender = st[S_OCC + MAX_FIELDS * st[S_FIELD] + st[S_FIELD + 1]]
            if st[S_AXE] == 1 and st[S_HAND + N_CARDS * defender + SHIELD] >= 1:
                return decide_at(st, defender, DP_6, 2)
            st[S_PHASE] = PH_FIGHT
            continue
        if phase == PH_FIGHT:  # an uncancelled Axe wins; else DP-7
            if st[S_AXE] == 1:
                resolve_combat(ip, st, rs, True)
                continue
            st[S_DEF_CHOICES] += 1
            return decide_at(st, st[S_OCC + MAX_FIELDS * st[S_FIELD] + st[S_FIELD + 1]], DP_7, 2)
        if phase == PH_CARDS:  # W-7.2: DP-8 from the start player clockwise, then everything revealed
            i = st[S_I]
            while i < n:
                p = (st[S_START] + i) % n
                h = S_HAND + N_CARDS * p
                if st[h + HORN] + (0 if st[S_LAST] == 1 else st[h + WCARD]) + st[h + PLUNDER] > 0:
                    break
                i += 1
            if i < n:
                _offer_vectors(ip, st, i, p, DP_8)
                return p
            reveal_cards(ip, st)
            if st[S_LAST] == 1:
                final_scoring(ip, st)
            else:
                peninsula_scoring(ip, st)
            st[S_PHASE] = PH_SCORED
            continue
        if phase == PH_SCORED:
            if st[S_ROLLOUT] == 1:
                return -1
            if st[S_LAST] == 1:
                st[S_PHASE] = PH_RAID_END
            else:
                preparation(ip, st, rs)
                st[S_I] = 0
                st[S_PHASE] = PH_SELL
            continue
        if phase == PH_SELL:  # W-10.4: DP-9 from the new start player clockwise, then the heroes
            i = st[S_I]
            if ip[P_SELL] == 1:
                while i < n:
                    p = (st[S_START] + i) % n
                    held = 0
                    for c in range(N_CARDS):
                        held += st[S_HAND + N_CARDS * p + c]
                    if held > 0 and st[S_ASGARD + p] > 0:
                        break
                    i += 1
            else:
                i = n
            if i < n:
                _offer_vectors(ip, st, i, p, DP_9)
                return p
            heroes(ip, st)
            st[S_PHASE] = PH_RAID_END
            continue
        if phase == PH_RAID_END:
            if st[S_CHECK] == 1:
                violation(st, check_between_turns(ip, st))
            if st[S_LAST] == 1:
                if st[S_TURNS] > 0:  # the last turn's lead, after the final scoring (W-9)
                    lead_step(ip, st)
                st[S_PHASE] = PH_OVER
                return -1
            st[S_RAID] += 1
            st[S_ACTIVE] = st[S_START]
            st[S_PHASE] = PH_TURN
            continue
        return -1  # PH_OVER


@njit_inline
def nth(params, st, i):
    """The ``i``-th option's code, in the spec's order (module docstring, "Decision points")."""
    phase = st[S_PHASE]
    if phase == DP_4:
        return st[S_CAND + i] if i < st[S_N_CAND] else STAY
    if phase == DP_3:
        return nth_fjord(st[S_LEGAL], i)
    if phase == DP_1:
        active = st[S_ACTIVE]
        cseat, colour, midgard = st[S_CSEAT], st[S_COLOUR], st[S_MIDGARD + active]
        for mask in range(8):
            if boardable(mask, cseat, colour, active, midgard):
                if i == 0:
                    return mask
                i -= 1
        return -1
    if phase <= DP_7:  # DP-2, DP-5, DP-6, DP-7: the first or the second of two
        return i
    limits = st[S_TMP:S_TMP + N_CARDS]
    v = st[S_TMP + 8:S_TMP + 8 + N_CARDS]
    group_end, group_cap, total_cap = vector_rule(params, st, limits)
    nth_vector(limits, group_end, group_cap, total_cap, i, v)
    return pack_vector(v)


@njit_inline
def options(params, st, out):
    """The current decision point's option codes in the spec's order into ``out``; returns their number."""
    phase = st[S_PHASE]
    if phase >= DP_8:
        return vector_options(params, st, out)
    n = st[S_N]
    for i in range(n):
        out[i] = nth(params, st, i)
    return n


@njit_inline
def _play_card(st, seat, card, played, tally):
    """DP-5 / DP-6: the seat plays an Axe or a Shield (``card``) from its hand into this combat
    (``st[played]``), counted in its tally at ``st[tally + seat]``."""
    st[played] = 1
    st[S_HAND + N_CARDS * seat + card] -= 1
    st[tally + seat] += 1


@njit_inline
def apply(params, st, rs, option):
    """Carry out ``option`` (a code of :func:`nth`) at the current decision point (a landing may draw
    cards: chance)."""
    ip = params
    phase = st[S_PHASE]
    seat = st[S_SEAT]
    if phase == DP_4:  # a peninsula, or STAY
        if option == STAY:
            st[S_MIDGARD + seat] += 1
            landed(st)
            return
        j = st[S_BASE] + st[S_J]
        if st[S_OCC + MAX_FIELDS * option + j] < 0:
            occupy(ip, st, rs, seat, option, j)
            landed(st)
        else:
            st[S_FIELD] = option
            st[S_FIELD + 1] = j
            st[S_PHASE] = PH_COMBAT
    elif phase == DP_3:  # W-4.4: moor in fjord ``option``
        st[S_BASE] = 3 * st[S_MOORED + option]
        st[S_MOORED + option] += 1
        st[S_FJORD] = option
        st[S_J] = 0
        st[S_PHASE] = PH_LAND
    elif phase == DP_1:  # the seats of the bitmask ``option``
        for j in range(3):
            if (option >> j) & 1 == 1:
                st[S_ABOARD + j] = seat
                st[S_MIDGARD + seat] -= 1
        st[S_PHASE] = PH_COLOUR
    elif phase == DP_2:  # 0 board, 1 decline
        if option == 0:
            st[S_ABOARD + st[S_CSEAT]] = seat
            st[S_MIDGARD + seat] -= 1
        st[S_PHASE] = PH_FJORD
    elif phase == DP_5:  # 0 play an Axe, 1 decline
        if option == 0:
            st[S_AXE] = 1
            _play_card(st, seat, AXE, S_AXES_PLAYED, S_AXES)
        st[S_PHASE] = PH_SHIELD
    elif phase == DP_6:  # 0 play a Shield, 1 decline
        if option == 0:
            st[S_AXE] = 0
            _play_card(st, seat, SHIELD, S_SHIELDS_PLAYED, S_SHIELDS)
        st[S_PHASE] = PH_FIGHT
    elif phase == DP_7:  # 0 the defender wins, 1 the attacker wins
        if option == 0:
            st[S_DEF_WIN] += 1
        resolve_combat(ip, st, rs, option == 1)
    elif phase == DP_8:  # the vector (h0, h1, h2, w, pl) laid, face down
        h = S_HAND + N_CARDS * seat
        for c in range(N_CARDS):
            st[S_LAID + N_CARDS * seat + c] = vector_entry(option, c)
        st[h + HORN] -= vector_entry(option, 0) + vector_entry(option, 1) + vector_entry(option, 2)
        st[h + WCARD] -= vector_entry(option, 3)
        st[h + PLUNDER] -= vector_entry(option, 4)
        st[S_I] += 1
        st[S_PHASE] = PH_CARDS
    else:  # DP-9: the vector (axe, shield, horn, walhalla, plunder) sold
        sold = 0
        for c in range(N_CARDS):
            v = vector_entry(option, c)
            st[S_HAND + N_CARDS * seat + c] -= v
            st[S_DISCARD + c] += v
            sold += v
        st[S_ASGARD + seat] -= sold
        st[S_MIDGARD + seat] += sold
        st[S_SOLD + seat] += sold
        if st[S_CHECK] == 1 and st[S_ASGARD + seat] < 0:
            violation(st, INV_REINFORCEMENT)
        st[S_I] += 1
        st[S_PHASE] = PH_SELL


# one compiled call of each (core.driver.make_calls), made here for the lookahead's rollouts (heuristics.py)
# and kept by finish_kernel: one pair for the game, not two (benchmarks/notes/walhalla.md)
advance_called, apply_called = make_calls(advance, apply)


@njit_no_nrt
def record(params, st, row):
    """The §6 record of a finished game into ``row`` (COLUMNS): W-9.4 the winners, the tallies."""
    ip = params
    n = ip[P_PLAYERS]
    for i in range(row.shape[0]):
        row[i] = 0
    best = st[S_VP]
    for p in range(1, n):
        best = max(best, st[S_VP + p])
    top = 0
    for p in range(n):
        if st[S_VP + p] == best:
            top |= 1 << p
    if ip[P_TIEBREAK] == 1 and top & (top - 1) != 0:
        for key in range(2):
            most = -1
            for p in range(n):
                if (top >> p) & 1 == 1:
                    v = st[S_WALHALLA + p] if key == 0 else fields_of(st, p)
                    most = max(most, v)
            for p in range(n):
                if (top >> p) & 1 == 1:
                    v = st[S_WALHALLA + p] if key == 0 else fields_of(st, p)
                    if v != most:
                        top &= ~(1 << p)
    winners = 0
    winner = -1
    for p in range(n):
        if (top >> p) & 1 == 1:
            winners += 1
            winner = p
    row[C_WINNER] = winner if winners == 1 else -1
    row[C_N_WINNERS] = winners
    row[C_RESULT] = 0 if winners == 1 else 1
    row[C_START] = st[S_FIRST]
    row[C_TURNS] = st[S_TURNS]
    row[C_PLIES] = st[S_PLIES]
    row[C_DECISIONS] = st[S_PLIES]  # every ply is a §5 decision point presented
    row[C_OPTIONS] = st[S_OPTIONS]
    row[C_LEAD_CHANGES], row[C_DECISIVE_TURN] = lead_result(st[S_LEAD:S_LEAD + LEAD_FIELDS], row[C_WINNER],
                                                            st[S_TURNS])
    row[C_RAIDS] = st[S_RAIDS]
    row[C_COMBATS] = st[S_COMBATS]
    row[C_ATT_WINS] = st[S_ATT_WINS]
    row[C_DEF_CHOICES] = st[S_DEF_CHOICES]
    row[C_DEF_WIN] = st[S_DEF_WIN]
    for k in range(3):
        row[C_LENGTHS + k] = st[S_LEN + k]
    for r in range(MAX_RAIDS):
        row[C_TURNS_RAID + r] = st[S_TURNS_RAID + r]
        row[C_COMBATS_RAID + r] = st[S_COMBATS_RAID + r]
    for p in range(n):
        seat_values = (st[S_VP + p], (top >> p) & 1, st[S_AXES + p], st[S_SHIELDS + p], st[S_TO_WALHALLA + p],
                       st[S_HEROES + p], st[S_LANDINGS + p], st[S_SOLD + p])
        for i in range(8):
            row[C_SEAT + MAX_SEATS * i + p] = seat_values[i]
        for s in range(N_SOURCES):
            row[C_SEAT + MAX_SEATS * (8 + s) + p] = st[S_VP_FROM + MAX_SEATS * s + p]
        row[C_SEAT + MAX_SEATS * 14 + p] = st[S_WALHALLA + p]
        row[C_SEAT + MAX_SEATS * 15 + p] = fields_of(st, p)

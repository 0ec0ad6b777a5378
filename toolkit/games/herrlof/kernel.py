"""Herrlof, the Numba fast path: the game's state machine.

Same rules, same random draws and same option order as ``reference.py``
(whose docstring lists the draw order and the spec choices); the tests check
both produce identical games.  Rules arrive as values (:func:`to_kernel`), so
changing a rule never recompiles.  The round is the same state machine as in
the reference: :func:`to_decision` runs the automatic steps up to the next
decision point, :func:`apply_decision` applies one option.

Where things are
----------------
Here: the layouts of the rule vector (``P_*``), the state (``STATE``), the
policies' scratch (``SCRATCH``) and the result (``COLUMNS``); the cards and
hands, R-5's points, the state machine (:func:`to_decision`,
:func:`apply_decision`, the deal :func:`deal_round`) and the protocol's
functions; :func:`choose`, by policy code; last the wiring
(``finish_kernel``).  Beside it, each reading this module's layouts and
imported at its end (but ``roundlog.py``, which reads the wired
``play_game`` and is imported by the package):

- ``tricks.py``: a trick (R-3) and the effects after it (R-4);
- ``heuristics.py``: ``greedy`` and ``lookahead`` (``policies.py``'s, in
  Numba), ``evaluate``, ``determinize``;
- ``invariants.py``: the §7 checks;
- ``roundlog.py``: the games again with their per-round log
  (``herrlof.round_log``);
- ``benchmarks/notes/herrlof.md``: the measurements behind this module's
  settings.

The game protocol
-----------------
The game runs on the decision-point protocol of ``docs/architecture.md``
("The game protocol"): :func:`start`, :func:`advance`, :func:`kind`,
:func:`count`, :func:`nth`, :func:`options`, :func:`apply`, :func:`choose`,
:func:`check_step`, :func:`check_end` and :func:`record`, from which
``core.wiring.finish_kernel`` builds :data:`play_game` (``random``, policy
0, is the driver's: one ``below(n)`` from the seat's decision stream, none
for a single option).  :func:`apply` applies an option and runs the
automatic steps on to the next decision point or the round's end, so that
:func:`check_step` sees the state between two decisions where §7 holds (the
states the checks saw before the protocol, but for the one right after a
deal: the first bid moves no card, so the check after it sees the deal's
cards); :func:`advance` scores a
finished round (R-5) and deals the next one.  The round log of
``roundlog.play_logged`` is written by its ``play_logged_game``, the same
loop over the same functions with the log written between the steps.

Decision points (§5; ``kind`` is the DP number, ``st[S_DKIND]``) and their
option codes, in the spec's canonical order:

- DP-1 bid (``DP_BID``): the bid, ``0 .. hand_size``;
- DP-2 card (``DP_CARD``), DP-4 trade discard (``DP_TRADE_DISCARD``), DP-7
  give (``DP_GIVE``): a face (``0 .. suited - 1`` the suited faces, ``suited``
  Valknut, ``suited + 1`` Hagalaz), ascending, each distinct face once;
- DP-3 trade, DP-5 steal, DP-6 swap (``DP_TRADE``, ``DP_STEAL``,
  ``DP_SWAP``): ``YES`` (1), then ``DECLINE`` (0).

At a decision point ``st[S_MASK]`` holds its options as bits (a face's bit;
DP-1 bits ``0 .. hand_size``; DP-3/5/6 ``0b11``, read as YES, DECLINE) and
``st[S_N]`` their number, so :func:`count` and :func:`nth` never list them.

State of one game: one ``int64`` array ``st``, laid out by :data:`STATE`
(``core.layout.Layout``; the ``S_*`` names are its offsets): the round and
the game's tallies (the first ``COPY_SIZE`` entries, what the lookahead
copies for each rollout), what each seat knows and the discards (up to
``ROLLOUT_SIZE``: all the state machine reads and writes), then the
protocol's own: the options presented (``offered``), the lead tracker, the
§7.1 tally and the deck of a deal.  Phases ``PH_*`` say where the state
machine stands; ``PH_ROUND_END`` waits for :func:`advance` to score the
round, ``PH_OVER`` ends the game.  A hand is a bit set of its suited faces
(face ``f`` = bit ``f``; every suited face is unique) plus counts of
Valknut and Hagalaz cards; the distinct faces of a hand, in canonical
order, are its set bits in ascending order with the V bit (``suited``) and
the N bit (``suited + 1``) on top.  The policies' scratch (``choose``'s
``scratch``) is laid out by :data:`SCRATCH`.  A seat's policy code
(:func:`policy_ids`) is its ``POLICY_ID``, plus for ``lookahead`` its
samples ``<< SAMPLES_SHIFT``, plus a bit ``DECLINES_SHIFT + kind`` for each
decision kind it always declines (``greedy:no_steal``): the driver hands
:func:`choose` the seat's code only.

Design metrics (the columns ``decisions``, ``options``, ``lead_changes`` and
``decisive_turn``; their choices are explained in ``reference.py``'s
docstring): every decision point presented is a ply (``decisions`` =
``plies``), its ``n`` options are summed into ``st[S_OFFERED]`` when it is
reached (the lookahead's rollouts run ``next_decision`` /
``apply_decision`` on copies and are not counted), and the lead measure
(:func:`lead_measure`: each seat's score of the hands already scored; the
bids, hence the points of the hand in progress, are secret) goes to
``toolkit.core.lead`` after every trick: at once for a trick that is not
the hand's last (:func:`apply`), after the scoring for the last one
(:func:`advance`).
"""
from __future__ import annotations

import numpy as np

from toolkit.core import rng
from toolkit.core.bits import lowest_bit_index, nth_set_bit, popcount
from toolkit.core.driver import index_of
from toolkit.core.jit import njit, njit_inline, njit_no_nrt
from toolkit.core.layout import Layout, block, offset, seat_run
from toolkit.core.lookahead import make_lookahead
from toolkit.core.lead import LEAD_FIELDS, lead_reset, lead_result, lead_update
from toolkit.core.wiring import finish_kernel, state_entry
from toolkit.games.herrlof.policies import BID_WINDOW, DECLINABLE, parse_policy
from toolkit.games.herrlof.reference import SEAT_FIELDS

# -- rule vector layout (to_kernel) --------------------------------------------------
P_SUITS, P_RANK, P_NV, P_NN, P_HAND, P_FIRST_DEALER, P_REDRAW, P_TRUMP_ANY, P_SPECIALS_PLAYABLE = range(9)
P_DH_SECOND, P_DV_CHANGE, P_DESTROYED_LEADER, P_V_OVERRIDES, P_E1, P_E3, P_THREE_WON, P_E6, P_E9 = range(9, 18)
P_PPT, P_EXACT, P_CONS, P_CONS_MASK, P_CONS_EXACT, P_TARGET, P_MAX_ROUNDS, P_TIEBREAK_DRAW = range(18, 26)
P_DECK, P_SUITED, P_POINTS_LO, P_POINTS_HI, P_SCORES_MONOTONE = range(26, 31)
P_SUIT_MASK = 32  # ip[P_SUIT_MASK + s]: the bits of suit s
P_RANK_MASK = 36  # ip[P_RANK_MASK + r]: the bits of rank r (r = 1..15)
N_PARAMS = 52
EFFECT = {"optional": 0, "mandatory": 1, "off": 2}
OPTIONAL, MANDATORY, OFF = 0, 1, 2
DESTROYED_LEADER = {"same_leader": 0, "valknut_player": 1, "other_player": 2}
FIRST_DEALER = {"random": 0, "seat0": 1, "seat1": 2}
POLICY_ID = {"random": 0, "greedy": 1, "lookahead": 2}
RANDOM, GREEDY, LOOKAHEAD = 0, 1, 2
SAMPLES_SHIFT = 8  # a seat's policy code (policy_ids): its POLICY_ID, plus its samples << SAMPLES_SHIFT
DECLINES_SHIFT = 24  # ... plus 1 << (DECLINES_SHIFT + kind) for each DP kind it always declines (:no_steal)

# -- decision points and phases (codes shared with reference.DP_*) -----------------------
DP_BID, DP_CARD, DP_TRADE, DP_TRADE_DISCARD, DP_STEAL, DP_SWAP, DP_GIVE = 1, 2, 3, 4, 5, 6, 7
YES, DECLINE = 1, 0  # option values of DP-3/5/6, listed YES first (§5)
PH_BID, PH_LEAD, PH_FOLLOW, PH_THREE, PH_THREE_DISCARD, PH_ONE, PH_ONE_DECIDE = 0, 1, 2, 3, 4, 5, 6
PH_SIX, PH_SIX_DECIDE, PH_GIVE, PH_NEXT_LEADER, PH_ROUND_END, PH_OVER = 7, 8, 9, 10, 11, 12
DESTROYED = -1

# -- state layout ------------------------------------------------------------------------
MAX_FACES = 64  # suited faces (<= 60) + V + N
MAX_DECK = 84  # 4 * 15 + 12 + 12
MAX_TRICKS = 42  # hand_size <= (84 - 1) // 2 = 41
STATE = Layout(
    # the round and the game, as the rules see them (what a rollout copies: COPY_SIZE)
    ("hbits", 2), ("vc", 2), ("nc", 2), ("hn", 2),  # per seat: suited bits, Valknuts, Hagalaz, cards in hand
    ("stock_head", 1), ("stock_tail", 1), ("ind", 1), ("trump", 1),  # stock = stock[head .. tail - 1], top first
    ("won_n", 2),  # tricks in each won pile
    ("lead", 1), ("follow", 1), ("trick_n", 1), ("disc_n", 1),  # faces on the table, public discards
    ("buried_n", 2),  # 3-discards per seat
    ("bid", 2), ("score", 2), ("exact", 2),  # bid -1 = not yet
    ("dealer", 1), ("leader", 1), ("round", 1), ("tricks_played", 1),
    ("trick_leader", 1), ("trick_winner", 1), ("win_face", 1),
    ("three_q", 2), ("three_n", 1), ("threes_owner", 1),  # queue of seats whose 3 trades (leader's first)
    ("phase", 1), ("bid_turn", 1),
    ("dkind", 1), ("dseat", 1),  # the pending decision point: its §5 kind (DP_*) and seat
    ("taken", 1),
    ("plies", 1), ("turns", 1), ("tricks_won", 2), ("destroyed", 1), ("steals", 2), ("trades", 2), ("swaps", 2),
    ("trump_changes", 1), ("no_trump_rounds", 1), ("first_dealer", 1), ("round_points", 2),
    ("destroyed_at_start", 1), ("stock_last", 1),  # for the §7 checks
    ("seat_plies", 2),  # decision points presented to each seat
    ("mask", 1), ("n", 1),  # the pending decision's options: their bits (module docstring) and number
    ("stock", 2 * MAX_DECK),
    ("won", 2 * MAX_TRICKS * 2),  # won[seat, k, 0/1] at won + (seat * MAX_TRICKS + k) * 2 + j
    # what each seat knows (a rollout leaves these as they were)
    ("void", 2),  # suits (bits) the seat knows the opponent lacks
    ("seen", 2 * MAX_FACES), ("known", 2 * MAX_FACES),
    ("disc", MAX_FACES),  # every discarded face (public and buried), for §7.1
    # the protocol's own (never touched by the state machine, so never by a rollout)
    ("offered", 1),  # options presented, summed over the decision points (the column ``options``)
    ("lead_tracker", LEAD_FIELDS),  # toolkit.core.lead's scratch
    ("counts", MAX_FACES),  # §7.1 tally (check_step)
    ("deck", MAX_DECK))  # the shuffled deck of a deal
STATE_SIZE = STATE.size
S_HBITS, S_VC, S_NC, S_HN = STATE.hbits, STATE.vc, STATE.nc, STATE.hn
S_STOCK_HEAD, S_STOCK_TAIL, S_IND, S_TRUMP = STATE.stock_head, STATE.stock_tail, STATE.ind, STATE.trump
S_WON_N = STATE.won_n
S_LEAD, S_FOLLOW, S_TRICK_N, S_DISC_N = STATE.lead, STATE.follow, STATE.trick_n, STATE.disc_n
S_BURIED_N, S_BID, S_SCORE, S_EXACT = STATE.buried_n, STATE.bid, STATE.score, STATE.exact
S_DEALER, S_LEADER, S_ROUND, S_TRICKS_PLAYED = STATE.dealer, STATE.leader, STATE.round, STATE.tricks_played
S_TRICK_LEADER, S_TRICK_WINNER, S_WIN_FACE = STATE.trick_leader, STATE.trick_winner, STATE.win_face
S_THREE_Q, S_THREE_N, S_THREES_OWNER = STATE.three_q, STATE.three_n, STATE.threes_owner
S_PHASE, S_BID_TURN, S_DKIND, S_DSEAT, S_TAKEN = STATE.phase, STATE.bid_turn, STATE.dkind, STATE.dseat, STATE.taken
S_PLIES, S_TURNS, S_TRICKS_WON, S_DESTROYED = STATE.plies, STATE.turns, STATE.tricks_won, STATE.destroyed
S_STEALS, S_TRADES, S_SWAPS = STATE.steals, STATE.trades, STATE.swaps
S_TRUMP_CHANGES, S_NO_TRUMP_ROUNDS, S_FIRST_DEALER = STATE.trump_changes, STATE.no_trump_rounds, STATE.first_dealer
S_ROUND_POINTS, S_DESTROYED_AT_START, S_STOCK_LAST = STATE.round_points, STATE.destroyed_at_start, STATE.stock_last
S_SEAT_PLIES, S_MASK, S_N = STATE.seat_plies, STATE.mask, STATE.n
S_STOCK, S_WON = STATE.stock, STATE.won
COPY_SIZE = STATE.void  # what a rollout copies
S_VOID, S_SEEN, S_KNOWN, S_DISC = STATE.void, STATE.seen, STATE.known, STATE.disc
S_OFFERED, S_LEAD_TRACKER, S_COUNTS, S_DECK = STATE.offered, STATE.lead_tracker, STATE.counts, STATE.deck
ROLLOUT_SIZE = STATE.offered  # what the state machine (and so a rollout's world) reads and writes
MAX_OPTIONS = MAX_FACES  # DP-1 has hand_size + 1 <= 42 options, DP-2/4/7 at most the distinct faces

# -- result columns (one row per game) -----------------------------------------------------
COLUMNS = (("winner", "win_0", "win_1", "result", "first_dealer", "rounds", "turns", "plies",
            "decisions", "options", "lead_changes", "decisive_turn",
            "destroyed_tricks", "trump_changes", "no_trump_rounds")
           + tuple(f"{name}_{seat}" for name in SEAT_FIELDS for seat in (0, 1)) + ("plies_0", "plies_1"))
# offsets from the names (toolkit.core.layout): a run written as offset + i is checked at import
(C_WINNER, C_RESULT, C_FIRST_DEALER, C_ROUNDS, C_TURNS, C_PLIES, C_DECISIONS, C_OPTIONS, C_LEAD_CHANGES,
 C_DECISIVE_TURN, C_DESTROYED, C_TRUMP_CHANGES, C_NO_TRUMP) = (
    offset(COLUMNS, c) for c in ("winner", "result", "first_dealer", "rounds", "turns", "plies", "decisions",
                                 "options", "lead_changes", "decisive_turn", "destroyed_tricks", "trump_changes",
                                 "no_trump_rounds"))
C_WIN = seat_run(COLUMNS, "win", 2)
C_SEAT = block(COLUMNS, SEAT_FIELDS, 2)  # SEAT_FIELDS in order, two columns each
C_SEAT_PLIES = seat_run(COLUMNS, "plies", 2)
assert C_SEAT_PLIES == C_SEAT + 2 * len(SEAT_FIELDS)
N_COLUMNS = len(COLUMNS)
RESULT_CODES = ("win", "draw")

# invariant violation codes (check=True): the number of the §7 invariant; 10 = a bid or trick count out of bounds
INV_CARDS, INV_HAND_SIZES, INV_TRICKS, INV_ROUND_POINTS, INV_SCORES, INV_ROUNDS, INV_TRUMP = 1, 2, 3, 4, 5, 6, 7
INV_FOLLOW, INV_STOCK, INV_BOUNDS = 8, 9, 10

# -- the policies' scratch (choose's ``scratch``) ---------------------------------------------
SCRATCH = Layout(("base", STATE_SIZE),  # the lookahead's determinized world
                 ("world", STATE_SIZE),  # one rollout's copy (of its first COPY_SIZE entries)
                 ("opts2", MAX_FACES),  # options inside rollouts
                 ("cands", MAX_FACES), ("totals", MAX_FACES),
                 ("pool", MAX_DECK),  # unseen cards
                 ("rest", MAX_DECK))
SCRATCH_SIZE = SCRATCH.size
W_BASE, W_WORLD, W_OPTS2, W_CANDS, W_TOTALS, W_POOL, W_REST = (
    SCRATCH.base, SCRATCH.world, SCRATCH.opts2, SCRATCH.cands, SCRATCH.totals, SCRATCH.pool, SCRATCH.rest)


def to_kernel(rules):
    """Rules -> the int64 parameter vector."""
    ip = np.zeros(N_PARAMS, np.int64)
    r = rules.max_rank
    ip[P_SUITS], ip[P_RANK], ip[P_NV], ip[P_NN] = rules.suits, r, rules.valknut_count, rules.hagalaz_count
    ip[P_HAND] = rules.hand_size
    ip[P_FIRST_DEALER] = FIRST_DEALER[rules.first_dealer]
    ip[P_REDRAW] = rules.special_indicator_means == "redraw"
    ip[P_TRUMP_ANY] = rules.trump_anytime
    ip[P_SPECIALS_PLAYABLE] = rules.specials_always_playable
    ip[P_DH_SECOND] = rules.double_hagalaz_winner == "second_played"
    ip[P_DV_CHANGE] = rules.double_valknut_changes_trump
    ip[P_DESTROYED_LEADER] = DESTROYED_LEADER[rules.destroyed_trick_next_leader]
    ip[P_V_OVERRIDES] = rules.valknut_overrides_hagalaz_lead
    ip[P_E1], ip[P_E3], ip[P_E6] = EFFECT[rules.effect_1], EFFECT[rules.effect_3], EFFECT[rules.effect_6]
    ip[P_THREE_WON] = rules.three_trigger == "won"
    ip[P_E9] = rules.effect_9
    ip[P_PPT], ip[P_EXACT], ip[P_CONS] = rules.points_per_trick, rules.exact_bid_bonus, rules.consolation_bonus
    ip[P_CONS_MASK] = sum(1 << k for k in rules.consolation_range)
    ip[P_CONS_EXACT] = rules.consolation_requires_exact_bid
    ip[P_TARGET], ip[P_MAX_ROUNDS] = rules.target_score, rules.max_rounds
    ip[P_TIEBREAK_DRAW] = rules.tiebreak == "draw"
    ip[P_DECK], ip[P_SUITED] = rules.deck_size, rules.suited_cards
    from toolkit.games.herrlof.reference import round_points

    points = [round_points(rules, won, bid) for won in range(rules.hand_size + 1) for bid in range(rules.hand_size + 1)]
    ip[P_POINTS_LO], ip[P_POINTS_HI] = min(points), max(points)
    ip[P_SCORES_MONOTONE] = min(points) >= 0
    for s in range(rules.suits):
        ip[P_SUIT_MASK + s] = ((1 << r) - 1) << (s * r)
    for rank in range(1, r + 1):
        ip[P_RANK_MASK + rank] = sum(1 << (s * r + rank - 1) for s in range(rules.suits))
    return ip


def policy_ids(policies) -> np.ndarray:
    """Policy names -> the seats' policy codes and sample counts: ``[code_0, code_1, samples_0, samples_1]``.

    A code is the policy's ``POLICY_ID``, plus for ``lookahead`` its samples ``<< SAMPLES_SHIFT``, plus
    ``1 << (DECLINES_SHIFT + kind)`` for each decision kind it declines: the driver hands :func:`choose`
    only the seat's code (``random``'s is 0, as the driver wants)."""
    out = np.zeros(4, np.int64)
    for seat, name in enumerate(policies):
        base, samples, declines = parse_policy(name)
        out[seat] = (POLICY_ID[base] + (samples << SAMPLES_SHIFT if base == "lookahead" else 0)
                     + sum(1 << (DECLINES_SHIFT + DECLINABLE[option]) for option in declines))
        out[2 + seat] = samples
    return out


# ------------------------------------------------------------------------ cards and hands


@njit_inline
def suit_of(ip, f):
    return f // ip[P_RANK] if f < ip[P_SUITED] else -1


@njit_inline
def rank_of(ip, f):
    return f % ip[P_RANK] + 1 if f < ip[P_SUITED] else 0


@njit_inline
def hand_mask(ip, st, seat):
    """The distinct faces of a hand as bits (V bit = suited, N bit = suited + 1)."""
    v = ip[P_SUITED]
    m = st[S_HBITS + seat]
    if st[S_VC + seat] > 0:
        m |= np.int64(1) << v
    if st[S_NC + seat] > 0:
        m |= np.int64(1) << (v + 1)
    return m


@njit_inline
def hand_count(ip, st, seat, f):
    v = ip[P_SUITED]
    if f < v:
        return (st[S_HBITS + seat] >> f) & 1
    return st[S_VC + seat] if f == v else st[S_NC + seat]


@njit_inline
def hand_add(ip, st, seat, f):
    v = ip[P_SUITED]
    if f < v:
        st[S_HBITS + seat] |= np.int64(1) << f
    elif f == v:
        st[S_VC + seat] += 1
    else:
        st[S_NC + seat] += 1
    st[S_HN + seat] += 1


@njit_inline
def hand_remove(ip, st, seat, f):
    v = ip[P_SUITED]
    if f < v:
        st[S_HBITS + seat] &= ~(np.int64(1) << f)
    elif f == v:
        st[S_VC + seat] -= 1
    else:
        st[S_NC + seat] -= 1
    st[S_HN + seat] -= 1


@njit_inline
def hand_card_at(ip, st, seat, i):
    """The i-th physical card of the sorted hand."""
    bits = st[S_HBITS + seat]
    ns = popcount(bits)
    if i < ns:
        for _ in range(i):
            bits &= bits - 1
        return lowest_bit_index(bits)
    if i - ns < st[S_VC + seat]:
        return ip[P_SUITED]
    return ip[P_SUITED] + 1


@njit_inline
def mask_to_options(mask, opts):
    n = 0
    while mask != 0:
        opts[n] = lowest_bit_index(mask)
        n += 1
        mask &= mask - 1
    return n


@njit_inline
def is_trump(ip, st, f):
    t = st[S_TRUMP]
    return t >= 0 and f < ip[P_SUITED] and f // ip[P_RANK] == t


# ------------------------------------------------------------------------ R-5 scoring


@njit_inline
def round_points(ip, won, bid):
    in_range = (ip[P_CONS_MASK] >> won) & 1 == 1
    bonus = 0
    if won == bid:
        bonus = ip[P_CONS] if (ip[P_CONS_EXACT] == 1 and in_range) else ip[P_EXACT]
    if ip[P_CONS_EXACT] == 0 and in_range:
        bonus += ip[P_CONS]
    return ip[P_PPT] * won + bonus


@njit_inline
def lead_measure(st, values):
    """reference.lead_measure: each seat's score of the hands scored so far, into ``values[0:2]``."""
    values[0] = st[S_SCORE]
    values[1] = st[S_SCORE + 1]


# ------------------------------------------------------------------------ the state machine (§5)


@njit_inline
def decide_at(st, kind, seat, mask):
    """The decision point of ``kind`` (DP_BID .. DP_GIVE) for ``seat``, its options the set bits of ``mask``
    (module docstring); returns the seat."""
    st[S_DKIND], st[S_DSEAT], st[S_MASK], st[S_N] = kind, seat, mask, popcount(mask)
    return seat


@njit_inline
def effect_due(ip, st, rank, setting, counts_at, decide):
    """R-4.2 / R-4.3 (the reference's ``_effect_due``): whether the trick's winner takes the effect of the
    ``rank`` it won with now: ``setting`` is not OFF, the trick was not destroyed, its winning card is a
    suited ``rank`` and the opponent's count at ``st[counts_at + seat]`` (tricks won, or cards in hand) is
    not 0.  An OPTIONAL effect is first the winner's decision: the phase becomes ``decide``, and False."""
    w = st[S_TRICK_WINNER]
    face = st[S_WIN_FACE]
    if w == DESTROYED or setting == OFF or face >= ip[P_SUITED] or rank_of(ip, face) != rank:
        return False
    if st[counts_at + 1 - w] == 0:
        return False
    if setting == OPTIONAL:
        st[S_PHASE] = decide
        return False
    return True


@njit_inline
def to_decision(ip, st, rs, ck):
    """Run the automatic steps up to the next decision point; return its seat, or -1 at the round's end.

    The decision's kind and seat are left in ``st[S_DKIND]``, ``st[S_DSEAT]``, its options in
    ``st[S_MASK]`` and their number in ``st[S_N]`` (module docstring).  ``ck`` is the stream of the
    6-effect take."""
    while True:
        phase = st[S_PHASE]
        if phase == PH_BID:
            if st[S_BID_TURN] < 2:
                seat = 1 - st[S_DEALER] if st[S_BID_TURN] == 0 else st[S_DEALER]
                return decide_at(st, DP_BID, seat, (np.int64(1) << (ip[P_HAND] + 1)) - 1)  # bids 0 .. hand size
            st[S_PHASE] = PH_LEAD
        elif phase == PH_LEAD or phase == PH_FOLLOW:
            seat = st[S_LEADER] if phase == PH_LEAD else 1 - st[S_LEADER]
            return decide_at(st, DP_CARD, seat, legal_mask(ip, st, seat))
        elif phase == PH_THREE:
            if st[S_THREE_N] == 0:
                st[S_PHASE] = PH_ONE
                continue
            seat = st[S_THREE_Q]
            if st[S_STOCK_TAIL] == st[S_STOCK_HEAD]:
                pop_three(st)
                continue
            if ip[P_E3] == OPTIONAL:
                return decide_at(st, DP_TRADE, seat, 3)
            pop_three(st)
            draw_for_trade(ip, st, seat)
        elif phase == PH_THREE_DISCARD:
            seat = st[S_THREES_OWNER]
            return decide_at(st, DP_TRADE_DISCARD, seat, hand_mask(ip, st, seat))
        elif phase == PH_ONE:  # a trick won with a 1 steals one
            st[S_PHASE] = PH_SIX
            if effect_due(ip, st, 1, ip[P_E1], S_WON_N, PH_ONE_DECIDE):
                steal(st, st[S_TRICK_WINNER])
        elif phase == PH_ONE_DECIDE:
            return decide_at(st, DP_STEAL, st[S_TRICK_WINNER], 3)
        elif phase == PH_SIX:  # a trick won with a 6 takes a card for a swap
            st[S_PHASE] = PH_NEXT_LEADER
            if effect_due(ip, st, 6, ip[P_E6], S_HN, PH_SIX_DECIDE):
                take_for_swap(ip, st, st[S_TRICK_WINNER], rs, ck)
        elif phase == PH_SIX_DECIDE:
            seat = st[S_TRICK_WINNER]
            return decide_at(st, DP_SWAP, seat, 3)
        elif phase == PH_GIVE:
            w = st[S_TRICK_WINNER]
            return decide_at(st, DP_GIVE, w, hand_mask(ip, st, w))
        elif phase == PH_NEXT_LEADER:
            st[S_LEADER] = next_leader(ip, st)
            st[S_TRICK_N] = 0
            st[S_PHASE] = PH_LEAD if st[S_TRICKS_PLAYED] < ip[P_HAND] else PH_ROUND_END
        else:
            return -1


@njit_inline
def list_options(st, out):
    """The pending decision's options (:func:`to_decision`) into ``out`` in the spec's order; their number."""
    kind = st[S_DKIND]
    if kind == DP_TRADE or kind == DP_STEAL or kind == DP_SWAP:
        out[0], out[1] = YES, DECLINE
        return 2
    return mask_to_options(st[S_MASK], out)


@njit_no_nrt
def next_decision(ip, st, opts, rs, ck):
    """Run the automatic steps up to the next decision point; list its options in ``opts``.

    Returns the number of options (0 at the round's end); the decision's kind and
    seat are left in ``st[S_DKIND]``, ``st[S_DSEAT]``.  ``ck`` is the stream of the
    6-effect take.  (The lookahead's rollouts run on this; the game on the protocol below.)"""
    if to_decision(ip, st, rs, ck) < 0:
        return 0
    return list_options(st, opts)


@njit_inline
def pop_three(st):
    st[S_THREE_Q] = st[S_THREE_Q + 1]
    st[S_THREE_N] -= 1


@njit_no_nrt
def apply_decision(ip, st, option, rs, ck):
    """Apply ``option`` to the pending decision (``st[S_DKIND]``, ``st[S_DSEAT]``); count the ply."""
    st[S_PLIES] += 1
    kind, seat = st[S_DKIND], st[S_DSEAT]
    st[S_SEAT_PLIES + seat] += 1
    if kind == DP_BID:
        st[S_BID + seat] = option
        st[S_BID_TURN] += 1
    elif kind == DP_CARD:
        play_card(ip, st, seat, option)
        if st[S_PHASE] == PH_LEAD:
            st[S_PHASE] = PH_FOLLOW
        else:
            resolve_trick(ip, st)
    elif kind == DP_TRADE:
        pop_three(st)
        if option == YES:
            draw_for_trade(ip, st, seat)
    elif kind == DP_TRADE_DISCARD:
        hand_remove(ip, st, seat, option)
        st[S_BURIED_N + seat] += 1
        st[S_DISC + option] += 1
        st[S_SEEN + seat * MAX_FACES + option] += 1
        st[S_PHASE] = PH_THREE
    elif kind == DP_STEAL:
        st[S_PHASE] = PH_SIX
        if option == YES:
            steal(st, seat)
    elif kind == DP_SWAP:
        st[S_PHASE] = PH_NEXT_LEADER
        if option == YES:
            take_for_swap(ip, st, seat, rs, ck)
    else:  # DP_GIVE
        give(ip, st, seat, option)
        st[S_PHASE] = PH_NEXT_LEADER


# ------------------------------------------------------------------------ the game


@njit_no_nrt
def deal_round(ip, st, deck, dealer, rs):
    """R-2: reset the round, shuffle (Fisher-Yates, canonical deck) and deal."""
    v = ip[P_SUITED]
    d = ip[P_DECK]
    i = 0
    for f in range(v):
        deck[i] = f
        i += 1
    for _ in range(ip[P_NV]):
        deck[i] = v
        i += 1
    for _ in range(ip[P_NN]):
        deck[i] = v + 1
        i += 1
    rng.shuffle(deck, 0, d, rs, 0)
    for seat in range(2):
        st[S_HBITS + seat] = 0
        st[S_VC + seat] = 0
        st[S_NC + seat] = 0
        st[S_HN + seat] = 0
        st[S_WON_N + seat] = 0
        st[S_BURIED_N + seat] = 0
        st[S_BID + seat] = -1
        st[S_VOID + seat] = 0
    for i in range(2 * MAX_FACES):
        st[S_SEEN + i] = 0
        st[S_KNOWN + i] = 0
    for i in range(MAX_FACES):
        st[S_DISC + i] = 0
    h = ip[P_HAND]
    for i in range(h):
        hand_add(ip, st, 1 - dealer, deck[i])
        hand_add(ip, st, dealer, deck[h + i])
    head = 0
    tail = 0
    for i in range(2 * h, d):
        st[S_STOCK + tail] = deck[i]
        tail += 1
    ind = st[S_STOCK + head]
    head += 1
    if ip[P_REDRAW] == 1:
        while ind >= v:
            st[S_STOCK + tail] = ind
            tail += 1
            ind = st[S_STOCK + head]
            head += 1
    st[S_STOCK_HEAD], st[S_STOCK_TAIL] = head, tail
    st[S_STOCK_LAST] = tail - head
    st[S_IND] = ind
    st[S_TRUMP] = suit_of(ip, ind)
    st[S_SEEN + ind] += 1
    st[S_SEEN + MAX_FACES + ind] += 1
    if st[S_TRUMP] < 0:
        st[S_NO_TRUMP_ROUNDS] += 1
    st[S_DEALER] = dealer
    st[S_LEADER] = 1 - dealer
    st[S_TRICK_N] = 0
    st[S_DISC_N] = 0
    st[S_TRICKS_PLAYED] = 0
    st[S_THREE_N] = 0
    st[S_PHASE] = PH_BID
    st[S_BID_TURN] = 0
    st[S_TAKEN] = -1
    st[S_DESTROYED_AT_START] = st[S_DESTROYED]


# ------------------------------------------------------------------------ the protocol (one game)
#
# The decision-point protocol of docs/architecture.md over the state machine above.  ``apply`` applies
# an option and runs the automatic steps up to the next decision point or the round's end, so that
# ``check_step`` sees the state between two decisions, where §7 holds; ``advance`` scores a finished
# round and deals the next one.  Chance (the first dealer, the deals, the 6-effect takes) comes from
# stream 0, in the order ``reference.py`` draws it.


@njit_inline
def _reach(ip, st, rs):
    """The automatic steps up to the next decision point (or the round's end); its options are counted."""
    if to_decision(ip, st, rs, 0) >= 0:
        st[S_OFFERED] += st[S_N]


@njit_no_nrt
def _reach_called(ip, st, rs):
    """:func:`_reach` as a call, for a new round's first decision (once a round): inlined there as well
    as in :func:`apply`, the driver's loop held two copies of :func:`to_decision` (compile time)."""
    _reach(ip, st, rs)


@njit_no_nrt
def start(params, st, rs):
    """R-1.1, R-2: the first dealer (chance), the first deal, up to the first bid."""
    ip = params
    for q in range(STATE_SIZE):
        st[q] = 0
    lead_reset(st[S_LEAD_TRACKER:S_LEAD_TRACKER + LEAD_FIELDS])
    if ip[P_FIRST_DEALER] == 0:
        dealer = rng.below(rs, 0, 2)
    else:
        dealer = ip[P_FIRST_DEALER] - 1
    st[S_FIRST_DEALER] = dealer
    st[S_ROUND] = 1
    deal_round(ip, st, st[S_DECK:S_DECK + MAX_DECK], dealer, rs)
    _reach(ip, st, rs)


@njit_inline
def score_round(ip, st):
    """R-5: the round's points into the scores; the lead is reported (the hand's last trick).  Returns
    whether the game is over (R-6.1)."""
    for seat in range(2):
        won = st[S_WON_N + seat]
        bid = st[S_BID + seat]
        pts = round_points(ip, won, bid)
        st[S_ROUND_POINTS + seat] = pts
        st[S_SCORE + seat] += pts
        if won == bid:
            st[S_EXACT + seat] += 1
        st[S_TRICKS_WON + seat] += won
    lead_update(st[S_LEAD_TRACKER:S_LEAD_TRACKER + LEAD_FIELDS], st[S_SCORE:S_SCORE + 2], 2, st[S_TURNS])
    return max(st[S_SCORE], st[S_SCORE + 1]) >= ip[P_TARGET] or st[S_ROUND] >= ip[P_MAX_ROUNDS]


@njit_inline
def advance(params, st, rs):
    """The seat to decide, or -1 when the game is over: a finished round is scored, and the next one
    dealt (the other seat deals) up to its first bid."""
    ip = params
    while st[S_PHASE] >= PH_ROUND_END:
        if st[S_PHASE] == PH_OVER or score_round(ip, st):
            st[S_PHASE] = PH_OVER
            return -1
        st[S_ROUND] += 1
        deal_round(ip, st, st[S_DECK:S_DECK + MAX_DECK], 1 - st[S_DEALER], rs)
        _reach_called(ip, st, rs)
    return st[S_DSEAT]


kind = state_entry("kind", S_DKIND, "The §5 kind of the current decision point: DP_BID .. DP_GIVE (1..7).")
count = state_entry("count", S_N, "The number of options of the current decision point (the bits of ``st[S_MASK]``).")


@njit_inline
def nth(params, st, i):
    """The ``i``-th option's code: DP-1 the bid ``i``; DP-2/4/7 the ``i``-th face of ``st[S_MASK]``; DP-3/5/6
    YES (``i = 0``) or DECLINE."""
    k = st[S_DKIND]
    if k == DP_TRADE or k == DP_STEAL or k == DP_SWAP:
        return YES - i
    return nth_set_bit(st[S_MASK], i)


@njit_inline
def options(params, st, out):
    return list_options(st, out)


@njit_inline
def apply(params, st, rs, option):
    """Apply ``option`` to the current decision point (the 6-effect take draws chance), report the lead
    after a trick that is not the hand's last, and run on to the next decision point or the round's end."""
    ip = params
    turns = st[S_TURNS]
    apply_decision(ip, st, option, rs, 0)
    if st[S_TURNS] != turns and st[S_TRICKS_PLAYED] < ip[P_HAND]:
        lead_update(st[S_LEAD_TRACKER:S_LEAD_TRACKER + LEAD_FIELDS], st[S_SCORE:S_SCORE + 2], 2, st[S_TURNS])
    _reach(ip, st, rs)


@njit
def choose(params, policy, st, rs, seat, opts, n, scratch):
    """``greedy`` (code 1) or ``lookahead`` (code 2 + samples << SAMPLES_SHIFT), either declining the
    decision kinds of its bits ``DECLINES_SHIFT + kind``: the chosen option's index."""
    if (policy >> (DECLINES_SHIFT + st[S_DKIND])) & 1 or policy & ((1 << DECLINES_SHIFT) - 1) == GREEDY:
        return choose_plain(params, policy, st, rs, seat, opts, n, scratch)
    code = policy & ((1 << DECLINES_SHIFT) - 1)
    return index_of(opts, n, lookahead_choice(params, st, opts, n, code >> SAMPLES_SHIFT, rs, scratch))


@njit
def choose_plain(params, policy, st, rs, seat, opts, n, scratch):
    """:func:`choose` without the ``lookahead`` (``core.driver.make_play_game``): ``greedy``, the plain
    copy's; a line-up with a ``lookahead`` seat runs the whole copy (:func:`lookahead_in`)."""
    if (policy >> (DECLINES_SHIFT + st[S_DKIND])) & 1:
        return index_of(opts, n, DECLINE)
    return index_of(opts, n, greedy_choice(params, st, opts, n))


def lookahead_in(policies) -> bool:
    """Whether a line-up (:func:`policy_ids`) has a seat that :func:`choose_plain` does not play (a
    ``lookahead``), which only the whole copy of the driver plays (``core.driver.copy_for``)."""
    codes = policies[:2]
    return bool(((codes > 0) & (codes & ((1 << DECLINES_SHIFT) - 1) != GREEDY)).any())  # mcts: negative


@njit_no_nrt
def record(params, st, row):
    """The §6 record of a finished game into ``row`` (COLUMNS); R-6.3 decides the winner."""
    ip = params
    for c in range(N_COLUMNS):
        row[c] = 0
    s0, s1 = st[S_SCORE], st[S_SCORE + 1]
    if s0 != s1:
        w = 0 if s0 > s1 else 1
    elif ip[P_TIEBREAK_DRAW] == 0 and st[S_EXACT] != st[S_EXACT + 1]:
        w = 0 if st[S_EXACT] > st[S_EXACT + 1] else 1
    else:
        w = -1
    row[C_WINNER] = w
    if w >= 0:
        row[C_WIN + w] = 1
    row[C_RESULT] = 0 if w >= 0 else 1
    row[C_FIRST_DEALER] = st[S_FIRST_DEALER]
    row[C_ROUNDS] = st[S_ROUND]
    row[C_TURNS] = st[S_TURNS]
    row[C_PLIES] = st[S_PLIES]
    row[C_DECISIONS] = st[S_PLIES]  # every decision point presented is a ply (reference docstring)
    row[C_OPTIONS] = st[S_OFFERED]
    row[C_LEAD_CHANGES], row[C_DECISIVE_TURN] = lead_result(st[S_LEAD_TRACKER:S_LEAD_TRACKER + LEAD_FIELDS], w,
                                                            st[S_TURNS])
    row[C_DESTROYED] = st[S_DESTROYED]
    row[C_TRUMP_CHANGES] = st[S_TRUMP_CHANGES]
    row[C_NO_TRUMP] = st[S_NO_TRUMP_ROUNDS]
    for seat in range(2):  # SEAT_FIELDS: score, exact_bids, tricks_won, steals, trades, swaps
        row[C_SEAT + seat] = st[S_SCORE + seat]
        row[C_SEAT + 2 + seat] = st[S_EXACT + seat]
        row[C_SEAT + 4 + seat] = st[S_TRICKS_WON + seat]
        row[C_SEAT + 6 + seat] = st[S_STEALS + seat]
        row[C_SEAT + 8 + seat] = st[S_TRADES + seat]
        row[C_SEAT + 10 + seat] = st[S_SWAPS + seat]
        row[C_SEAT_PLIES + seat] = st[S_SEAT_PLIES + seat]


# the rules of a trick, the policies and the §7 checks, in modules of their own over the names above
from toolkit.games.herrlof.tricks import (  # noqa: E402
    legal_mask, trick_winner, play_card, resolve_trick, change_trump, draw_for_trade, steal, take_for_swap, give,
    next_leader,
)
from toolkit.games.herrlof.heuristics import (  # noqa: E402
    hand_strength, greedy_bid, power, shed_key, lead_low_key, lose_key, first_best, greedy_choice, determinize,
    evaluate, rollout_value, lookahead_choice,
)
from toolkit.games.herrlof.invariants import check_cards, check_state, check_round, check_step, check_end  # noqa: E402

RS_SIZE = 3  # the chance stream and the two seats' decision streams
# the mcts policy's default search (core.mcts.game_defaults): the game's greedy plays the rollouts to the end,
# the strongest measured against lookahead (benchmarks/notes/herrlof.md)
MCTS_ROLLOUT = "greedy"
# the plain copy inlines advance and apply (core.driver.make_play_game): 20% faster with random seats
# (benchmarks/notes/herrlof.md)
INLINE_STEPS = True
# returns, advance_called, apply_called, mcts, play_game, WORK_SIZE and play_many (core.wiring)
ACTION_BOUND = MAX_FACES  # every option code (a bid, a face, YES / DECLINE) is below it (the OpenSpiel bridge)
# state fields a determinization copies though a seat has not seen them, left out of an information state
# (the OpenSpiel bridge): every discarded face, buried ones too (kept for the §7.1 check only)
HIDDEN_RECORDS = ("disc",)
finish_kernel(globals())

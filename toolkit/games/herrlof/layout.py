"""Herrlof's layouts: the rule vector (``P_*``, :func:`kernel.to_kernel` fills it), the state (``STATE``,
``S_*``), the result (``COLUMNS``, ``C_*``), the policies' scratch (``SCRATCH``, ``W_*``), and the codes
and sizes the kernel's modules share.  The bottom of the kernel's chain: it imports only ``toolkit.core``
(``layout.py`` <- ``tricks.py`` <- ``mechanics.py`` <- ``heuristics.py``, ``invariants.py`` <- ``kernel.py``).

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
``st[S_N]`` their number, so ``count`` and ``nth`` never list them.

State of one game: one ``int64`` array ``st``, laid out by :data:`STATE`
(``core.layout.Layout``; the ``S_*`` names are its offsets): the round and
the game's tallies (the first ``COPY_SIZE`` entries, what the lookahead
copies for each rollout), what each seat knows and the discards (up to
``ROLLOUT_SIZE``: all the state machine reads and writes), then the
protocol's own: the options presented (``offered``), the lead tracker, the
§7.1 tally and the deck of a deal.  Phases ``PH_*`` say where the state
machine stands; ``PH_ROUND_END`` waits for ``advance`` to score the
round, ``PH_OVER`` ends the game.  A hand is a bit set of its suited faces
(face ``f`` = bit ``f``; every suited face is unique) plus counts of
Valknut and Hagalaz cards; the distinct faces of a hand, in canonical
order, are its set bits in ascending order with the V bit (``suited``) and
the N bit (``suited + 1``) on top.  The policies' scratch (``choose``'s
``scratch``) is laid out by :data:`SCRATCH`.  A seat's policy code
(``kernel.policy_ids``) is its ``POLICY_ID``, plus for ``lookahead`` its
samples ``<< SAMPLES_SHIFT``, plus a bit ``DECLINES_SHIFT + kind`` for each
decision kind it always declines (``greedy:no_steal``).
"""
from __future__ import annotations

from toolkit.core.layout import Layout, block, offset, seat_run
from toolkit.core.lead import LEAD_FIELDS

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

# -- decision points and phases (reference.py takes the DP_* codes from here) --------------
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
# the per-seat fields of the record (reference.record_row), two columns each
SEAT_FIELDS = ("score", "exact_bids", "tricks_won", "steals", "trades", "swaps")
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

RS_SIZE = 3  # the chance stream and the two seats' decision streams
ACTION_BOUND = MAX_FACES  # every option code (a bid, a face, YES / DECLINE) is below it (the OpenSpiel bridge)
# state fields a determinization copies though a seat has not seen them, left out of an information state
# (the OpenSpiel bridge): every discarded face, buried ones too (kept for the §7.1 check only)
HIDDEN_RECORDS = ("disc",)

"""Herrlof policies (pure Python; ``kernel.py`` has the same three in Numba).

Every policy gets a :class:`~toolkit.games.herrlof.reference.View` (what its
seat may know) and the decision point; none ever sees the opponent's hand,
the stock or the opponent's 3-discards.

``random``
    §5 exactly: a uniform choice among the options, bids included.

``greedy``
    Bids its hand strength (:func:`hand_strength`, in quarter tricks: a high
    trump is a sure trick, a low trump half or a quarter, an off-suit top card
    three quarters) plus a base (:func:`bid_base`).  Plays to its bid with ``need = bid - tricks held``:

    - needing tricks, it leads its most powerful card, follows with the
      cheapest card that wins, and otherwise sheds (Hagalaz first, then its
      lowest card, a Valknut last);
    - with enough tricks, it leads a Hagalaz or its lowest card, follows with
      its most powerful card that does not win (a Valknut destroys the trick),
      and wins only when it must, as cheaply as it can.

    Power is the rank, plus ``max_rank`` for a trump; Valknut 0, Hagalaz -1.
    It always trades for a 3 and swaps for a 6 (both can be undone by giving
    back the same card, so they never hurt), steals with a 1 only while it
    needs tricks, and discards or gives the card it wants least.  Ties go to
    the first option in canonical order.

``lookahead`` (``lookahead:S`` for ``S`` samples, default 32)
    Perfect-information Monte Carlo (PIMC, Long et al. 2010).  For each of
    ``S`` determinizations it deals the cards it cannot see consistently with
    what it knows (:func:`determinize`), then for each candidate option plays
    the rest of the round with ``greedy`` for both seats and scores its round
    points minus the opponent's.  It picks the candidate with the best total
    (first in canonical order on ties).  Candidates are all options, except
    bids: the greedy bid and the two bids either side of it.  The opponent's
    secret bid, once made, is estimated as its tricks held plus the greedy bid
    of its sampled hand.
"""

from __future__ import annotations

from toolkit.core import policy as core_policy
from toolkit.games.herrlof import reference as ref
from toolkit.games.herrlof.reference import hand_strength

POLICIES = ("random", "greedy", "lookahead")
# offered by name in a seat beside POLICIES and mcts:N (GameSpec.named_players)
NAMED_PLAYERS = ("lookahead:64", "greedy:no_steal", "greedy:no_trade", "greedy:no_swap")
DEFAULT_SAMPLES = 32
MAX_SAMPLES = 4096
BID_WINDOW = 2
# the optional effects a player may always decline (``greedy:no_steal``): §5's option -> its decision kind
DECLINABLE = {"trade": ref.DP_TRADE, "steal": ref.DP_STEAL, "swap": ref.DP_SWAP}
ALLOWED = ("random", "greedy", "lookahead", "lookahead:S", "greedy:no_EFFECT", "lookahead[:S]:no_EFFECT "
           f"(EFFECT one of {', '.join(DECLINABLE)}; each at most once)")


def parse_policy(name: str) -> tuple[str, int, frozenset]:
    """A policy name -> (base, samples, the effects it always declines), written as Attila's are.

    ``"lookahead:16"`` -> ("lookahead", 16, {}); ``"greedy:no_steal"`` -> ("greedy", 0, {"steal"});
    ``"lookahead:8:no_trade:no_swap"`` combines both.  ``random`` takes no argument: it is §5 exactly.

    >>> parse_policy("lookahead:no_swap")
    ('lookahead', 32, frozenset({'swap'}))
    >>> parse_policy("random:no_steal")
    Traceback (most recent call last):
    ...
    ValueError: policy='random:no_steal' is not allowed: one of random, greedy, lookahead, lookahead:S, \
greedy:no_EFFECT, lookahead[:S]:no_EFFECT (EFFECT one of trade, steal, swap; each at most once)
    """
    base, *args = name.split(":")
    if base not in POLICIES:
        raise ValueError(f"policy={name!r} is not allowed: one of {', '.join(ALLOWED)}")
    samples = DEFAULT_SAMPLES if base == "lookahead" else 0
    declines = set()
    for i, arg in enumerate(args):
        if base == "lookahead" and i == 0 and not arg.startswith("no_"):
            if not (arg.isdigit() and 1 <= int(arg) <= MAX_SAMPLES):
                raise ValueError(f"policy={name!r} is not allowed: lookahead:S needs S samples in 1..{MAX_SAMPLES}")
            samples = int(arg)
        elif base != "random" and arg.startswith("no_") and arg[3:] in DECLINABLE and arg[3:] not in declines:
            declines.add(arg[3:])
        else:
            raise ValueError(f"policy={name!r} is not allowed: one of {', '.join(ALLOWED)}")
    return base, samples, frozenset(declines)


# ---------------------------------------------------------------------- greedy


def bid_base(cards_in_hand: int) -> int:
    """Quarter tricks a greedy bid adds to the hand strength: 4/5 of a quarter per card (12 for 15 cards).

    Measured (reference, greedy self-play, 300 games, seed 2): a base of 0, 4, 8,
    12, 16, 20 quarters met 18%, 29%, 33%, 37%, 28%, 18% of the bids; the tricks
    a hand takes are not all in its high cards (Hagalaz and Valknut cards
    shift tricks, and the greedy play steers towards the bid)."""
    return 4 * cards_in_hand // 5


def greedy_bid(rules, hand, trump) -> int:
    return min(rules.hand_size, (hand_strength(rules, hand, trump) + bid_base(len(hand)) + 2) // 4)


def power(view, face) -> int:
    c = view.cards
    if face == c.V:
        return 0
    if face == c.N:
        return -1
    return c.rank(face) + (c.max_rank if c.suit(face) == view.trump else 0)


def _shed_key(view, face) -> int:
    """Smallest = the card to get rid of while tricks are still needed."""
    c = view.cards
    if face == c.N:
        return -100
    if face == c.V:
        return 100
    return power(view, face)


def _first_min(options, key):
    best = options[0]
    for f in options[1:]:
        if key(f) < key(best):
            best = f
    return best


def _first_max(options, key):
    best = options[0]
    for f in options[1:]:
        if key(f) > key(best):
            best = f
    return best


def need(view) -> int:
    return view.bid - len(view.won[view.seat])


def unwanted(view, options):
    """The card to discard (DP-4) or give (DP-7)."""
    if need(view) > 0:
        return _first_min(options, lambda f: _shed_key(view, f))
    return _first_max(options, lambda f: power(view, f))


def greedy_choice(view, d):
    kind, options = d.kind, d.options
    if len(options) == 1:
        return options[0]
    if kind == ref.DP_BID:
        return greedy_bid(view.rules, view.hand, view.trump)
    if kind in (ref.DP_TRADE, ref.DP_SWAP):
        return ref.YES
    if kind == ref.DP_STEAL:
        return ref.YES if need(view) > 0 else ref.DECLINE
    if kind in (ref.DP_TRADE_DISCARD, ref.DP_GIVE):
        return unwanted(view, options)
    # DP-2
    c = view.cards
    if not view.trick:  # leading
        if need(view) > 0:
            return _first_max(options, lambda f: power(view, f))
        return _first_min(options, lambda f: _shed_key(view, f) if f != c.V else 99)
    lead = view.trick[0]
    wins = [f for f in options if ref.trick_winner(view, lead, f) == 1]
    if need(view) > 0:
        if wins:
            return _first_min(wins, lambda f: power(view, f))
        return _first_min(options, lambda f: _shed_key(view, f))
    loses = [f for f in options if ref.trick_winner(view, lead, f) != 1]
    if loses:
        return _first_max(loses, lambda f: power(view, f) if f < c.suited else (0 if f == c.N else -1))
    return _first_min(options, lambda f: power(view, f))


# ---------------------------------------------------------------------- lookahead (PIMC)


def unseen_pool(view) -> list:
    """The faces ``view.seat`` cannot place: in the opponent's hand (beyond ``known``),
    in the stock, or among the opponent's 3-discards; canonical order."""
    c = view.cards
    counts = list(c.count)
    for f in view.hand:
        counts[f] -= 1
    for f in range(c.n_faces):
        counts[f] -= view.seen[f] + view.known[f]
    return [f for f in range(c.n_faces) for _ in range(counts[f])]


def determinize(view, rs) -> ref.State:
    """A full state consistent with ``view``: the unseen cards dealt at random.

    The opponent's hand gets the cards ``view`` knows it holds, then a uniform
    sample of the unseen cards outside the suits it is known to lack (if too
    few remain, the void knowledge is dropped); the rest is shuffled into the
    stock (top first) and the opponent's 3-discards.
    """
    c, seat, opp = view.cards, view.seat, 1 - view.seat
    pool = unseen_pool(view)
    known = [f for f in range(c.n_faces) for _ in range(view.known[f])]
    want = view.opp_hand_size - len(known)
    assert len(pool) == want + view.stock_size + view.opp_buried, "inconsistent knowledge"
    eligible = [f for f in pool if c.suit(f) not in view.void]
    rest_tail = [f for f in pool if c.suit(f) in view.void]
    if len(eligible) < want:
        eligible, rest_tail = pool, []
    for i in range(want):  # partial Fisher-Yates
        j = i + rs.below(len(eligible) - i)
        eligible[i], eligible[j] = eligible[j], eligible[i]
    opp_hand = sorted(known + eligible[:want])
    rest = eligible[want:] + rest_tail
    rs.shuffle(rest)
    hands = [None, None]
    hands[seat], hands[opp] = list(view.hand), opp_hand
    buried = [None, None]
    buried[seat], buried[opp] = list(view.buried), rest[view.stock_size:]
    bids = [None, None]
    bids[seat] = view.bid
    opp_has_bid = view.bid_turn == 2 or (view.bid_turn == 1 and opp == 1 - view.dealer)
    if opp_has_bid:
        bids[opp] = min(view.rules.hand_size, len(view.won[opp]) + greedy_bid(view.rules, opp_hand, view.trump))
    n = c.n_faces
    return ref.State(rules=view.rules, cards=c, hands=hands, stock=rest[:view.stock_size], indicator=view.indicator,
                     trump=view.trump, won=[list(view.won[0]), list(view.won[1])], trick=list(view.trick),
                     discard=list(view.discard), buried=buried, bids=bids, scores=list(view.scores),
                     exact_bids=list(view.exact_bids), dealer=view.dealer, leader=view.leader,
                     round_no=view.round_no, tricks_played=view.tricks_played, trick_leader=view.trick_leader,
                     trick_winner=view.trick_winner, winning_face=view.winning_face, threes=list(view.threes),
                     threes_owner=seat, taken=view.taken, phase=view.phase, bid_turn=view.bid_turn,
                     seen=[[0] * n, [0] * n], known=[[0] * n, [0] * n], void=[set(), set()])


def rollout_value(world: ref.State, seat: int, rs) -> int:
    """Play the round out with ``greedy`` for both seats; round points of ``seat`` minus the opponent's."""
    while (d := ref.next_decision(world, rs)) is not None:
        ref.apply_decision(world, d, greedy_choice(ref.observe(world, d.seat), d), rs)
    rules = world.rules
    mine = ref.round_points(rules, len(world.won[seat]), world.bids[seat])
    theirs = ref.round_points(rules, len(world.won[1 - seat]), world.bids[1 - seat])
    return mine - theirs


def candidates(view, d) -> list:
    if d.kind != ref.DP_BID:
        return d.options
    g = greedy_bid(view.rules, view.hand, view.trump)
    return [b for b in d.options if abs(b - g) <= BID_WINDOW]


def lookahead_choice(view, d, samples: int, rs):
    if len(d.options) == 1:
        return d.options[0]
    cands = candidates(view, d)
    totals = [0] * len(cands)
    for _ in range(samples):
        world = determinize(view, rs)
        for i, option in enumerate(cands):
            w = copy_state(world)
            ref.apply_decision(w, d, option, rs)
            totals[i] += rollout_value(w, view.seat, rs)
    best = 0
    for i in range(1, len(cands)):
        if totals[i] > totals[best]:
            best = i
    return cands[best]


def copy_state(st: ref.State) -> ref.State:
    """A copy deep enough for a rollout (lists copied, knowledge shared: rollouts do not read it)."""
    out = ref.State(**{f: getattr(st, f) for f in st.__dataclass_fields__})
    out.hands = [list(st.hands[0]), list(st.hands[1])]
    out.stock = list(st.stock)
    out.won = [list(st.won[0]), list(st.won[1])]
    out.trick = list(st.trick)
    out.discard = list(st.discard)
    out.buried = [list(st.buried[0]), list(st.buried[1])]
    out.bids = list(st.bids)
    out.scores = list(st.scores)
    out.exact_bids = list(st.exact_bids)
    out.threes = list(st.threes)
    for name in ("tricks_won", "steals", "trades", "swaps", "round_points"):
        setattr(out, name, list(getattr(st, name)))
    return out


# ---------------------------------------------------------------------- the objects play_game uses


class GreedyPolicy(core_policy.ChoicePolicy):
    choice = staticmethod(greedy_choice)

    def __init__(self, rules, stream, declines=frozenset()):
        self.declines = {DECLINABLE[option] for option in declines}

    def choose(self, view, d):
        if d.kind in self.declines:
            return ref.DECLINE
        return greedy_choice(view, d)


class LookaheadPolicy:
    def __init__(self, rules, stream, samples=DEFAULT_SAMPLES, declines=frozenset()):
        self.stream = stream
        self.samples = samples
        self.declines = {DECLINABLE[option] for option in declines}

    def choose(self, view, d):
        if d.kind in self.declines:
            return ref.DECLINE
        return lookahead_choice(view, d, self.samples, self.stream)


def make_policy(name: str, rules, stream):
    return core_policy.make_player(name, rules, stream, parse_policy, GreedyPolicy, LookaheadPolicy)


# the reference asks core.policy for its players (it does not import this module); the lambda looks
# make_policy up at each call, so a test may replace it
core_policy.register_players("herrlof", lambda name, rules, stream: make_policy(name, rules, stream))

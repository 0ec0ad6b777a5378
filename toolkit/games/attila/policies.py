"""Attila policies (pure Python; the kernel has the same ones in Numba).

Every policy gets a view of what its seat may know (its own hand, the public
board, tracks, supplies, peace stacks and unused tiles; the other hands only
by size) and the decision point.

``random``
    §5 exactly: a uniform choice among the options.

``greedy``
    Values a position by ``gain``: the VP the seat would get if a scoring
    happened now (:func:`~toolkit.games.attila.reference.scoring_gains`).

    - DP-4 play: the (tribe, province) that maximises ``10 * gain`` after the
      figure and the century's influence, minus 5 if the figure starts a war;
    - DP-6 bonus: influence or a second figure, whichever gives the most gain;
    - DP-7 support: all its layable cards of the tribes at war that it leads
      (most influence, > 0), nothing else;
    - DP-1 tiles: ``plus_two`` when some split raises its gain, else
      ``double_turn`` from century VI on, else ``exchange`` when no card in
      hand can be placed, else proceed; DP-2 the split with the most gain;
      DP-3 the cards that cannot be placed (or the first option);
    - DP-5 forced discard: the tribe it has least influence in.

    Ties among the best options are broken uniformly (``toolkit.core.policy.best``: one
    ``below(k)`` from the seat's decision stream whenever the k-th option of
    the best value so far is met), so no tribe or province is favoured by
    its number.  DP-1, DP-3 and DP-7 follow fixed rules and draw nothing.

``lookahead`` (``lookahead:S``, S samples, default 8)
    ``greedy`` at every decision point but DP-4, where each candidate play is
    scored by determinized rollouts (:func:`lookahead_play`): S guesses of the
    hidden cards (:func:`determinize`), and in each the candidate, the rest
    of the turn and one turn of every other player played out by ``greedy``;
    the value is VP plus a scoring now, minus the best opponent's.  In a
    rollout the deck reshuffles from a copy of the seat's decision stream
    state after the determinization, and seat p's greedy breaks ties from a
    stream whose state is ``mix64(that state + 1 + p)``; every candidate of a
    sample sees the same streams.  Ties between candidates are broken as
    ``greedy`` does.

``greedy:no_TILE`` / ``lookahead:no_TILE`` (TILE = double_turn, plus_two, exchange)
    The same policy, but it never uses that action tile (for the tile values
    measured by paired games).  The tile is still offered at DP-1.

Knowledge model: a policy sees its own hand, the public board and tracks, the
hand sizes, the deck size and the discard pile.  The discard pile is taken to
be face up: cards reach it by being played face up, by being revealed in a
war, or by a discard (DP-3, DP-5) the spec does not call secret.
"""

from __future__ import annotations

from toolkit.core import policy as core_policy
from toolkit.core.policy import best, deal_unseen
from toolkit.core.rng import Stream, mix64
from toolkit.games.attila import reference as ref
from toolkit.games.attila.rules import TILES

POLICIES = ("random", "greedy", "lookahead")
# offered by name in a seat beside POLICIES and mcts:N (GameSpec.named_players)
NAMED_PLAYERS = ("lookahead:32", "greedy:no_exchange", "greedy:no_plus_two", "greedy:no_double_turn")
DEFAULT_SAMPLES = 8
MAX_SAMPLES = 1024
ALLOWED = ("random", "greedy", "lookahead", "lookahead:S", "greedy:no_TILE", "lookahead[:S]:no_TILE "
           "(TILE one of double_turn, plus_two, exchange; repeatable)")


def parse_policy(name: str) -> tuple[str, int, frozenset]:
    """A policy name -> (base, samples, tiles it never uses).

    ``"lookahead:16"`` -> ("lookahead", 16, {}); ``"greedy:no_exchange"`` -> ("greedy", 0,
    {"exchange"}); ``"lookahead:4:no_plus_two:no_double_turn"`` combines both.  ``random``
    takes no argument: it is §5 exactly.
    """
    base, *args = name.split(":")
    if base not in POLICIES:
        raise ValueError(f"policy={name!r} is not allowed: one of {', '.join(ALLOWED)}")
    samples = DEFAULT_SAMPLES if base == "lookahead" else 0
    without = set()
    for arg in args:
        if base == "lookahead" and arg.isdigit() and arg == args[0]:
            samples = int(arg)
            if not 1 <= samples <= MAX_SAMPLES:
                raise ValueError(f"policy={name!r} is not allowed: lookahead:S needs S samples in 1..{MAX_SAMPLES}")
        elif base != "random" and arg.startswith("no_") and arg[3:] in TILES:
            without.add(arg[3:])
        else:
            raise ValueError(f"policy={name!r} is not allowed: one of {', '.join(ALLOWED)}")
    return base, samples, frozenset(without)


def _gain(view, influence=None, figures=None) -> int:
    rules = view["rules"]
    influence = view["influence"] if influence is None else influence
    figures = view["figures"] if figures is None else figures
    return ref.scoring_gains(rules, influence, figures, rules.num_players)[view["seat"]]


def _with_influence(view, changes):
    influence = [list(r) for r in view["influence"]]
    cap = view["rules"].influence_track_max
    for t, amount in changes:
        influence[view["seat"]][t] = min(cap, influence[view["seat"]][t] + amount)
    return influence


def _with_figure(view, t, x):
    figures = [list(r) for r in view["figures"]]
    figures[x][t] += 1
    return figures


def greedy_choice(view, d, stream, without=frozenset()):
    options = d.options
    if len(options) == 1:
        return options[0]
    rules, me = view["rules"], view["seat"]
    rate = rules.influence_rate_per_century[view["century"]]
    if d.kind == ref.DP_TILE:
        usable = [o for o in options[:-1] if o not in without]
        if "plus_two" in usable:
            base = _gain(view)
            if max(_gain(view, _with_influence(view, _split(o))) for o in ref.plus_two_options()) > base:
                return "plus_two"
        if "double_turn" in usable and view["century"] >= 2:
            return "double_turn"
        if "exchange" in usable and not any(view["hand"][t] > 0 and view["legal"][t] for t in range(6)):
            return "exchange"
        return ref.PROCEED
    if d.kind == ref.DP_PLUS_TWO:
        return best(options, [_gain(view, _with_influence(view, _split(o))) for o in options], stream)
    if d.kind == ref.DP_EXCHANGE:
        unplayable = tuple(view["hand"][t] if not view["legal"][t] else 0 for t in range(6))
        return unplayable if any(unplayable) else options[0]
    if d.kind == ref.DP_PLAY:
        values = []
        for t, x in options:
            figures = _with_figure(view, t, x)
            value = 10 * _gain(view, _with_influence(view, [(t, rate)]), figures)
            if sum(figures[x]) == rules.war_threshold:
                value -= 5
            values.append(value)
        return best(options, values, stream)
    if d.kind == ref.DP_DISCARD:
        return best(options, [-view["influence"][me][t] for t in options], stream)
    if d.kind == ref.DP_BONUS:
        t = d.info
        values = [_gain(view, _with_influence(view, [(t, rate)]))]
        values += [_gain(view, None, _with_figure(view, t, x)) for x in options[1:]]
        return best(options, values, stream)
    # DP-7 support: every layable card of the involved tribes it leads
    x = d.info
    limits = [max(o[t] for o in options) for t in range(6)]
    influence = view["influence"]
    leads = [view["figures"][x][t] > 0 and influence[me][t] > 0 and influence[me][t] == max(r[t] for r in influence)
             for t in range(6)]
    return tuple(limits[t] if leads[t] else 0 for t in range(6))


def _split(option):
    return [(option[0], 2)] if len(option) == 1 else [(option[0], 1), (option[1], 1)]


class GreedyPolicy:
    needs_view = True

    def __init__(self, rules, stream, without=frozenset()):
        self.stream, self.without = stream, without

    def choose(self, view, decision):
        return greedy_choice(view, decision, self.stream, self.without)


# ---------------------------------------------------------------------- lookahead


def determinize(view, stream):
    """A guess at the hidden cards consistent with what ``view["seat"]`` knows.

    Unseen cards = all cards - own hand - the discard pile (face up: every card
    reaches it by being played, revealed in a war, or discarded in the open).
    They are listed in canonical order, shuffled (Fisher-Yates from the seat's
    decision stream), dealt to the other seats in seat order (each its public
    hand size, from the front) and the rest, in order, is the deck."""
    rules, me = view["rules"], view["seat"]
    pool = [t for t in range(ref.N_TRIBES)
            for _ in range(rules.cards_per_tribe - view["hand"][t] - view["discard"][t])]
    stream.shuffle(pool)
    hands, deck = deal_unseen(pool, view["hand"], view["hand_sizes"], me)
    assert len(deck) == view["deck_size"], "the unseen cards are the other hands and the deck"
    return hands, deck


def position_value(game, me) -> int:
    """A rollout's value for ``me``: VP (plus what a scoring now would give, if the game
    goes on) minus the best opponent's."""
    gains = [0] * game.n if game.game_over else ref.scoring_gains(game.rules, game.influence, game.figures, game.n)
    worth = [game.vp[p] + gains[p] for p in range(game.n)]
    return worth[me] - max(worth[p] for p in range(game.n) if p != me)


def lookahead_play(view, options, samples, stream, without=frozenset()) -> tuple:
    """DP-4: the (tribe, province) with the best total rollout value over ``samples`` worlds.

    Each sample determinizes the hidden cards once; every candidate is then played in a copy
    of that world, and the turn and the other players' next turns (one round) are played out
    by ``greedy`` for every seat, with the deck reshuffled from a chance stream that starts
    at the sample's decision-stream state (the same for every candidate)."""
    me, n = view["seat"], view["rules"].num_players
    totals = [0] * len(options)
    for _ in range(samples):
        hands, deck = determinize(view, stream)
        for i, (t, x) in enumerate(options):
            players = [GreedyPolicy(None, Stream(state=mix64(stream.state + 1 + p)), without if p == me else frozenset())
                       for p in range(n)]
            world = ref.Game.world(view, hands, deck, Stream(state=stream.state), players)
            world.apply_play(me, t, x)
            world.finish_turn(me)
            seat = me
            for _ in range(n - 1):
                if world.game_over:
                    break
                seat = (seat + 1) % n
                world.turn(seat)
            totals[i] += position_value(world, me)
    return best(options, totals, stream)


class LookaheadPolicy:
    """``greedy`` everywhere but DP-4, where every candidate play is scored by rollouts."""

    needs_view = True

    def __init__(self, rules, stream, samples=DEFAULT_SAMPLES, without=frozenset()):
        self.stream, self.samples, self.without = stream, samples, without

    def choose(self, view, decision):
        if decision.kind == ref.DP_PLAY and len(decision.options) > 1:
            return lookahead_play(view, decision.options, self.samples, self.stream, self.without)
        return greedy_choice(view, decision, self.stream, self.without)


def make_policy(name: str, rules, stream):
    return core_policy.make_player(name, rules, stream, parse_policy, GreedyPolicy, LookaheadPolicy)


# the reference asks core.policy for its players (it does not import this module); the lambda looks
# make_policy up at each call, so a test may replace it
core_policy.register_players("attila", lambda name, rules, stream: make_policy(name, rules, stream))

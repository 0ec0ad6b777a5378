"""Pieces the games' pure-Python policies share.

- :class:`RandomPolicy`: the reference ``random`` policy of every spec's §5
  for games whose decision points carry an ``options`` list (or are one);
- :func:`best`: the highest-valued option with ties broken uniformly from
  the seat's decision stream (the kernels use the same draws);
- :func:`parse_samples`: ``NAME`` / ``NAME:S`` policy names (``lookahead:16``);
- :func:`make_player`: the player a name asks for, in a game whose policies are ``random``,
  ``greedy`` and ``lookahead:S``;
- :class:`ChoicePolicy`: a policy that is one function of the view and the decision;
- :func:`deal_unseen`: a determinization's deal of the cards a seat has not seen, where hands are
  counts per kind of card;
- :func:`register_players` / :func:`players`: a game's policies module registers how it makes a
  player from a name, and its reference asks for one player per seat here, so that the reference
  (the rules) never imports its policies (which import the rules).
"""

from __future__ import annotations

from typing import Callable

from toolkit.core.rng import Stream

_PLAYER_MAKERS: dict[str, Callable] = {}


def register_players(game: str, make_policy: Callable) -> None:
    """``make_policy(name, rules, stream) -> player`` is how ``game``'s policies are made."""
    _PLAYER_MAKERS[game] = make_policy


def players(game: str, names, rules, seed: int, game_index: int) -> list:
    """One player per seat of game ``game_index`` of a run seeded ``seed``: ``names[s]`` made by the
    game's registered maker, drawing from the seat's decision stream ``1 + s``.

    >>> import toolkit
    >>> [type(p).__name__ for p in players("valhalla", ("random", "greedy"), toolkit.rules("valhalla"), 1, 0)]
    ['RandomPolicy', 'GreedyPolicy']
    """
    if game not in _PLAYER_MAKERS:  # the game's policies module registers them when imported
        from toolkit.core.registry import GAMES

        GAMES[game].folder.module("policies")
    make = _PLAYER_MAKERS[game]
    return [make(name, rules, Stream(seed, game_index, 1 + seat)) for seat, name in enumerate(names)]


class RandomPolicy:
    """A uniform choice among the options of every decision point (§5): one ``below(n)`` from
    the seat's decision stream, nothing for a single option."""

    needs_view = False  # the game may skip building a view for it

    def __init__(self, rules, stream):
        self.stream = stream

    def choose(self, view, decision):
        """One of ``decision.options`` (or of ``decision`` itself, a list of options)."""
        options = getattr(decision, "options", decision)
        if len(options) == 1:
            return options[0]
        return options[self.stream.below(len(options))]


class ChoicePolicy:
    """A player whose choice is one function, ``choice(view, decision)``, of what its seat sees at
    the decision: it draws nothing from its stream and keeps nothing from one decision to the next.
    A game's policy of that kind names its function::

        class GreedyPolicy(ChoicePolicy):
            choice = staticmethod(greedy_choice)
    """

    choice = None  # (view, decision) -> option, set by the subclass

    def __init__(self, rules, stream):
        pass

    def choose(self, view, decision):
        return self.choice(view, decision)


def make_player(name: str, rules, stream, parse, greedy, lookahead):
    """The player ``name`` asks for, in a game whose policies are ``random``, ``greedy`` and
    ``lookahead:S`` (a game's ``make_policy``).

    ``parse(name)`` is the game's ``parse_policy``: ``(base, samples, *more)``, where ``more`` is
    what the game's greedy and lookahead players take besides (Attila's unused tiles).  ``random``
    is :class:`RandomPolicy`; ``greedy(rules, stream, *more)`` and ``lookahead(rules, stream,
    samples, *more)`` are the game's classes.

    Examples
    --------
    >>> from toolkit.core.rng import Stream
    >>> parse = lambda name: parse_samples(name, ("random", "greedy", "lookahead"), "lookahead", 8, 100)
    >>> type(make_player("random", None, Stream(1), parse, None, None)).__name__
    'RandomPolicy'
    """
    base, samples, *more = parse(name)
    if base == "random":
        return RandomPolicy(rules, stream)
    if base == "greedy":
        return greedy(rules, stream, *more)
    return lookahead(rules, stream, samples, *more)


def deal_unseen(pool, hand, hand_sizes, seat) -> tuple[list, list]:
    """The hands of a determinization (a guess at the hidden cards), for a game whose hands are
    counts per kind of card (Attila's tribes, Walhalla's action cards).

    ``pool`` lists the cards ``seat`` has not seen (kind codes), already shuffled: the other seats
    get theirs from its front, in seat order, each as many as its public hand size
    ``hand_sizes[p]``; ``seat`` keeps its own ``hand`` (counts per kind).

    Returns
    -------
    (hands, rest)
        Every seat's hand as counts per kind, and the cards of ``pool`` dealt to nobody, in order.

    Examples
    --------
    >>> deal_unseen([1, 0, 1, 1], [2, 0], [2, 1, 2], 0)
    ([[2, 0], [0, 1], [1, 1]], [1])
    """
    hands, k = [], 0
    for p, size in enumerate(hand_sizes):
        if p == seat:
            hands.append(list(hand))
            continue
        counts = [0] * len(hand)
        for card in pool[k:k + size]:
            counts[card] += 1
        k += size
        hands.append(counts)
    return hands, pool[k:]


def best(options, values, stream):
    """The option of highest value; a tie is broken uniformly, by one ``below(k)`` from the
    seat's decision stream each time the k-th option of the best value so far is met.  The kernels'
    twin is :func:`toolkit.core.rng.best_of` (one step of the same search, draw for draw).

    Examples
    --------
    >>> from toolkit.core.rng import Stream
    >>> best(["a", "b", "c"], [1, 3, 2], Stream(1))
    'b'
    """
    top, ties = 0, 1
    for i in range(1, len(options)):
        if values[i] > values[top]:
            top, ties = i, 1
        elif values[i] == values[top]:
            ties += 1
            if stream.below(ties) == 0:
                top = i
    return options[top]


def parse_samples(name: str, policies, sampled: str, default: int, most: int) -> tuple[str, int]:
    """``"lookahead:16"`` -> ("lookahead", 16) for the ``sampled`` policy (``default`` samples
    without an argument, at most ``most``); any other name in ``policies`` takes no argument.

    Examples
    --------
    >>> parse_samples("lookahead:4", ("random", "lookahead"), "lookahead", 8, 100)
    ('lookahead', 4)
    >>> parse_samples("random", ("random", "lookahead"), "lookahead", 8, 100)
    ('random', 0)
    """
    base, colon, arg = name.partition(":")
    if base == sampled:
        if not colon:
            return base, default
        if arg.isdigit() and 1 <= int(arg) <= most:
            return base, int(arg)
        raise ValueError(f"policy={name!r} is not allowed: {sampled}:S needs S samples in 1..{most}")
    if colon or base not in policies:
        raise ValueError(f"policy={name!r} is not allowed: one of {', '.join(policies)}, {sampled}:S")
    return base, 0

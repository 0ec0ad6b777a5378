"""Halali policies (pure Python; ``kernel.py`` has the same three in Numba).

Every policy gets a :class:`~toolkit.games.halali.reference.View` (face-up
tiles, which squares are face down, the face-down counts per kind) and the
legal actions; none sees a face-down tile.

``random``
    §5 exactly: a uniform choice among the options.

``greedy``
    Scores each action ``10 * gain - 10 * threat``: ``gain`` is the points of
    the tile it captures or rescues, ``threat`` the most points the opponent
    could then take with one capture (:func:`threat`: face-up tiles only, lock
    and no-return ignored; the tile a reveal turns over counts as still face
    down).  A plain move in the main phase costs 1 more, so it reveals when
    nothing better is on.  Ties go to the first option in canonical order
    (reveals come first).

``lookahead``
    One ply for itself and the reply: moves score as in ``greedy``; a reveal
    scores the expectation, over the face-down counts (and the four gun
    directions of a hunter), of ``-10 * threat`` with the revealed tile face
    up.  Integer arithmetic: every value is scaled by ``4 * face-down tiles``.
"""

from __future__ import annotations

import functools

from toolkit.core import policy as core_policy
from toolkit.core.policy import RandomPolicy
from toolkit.games.halali import reference as ref
from toolkit.games.halali.rules import COLOUR_OF_KIND, HUNTER, KINDS

POLICIES = ("random", "greedy", "lookahead")


# RAYS[s][d]: the squares from s outwards in direction d, the nearest first, as far as the board goes
RAYS = tuple(tuple(tuple(t for t in (ref.step(s, d, n) for n in range(1, 7)) if t >= 0) for d in range(4))
             for s in range(49))


@functools.lru_cache(maxsize=32)
def _capture_tables(rules) -> tuple:
    """Per kind (index into ``KINDS``): the kinds it captures (a set), its points and its range; and
    whether a hunter captures only the way its gun points."""
    return (tuple(frozenset(KINDS.index(v) for v in rules.capture_matrix[k]) for k in KINDS),
            tuple(rules.points[k] for k in KINDS), tuple(rules.ranges[k] for k in KINDS),
            rules.hunter_direction_restricted_capture)


def threat(rules, grid, attacker_colour: int) -> int:
    """The most points the player of ``attacker_colour`` could take with one capture.

    ``grid`` is a View grid: ``(kind, id, dir)`` face up, ``FACE_DOWN`` or None."""
    return _threat(_capture_tables(rules), grid, attacker_colour)


def _threat(tables, grid, attacker_colour: int) -> int:
    """:func:`threat` with the rules' ``_capture_tables`` (looked up once by a caller that asks many times)."""
    captures, points, ranges, restricted = tables
    best = 0
    for s, t in enumerate(grid):
        if t is None or t == ref.FACE_DOWN:
            continue
        kind, _, gun = t
        prey = captures[kind]
        owner = COLOUR_OF_KIND[kind]
        if not prey or not (owner == attacker_colour or owner == -1):
            continue
        reach = ranges[kind]
        for d, ray in enumerate(RAYS[s]):
            if kind == HUNTER and restricted and d != gun:
                continue
            for target in ray[:reach]:  # the first tile along the ray, within reach
                victim = grid[target]
                if victim is None:
                    continue
                if victim != ref.FACE_DOWN and victim[0] in prey and points[victim[0]] > best:
                    best = points[victim[0]]
                break
    return best


def after(view, action):
    """(grid after the action, points gained, is a plain move); a reveal leaves the tile face down."""
    grid = list(view.grid)
    kind, s, d, n = action
    if kind == ref.REVEAL:
        return grid, 0, False
    tile = grid[s]
    target = ref.step(s, d, n)
    grid[s] = None
    pts = view.rules.points
    if target < 0:
        return grid, pts[KINDS[tile[0]]], False
    victim = grid[target]
    grid[target] = tile
    if victim is None:
        return grid, 0, True
    return grid, pts[KINDS[victim[0]]], False


def greedy_value(view, action) -> int:
    grid, gain, plain = after(view, action)
    opponent = view.colour[1 - view.seat]
    value = 10 * gain - 10 * threat(view.rules, grid, opponent)
    if plain and view.phase == "main":
        value -= 1
    return value


def _first_best(options, values):
    best = 0
    for i in range(1, len(options)):
        if values[i] > values[best]:
            best = i
    return options[best]


def greedy_choice(view, options):
    if len(options) == 1:
        return options[0]
    reveal_value = None
    values = []
    for a in options:
        if a[0] == ref.REVEAL:  # every reveal leaves the same known board
            if reveal_value is None:
                reveal_value = greedy_value(view, a)
            values.append(reveal_value)
        else:
            values.append(greedy_value(view, a))
    return _first_best(options, values)


def lookahead_value(view, action, weight: int) -> int:
    """The action's value times ``weight = 4 * max(face-down tiles, 1)``."""
    opponent = view.colour[1 - view.seat]
    rules = view.rules
    if action[0] != ref.REVEAL:
        return weight * greedy_value(view, action)
    s = action[1]
    grid = list(view.grid)
    tables = _capture_tables(rules)
    total = 0
    for kind, count in enumerate(view.face_down_counts):
        if count == 0:
            continue
        if kind == HUNTER:
            for gun in range(4):
                grid[s] = (kind, -1, gun)
                total -= count * 10 * _threat(tables, grid, opponent)
        else:
            grid[s] = (kind, -1, -1)
            total -= count * 4 * 10 * _threat(tables, grid, opponent)
    return total


def lookahead_choice(view, options):
    if len(options) == 1:
        return options[0]
    weight = 4 * max(sum(view.face_down_counts), 1)
    return _first_best(options, [lookahead_value(view, a, weight) for a in options])


class GreedyPolicy(core_policy.ChoicePolicy):
    choice = staticmethod(greedy_choice)


class LookaheadPolicy(core_policy.ChoicePolicy):
    choice = staticmethod(lookahead_choice)


def make_policy(name: str, rules, stream):
    return {"random": RandomPolicy, "greedy": GreedyPolicy, "lookahead": LookaheadPolicy}[name](rules, stream)


# the reference asks core.policy for its players (it does not import this module); the lambda looks
# make_policy up at each call, so a test may replace it
core_policy.register_players("halali", lambda name, rules, stream: make_policy(name, rules, stream))

"""Exact Halali reveal odds (spec ``docs/rules/halali.md`` §2, H-1, H-3) in exact fractions.

Every number here is a :class:`fractions.Fraction` computed from tile counts,
never by sampling.  The results hold for any valid
:class:`~toolkit.games.halali.rules.Rules`, which is what a function's ``rules``
is (its entry in a docstring says which fields are read, where that matters).

Derivations
-----------
The setup (H-1.1) puts the 48 tiles on the 48 squares around d4 by a uniform
shuffle, and gives each hunter an independent, uniform gun direction
(H-1.2).  Face-down tiles never move (a move needs a face-up tile, H-3.1),
and which square a player reveals can depend only on public information.
So, given everything a player can see, the face-down tiles are a uniformly
shuffled copy of the multiset of kinds still face down (``face_down_counts``
of :class:`~toolkit.games.halali.reference.View`), by exchangeability:

- a reveal of any face-down square shows kind ``k`` with probability
  ``c_k / N``, where ``c_k`` tiles of kind ``k`` of ``N`` are face down
  (:func:`reveal_distribution`); at the start ``c_k = tile_counts[k]`` and
  ``N = 48``;
- a revealed hunter faces each of N, E, S, W with probability 1/4, whatever
  else is known, so ``P(hunter facing d) = c_hunter / (4 N)``
  (:func:`hunter_direction`, :func:`reveal_outcomes`).

Exposure (:func:`exposure_probability`)
---------------------------------------
The question: "if ``seat`` reveals the face-down square ``s`` now, how
likely is it that the opponent can then capture one of ``seat``'s tiles?"
Defined exactly as follows.

- **Own tiles** of ``seat`` are the tiles of its colour (Blue: bear, fox;
  Brown: lumberjack, hunter); ducks, pheasants and trees are never "own".
- A face-up own tile on square ``v`` is **capturable** when a face-up tile
  the opponent may move (its own colour, or a neutral duck or pheasant;
  trees never move, H-3.1) stands on a square ``a`` with ``v`` at distance
  ``1 <= n <= ranges[attacker]`` in a straight orthogonal line, every square
  strictly between is empty (face-down and face-up tiles both block,
  H-3.2), the victim's kind is in the attacker's ``capture_matrix`` entry,
  and, for a hunter with ``hunter_direction_restricted_capture`` on, the line
  points along its gun (H-3.4).  Face-down tiles are never capturable
  (H-3.4, gap 11).
- The outcome of the reveal is the kind shown and, for a hunter, its gun
  direction: every (kind, direction) pair is weighted exactly as above.  The
  revealed tile can be a new **attacker** (an opponent or neutral kind) and a
  new **victim** (an own kind, capturable at once if some attacker already
  aims at the square).
- **Exposed** (the default, ``new_only=True``): after the reveal some own tile
  of ``seat`` is capturable that was not capturable before it.  Revealing
  never opens a line (the square was blocked face down and stays blocked
  face up), so the capturable own tiles after the reveal are those before
  plus possibly the revealed tile and tiles the revealed tile attacks; a
  tile that some other attacker could already take does not count again.
  With ``new_only=False`` the question is plainly "is some own tile
  capturable after the reveal?", which is 1 if one already is.
- **Ignored**, and so an upper bound on what the opponent can really do:
  the neutral lock (H-3.6: a duck or pheasant that ``seat`` has just
  revealed could not be moved by the opponent on his next action, which
  matters only if neutrals have captures), the no-return rule (H-3.5), the
  forced reveal of ``progress_limit`` (H-2) and ``forced_capture``.  The
  answer is about capture geometry on the next move only.

Only public information is used: the face-up tiles (kind, id, gun
direction), which squares are face down, and the counts still face down.
Given a :class:`~toolkit.games.halali.reference.State`, the function first
takes ``observe(state, seat)``, so the hidden tile on the square is never
looked at.

:func:`summary` is the game's ``odds`` table (``toolkit odds halali``, the
report).

Examples
--------
>>> from toolkit.games.halali.rules import Rules
>>> reveal_distribution(Rules())["hunter"]
Fraction(1, 6)
>>> hunter_direction(Rules())["N"]
Fraction(1, 24)
>>> expected_reveal_points(Rules())
Fraction(7, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import NamedTuple

import numpy as np
import pandas as pd

from toolkit.core.deals import Streams, replayed_games, sample_means
from toolkit.core.exact import index_of, odds_table
from toolkit.core.rng import CHANCE, Stream
from toolkit.games.halali.rules import COLOUR_OF_KIND, DIRECTIONS, HUNTER, KINDS

FACE_DOWN = "?"  # the View's marker for a face-down square (reference.FACE_DOWN)
_STEP = ((0, 1), (1, 0), (0, -1), (-1, 0))  # N, E, S, W as (dx, dy), as in the reference

# The rows of summary; simulated builds its keys from the same templates
FIRST_REVEAL = "P(first reveal is {what})"  # "a bear", ..., or an owner group's label
OWNER_GROUPS = (("Blue's own (bear, fox)", 0), ("Brown's own (lumberjack, hunter)", 1),
                ("neutral (pheasant, duck)", -1), ("a tree (nobody's)", -2))  # label, COLOUR_OF_KIND
HUNTER_FACES = "P(a revealed hunter faces {d})"
FIRST_REVEAL_FACING = "P(first reveal is a hunter facing {d})"
POINTS_FACE_DOWN = "points face down at the start ({kinds})"  # a kind, or "all kinds"
FIRST_REVEAL_POINTS = "expected points of the first reveal"

# Games replayed for the simulated odds, fewer than toolkit.core.deals.SAMPLE_DEALS: the reference
# set-up (H-1: 48 Tile objects, a shuffle, the guns) took about 0.06 ms, so 10,000 took 0.55-0.65 s
# (measured) and 8,000 about 0.5 s; first_reveals replays the 8,000 at once in about 15 ms (kept at
# 8,000: the numbers shown stay the same)
DEALS_REPLAYED = 8_000


# ---------------------------------------------------------------------- helpers


def _step(s: int, d: int, n: int) -> int:
    x, y = s % 7 + _STEP[d][0] * n, s // 7 + _STEP[d][1] * n
    return 7 * y + x if 0 <= x < 7 and 0 <= y < 7 else -1


def face_down_counts(counts) -> list[int]:
    """The face-down count of each kind, in ``KINDS`` order, from any accepted form.

    Parameters
    ----------
    counts : sequence of 7 int, mapping, Rules, View or State
        A sequence in ``KINDS`` order; a mapping keyed by kind name or index
        (missing kinds count 0); a ``Rules`` (its ``tile_counts``: the start
        of a game); a reference ``View`` (its ``face_down_counts``); or a
        reference ``State`` (the counts its players can see, never the
        hidden tiles).

    Examples
    --------
    >>> face_down_counts({"bear": 1, "tree": 3})
    [1, 0, 0, 0, 0, 0, 3]
    >>> from toolkit.games.halali.rules import Rules
    >>> face_down_counts(Rules())
    [2, 6, 2, 8, 8, 7, 15]
    """
    if hasattr(counts, "face_down_counts") and not callable(counts.face_down_counts):  # a View
        counts = counts.face_down_counts
    elif hasattr(counts, "grid") and hasattr(counts, "captured"):  # a State: only the public counts
        from toolkit.games.halali import reference as ref

        counts = ref.face_down_counts(counts)
    elif hasattr(counts, "tile_counts"):  # Rules
        counts = counts.tile_counts
    if isinstance(counts, Mapping):
        out = [0] * len(KINDS)
        for key, value in counts.items():
            out[index_of("kind", key, KINDS)] = int(value)
    else:
        out = [int(c) for c in counts]
        if len(out) != len(KINDS):
            raise ValueError(f"counts needs {len(KINDS)} entries ({', '.join(KINDS)}), got {len(out)}")
    if any(c < 0 for c in out):
        raise ValueError(f"counts={out} is not allowed: counts must be >= 0")
    return out


# ---------------------------------------------------------------------- reveals (H-1)


def reveal_distribution(counts) -> dict[str, Fraction]:
    """P(a reveal shows each kind), given the tiles still face down.

    Every face-down tile is equally likely to be any of the remaining ones
    (the shuffle is uniform and face-down tiles never move), so
    ``P(kind k) = c_k / N``.

    Parameters
    ----------
    counts : sequence of 7 int, mapping, Rules, View or State
        The face-down tiles per kind (see :func:`face_down_counts`); a
        ``Rules`` gives the first reveal of a game.

    Returns
    -------
    dict[str, Fraction]
        Keyed by kind name in ``KINDS`` order; sums to 1.

    Raises
    ------
    ValueError
        If no tile is face down.

    Examples
    --------
    >>> dist = reveal_distribution([2, 6, 2, 8, 8, 7, 15])
    >>> dist["bear"], dist["tree"], sum(dist.values())
    (Fraction(1, 24), Fraction(5, 16), Fraction(1, 1))
    >>> reveal_distribution({"fox": 1, "duck": 3})["duck"]
    Fraction(3, 4)
    """
    c = face_down_counts(counts)
    total = sum(c)
    if total == 0:
        raise ValueError("no tile is face down: there is nothing to reveal")
    return {kind: Fraction(c[k], total) for k, kind in enumerate(KINDS)}


def hunter_direction(counts=None, direction=None):
    """P(a revealed hunter faces each direction), conditional or joint.

    Gun directions are independent and uniform (H-1.2) and stay hidden until
    the reveal, so a revealed hunter faces N, E, S and W with probability 1/4
    each.  With ``counts``, the joint probability that a reveal shows a
    hunter facing ``d``: ``P(hunter) / 4``.

    Parameters
    ----------
    counts : sequence of 7 int, mapping, Rules, View or State, optional
        The face-down tiles per kind (see :func:`face_down_counts`).  Omitted:
        the conditional law given that the revealed tile is a hunter.
    direction : {"N", "E", "S", "W"} or int, optional
        Return the probability of this direction only.

    Returns
    -------
    dict[str, Fraction] or Fraction
        Keyed by ``N, E, S, W``; the conditional law sums to 1, the joint
        one to ``P(hunter)``.

    Examples
    --------
    >>> hunter_direction()
    {'N': Fraction(1, 4), 'E': Fraction(1, 4), 'S': Fraction(1, 4), 'W': Fraction(1, 4)}
    >>> hunter_direction([2, 6, 2, 8, 8, 7, 15], "W")
    Fraction(1, 24)
    """
    p = Fraction(1, 4)
    if counts is not None:
        p *= reveal_distribution(counts)["hunter"]
    dist = {d: p for d in DIRECTIONS}
    if direction is not None:
        return dist[DIRECTIONS[index_of("direction", direction, DIRECTIONS)]]
    return dist


def reveal_outcomes(counts) -> dict[tuple, Fraction]:
    """The joint law of (kind, gun direction) that a reveal shows.

    Parameters
    ----------
    counts : sequence of 7 int, mapping, Rules, View or State
        The face-down tiles per kind (see :func:`face_down_counts`).

    Returns
    -------
    dict[tuple, Fraction]
        Keyed ``(kind, direction)``: ``direction`` is ``N, E, S, W`` for a
        hunter and ``None`` for the other kinds; kinds with no face-down tile
        are left out.  Sums to 1.

    Examples
    --------
    >>> out = reveal_outcomes({"hunter": 1, "tree": 1})
    >>> out[("hunter", "S")], out[("tree", None)], len(out)
    (Fraction(1, 8), Fraction(1, 2), 5)
    """
    out = {}
    for kind, p in reveal_distribution(counts).items():
        if p == 0:
            continue
        if kind == "hunter":
            for d in DIRECTIONS:
                out[(kind, d)] = p / 4
        else:
            out[(kind, None)] = p
    return out


def points_face_down(rules, counts=None) -> dict[str, int]:
    """Points still face down per kind: ``c_k * points[k]`` (H-6.1 values).

    Parameters
    ----------
    rules : Rules
        Halali rules (for ``points``).
    counts : sequence of 7 int, mapping, View or State, optional
        The face-down tiles per kind; default: the start (``tile_counts``).

    Examples
    --------
    >>> from toolkit.games.halali.rules import Rules
    >>> points_face_down(Rules())["bear"], sum(points_face_down(Rules()).values())
    (20, 168)
    """
    c = face_down_counts(rules if counts is None else counts)
    return {kind: c[k] * rules.points[kind] for k, kind in enumerate(KINDS)}


def expected_reveal_points(rules, counts=None) -> Fraction:
    """Expected points (H-6.1 values) of the tile a reveal shows.

    ``sum_k c_k * points[k] / N``: the mean value of a face-down tile.

    Examples
    --------
    >>> from toolkit.games.halali.rules import Rules
    >>> expected_reveal_points(Rules()), expected_reveal_points(Rules(), {"bear": 1, "duck": 1})
    (Fraction(7, 2), Fraction(6, 1))
    """
    dist = reveal_distribution(rules if counts is None else counts)
    return sum((p * rules.points[kind] for kind, p in dist.items()), Fraction(0))


# ---------------------------------------------------------------------- exposure (H-3)


class RevealOutcome(NamedTuple):
    """One outcome of revealing a square (see :func:`reveal_outcomes_at`)."""

    kind: str
    direction: str | None  # N, E, S, W for a hunter, else None
    probability: Fraction
    capturable: frozenset  # own squares of the seat capturable by the opponent after the reveal


def _public(position, seat):
    """``(rules, grid, colour, counts)`` of a View, or of ``observe(state, seat)``."""
    if hasattr(position, "face_down_counts") and not callable(position.face_down_counts):
        view = position
    else:
        from toolkit.games.halali import reference as ref

        view = ref.observe(position, position.to_move if seat is None else seat)
    return view, (view.seat if seat is None else seat)


def capturable_squares(rules, grid, colour: int) -> frozenset:
    """Squares of face-up ``colour`` tiles that the other colour could capture now.

    Attackers are the face-up tiles the other colour may move (its own
    colour and the neutral ducks and pheasants; trees never move).  The
    geometry is H-3.2/H-3.4: a straight orthogonal line of at most the
    attacker's range over empty squares, the victim face up and in the
    attacker's ``capture_matrix`` entry, and a hunter only along its gun if
    ``hunter_direction_restricted_capture``.  The lock and no-return rules are
    ignored (module docstring).

    Parameters
    ----------
    grid : list of 49
        A View's grid: ``None`` (empty), ``"?"`` (face down) or
        ``(kind, id, dir)`` for a face-up tile (``kind`` an index into KINDS).
    colour : int
        The colour whose tiles may be captured (0 Blue, 1 Brown).

    Returns
    -------
    frozenset of int

    Examples
    --------
    >>> from toolkit.games.halali.rules import Rules, HUNTER, FOX
    >>> grid = [None] * 49
    >>> grid[0], grid[21] = (HUNTER, 0, 0), (FOX, 1, -1)  # a hunter on a1 facing N, a fox on a4
    >>> sorted(capturable_squares(Rules(), grid, 0))
    [21]
    >>> grid[7] = "?"  # a face-down tile on a2 blocks the line
    >>> sorted(capturable_squares(Rules(), grid, 0))
    []
    """
    restricted = rules.hunter_direction_restricted_capture
    out = set()
    for a, tile in enumerate(grid):
        if tile is None or tile == FACE_DOWN:
            continue
        kind, _, gun = tile
        owner = COLOUR_OF_KIND[kind]
        if owner == colour or owner == -2:  # the victim's colour, or a tree: not the attacker's to move
            continue
        prey = rules.capture_matrix[KINDS[kind]]
        reach = rules.ranges[KINDS[kind]]
        if not prey or reach == 0:
            continue
        for d in range(4):
            if kind == HUNTER and restricted and d != gun:
                continue
            for n in range(1, reach + 1):
                t = _step(a, d, n)
                if t < 0:
                    break
                victim = grid[t]
                if victim is None:
                    continue
                if victim != FACE_DOWN and COLOUR_OF_KIND[victim[0]] == colour and KINDS[victim[0]] in prey:
                    out.add(t)
                break  # every tile blocks the line
    return frozenset(out)


def reveal_outcomes_at(position, square: int, seat: int | None = None, *, counts=None) -> list[RevealOutcome]:
    """Every outcome of revealing ``square``, with its probability and the threats after it.

    Parameters
    ----------
    position : View or State
        A reference ``View`` (``observe(state, seat)``) or ``State`` (then its
        public view is taken; the hidden tile is never looked at).
    square : int
        A face-down square, 0..48 (``s = 7 y + x``).
    seat : int, optional
        The seat that reveals (whose own tiles may be exposed).  Default: the
        view's seat, or the state's player to move.
    counts : sequence of 7 int or mapping, optional
        The face-down tiles per kind to use instead of the view's
        ``face_down_counts`` (for hypotheses, or a position built by hand:
        the reference derives the view's counts from ``tile_counts`` minus the
        face-up, captured and rescued tiles, so tiles left off a hand-built
        board count as face down).

    Returns
    -------
    list of RevealOutcome
        ``(kind, direction, probability, capturable)`` for each kind still face
        down (hunters once per direction), in ``KINDS`` then ``N, E, S, W``
        order; ``capturable`` is the set of ``seat``'s own squares the
        opponent could capture after that reveal.  Probabilities sum to 1.

    Examples
    --------
    >>> from toolkit.games.halali import reference as ref
    >>> from toolkit.games.halali.rules import Rules, FOX
    >>> st = ref.State(rules=Rules(), grid=[None] * 49, colour=[0, 1], to_move=0)
    >>> st.grid[0] = ref.Tile(FOX, 0, True)  # a Blue fox on a1
    >>> st.grid[21] = ref.Tile(HUNTER, 1)  # a face-down tile on a4 (a hunter, but that is hidden)
    >>> st.grid[48] = ref.Tile(FOX, 2)  # and one on g7
    >>> st.face_down = 2
    >>> for o in reveal_outcomes_at(st, 21, counts={"fox": 1, "hunter": 1}):
    ...     print(o.kind, o.direction, o.probability, sorted(o.capturable))
    fox None 1/2 []
    hunter N 1/8 []
    hunter E 1/8 []
    hunter S 1/8 [0]
    hunter W 1/8 []
    """
    view, seat = _public(position, seat)
    if not 0 <= square < 49 or view.grid[square] != FACE_DOWN:
        raise ValueError(f"square={square} is not allowed: it must hold a face-down tile")
    rules, colour = view.rules, view.colour[seat]
    grid = list(view.grid)
    out = []
    for (kind, direction), p in reveal_outcomes(view if counts is None else counts).items():
        k = KINDS.index(kind)
        grid[square] = (k, -1, -1 if direction is None else DIRECTIONS.index(direction))
        out.append(RevealOutcome(kind, direction, p, capturable_squares(rules, grid, colour)))
    return out


def exposure_probability(position, square: int, seat: int | None = None, *, new_only: bool = True,
                         counts=None) -> Fraction:
    """P(revealing ``square`` exposes one of ``seat``'s own tiles to capture next move).

    See the module docstring for the exact definition: averaged exactly over
    the kind shown (``c_k / N``) and a hunter's gun direction (1/4 each);
    "exposed" means some own tile of ``seat`` is capturable by a face-up tile
    the opponent may move after the reveal and was not before it
    (``new_only=True``), or simply is capturable after it (``new_only=False``).
    The lock, no-return, forced-reveal and forced-capture rules are ignored.

    Parameters
    ----------
    position : View or State
        Public information: a reference ``View``; a ``State`` is first turned
        into ``observe(state, seat)``.
    square : int
        A face-down square, 0..48.
    seat : int, optional
        The revealing seat.  Default: the view's seat, or the state's player to
        move.
    new_only : bool, optional
        Count only newly capturable own tiles (default) or any.
    counts : sequence of 7 int or mapping, optional
        Face-down tiles per kind to use instead of the view's (see
        :func:`reveal_outcomes_at`).

    Examples
    --------
    A Blue fox on c3 and a face-down tile on c5 with c4 empty.  Blue reveals
    c5: only a hunter facing S threatens the fox.  With one hunter and three
    trees face down that is ``1/4 * 1/4``; with the view's own counts (a
    hand-built board: every tile not on it counts as face down, so 8 hunters
    of 47 tiles) it is ``8/47 * 1/4``.

    >>> from toolkit.games.halali import reference as ref
    >>> from toolkit.games.halali.rules import Rules, FOX, TREE
    >>> st = ref.State(rules=Rules(), grid=[None] * 49, colour=[0, 1], to_move=0)
    >>> st.grid[16] = ref.Tile(FOX, 0, True)
    >>> st.grid[30] = ref.Tile(HUNTER, 1, False, 2)
    >>> for i, s in enumerate((40, 41, 42)):
    ...     st.grid[s] = ref.Tile(TREE, 2 + i)
    >>> st.face_down = 4
    >>> exposure_probability(st, 30, counts={"hunter": 1, "tree": 3})
    Fraction(1, 16)
    >>> exposure_probability(st, 30)
    Fraction(2, 47)
    >>> exposure_probability(ref.observe(st, 0), 30, 0) == exposure_probability(st, 30, 0)
    True
    """
    view, seat = _public(position, seat)
    outcomes = reveal_outcomes_at(view, square, seat, counts=counts)
    before = capturable_squares(view.rules, view.grid, view.colour[seat])
    total = Fraction(0)
    for o in outcomes:
        if (o.capturable - before) if new_only else o.capturable:
            total += o.probability
    return total


# ---------------------------------------------------------------------- the table


def summary(rules) -> pd.DataFrame:
    """The start-of-game odds (``toolkit odds halali``, the report), in the table of
    :func:`toolkit.core.exact.odds_table`.

    Rows: the first reveal's kind, its owner, a hunter's gun direction (given a hunter,
    and jointly with the first reveal), the points face down per kind and the
    expected points of one reveal.  Exposure is 0 at the start (no tile is
    face up), so it has no row.

    Examples
    --------
    >>> from toolkit.games.halali.rules import Rules
    >>> summary(Rules()).loc[0, ["quantity", "exact"]].tolist()
    ['P(first reveal is a bear)', '1/24']
    """
    dist = reveal_distribution(rules)
    rows = [(FIRST_REVEAL.format(what=f"a {kind}"), p) for kind, p in dist.items()]
    for label, owner in OWNER_GROUPS:
        rows.append((FIRST_REVEAL.format(what=label),
                     sum((dist[kind] for k, kind in enumerate(KINDS) if COLOUR_OF_KIND[k] == owner), Fraction(0))))
    rows += [(HUNTER_FACES.format(d=d), p) for d, p in hunter_direction().items()]
    rows += [(FIRST_REVEAL_FACING.format(d=d), p) for d, p in hunter_direction(rules).items()]
    points = points_face_down(rules)
    rows += [(POINTS_FACE_DOWN.format(kinds=kind), Fraction(v)) for kind, v in points.items()]
    rows.append((POINTS_FACE_DOWN.format(kinds="all kinds"), Fraction(sum(points.values()))))
    rows.append((FIRST_REVEAL_POINTS, expected_reveal_points(rules)))
    return odds_table(rows)


# ---------------------------------------------------------------------- the run's deals, replayed


def deals(frame, rules, policies, limit: int = DEALS_REPLAYED):
    """The set-up of game 1 of each of the run's first ``limit`` games, replayed, and its first action.

    Yields ``(state, action)``: the reference's state after ``setup`` (H-1) on
    the game's chance stream (``toolkit.core.deals``) and the action its first
    player's policy chooses there, from that seat's decision stream as in
    ``play_game`` (:func:`first_actions`).
    """
    from toolkit.games.halali.reference import setup

    seed, games = replayed_games(frame, rules, policies, limit)
    states = [setup(rules, Stream(seed, int(g), CHANCE)) for g in games]
    to_move = np.array([st.to_move for st in states], np.int64)
    yield from zip(states, first_actions(seed, games, to_move, rules, policies))


def first_actions(seed: int, games, to_move, rules, policies) -> list:
    """The first action of each of ``games`` (game 1 of a match) whose first player is ``to_move``, chosen
    by that seat's policy from its decision stream as in ``play_game``.

    At the start every tile is face down, so the only legal actions are the 48
    reveals, and the view and options are the same in every game but for the
    seat: they are built once per seat, from one reference set-up.  A policy
    that draws nothing from its stream for that choice (``greedy``,
    ``lookahead``) chooses the same in every game, so it is asked no more.
    """
    from toolkit.games.halali import reference as ref
    from toolkit.games.halali.policies import make_policy

    out = [None] * len(games)
    for seat in (0, 1):
        mine = np.flatnonzero(to_move == seat)
        if not len(mine):
            continue
        st = ref.setup(rules, Stream(seed, int(games[mine[0]]), CHANCE))
        start = (ref.observe(st, seat), ref.legal_actions(st, seat))
        for k, row in enumerate(mine):
            stream = Stream(seed, int(games[row]), 1 + seat)
            unused = stream.state
            out[row] = make_policy(policies[seat], rules, stream).choose(*start)
            if stream.state == unused:
                for later in mine[k + 1:]:
                    out[later] = out[row]
                break
    return out


def first_reveals(frame, rules, policies, limit: int = DEALS_REPLAYED) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The first reveal of each of :func:`deals`: the tile's kind, its gun (-1 but for a hunter) and the
    tiles of each kind laid (``laid[game, kind]``), replayed for every game at once.

    The set-ups are drawn with :class:`toolkit.core.deals.Streams` in
    ``reference.setup``'s order (the first player, the shuffle, the guns),
    the first actions are :func:`first_actions`.

    Examples
    --------
    >>> from toolkit.core.deals import games_frame
    >>> from toolkit.games.halali.rules import Rules
    >>> frame = games_frame(300, seed=4)
    >>> rules, policies = Rules(first_player="random"), ("random", "greedy")
    >>> kind, gun, laid = first_reveals(frame, rules, policies)
    >>> replayed = [st.grid[action[1]] for st, action in deals(frame, rules, policies)]
    >>> [(tile.kind, tile.dir) for tile in replayed] == list(zip(kind.tolist(), gun.tolist()))
    True
    """
    from toolkit.games.halali.reference import CENTRE
    from toolkit.games.halali.rules import BLUE, BROWN

    seed, games = replayed_games(frame, rules, policies, limit)
    chance = Streams(seed, games)
    first_colour = np.full(len(games), BLUE if rules.first_player == "blue" else BROWN)
    if rules.first_player == "random":
        first_colour = np.where(chance.below(2) == 0, BLUE, BROWN)
    to_move = np.where(first_colour == BLUE, 0, 1)  # game 1's colours are Blue, Brown (reference.setup)
    kinds = np.array([k for k in range(len(KINDS)) for _ in range(rules.tile_counts[KINDS[k]])], np.int64)
    deck = chance.shuffle(np.tile(np.arange(len(kinds)), (len(games), 1)))
    kind = np.full((len(games), 49), -1, np.int64)  # kind[game, square]; d4 stays empty
    kind[:, [s for s in range(49) if s != CENTRE]] = kinds[deck]
    hunters = rules.tile_counts[KINDS[HUNTER]]
    guns = np.array([chance.below(4) for _ in range(hunters)], np.int64).reshape(hunters, len(games))
    square = np.array([action[1] for action in first_actions(seed, games, to_move, rules, policies)], np.int64)
    tile_kind = kind[np.arange(len(games)), square]  # the first action is a reveal: no tile is face up yet
    tile_gun = np.full(len(games), -1, np.int64)
    revealed = np.flatnonzero(tile_kind == HUNTER)
    # the guns are drawn hunter by hunter in ascending square order: a hunter's is draw number (hunters before it)
    before = (kind[revealed] == HUNTER) & (np.arange(49) < square[revealed, None])
    tile_gun[revealed] = guns[before.sum(axis=1), revealed]
    laid = np.broadcast_to(np.bincount(kinds, minlength=len(KINDS)), (len(games), len(KINDS)))  # every tile is laid
    return tile_kind, tile_gun, laid


def samples(frame, rules, policies, limit: int = DEALS_REPLAYED) -> dict[str, np.ndarray]:
    """One value per replayed game for each row of :func:`summary`: an indicator for a probability,
    the points for a mean.

    "The first reveal" is the tile the first action of the match's first game
    turns over (:func:`deals`: the policies' own choice, exact for any policy
    of ``policies``; :func:`first_reveals` replays them).  "A revealed hunter"
    is that tile when it is a hunter, so that row's sample is the games whose
    first reveal is a hunter.  The points face down at the start are counted on
    the 48 tiles the set-up laid.
    """
    points = [rules.points[kind] for kind in KINDS]
    kind, gun, laid = first_reveals(frame, rules, policies, limit)
    owner = np.array(COLOUR_OF_KIND)[kind]
    out = {FIRST_REVEAL.format(what=f"a {name}"): kind == k for k, name in enumerate(KINDS)}
    out |= {FIRST_REVEAL.format(what=label): owner == o for label, o in OWNER_GROUPS}
    out |= {HUNTER_FACES.format(d=d): gun[kind == HUNTER] == i for i, d in enumerate(DIRECTIONS)}
    out |= {FIRST_REVEAL_FACING.format(d=d): (kind == HUNTER) & (gun == i) for i, d in enumerate(DIRECTIONS)}
    out |= {POINTS_FACE_DOWN.format(kinds=name): laid[:, k] * points[k] for k, name in enumerate(KINDS)}
    out[POINTS_FACE_DOWN.format(kinds="all kinds")] = laid @ np.array(points, np.int64)
    out[FIRST_REVEAL_POINTS] = np.array(points, np.int64)[kind]
    return out


def simulated(frame, rules, policies) -> dict[str, float]:
    """Every row of :func:`summary`, measured on the run's own games (the dashboard shows them side by side).

    The set-ups of the frame's first :data:`DEALS_REPLAYED` games (8,000, not
    ``SAMPLE_DEALS``, since the reference set-up was slower than a deal of
    cards) are replayed on their chance streams, with the first player's first
    choice replayed from its decision stream (:func:`deals`, all at once in
    :func:`first_reveals`), so they are the run's own first reveals; each row
    is the share (probability rows) or the mean of its quantity over them
    (:func:`samples`).  The rows about a revealed hunter are left out when no
    first reveal is a hunter.
    """
    return sample_means(samples(frame, rules, policies), summary(rules)["quantity"])

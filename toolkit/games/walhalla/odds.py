"""Exact Walhalla odds (spec ``docs/rules/walhalla.md`` §2, §3, W-2, W-8, W-9, §5) in exact fractions.

Every probability here is a :class:`fractions.Fraction` computed by exact
enumeration or :func:`math.comb` arithmetic, never by sampling; every score is
an exact ``int``.  The results hold for any valid
:class:`~toolkit.games.walhalla.rules.Rules` (only ``peninsula_tiles``,
``tie_rounding``, ``walhalla_final_vp`` and
``peninsula_eligibility_min_vikings`` matter), and the tile set is read from
:mod:`~toolkit.games.walhalla.data`, so a changed tile file changes the odds.

Derivations
-----------
**Majorities (W-8.3, W-9.3).**  :func:`scoring_table` takes the VP from the
reference's :func:`~toolkit.games.walhalla.reference.majority_gains` (the rule
is not written a second time here) and describes them: among the eligible
players, ``T1`` are those of maximal strength.  If ``|T1| >= 2`` each gets
``round((first + second) / |T1|)`` and nobody is second; if ``|T1| = 1`` that
player gets ``first``, and the eligible players of maximal strength among the
others (``T2``) get ``round(second / |T2|)`` each.  ``round`` is the ceiling
(``tie_rounding = up``) or the floor (``down``).  The table shows the exact
share before rounding (``share``, a Fraction) beside the rounded ``vp``.  A
peninsula's first place is its outer tip (6-8) and its second place its inner
tip (3-5) (:func:`peninsula_scoring_table`); Walhalla's are
``walhalla_final_vp`` (:func:`walhalla_majority_table`).

**Lengths (W-2.1).**  A fixed ``[a, b, c]`` has probability 1.  Under
``draw_18`` each of {5,5,8}, {5,6,7}, {6,6,6} has probability 1/3 and its
values are permuted uniformly over P0..P2 (the reference's Fisher-Yates pass),
so an ordering of {5,5,8} has 1/9, one of {5,6,7} 1/18 and (6,6,6) 1/3; a
given peninsula has 5, 6, 7, 8 tiles with 1/3, 4/9, 1/9, 1/9
(:func:`lengths_distribution`, :func:`peninsula_length_distribution`).

**Tiles (W-2.2).**  The 18 tiles are shuffled uniformly and P0 takes the first
``a``, P1 the next ``b``, P2 the next ``c``.  By exchangeability, given the
lengths, the tiles of one peninsula with ``n`` tiles are a uniformly random
``n``-subset of the 18, and the lengths are drawn before (and independently
of) the shuffle.  The tiles fall into classes of identical tiles (V-F, V-C and
F-C three times each; the nine wheat tiles, each one of a kind by its pair and
value), so the count vector ``x`` of the classes on the peninsula is
multivariate hypergeometric, ``P(x) = prod_c comb(m_c, x_c) / comb(18, n)``
over ``sum x_c = n``; the peninsula's composition (villages, forests, cult
places, wheat fields, total wheat value) is a function of ``x``
(:func:`composition_distribution`).  A tile's orientation does not change the
composition; it decides which field is nearer the coast.  Each of the 36
fields is equally likely at field ``j`` of a peninsula long enough to have it
(the tile at position ``ceil(j / 2)`` is uniform and its orientation is a fair
coin), which :func:`field_distribution` computes by enumerating tiles and
orientations.  Every field type lies on exactly 9 of the 18 tiles (one per
tile), so each field count is hypergeometric ``(18, 9, n)``: mean ``n / 2``
and ``P(no wheat) = comb(9, n) / comb(18, n)``, 1/221 for ``n = 6``.  The
number of wheat tiles on P0, P1, P2 jointly is
``comb(a, w0) comb(b, w1) comb(c, w2) comb(r, 9 - w) / comb(18, 9)`` with
``r = 18 - a - b - c`` tiles set aside (:func:`wheat_tiles_distribution`).

**Tips (W-2.3).**  Inner tips {3, 4, 5} and outer tips {6, 7, 8} get
independent uniform permutations: each of the 36 layouts has 1/36, and a given
peninsula's (inner, outer) pair is uniform over the 9 pairs
(:func:`tips_distribution`, :func:`tip_total_distribution`).

**Fjords (§3.4, W-4.4, §5).**  With ``s`` dragons moored in fjord ``f``, the
fjord is legal iff ``3 s + 1 <= reach_f = 2 * max(tiles of the peninsulas it
borders)``, so it holds ``cap_f = ceil(reach_f / 3)`` dragons
(:func:`fjord_capacities`).  The policy ``random`` chooses uniformly among the
legal fjords at every DP-3, for every dragon, empty ones included, and nothing
else moves a dragon, so the moored counts ``(s_0, .., s_3)`` are a Markov
chain started at 0 at every raid: from a state, each legal fjord gets the next
dragon with probability ``1 / (number of legal fjords)`` (with no legal fjord
the dragon is set aside and the state stays, W-4.4; impossible for lengths
5..8).  :func:`mooring_distribution` is the exact law after ``k`` dragons and
:func:`p_fjord_open` is ``P(s_f < cap_f after k dragons)``, i.e. P(fjord f is
among the DP-3 options of the ``(k + 1)``-th dragon; for ``k = 12``, after the
last dragon of a raid, whether ``f`` would still be legal).  The quantity is
defined for the chain in which the dragons keep sailing: in a game the raid
may end before the ``(k + 1)``-th turn when no player has Midgard left
(W-7.1); the measured counterpart is the fraction of games *in which that turn
happens* that offer ``f``.  The two agree up to that early end, which the
tests count (none in 8,000 raids 1 played with ``random``).  Under ``draw_18`` the probabilities are averaged over
the length layouts (the lengths are fixed for the whole game).  The number of
players plays no part.

:func:`summary` is the game's ``odds`` table (``toolkit odds walhalla``, the
report).

Examples
--------
>>> from toolkit.games.walhalla.rules import Rules
>>> p_no_wheat(Rules(), 0)
Fraction(1, 221)
>>> peninsula_length_distribution(Rules.preset("variable"), 1)
{5: Fraction(1, 3), 6: Fraction(4, 9), 7: Fraction(1, 9), 8: Fraction(1, 9)}
>>> p_fjord_open((6, 6, 6), 0, 5)
Fraction(63, 64)
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from fractions import Fraction
from math import comb
from typing import NamedTuple

import numpy as np
import pandas as pd

from toolkit.core.deals import Streams, replayed_games, sample_means
from toolkit.core.exact import index_of, mean as _mean, odds_table
from toolkit.games.walhalla.data import FIELD_TYPES, VILLAGE, WHEAT, load_tiles
from toolkit.games.walhalla.reference import majority_gains
from toolkit.games.walhalla.rules import DRAW_18, DRAW_18_COMBINATIONS

N_PENINSULAS = 3
N_FJORDS = 4
PLACES = ("first", "second", "none", "ineligible")
FIELD_KEYS = ("villages", "forests", "cults", "wheat")  # Composition fields, in FIELD_TYPES order
K_MAX = 12  # dragons per raid (§2.2)
# Set-ups replayed for the simulated odds, fewer than toolkit.core.deals.SAMPLE_DEALS: a reference
# set-up (tiles, tips, action deck, dragons) took about 0.09 ms, so 10,000 took 0.9-1.0 s (measured)
# and 5,000 about 0.5 s; set_ups replays the 5,000 at once in about 20 ms (kept at 5,000: the numbers
# shown stay the same)
DEALS_REPLAYED = 5_000

# The rows of summary; simulated builds its keys from the same templates
LENGTHS = "P(peninsula lengths = {lengths})"
PENINSULA_TILES = "P(a given peninsula has {n} tiles)"
GIVEN_PENINSULA, PENINSULA = "a given peninsula", "P{k}"  # the {where} of the per-peninsula rows
VILLAGES = "expected villages on {where}"
NO_WHEAT = "P(no wheat field on {where})"
WHEAT_VALUE = "expected total wheat value on {where}"
NO_WHEAT_ON_6 = "P(no wheat field on a 6-tile peninsula)"
SOME_NO_WHEAT = "P(some peninsula has no wheat field)"
TIPS_TOTAL = "P(a given peninsula's tips total {t})"


def _lengths_label(lengths) -> str:
    return LENGTHS.format(lengths=",".join(map(str, lengths)))


class Composition(NamedTuple):
    """What a peninsula's tiles hold: fields of each type and the total printed wheat value."""

    villages: int
    forests: int
    cults: int
    wheat: int
    wheat_value: int


# ---------------------------------------------------------------------- helpers


def _up(tie_rounding) -> bool:
    if tie_rounding in ("up", True):
        return True
    if tie_rounding in ("down", False):
        return False
    raise ValueError(f"tie_rounding={tie_rounding!r} is not allowed: 'up' or 'down'")


def _peninsula(k) -> int:
    if not 0 <= int(k) < N_PENINSULAS:
        raise ValueError(f"peninsula={k} is not allowed: 0, 1 or 2 (P0..P2)")
    return int(k)


def _fjord(f) -> int:
    if not 0 <= int(f) < N_FJORDS:
        raise ValueError(f"fjord={f} is not allowed: 0..3 (F0..F3)")
    return int(f)


def _lengths(lengths) -> tuple:
    """A validated ``(a, b, c)`` tuple of tiles per peninsula (any non-negative ints, sum <= 18)."""
    out = tuple(int(x) for x in lengths)
    n = load_tiles().n
    if len(out) != N_PENINSULAS or min(out) < 0 or sum(out) > n:
        raise ValueError(f"lengths={list(lengths)} is not allowed: 3 tile counts >= 0 summing to at most {n}")
    return out


def _layouts(rules_or_lengths) -> dict:
    """``{(a, b, c): P}`` from a Rules or a fixed lengths sequence."""
    if hasattr(rules_or_lengths, "peninsula_tiles"):
        return lengths_distribution(rules_or_lengths)
    return {_lengths(rules_or_lengths): Fraction(1)}


# ---------------------------------------------------------------------- majorities (W-8.3, W-9.3)


def scoring_table(strength, eligible, first: int, second: int, tie_rounding="up") -> pd.DataFrame:
    """The VP of one majority (W-8.3 / W-9.3), player by player, with place and tie size.

    Parameters
    ----------
    strength : sequence of int
        Strength per player (any length, any values).
    eligible : sequence of bool
        Whether each player may score (same length).
    first, second : int
        The VP of the first and second place (a peninsula's outer and inner
        tip; Walhalla's ``walhalla_final_vp``).
    tie_rounding : {"up", "down"}
        Shared VP are rounded up (ceiling) or down (floor).

    Returns
    -------
    pandas.DataFrame
        One row per player: ``player``, ``strength``, ``eligible``, ``rank``
        (dense rank among the eligible players, 1 = strongest; 0 = not
        eligible), ``place`` (``first``, ``second``, ``none`` or
        ``ineligible``), ``tie`` (players sharing that place; 0 without a
        place), ``pot`` (the VP the place splits: ``first + second`` for a
        tied first, ``first`` for a sole first, ``second`` for second),
        ``share`` (``pot / tie`` as an exact Fraction, 0 without a place) and
        ``vp`` (the int VP of the reference's ``majority_gains``).

    Examples
    --------
    A sole first, three tied for second (tips 8 and 5): ``ceil(5 / 3) = 2``.

    >>> t = scoring_table([4, 2, 2, 2], [True] * 4, 8, 5)
    >>> t[["place", "tie", "vp"]].values.tolist()
    [['first', 1, 8], ['second', 3, 2], ['second', 3, 2], ['second', 3, 2]]
    >>> t.share[1]
    Fraction(5, 3)

    Two tied for first split 8 + 5, nobody is second; an ineligible player scores nothing.

    >>> scoring_table([3, 3, 9, 1], [True, True, False, True], 8, 5, "down")["vp"].tolist()
    [6, 6, 0, 0]
    """
    s = [int(v) for v in strength]
    e = [bool(v) for v in eligible]
    if len(s) != len(e):
        raise ValueError(f"eligible has {len(e)} entries, strength {len(s)}: one per player")
    up = _up(tie_rounding)
    gains = majority_gains(s, e, int(first), int(second), up)
    levels = sorted({s[p] for p in range(len(s)) if e[p]}, reverse=True)
    count = Counter(s[p] for p in range(len(s)) if e[p])
    place, tie, pot = ["ineligible" if not e[p] else "none" for p in range(len(s))], [0] * len(s), [0] * len(s)
    if levels:
        top = levels[0]
        if count[top] >= 2:
            for p in range(len(s)):
                if e[p] and s[p] == top:
                    place[p], tie[p], pot[p] = "first", count[top], first + second
        else:
            for p in range(len(s)):
                if e[p] and s[p] == top:
                    place[p], tie[p], pot[p] = "first", 1, first
            if len(levels) >= 2:
                for p in range(len(s)):
                    if e[p] and s[p] == levels[1]:
                        place[p], tie[p], pot[p] = "second", count[levels[1]], second
    rows = [{"player": p, "strength": s[p], "eligible": e[p],
             "rank": levels.index(s[p]) + 1 if e[p] else 0, "place": place[p], "tie": tie[p],
             "pot": int(pot[p]), "share": Fraction(pot[p], tie[p]) if tie[p] else Fraction(0),
             "vp": int(gains[p])} for p in range(len(s))]
    return pd.DataFrame(rows, columns=["player", "strength", "eligible", "rank", "place", "tie", "pot", "share",
                                       "vp"])


def peninsula_strengths(rules, vikings, villages, horns=None) -> list:
    """W-8.1 strengths ``vikings + village_bonus * villages + horns``, per peninsula and player.

    Parameters
    ----------
    rules : Rules
        Walhalla rules (``village_bonus``).
    vikings, villages : sequence of 3 sequences of int
        ``vikings[k][p]``: p's Vikings on peninsula k; ``villages[k][p]``: the
        villages of k that p occupies.
    horns : sequence of 3 sequences of int, optional
        Horn strength p assigned to k (``horn_strength`` per Horn); default 0.

    Examples
    --------
    >>> from toolkit.games.walhalla.rules import Rules
    >>> peninsula_strengths(Rules(), [[2, 1], [0, 0], [1, 1]], [[1, 0], [0, 0], [0, 1]], [[0, 2], [0, 0], [0, 0]])
    [[3, 3], [0, 0], [1, 2]]
    """
    horns = horns if horns is not None else [[0] * len(row) for row in vikings]
    return [[int(v) + rules.village_bonus * int(w) + int(h) for v, w, h in zip(vk, wk, hk)]
            for vk, wk, hk in zip(vikings, villages, horns)]


def peninsula_scoring_table(rules, strengths, vikings, inner_tips, outer_tips) -> pd.DataFrame:
    """The W-8 majorities of the three peninsulas (wheat is not included), one block per peninsula.

    Parameters
    ----------
    rules : Rules
        Walhalla rules (``peninsula_eligibility_min_vikings``, ``tie_rounding``).
    strengths : sequence of 3 sequences of int
        ``strengths[k][p]`` (W-8.1, see :func:`peninsula_strengths`).
    vikings : sequence of 3 sequences of int
        ``vikings[k][p]``: eligibility needs ``>= peninsula_eligibility_min_vikings``.
    inner_tips, outer_tips : sequence of 3 int
        The tips of P0..P2 (second and first place).

    Returns
    -------
    pandas.DataFrame
        ``peninsula``, ``outer_tip``, ``inner_tip`` and the columns of
        :func:`scoring_table`, peninsulas in order, then players.

    Examples
    --------
    >>> from toolkit.games.walhalla.rules import Rules
    >>> t = peninsula_scoring_table(Rules(), [[2, 2, 0], [0, 0, 1], [5, 3, 3]], [[1, 2, 0], [0, 0, 1], [3, 2, 1]],
    ...                             [3, 4, 5], [6, 7, 8])
    >>> t.groupby("peninsula")["vp"].apply(list).tolist()
    [[5, 5, 0], [0, 0, 7], [8, 3, 3]]
    """
    if not (len(strengths) == len(vikings) == len(inner_tips) == len(outer_tips) == N_PENINSULAS):
        raise ValueError("strengths, vikings, inner_tips and outer_tips need one entry per peninsula (3)")
    frames = []
    for k in range(N_PENINSULAS):
        eligible = [int(v) >= rules.peninsula_eligibility_min_vikings for v in vikings[k]]
        t = scoring_table(strengths[k], eligible, int(outer_tips[k]), int(inner_tips[k]), rules.tie_rounding)
        t.insert(0, "inner_tip", int(inner_tips[k]))
        t.insert(0, "outer_tip", int(outer_tips[k]))
        t.insert(0, "peninsula", k)
        frames.append(t)
    return pd.concat(frames, ignore_index=True)


def walhalla_majority_table(rules, walhalla) -> pd.DataFrame:
    """The W-9.3 Walhalla majority: players with >= 1 Viking in Walhalla score ``walhalla_final_vp``.

    Examples
    --------
    >>> from toolkit.games.walhalla.rules import Rules
    >>> walhalla_majority_table(Rules(), [2, 2, 2, 1])["vp"].tolist()
    [4, 4, 4, 0]
    >>> walhalla_majority_table(Rules(tie_rounding="down"), [3, 1, 1, 0])["vp"].tolist()
    [6, 2, 2, 0]
    """
    first, second = rules.walhalla_final_vp
    return scoring_table(walhalla, [int(w) >= 1 for w in walhalla], first, second, rules.tie_rounding)


# ---------------------------------------------------------------------- lengths and tips (W-2.1, W-2.3)


def lengths_distribution(rules) -> dict[tuple, Fraction]:
    """The law of the peninsula lengths ``(tiles of P0, P1, P2)`` (W-2.1).

    Examples
    --------
    >>> from toolkit.games.walhalla.rules import Rules
    >>> lengths_distribution(Rules())
    {(6, 6, 6): Fraction(1, 1)}
    >>> d = lengths_distribution(Rules.preset("variable"))
    >>> d[(5, 8, 5)], d[(7, 5, 6)], d[(6, 6, 6)], len(d)
    (Fraction(1, 9), Fraction(1, 18), Fraction(1, 3), 10)
    """
    if rules.peninsula_tiles != DRAW_18:
        return {_lengths(rules.peninsula_tiles): Fraction(1)}
    out: dict = {}
    for combo in DRAW_18_COMBINATIONS:
        orders = list(itertools.permutations(combo))  # 3! equally likely orders (Fisher-Yates)
        for order in orders:
            out[order] = out.get(order, Fraction(0)) + Fraction(1, len(DRAW_18_COMBINATIONS) * len(orders))
    return dict(sorted(out.items()))


def peninsula_length_distribution(rules, peninsula: int) -> dict[int, Fraction]:
    """The law of the tiles of one peninsula (a marginal of :func:`lengths_distribution`).

    ``rules`` may also be fixed lengths ``(a, b, c)`` (as everywhere in this module).

    Examples
    --------
    >>> from toolkit.games.walhalla.rules import Rules
    >>> peninsula_length_distribution(Rules(peninsula_tiles=(5, 7, 6)), 1)
    {7: Fraction(1, 1)}
    """
    k = _peninsula(peninsula)
    out: dict = {}
    for lengths, p in _layouts(rules).items():
        out[lengths[k]] = out.get(lengths[k], Fraction(0)) + p
    return dict(sorted(out.items()))


def tips_distribution(peninsula: int | None = None) -> dict[tuple, Fraction]:
    """The law of the tips (W-2.3): a given peninsula's ``(inner, outer)``, or the whole layout.

    Parameters
    ----------
    peninsula : int, optional
        0..2: the law of that peninsula's ``(inner, outer)`` (uniform over 9
        pairs).  Omitted: the law of ``(inner tips of P0..P2, outer tips of
        P0..P2)`` (uniform over 36 layouts).

    Examples
    --------
    >>> tips_distribution(2)[(3, 8)], len(tips_distribution())
    (Fraction(1, 9), 36)
    """
    out: dict = {}
    perms_in, perms_out = list(itertools.permutations((3, 4, 5))), list(itertools.permutations((6, 7, 8)))
    w = Fraction(1, len(perms_in) * len(perms_out))
    for a, b in itertools.product(perms_in, perms_out):
        key = (a, b) if peninsula is None else (a[_peninsula(peninsula)], b[_peninsula(peninsula)])
        out[key] = out.get(key, Fraction(0)) + w
    return dict(sorted(out.items()))


def tip_total_distribution(peninsula: int = 0) -> dict[int, Fraction]:
    """The law of ``inner + outer`` tip of a peninsula (what a tied first place splits, W-8.3).

    Examples
    --------
    >>> tip_total_distribution()
    {9: Fraction(1, 9), 10: Fraction(2, 9), 11: Fraction(1, 3), 12: Fraction(2, 9), 13: Fraction(1, 9)}
    """
    out: dict = {}
    for (i, o), p in tips_distribution(peninsula).items():
        out[i + o] = out.get(i + o, Fraction(0)) + p
    return dict(sorted(out.items()))


# ---------------------------------------------------------------------- tiles (W-2.2)


@functools.lru_cache(maxsize=None)
def _tile_classes() -> tuple:
    """``((types, values, multiplicity), ...)``: the tile set grouped into identical tiles."""
    tiles = load_tiles()
    count = Counter(zip(tiles.types, tiles.values))
    return tuple((types, values, m) for (types, values), m in count.items())


@functools.lru_cache(maxsize=None)
def _composition_of_size(n: int) -> tuple:
    """The composition law of a uniform ``n``-subset of the tiles, as sorted ``(Composition, P)`` pairs."""
    classes = _tile_classes()
    total_tiles = sum(m for _, _, m in classes)
    if not 0 <= n <= total_tiles:
        raise ValueError(f"tiles={n} is not allowed: 0..{total_tiles} (the tile set)")
    ways: Counter = Counter()
    for x in itertools.product(*(range(m + 1) for _, _, m in classes)):
        if sum(x) != n:
            continue
        w, fields, value = 1, [0] * len(FIELD_TYPES), 0
        for (types, values, m), xc in zip(classes, x):
            w *= comb(m, xc)
            for t, v in zip(types, values):
                fields[t] += xc
                value += xc * v
        ways[Composition(*fields, value)] += w
    denominator = comb(total_tiles, n)
    return tuple(sorted((c, Fraction(w, denominator)) for c, w in ways.items()))


def composition_distribution(rules=None, peninsula: int = 0, tiles: int | None = None) -> dict[Composition, Fraction]:
    """The law of a peninsula's :class:`Composition` (fields of each type, total wheat value).

    Parameters
    ----------
    rules : Rules or sequence of 3 int, optional
        The rules (under ``draw_18`` the law is mixed over the peninsula's
        length) or fixed lengths ``(a, b, c)``.
    peninsula : int
        0..2.
    tiles : int, optional
        Use a peninsula of exactly this many tiles instead (``rules`` is then
        not needed).

    Returns
    -------
    dict[Composition, Fraction]
        Possible compositions only, ascending.

    Examples
    --------
    >>> d = composition_distribution(tiles=1)
    >>> d[Composition(villages=1, forests=0, cults=0, wheat=1, wheat_value=3)]
    Fraction(1, 18)
    >>> len(d), sum(d.values())
    (12, Fraction(1, 1))
    """
    return dict(_mixed_composition(_length_law(rules, peninsula, tiles)))


def _length_law(rules, peninsula: int, tiles: int | None) -> tuple:
    """The law of a peninsula's tiles as ``((n, P), ...)``: ``tiles`` for sure, else from ``rules``."""
    if tiles is not None:
        return ((int(tiles), Fraction(1)),)
    if rules is None:
        raise ValueError("composition_distribution needs rules (or lengths) or tiles=")
    return tuple(peninsula_length_distribution(rules, peninsula).items())


# The laws below are kept per length law: summary asks for each peninsula's three times, and a
# dashboard redraws the odds after every change of a rule (a summary took about 20 ms without them, 2 ms with)


@functools.lru_cache(maxsize=64)
def _mixed_composition(length_law: tuple) -> tuple:
    """The composition law of a peninsula whose tiles have the law ``length_law``, as sorted
    ``(Composition, P)`` pairs."""
    out: dict = {}
    for n, q in length_law:
        for c, p in _composition_of_size(n):
            out[c] = out.get(c, Fraction(0)) + q * p
    return tuple(sorted(out.items()))


@functools.lru_cache(maxsize=256)
def _composition_marginal(length_law: tuple, field: int) -> tuple:
    """The law of field ``field`` of the :class:`Composition` (as sorted ``(value, P)`` pairs)."""
    out: dict = {}
    for c, p in _mixed_composition(length_law):
        out[c[field]] = out.get(c[field], Fraction(0)) + p
    return tuple(sorted(out.items()))


def field_count_distribution(rules=None, peninsula: int = 0, field_type="village",
                             tiles: int | None = None) -> dict[int, Fraction]:
    """The law of the number of fields of one type on a peninsula (a marginal of the composition).

    Examples
    --------
    >>> field_count_distribution(tiles=6, field_type="wheat")[0]
    Fraction(1, 221)
    """
    t = index_of("field_type", field_type, FIELD_TYPES)  # Composition's fields begin in FIELD_TYPES order
    return dict(_composition_marginal(_length_law(rules, peninsula, tiles), t))


def wheat_value_distribution(rules=None, peninsula: int = 0, tiles: int | None = None) -> dict[int, Fraction]:
    """The law of the total printed wheat value on a peninsula.

    Examples
    --------
    >>> d = wheat_value_distribution(tiles=6)
    >>> d[0], d[15], max(d)
    (Fraction(1, 221), Fraction(1, 18564), 15)
    """
    return dict(_composition_marginal(_length_law(rules, peninsula, tiles), Composition._fields.index("wheat_value")))


def p_no_wheat(rules=None, peninsula: int = 0, tiles: int | None = None) -> Fraction:
    """P(a peninsula has no wheat field): ``comb(9, n) / comb(18, n)`` for ``n`` tiles, mixed over ``n``.

    Examples
    --------
    >>> from toolkit.games.walhalla.rules import Rules
    >>> p_no_wheat(Rules.preset("variable"), 2)
    Fraction(103, 14586)
    """
    return field_count_distribution(rules, peninsula, WHEAT, tiles).get(0, Fraction(0))


def expected_fields(rules=None, peninsula: int = 0, field_type="village", tiles: int | None = None) -> Fraction:
    """The expected number of fields of one type on a peninsula (``n / 2`` for ``n`` tiles).

    Examples
    --------
    >>> expected_fields(tiles=7, field_type="forest")
    Fraction(7, 2)
    """
    return _mean(field_count_distribution(rules, peninsula, field_type, tiles))


def field_distribution(rules, peninsula: int, j: int) -> dict:
    """The law of field ``j`` (1-based from the coast) of a peninsula: its type and wheat value.

    The tile at position ``ceil(j / 2)`` is uniform over the 18 and its
    orientation a fair coin (W-2.2), so all 36 fields are equally likely there;
    enumerated over the tiles and both orientations, then mixed over the
    peninsula's length.

    Returns
    -------
    dict
        Keys ``(type name, printed wheat value)`` (value 0 off wheat), and
        ``None`` for "the peninsula has no field ``j``"; possible keys only.

    Examples
    --------
    >>> from toolkit.games.walhalla.rules import Rules
    >>> d = field_distribution(Rules.preset("variable"), 0, 15)
    >>> d[None], d[("wheat", 2)], d[("forest", 0)]
    (Fraction(8, 9), Fraction(1, 108), Fraction(1, 36))
    """
    if int(j) < 1:
        raise ValueError(f"j={j} is not allowed: fields are numbered from 1 at the coast")
    tiles = load_tiles()
    side = (int(j) - 1) % 2  # 0: the tile's coast-side field
    one: Counter = Counter()
    for types, values in zip(tiles.types, tiles.values):
        for turned in (0, 1):  # the field at `side` is field `side ^ turned` of the tile
            i = side ^ turned
            one[(FIELD_TYPES[types[i]], int(values[i]))] += 1
    total = 2 * tiles.n
    out: dict = {}
    for n, q in peninsula_length_distribution(rules, peninsula).items():
        if int(j) <= 2 * n:
            for key, c in one.items():
                out[key] = out.get(key, Fraction(0)) + q * Fraction(c, total)
        else:
            out[None] = out.get(None, Fraction(0)) + q
    return out


def wheat_tiles_distribution(rules) -> dict[tuple, Fraction]:
    """The joint law of the number of wheat tiles on P0, P1, P2 (9 of the 18 tiles carry wheat).

    Examples
    --------
    >>> from toolkit.games.walhalla.rules import Rules
    >>> d = wheat_tiles_distribution(Rules())
    >>> d[(3, 3, 3)], sum(p for w, p in d.items() if 0 in w)
    (Fraction(400, 2431), Fraction(3, 221))
    """
    tiles = load_tiles()
    n_all = tiles.n
    n_wheat = sum(1 for types in tiles.types if WHEAT in types)
    out: dict = {}
    for (a, b, c), q in _layouts(rules).items():
        r = n_all - a - b - c
        for w in itertools.product(range(a + 1), range(b + 1), range(c + 1)):
            rest = n_wheat - sum(w)
            if not 0 <= rest <= r:
                continue
            ways = comb(a, w[0]) * comb(b, w[1]) * comb(c, w[2]) * comb(r, rest)
            out[w] = out.get(w, Fraction(0)) + q * Fraction(ways, comb(n_all, n_wheat))
    return dict(sorted(out.items()))


def p_some_peninsula_without_wheat(rules) -> Fraction:
    """P(at least one peninsula has no wheat field).

    Examples
    --------
    >>> from toolkit.games.walhalla.rules import Rules
    >>> p_some_peninsula_without_wheat(Rules())
    Fraction(3, 221)
    """
    return sum((p for w, p in wheat_tiles_distribution(rules).items() if 0 in w), Fraction(0))


# ---------------------------------------------------------------------- fjords (§3.4, DP-3 under random)


def fjord_capacities(lengths) -> tuple:
    """Dragons each fjord holds: ``ceil(reach / 3)``, ``reach = 2 * max(tiles of its bordering peninsulas)``.

    Examples
    --------
    >>> fjord_capacities((6, 6, 6)), fjord_capacities((5, 5, 8))
    ((4, 4, 4, 4), (4, 4, 6, 6))
    """
    a = _lengths(lengths)
    reach = [2 * max(a[k] for k in (f - 1, f) if 0 <= k < N_PENINSULAS) for f in range(N_FJORDS)]
    return tuple(-(-r // 3) for r in reach)


@functools.lru_cache(maxsize=None)
def _chain(lengths: tuple, k_max: int) -> tuple:
    """The laws of the moored counts after 0..k_max dragons, as tuples of sorted ``(state, P)`` pairs."""
    cap = fjord_capacities(lengths)
    law = {(0,) * N_FJORDS: Fraction(1)}
    laws = [tuple(sorted(law.items()))]
    for _ in range(k_max):
        nxt: dict = {}
        for s, p in law.items():
            legal = [f for f in range(N_FJORDS) if s[f] < cap[f]]
            if not legal:  # W-4.4: the dragon is set aside
                nxt[s] = nxt.get(s, Fraction(0)) + p
                continue
            q = p / len(legal)
            for f in legal:
                t = s[:f] + (s[f] + 1,) + s[f + 1:]
                nxt[t] = nxt.get(t, Fraction(0)) + q
        law = nxt
        laws.append(tuple(sorted(law.items())))
    return tuple(laws)


def mooring_distribution(lengths, k: int) -> dict[tuple, Fraction]:
    """The law of the moored counts ``(s_0, s_1, s_2, s_3)`` after ``k`` dragons under ``random``.

    Parameters
    ----------
    lengths : sequence of 3 int
        Tiles of P0, P1, P2 (fixed for the chain).
    k : int
        Dragons already moored this raid, >= 0.

    Examples
    --------
    >>> mooring_distribution((6, 6, 6), 1)[(0, 0, 1, 0)]
    Fraction(1, 4)
    """
    if int(k) < 0:
        raise ValueError(f"k={k} is not allowed: dragons moored, >= 0")
    return dict(_chain(_lengths(lengths), int(k))[int(k)])


def p_fjord_open(rules_or_lengths, fjord: int, k: int) -> Fraction:
    """P(fjord ``f`` is still legal after ``k`` dragons) under ``random``, i.e. offered at the ``(k+1)``-th DP-3.

    Parameters
    ----------
    rules_or_lengths : Rules or sequence of 3 int
        Rules (mixed over the length layouts under ``draw_18``) or fixed lengths.
    fjord : int
        0..3.
    k : int
        Dragons already moored this raid.

    Examples
    --------
    >>> p_fjord_open((6, 6, 6), 3, 4)
    Fraction(255, 256)
    >>> p_fjord_open((6, 6, 6), 1, 16)
    Fraction(0, 1)
    """
    f = _fjord(fjord)
    total = Fraction(0)
    for lengths, q in _layouts(rules_or_lengths).items():
        cap = fjord_capacities(lengths)
        total += q * sum((p for s, p in mooring_distribution(lengths, k).items() if s[f] < cap[f]), Fraction(0))
    return total


def expected_open_fjords(rules_or_lengths, k: int) -> Fraction:
    """The expected number of legal fjords after ``k`` dragons under ``random``.

    Examples
    --------
    >>> expected_open_fjords((6, 6, 6), 0)
    Fraction(4, 1)
    """
    return sum((p_fjord_open(rules_or_lengths, f, k) for f in range(N_FJORDS)), Fraction(0))


def fjord_open_table(rules_or_lengths, ks=range(K_MAX + 1)) -> pd.DataFrame:
    """``P(fjord f open after k dragons)`` for every fjord and each ``k`` in ``ks``.

    Returns
    -------
    pandas.DataFrame
        Columns ``k``, ``fjord``, ``exact`` (Fraction) and ``value`` (float).

    Examples
    --------
    >>> fjord_open_table((6, 6, 6), [5]).exact.tolist()
    [Fraction(63, 64), Fraction(63, 64), Fraction(63, 64), Fraction(63, 64)]
    """
    rows = []
    for k in ks:
        for f in range(N_FJORDS):
            p = p_fjord_open(rules_or_lengths, f, k)
            rows.append({"k": int(k), "fjord": f, "exact": p, "value": float(p)})
    return pd.DataFrame(rows, columns=["k", "fjord", "exact", "value"])


# ---------------------------------------------------------------------- summary


def _per_peninsula(rules, label: str, fn) -> list:
    """One row if the three peninsulas agree (``a given peninsula``), else one per peninsula."""
    values = [fn(k) for k in range(N_PENINSULAS)]
    if values[0] == values[1] == values[2]:
        return [(label.format(where=GIVEN_PENINSULA), values[0])]
    return [(label.format(where=PENINSULA.format(k=k)), values[k]) for k in range(N_PENINSULAS)]


def summary(rules) -> pd.DataFrame:
    """The exact setup and mooring odds (``toolkit odds walhalla``, the report), in the table of
    :func:`toolkit.core.exact.odds_table`.

    Rows: the law
    of the peninsula lengths and of one peninsula's length; per peninsula (one
    row when the three agree) the expected villages, P(no wheat), the expected
    total wheat value; P(no wheat on a 6-tile peninsula); P(some peninsula has
    no wheat); the law of a peninsula's tip total; P(fjord f still legal after
    k dragons) under ``random`` for k = 6, 9, 12 and each fjord, and the
    expected legal fjords after 12; and three majority examples.

    Examples
    --------
    >>> from toolkit.games.walhalla.rules import Rules
    >>> summary(Rules()).loc[0, ["quantity", "exact"]].tolist()
    ['P(peninsula lengths = 6,6,6)', '1']
    """
    rows = [(_lengths_label(a), p) for a, p in lengths_distribution(rules).items()]
    if rules.peninsula_tiles == DRAW_18:
        rows += [(PENINSULA_TILES.format(n=n), p) for n, p in peninsula_length_distribution(rules, 0).items()]
    rows += _per_peninsula(rules, VILLAGES, lambda k: expected_fields(rules, k, "village"))
    rows += _per_peninsula(rules, NO_WHEAT, lambda k: p_no_wheat(rules, k))
    rows += _per_peninsula(rules, WHEAT_VALUE, lambda k: _mean(wheat_value_distribution(rules, k)))
    rows.append((NO_WHEAT_ON_6, p_no_wheat(tiles=6)))
    rows.append((SOME_NO_WHEAT, p_some_peninsula_without_wheat(rules)))
    rows += [(TIPS_TOTAL.format(t=t), p) for t, p in tip_total_distribution().items()]
    for k in (6, 9, 12):
        rows += [(f"P(fjord F{f} still legal after {k} dragons, random)", p_fjord_open(rules, f, k))
                 for f in range(N_FJORDS)]
    rows.append(("expected legal fjords after 12 dragons (random)", expected_open_fjords(rules, 12)))
    t = scoring_table([3, 3, 1, 0], [True, True, True, False], 8, 5, rules.tie_rounding)
    rows.append(("majority: strengths 3,3,1 on tips 8/5, VP of each tied first", Fraction(int(t.vp[0]))))
    t = scoring_table([4, 2, 2, 2], [True] * 4, 8, 5, rules.tie_rounding)
    rows.append(("majority: strengths 4,2,2,2 on tips 8/5, VP of each tied second", Fraction(int(t.vp[1]))))
    t = walhalla_majority_table(rules, [2, 2, 2, 1])
    rows.append(("Walhalla majority: counts 2,2,2,1, VP of each tied first", Fraction(int(t.vp[0]))))
    return odds_table(rows)


# ---------------------------------------------------------------------- the run's set-ups, replayed


def deals(frame, rules, policies, limit: int = DEALS_REPLAYED):
    """The reference ``Game`` of each of the run's first ``limit`` games, set up (W-2) and not played.

    ``Game(rules, seed, g, policies)`` is where ``play_game`` starts: on the
    game's chance stream it draws the lengths, lays and turns the tiles,
    deals the tips, the action cards and the dragons and draws the start
    player (``toolkit.core.deals``), so its peninsulas are the run's own.
    """
    from toolkit.games.walhalla.reference import Game

    seed, games = replayed_games(frame, rules, policies, limit)
    for g in games:
        yield Game(rules, seed, int(g), policies)


def set_ups(frame, rules, policies, limit: int = DEALS_REPLAYED) -> np.ndarray:
    """What :func:`samples` measures on each of :func:`deals`' set-ups, replayed for every game at once:
    one row per game, the lengths of P0..P2, their villages, whether each has no wheat field, their
    wheat value, the first 6-tile peninsula (-1 if none) and P0's tips' total.

    The draws are ``Game``'s set-up (W-2) in its order, made with
    :class:`toolkit.core.deals.Streams`: the lengths, the tiles' order, a turn
    of each tile laid, the inner and the outer tips (what follows them, the
    cards, the dragons and the start player, is not measured).  A tile's turn
    decides which of its fields lies on which side, not what the peninsula holds.

    Examples
    --------
    >>> from toolkit.core.deals import games_frame
    >>> from toolkit.games.walhalla.rules import Rules
    >>> frame = games_frame(200, seed=4)
    >>> rules = Rules.preset("variable", num_players=3)
    >>> table = set_ups(frame, rules, ("random",) * 3)
    >>> replayed = list(deals(frame, rules, ("random",) * 3))
    >>> table[:, :3].tolist() == [g.lengths for g in replayed]
    True
    >>> table[:, 3:6].tolist() == [[t.count(VILLAGE) for t in g.field_type] for g in replayed]
    True
    >>> table[:, -1].tolist() == [g.inner_tip[0] + g.outer_tip[0] for g in replayed]
    True
    """
    seed, games = replayed_games(frame, rules, policies, limit)
    chance = Streams(seed, games)
    if rules.peninsula_tiles == DRAW_18:
        lengths = np.array(DRAW_18_COMBINATIONS, np.int64)[chance.below(len(DRAW_18_COMBINATIONS))]
        chance.shuffle(lengths)
    else:
        lengths = np.tile(np.array(rules.peninsula_tiles, np.int64), (len(games), 1))
    tiles = load_tiles()
    order = chance.shuffle(np.tile(np.arange(tiles.n), (len(games), 1)))
    laid = lengths.sum(axis=1)
    for k in range(int(laid.max(initial=0))):
        chance.below(2, where=k < laid)  # the turn of the k-th tile laid
    inner = chance.shuffle(np.tile(np.array([3, 4, 5]), (len(games), 1)))
    outer = chance.shuffle(np.tile(np.array([6, 7, 8]), (len(games), 1)))
    # the tiles are laid from the coast outward, P0's first: the k-th tile of ``order`` lies on the
    # peninsula numbered by the ends of peninsulas at or before k (3: past the last, not laid)
    ends = np.cumsum(lengths, axis=1)
    peninsula = (np.arange(tiles.n)[None, :, None] >= ends[:, None, :]).sum(axis=2)  # [game, k]
    on = peninsula[:, :, None] == np.arange(N_PENINSULAS)  # [game, k, peninsula]
    types, values = tiles.tile_types[order], tiles.tile_values[order]  # [game, k, field]
    villages = ((types == VILLAGE).sum(axis=2)[:, :, None] * on).sum(axis=1)
    no_wheat = ~(((types == WHEAT).any(axis=2)[:, :, None] & on).any(axis=1))
    wheat_value = (values.sum(axis=2)[:, :, None] * on).sum(axis=1)
    six = lengths == 6
    first_six = np.where(six.any(axis=1), np.argmax(six, axis=1), -1)
    tips = inner[:, 0] + outer[:, 0]
    return np.column_stack([lengths, villages, no_wheat, wheat_value, first_six, tips]).astype(np.int64)


def samples(frame, rules, policies, limit: int = DEALS_REPLAYED) -> dict[str, np.ndarray]:
    """One value per replayed set-up for each set-up row of :func:`summary`: an indicator for a
    probability, the count or value for a mean.

    "A given peninsula" is P0 (as in :func:`summary`); the per-peninsula rows
    are made both ways and :func:`simulated` keeps the summary's.  "A 6-tile
    peninsula" is the first of P0..P2 with 6 tiles, so that row's sample is
    the set-ups that have one (the lengths are drawn before the tiles are
    shuffled, so its tiles are a uniform 6 of the 18).
    """
    table = set_ups(frame, rules, policies, limit)
    lengths, villages, no_wheat, wheat_value = np.split(table[:, :-2], 4, axis=1)
    first_six, tips = table[:, -2], table[:, -1]
    out = {_lengths_label(a): (lengths == a).all(axis=1) for a in lengths_distribution(rules)}
    out |= {PENINSULA_TILES.format(n=n): lengths[:, 0] == n for n in range(5, 9)}  # the lengths W-2.1 allows
    for label, per in ((VILLAGES, villages), (NO_WHEAT, no_wheat), (WHEAT_VALUE, wheat_value)):
        out[label.format(where=GIVEN_PENINSULA)] = per[:, 0]
        out |= {label.format(where=PENINSULA.format(k=k)): per[:, k] for k in range(N_PENINSULAS)}
    six = first_six >= 0
    out[NO_WHEAT_ON_6] = no_wheat[six, first_six[six]]
    out[SOME_NO_WHEAT] = no_wheat.any(axis=1)
    out |= {TIPS_TOTAL.format(t=t): tips == t for t in tip_total_distribution()}
    return out


def simulated(frame, rules, policies) -> dict[str, float]:
    """The set-up rows of :func:`summary`, measured on the run's own set-ups (shown beside the exact ones).

    The set-ups of the frame's first :data:`DEALS_REPLAYED` games (5,000, not
    ``SAMPLE_DEALS``, since a whole reference set-up took twice as long as the
    other games' deals) are replayed as the reference's ``Game`` sets up on
    their chance streams (:func:`deals`, all at once in :func:`set_ups`), so
    they are the run's own peninsulas; each row is the share (probability
    rows) or the mean of its quantity over them (:func:`samples`).  Left out:
    the fjord rows, which are about the dragons of a raid as the ``random``
    policy moors them (play, not set-up, and not in the records), and the
    majority examples, fixed positions that no game measures.
    """
    return sample_means(samples(frame, rules, policies), summary(rules)["quantity"])

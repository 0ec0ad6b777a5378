"""Determinized lookahead (perfect-information Monte Carlo), written once for the kernels.

Where cards are hidden, a game's ``lookahead:S`` player asks, for each candidate option: "over ``S``
guesses at what I cannot see, how well does this option do?".  The loop is the same in every game:

1. for each of ``S`` samples, a *determinization*: the game's protocol function
   ``determinize(params, st, rs, seat, base, scratch)`` writes into ``base`` a full state consistent
   with what ``seat`` knows, drawing from the seat's decision stream ``1 + seat``;
2. for each candidate, a copy of ``base`` (its first ``copy_size`` entries: what the game's state
   machine reads) and the game's ``value(params, world, rs, seat, cands, i, scratch)``: candidate ``i``
   played in that world and the world played on (a rollout with greedy seats, to the end of the round
   or raid), valued for ``seat``; every candidate of a sample faces the same world;
3. the candidate of the highest total over the samples; a tie goes to the first in canonical order
   (``random_ties=False``) or is broken uniformly from the seat's decision stream
   (:func:`toolkit.core.rng.best_of`, ``random_ties=True``).

:func:`make_lookahead` builds a game's lookahead from its two functions, the way
``core.driver.make_play_game`` builds its game loop: a copy of the template whose globals name them,
cached by Numba beside the module that makes it.  Herrlof, Attila and Walhalla play ``lookahead`` through it
(their ``pimc`` in ``heuristics.py``, filed beside it).  Valhalla's lookahead is an exact expectimax over the stick throws
(no determinization: nothing is hidden) and Halali's an exact average over the kinds a face-down tile
can hold, weighted by their counts (every determinization at once rather than a sample of them), so
theirs stay their own; the golden digests pin every game.

:func:`deal_unseen` is the deal of a determinization where hands are counts per kind of card (Attila's
tribes, Walhalla's action cards; its twin for the references is ``core.policy.deal_unseen``).
"""

from __future__ import annotations

import sys

from toolkit.core import rng
from toolkit.core.driver import from_template
from toolkit.core.jit import njit_inline, njit_no_nrt

# the names the template takes from the scope make_lookahead gives each copy
determinize = value = None
COPY_SIZE = 0
RANDOM_TIES = False


def _lookahead(params, st, rs, seat, cands, nc, samples, base, world, totals, scratch):
    for i in range(nc):
        totals[i] = 0
    for _ in range(samples):
        determinize(params, st, rs, seat, base, scratch)
        for i in range(nc):
            for j in range(COPY_SIZE):
                world[j] = base[j]
            totals[i] += value(params, world, rs, seat, cands, i, scratch)
    best = 0
    if RANDOM_TIES:
        ties = 1
        for i in range(1, nc):
            take, ties = rng.best_of(rs, 1 + seat, totals[i], totals[best], ties, False)
            if take:
                best = i
    else:
        for i in range(1, nc):
            if totals[i] > totals[best]:
                best = i
    return best


def make_lookahead(determinize, value, copy_size: int, random_ties: bool):
    """The determinized lookahead of a game's ``determinize`` and ``value`` (module docstring)::

        lookahead(params, st, rs, seat, cands, nc, samples, base, world, totals, scratch) -> index

    returns the index in ``cands[:nc]`` of the best candidate (what ``value`` reads of ``cands`` is the
    game's: an option's code, or Attila's pair at ``2 * i``).  ``base`` and ``world`` hold a state
    each, ``totals`` ``nc`` entries; ``scratch`` is handed to both functions (the game's other buffers:
    none of these may overlap what they use of it).  Call it at the top level of the kernel module.
    """
    scope = {"rng": rng, "determinize": determinize, "value": value, "COPY_SIZE": copy_size,
             "RANDOM_TIES": bool(random_ties)}
    lookahead = njit_no_nrt(from_template(_lookahead, "lookahead", scope, sys._getframe(1)))
    lookahead.__doc__ = "The determinized lookahead of this game (``toolkit.core.lookahead``)."
    return lookahead


@njit_inline
def deal_unseen(st, world, pool, m, me, players, hand, kinds, deck, deck_size):
    """A determinization's deal, where hands are counts per kind: the ``m`` cards of ``pool`` (the
    cards ``me`` has not seen, shuffled) go to the other seats from the front, in seat order, each as
    many as it holds in ``st`` (seat ``p``'s counts at ``hand + kinds * p``), and the rest, in order,
    to the pile at ``deck`` in ``world``, whose slots past it (up to ``deck_size``) are cleared.
    ``me``'s hand is left as it is.  Returns the pile's size."""
    off = 0
    for p in range(players):
        if p == me:
            continue
        size = 0
        for c in range(kinds):
            size += st[hand + kinds * p + c]
            world[hand + kinds * p + c] = 0
        for j in range(size):
            world[hand + kinds * p + pool[off + j]] += 1
        off += size
    for j in range(m - off):
        world[deck + j] = pool[off + j]
    for j in range(m - off, deck_size):  # no real card left past the pile
        world[deck + j] = 0
    return m - off

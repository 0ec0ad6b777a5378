"""A game's kernel module made whole in one call: ``finish_kernel(globals())`` at its end.

Every kernel has the protocol functions (``start``, ``advance``, ``count``, ``nth``, ``options``,
``apply``, ``choose``, ``evaluate``, ``determinize``, ``check_step``, ``check_end``, ``record``) and its
sizes (``STATE_SIZE``, ``MAX_OPTIONS``, ``SCRATCH_SIZE``, ``RS_SIZE``, ``COLUMNS``) in its globals, imported
from the modules below it (layout, mechanics, heuristics, invariants: ``docs/adding-a-game.md``); from them
the same five compiled pieces are made, in this order, each filed beside the kernel so that Numba caches it
there:

========================  ==========================================================================
``returns``               each seat's result at the end (``core.driver.make_returns``)
``advance_called``,       ``advance`` and ``apply`` as one compiled function each, for the code that calls
``apply_called``          them rather than inlining them (``core.driver.make_calls``)
``mcts``                  the tree search (``core.mcts.make_mcts``; the kernel's ``MCTS_*`` settings)
``play_game``             the one-game loop, plain and searching copies (``core.driver.make_play_game``;
                          ``INLINE_STEPS``: the plain copy inlines ``advance`` and ``apply``, default True;
                          ``choose_plain`` and ``lookahead_in``, optional together: ``choose`` without the
                          game's own lookahead, for the plain and searching copies, and the test of the
                          line-ups that need the whole copy)
``play_many``             the parallel driver over many games (``core.driver.make_play_many``), and
                          ``WORK_SIZE``, the work a game needs
========================  ==========================================================================

A kernel whose heuristics need ``returns`` or the called pair earlier (a lookahead's rollouts) makes them
below it (Walhalla's ``mechanics.py`` makes the called pair, filed beside it) and imports them;
:func:`finish_kernel` then keeps them.
"""

from __future__ import annotations

import sys

from toolkit.core.driver import from_template, make_calls, make_play_game, make_play_many, make_returns
from toolkit.core.jit import njit_inline
from toolkit.core.mcts import make_mcts

PROTOCOL = ("start", "advance", "count", "nth", "options", "apply", "choose", "evaluate", "determinize",
            "check_step", "check_end", "record", "STATE_SIZE", "MAX_OPTIONS", "SCRATCH_SIZE", "RS_SIZE",
            "COLUMNS")


AT = 0  # the template's state entry (each copy's scope gives its own)


def _state_entry(params, st):
    return st[AT]


def state_entry(name: str, at: int, doc: str, caller=None):
    """The protocol function ``name(params, st) -> st[at]`` of a kernel that keeps it in its state
    (``kind``: the decision point's kind, ``count``: its number of options), compiled inline and filed
    beside the kernel (``core.driver.from_template``).  Call it at the kernel's top level:
    ``count = state_entry("count", S_N, "The number of options of the current decision point.")``."""
    function = njit_inline(from_template(_state_entry, name, {"AT": at}, caller or sys._getframe(1)))
    function.__doc__ = doc
    return function


def finish_kernel(g: dict) -> None:
    """Add ``returns``, ``advance_called``, ``apply_called``, ``mcts``, ``play_game``, ``WORK_SIZE`` and
    ``play_many`` to the kernel module whose globals are ``g`` (module docstring)."""
    missing = [name for name in PROTOCOL if name not in g]
    if missing:
        raise TypeError(f"{g.get('__name__', 'the kernel')} does not define {', '.join(missing)}: "
                        "every kernel defines the protocol (docs/adding-a-game.md)")
    if ("choose_plain" in g) != ("lookahead_in" in g):
        raise TypeError(f"{g.get('__name__', 'the kernel')} defines one of choose_plain and lookahead_in: the "
                        "plain copy's choose needs the test of the line-ups it cannot play (docs/adding-a-game.md)")
    caller = sys._getframe(1)
    if "returns" not in g:
        g["returns"] = make_returns(g["record"], g["COLUMNS"], caller=caller)
    if "advance_called" not in g:
        g["advance_called"], g["apply_called"] = make_calls(g["advance"], g["apply"], caller=caller)
    g["mcts"] = make_mcts(g, caller=caller)
    g["play_game"] = make_play_game(g["start"], g["advance"], g["count"], g["nth"], g["options"], g["apply"],
                                    g["choose"], g["check_step"], g["check_end"], g["record"], g["STATE_SIZE"],
                                    g["MAX_OPTIONS"], g["SCRATCH_SIZE"], g["mcts"],
                                    inline_steps=g.get("INLINE_STEPS", True), choose_plain=g.get("choose_plain"),
                                    lookahead_in=g.get("lookahead_in"), caller=caller)
    g["WORK_SIZE"] = g["play_game"].work_size
    g["play_many"] = make_play_many(g["play_game"], g["RS_SIZE"], g["WORK_SIZE"], caller=caller)

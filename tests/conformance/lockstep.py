"""One game played by the kernel and by the reference side by side, compared as a whole at every decision point
(issue 53, point 3; ``test_protocol.py`` runs it over every game).

At every decision point, and at the end, the two sides must agree on:

- where they stand: the seat to decide (or the end), the decision kind and the options, in order (the
  reference's turned into the kernel's codes by its ``option_code``);
- what they drew: the chance stream's state, and each seat's decision stream where the reference's player keeps
  one;
- the position, where the reference states it: its ``kernel_state(game)`` is the game's state in the kernel's
  vocabulary, ``{field of the kernel's layout STATE: its values}`` (every field the rules read; a kernel's own
  scratch may be left out), compared with the same fields of the kernel's state.

The last is what makes the lock step see a whole game: a kernel that applies another option than the one both
chose is found at the very next decision point, whatever happens later (a capture that sends the stray pawn
back to where the right one would be, so that the ends are equal).  Without it only what shows (the options,
the streams, the record at the end) is compared, and a stray move that a later move undoes is never seen.  At
the end the §6 rows must be equal too.

Every difference is reported as ``"decision N: ..."``, ``N`` counting the decision points from 0 (the end is
the decision point after the last one played): :func:`found_at` reads ``N`` back.
"""

from __future__ import annotations

import importlib
import re

from toolkit.core.protocol import KernelGame


def state_fields(kernel) -> dict:
    """The kernel's state layout (``kernel.STATE``, a ``toolkit.core.layout.Layout``): field -> (offset, size)."""
    layout = kernel.STATE
    names = layout.names()
    starts = [getattr(layout, name) for name in names] + [layout.size]
    return {name: (starts[i], starts[i + 1] - starts[i]) for i, name in enumerate(names)}


def states_position(reference) -> bool:
    """Whether the game's reference states its position in the kernel's vocabulary (``kernel_state``)."""
    return callable(getattr(reference, "kernel_state", None))


def position_difference(reference, game, kernel, st) -> str | None:
    """The first field of the reference's ``kernel_state(game)`` whose values differ from the kernel state
    ``st``'s (or is no field of the kernel's layout), or None."""
    fields = state_fields(kernel)
    for name, values in reference.kernel_state(game).items():
        if name not in fields:
            return f"the reference states a field {name!r} the kernel's STATE does not have"
        at, size = fields[name]
        want = [int(v) for v in values]
        got = [int(v) for v in st[at:at + size]]
        if got != want:
            return f"the positions differ in {name}: kernel {got}, reference {want}"
    return None


def lockstep(spec, rules, policies, seed: int, game: int, tamper=None, whole: bool = True) -> str | None:
    """Play game ``game`` of a run seeded ``seed`` in the kernel and the reference of ``spec`` side by side; the
    first difference (``"decision N: ..."``), or None.

    ``tamper(step, codes, index) -> code`` (a negative control) may replace the option code the kernel applies
    after both chose the same one; ``whole=False`` leaves the position out of the comparison (what the lock step
    was before it compared positions)."""
    kernel = spec.kernel
    reference = importlib.import_module(spec.reference)
    compare_position = whole and states_position(reference)
    kg = KernelGame(kernel, rules, policies, seed, game)
    ref = reference.new_game(rules, seed, game, policies)
    ref.start()
    step = 0
    while True:
        decision, seat = ref.advance(), kg.advance()
        where = f"decision {step}" + (" (the end)" if decision is None and seat < 0 else "")
        if ref.chance.state != int(kg.rs[0]):
            return f"{where}: the chance streams differ"
        if (decision is None) != (seat < 0):
            return f"{where}: one game is over, the other is not (reference {decision}, kernel seat {seat})"
        if compare_position and (found := position_difference(reference, ref, kernel, kg.st)):
            return f"{where}: {found}"
        if decision is None:
            break
        if (seat, kg.kind()) != (decision.seat, decision.kind):
            return f"{where}: kernel seat {seat} DP-{kg.kind()}, reference seat {decision.seat} DP-{decision.kind}"
        codes = [reference.option_code(decision, option) for option in decision.options]
        if kg.options() != codes:
            return f"{where}: kernel options {kg.options()}, reference {codes}"
        option = ref.choose(decision)
        index = kg.choose()
        if codes[index] != reference.option_code(decision, option):
            return f"{where}: kernel chose {codes[index]}, reference {reference.option_code(decision, option)}"
        for s, player in enumerate(ref.players):
            stream = getattr(player, "stream", None)
            if stream is not None and stream.state != int(kg.rs[1 + s]):
                return f"{where}: seat {s}'s decision streams differ"
        ref.apply(decision, option)
        kg.apply(codes[index] if tamper is None else tamper(step, codes, index))
        step += 1
    if step == 0:
        return "decision 0: no decision point was played"
    row = ref.row()  # the kernel's columns (a reference row may hold more, e.g. Halali's per-game details)
    expected = {c: int(row[c]) for c in kernel.COLUMNS}
    got = dict(zip(kernel.COLUMNS, kg.record().tolist()))
    if got != expected:
        return f"{where}: the records differ in {[c for c in got if got[c] != expected[c]]}"
    return None


def found_at(difference: str) -> int:
    """The decision point a difference :func:`lockstep` reported was found at."""
    return int(re.match(r"decision (\d+)", difference)[1])

"""Valhalla in words and as a snapshot: the decisions of §5 said aloud, a position copied out for a picture.

:func:`describe` turns one option of a reference :class:`~toolkit.games.valhalla.reference.Decision`
into the words a player would say; :func:`position` copies what the picture
(:func:`toolkit.games.valhalla.viz.draw`) shows into a frozen :class:`Position`.
Valhalla hides nothing (every ship stands in view, the sticks are thrown in the
open), so the words and the snapshot hold everything.

Wording the spec leaves open, decided here:

- The seats are named by their colour (V-1.5): the start player plays black,
  the other seat white, so "the black ship" is the start player's.
- A square is named by its number; square 36 is "Valhalla (36)", square 0
  "home".  A forward move reads "move the ship on 14 to 17", a forced
  backward move (V-5.5) "move the ship on 14 back to 11", an entry (V-5.1)
  "enter a ship from home to 3" ("a ship": the ships at home are interchangeable, V-5.9), a move to 37
  (V-5.4, or ``direct_off``) "bear off the ship on 36".  Options of one decision have distinct origins
  (V-5.9), and every text names its origin ("home" for an entry), so no two texts of a decision are alike.
- An attack (V-5.7) adds ", hitting the <colour> ship" (an entering attack,
  possible only when the entry squares are not safe, adds "…, sending it home").
- A repairing ship's release (V-5.3) reads "release the ship under repair
  on 19 to 20".
- A move that ends on the rock (V-6.3) says where the ship is relocated:
  "move the ship on 27 to 30 on the rock, which sends it to the dock (19) for
  repair" or "…, which sends it to 1".
- DP-2 reads "throw again" / "end the turn" (the decline ends the turn, V-4.6).

Examples
--------
>>> import toolkit
>>> from toolkit.games.valhalla import reference, view
>>> game = reference.new_game(toolkit.rules("valhalla", "alternative"), seed=1, game_index=0)
>>> game.start()
>>> decision = game.advance()
>>> view.DECISIONS[decision.kind], decision.seat, [view.describe(game, decision, o) for o in decision.options][:2]
('move', 1, ['move the ship on 4 to 7, hitting the black ship', 'move the ship on 5 to 8, hitting the black ship'])
>>> view.position(game, decision).ships
((7, 8, 9, 10, 11, 13), (1, 2, 3, 4, 5, 6))
"""

from __future__ import annotations

import dataclasses

from toolkit.games.valhalla.reference import DECLINE, HOME, OFF, THROW_AGAIN, VALHALLA, apply_move, in_blockade_run

DECISIONS = {1: "move", 2: "extra throw"}  # the §5 table: DP-1 move, DP-2 extra throw


def colour(game, seat: int) -> str:
    """V-1.5: the start player plays black, the other seat white."""
    return "black" if seat == game.record.start_seat else "white"


def _square(square: int) -> str:
    return "Valhalla (36)" if square == VALHALLA else str(square)


def _move_words(game, seat: int, move) -> str:
    rules, state = game.rules, game.state
    ship = state.ship_at(seat, move.origin)
    if move.target == OFF:
        return f"bear off the ship on {move.origin}"
    if move.origin == HOME:
        words = f"enter a ship from home to {move.target}"
    elif state.repairing[seat][ship]:
        words = f"release the ship under repair on {move.origin} to {move.target}"
    else:
        back = "back " if move.backward else ""
        words = f"move the ship on {move.origin} {back}to {_square(move.target)}"
    if move.attack:
        words += f", hitting the {colour(game, 1 - seat)} ship"
        if move.origin == HOME:
            words += ", sending it home"  # the swap puts it on the attacker's origin, home (V-5.7)
    if move.target == rules.rock_square:
        # where the rock sends the ship is public and decided by the board now (V-6.3): say it
        after = state.copy()
        apply_move(rules, after, seat, move)
        square = after.pos[seat][ship]
        words += (f" on the rock, which sends it to the dock ({square}) for repair" if after.repairing[seat][ship]
                  else f" on the rock, which sends it to {square}")
    return words


def describe(game, decision, option) -> str:
    """The words the deciding seat says for ``option``, one of ``decision.options``.

    Parameters
    ----------
    game : reference.Game
        The reference game at this decision point, before ``option`` is applied.
    decision : reference.Decision
        DP-1 (``option`` a :class:`~toolkit.games.valhalla.reference.Move`) or DP-2
        (``option`` ``"throw_again"`` or ``"decline"``).
    option
        One of ``decision.options``.

    Returns
    -------
    str
        For example ``"move the ship on 14 to 17, hitting the black ship"``, ``"enter a ship from home
        to 3"``, ``"bear off the ship on 36"``, ``"throw again"``, ``"end the turn"``.  Options of one
        decision differ in their origin square (V-5.9), so their texts differ.
    """
    if decision.kind == 2:
        return {THROW_AGAIN: "throw again", DECLINE: "end the turn"}[option]
    return _move_words(game, decision.seat, option)


@dataclasses.dataclass(frozen=True)
class Position:
    """What the picture of a Valhalla position shows, copied out of a reference game.

    Squares are those of §2.5: 0 home, 1..35 the track, 36 Valhalla, 37 borne off.
    """

    ships: tuple  # ships[seat][ship]: the square of each of the seat's ships, in the reference's ship order
    repairing: tuple  # repairing[seat][ship]: that ship stands on the dock under repair (V-6.2)
    colours: tuple  # colours[seat]: "black" (the start player) or "white" (V-1.5)
    score: tuple  # score[seat]: ships borne off (§6)
    protected_runs: tuple  # squares whose ship is protected by a blockade run now (V-6.4c), ascending
    turn: int  # turns begun so far (§6 ``turns``; the opening turn 1 included)
    to_play: int | None  # the seat whose turn it is; None once the game is over
    sticks: tuple  # the four sticks (S, T, G, H), 1 = rune up, of the throw that led here; () when none
    throw_value: int | None  # the value of that throw (§3), None when none
    natural_one: bool  # that throw is a natural one (§3.2)
    kind: int | None  # the decision's DP number (1 move, 2 extra throw), None without a decision
    deciding_seat: int | None
    over: bool  # the game has ended
    winner: int | None  # the seat that bore off all its ships, None while playing or when aborted
    # the board of these rules (§2.2, §9.2)
    safe_squares: tuple
    dock_square: int
    rock_square: int
    blockade_zone: tuple  # (first, last) square


def position(game, decision=None) -> Position:
    """A frozen snapshot of ``game`` (a reference Game) for the picture; ``decision`` adds its kind and seat.

    The throw shown is ``decision.throw``, else the pending decision's throw, else none (the game's
    end: the reference keeps no last throw).

    Examples
    --------
    >>> import toolkit
    >>> from toolkit.games.valhalla import reference
    >>> game = reference.new_game(toolkit.rules("valhalla"), seed=1, game_index=0)
    >>> game.start()
    >>> snap = position(game, game.advance())
    >>> snap.colours, snap.to_play, snap.throw_value, snap.kind
    (('black', 'white'), 1, 3, 1)
    """
    rules, state, record = game.rules, game.state, game.record
    pending = decision if decision is not None else game.pending
    throw = pending.throw if pending is not None else None
    over = game.phase == "over"
    winner = record.winner if over and record.winner >= 0 else None
    first, last = rules.blockade_zone
    runs = tuple(sq for sq in range(first, min(last, VALHALLA - 1) + 1) if in_blockade_run(rules, state, sq))
    return Position(
        ships=tuple(tuple(p) for p in state.pos),
        repairing=tuple(tuple(r) for r in state.repairing),
        colours=(colour(game, 0), colour(game, 1)),
        score=(state.borne_off(0), state.borne_off(1)),
        protected_runs=runs,
        turn=record.turns,
        to_play=None if over else game.seat,
        sticks=tuple(throw.sticks) if throw is not None else (),
        throw_value=throw.value if throw is not None else None,
        natural_one=bool(throw.natural_one) if throw is not None else False,
        kind=decision.kind if decision is not None else None,
        deciding_seat=decision.seat if decision is not None else None,
        over=over,
        winner=winner,
        safe_squares=tuple(sorted(rules.safe_squares)),
        dock_square=rules.dock_square,
        rock_square=rules.rock_square,
        blockade_zone=(first, last),
    )

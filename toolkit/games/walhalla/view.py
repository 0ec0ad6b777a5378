"""Walhalla in words and pictures (issue 38): each decision in words and each position as plain data.

The spec ``docs/rules/walhalla.md`` has nine decision points (§5): DP-1
board, DP-2 colour seat, DP-3 fjord, DP-4 landing, DP-5 axe, DP-6 shield,
DP-7 fight outcome, DP-8 raid cards and DP-9 sell.  :func:`describe` names
an option of one the way its seat would say it; :func:`position` copies the
reference game into a frozen :class:`Position`, which ``viz.draw`` draws.

:func:`describe` reads nothing but ``Game.view(seat)`` of the deciding seat,
the reference's own account of what that seat may know (its hand, every hand
size, the board), so it cannot name an opponent's cards or the order of a deck.

Wording the spec leaves open, decided here:

- Field j (1-based, from the coast) of peninsula Pk is ``"P1 field 5"``,
  followed by its type, ``"(forest)"``, or its printed value,
  ``"(wheat 3)"``: the tiles lie face up (W-2.2).  Dragon seats are bow,
  middle and stern (§2.2); a fjord is ``"F2 (between P1 and P2)"`` (§3.2).
- DP-1 lists the seats boarded, the coloured one marked ``"(my colour)"``:
  ``"board 2 Vikings: bow and stern (my colour)"``; the empty set is
  ``"board nobody"``.  DP-3 adds the positions the dragon takes (§3.4).
- DP-4 says ``"land on"`` an empty field and ``"attack blue on"`` an occupied
  one; ``stay`` is ``"stay aboard (back to Midgard)"`` (W-5.3).
- DP-5 to DP-7 name the opponent and the field fought over; the attacker
  of DP-6/7 is the colour still aboard the current dragon level with it.
- DP-8 and DP-9 spell the count vector out in card names (``"lay 2 Battle
  Horns on P0 and 1 Plunder card"``, ``"sell 1 Axe for 1 Viking"``); the
  all-zero vector is ``"lay nothing"`` / ``"sell nothing"``.
- The reference keeps how many dragons each fjord holds, not which
  (``viz.position_of``): a :class:`Position` names the dragon of the
  current turn (``dragon``, the chance of the turn) and leaves earlier ones
  anonymous, unless a ``viz.MooringLog`` that watched the game is passed as
  ``log``.

Seed 7 opens with a boarding:

>>> from toolkit.core.protocol import first_decision
>>> position(*first_decision("walhalla", seed=7)).decision
'board'
>>> game, decision = first_decision("walhalla", seed=7)
>>> describe(game, decision, decision.options[0])
'board nobody'
"""

from __future__ import annotations

import dataclasses

from toolkit.games.walhalla import reference as ref
from toolkit.games.walhalla import viz
from toolkit.games.walhalla.data import COLOURS, FIELD_TYPES, HORN, PLUNDER, WALHALLA_CARD, WHEAT, load_dragons

__all__ = ["DECISIONS", "Position", "describe", "position"]

# §5, DP number -> the spec's name
DECISIONS = {1: "board", 2: "colour seat", 3: "fjord", 4: "landing", 5: "axe", 6: "shield",
             7: "fight outcome", 8: "raid cards", 9: "sell"}
SEATS = ("bow", "middle", "stern")  # dragon seats 0, 1, 2 (§2.2)
# the card types in CARD_TYPES order (axe, shield, horn, walhalla, plunder), singular and plural
CARD_WORDS = (("Axe", "Axes"), ("Shield", "Shields"), ("Battle Horn", "Battle Horns"),
              ("Walhalla card", "Walhalla cards"), ("Plunder card", "Plunder cards"))
FJORD_WORDS = ("left of P0", "between P0 and P1", "between P1 and P2", "right of P2")


def _field(view, k: int, j: int) -> str:
    kind = view["field_type"][k][j]
    what = f"wheat {view['field_value'][k][j]}" if kind == WHEAT else FIELD_TYPES[kind]
    return f"P{k} field {j + 1} ({what})"


def _cards(counts, types=range(5), places=("",) * 5) -> str:
    """``(2, 0, 1)`` -> ``"2 Axes and 1 Battle Horn"``: entry i counts cards of type ``types[i]``."""
    words = [f"{n} {CARD_WORDS[t][n > 1]}{where}" for n, t, where in zip(counts, types, places) if n]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _attacker(view, k: int, j: int) -> int:
    """The colour fighting for field (k, j): the current dragon's seat level with it (§3.3)."""
    return view["aboard"][j - 3 * (view["moored"][view["fjord"]] - 1)]


def describe(game, decision, option) -> str:
    """The words for ``option``, one of ``decision.options``, before it is applied.

    Parameters
    ----------
    game : reference.SteppedGame or reference.Game
        The game at this decision; only ``Game.view(decision.seat)`` is read.
    decision : reference.Decision
        A decision point of §5 (``decision.kind`` 1..9).
    option
        One of ``decision.options``.

    Returns
    -------
    str
        For example ``"board 2 Vikings: bow and middle"``, ``"sail to F1 (between P0 and P1),
        positions 4-6"``, ``"attack blue on P1 field 5 (village)"`` or ``"sell 1 Axe for 1 Viking"``.
    """
    view = getattr(game, "game", game).view(decision.seat)
    kind, me = decision.kind, decision.seat
    if kind == ref.DP_BOARD:
        if option == 0:
            return "board nobody"
        colour, coloured = view["dragon_colour"][view["dragon"]], view["dragon_seat"][view["dragon"]]
        seats = [SEATS[j] + (" (my colour)" if j == coloured and colour == me else "")
                 for j in range(3) if option >> j & 1]
        named = seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " and " + seats[-1]
        return f"board {len(seats)} Viking{'s' * (len(seats) > 1)}: {named}"
    if kind == ref.DP_COLOUR_SEAT:
        seat = SEATS[view["dragon_seat"][view["dragon"]]]
        return f"board my coloured seat ({seat})" if option == ref.BOARD else f"leave my coloured seat ({seat}) empty"
    if kind == ref.DP_FJORD:
        first = 3 * view["moored"][option] + 1
        return f"sail to F{option} ({FJORD_WORDS[option]}), positions {first}-{first + 2}"
    if kind == ref.DP_LANDING:
        if option == ref.STAY:
            return "stay aboard (back to Midgard)"
        k, j = option
        defender = view["occupant"][k][j]
        verb = "land on" if defender < 0 else f"attack {COLOURS[defender]} on"
        return f"{verb} {_field(view, k, j)}"
    if kind in (ref.DP_AXE, ref.DP_SHIELD, ref.DP_OUTCOME):
        k, j = decision.info
        field, defender = _field(view, k, j), COLOURS[view["occupant"][k][j]]
        attacker = COLOURS[_attacker(view, k, j)]
        return {ref.PLAY_AXE: f"play an Axe against {defender} on {field}",
                ref.PLAY_SHIELD: f"play a Shield against {attacker}'s Axe on {field}",
                ref.DEFENDER_WINS: f"win the fight for {field}: {attacker}'s Viking goes to Walhalla",
                ref.ATTACKER_WINS: f"let {attacker} win {field}: my Viking goes to Walhalla",
                ref.DECLINE: (f"fight {defender} for {field} without an Axe" if kind == ref.DP_AXE
                              else f"let {attacker}'s Axe win {field}")}[option]
    if kind == ref.DP_RAID_CARDS:
        # (h0, h1, h2, w, pl): Battle Horns on P0, P1, P2, then Walhalla and Plunder cards (§5)
        if not any(option):
            return "lay nothing"
        where = (" on P0", " on P1", " on P2", "", "")
        return "lay " + _cards(option, (HORN, HORN, HORN, WALHALLA_CARD, PLUNDER), where)
    if kind == ref.DP_SELL:
        sold = sum(option)
        return f"sell {_cards(option)} for {sold} Viking{'s' * (sold > 1)}" if sold else "sell nothing"
    raise ValueError(f"describe: no decision point DP-{kind} in Walhalla (§5 has DP-1..DP-9)")


@dataclasses.dataclass(frozen=True)
class Position(viz.Position):
    """A moment of a Walhalla game: the board of ``viz.Position`` and what only the game knows.

    Every field is a tuple, an int, a bool or a string, copied out of the reference.
    It holds hidden information too (every hand, both decks); ``viz.draw`` decides what to hide.
    """

    hands: tuple = ()  # hands[p]: counts of (axe, shield, horn, walhalla, plunder), hidden from the others
    deck: tuple = ()  # the action deck, top card first (card type codes): nobody sees its order
    discard: tuple = ()  # the discard pile, counts per card type (public)
    dragons_left: tuple = ()  # the dragon deck, top first: its order is hidden, the set public
    dragon: int = -1  # the dragon drawn this turn (the turn's chance), -1 between turns
    aboard: tuple = (-1, -1, -1)  # its seats bow, middle, stern: the colour still aboard, -1 empty
    fjord: int = -1  # where it moored, -1 before it sails
    seat: int = -1  # the deciding seat, -1 without a decision
    kind: int = 0  # the decision's DP number, 0 without a decision
    decision: str = ""  # its §5 name
    options: int = 0  # how many options it has
    info: tuple = ()  # DP-4: (q,), the fjord position of the Viking; DP-5..7: (k, j), the field fought for
    over: bool = False  # the final scoring is done

    def caption(self) -> str:
        """One line: the raid and turn, then who decides what (or the result)."""
        if self.over:
            won = " and ".join(self.seat_text(p) for p in self.winners)
            return f"the end: VP {list(self.vp)}, {won} {'wins' if len(self.winners) == 1 else 'share the win'}"
        head = f"raid {self.raid + 1} of {self.raids}, turn {self.turn_in_raid}"
        if self.dragon >= 0:
            head += f", {self.seat_text(self.active)} drew {load_dragons().ids[self.dragon]}"
        return head + (f": {self.seat_text(self.seat)} decides DP-{self.kind} {self.decision}" if self.kind else "")


def position(game, decision=None, *, log=None) -> Position:
    """A frozen copy of ``game`` (a ``reference.SteppedGame`` or ``reference.Game``) now.

    ``decision`` (a ``reference.Decision``) adds the deciding seat, its DP and
    its option count.  ``log``, a ``viz.MooringLog`` that observed the game
    from its start, names every moored dragon; without it only the current
    turn's dragon is named.  Later moves do not change the returned object.
    """
    g = getattr(game, "game", game)
    dragons = load_dragons()
    if log is not None:
        moorings = log.current(g)
    else:  # anonymous dragons, but the current one is the last in its fjord (it moored this turn)
        moorings = [viz.Mooring(f, s, -1, -1, -1) for f in range(4) for s in range(g.moored[f])]
        if g.fjord >= 0 and g.dragon >= 0:
            mine = [i for i, m in enumerate(moorings) if m.fjord == g.fjord][-1]
            moorings[mine] = viz.Mooring(g.fjord, g.moored[g.fjord] - 1, g.dragon, dragons.colours[g.dragon],
                                         dragons.seats[g.dragon], tuple(g.aboard))
    over = decision is None and g.raids_played == g.rules.raids
    # the raid's turns start with its start player and go clockwise (W-3), so the active seat is known
    active = (g.start + g.turns_per_raid[g.raid] - 1) % g.n if g.dragon >= 0 else -1
    info = () if decision is None or decision.info is None else tuple(
        decision.info if isinstance(decision.info, tuple) else (decision.info,))
    board = viz.position_of(g, moorings, active=active, winners=tuple(g.winners()) if over else ())
    return Position(
        **{f.name: getattr(board, f.name) for f in dataclasses.fields(viz.Position)},
        hands=tuple(tuple(h) for h in g.hands), deck=tuple(g.deck), discard=tuple(g.discard),
        dragons_left=tuple(g.dragons), dragon=g.dragon, aboard=tuple(g.aboard), fjord=g.fjord,
        seat=-1 if decision is None else decision.seat, kind=0 if decision is None else decision.kind,
        decision="" if decision is None else DECISIONS[decision.kind],
        options=0 if decision is None else len(decision.options), info=info, over=over)

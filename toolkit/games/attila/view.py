"""Attila in words and as a snapshot: every decision point's options said aloud, every position copied out.

:func:`describe` says what an option of a §5 decision point does, from the deciding seat's point of
view, and :func:`position` copies what the picture (``viz.draw``) shows out of the reference game
(``reference.Game``) into a frozen :class:`Position`.  Both only read the game.

Wording choices the spec leaves open (§5 names the decision points and orders their options, it does
not word them):

- Tribes by their names (§2: Franks, Goths, Saxons, Vandals, Teutons, Huns), the same word for a
  card and a figure ("a Goths card", "a Goths figure"); provinces by name and id, "Pannonia (PAN)".
- Action tiles by the names of §2: Double turn, +2 Influence, Card exchange; DP-1's ``proceed`` says
  what comes, "proceed to the play", or "proceed to the two plays" once Double turn is used this turn.
- A count vector (DP-3, DP-7) lists its tribes in id order with their counts: "2 Franks, 1 Huns".
- Consequences a player sees at the table are said too: the figure that brings a province to
  ``war_threshold`` ("its 5th figure: war"), the influence track's new value ("to 7"), support
  cards of a tribe not in the war ("count for nothing").  Nothing else is foretold.
- DP-7 options name only the deciding seat's own cards; no text names another hand, the deck or a
  card still to be drawn (an exchange says what goes, never what comes).

The position holds hidden information too (every hand, the deck's order, the support cards face
down in the war being resolved); the drawing decides what a seat may see.  The reference keeps those
face-down cards inside the war's rules, so :func:`position` counts them from the cards' conservation
(§7.2): every card not in the deck, the discard pile or a hand lies face down in the war.  Attila's
only chance is the shuffle; its outcome is the hands and the deck, so no separate chance event is kept.

Examples
--------
>>> import toolkit
>>> from toolkit.games.attila import reference, view
>>> ref = reference.new_game(toolkit.rules("attila", num_players=3), 1, 0, ("random",) * 3)
>>> ref.start()
>>> decision = ref.advance()
>>> view.DECISIONS[decision.kind]
'tile window'
>>> for option in decision.options:
...     print(view.describe(ref, decision, option))
use the Double turn tile
use the +2 Influence tile
use the Card exchange tile
proceed to the play
>>> view.position(ref, decision).hands[decision.seat] == tuple(ref.hands[decision.seat])
True
"""

from __future__ import annotations

import dataclasses

from toolkit.games.attila.reference import (
    DP_BONUS, DP_DISCARD, DP_EXCHANGE, DP_PLAY, DP_PLUS_TWO, DP_SUPPORT, DP_TILE, INFLUENCE, N_TRIBES, PROCEED,
)
from toolkit.games.attila.rules import TILES, TRIBES

# spec §5, the DP names of its table
DECISIONS = {DP_TILE: "tile window", DP_PLUS_TWO: "plus-two split", DP_EXCHANGE: "exchange set", DP_PLAY: "play",
             DP_DISCARD: "forced discard", DP_BONUS: "bonus", DP_SUPPORT: "support"}
TRIBE_NAMES = tuple(t.capitalize() for t in TRIBES)
TILE_NAMES = {"double_turn": "Double turn", "plus_two": "+2 Influence", "exchange": "Card exchange"}
CENTURIES = ("IV", "V", "VI", "VII")


@dataclasses.dataclass(frozen=True)
class Position:
    """What the picture of an Attila position shows, copied out of the game (tuples only).

    Provinces are indices in canonical order (``ids``), tribes are ids 0..5 (§2), seats 0..n-1.
    """

    map: str  # the ``map`` rule: the board is ``board.load_map(map)``
    ids: tuple  # province ids, canonical order
    names: tuple  # province names
    war_threshold: int
    influence_track_max: int
    turn: int  # turns played so far
    active: int  # the seat whose turn it is; -1 once the game is over
    century: int  # 0..3 = IV..VII
    rate: int  # influence per play in this century
    peace: tuple  # peace tiles left in the stacks of centuries IV..VII
    figures: tuple  # figures[x][t]: figures of tribe t in province x
    pacified: tuple  # pacified[x]: a peace tile lies on x
    supply: tuple  # supply[t]: figures of t not on the board
    influence: tuple  # influence[p][t]
    vp: tuple  # vp[p]
    hands: tuple  # hands[p][t]: cards of tribe t in seat p's hand (hidden but for the size)
    tiles: tuple  # tiles[p]: seat p's unused action tiles, in the order of rules.TILES
    deck: tuple  # the deck, top first (hidden but for its size)
    discard: tuple  # discard[t]: the face-up discard pile
    laid: tuple  # laid[t]: support cards face down in the war being resolved (hidden but for the total)
    pending: tuple  # provinces at war_threshold whose war is still to come (or was dropped), in order
    war: int  # the province of the war being resolved (DP-7), else -1
    seat: int = -1  # the deciding seat, -1 without a decision
    kind: int = 0  # its DP number (DECISIONS), 0 without a decision
    tribe: int = -1  # DP-6: the tribe just placed, else -1
    options: int = 0  # how many options the decision has
    game_over: bool = False
    end_reason: str = ""
    winners: tuple = ()

    @property
    def num_players(self) -> int:
        return len(self.vp)


def _province(game, x: int) -> str:
    return f"{game.board.names[x]} ({game.board.ids[x]})"


def _cards(counts) -> str:
    """A count vector in words: "2 Franks, 1 Huns"."""
    return ", ".join(f"{k} {TRIBE_NAMES[t]}" for t, k in enumerate(counts) if k)


def _war_note(game, x: int, placed: int = 1) -> str:
    """", its 5th figure: war" when ``placed`` more figures bring province x to war_threshold (A-2.2)."""
    after = sum(game.figures[x]) + placed
    if after != game.rules.war_threshold:
        return ""
    return f", its {after}{'rd' if after == 3 else 'th'} figure: war"  # war_threshold is 3..8


def _track(game, seat: int, t: int, gain: int) -> str:
    """The track of tribe t after ``gain`` (capped, A-3.2), and whether that is its last space."""
    cap = game.rules.influence_track_max
    after = min(cap, game.influence[seat][t] + gain)
    return f"to {after}, the last space" if after == cap else f"to {after}"


def describe(game, decision, option) -> str:
    """The words the deciding seat would say for ``option`` of ``decision`` at ``game`` (before it is applied).

    Examples
    --------
    "use the Double turn tile", "+1 influence on the Franks (to 3) and +1 on the Huns (to 1)",
    "exchange 3 cards: 2 Franks, 1 Huns", "play a Goths card: a figure to Pannonia (PAN), its 5th
    figure: war", "discard a Huns card (no legal play)", "take 2 influence on the Goths (to 7)",
    "lay 2 cards: 1 Goths, 1 Huns (the Huns count for nothing here)".
    """
    kind, seat = decision.kind, decision.seat
    if kind == DP_TILE:
        if option == PROCEED:
            doubled = ("double_turn", game.turns + 1) in game.tiles_used[seat]  # used in this turn's window
            return "proceed to the two plays" if doubled else "proceed to the play"
        return f"use the {TILE_NAMES[option]} tile"
    if kind == DP_PLUS_TWO:
        if len(option) == 1:
            t = option[0]
            return f"+2 influence on the {TRIBE_NAMES[t]} ({_track(game, seat, t, 2)})"
        t, u = option
        return (f"+1 influence on the {TRIBE_NAMES[t]} ({_track(game, seat, t, 1)}) "
                f"and +1 on the {TRIBE_NAMES[u]} ({_track(game, seat, u, 1)})")
    if kind == DP_EXCHANGE:
        n = sum(option)
        return f"exchange {n} card{'s' if n > 1 else ''}: {_cards(option)}"
    if kind == DP_PLAY:
        t, x = option
        return f"play a {TRIBE_NAMES[t]} card: a figure to {_province(game, x)}{_war_note(game, x)}"
    if kind == DP_DISCARD:
        return f"discard a {TRIBE_NAMES[option]} card (no legal play)"
    if kind == DP_BONUS:
        t = decision.info
        if option == INFLUENCE:
            rate = game.rules.influence_rate_per_century[game.century]
            return f"take {rate} influence on the {TRIBE_NAMES[t]} ({_track(game, seat, t, rate)})"
        return f"a second {TRIBE_NAMES[t]} figure to {_province(game, option)}{_war_note(game, option)}"
    if kind == DP_SUPPORT:
        n = sum(option)
        if n == 0:
            return "lay no card"
        x = decision.info
        idle = [TRIBE_NAMES[t] for t in range(N_TRIBES) if option[t] and game.figures[x][t] == 0]
        note = f" (the {' and '.join(idle)} count for nothing here)" if idle else ""
        return f"lay {n} card{'s' if n > 1 else ''}: {_cards(option)}{note}"
    raise ValueError(f"decision kind {kind!r} is not an Attila decision point (1..7)")


def position(game, decision=None) -> Position:
    """A snapshot of ``game`` (a reference ``Game``) for the picture, with ``decision``'s facts when given.

    Examples
    --------
    >>> import toolkit
    >>> from toolkit.games.attila import reference
    >>> game = reference.play_game(toolkit.rules("attila", num_players=2), 3, 0)
    >>> pos = position(game)
    >>> pos.game_over, pos.active, pos.vp == tuple(game.vp)
    (True, -1, True)
    """
    rules, board = game.rules, game.board
    in_war = decision is not None and decision.kind == DP_SUPPORT
    laid = tuple(rules.cards_per_tribe - game.deck.count(t) - game.discard[t] - sum(h[t] for h in game.hands)
                 for t in range(N_TRIBES))
    return Position(
        map=rules.map, ids=tuple(board.ids), names=tuple(board.names), war_threshold=rules.war_threshold,
        influence_track_max=rules.influence_track_max, turn=game.turns,
        # the turns go round from the start player (reference.game_steps), one seat per turn played
        active=-1 if game.game_over else (game.start_player + game.turns) % game.n,
        century=game.century, rate=rules.influence_rate_per_century[game.century], peace=tuple(game.peace),
        figures=tuple(tuple(row) for row in game.figures), pacified=tuple(game.pacified),
        supply=tuple(game.supply), influence=tuple(tuple(row) for row in game.influence), vp=tuple(game.vp),
        hands=tuple(tuple(h) for h in game.hands),
        tiles=tuple(tuple(tile for tile in TILES if tile in owned) for owned in game.tiles),
        deck=tuple(game.deck), discard=tuple(game.discard), laid=laid,
        pending=tuple(x for x in game.pending if not game.pacified[x] and not (in_war and x == decision.info)),
        war=decision.info if in_war else -1,
        seat=-1 if decision is None else decision.seat, kind=0 if decision is None else decision.kind,
        tribe=decision.info if decision is not None and decision.kind == DP_BONUS else -1,
        options=0 if decision is None else len(decision.options),
        game_over=game.game_over, end_reason=game.end_reason,
        winners=tuple(game.winners()) if game.game_over else ())

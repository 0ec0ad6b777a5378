"""Walhalla rules: every parameter of the spec's §9.2, the presets of §9.1.

Representations and ranges the spec leaves open (decided here, the cross-field
ones checked in :meth:`Rules.validate`):

- ``peninsula_tiles`` is ``a,b,c`` (tiles of P0, P1, P2), each 5..8 with
  ``a + b + c <= 18`` (the 18 tiles), or the word ``draw_18`` (W-2.1);
- ``raids`` 1..5 (the spec's range); ``vikings_per_colour`` 2..40;
- ``start_midgard`` 1..39, by default 9 with 3 players and 7 with 4; the
  Viking that starts in Walhalla must exist: ``start_midgard + 1 <=
  vikings_per_colour`` when it comes from Asgard, ``start_midgard <=
  vikings_per_colour`` when it comes from Midgard (which then starts with
  ``start_midgard - 1``);
- ``initial_action_cards`` 0..10, and the opening deal must fit the deck:
  ``num_players * initial_action_cards <= total of action_deck``;
- ``action_deck`` is ``axe:8,shield:6,...``, each count 0..40, total at least
  1; card types left out keep their default (the packaged ``walhalla_action_cards.json``);
- ``reinforcement_table`` is one list of ``num_players`` ints 0..40 (Vikings
  for the 1st, 2nd, ... rank); its default follows the player count
  ({3: 10,9,8; 4: 8,7,6,5}) and a list of another length is refused;
- ``walhalla_final_vp`` is ``first,second``, each 0..30 (second above first
  is allowed: nothing breaks);
- ``forest_vp``, ``village_bonus``, ``horn_strength``, ``plunder_vp``,
  ``walhalla_card_bonus`` and ``final_vp_per_occupied_field`` 0..10;
  ``cult_cards`` 0..5;
- ``peninsula_eligibility_min_vikings`` 1..16 (a peninsula has at most 16
  fields; 0 would make a player with no Viking there eligible, refused).

The tile set, dragon set and card types are fixed (§2.1-§2.3, :mod:`data`);
``Rules.tiles``, ``.dragons`` and ``.cards`` give them.
"""

from __future__ import annotations

import dataclasses

from toolkit.core.params import (
    Bool, ByPlayers, Choice, FrozenMap, Int, IntList, Mapping_, RulesBase, When, param,
)
from toolkit.games.walhalla.data import CARD_TYPES, N_TILES, load_action_cards, load_dragons, load_tiles

DRAW_18 = "draw_18"
# the physical 18-tile combinations ``draw_18`` picks from, each with probability 1/3 (W-2.1)
DRAW_18_COMBINATIONS = ((5, 5, 8), (5, 6, 7), (6, 6, 6))
DEFAULT_ACTION_DECK = FrozenMap(load_action_cards().deck)


def _in_deck(card: str, words: str) -> When:
    """The condition of a rule about one card type: the action deck holds that card."""
    return When("action_deck", lambda deck: deck[card] > 0, f"while the action deck holds {words}")


@dataclasses.dataclass(frozen=True)
class Rules(RulesBase):
    """Walhalla rule values (spec ``docs/rules/walhalla.md`` §9.2)."""

    GAME = "walhalla"
    RULES_VERSION = 1
    PRESETS = {
        "standard": {"peninsula_tiles": (6, 6, 6)},
        "variable": {"peninsula_tiles": DRAW_18},
    }

    num_players: int = param(4, Int(3, 4), "Players (W-2.4)", "[seed]", group="set-up")
    peninsula_tiles: object = param((6, 6, 6), IntList(5, 8, length=3, named=(DRAW_18,)),
                                    "Tiles of P0, P1, P2 (sum <= 18), or all 18 drawn at random (W-2.1)",
                                    "[seed] / [src:W6] / [design]", group="set-up")
    raids: int = param(3, Int(1, 5), "Raids in a game (W-3)", "[seed]", group="set-up")
    vikings_per_colour: int = param(14, Int(2, 40), "Vikings of each colour (W-2.5)", "[src:W3] (56 / 4)",
                                    group="set-up")
    start_midgard: int = param(ByPlayers({3: 9, 4: 7}), Int(1, 39), "Vikings each player puts into Midgard "
                               "(W-2.5)", "[seed]", group="set-up")
    initial_walhalla_source: str = param("asgard", Choice(("asgard", "midgard"), ("Asgard", "Midgard")),
                                         "Where the Viking that starts in Walhalla comes from (W-2.5)",
                                         "[seed] (midgard = [src:W3,W6])", group="set-up")
    initial_action_cards: int = param(1, Int(0, 10), "Action cards each player draws at setup (W-2.6)", "[seed]",
                                      group="set-up")
    forest_vp: int = param(2, Int(0, 10), "VP for occupying a forest (W-5.4)", "[src:W7]", group="raids")
    cult_cards: int = param(1, Int(0, 5), "Action cards drawn for occupying a cult place (W-5.4)",
                            "[src:W7,W8]", group="raids")
    village_bonus: int = param(1, Int(0, 10), "Peninsula strength per occupied village (W-8.1)", "[design]",
                               group="scoring")
    landing_mandatory: bool = param(True, Bool(), "A Viking with a candidate field must land (W-5.3)",
                                    "[seed] / [design]", group="raids")
    winner_loses_hero: bool = param(True, Bool(), "A fight's winner moves one Viking from Walhalla to Asgard "
                                    "(W-6.5)", "[src:W9,W10]", group="raids")
    action_deck: FrozenMap = param(DEFAULT_ACTION_DECK, Mapping_(CARD_TYPES, Int(0, 40), complete=False),
                                   "Cards of each type in the action deck (§2.3)", "[design] (total 32 [src:W3])",
                                   group="action cards")
    horn_strength: int = param(2, Int(0, 10), "Strength a Battle Horn adds on its peninsula (W-7.2)", "[design]",
                               group="action cards", applies=_in_deck("horn", "a Battle Horn"))
    plunder_vp: int = param(2, Int(0, 10), "VP a Plunder card gives (W-7.2)", "[design]", group="action cards",
                            applies=_in_deck("plunder", "a Plunder card"))
    walhalla_card_bonus: int = param(2, Int(0, 10), "Walhalla count a Walhalla card adds for the reinforcement "
                                     "ranking (W-10.1)", "[design]", group="reinforcement",
                                     applies=_in_deck("walhalla", "a Walhalla card"))
    sell_cards_for_vikings: bool = param(True, Bool(), "Action cards may be sold 1:1 for Vikings from Asgard "
                                         "(W-10.4)", "[src:W12] / [design]", group="reinforcement")
    reinforcement_table: tuple = param(ByPlayers({3: (10, 9, 8), 4: (8, 7, 6, 5)}), IntList(0, 40),
                                       "Vikings from Asgard to Midgard by Walhalla rank, one per player "
                                       "(W-10.3)", "[seed] (1st) / [design]", group="reinforcement")
    walhalla_final_vp: tuple = param((6, 4), IntList(0, 30, length=2),
                                     "VP for the most and second most Vikings in Walhalla (W-9.3)", "[seed]",
                                     group="scoring")
    final_vp_per_occupied_field: int = param(1, Int(0, 10), "VP per occupied field at the end (W-9.2)",
                                             "[seed]", group="scoring")
    tie_rounding: str = param("up", Choice(("up", "down")), "Rounding of shared VP (W-8.3, W-9.3)", "[seed]",
                              group="scoring")
    peninsula_eligibility_min_vikings: int = param(1, Int(1, 16), "Vikings on a peninsula needed to score it "
                                                   "(W-8.2)", "[design]", group="scoring")
    start_player: str = param("random", Choice(("random", "seat0"),
                                                ("at random", "seat 0")), "Who starts the first raid (W-2.8)",
                              "[design]", group="set-up")
    tiebreak: str = param("shared", Choice(("shared", "walhalla_then_fields"),
                                            ("shared", "most Vikings in Walhalla, then most fields, then shared")),
                          "How a VP tie is settled "
                          "(W-9.4)", "[design]", group="scoring")

    def validate(self) -> None:
        if self.peninsula_tiles != DRAW_18 and sum(self.peninsula_tiles) > N_TILES:
            raise ValueError(
                f"peninsula_tiles={','.join(map(str, self.peninsula_tiles))} is not allowed: the three lengths "
                f"must sum to at most {N_TILES}, the number of tiles (they sum to {sum(self.peninsula_tiles)})")
        needed = self.start_midgard + (1 if self.initial_walhalla_source == "asgard" else 0)
        if needed > self.vikings_per_colour:
            most = self.vikings_per_colour - (needed - self.start_midgard)
            raise ValueError(
                f"start_midgard={self.start_midgard} is not allowed with vikings_per_colour="
                f"{self.vikings_per_colour} and initial_walhalla_source={self.initial_walhalla_source!r}: "
                f"at most {most} (one Viking of the colour starts in Walhalla)")
        if len(self.reinforcement_table) != self.num_players:
            raise ValueError(
                f"reinforcement_table={','.join(map(str, self.reinforcement_table))} is not allowed with "
                f"num_players={self.num_players}: a list of {self.num_players} integers in 0..40, one per rank")
        deck = sum(self.action_deck.values())
        shown = ",".join(f"{k}:{v}" for k, v in self.action_deck.items())
        if deck < 1:
            raise ValueError(f"action_deck={shown} is not allowed: the deck must hold at least 1 card")
        if self.num_players * self.initial_action_cards > deck:
            raise ValueError(
                f"initial_action_cards={self.initial_action_cards} is not allowed with num_players="
                f"{self.num_players} and action_deck={shown}: the deck ({deck} cards) must hold every "
                f"starting hand, so at most {deck // self.num_players}")

    @property
    def tiles(self):
        """The land tiles (§2.1), :class:`data.TileSet`."""
        return load_tiles()

    @property
    def dragons(self):
        """The dragons (§2.2), :class:`data.DragonSet`."""
        return load_dragons()

    @property
    def cards(self):
        """The action card types (§2.3), :class:`data.ActionCards` (counts in play: ``action_deck``)."""
        return load_action_cards()

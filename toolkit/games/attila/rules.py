"""Attila rules: every parameter of the spec's §9.2, the preset of §9.1.

Ranges the spec leaves open (decided here):

- ``cards_per_tribe`` 1..30 and ``figures_per_tribe`` 1..60; the deal must be
  possible: ``6 * cards_per_tribe >= num_players * hand_size``;
- ``peace_tiles_per_century`` four ints 1..20; ``influence_rate_per_century``
  four ints 0..22; ``influence_track_max`` 1..100;
- ``two_player_second_place_gap`` is ``none`` or 0..100; its default is 2 with
  two players and ``none`` otherwise (the rule applies only to 2 players);
- ``max_turns`` 1..1,000,000;
- ``map`` is a path to a JSON map, or the name of a file shipped in ``toolkit/games/attila/data/``; it is
  loaded and checked (``board.load_map``) when the rules are built.

Two variants a designer would try against the first player's edge are not in the spec; they are the
toolkit's [design: variant], off by default, so every preset plays the spec exactly
(``docs/rules/attila_variants.md``):

- ``finish_round``: the end of the game (the last peace tile, the track end) waits for the round to
  finish, so that every player has had as many turns as the start player;
- ``later_seat_vp``: the player k places after the start player starts with k x that many VP.
"""

from __future__ import annotations

import dataclasses

from toolkit.core import datafiles
from toolkit.core.params import (
    Bool, ByPlayers, Choice, DataFile, Int, IntList, Optional, RulesBase, When, param,
)
from toolkit.games.attila.board import DEFAULT_MAP, PACKAGE, load_map

TRIBES = ("franks", "goths", "saxons", "vandals", "teutons", "huns")
TILES = ("double_turn", "plus_two", "exchange")


@dataclasses.dataclass(frozen=True)
class Rules(RulesBase):
    """Attila rule values (spec ``docs/rules/attila.md`` §9.2)."""

    GAME = "attila"
    RULES_VERSION = 1
    PRESETS = {"standard": {}}

    num_players: int = param(4, Int(2, 5), "Players (A-1)", "[seed]", group="set-up")
    hand_size: int = param(6, Int(3, 10), "Cards in hand (A-1.3, A-3.5)", "[seed][src:A2]", group="set-up")
    cards_per_tribe: int = param(9, Int(1, 30), "Cards of each of the 6 tribes (A-1.3)", "[seed]", group="set-up")
    figures_per_tribe: int = param(20, Int(1, 60), "Figures of each tribe (A-2.3)", "[seed]", group="set-up")
    war_threshold: int = param(5, Int(3, 8), "Figures in a province that start a war (A-2.2)", "[seed]", group="wars")
    peace_tiles_per_century: tuple = param((1, 2, 3, 4), IntList(1, 20, length=4),
                                           "Peace tiles of centuries IV..VII (A-4.5)", "[seed][src:A2]", group="wars")
    influence_rate_per_century: tuple = param((1, 2, 3, 4), IntList(0, 22, length=4),
                                              "Influence a play gives in centuries IV..VII (A-3.2)", "[seed]",
                                              group="influence")
    influence_track_max: int = param(22, Int(1, 100), "Last space of an influence track", "[src:A10]",
                                     group="influence")
    end_on_track_max: bool = param(True, Bool(), "Reaching the last space ends the game (A-3.4)", "[seed]",
                                   group="influence")
    second_figure_option: bool = param(True, Bool(), "A play may place a second figure instead of influence "
                                       "(A-3.2.2)", "[src:A3,A5,A8,A9]", group="turn")
    support_any_tribe: bool = param(True, Bool(), "Support cards of any tribe may be laid (A-4.2)",
                                    "[seed] (false = [src:A3])", group="wars")
    war_tie_removes_all_weakest: bool = param(True, Bool(), "Tied weakest tribes all leave (A-4.4)",
                                              "[src:A11,A12]", group="wars")
    single_tribe_war_removes: bool = param(False, Bool(), "A war of one tribe removes it (A-4.4)", "[design]",
                                           group="wars")
    max_tiles_per_turn: int = param(3, Int(1, 3), "Action tiles usable in one turn (A-3.1)", "[seed]", group="turn")
    tie_rounding: str = param("down", Choice(("down", "up")), "Rounding of shared VP (A-5.4)", "[seed]",
                              group="scoring")
    two_player_second_place_gap: int = param(ByPlayers({2: 2, 3: None, 4: None, 5: None}), Optional(Int(0, 100)),
                                             "2 players: second place scores only within this gap (A-5.3)",
                                             "[src:A14]", group="scoring",
                                             applies=When("num_players", 2, "while there are 2 players"))
    initiator_skips_refill_after_war: bool = param(False, Bool(), "A player who starts a war does not refill "
                                                   "that turn (A-3.5)", "[design]", group="turn")
    map: str = param(DEFAULT_MAP, DataFile(shipped=tuple(datafiles.packaged_names(PACKAGE))), "The map file (§2.1)",
                     "[design]", group="set-up")
    start_player: str = param("random", Choice(("random", "seat0"),
                                                ("at random", "seat 0")),
                              "Who takes the first turn (A-1.5)", "[design]",
                              group="set-up")
    tiebreak: str = param("shared", Choice(("shared", "influence_sum"),
                                            ("shared", "most influence, then shared")),
                          "How a VP tie is settled (A-7)", "[design]",
                          group="scoring")
    max_turns: int = param(10_000, Int(1, 1_000_000), "Safety cap on turns (A-3.7)", "[design]", group="end")
    finish_round: bool = param(False, Bool(), "The end (last peace tile, track end) waits for the round to finish: "
                               "every player has as many turns as the start player (variant 1)",
                               "[design: variant]", group="end")
    later_seat_vp: int = param(0, Int(0, 20), "The player k places after the start player starts with k x this "
                               "many VP (variant 2)", "[design: variant]", group="set-up")

    def validate(self) -> None:
        if 6 * self.cards_per_tribe < self.num_players * self.hand_size:
            raise ValueError(
                f"cards_per_tribe={self.cards_per_tribe} is not allowed with num_players={self.num_players} and "
                f"hand_size={self.hand_size}: the deck (6 * cards_per_tribe cards) must hold every starting hand")
        load_map(self.map)  # raises ValueError naming map=...

    @property
    def board(self):
        return load_map(self.map)

"""Valhalla rules: every parameter of the spec's §9.2, the presets of §9.1.

Ranges the spec leaves open (decided here, checked in :meth:`Rules.validate`):

- ``rock_square`` in 2..35 and ``dock_square`` in 1..34, distinct (the dock
  release goes to ``dock_square + 1``, which must be on the track); with
  ``setup = alternating_blocks`` the rock must lie beyond square 13, the last
  square the opening touches.
- ``blockade_zone`` is written ``first,last`` (default ``25,35``), within 1..35.
- ``protected_run_lengths`` are ints in 1..35.
- ``max_turns`` in 1..1,000,000.
"""

from __future__ import annotations

import dataclasses

from toolkit.core.params import (
    Bool, Choice, ChoiceSet, Float, Int, IntList, IntSet, RulesBase, When, param,
)

EXTRA_THROW_CLASSES = ("natural_one", "unnatural_one", "2", "3", "4", "5", "6")
EXTRA_THROW_WORDS = ("natural 1", "unnatural 1", "2", "3", "4", "5", "6")


@dataclasses.dataclass(frozen=True)
class Rules(RulesBase):
    """Valhalla rule values (spec ``docs/rules/valhalla.md`` §9.2)."""

    GAME = "valhalla"
    RULES_VERSION = 1
    PRESETS = {
        "standard": {},
        "alternative": {
            "throw_mode": "simplified",
            "setup": "alternating_blocks",
            "extra_throw_enabled": True,
        },
    }

    throw_mode: str = param("runes", Choice(("runes", "simplified")),
                            "How the four sticks are valued (§3.2 runes, §3.3 simplified)", "[seed]", group="throws")
    stick_rune_up_probability: float = param(
        0.5, Float(0.0, 1.0, low_open=True, high_open=True),
        "Probability that one stick lands rune-up", "[design]", group="throws")
    zero_runes_value: int = param(5, Int(1, 6), "Value of a throw with no rune up", "[seed]/[inf]", group="throws")
    hagalaz_alone_value: int = param(0, Choice((0, -1)),
                                     "Value of Hagalaz alone in runes mode (-1 = one square back)", "[design]",
                                     group="throws", applies=("throw_mode", "runes"))
    ships_per_player: int = param(6, Int(1, 6), "Ships per player", "[seed]", group="set-up")
    setup: str = param("empty_board", Choice(("empty_board", "alternating_blocks"),
                                              ("empty board", "ships in alternating blocks")),
                       "Starting position (V-3.1)", "[seed]", group="set-up")
    start_player_rule: str = param("first_natural_one",
                                   Choice(("first_natural_one", "random", "seat0"),
                                          ("the first to throw a natural one", "at random", "seat 0")),
                                   "How the start player is found (V-3.2)", "[seed]/[design]", group="set-up")
    safe_squares: frozenset = param(frozenset({1, 2, 3, 4, 5, 29, 32, 34}), IntSet(1, 35),
                                    "Squares whose ships cannot be attacked (V-6.1)", "[seed]", group="special squares")
    rock_square: int = param(30, Int(2, 35), "The rocky coast (V-6.3)", "[seed]", group="special squares")
    dock_square: int = param(19, Int(1, 34), "The dock / repair yard (V-6.2)", "[seed]", group="special squares")
    dock_release: str = param("natural_one", Choice(("natural_one", "any_one"), ("a natural one", "any 1")),
                              "Throw that releases a repairing ship (V-5.3)", "[seed]", group="special squares")
    repairing_ship_protected: bool = param(True, Bool(), "A repairing ship cannot be attacked", "[design]",
                                           group="special squares")
    blockade_zone: tuple = param((25, 35), IntList(1, 35, length=2),
                                 "First and last square where blockade runs protect (V-6.4c)", "[seed]/[inf]",
                                 group="blockades")
    protected_run_lengths: frozenset = param(frozenset({2, 4, 6}), IntSet(1, 35),
                                             "Run lengths that protect (V-6.4c)", "[seed]/[design]", group="blockades")
    blockade_blocks_passage: bool = param(False, Bool(), "Protected runs cannot be passed (V-5.8)", "[design]",
                                          group="blockades")
    backward_rule: str = param("full_throw", Choice(("full_throw", "one_square", "none"),
                                                     ("the whole throw", "one square", "no backward moves")),
                               "Distance of a forced backward move (V-5.5)", "[seed]/[design]", group="moves")
    backward_attacks_allowed: bool = param(True, Bool(), "A backward move may attack", "[design]", group="moves",
                                           applies=When("backward_rule", lambda v: v != "none",
                                                        "while backward moves are allowed"))
    blocked_entry_forfeits_turn: bool = param(False, Bool(),
                                              "A blocked entry square forfeits the throw (V-5.6)", "[design]",
                                              group="moves")
    valhalla_entry: str = param("exact_or_over",
                                Choice(("exact_or_over", "exact", "direct_off"),
                                       ("stops on square 36", "not allowed: exact throws only", "straight off the board")),
                                "What an overshoot of square 36 does (V-5.2)", "[design]", group="bearing off")
    bear_off_gate: str = param("every_bear_off", Choice(("every_bear_off", "first_only", "none"),
                                                         ("at every bear-off", "at the first bear-off only", "never")),
                               "When the first-row gate applies (V-7)", "[seed]/[design]", group="bearing off")
    unentered_count_as_row1: bool = param(True, Bool(), "Ships at home close the gate (V-7)", "[design]",
                                          group="bearing off",
                                          applies=When("bear_off_gate", lambda v: v != "none",
                                                       "while there is a first-row gate"))
    extra_throw_enabled: bool = param(False, Bool(), "Extra throws exist (V-4.5)", "[seed]", group="throws")
    extra_throw_values: tuple = param(("natural_one", "4", "5"), ChoiceSet(EXTRA_THROW_CLASSES, EXTRA_THROW_WORDS),
                                      "Throw classes that grant an extra throw", "[seed]", group="throws",
                                      applies=("extra_throw_enabled", True))
    extra_throw_optional: bool = param(True, Bool(), "The player may decline an extra throw (DP-2)", "[seed]",
                                       group="throws", applies=("extra_throw_enabled", True))
    max_turns: int = param(10_000, Int(1, 1_000_000), "Safety cap on turns (V-8)", "[design]", group="end")

    def validate(self) -> None:
        if self.setup == "alternating_blocks" and self.ships_per_player != 6:
            raise ValueError(
                f"ships_per_player={self.ships_per_player} is not allowed with setup=alternating_blocks: "
                "it needs 6 ships per player")
        if self.rock_square == self.dock_square:
            raise ValueError(
                f"rock_square={self.rock_square} is not allowed: it must differ from dock_square={self.dock_square}")
        if self.setup == "alternating_blocks" and self.rock_square <= 13:
            raise ValueError(
                f"rock_square={self.rock_square} is not allowed with setup=alternating_blocks: "
                "it must be in 14..35 (squares 1..13 are taken at the start)")
        first, last = self.blockade_zone
        if first > last:
            raise ValueError(f"blockade_zone={first},{last} is not allowed: first must be <= last")

"""Halali rules: every parameter of the spec's §9.2, the preset of §9.1.

Representations and ranges the spec leaves open (decided here):

- ``ranges`` are ints 0..7 per kind; 7 means unlimited (no move on a 7x7
  board, exits included, is longer than 7 squares);
- ``tile_counts`` are ints 0..48 per kind summing to 48 (the 48 squares
  around the empty centre); ``points`` are ints -100..100;
- ``capture_matrix`` maps each kind to the set of kinds it may capture;
- ``exit_squares`` is a set of ``square:direction`` pairs, each an edge
  square with its outward direction (``d7:N,g4:E,d1:S,a4:W``); a corner has
  two outward directions;
- ``end_phase_moves`` in 1..100, ``progress_limit`` in 0..10,000.
"""

from __future__ import annotations

import dataclasses

from toolkit.core.params import Bool, Choice, ChoiceSet, FrozenMap, Int, Mapping_, RulesBase, When, param
from toolkit.games.halali.layout import KINDS  # the tile kinds, in the kernel's order (the result columns)

BEAR, FOX, LUMBERJACK, HUNTER, PHEASANT, DUCK, TREE = range(7)
BLUE, BROWN = 0, 1
COLOUR_OF_KIND = (BLUE, BLUE, BROWN, BROWN, -1, -1, -2)  # -1 neutral (either player), -2 nobody
DIRECTIONS = ("N", "E", "S", "W")
UNLIMITED = 7


def square_name(s: int) -> str:
    return "abcdefg"[s % 7] + str(s // 7 + 1)


def _edge_exits():
    out = []
    for s in range(49):
        x, y = s % 7, s // 7
        for d, ok in zip(DIRECTIONS, (y == 6, x == 6, y == 0, x == 0)):
            if ok:
                out.append(f"{square_name(s)}:{d}")
    return tuple(out)


EXIT_CHOICES = _edge_exits()

DEFAULT_COUNTS = FrozenMap(zip(KINDS, (2, 6, 2, 8, 8, 7, 15)))
DEFAULT_POINTS = FrozenMap(zip(KINDS, (10, 5, 5, 5, 3, 2, 2)))
DEFAULT_RANGES = FrozenMap(zip(KINDS, (1, UNLIMITED, 1, UNLIMITED, UNLIMITED, UNLIMITED, 0)))
DEFAULT_CAPTURES = FrozenMap(zip(KINDS, (("lumberjack", "hunter"), ("pheasant", "duck"), ("tree",),
                                         ("bear", "fox", "pheasant", "duck"), (), (), ())))


HAS_EXITS = When("exit_squares", bool, "while the board has an exit square")  # the exit rules matter only then


@dataclasses.dataclass(frozen=True)
class Rules(RulesBase):
    """Halali rule values (spec ``docs/rules/halali.md`` §9.2)."""

    GAME = "halali"
    RULES_VERSION = 1
    PRESETS = {"standard": {}}

    tile_counts: FrozenMap = param(DEFAULT_COUNTS, Mapping_(KINDS, Int(0, 48), complete=False), "Tiles of each kind (§2.3)",
                                   "[seed]", group="set-up")
    points: FrozenMap = param(DEFAULT_POINTS, Mapping_(KINDS, Int(-100, 100), complete=False), "Points of each kind (H-6)",
                              "[seed]", group="scoring")
    ranges: FrozenMap = param(DEFAULT_RANGES, Mapping_(KINDS, Int(0, UNLIMITED), complete=False),
                              "Squares a kind may move (7 = unlimited) (H-3.2)", "[seed][src:H1,H5]",
                              group="moves and captures")
    capture_matrix: FrozenMap = param(DEFAULT_CAPTURES, Mapping_(KINDS, ChoiceSet(KINDS), complete=False),
                                      "Kinds each kind captures (H-3.4)", "[seed]", group="moves and captures")
    hunter_direction_restricted_capture: bool = param(True, Bool(), "Hunters capture only along their gun (H-3.4)",
                                                      "[seed]", group="moves and captures")
    hunter_free_movement_direction: bool = param(True, Bool(), "Hunters move to empty squares in any direction "
                                                 "(H-3.3)", "[src:H2]", group="moves and captures")
    first_player: str = param("blue", Choice(("blue", "brown", "random")), "Who moves first (H-1.4)", "[seed]",
                              group="set-up")
    no_return_rule: bool = param(True, Bool(), "No moving an own tile back at once (H-3.5)", "[src:H1,H2]",
                                 group="moves and captures")
    no_return_applies_to_neutrals: bool = param(False, Bool(), "The no-return rule covers ducks and pheasants",
                                                "[design]", group="moves and captures",
                                                applies=("no_return_rule", True))
    neutral_lock: str = param("reveal_or_move", Choice(("reveal_or_move", "reveal_only", "off"),
                                                        ("after a reveal or a move", "after a reveal only", "off")),
                              "A revealed or moved duck/pheasant is locked for the opponent (H-3.6)",
                              "[seed][src:H2]", group="moves and captures")
    locked_neutral_capturable: bool = param(True, Bool(), "The locked tile may still be captured (H-3.6)",
                                            "[design]", group="moves and captures",
                                            applies=When("neutral_lock", lambda v: v != "off",
                                                         "while neutral_lock is not off"))
    forced_capture: bool = param(False, Bool(), "A legal capture must be taken (H-2)", "[src:H2]",
                                 group="moves and captures")
    end_phase_moves: int = param(5, Int(1, 100), "Actions per player after the last reveal (H-4)", "[seed]",
                                 group="end phase and exits")
    exit_squares: tuple = param(("d7:N", "g4:E", "d1:S", "a4:W"), ChoiceSet(EXIT_CHOICES),
                                "Exit squares and their outward directions (H-3.7)", "[design]",
                                group="end phase and exits")
    exits_only_in_end_phase: bool = param(True, Bool(), "Exits only after the last reveal (H-3.7)", "[seed]",
                                          group="end phase and exits", applies=HAS_EXITS)
    rescue_neutrals: bool = param(False, Bool(), "Ducks and pheasants may exit too (H-3.7)", "[seed][src:H3]",
                                  group="end phase and exits", applies=HAS_EXITS)
    early_end_no_own_tiles: bool = param(True, Bool(), "The game ends when a player has no own tile left (H-5)",
                                         "[seed]", group="end")
    tiebreak: str = param("most_tiles_then_draw", Choice(("most_tiles_then_draw", "draw"),
                                                          ("most tiles, then a draw", "a draw")),
                          "How a tied score is settled (H-6.3)", "[seed]/[design]", group="scoring")
    match_games: int = param(1, Choice((1, 2),
                                        ("1 game", "2 games: a return game")),
                             "Games per match; 2 = a return game with colours swapped (H-8)",
                             "[seed]/[design]", group="end")
    progress_limit: int = param(60, Int(0, 10_000), "Non-progress actions before a reveal is forced; 0 = off "
                                "(H-2)", "[design]", group="end")

    def validate(self) -> None:
        total = sum(self.tile_counts.values())
        if total != 48:
            raise ValueError(
                f"tile_counts={','.join(f'{k}:{v}' for k, v in self.tile_counts.items())} is not allowed: "
                f"the counts must sum to 48 (they sum to {total})")

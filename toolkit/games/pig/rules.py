"""Pig rules: every parameter of the spec's §9.2 (``docs/rules/pig.md``), the presets of §9.1.

The declarations are all a game's rules need: validation, the CLI's ``--set``, the rules panel's
controls and the JSON form are made from them (``toolkit.core.params``).
"""

from __future__ import annotations

import dataclasses

from toolkit.core.params import Choice, Int, RulesBase, param


@dataclasses.dataclass(frozen=True)
class Rules(RulesBase):
    """Pig rule values (spec ``docs/rules/pig.md`` §9.2)."""

    GAME = "pig"
    RULES_VERSION = 1
    PRESETS = {"standard": {}, "quick": {"target": 50}}

    target: int = param(100, Int(10, 1000), "Banked score that wins (P-5.1)", "[src:P1]", group="goal")
    die_sides: int = param(6, Int(2, 20), "Faces of the die, a 1 busts (§2)", "[src:P1]/[design]", group="die")
    start_player: str = param("random", Choice(("random", "seat0"),
                                                ("at random", "seat 0")), "Who takes the first turn (P-2)",
                              "[design]", group="set-up")
    second_player_bonus: int = param(0, Int(0, 50), "Points the second seat starts with (P-1.2)", "[design]",
                                     group="set-up")

    def validate(self) -> None:
        if self.second_player_bonus >= self.target:
            raise ValueError(f"second_player_bonus={self.second_player_bonus} is not allowed: it must be below "
                             f"target={self.target} (a seat must not start at the winning score)")

"""Tiny's rules: every parameter of its spec's §9 (``RULES.md`` beside this file), the presets of §9."""

from __future__ import annotations

import dataclasses

from toolkit.core.params import Choice, Int, RulesBase, param

from tiny.layout import MAX_SIDES, MAX_TRACK


@dataclasses.dataclass(frozen=True)
class Rules(RulesBase):
    """Tiny rule values (``RULES.md`` §9)."""

    GAME = "tiny"
    RULES_VERSION = 1
    PRESETS = {"standard": {}, "short": {"track": 6, "die_sides": 4, "rounds": 2}}

    track: int = param(9, Int(3, MAX_TRACK), "Squares from the start to home (§2)", "[design]", group="track")
    die_sides: int = param(6, Int(2, MAX_SIDES), "Faces of the die (§2, T-2)", "[design]", group="track")
    rounds: int = param(4, Int(1, 6), "Turns of each seat before the end (T-4.2)", "[design]", group="end")
    draw_margin: int = param(1, Int(0, 3), "A lead of at most this many squares at the end is a draw (T-4.2)",
                             "[design]", group="end")
    start_player: str = param("random", Choice(("random", "seat0"), ("at random", "seat 0")),
                              "Who takes the first turn (T-1.2)", "[design]", group="set-up")

    def validate(self) -> None:
        if self.draw_margin >= self.track:
            raise ValueError(f"draw_margin={self.draw_margin} is not allowed: it must be below track={self.track} "
                             "(a pawn home must win)")

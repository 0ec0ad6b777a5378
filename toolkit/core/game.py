"""What the core needs to know about a game: :class:`GameSpec`.

Each game package builds one ``SPEC`` and ``toolkit.games.GAMES`` lists them.
The runner, the CLI, the widgets and the report only talk to games through
this object, so a new game plugs in by filling it in.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable


@dataclasses.dataclass(frozen=True)
class GameSpec:
    name: str
    title: str
    description: str
    Rules: type
    policies: tuple  # policy names, the first is "random"
    default_policies: Callable  # rules -> tuple of policy names (the report's choice)
    seats: Callable  # rules -> number of seats
    columns: tuple  # kernel result columns, in order
    prepare: Callable  # (rules, policies) -> tuple of kernel arguments before (seed, first_game, out, ...)
    play_many: Any  # the parallel njit driver
    play_reference: Callable  # (rules, seed, game_index, policies) -> dict row (same columns)
    odds: Callable  # rules -> DataFrame of exact numbers
    categories: dict = dataclasses.field(default_factory=dict)  # column -> labels of its codes
    histogram_columns: tuple = ("turns", "plies")
    turn_word: str = "one player's turn"  # what a turn is (spec §6), for labels
    policy_parser: Callable | None = None  # name -> raises ValueError if unknown; for names with arguments
    columns_for: Callable | None = None  # rules -> the columns a frame shows (seats beyond the player count dropped)
    # (column getter) -> array of the seat that moved first in each game; turns then follow seat order
    first_mover: Callable | None = None
    # (frame, rules, policies) -> {quantity: value}: the rows of ``odds`` that a run's records also
    # measure, or a replay of its deals (``toolkit.core.deals``), shown beside the exact ones by the dashboard
    simulated_odds: Callable | None = None
    panel_games: int = 20_000  # games per run of the dashboard: about a second on two cores

    def result_columns(self, rules) -> tuple:
        """The columns of a result frame for these rules: ``columns``, less those of absent seats."""
        return tuple(self.columns) if self.columns_for is None else tuple(self.columns_for(rules))

    def check_policy_name(self, name: str) -> None:
        """Raise ``ValueError`` unless ``name`` is one of the game's policies
        (``lookahead:16`` style arguments are checked by ``policy_parser``)."""
        if self.policy_parser is not None:
            self.policy_parser(name)
        elif name not in self.policies:
            raise ValueError(f"policy={name!r} is not allowed: one of {', '.join(self.policies)}")

    def check_policies(self, policies, rules) -> tuple:
        """Validate per-seat policy names; a single name fills every seat."""
        seats = self.seats(rules)
        if policies is None:
            policies = ("random",) * seats
        elif isinstance(policies, str):
            policies = tuple(p.strip() for p in policies.split(","))
        policies = tuple(policies)
        if len(policies) == 1:
            policies = policies * seats
        if len(policies) != seats:
            raise ValueError(f"policies={','.join(policies)!r} is not allowed: {self.name} needs {seats} "
                             f"policies, one per seat, from {', '.join(self.policies)}")
        for p in policies:
            self.check_policy_name(p)
        return policies

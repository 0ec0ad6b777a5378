"""Halali: a 2-player hunt on a 7x7 board of face-down tiles (spec ``docs/rules/halali.md``)."""

from __future__ import annotations

from toolkit.core.game import GameSpec
from toolkit.games.halali import kernel, odds
from toolkit.games.halali.policies import POLICIES
from toolkit.games.halali.rules import Rules


def _prepare(rules, policies):
    return (kernel.to_kernel(rules), kernel.policy_ids(policies))


def _play_reference(rules, seed, game_index, policies):
    from toolkit.games.halali.reference import play_game, record_row

    row = record_row(rules, play_game(rules, seed, game_index, policies))
    return {c: row[c] for c in kernel.COLUMNS}


SPEC = GameSpec(
    name="halali",
    title="Halali",
    description="2-player hunt on a 7x7 board of face-down tiles",
    Rules=Rules,
    policies=POLICIES,
    default_policies=lambda rules: ("greedy", "greedy"),
    seats=lambda rules: 2,
    columns=kernel.COLUMNS,
    prepare=_prepare,
    play_many=kernel.play_many,
    play_reference=_play_reference,
    odds=odds.summary,
    categories=kernel.CATEGORIES,
    histogram_columns=("turns", "plies", "main_turns", "end_turns", "forced_reveal_turns"),
    turn_word="one action",
    first_mover=lambda column: column("first_player"),  # the first mover of the match's first game
    simulated_odds=odds.simulated,
)

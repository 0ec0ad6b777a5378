"""Valhalla: a 2-player Norse Senet with four rune throwing sticks (spec ``docs/rules/valhalla.md``)."""

from __future__ import annotations

from toolkit.core.game import GameSpec
from toolkit.games.valhalla import kernel, odds
from toolkit.games.valhalla.policies import POLICIES
from toolkit.games.valhalla.rules import Rules


def _prepare(rules, policies):
    return (*kernel.to_kernel(rules), kernel.policy_ids(policies))


def _play_reference(rules, seed, game_index, policies):
    from toolkit.games.valhalla.reference import play_game, record_row

    row = record_row(play_game(rules, seed, game_index, policies))
    return {c: row[c] for c in kernel.COLUMNS}


SPEC = GameSpec(
    name="valhalla",
    title="Valhalla",
    description="2-player race (a Norse Senet) with four rune throwing sticks",
    Rules=Rules,
    policies=POLICIES,
    default_policies=lambda rules: ("greedy", "greedy"),
    seats=lambda rules: 2,
    columns=kernel.COLUMNS,
    prepare=_prepare,
    play_many=kernel.play_many,
    play_reference=_play_reference,
    odds=odds.summary,
    categories={"result": kernel.RESULT_CODES},
    histogram_columns=("turns", "plies", "start_seat"),
    turn_word="one player's throw sequence",
    first_mover=lambda column: column("start_seat"),
    simulated_odds=odds.simulated,
    panel_games=100_000,
)

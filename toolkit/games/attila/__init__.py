"""Attila: a 2-5 player area-majority card game (spec ``docs/rules/attila.md``)."""

from __future__ import annotations

from toolkit.core.game import GameSpec
from toolkit.games.attila import kernel, odds
from toolkit.games.attila.policies import POLICIES, parse_policy
from toolkit.games.attila.rules import Rules


def _prepare(rules, policies):
    return (kernel.to_kernel(rules), kernel.policy_ids(policies))


def _play_reference(rules, seed, game_index, policies):
    from toolkit.games.attila.reference import play_game, record_row

    row = record_row(play_game(rules, seed, game_index, policies))
    return {c: row[c] for c in kernel.COLUMNS}


SPEC = GameSpec(
    name="attila",
    title="Attila",
    description="2-5 player area-majority card game",
    Rules=Rules,
    policies=POLICIES,
    default_policies=lambda rules: ("greedy",) * rules.num_players,
    seats=lambda rules: rules.num_players,
    columns=kernel.COLUMNS,
    prepare=_prepare,
    play_many=kernel.play_many,
    play_reference=_play_reference,
    odds=odds.summary,
    categories=kernel.CATEGORIES,
    histogram_columns=("turns", "plies", "wars", "century_scorings", "n_winners"),
    turn_word="one player's turn",
    first_mover=lambda column: column("start_player"),
    policy_parser=parse_policy,
    columns_for=lambda rules: kernel.columns_for(rules.num_players),
    simulated_odds=odds.simulated,
)

"""Walhalla: a 3-4 player Viking raid game with majority scoring (spec ``docs/rules/walhalla.md``)."""

from __future__ import annotations

from toolkit.core.game import GameSpec
from toolkit.games.walhalla import kernel, odds
from toolkit.games.walhalla.policies import POLICIES, parse_policy
from toolkit.games.walhalla.rules import Rules


def _prepare(rules, policies):
    return (kernel.to_kernel(rules), kernel.policy_ids(policies))


def _play_reference(rules, seed, game_index, policies):
    from toolkit.games.walhalla.reference import play_game, record_row

    row = record_row(play_game(rules, seed, game_index, policies))
    return {c: row[c] for c in kernel.COLUMNS}


SPEC = GameSpec(
    name="walhalla",
    title="Walhalla",
    description="3-4 player Viking raids with majority scoring",
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
    histogram_columns=("turns", "plies", "combats", "n_winners"),
    turn_word="one dragon drawn",
    first_mover=lambda column: column("start_player"),  # the start player of raid 1
    policy_parser=parse_policy,
    columns_for=kernel.columns_for,
    simulated_odds=odds.simulated,
)

"""The walhalla reference on the decision-point protocol (``reference.new_game``) plays the game
``play_out`` plays: the same decision points, options and choices, the same record.

``play_out`` drives the rules' generators through the plain methods (the ones the replay, the invariant
checks and the traces hook), the protocol through :meth:`Game.steps`; the two are written side by side
and must stay the same sequence.  The lock step against the kernel is
``tests/conformance/test_protocol.py``.
"""

from __future__ import annotations

import pytest

from toolkit.games.walhalla import reference as ref
from toolkit.games.walhalla.rules import Rules

CONFIGS = {
    "standard_4p": Rules(num_players=4),
    "standard_3p": Rules(num_players=3, raids=2),
    "cards_4p": Rules(num_players=4, sell_cards_for_vikings=True, initial_action_cards=3, landing_mandatory=False),
}


def played(rules, seed, g, policies):
    seen = []
    game = ref.play_game(rules, seed, g, policies,
                         observer=lambda game, d, c: seen.append((d.kind, d.seat, list(d.options), d.info, c)))
    return seen, ref.record_row(game)


def stepped(rules, seed, g, policies):
    seen = []
    game = ref.new_game(rules, seed, g, policies)
    game.start()
    while (d := game.advance()) is not None:
        assert game.advance() is d  # advancing again before applying presents the same decision
        choice = game.choose(d)
        seen.append((d.kind, d.seat, list(d.options), d.info, choice))
        game.apply(d, choice)
    assert game.advance() is None
    return seen, game.row()


@pytest.mark.parametrize("config,policies,games", [
    ("standard_4p", ("random",) * 4, 4),
    ("standard_3p", ("greedy", "random", "greedy"), 3),
    ("cards_4p", ("random", "greedy", "random", "greedy"), 3),
    ("standard_3p", ("lookahead:1", "greedy", "random"), 1),
])
def test_the_protocol_plays_the_game_play_out_plays(config, policies, games):
    rules = CONFIGS[config]
    for g in range(games):
        decisions, row = played(rules, 5, g, policies)
        assert stepped(rules, 5, g, policies) == (decisions, row), (config, g)
        assert len(decisions) == row["decisions"] > 0


def test_new_game_is_not_set_up_until_it_starts():
    game = ref.new_game(Rules(num_players=3), 1, 0, ("random",) * 3)
    state = game.chance.state
    assert not hasattr(game.game, "lengths")
    game.start()
    assert game.chance.state != state and game.game.lengths


def test_apply_takes_only_an_option_of_the_decision_presented():
    game = ref.new_game(Rules(num_players=4), 3, 0, ("random",) * 4)
    game.start()
    d = game.advance()
    with pytest.raises(ValueError, match="not an option"):
        game.apply(d, "no such option")
    with pytest.raises(ValueError, match="not an option"):
        game.apply(ref.Decision(d.kind, d.seat, list(d.options), d.info), d.options[0])  # not the one presented


def test_option_codes_are_the_kernels():
    code = ref.option_code
    assert code(ref.Decision(ref.DP_BOARD, 0, [0, 1, 5]), 5) == 5
    colour_seat = ref.Decision(ref.DP_COLOUR_SEAT, 0, [ref.BOARD, ref.DECLINE])
    assert [code(colour_seat, o) for o in colour_seat.options] == [0, 1]
    assert code(ref.Decision(ref.DP_FJORD, 0, [0, 2, 3]), 2) == 2
    landing = ref.Decision(ref.DP_LANDING, 0, [(1, 4), (2, 4), ref.STAY], 5)
    assert [code(landing, o) for o in landing.options] == [1, 2, 3]
    axe = ref.Decision(ref.DP_AXE, 0, [ref.PLAY_AXE, ref.DECLINE])
    assert [code(axe, o) for o in axe.options] == [0, 1]
    assert code(ref.Decision(ref.DP_SHIELD, 0, [ref.PLAY_SHIELD, ref.DECLINE]), ref.PLAY_SHIELD) == 0
    outcome = ref.Decision(ref.DP_OUTCOME, 0, [ref.DEFENDER_WINS, ref.ATTACKER_WINS])
    assert [code(outcome, o) for o in outcome.options] == [0, 1]
    assert code(ref.Decision(ref.DP_RAID_CARDS, 0, []), (1, 0, 2, 0, 3)) == 1 + (2 << 16) + (3 << 32)
    assert code(ref.Decision(ref.DP_SELL, 0, []), (0, 4, 0, 0, 1)) == (4 << 8) + (1 << 32)

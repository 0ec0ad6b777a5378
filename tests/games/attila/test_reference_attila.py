"""Attila reference: the §7 invariants on every decision of seeded games,
for 2..5 players and rule variants, plus the §5 option builders."""

from __future__ import annotations

import pytest

from toolkit.games.attila import reference as ref
from toolkit.games.attila.rules import Rules

VARIANTS = {
    "standard": {},
    "strict": {"support_any_tribe": False, "war_tie_removes_all_weakest": False, "single_tribe_war_removes": True,
               "second_figure_option": False, "max_tiles_per_turn": 1, "tie_rounding": "up",
               "initiator_skips_refill_after_war": True, "tiebreak": "influence_sum", "start_player": "seat0"},
    "short": {"influence_track_max": 8, "war_threshold": 3, "figures_per_tribe": 4, "peace_tiles_per_century": (3, 3, 3, 3)},
}


class Checker:
    def __init__(self, rules):
        self.rules = rules
        self.violations = []
        self.influence = None
        self.vp = None
        self.used = None

    def __call__(self, game, decision, choice):
        rules = self.rules
        assert choice in decision.options
        figures = [sum(game.figures[x][t] for x in range(game.board.n)) for t in range(6)]
        if any(figures[t] + game.supply[t] != rules.figures_per_tribe for t in range(6)):  # §7.1
            self.violations.append("7.1")
        cards = len(game.deck) + sum(game.discard) + sum(sum(h) for h in game.hands)
        if decision.kind != ref.DP_SUPPORT and cards != 6 * rules.cards_per_tribe:  # §7.2 (no cards laid)
            self.violations.append("7.2")
        if sum(game.pacified) != game.wars or game.wars != sum(rules.peace_tiles_per_century) - sum(game.peace):
            self.violations.append("7.4")
        flat = [v for row in game.influence for v in row]
        if min(flat) < 0 or max(flat) > rules.influence_track_max:
            self.violations.append("7.5")
        if self.influence is not None and any(a < b for a, b in zip(flat, self.influence)):
            self.violations.append("7.5 decrease")
        if self.vp is not None and any(a < b for a, b in zip(game.vp, self.vp)):
            self.violations.append("7.5 vp")
        self.influence, self.vp = flat, list(game.vp)
        for used in game.tiles_used:  # §7.7
            names = [u[0] for u in used]
            if len(names) != len(set(names)):
                self.violations.append("7.7")
        if game.century_scorings > 4:  # §7.10
            self.violations.append("7.10")
        if decision.kind == ref.DP_PLAY:  # §7.9
            t, x = choice
            if not game.legal(t, x):
                self.violations.append("7.9")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_reference_games_keep_the_invariants(variant, players):
    rules = Rules(num_players=players, **VARIANTS[variant])
    reasons = set()
    for g in range(25):
        checker = Checker(rules)
        game = ref.play_game(rules, 17, g, observer=checker)
        assert checker.violations == [], f"game {g}: {sorted(set(checker.violations))}"
        assert game.game_over and game.end_reason in ref.END_REASONS
        assert game.wars <= sum(rules.peace_tiles_per_century)
        assert all(sum(h) <= rules.hand_size for h in game.hands)  # §7.6
        winners = game.winners()
        assert winners and all(game.vp[p] == max(game.vp) for p in winners)
        reasons.add(game.end_reason)
    if variant == "short":
        assert "track_end" in reasons or "stall" in reasons


def test_s5_count_vectors_are_lexicographic():
    vectors = ref.count_vectors([1, 0, 2, 0, 0, 0])
    assert vectors == [(0, 0, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0), (0, 0, 2, 0, 0, 0), (1, 0, 0, 0, 0, 0),
                       (1, 0, 1, 0, 0, 0), (1, 0, 2, 0, 0, 0)]


def test_dp2_has_21_options_in_order():
    options = ref.plus_two_options()
    assert len(options) == 21 and options[:6] == [(t,) for t in range(6)]
    assert options[6:9] == [(0, 1), (0, 2), (0, 3)] and options[-1] == (4, 5)

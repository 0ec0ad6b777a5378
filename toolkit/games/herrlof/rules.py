"""Herrlof rules: every parameter of the spec's §9.2, the presets of §9.1.

Ranges the spec leaves open (decided here, checked by the kinds and in
:meth:`Rules.validate`):

- ``max_rank`` in 9..15 and ``suits`` in 1..4: a suited card is one bit of a
  64-bit hand in the kernel, so at most 60 suited faces;
- ``valknut_count`` and ``hagalaz_count`` in 0..12;
- ``hand_size`` >= 1 with 2 * hand_size + 1 <= deck size (the spec's bound);
- ``points_per_trick``, ``exact_bid_bonus`` and ``consolation_bonus`` in
  -100..100 (negative values are allowed: a designer may try penalties; the
  kernel keeps scores in 32 bits);
- ``consolation_range`` is a set of trick counts in 0..hand_size (empty allowed);
- ``target_score`` in 1..10,000 and ``max_rounds`` in 1..1,000.
"""

from __future__ import annotations

import dataclasses

from toolkit.core.params import Bool, Choice, Int, IntSet, RulesBase, When, param

EFFECT = ("optional", "mandatory", "off")


# the consolation range matters only with a bonus to pay (consolation_requires_exact_bid does matter
# without one: it also takes the exact bonus away, which tests/core/test_applies.py found)
WITH_CONSOLATION = When("consolation_bonus", lambda n: n != 0, "while consolation_bonus is not 0")


@dataclasses.dataclass(frozen=True)
class Rules(RulesBase):
    """Herrlof rule values (spec ``docs/rules/herrlof.md`` §9.2)."""

    GAME = "herrlof"
    RULES_VERSION = 1
    PRESETS = {
        "standard": {},
        "publisher": {"consolation_range": frozenset({3, 4})},
    }

    suits: int = param(4, Int(1, 4), "Number of suits (§2.1)", "[seed]", group="deck")
    max_rank: int = param(9, Int(9, 15), "Highest rank of a suited card (§2.1)", "[seed]", group="deck")
    valknut_count: int = param(3, Int(0, 12), "Valknut cards: destroy the trick (§2.1, R-3.3.1)", "[seed][src:R1]",
                               group="deck")
    hagalaz_count: int = param(3, Int(0, 12), "Hagalaz (N) cards: lose the trick (§2.1, R-3.3.3)",
                               "[seed][src:R1]", group="deck")
    hand_size: int = param(15, Int(1, 100), "Cards dealt to each player (R-2.1)", "[seed]", group="deal")
    first_dealer: str = param("random", Choice(("random", "seat0", "seat1"),
                                                ("at random", "seat 0", "seat 1")), "Dealer of round 1 (R-1.1)",
                              "[seed][src:R3]/[design]", group="deal")
    special_indicator_means: str = param("no_trump", Choice(("no_trump", "redraw"),
                                                             ("no trumps", "turn the next card")),
                                         "A Valknut or Hagalaz turned as indicator (R-2.2)", "[src:R1,R5]",
                                         group="deal")
    trump_anytime: bool = param(False, Bool(), "The follower may trump even when holding the led suit (R-3.2)",
                                "[src:R5,R6] (true = literal [seed])", group="tricks")
    specials_always_playable: bool = param(True, Bool(), "Valknut and Hagalaz may always be played (R-3.2)",
                                           "[src:R5]", group="tricks")
    double_hagalaz_winner: str = param("first_played", Choice(("first_played", "second_played"),
                                                               ("the first played", "the second played")),
                                       "Who wins a trick of two Hagalaz (R-3.3.2)", "[src:R3,R5]", group="tricks",
                                       applies=When("hagalaz_count", lambda n: n >= 2,
                                                    "while there are 2 Hagalaz cards or more"))
    double_valknut_changes_trump: bool = param(True, Bool(), "Two Valknuts turn a new indicator (R-3.3.1)",
                                               "[src:R4]/[design]", group="tricks",
                                               applies=When("valknut_count", lambda n: n >= 2,
                                                            "while there are 2 Valknut cards or more"))
    destroyed_trick_next_leader: str = param("same_leader",
                                             Choice(("same_leader", "valknut_player", "other_player"),
                                                    ("the same leader", "the Valknut's player", "the other player")),
                                             "Who leads after a destroyed trick (R-4.4.1)", "[design]", group="tricks")
    valknut_overrides_hagalaz_lead: bool = param(True, Bool(),
                                                 "In a destroyed trick with an N, the Valknut rule sets the leader "
                                                 "(R-4.4.1)", "[design]", group="tricks")
    effect_1: str = param("optional", Choice(EFFECT), "A trick won with a 1 steals a trick (R-4.2)", "[seed]",
                          group="card effects")
    effect_3: str = param("optional", Choice(EFFECT), "A 3 trades a card with the stock (R-4.1)", "[seed]",
                          group="card effects")
    three_trigger: str = param("played", Choice(("played", "won")), "Which 3s trade (R-4.1)", "[seed]/[design]",
                               group="card effects",
                               applies=When("effect_3", lambda v: v != "off", "while effect_3 is not off"))
    effect_6: str = param("optional", Choice(EFFECT), "A trick won with a 6 swaps a card (R-4.3)",
                          "[seed]/[design]", group="card effects")
    effect_9: bool = param(True, Bool(), "A trick won with a 9 cedes the lead (R-4.4.3)", "[seed]",
                           group="card effects")
    points_per_trick: int = param(1, Int(-100, 100), "Points per trick won (R-5)", "[seed]", group="scoring")
    exact_bid_bonus: int = param(10, Int(-100, 100), "Bonus for meeting the bid (R-5)", "[seed][src:R2]",
                                 group="scoring")
    consolation_bonus: int = param(5, Int(-100, 100), "Bonus for a trick count in the consolation range (R-5)",
                                   "[seed][src:R2]", group="scoring")
    consolation_range: frozenset = param(frozenset({3, 4, 5}), IntSet(0, 100),
                                         "Trick counts that earn the consolation bonus (R-5)", "[seed]/[src:R2]",
                                         group="scoring", applies=WITH_CONSOLATION)
    consolation_requires_exact_bid: bool = param(False, Bool(),
                                                 "The consolation bonus replaces the exact bonus, only for a met "
                                                 "bid (R-5)", "[seed] (true = [src:R3])", group="scoring")
    target_score: int = param(50, Int(1, 10_000), "A round end with a score this high ends the game (R-6.2)",
                              "[seed]", group="end")
    max_rounds: int = param(10, Int(1, 1_000), "The game ends after this round (R-6.2)", "[seed][src:R9]", group="end")
    tiebreak: str = param("most_correct_bids_then_draw", Choice(("most_correct_bids_then_draw", "draw"),
                                                                 ("most exact bids, then a draw", "a draw")),
                          "How a tied score is settled (R-6.3)", "[src:R1]/[design]", group="end")

    # -- derived sizes (§2) ----------------------------------------------------------

    @property
    def suited_cards(self) -> int:
        return self.suits * self.max_rank

    @property
    def deck_size(self) -> int:
        """D = suits * max_rank + valknut_count + hagalaz_count (42 by default)."""
        return self.suited_cards + self.valknut_count + self.hagalaz_count

    def validate(self) -> None:
        d = self.deck_size
        if 2 * self.hand_size + 1 > d:
            raise ValueError(
                f"hand_size={self.hand_size} is not allowed: 2 * hand_size + 1 must be <= the deck size {d}, "
                f"so hand_size in 1..{(d - 1) // 2}")
        bad = sorted(k for k in self.consolation_range if k > self.hand_size)
        if bad:
            raise ValueError(
                f"consolation_range={','.join(map(str, sorted(self.consolation_range)))} is not allowed: "
                f"trick counts must be in 0..hand_size={self.hand_size} ({bad[0]} is not)")
        specials = self.valknut_count + self.hagalaz_count
        if self.special_indicator_means == "redraw" and d - 2 * self.hand_size <= specials:
            raise ValueError(
                "special_indicator_means='redraw' is not allowed here: the cards left after the deal "
                f"({d - 2 * self.hand_size}) must outnumber the specials ({specials}), so a suited card "
                "is always found (R-2.2)")

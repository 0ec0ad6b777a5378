"""Rule configurations shared by the Herrlof equality, invariant and statistics tests."""

from toolkit.games.herrlof.rules import Rules

CONFIGS = {
    "standard": Rules(),
    "publisher": Rules.preset("publisher"),
    # every effect compulsory, 3s only when they win, trump any time, specials redrawn as indicators
    "variant_a": Rules(special_indicator_means="redraw", effect_1="mandatory", effect_3="mandatory",
                       effect_6="mandatory", three_trigger="won", trump_anytime=True, first_dealer="seat1"),
    # every other branch of
    "variant_b": Rules(specials_always_playable=False, destroyed_trick_next_leader="valknut_player",
                       valknut_overrides_hagalaz_lead=False, double_hagalaz_winner="second_played",
                       double_valknut_changes_trump=True, effect_9=False, consolation_requires_exact_bid=True,
                       tiebreak="draw", valknut_count=5, hagalaz_count=4, target_score=30),
    # effects off, other branches of the next-leader rule, a bigger deck
    "variant_c": Rules(effect_1="off", effect_3="off", effect_6="off", destroyed_trick_next_leader="other_player",
                       double_valknut_changes_trump=False, max_rank=12, suits=3, hand_size=17,
                       consolation_range=frozenset({0, 1, 2}), points_per_trick=2, max_rounds=6,
                       first_dealer="seat0"),
}

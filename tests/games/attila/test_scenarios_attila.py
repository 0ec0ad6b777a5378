"""Attila reference: one hand-built scenario per numbered rule of spec ``docs/rules/attila.md`` §4 (A-1..A-7) and
the option orders of §5."""

from __future__ import annotations

import pytest

from toolkit.games.attila import reference as ref
from toolkit.games.attila.rules import Rules

GIN, GSU, RAE, NOR, PAN, DAC, BRI, BEL, LUG = range(9)
ITN = 16
ZERO = (0, 0, 0, 0, 0, 0)


class Script:
    """A scripted player: ``plan[kind]`` is a list of choices (or callables ``f(decision)``) used in order;
    otherwise a default: proceed / influence / decline / first option."""

    def __init__(self, log, plan=None):
        self.log = log
        self.plan = {k: list(v) for k, v in (plan or {}).items()}

    def choose(self, view, d):
        self.log.append(d)
        queue = self.plan.get(d.kind)
        if queue:
            c = queue.pop(0)
            c = c(d) if callable(c) else c
        elif d.kind == ref.DP_TILE:
            c = ref.PROCEED
        elif d.kind == ref.DP_BONUS:
            c = ref.INFLUENCE
        else:
            c = d.options[0]  # DP_SUPPORT: all-zero decline
        assert c in d.options, (d, c)
        return c


def blank(n=4, plans=None, **kw):
    """A dealt game with an empty board, empty hands, deck and discard, and scripted players."""
    rules = Rules(num_players=n, start_player="seat0", **kw)
    g = ref.Game(rules, 1, 0, ("random",) * n)
    g.hands = [[0] * 6 for _ in range(n)]
    g.deck = []
    g.discard = [0] * 6
    log = []
    plans = plans or {}
    for p in range(n):
        g.players[p] = Script(log, plans.get(p))
    return g, log


def put(g, x, t, k):
    g.figures[x][t] += k
    g.supply[t] -= k


def kinds(log, kind):
    return [d for d in log if d.kind == kind]


# ---------------------------------------------------------------- A-1 setup


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a1_setup_hands_deck_stacks_tiles(players):
    rules = Rules(num_players=players)
    g = ref.Game(rules, 3, 0, ("random",) * players)
    assert [sum(h) for h in g.hands] == [6] * players
    assert len(g.deck) == 54 - 6 * players
    total = [g.deck.count(t) + sum(h[t] for h in g.hands) for t in range(6)]
    assert total == [9] * 6 and g.discard == [0] * 6
    assert g.peace == [1, 2, 3, 4]
    assert g.tiles == [{"double_turn", "plus_two", "exchange"}] * players
    assert g.vp == [0] * players and all(v == 0 for row in g.influence for v in row)
    assert g.supply == [20] * 6 and not any(g.pacified) and all(sum(r) == 0 for r in g.figures)
    assert not g.end_triggered and not g.game_over


def test_a1_3_hand_size_parameter():
    g = ref.Game(Rules(num_players=3, hand_size=8), 3, 0, ("random",) * 3)
    assert [sum(h) for h in g.hands] == [8] * 3 and len(g.deck) == 54 - 24


def test_a1_5_start_player_seat0_and_random():
    for i in range(10):
        assert ref.Game(Rules(num_players=4, start_player="seat0"), 5, i, ("random",) * 4).start_player == 0
    starts = {ref.Game(Rules(num_players=4), 5, i, ("random",) * 4).start_player for i in range(60)}
    assert starts == {0, 1, 2, 3}


# ---------------------------------------------------------------- A-2 placement legality


def test_a2_1_pacified_province_is_illegal():
    g, _ = blank()
    assert g.legal(0, GIN)
    g.pacified[GIN] = True
    assert not g.legal(0, GIN) and g.legal_provinces(0) == [GSU, RAE, NOR, PAN, DAC]


def test_a2_2_war_threshold_closes_province():
    g, _ = blank()
    put(g, GIN, 1, 4)
    assert g.legal(0, GIN) and g.legal(1, GIN)
    put(g, GIN, 2, 1)
    assert not g.legal(0, GIN) and not g.legal(1, GIN) and not g.legal(2, GIN)
    g2, _ = blank(war_threshold=3)
    put(g2, GIN, 1, 2)
    assert g2.legal(0, GIN)
    put(g2, GIN, 0, 1)
    assert not g2.legal(0, GIN)


def test_a2_3_empty_supply_is_illegal():
    g, _ = blank()
    g.supply[3] = 0
    assert g.legal_provinces(3) == [] and g.legal_provinces(2) == [GIN, GSU, RAE, NOR, PAN, DAC]


def test_a2_4_placement_needs_start_or_adjacent():
    g, _ = blank()
    assert g.legal_provinces(0) == list(g.board.start)
    assert not g.legal(0, ITN) and not g.legal(0, BEL)
    put(g, RAE, 0, 1)  # ITN is adjacent to RAE
    assert g.legal(0, ITN) and not g.legal(1, ITN)
    assert g.legal_provinces(0) == [GIN, GSU, RAE, NOR, PAN, DAC, ITN]


def test_a2_4_same_province_is_legal():
    g, _ = blank()
    put(g, 20, 4, 1)  # THR, far from the start line; its neighbours hold nothing of tribe 4
    assert g.legal(4, 20) and not g.legal(3, 20)


def test_a2_4_pacified_figures_count_for_adjacency():
    g, _ = blank()
    put(g, GIN, 0, 2)
    g.pacified[GIN] = True
    assert g.legal(0, BEL) and not g.legal(1, BEL) and not g.legal(0, GIN)


# ---------------------------------------------------------------- plays


def test_a3_2_card_figure_and_influence_by_century_rate():
    g, log = blank(plans={0: {ref.DP_PLAY: [(0, GSU)]}})
    g.hands[0] = [2, 0, 0, 1, 0, 0]
    g.peace = [0, 0, 3, 4]  # century VI: rate 3
    g.play(0)
    assert g.hands[0] == [1, 0, 0, 1, 0, 0] and g.discard == [1, 0, 0, 0, 0, 0]
    assert g.figures[GSU][0] == 1 and g.supply[0] == 19
    assert g.influence[0] == [3, 0, 0, 0, 0, 0]
    assert [d.kind for d in log] == [ref.DP_PLAY, ref.DP_BONUS]


@pytest.mark.parametrize("century,rate", [(0, 1), (1, 2), (2, 3), (3, 4)])
def test_a3_2_influence_rate_per_century(century, rate):
    g, _ = blank()
    g.peace = [0] * century + [1] * (4 - century)
    g.hands[1] = [0, 1, 0, 0, 0, 0]
    g.play(1)
    assert g.influence[1][1] == rate


def test_a3_2_influence_capped_at_track_max_and_triggers_end():
    g, _ = blank()
    g.peace = [0, 0, 0, 4]
    g.influence[0][0] = 20
    g.hands[0] = [1, 0, 0, 0, 0, 0]
    g.play(0)
    assert g.influence[0][0] == 22 and g.end_triggered


def test_a3_2_end_on_track_max_off_does_not_trigger():
    g, _ = blank(end_on_track_max=False)
    g.influence[0][0] = 21
    g.hands[0] = [1, 0, 0, 0, 0, 0]
    g.play(0)
    assert g.influence[0][0] == 22 and not g.end_triggered


def test_a3_2_second_figure_legal_after_first_placement():
    g, log = blank(plans={0: {ref.DP_PLAY: [(0, GIN)], ref.DP_BONUS: [BEL]}})
    g.hands[0] = [1, 0, 0, 0, 0, 0]
    assert not g.legal(0, BEL)
    g.play(0)
    bonus = kinds(log, ref.DP_BONUS)[0]
    assert bonus.info == 0 and BEL in bonus.options
    assert bonus.options == [ref.INFLUENCE, GIN, GSU, RAE, NOR, PAN, DAC, BEL]
    assert g.figures[GIN][0] == 1 and g.figures[BEL][0] == 1 and g.supply[0] == 18
    assert g.influence[0][0] == 0 and g.discard[0] == 1 and g.figures_placed[0] == 2


def test_a3_2_second_figure_excludes_province_filled_by_first():
    g, log = blank(plans={0: {ref.DP_PLAY: [(0, GIN)]}})
    put(g, GIN, 1, 4)
    g.hands[0] = [1, 0, 0, 0, 0, 0]
    g.play(0)
    assert g.pending == [GIN]
    assert GIN not in kinds(log, ref.DP_BONUS)[0].options


def test_a3_2_second_figure_reaching_threshold_is_recorded():
    g, log = blank(plans={0: {ref.DP_PLAY: [(0, GSU)], ref.DP_BONUS: [GIN]}})
    put(g, GIN, 1, 4)
    g.hands[0] = [1, 0, 0, 0, 0, 0]
    g.play(0)
    assert g.pending == [GIN] and sum(g.figures[GIN]) == 5


def test_a3_2_second_figure_option_off_takes_influence_automatically():
    g, log = blank(second_figure_option=False)
    g.hands[0] = [1, 0, 0, 0, 0, 0]
    g.play(0)
    assert [d.kind for d in log] == [ref.DP_PLAY] and g.influence[0][0] == 1


def test_a3_2_bonus_offered_even_with_only_influence():
    g, log = blank(plans={0: {ref.DP_PLAY: [(0, GIN)]}}, figures_per_tribe=1)
    g.hands[0] = [1, 0, 0, 0, 0, 0]
    g.play(0)
    assert kinds(log, ref.DP_BONUS)[0].options == [ref.INFLUENCE]


def test_a3_2_no_legal_pair_forces_a_discard():
    g, log = blank(plans={0: {ref.DP_DISCARD: [4]}})
    g.supply[2] = g.supply[4] = 0
    g.hands[0] = [0, 0, 2, 0, 1, 0]
    g.play(0)
    assert [d.kind for d in log] == [ref.DP_DISCARD] and log[0].options == [2, 4]
    assert g.hands[0] == [0, 0, 2, 0, 0, 0] and g.discard == [0, 0, 0, 0, 1, 0]
    assert all(sum(r) == 0 for r in g.figures) and g.influence[0] == [0] * 6


def test_a3_2_empty_hand_play_does_nothing():
    g, log = blank()
    g.play(0)
    assert log == [] and g.discard == [0] * 6


# ---------------------------------------------------------------- wars in order


def test_a3_3_wars_in_the_order_provinces_reached_threshold():
    plan = {0: {ref.DP_TILE: ["double_turn"], ref.DP_PLAY: [(5, DAC), (0, GIN)]}}
    g, log = blank(plans=plan)
    g.tiles[0] = {"double_turn"}
    put(g, GIN, 1, 4)
    put(g, DAC, 2, 4)
    g.hands[0] = [1, 0, 0, 0, 1, 1]  # a card left for support
    for p in range(1, 4):
        g.hands[p] = [0, 0, 0, 1, 0, 0]
    g.turn(0)
    wars = [d.info for d in kinds(log, ref.DP_SUPPORT)]
    assert wars == [DAC] * 4 + [GIN] * 4
    assert g.pacified[DAC] and g.pacified[GIN] and g.wars == 2
    assert g.figures[DAC][5] == 0 and g.figures[GIN][0] == 0  # the single new figures were weakest


# ---------------------------------------------------------------- track end


def test_a3_4_track_end_scores_then_game_over():
    g, _ = blank()
    g.influence[0][0] = 21
    g.hands[0] = [1, 0, 0, 0, 0, 0]
    g.turn(0)
    assert g.end_triggered and g.game_over and g.end_reason == "track_end"
    assert g.century_scorings == 1 and g.vp[0] == 1  # 1 figure of tribe 0 on the board
    assert sum(g.hands[0]) == 1  # refill happens even when the game is over (the card came back)


def test_a3_4_no_extra_scoring_after_century_scoring_in_this_turn():
    g, _ = blank()
    g.influence[0][0] = 21
    put(g, GIN, 1, 4)
    g.hands[0] = [1, 0, 0, 0, 0, 0]
    g.turn(0)  # influence -> 22, then the war empties century IV's stack and scores
    assert g.wars == 1 and g.peace == [0, 2, 3, 4]
    assert g.century_scorings == 1 and g.game_over and g.end_reason == "track_end"


def test_a3_4_war_without_century_end_still_gets_track_end_scoring():
    g, _ = blank()
    g.peace = [2, 2, 3, 4]
    g.influence[0][0] = 21
    put(g, GIN, 1, 4)
    g.hands[0] = [1, 0, 0, 0, 0, 0]
    g.turn(0)
    assert g.wars == 1 and g.peace[0] == 1
    assert g.century_scorings == 1 and g.game_over and g.end_reason == "track_end"


# ---------------------------------------------------------------- refill


def test_a3_5_refill_to_hand_size():
    g, _ = blank()
    g.hands[0] = [3, 0, 0, 0, 0, 3]
    g.deck = [2, 3, 4]
    g.turn(0)
    assert sum(g.hands[0]) == 6 and g.deck == [3, 4]


def test_a3_5_deck_not_rebuilt_until_a_card_must_be_drawn():
    g, _ = blank()
    g.hands[0] = [2, 0, 0, 0, 0, 4]
    g.deck = [3]
    g.discard = [0, 5, 0, 0, 0, 0]
    g.turn(0)
    assert g.hands[0] == [1, 0, 0, 1, 0, 4]
    assert g.deck == [] and g.discard == [1, 5, 0, 0, 0, 0]  # empty deck left as is


def test_a3_5_reshuffle_whole_discard_when_drawing_from_empty_deck():
    g, _ = blank()
    g.discard = [0, 0, 3, 0, 0, 1]
    assert g.draw(0)
    assert sum(g.hands[0]) == 1 and len(g.deck) == 3 and g.discard == [0] * 6
    assert sorted(g.deck + [t for t in range(6) for _ in range(g.hands[0][t])]) == [2, 2, 2, 5]


def test_a3_5_stop_drawing_when_deck_and_discard_empty():
    g, _ = blank()
    g.hands[0] = [2, 0, 0, 0, 0, 0]
    g.deck = [4]
    g.turn(0)  # one card played goes to discard; deck [4] then reshuffled discard [0]
    assert sum(g.hands[0]) == 3 and g.deck == [] and g.discard == [0] * 6


@pytest.mark.parametrize("skip", [False, True])
def test_a3_5_initiator_skips_refill_after_war(skip):
    g, _ = blank(initiator_skips_refill_after_war=skip)
    put(g, GIN, 1, 4)
    g.hands[0] = [1, 0, 0, 0, 0, 2]
    g.deck = [3, 3, 3, 3, 3, 3]
    g.turn(0)
    assert g.wars == 1
    if skip:
        assert sum(g.hands[0]) == 2 and len(g.deck) == 6
    else:
        assert sum(g.hands[0]) == 6 and len(g.deck) == 2


def test_a3_5_initiator_skip_does_not_apply_without_war():
    g, _ = blank(initiator_skips_refill_after_war=True)
    g.hands[0] = [1, 0, 0, 0, 0, 2]
    g.deck = [3] * 6
    g.turn(0)
    assert sum(g.hands[0]) == 6


# ---------------------------------------------------------------- stall, A-3.7 cap


def test_a3_6_stall_scores_and_ends():
    g, _ = blank(figures_per_tribe=1)
    for t in range(1, 6):
        put(g, t, t, 1)  # tribes 1..5 have no supply left
    g.influence[1][3] = 2
    g.hands[0] = [1, 0, 0, 0, 0, 0]
    g.turn(0)
    assert g.supply == [0] * 6 and not g.any_placement_possible()
    assert g.game_over and g.end_reason == "stall" and g.century_scorings == 1
    assert g.vp[0] == 1 and g.vp[1] == 1


def test_a3_6_no_stall_while_a_placement_remains():
    g, _ = blank(figures_per_tribe=2)
    for t in range(1, 6):
        put(g, t, t, 2)
    g.hands[0] = [1, 0, 0, 0, 0, 0]
    g.turn(0)
    assert not g.game_over and g.century_scorings == 0


def test_a3_7_max_turns_aborts():
    rules = Rules(num_players=3, max_turns=1)
    g = ref.play_game(rules, 9, 0)
    assert g.turns == 1 and g.end_reason == "aborted" and g.game_over
    assert g.winners() == [] and ref.record_row(g)["result"] == 2


# ---------------------------------------------------------------- A-4 war


def test_a4_2_support_order_from_active_clockwise():
    g, log = blank()
    put(g, GIN, 0, 5)
    for p in range(4):
        g.hands[p] = [0, 1, 0, 0, 0, 0]
    g.hands[3] = [0] * 6  # an empty hand is not asked
    g.war(2, GIN)
    assert [d.seat for d in log] == [2, 0, 1] and all(d.info == GIN for d in log)


def test_a4_2_support_any_tribe_on_offers_every_tribe():
    g, log = blank()
    put(g, GIN, 0, 5)
    g.hands[0] = [1, 0, 0, 0, 0, 1]
    g.war(0, GIN)
    assert log[0].options == [ZERO, (0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 1)]


def test_a4_2_support_any_tribe_off_only_involved_tribes():
    g, log = blank(support_any_tribe=False)
    put(g, GIN, 0, 5)
    g.hands[0] = [1, 0, 0, 0, 0, 1]
    g.hands[1] = [0, 0, 0, 0, 0, 3]  # nothing layable: skipped
    g.war(0, GIN)
    assert [d.seat for d in log] == [0]
    assert log[0].options == [ZERO, (1, 0, 0, 0, 0, 0)]


def test_a4_3_strength_is_figures_plus_laid_cards():
    plan = {1: {ref.DP_SUPPORT: [(0, 2, 0, 0, 0, 0)]}}
    g, _ = blank(plans=plan)
    put(g, GIN, 0, 3)
    put(g, GIN, 1, 2)
    g.hands[1] = [0, 2, 0, 0, 0, 0]
    g.war(0, GIN)  # tribe 1: 2 + 2 = 4 > 3
    assert g.figures[GIN] == [0, 2, 0, 0, 0, 0] and g.supply[0] == 20
    assert g.figures_removed == 3 and g.support_cards[1] == 2
    assert g.discard == [0, 2, 0, 0, 0, 0] and g.hands[1] == [0] * 6  # laid cards to discard


def test_a4_3_cards_of_uninvolved_tribes_count_nothing():
    plan = {1: {ref.DP_SUPPORT: [(0, 0, 0, 0, 0, 3)]}}
    g, _ = blank(plans=plan)
    put(g, GIN, 0, 3)
    put(g, GIN, 1, 2)
    g.hands[1] = [0, 0, 0, 0, 0, 3]
    g.war(0, GIN)
    assert g.figures[GIN] == [3, 0, 0, 0, 0, 0] and g.discard == [0, 0, 0, 0, 0, 3]


def test_a4_4_all_tied_weakest_removed():
    g, _ = blank()
    put(g, GIN, 0, 3)
    put(g, GIN, 1, 1)
    put(g, GIN, 2, 1)
    g.war(0, GIN)
    assert g.figures[GIN] == [3, 0, 0, 0, 0, 0] and g.supply[1] == 20 and g.supply[2] == 20


def test_a4_4_everyone_tied_all_removed():
    plan = {0: {ref.DP_SUPPORT: [(0, 0, 1, 0, 0, 0)]}}
    g, _ = blank(plans=plan)
    put(g, GIN, 0, 2)
    put(g, GIN, 1, 2)
    put(g, GIN, 2, 1)
    g.hands[0] = [0, 0, 1, 0, 0, 0]
    g.war(0, GIN)
    assert sum(g.figures[GIN]) == 0 and g.figures_removed == 5 and g.pacified[GIN]


def test_a4_4_tie_removes_nothing_when_switch_off():
    g, _ = blank(war_tie_removes_all_weakest=False)
    put(g, GIN, 0, 3)
    put(g, GIN, 1, 1)
    put(g, GIN, 2, 1)
    g.war(0, GIN)
    assert g.figures[GIN] == [3, 1, 1, 0, 0, 0] and g.pacified[GIN] and g.figures_removed == 0


def test_a4_4_tie_switch_off_still_removes_sole_weakest():
    g, _ = blank(war_tie_removes_all_weakest=False)
    put(g, GIN, 0, 3)
    put(g, GIN, 1, 2)
    g.war(0, GIN)
    assert g.figures[GIN] == [3, 0, 0, 0, 0, 0]


@pytest.mark.parametrize("removes", [False, True])
def test_a4_4_single_tribe_war(removes):
    g, _ = blank(single_tribe_war_removes=removes)
    put(g, GIN, 4, 5)
    g.war(0, GIN)
    assert g.figures[GIN][4] == (0 if removes else 5) and g.pacified[GIN]


def test_a4_5_peace_tile_from_current_century_stack():
    g, _ = blank()
    g.peace = [0, 2, 3, 4]
    put(g, GIN, 0, 5)
    assert g.war(0, GIN) is False
    assert g.peace == [0, 1, 3, 4] and g.pacified[GIN] and g.wars == 1 and g.century_scorings == 0
    assert not g.legal(0, GIN)


def test_a4_6_century_scoring_when_stack_empties():
    g, _ = blank()
    g.peace = [0, 1, 3, 4]
    put(g, GIN, 0, 3)
    put(g, GIN, 1, 2)
    put(g, BEL, 0, 1)
    g.influence[2][0] = 1
    assert g.war(0, GIN) is True
    assert g.peace == [0, 0, 3, 4] and g.century_scorings == 1 and not g.game_over
    assert g.vp == [0, 0, 4, 0]  # after the loss: 3 + 1 figures of tribe 0
    assert g.century == 2


def test_a4_6_last_tile_ends_game_and_drops_pending_wars():
    plan = {0: {ref.DP_TILE: ["double_turn"], ref.DP_PLAY: [(0, GIN), (5, DAC)]}}
    g, log = blank(plans=plan)
    g.tiles[0] = {"double_turn"}
    g.peace = [0, 0, 0, 1]
    put(g, GIN, 1, 4)
    put(g, DAC, 2, 4)
    g.influence[1][2] = 3
    g.hands[0] = [1, 0, 0, 0, 0, 1]
    g.turn(0)
    assert g.wars == 1 and g.game_over and g.end_reason == "tenth_war"
    assert g.pacified[GIN] and not g.pacified[DAC] and sum(g.figures[DAC]) == 5
    assert g.century_scorings == 1 and g.vp[1] == 4  # the 4 tribe-2 figures in the dropped DAC war count
    assert {d.info for d in kinds(log, ref.DP_SUPPORT)} <= {GIN}


# ---------------------------------------------------------------- A-5 scoring


def _scoring_board(g):
    put(g, GIN, 0, 2)
    put(g, BEL, 0, 1)
    g.pacified[BEL] = True  # pacified provinces count too
    # tribe 0: N_fig = 3, N_prov = 2


def test_a5_sole_first_gets_nfig_second_group_splits_nprov():
    g, _ = blank()
    _scoring_board(g)
    for p, v in enumerate([5, 3, 3, 0]):
        g.influence[p][0] = v
    g.scoring()
    assert g.vp == [3, 1, 1, 0] and g.century_scorings == 1
    assert g.influence[0][0] == 5  # no reset


@pytest.mark.parametrize("rounding,expected", [("down", [3, 0, 0, 0]), ("up", [3, 1, 1, 1])])
def test_a5_second_place_three_way_rounding(rounding, expected):
    g, _ = blank(tie_rounding=rounding)
    _scoring_board(g)
    for p, v in enumerate([5, 2, 2, 2]):
        g.influence[p][0] = v
    g.scoring()
    assert g.vp == expected


@pytest.mark.parametrize("rounding,expected", [("down", [2, 2, 0, 0]), ("up", [3, 3, 0, 0])])
def test_a5_first_place_tie_splits_nfig_plus_nprov_no_second(rounding, expected):
    g, _ = blank(tie_rounding=rounding)
    _scoring_board(g)
    for p, v in enumerate([4, 4, 2, 0]):
        g.influence[p][0] = v
    g.scoring()
    assert g.vp == expected


def test_a5_zero_influence_not_eligible():
    g, _ = blank()
    _scoring_board(g)
    g.influence[3][0] = 1
    g.scoring()
    assert g.vp == [0, 0, 0, 3]
    g2, _ = blank()
    _scoring_board(g2)
    g2.scoring()
    assert g2.vp == [0, 0, 0, 0] and g2.century_scorings == 1


def test_a5_each_tribe_scored():
    g, _ = blank()
    put(g, GIN, 0, 1)
    put(g, DAC, 5, 2)
    put(g, PAN, 5, 1)
    g.influence[0][0] = 1
    g.influence[1][5] = 2
    g.influence[0][5] = 1
    g.scoring()
    assert g.vp == [1 + 2, 3, 0, 0]


@pytest.mark.parametrize("second,expected", [(3, [3, 2]), (2, [3, 0])])
def test_a5_3_two_player_gap_rule(second, expected):
    g, _ = blank(n=2)
    _scoring_board(g)
    g.influence[0][0] = 5
    g.influence[1][0] = second
    g.scoring()
    assert g.vp == expected


def test_a5_3_gap_rule_not_used_with_three_players():
    g, _ = blank(n=3)
    _scoring_board(g)
    g.influence[0][0] = 9
    g.influence[1][0] = 1
    g.scoring()
    assert g.vp == [3, 2, 0]


def test_a5_3_gap_none_with_two_players_always_scores_second():
    g, _ = blank(n=2, two_player_second_place_gap=None)
    _scoring_board(g)
    g.influence[0][0] = 9
    g.influence[1][0] = 1
    g.scoring()
    assert g.vp == [3, 2]


# ---------------------------------------------------------------- A-6 action tiles


def test_a6_each_tile_once_per_game():
    plan = {0: {ref.DP_TILE: ["plus_two", "exchange", "double_turn"],
                ref.DP_PLUS_TWO: [(1,)], ref.DP_EXCHANGE: [(1, 0, 0, 0, 0, 0)]}}
    g, log = blank(plans=plan)
    g.hands[0] = [2, 0, 0, 0, 0, 0]
    g.deck = [3] * 10
    g.turn(0)
    tiles = kinds(log, ref.DP_TILE)
    assert tiles[0].options == ["double_turn", "plus_two", "exchange", ref.PROCEED]
    assert tiles[1].options == ["double_turn", "exchange", ref.PROCEED]
    assert tiles[2].options == ["double_turn", ref.PROCEED]
    assert len(tiles) == 3  # all three used: no more window
    assert g.tiles[0] == set() and [u[0] for u in g.tiles_used[0]] == ["plus_two", "exchange", "double_turn"]
    assert all(u[1] == 1 for u in g.tiles_used[0])
    log.clear()
    g.turn(0)
    assert kinds(log, ref.DP_TILE) == []


def test_a6_max_tiles_per_turn():
    plan = {0: {ref.DP_TILE: ["double_turn"]}}
    g, log = blank(plans=plan, max_tiles_per_turn=1)
    g.hands[0] = [2, 0, 0, 0, 0, 0]
    g.turn(0)
    assert len(kinds(log, ref.DP_TILE)) == 1 and g.tiles[0] == {"plus_two", "exchange"}


def test_a6_double_turn_two_plays_each_with_own_bonus():
    plan = {0: {ref.DP_TILE: ["double_turn"], ref.DP_PLAY: [(0, GIN), (3, DAC)],
                ref.DP_BONUS: [ref.INFLUENCE, PAN]}}
    g, log = blank(plans=plan)
    g.hands[0] = [1, 0, 0, 1, 0, 0]
    g.turn(0)
    assert len(kinds(log, ref.DP_PLAY)) == 2 and len(kinds(log, ref.DP_BONUS)) == 2
    assert g.figures[GIN][0] == 1 and g.figures[DAC][3] == 1 and g.figures[PAN][3] == 1
    assert g.influence[0] == [1, 0, 0, 0, 0, 0] and g.figures_placed[0] == 3


def test_a6_without_double_turn_one_play():
    g, log = blank()
    g.hands[0] = [1, 0, 0, 1, 0, 0]
    g.turn(0)
    assert len(kinds(log, ref.DP_PLAY)) == 1


@pytest.mark.parametrize("option,expected", [((3,), [0, 0, 0, 2, 0, 0]), ((1, 4), [0, 1, 0, 0, 1, 0])])
def test_a6_plus_two_options_flat_not_by_rate(option, expected):
    plan = {0: {ref.DP_TILE: ["plus_two"], ref.DP_PLUS_TWO: [option]}}
    g, log = blank(plans=plan)
    g.peace = [0, 0, 0, 4]  # rate 4 is not applied
    g.turn(0)
    assert kinds(log, ref.DP_PLUS_TWO)[0].options == ref.plus_two_options()
    assert g.influence[0] == expected


def test_a6_plus_two_capped_and_triggers_track_end():
    plan = {0: {ref.DP_TILE: ["plus_two"], ref.DP_PLUS_TWO: [(2,)]}}
    g, _ = blank(plans=plan)
    g.influence[0][2] = 21
    g.turn(0)
    assert g.influence[0][2] == 22 and g.end_triggered and g.end_reason == "track_end"


def test_a6_exchange_draws_as_many_as_discarded():
    plan = {0: {ref.DP_TILE: ["exchange"], ref.DP_EXCHANGE: [(2, 0, 0, 0, 0, 1)]}}
    g, log = blank(plans=plan, second_figure_option=False)
    g.hands[0] = [2, 0, 1, 0, 0, 3]
    g.deck = [4, 4, 4, 1, 1]
    g.tile_window(0)
    assert g.hands[0] == [0, 0, 1, 0, 3, 2] and g.deck == [1, 1] and g.discard == [2, 0, 0, 0, 0, 1]
    opts = kinds(log, ref.DP_EXCHANGE)[0].options
    assert ZERO not in opts and opts == ref.count_vectors([2, 0, 1, 0, 0, 3])[1:]


def test_a6_exchange_reshuffles_discard_including_just_discarded():
    plan = {0: {ref.DP_TILE: ["exchange"], ref.DP_EXCHANGE: [(0, 2, 0, 0, 0, 0)]}}
    g, _ = blank(plans=plan)
    g.hands[0] = [0, 2, 0, 0, 0, 1]
    g.tile_window(0)
    assert g.hands[0] == [0, 2, 0, 0, 0, 1] and g.deck == [] and g.discard == [0] * 6


def test_a6_exchange_not_usable_with_empty_hand():
    g, log = blank()
    g.tile_window(0)
    assert log[0].options == ["double_turn", "plus_two", ref.PROCEED]


# ---------------------------------------------------------------- A-7 winners


def test_a7_highest_vp_wins_and_ties_shared():
    g, _ = blank()
    g.vp = [5, 7, 3, 2]
    assert g.winners() == [1]
    g.vp = [5, 7, 7, 2]
    assert g.winners() == [1, 2]


def test_a7_influence_sum_tiebreak():
    g, _ = blank(tiebreak="influence_sum")
    g.vp = [5, 7, 7, 2]
    g.influence[1] = [3, 0, 0, 0, 0, 0]
    g.influence[2] = [1, 1, 1, 1, 0, 0]
    g.influence[3] = [9, 9, 9, 0, 0, 0]  # not tied on VP: irrelevant
    assert g.winners() == [2]
    g.influence[1] = [2, 2, 0, 0, 0, 0]
    assert g.winners() == [1, 2]


def test_a7_tenth_war_end_from_full_game():
    games = [ref.play_game(Rules(num_players=4), 11, i) for i in range(6)]
    tenth = [g for g in games if g.end_reason == "tenth_war"]
    assert tenth
    for g in tenth:
        assert g.wars == 10 and sum(g.peace) == 0 and g.century_scorings == 4 and sum(g.pacified) == 10
        assert g.winners() and all(g.vp[p] == max(g.vp) for p in g.winners())


# ---------------------------------------------------------------- §5 option orders


def test_s5_dp4_pairs_by_tribe_then_province():
    g, log = blank()
    put(g, RAE, 3, 1)
    g.hands[0] = [0, 0, 0, 1, 0, 0]
    g.hands[0][0] = 2
    g.play(0)
    opts = kinds(log, ref.DP_PLAY)[0].options
    assert opts == [(0, x) for x in range(6)] + [(3, x) for x in (0, 1, 2, 3, 4, 5, ITN)]


def test_s5_dp6_influence_first_then_provinces_in_order():
    g, log = blank(plans={0: {ref.DP_PLAY: [(2, PAN)]}})
    g.hands[0] = [0, 0, 1, 0, 0, 0]
    g.play(0)
    assert kinds(log, ref.DP_BONUS)[0].options == [ref.INFLUENCE, 0, 1, 2, 3, 4, 5, ITN, 18, 19]


def test_s5_dp5_distinct_tribes_ascending():
    g, log = blank()
    g.supply = [0] * 6
    g.hands[0] = [0, 3, 0, 1, 0, 2]
    g.play(0)
    assert log[0].kind == ref.DP_DISCARD and log[0].options == [1, 3, 5]


def test_s5_dp1_tiles_then_proceed():
    g, log = blank()
    g.hands[0] = [1, 0, 0, 0, 0, 0]
    g.tiles[0] = {"exchange", "double_turn"}
    g.tile_window(0)
    assert log[0].options == ["double_turn", "exchange", ref.PROCEED]


def test_s5_dp7_includes_all_zero_decline_and_lexicographic():
    g, log = blank()
    put(g, GIN, 0, 5)
    g.hands[1] = [0, 1, 0, 0, 0, 2]
    g.war(1, GIN)
    assert log[0].options == [ZERO, (0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 2), (0, 1, 0, 0, 0, 0),
                              (0, 1, 0, 0, 0, 1), (0, 1, 0, 0, 0, 2)]


def test_s5_dp3_exchange_vectors_exclude_zero():
    plan = {0: {ref.DP_TILE: ["exchange"]}}
    g, log = blank(plans=plan)
    g.hands[0] = [1, 1, 0, 0, 0, 0]
    g.tile_window(0)
    assert kinds(log, ref.DP_EXCHANGE)[0].options == [(0, 1, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0), (1, 1, 0, 0, 0, 0)]


def test_s5_single_option_dp_counts_as_ply():
    g, _ = blank(figures_per_tribe=1)
    g.hands[0] = [1, 0, 0, 0, 0, 0]
    g.tiles[0] = set()
    g.play(0)  # DP-4 (6 options) and DP-6 (influence only)
    assert g.plies == 2

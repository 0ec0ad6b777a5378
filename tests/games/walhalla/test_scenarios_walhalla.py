"""Walhalla reference: one hand-built scenario per numbered rule of spec ``docs/rules/walhalla.md`` (geometry §3,
W-1..W-12) and the option lists and orders of the decision points of §5.

Positions are built on a dealt game: :func:`blank` empties the board, the hands, the action deck and its
discard pile, makes every field a village (no immediate effect, no wheat) and sets the tips to inner
(3, 4, 5) and outer (6, 7, 8); each test then lays exactly what it needs.  Players are :class:`Script`
objects: they log every decision (with the view they were shown) and answer from a plan, else with the
first option (the empty boarding, ``board``, the lowest fjord, the left candidate, ``play_axe``,
``play_shield``, ``defender_wins``, the all-zero card vector).
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from toolkit.core.rng import CHANCE, Stream
from toolkit.games.walhalla import reference as ref
from toolkit.games.walhalla.data import (
    AXE, CULT, FOREST, HORN, PLUNDER, SHIELD, VILLAGE, WALHALLA_CARD, WHEAT, load_tiles,
)
from toolkit.games.walhalla.rules import DRAW_18, DRAW_18_COMBINATIONS, Rules

NO_CARDS = [0, 0, 0, 0, 0]


class Script:
    """A scripted player: ``plan[kind]`` is a list of choices (or callables ``f(decision)``) used in
    order; when it runs out, the first option."""

    def __init__(self, log, plan=None):
        self.log = log
        self.plan = {k: list(v) for k, v in (plan or {}).items()}

    def choose(self, view, d):
        d.view = view
        self.log.append(d)
        queue = self.plan.get(d.kind)
        c = queue.pop(0) if queue else d.options[0]
        c = c(d) if callable(c) else c
        assert c in d.options, (d, c)
        return c


def blank(n=4, plans=None, **kw):
    """A dealt game with an empty board of villages, empty hands, deck and discard, scripted players."""
    rules = Rules(num_players=n, start_player="seat0", **kw)
    g = ref.Game(rules, 1, 0, ("random",) * n)
    g.hands = [[0] * 5 for _ in range(n)]
    g.deck = []
    g.discard = [0] * 5
    g.occupant = [[-1] * len(row) for row in g.occupant]
    g.field_type = [[VILLAGE] * len(row) for row in g.field_type]
    g.field_value = [[0] * len(row) for row in g.field_value]
    g.inner_tip, g.outer_tip = [3, 4, 5], [6, 7, 8]
    log = []
    plans = plans or {}
    for p in range(n):
        g.players[p] = Script(log, plans.get(p))
    return g, log


def dragon(g, colour, seat):
    """The index of dragon D_colour_seat."""
    return next(d for d in range(len(g.dragon_colour)) if g.dragon_colour[d] == colour and g.dragon_seat[d] == seat)


def kinds(log, kind):
    return [d for d in log if d.kind == kind]


def on_board(g, p):
    return sum(1 for row in g.occupant for o in row if o == p)


def vp_adds_up(g):
    """Every VP gained is booked under exactly one source of ``vp_from``."""
    return g.vp == [sum(g.vp_from[source][p] for source in ref.VP_SOURCES) for p in range(g.n)]


def vikings(g, p):
    """§7.1 for colour p between actions (nobody aboard)."""
    return g.midgard[p] + g.asgard[p] + g.walhalla[p] + on_board(g, p) + g.aboard.count(p)


# ---------------------------------------------------------------- §3 geometry


def test_s3_1_peninsula_has_two_fields_per_tile():
    g, _ = blank(peninsula_tiles=(5, 6, 7))
    assert g.lengths == [5, 6, 7]
    assert [len(row) for row in g.occupant] == [10, 12, 14]
    assert [len(row) for row in g.field_type] == [10, 12, 14] and [len(r) for r in g.field_value] == [10, 12, 14]


def test_s3_2_s3_3_positions_touch_bordering_peninsulas_left_first():
    g, _ = blank(peninsula_tiles=(5, 6, 7))  # P0 10 fields, P1 12, P2 14
    assert g.fields_at(0, 1) == [(0, 0)]  # outer fjord F0: only P0 on its right
    assert g.fields_at(1, 1) == [(0, 0), (1, 0)]  # inner fjord F1: P0 (left), P1 (right)
    assert g.fields_at(2, 4) == [(1, 3), (2, 3)]
    assert g.fields_at(3, 1) == [(2, 0)]  # outer fjord F3: only P2 on its left
    assert g.fields_at(1, 10) == [(0, 9), (1, 9)]
    assert g.fields_at(1, 11) == [(1, 10)]  # beyond P0's last field
    assert g.fields_at(1, 13) == []  # beyond both: the tips are not fields
    assert g.fields_at(0, 10) == [(0, 9)] and g.fields_at(0, 11) == []
    assert g.fields_at(2, 13) == [(2, 12)] and g.fields_at(3, 14) == [(2, 13)] and g.fields_at(3, 15) == []


def test_s3_4_new_dragon_takes_positions_3s_plus_1_to_3s_plus_3():
    g, log = blank(plans={0: {ref.DP_BOARD: [7], ref.DP_FJORD: [1]}})
    g.dragons = [dragon(g, 0, 1)]
    g.moored = [0, 2, 0, 0]
    g.turn(0)
    assert [d.info for d in kinds(log, ref.DP_LANDING)] == [7, 8, 9]
    assert [d.options for d in kinds(log, ref.DP_LANDING)] == [[(0, 6), (1, 6)], [(0, 7), (1, 7)], [(0, 8), (1, 8)]]
    assert g.moored == [0, 3, 0, 0] and g.fjord == 1
    assert g.occupant[0][6:9] == [0, 0, 0]


def test_s3_4_legal_destination_iff_bow_touches_a_field():
    g, _ = blank(peninsula_tiles=(5, 6, 7))  # reach: F0 10, F1 12, F2 14, F3 14
    g.moored = [3, 3, 4, 4]  # bows at 10, 10, 13, 13: all touch a field
    assert g.legal_fjords() == [0, 1, 2, 3]
    g.moored = [4, 4, 4, 4]  # bows at 13: beyond P0 (10) and P1 (12); F2 and F3 reach 14
    assert g.legal_fjords() == [2, 3]
    g.moored = [4, 4, 5, 5]  # bows at 16
    assert g.legal_fjords() == []


@pytest.mark.parametrize("lengths", [t for t in itertools.product(range(5, 9), repeat=3) if sum(t) <= 18])
def test_s3_4_capacity_is_ceil_reach_over_3_and_at_least_16(lengths):
    g, _ = blank(peninsula_tiles=lengths)
    capacity = []
    for f in range(4):
        g.moored = [0, 0, 0, 0]
        while f in g.legal_fjords():
            g.moored[f] += 1
        reach = max(2 * lengths[k] for k in (f - 1, f) if 0 <= k <= 2)
        capacity.append(g.moored[f])
        assert g.moored[f] == -(-reach // 3)
    assert sum(capacity) >= 16


def test_s3_3_seat_beyond_the_peninsulas_returns_to_midgard():
    g, log = blank(peninsula_tiles=(5, 5, 8), plans={0: {ref.DP_BOARD: [7], ref.DP_FJORD: [0]}})
    g.dragons = [dragon(g, 0, 2)]
    g.moored = [3, 0, 0, 0]  # positions 10, 11, 12; P0 has 10 fields
    g.turn(0)
    assert [d.info for d in kinds(log, ref.DP_LANDING)] == [10]
    assert g.occupant[0][9] == 0 and g.midgard[0] == 6 and g.aboard == [-1, -1, -1]
    assert vikings(g, 0) == 14


# ---------------------------------------------------------------- W-1 state


def test_w1_view_shows_own_hand_and_only_the_sizes_of_others():
    g, _ = blank()
    g.hands[1] = [1, 0, 2, 0, 0]
    g.hands[2] = [0, 3, 0, 0, 0]
    view = g.view(1)
    assert view["hand"] == [1, 0, 2, 0, 0] and view["hand_sizes"] == [0, 3, 3, 0]
    assert "hands" not in view and "deck" not in view and "dragons" not in view
    assert view["midgard"] == g.midgard and view["asgard"] == g.asgard and view["walhalla"] == g.walhalla


# ---------------------------------------------------------------- W-2 setup


@pytest.mark.parametrize("n,source,midgard,walhalla,asgard", [
    (4, "asgard", 7, 1, 6), (3, "asgard", 9, 1, 4), (4, "midgard", 6, 1, 7), (3, "midgard", 8, 1, 5)])
def test_w2_5_vikings_per_player_count_and_walhalla_source(n, source, midgard, walhalla, asgard):
    g = ref.Game(Rules(num_players=n, initial_walhalla_source=source), 2, 0, ("random",) * n)
    assert g.midgard == [midgard] * n and g.walhalla == [walhalla] * n and g.asgard == [asgard] * n
    assert all(vikings(g, p) == 14 for p in range(n))


@pytest.mark.parametrize("n", [3, 4])
def test_w2_6_cards_vp_dragons_at_setup(n):
    g = ref.Game(Rules(num_players=n), 4, 0, ("random",) * n)
    assert [sum(h) for h in g.hands] == [1] * n and len(g.deck) == 32 - n and g.discard == NO_CARDS
    assert Counter(g.deck) + Counter(c for h in g.hands for c in range(5) for _ in range(h[c])) == \
        Counter({AXE: 8, SHIELD: 6, HORN: 8, WALHALLA_CARD: 4, PLUNDER: 6})
    assert g.vp == [0] * n and sorted(g.dragons) == list(range(12))
    assert g.moored == [0, 0, 0, 0] and g.raid == 0 and all(o == -1 for row in g.occupant for o in row)


def test_w2_6_initial_action_cards_parameter():
    g = ref.Game(Rules(num_players=3, initial_action_cards=3), 4, 0, ("random",) * 3)
    assert [sum(h) for h in g.hands] == [3, 3, 3] and len(g.deck) == 23


def test_w2_1_fixed_lengths_are_used_as_given():
    for lengths in [(5, 6, 7), (8, 5, 5), (6, 6, 6), (5, 5, 5)]:
        assert ref.Game(Rules(peninsula_tiles=lengths), 3, 0, ("random",) * 4).lengths == list(lengths)


def test_w2_1_draw_18_gives_the_three_combinations_in_every_order():
    seen, orders = Counter(), set()
    for i in range(240):
        lengths = ref.Game(Rules(peninsula_tiles=DRAW_18), 5, i, ("random",) * 4).lengths
        assert sum(lengths) == 18 and tuple(sorted(lengths)) in DRAW_18_COMBINATIONS
        seen[tuple(sorted(lengths))] += 1
        orders.add(tuple(lengths))
    assert set(seen) == set(DRAW_18_COMBINATIONS) and min(seen.values()) >= 50
    assert {(5, 5, 8), (5, 8, 5), (8, 5, 5)} <= orders and len(orders) == 3 + 6 + 1


def test_w2_2_tiles_each_used_at_most_once_both_orientations():
    tiles = load_tiles()
    stock = Counter(zip(tiles.types, tiles.values))
    straight = turned = 0
    for i in range(40):
        g = ref.Game(Rules(peninsula_tiles=(5, 6, 6)), 6, i, ("random",) * 4)
        laid = Counter()
        for k in range(3):
            for t in range(g.lengths[k]):
                types = (g.field_type[k][2 * t], g.field_type[k][2 * t + 1])
                values = (g.field_value[k][2 * t], g.field_value[k][2 * t + 1])
                if (types, values) in stock:
                    straight += 1
                    laid[(types, values)] += 1
                else:
                    turned += 1
                    laid[(types[::-1], values[::-1])] += 1
        assert sum(laid.values()) == 17 and not laid - stock  # one tile set aside, none used twice
    assert straight > 200 and turned > 200


@pytest.mark.parametrize("seed,n", [(7, 4), (8, 3)])
def test_w2_setup_follows_the_documented_chance_order(seed, n):
    """W-2.2: P0 takes the first tiles from the coast outward, then P1, then P2; the draws in the order
    the reference's docstring gives (tiles, orientations, tips, deck, dragons, start player)."""
    g = ref.Game(Rules(num_players=n), seed, 3, ("random",) * n)
    s = Stream(seed, 3, CHANCE)

    def shuffle(items):
        for i in range(len(items) - 1, 0, -1):
            j = s.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    tiles = load_tiles()
    order = shuffle(list(range(18)))
    for k in range(3):
        types, values = [], []
        for t in order[6 * k:6 * k + 6]:
            a, b = (1, 0) if s.below(2) == 1 else (0, 1)
            types += [tiles.types[t][a], tiles.types[t][b]]
            values += [tiles.values[t][a], tiles.values[t][b]]
        assert g.field_type[k] == types and g.field_value[k] == values
    assert g.inner_tip == shuffle([3, 4, 5]) and g.outer_tip == shuffle([6, 7, 8])
    deck = shuffle([c for c, q in enumerate((8, 6, 8, 4, 6)) for _ in range(q)])
    assert [h.index(1) for h in g.hands] == deck[:n] and g.deck == deck[n:]
    assert g.dragons == shuffle(list(range(12)))
    assert g.start == g.first_player == s.below(n)


def test_w2_3_tips_are_permutations_and_all_orders_occur():
    inner, outer = set(), set()
    for i in range(120):
        g = ref.Game(Rules(), 9, i, ("random",) * 4)
        assert sorted(g.inner_tip) == [3, 4, 5] and sorted(g.outer_tip) == [6, 7, 8]
        inner.add(tuple(g.inner_tip))
        outer.add(tuple(g.outer_tip))
    assert len(inner) == 6 and len(outer) == 6


def test_w2_4_three_players_keep_the_fourth_colours_dragons():
    g = ref.Game(Rules(num_players=3), 2, 0, ("random",) * 3)
    assert len(g.midgard) == len(g.asgard) == len(g.walhalla) == len(g.hands) == len(g.vp) == 3
    assert sorted(g.dragons) == list(range(12)) and sum(1 for d in g.dragons if g.dragon_colour[d] == 3) == 3


def test_w2_8_start_player_seat0_and_random():
    assert {ref.Game(Rules(start_player="seat0"), 5, i, ("random",) * 4).start for i in range(20)} == {0}
    assert {ref.Game(Rules(), 5, i, ("random",) * 4).start for i in range(60)} == {0, 1, 2, 3}
    assert {ref.Game(Rules(num_players=3), 5, i, ("random",) * 3).start for i in range(60)} == {0, 1, 2}


# ---------------------------------------------------------------- W-3 structure, W-12 end


def traced(g):
    """Record the calls of the raid phases in ``g.trace``; ``turn`` records (raid, active)."""
    g.trace = []
    for name in ("turn", "card_phase", "peninsula_scoring", "final_scoring", "preparation"):
        method = getattr(g, name)

        def wrapper(*args, _name=name, _method=method):
            g.trace.append((_name, g.raid, args[0]) if _name == "turn" else (_name, g.raid))
            return _method(*args)
        setattr(g, name, wrapper)
    return g


@pytest.mark.parametrize("raids", [1, 3, 5])
def test_w3_w12_raids_phases_in_order_and_the_end(raids):
    g = traced(ref.Game(Rules(raids=raids), 11, 0, ("random",) * 4))
    log = []
    g.observer = lambda game, d, c: log.append((d.kind, game.raid))
    g.play_out()
    phases = [t for t in g.trace if t[0] != "turn"]
    expected = []
    for r in range(raids - 1):
        expected += [("card_phase", r), ("peninsula_scoring", r), ("preparation", r)]
    expected += [("card_phase", raids - 1), ("final_scoring", raids - 1), ("peninsula_scoring", raids - 1)]
    assert phases == expected
    assert g.raids_played == raids and len(g.turns_per_raid) == raids and sum(g.turns_per_raid) == g.turns
    # W-12: no turn after the last card phase, nothing after the final scoring
    i = g.trace.index(("card_phase", raids - 1))
    assert g.trace[i:] == [("card_phase", raids - 1), ("final_scoring", raids - 1), ("peninsula_scoring", raids - 1)]
    last = [k for k, r in log if r == raids - 1]
    if ref.DP_RAID_CARDS in last:
        assert set(last[last.index(ref.DP_RAID_CARDS):]) == {ref.DP_RAID_CARDS}
    assert ref.DP_SELL not in last


def test_w3_each_raid_starts_with_its_start_player_and_play_passes_clockwise():
    for i in range(5):
        g = traced(ref.Game(Rules(), 12, i, ("random",) * 4))
        first = g.start
        g.play_out()
        for r in range(3):
            actives = [t[2] for t in g.trace if t[0] == "turn" and t[1] == r]
            assert actives == [(first + r + x) % 4 for x in range(len(actives))]


# ---------------------------------------------------------------- W-4 the turn


def test_w4_1_draws_the_top_dragon():
    g, _ = blank()
    a, b = dragon(g, 1, 0), dragon(g, 2, 2)
    g.dragons = [a, b]
    g.midgard = [0, 0, 0, 0]
    g.turn(0)
    assert g.dragons == [b] and g.dragon == a and g.turns == 1 and g.turns_per_raid[0] == 1


@pytest.mark.parametrize("colour,cseat,midgard,expected", [
    (0, 1, 7, [0, 1, 2, 3, 4, 5, 6, 7]),  # own coloured seat: all 3 seats
    (0, 1, 2, [0, 1, 2, 3, 4, 5, 6]),  # |S| <= Midgard
    (0, 0, 1, [0, 1, 2, 4]),
    (2, 1, 7, [0, 1, 4, 5]),  # another colour's seat 1 is not A's
    (2, 0, 2, [0, 2, 4, 6]),
    (3, 2, 1, [0, 1, 2]),
])
def test_w4_2_dp1_subsets_by_bitmask_ascending(colour, cseat, midgard, expected):
    g, log = blank()
    g.dragons = [dragon(g, colour, cseat)]
    g.midgard[0] = midgard
    g.turn(0)
    boards = kinds(log, ref.DP_BOARD)
    assert len(boards) == 1 and boards[0].seat == 0 and boards[0].options == expected


def test_w4_2_boarding_takes_vikings_from_midgard_onto_the_chosen_seats():
    g, log = blank(plans={0: {ref.DP_BOARD: [5]}})
    g.dragons = [dragon(g, 1, 1)]
    g.midgard = [4, 0, 0, 0]
    g.turn(0)
    fjord = kinds(log, ref.DP_FJORD)[0]
    assert fjord.view["aboard"] == [0, -1, 0] and fjord.view["midgard"][0] == 2
    assert g.occupant[0][0] == 0 and g.occupant[0][2] == 0 and g.occupant[0][1] == -1
    assert g.midgard[0] == 2 and g.aboard == [-1, -1, -1] and g.landings[0] == 2


def test_w4_2_empty_midgard_boards_nobody_but_the_dragon_sails():
    g, log = blank(plans={0: {ref.DP_FJORD: [3]}})
    g.dragons = [dragon(g, 1, 1)]
    g.midgard = [0, 0, 3, 3]
    g.turn(0)
    assert [d.kind for d in log] == [ref.DP_FJORD]  # W-4.4: an empty dragon still sails (DP-3)
    assert log[0].options == [0, 1, 2, 3] and g.moored == [0, 0, 0, 1] and g.plies == 1


def test_w4_3_dp2_after_a_boards_before_the_fjord():
    g, log = blank(plans={0: {ref.DP_BOARD: [4]}, 2: {ref.DP_COLOUR_SEAT: [ref.BOARD]}})
    g.dragons = [dragon(g, 2, 1)]
    g.turn(0)
    assert [d.kind for d in log] == [ref.DP_BOARD, ref.DP_COLOUR_SEAT, ref.DP_FJORD, ref.DP_LANDING, ref.DP_LANDING]
    dp2 = log[1]
    assert dp2.seat == 2 and dp2.options == [ref.BOARD, ref.DECLINE]
    assert dp2.view["aboard"] == [-1, -1, 0]  # X sees A's boarding
    assert log[2].view["aboard"] == [-1, 2, 0]
    assert [d.seat for d in log[3:]] == [2, 0] and [d.info for d in log[3:]] == [2, 3]
    assert g.midgard == [6, 7, 6, 7] and g.occupant[0][1] == 2 and g.occupant[0][2] == 0


def test_w4_3_dp2_decline_leaves_the_seat_empty():
    g, log = blank(plans={2: {ref.DP_COLOUR_SEAT: [ref.DECLINE]}})
    g.dragons = [dragon(g, 2, 1)]
    g.turn(0)
    assert kinds(log, ref.DP_FJORD)[0].view["aboard"] == [-1, -1, -1] and g.midgard[2] == 7


def test_w4_3_no_dp2_for_the_active_players_own_colour():
    g, log = blank(plans={0: {ref.DP_BOARD: [2]}})
    g.dragons = [dragon(g, 0, 1)]
    g.turn(0)
    assert [d.kind for d in log] == [ref.DP_BOARD, ref.DP_FJORD, ref.DP_LANDING]


def test_w4_3_no_dp2_when_the_colour_owner_has_an_empty_midgard():
    g, log = blank()
    g.dragons = [dragon(g, 2, 0)]
    g.midgard[2] = 0
    g.turn(0)
    assert ref.DP_COLOUR_SEAT not in [d.kind for d in log]
    g.midgard[2] = 1
    g.dragons = [dragon(g, 2, 0)]
    g.turn(0)
    assert len(kinds(log, ref.DP_COLOUR_SEAT)) == 1


def test_w2_4_w4_3_three_players_fourth_colour_seat_stays_empty():
    g, log = blank(n=3, plans={0: {ref.DP_BOARD: [lambda d: d.options[-1]]}})
    g.dragons = [dragon(g, 3, 1)]
    g.turn(0)
    assert kinds(log, ref.DP_BOARD)[0].options == [0, 1, 4, 5]
    assert ref.DP_COLOUR_SEAT not in [d.kind for d in log]
    assert kinds(log, ref.DP_FJORD)[0].view["aboard"] == [0, -1, 0]


def test_w4_4_dp3_legal_fjords_ascending_and_the_choice_moors():
    g, log = blank(plans={0: {ref.DP_FJORD: [2]}})
    g.dragons = [dragon(g, 1, 0)]
    g.midgard = [0, 0, 0, 0]
    g.moored = [1, 4, 2, 0]  # F1 is full with 6, 6, 6
    g.turn(0)
    assert log[0].kind == ref.DP_FJORD and log[0].seat == 0 and log[0].options == [0, 2, 3]
    assert g.moored == [1, 4, 3, 0] and g.fjord == 2


def test_w4_4_single_legal_fjord_is_still_a_decision_point():
    g, log = blank()
    g.dragons = [dragon(g, 1, 0)]
    g.midgard = [0, 0, 0, 0]
    g.moored = [4, 4, 3, 4]
    g.turn(0)
    assert [d.options for d in log] == [[2]] and g.plies == 1


def test_w4_4_no_legal_fjord_returns_the_crew_to_midgard():
    g, log = blank(plans={0: {ref.DP_BOARD: [3]}})
    g.dragons = [dragon(g, 0, 0)]
    g.moored = [4, 4, 4, 4]  # cannot happen in play (§3.4); the fixed design choice
    g.turn(0)
    assert [d.kind for d in log] == [ref.DP_BOARD] and g.midgard[0] == 7 and g.aboard == [-1, -1, -1]


def test_w4_player_with_empty_midgard_still_takes_turns():
    g, log = blank(raids=1, plans={p: {ref.DP_COLOUR_SEAT: [ref.DECLINE] * 12} for p in range(4)})
    g.midgard = [0, 3, 3, 3]
    g.play_out()
    assert g.turns == 12  # nobody boards (first DP-1 option: the empty set)
    assert [d.seat for d in kinds(log, ref.DP_FJORD)] == [0, 1, 2, 3] * 3
    assert 0 not in [d.seat for d in kinds(log, ref.DP_BOARD)]


# ---------------------------------------------------------------- W-5 disembarking


def test_w5_disembark_bow_middle_stern_candidates_left_then_right():
    g, log = blank(plans={0: {ref.DP_BOARD: [7], ref.DP_FJORD: [2],
                              ref.DP_LANDING: [lambda d: d.options[1]] * 3}})
    g.dragons = [dragon(g, 0, 2)]
    g.turn(0)
    landings = kinds(log, ref.DP_LANDING)
    assert [d.info for d in landings] == [1, 2, 3]
    assert [d.options for d in landings] == [[(1, 0), (2, 0)], [(1, 1), (2, 1)], [(1, 2), (2, 2)]]
    assert g.occupant[2][:3] == [0, 0, 0] and g.occupant[1][:3] == [-1, -1, -1]


def test_w5_bow_lands_before_middle_its_cult_card_arms_the_middle():
    """Seat order: the bow's cult card (an Axe) is in hand when the middle Viking attacks."""
    g, log = blank(plans={0: {ref.DP_BOARD: [3]}})
    g.dragons = [dragon(g, 0, 2)]
    g.field_type[0][0] = CULT
    g.occupant[0][1] = 1
    g.deck = [AXE]
    g.turn(0)
    assert [d.kind for d in log] == [ref.DP_BOARD, ref.DP_FJORD, ref.DP_LANDING, ref.DP_LANDING, ref.DP_AXE]
    assert g.occupant[0][:2] == [0, 0] and g.axes[0] == 1 and g.discard[AXE] == 1


def test_w5_1_own_occupied_fields_are_not_candidates():
    g, log = blank()
    g.occupant[0][0] = 0
    g.disembark(0, 1, 1)
    assert log[0].options == [(1, 0)]
    g.occupant[1][0] = 0
    midgard = g.midgard[0]
    g.disembark(0, 1, 1)  # W-5.2: no candidate, back to Midgard, no decision
    assert len(log) == 1 and g.midgard[0] == midgard + 1


def test_w5_1_other_colours_fields_stay_candidates():
    g, log = blank()
    g.occupant[0][4] = 1
    g.occupant[1][4] = 2
    g.disembark(0, 1, 5)
    assert log[0].options == [(0, 4), (1, 4)]


def test_w5_3_landing_optional_offers_stay_last():
    g, log = blank(landing_mandatory=False, plans={0: {ref.DP_LANDING: [ref.STAY]}})
    midgard = g.midgard[0]
    g.disembark(0, 1, 2)
    assert log[0].options == [(0, 1), (1, 1), ref.STAY] and log[0].seat == 0 and log[0].info == 2
    assert g.midgard[0] == midgard + 1 and g.occupant[0][1] == g.occupant[1][1] == -1 and g.landings[0] == 0


def test_w5_3_landing_optional_with_no_candidate_asks_nothing():
    g, log = blank(landing_mandatory=False)
    g.occupant[0][0] = 0
    g.disembark(0, 0, 1)
    assert log == []


def test_w5_3_mandatory_landing_offers_no_stay():
    g, log = blank()
    g.disembark(0, 0, 1)
    assert log[0].options == [(0, 0)] and g.occupant[0][0] == 0 and g.landings[0] == 1


def test_w5_4_forest_gives_vp_now():
    g, _ = blank(forest_vp=3)
    g.field_type[1][3] = FOREST
    g.disembark(2, 2, 4)
    assert g.occupant[1][3] == 2 and g.vp == [0, 0, 3, 0] and g.vp_from["forest"] == [0, 0, 3, 0]


@pytest.mark.parametrize("cards", [1, 2])
def test_w5_4_cult_place_draws_cards_from_the_front(cards):
    g, _ = blank(cult_cards=cards)
    g.field_type[0][0] = CULT
    g.deck = [HORN, AXE, PLUNDER]
    g.disembark(1, 0, 1)
    assert g.hands[1] == ([0, 0, 1, 0, 0] if cards == 1 else [1, 0, 1, 0, 0]) and len(g.deck) == 3 - cards
    assert g.vp == [0, 0, 0, 0]


def test_w5_6_cult_draw_reshuffles_the_discard_pile():
    g, _ = blank()
    g.field_type[0][0] = CULT
    g.discard = [0, 0, 3, 0, 0]
    g.disembark(1, 0, 1)
    assert g.hands[1] == [0, 0, 1, 0, 0] and g.deck == [HORN, HORN] and g.discard == NO_CARDS


def test_w5_6_cult_draw_with_deck_and_discard_empty_draws_nothing():
    g, _ = blank(cult_cards=2)
    g.field_type[0][0] = CULT
    g.deck = [SHIELD]
    g.disembark(1, 0, 1)
    assert g.hands[1] == [0, 1, 0, 0, 0] and g.deck == [] and g.discard == NO_CARDS
    assert g.occupant[0][0] == 1


@pytest.mark.parametrize("kind,value", [(VILLAGE, 0), (WHEAT, 3)])
def test_w5_4_village_and_wheat_do_nothing_now(kind, value):
    g, _ = blank()
    g.field_type[0][0], g.field_value[0][0] = kind, value
    g.deck = [HORN]
    g.disembark(1, 0, 1)
    assert g.occupant[0][0] == 1 and g.vp == [0] * 4 and g.hands[1] == NO_CARDS and g.deck == [HORN]


def test_w5_5_other_colour_on_the_chosen_field_means_combat():
    g, log = blank()
    g.occupant[0][0] = 3
    g.disembark(1, 0, 1)
    assert [(d.kind, d.seat) for d in log] == [(ref.DP_LANDING, 1), (ref.DP_OUTCOME, 3)]
    assert log[1].info == (0, 0) and g.combats == 1


# ---------------------------------------------------------------- W-6 combat


def combat_position(attacker_hand, defender_hand, **kw):
    plans = kw.pop("plans", None)
    g, log = blank(plans=plans, **kw)
    g.occupant[1][2] = 3
    g.hands[0] = list(attacker_hand)
    g.hands[3] = list(defender_hand)
    return g, log


def test_w6_no_axe_no_dp5_the_defender_decides():
    g, log = combat_position(NO_CARDS, [0, 1, 0, 0, 0], plans={3: {ref.DP_OUTCOME: [ref.DEFENDER_WINS]}})
    g.combat(0, 1, 2)
    assert [(d.kind, d.seat, d.options) for d in log] == [
        (ref.DP_OUTCOME, 3, [ref.DEFENDER_WINS, ref.ATTACKER_WINS])]
    assert g.occupant[1][2] == 3 and g.walhalla == [2, 1, 1, 0] and g.asgard[3] == 7
    assert g.to_walhalla == [1, 0, 0, 0] and g.heroes_lost == [0, 0, 0, 1] and g.attacker_wins == 0


def test_w6_axe_declined_no_dp6():
    g, log = combat_position([1, 0, 0, 0, 0], [0, 1, 0, 0, 0], plans={0: {ref.DP_AXE: [ref.DECLINE]}})
    g.combat(0, 1, 2)
    assert [d.kind for d in log] == [ref.DP_AXE, ref.DP_OUTCOME]
    assert log[0].options == [ref.PLAY_AXE, ref.DECLINE] and log[0].seat == 0 and log[0].info == (1, 2)
    assert g.hands[0] == [1, 0, 0, 0, 0] and g.axes == [0] * 4


def test_w6_uncancelled_axe_wins_without_a_decision():
    g, log = combat_position([2, 0, 0, 0, 0], [0, 0, 3, 0, 0])
    g.combat(0, 1, 2)
    assert [d.kind for d in log] == [ref.DP_AXE]  # the defender holds no Shield: no DP-6, no DP-7
    assert g.occupant[1][2] == 0 and g.walhalla == [0, 1, 1, 2] and g.asgard[0] == 7
    assert g.hands[0] == [1, 0, 0, 0, 0] and g.discard == [1, 0, 0, 0, 0] and g.axes[0] == 1
    assert g.attacker_wins == 1 and g.landings[0] == 1 and g.to_walhalla == [0, 0, 0, 1]


def test_w6_axe_and_shield_then_the_defender_decides():
    g, log = combat_position([1, 0, 0, 0, 0], [0, 2, 0, 0, 0], plans={3: {ref.DP_OUTCOME: [ref.ATTACKER_WINS]}})
    g.combat(0, 1, 2)
    assert [(d.kind, d.seat) for d in log] == [(ref.DP_AXE, 0), (ref.DP_SHIELD, 3), (ref.DP_OUTCOME, 3)]
    assert log[1].options == [ref.PLAY_SHIELD, ref.DECLINE]
    assert g.hands[0] == NO_CARDS and g.hands[3] == [0, 1, 0, 0, 0] and g.discard == [1, 1, 0, 0, 0]
    assert g.axes[0] == 1 and g.shields[3] == 1 and g.occupant[1][2] == 0


def test_w6_shield_declined_axe_wins():
    g, log = combat_position([1, 0, 0, 0, 0], [0, 1, 0, 0, 0], plans={3: {ref.DP_SHIELD: [ref.DECLINE]}})
    g.combat(0, 1, 2)
    assert [d.kind for d in log] == [ref.DP_AXE, ref.DP_SHIELD]
    assert g.occupant[1][2] == 0 and g.hands[3] == [0, 1, 0, 0, 0] and g.shields == [0] * 4


@pytest.mark.parametrize("loses_hero", [True, False])
def test_w6_5_winner_loses_a_hero_to_asgard(loses_hero):
    g, _ = combat_position(NO_CARDS, NO_CARDS, winner_loses_hero=loses_hero,
                           plans={3: {ref.DP_OUTCOME: [ref.ATTACKER_WINS]}})
    g.walhalla = [3, 1, 1, 1]
    g.combat(0, 1, 2)
    assert g.walhalla == ([2, 1, 1, 2] if loses_hero else [3, 1, 1, 2])
    assert g.asgard[0] == (7 if loses_hero else 6) and g.heroes_lost[0] == int(loses_hero)


def test_w6_5_winner_without_heroes_loses_nothing():
    g, _ = combat_position(NO_CARDS, NO_CARDS)
    g.walhalla = [1, 1, 1, 0]
    g.combat(0, 1, 2)  # the defender wins with an empty Walhalla
    assert g.walhalla == [2, 1, 1, 0] and g.asgard[3] == 6 and g.heroes_lost == [0] * 4


def test_w6_6_winning_attacker_applies_the_field_effect():
    g, _ = combat_position(NO_CARDS, NO_CARDS, plans={3: {ref.DP_OUTCOME: [ref.ATTACKER_WINS]}})
    g.field_type[1][2] = FOREST
    g.combat(0, 1, 2)
    assert g.occupant[1][2] == 0 and g.vp == [2, 0, 0, 0] and g.landings == [1, 0, 0, 0]


def test_w6_7_combat_cards_are_discarded_after_the_cult_draw():
    g, log = combat_position([1, 0, 0, 0, 0], [0, 1, 0, 0, 0], plans={3: {ref.DP_OUTCOME: [ref.ATTACKER_WINS]}})
    g.field_type[1][2] = CULT
    g.combat(0, 1, 2)  # deck and discard empty at the draw: nothing drawn
    assert g.hands[0] == NO_CARDS and g.deck == [] and g.discard == [1, 1, 0, 0, 0]
    g2, _ = combat_position([1, 0, 0, 0, 0], NO_CARDS)
    g2.field_type[1][2] = CULT
    g2.discard = [0, 0, 0, 0, 1]
    g2.combat(0, 1, 2)  # the reshuffle holds only the plunder; the Axe goes to the discard after
    assert g2.hands[0] == [0, 0, 0, 0, 1] and g2.deck == [] and g2.discard == [1, 0, 0, 0, 0]


def test_w6_fight_through_disembark_keeps_vikings():
    g, log = blank(plans={0: {ref.DP_BOARD: [1]}, 3: {ref.DP_OUTCOME: [ref.DEFENDER_WINS]}})
    g.dragons = [dragon(g, 1, 1)]
    g.occupant[0][0] = 3
    g.midgard[3] -= 1
    before = [vikings(g, p) for p in range(4)]
    g.turn(0)
    assert g.walhalla[0] == 2 and g.occupant[0][0] == 3 and before == [vikings(g, p) for p in range(4)] == [14] * 4


# ---------------------------------------------------------------- W-7.1 raid end


def test_w7_1_raid_over_on_empty_dragon_deck_or_empty_midgards():
    g, _ = blank()
    assert not g.raid_over()
    g.midgard = [0, 0, 0, 1]
    assert not g.raid_over()
    g.midgard = [0, 0, 0, 0]
    assert g.raid_over()
    g.midgard = [5, 5, 5, 5]
    g.dragons = []
    assert g.raid_over()


def test_w7_1_raid_can_end_before_its_first_turn():
    g, log = blank(raids=1, plans={0: {ref.DP_RAID_CARDS: [(0, 0, 0, 0, 1)]}})
    g.midgard = [0, 0, 0, 0]
    g.hands[0] = [0, 0, 0, 0, 1]
    g.walhalla = [2, 1, 0, 0]
    g.play_out()
    assert g.turns == 0 and g.raids_played == 1 and [d.kind for d in log] == [ref.DP_RAID_CARDS]
    assert g.vp == [2 + 6, 4, 0, 0]  # the card phase and the final scoring still happen


def test_w7_1_checked_before_every_turn():
    g, log = blank(raids=1, plans={0: {ref.DP_BOARD: [1]}})
    g.dragons = [dragon(g, 0, 0)] + [d for d in g.dragons if d != dragon(g, 0, 0)]
    g.midgard = [1, 0, 0, 0]
    g.play_out()
    assert g.turns == 1 and g.occupant[0][0] == 0 and len(g.dragons) == 11


def test_w7_1_twelve_dragons_end_the_raid():
    g, _ = blank(raids=1, plans={p: {ref.DP_COLOUR_SEAT: [ref.DECLINE] * 12} for p in range(4)})
    g.play_out()  # nobody boards
    assert g.turns == 12 and sum(g.moored) == 12 and g.midgard == [7] * 4


# ---------------------------------------------------------------- W-7.2 card phase


def test_w7_2_dp8_options_in_lexicographic_order():
    g, log = blank()
    g.hands[0] = [0, 0, 2, 1, 1]
    g.card_phase(last=False)
    horns = [(a, b, c) for a in range(3) for b in range(3) for c in range(3) if a + b + c <= 2]
    expected = [h + (w, p) for h in horns for w in range(2) for p in range(2)]
    assert log[0].kind == ref.DP_RAID_CARDS and log[0].options == sorted(expected) == expected
    assert log[0].options[0] == (0, 0, 0, 0, 0) and len(log[0].options) == 40


def test_w7_2_dp8_last_raid_offers_no_walhalla_cards():
    g, log = blank()
    g.hands[0] = [0, 0, 1, 2, 0]
    g.hands[1] = [0, 0, 0, 2, 0]  # only Walhalla cards: no DP-8 in the last raid
    g.card_phase(last=True)
    assert [d.seat for d in log] == [0]
    assert log[0].options == [(0, 0, 0, 0, 0), (0, 0, 1, 0, 0), (0, 1, 0, 0, 0), (1, 0, 0, 0, 0)]
    assert ref.raid_card_options([0, 0, 1, 2, 0], True) == log[0].options


def test_w7_2_dp8_order_start_player_first_and_triggers():
    g, log = blank()
    g.start = 2
    g.hands = [[0, 0, 0, 1, 0], [5, 5, 0, 0, 0], [0, 0, 0, 0, 1], [0, 0, 1, 0, 0]]
    g.card_phase(last=False)
    assert [d.seat for d in log] == [2, 3, 0]  # seat 1 holds only Axes and Shields


def test_w7_2_cards_revealed_together_and_resolved():
    plans = {0: {ref.DP_RAID_CARDS: [(0, 2, 0, 1, 2)]}, 1: {ref.DP_RAID_CARDS: [(1, 0, 0, 0, 1)]}}
    g, log = blank(plans=plans, plunder_vp=3, horn_strength=5)
    g.hands = [[1, 0, 2, 1, 2], [0, 0, 1, 0, 1], [0] * 5, [0] * 5]
    horns, cards = g.card_phase(last=False)
    assert log[1].view["vp"] == [0, 0, 0, 0]  # seat 0's plunder is not resolved before seat 1 lays
    assert g.vp == [6, 3, 0, 0] and g.vp_from["plunder"] == [6, 3, 0, 0] and vp_adds_up(g)
    assert horns == [[0, 10, 0], [5, 0, 0], [0, 0, 0], [0, 0, 0]] and cards == [1, 0, 0, 0]
    assert g.hands == [[1, 0, 0, 0, 0], [0] * 5, [0] * 5, [0] * 5] and g.discard == [0, 0, 3, 1, 3]
    assert g.walhalla == [1, 1, 1, 1]  # the Walhalla card counts for the ranking only (W-10.1)


def test_w7_2_horn_strength_counts_on_the_chosen_peninsula_only():
    g, _ = blank()
    g.field_type = [[FOREST] * 12 for _ in range(3)]
    g.occupant[0][:5] = [0, 0, 0, 1, 1]
    g.occupant[1][:3] = [0, 0, 1]
    g.occupant[2][0] = 0
    # seat 1's Horns: one on P0 (2 Vikings + 2 = 4 beats 3), one on P2 (no Viking there: nothing);
    # none on P1, where seat 0's 2 Vikings beat its 1
    g.peninsula_scoring([[0, 0, 0], [2, 0, 2], [0, 0, 0], [0, 0, 0]])
    assert g.vp_from["peninsula"] == [3 + 7 + 8, 6 + 4, 0, 0] == g.vp[:2] + [0, 0]


# ---------------------------------------------------------------- W-8 peninsula scoring


def score_p0(g, counts, horns=None, kind=FOREST):
    """Put counts[p] Vikings of p on P0 (fields of ``kind``), score, return the peninsula VP."""
    g.field_type[0] = [kind] * 12
    j = 0
    for p, c in enumerate(counts):
        for _ in range(c):
            g.occupant[0][j] = p
            j += 1
    g.outer_tip[0], g.inner_tip[0] = 8, 5
    g.peninsula_scoring(horns or [[0, 0, 0]] * g.n)
    return g.vp_from["peninsula"]


@pytest.mark.parametrize("rounding,counts,expected", [
    ("up", [3, 1, 0, 0], [8, 5, 0, 0]),  # sole first: outer tip; sole second: inner tip
    ("up", [3, 2, 2, 0], [8, 3, 3, 0]),  # second shared: ceil(5 / 2)
    ("down", [3, 2, 2, 0], [8, 2, 2, 0]),
    ("up", [3, 1, 1, 1], [8, 2, 2, 2]),  # ceil(5 / 3)
    ("down", [3, 1, 1, 1], [8, 1, 1, 1]),
    ("up", [2, 2, 1, 0], [7, 7, 0, 0]),  # tied first: ceil(13 / 2), no second
    ("down", [2, 2, 1, 0], [6, 6, 0, 0]),
    ("up", [2, 2, 2, 1], [5, 5, 5, 0]),  # ceil(13 / 3)
    ("down", [2, 2, 2, 1], [4, 4, 4, 0]),
    ("up", [3, 3, 3, 3], [4, 4, 4, 4]),  # ceil(13 / 4)
    ("down", [3, 3, 3, 3], [3, 3, 3, 3]),
    ("up", [0, 0, 2, 0], [0, 0, 8, 0]),  # alone: no second place
    ("up", [0, 0, 0, 0], [0, 0, 0, 0]),
])
def test_w8_3_majority_with_ties_and_rounding(rounding, counts, expected):
    g, _ = blank(tie_rounding=rounding)
    assert score_p0(g, counts) == expected == g.vp


def test_w8_1_village_bonus_adds_strength():
    g, _ = blank(village_bonus=2)
    g.occupant[0][:4] = [0, 0, 1, 1]
    g.occupant[0][4] = 1
    g.field_type[0] = [VILLAGE, FOREST, FOREST, FOREST, FOREST] + [FOREST] * 7
    g.outer_tip[0], g.inner_tip[0] = 8, 5
    g.peninsula_scoring([[0, 0, 0]] * 4)  # seat 0: 2 + 2 = 4 > seat 1: 3
    assert g.vp_from["peninsula"] == [8, 5, 0, 0]


@pytest.mark.parametrize("bonus,expected", [(1, [8, 5, 0, 0]), (0, [5, 8, 0, 0])])
def test_w8_1_villages_decide_against_more_vikings(bonus, expected):
    g, _ = blank(village_bonus=bonus)
    g.occupant[0][:5] = [0, 0, 1, 1, 1]
    g.field_type[0] = [VILLAGE, VILLAGE] + [FOREST] * 10  # seat 0: 2 + 2 bonus vs seat 1: 3
    g.outer_tip[0], g.inner_tip[0] = 8, 5
    g.peninsula_scoring([[0, 0, 0]] * 4)
    assert g.vp_from["peninsula"] == expected


def test_w8_2_eligibility_needs_vikings_not_horns():
    g, _ = blank()
    assert score_p0(g, [1, 0, 0, 0], horns=[[0, 0, 0], [10, 0, 0], [0, 0, 0], [0, 0, 0]]) == [8, 0, 0, 0]


def test_w8_2_eligibility_minimum_parameter():
    g, _ = blank(peninsula_eligibility_min_vikings=2)
    assert score_p0(g, [3, 1, 2, 0], horns=[[0, 0, 0], [8, 0, 0], [0, 0, 0], [0, 0, 0]]) == [8, 0, 5, 0]


def test_w8_scores_every_peninsula_with_its_tips():
    g, _ = blank()
    g.inner_tip, g.outer_tip = [5, 3, 4], [7, 8, 6]
    g.occupant[0][0] = 0
    g.occupant[1][0] = 1
    g.occupant[1][1] = 1
    g.occupant[1][2] = 2
    g.occupant[2][5] = 3
    g.peninsula_scoring([[0, 0, 0]] * 4)
    assert g.vp == [7, 8, 3, 6]


def test_w8_4_wheat_gives_its_printed_value_each_scoring():
    g, _ = blank()
    g.field_type[0][0], g.field_value[0][0] = WHEAT, 3
    g.field_type[2][11], g.field_value[2][11] = WHEAT, 2
    g.field_type[1][4], g.field_value[1][4] = WHEAT, 1  # unoccupied
    g.occupant[0][0] = 1
    g.occupant[2][11] = 1
    g.peninsula_scoring([[0, 0, 0]] * 4)
    assert g.vp_from["wheat"] == [0, 5, 0, 0] and g.vp[1] == 5 + 6 + 8 and vp_adds_up(g)
    g.peninsula_scoring([[0, 0, 0]] * 4)
    assert g.vp_from["wheat"] == [0, 10, 0, 0] and g.vp[1] == 2 * (5 + 6 + 8)


# ---------------------------------------------------------------- W-9 final scoring


@pytest.mark.parametrize("rounding,walhalla,expected", [
    ("up", [3, 2, 1, 0], [6, 4, 0, 0]),
    ("up", [3, 2, 2, 0], [6, 2, 2, 0]),
    ("up", [3, 1, 1, 1], [6, 2, 2, 2]),  # ceil(4 / 3)
    ("down", [3, 1, 1, 1], [6, 1, 1, 1]),
    ("up", [3, 3, 1, 0], [5, 5, 0, 0]),  # tied first: (6 + 4) / 2, no second
    ("up", [2, 2, 2, 1], [4, 4, 4, 0]),  # ceil(10 / 3)
    ("down", [2, 2, 2, 1], [3, 3, 3, 0]),
    ("up", [2, 0, 0, 0], [6, 0, 0, 0]),  # an empty Walhalla is not eligible
    ("up", [0, 0, 0, 0], [0, 0, 0, 0]),
])
def test_w9_3_walhalla_majority(rounding, walhalla, expected):
    g, _ = blank(tie_rounding=rounding)
    g.walhalla = list(walhalla)
    g.final_scoring([[0, 0, 0]] * 4)
    assert g.vp_from["walhalla"] == expected and g.walhalla == walhalla and g.vp == expected


def test_w9_3_walhalla_final_vp_parameter():
    g, _ = blank(walhalla_final_vp=(9, 3))
    g.walhalla = [1, 4, 2, 2]
    g.final_scoring([[0, 0, 0]] * 4)
    assert g.vp_from["walhalla"] == [0, 9, 2, 2]


@pytest.mark.parametrize("per_field", [1, 3])
def test_w9_2_final_scoring_adds_a_point_per_occupied_field(per_field):
    g, _ = blank(final_vp_per_occupied_field=per_field)
    g.walhalla = [0, 0, 0, 0]
    g.field_type[1][5], g.field_value[1][5] = WHEAT, 2
    g.occupant[0][0] = g.occupant[1][5] = g.occupant[2][7] = 2
    g.occupant[2][8] = 0
    g.final_scoring([[0, 0, 0]] * 4)
    assert g.vp_from["fields"] == [per_field, 0, 3 * per_field, 0] and vp_adds_up(g)
    # P0 and P1: seat 2 alone; P2: seats 0 and 2 tie (1 + village each): ceil((8 + 5) / 2)
    assert g.vp_from["wheat"] == [0, 0, 2, 0] and g.vp_from["peninsula"] == [7, 0, 6 + 7 + 7, 0]


def test_w9_4_shared_win_and_the_walhalla_then_fields_tiebreak():
    g, _ = blank()
    g.vp = [10, 10, 10, 3]
    g.walhalla = [2, 2, 1, 5]
    assert g.winners() == [0, 1, 2]
    g2, _ = blank(tiebreak="walhalla_then_fields")
    g2.vp, g2.walhalla = [10, 10, 10, 3], [2, 2, 1, 5]
    assert g2.winners() == [0, 1]  # equal Walhalla, equal fields: shared
    g2.occupant[0][0] = 1
    assert g2.winners() == [1]
    g2.walhalla[2] = 3
    assert g2.winners() == [2]
    g2.vp = [10, 9, 9, 3]
    assert g2.winners() == [0]


# ---------------------------------------------------------------- W-7.3 preparation


def test_w7_3_1_cleanup_keeps_only_wheat():
    g, _ = blank()
    g.field_type[0][:4] = [VILLAGE, FOREST, CULT, WHEAT]
    g.field_value[0][3] = 2
    g.occupant[0][:4] = [1, 1, 2, 3]
    g.occupant[2][11] = 0
    g.walhalla = [0, 0, 0, 0]
    g.asgard = [0, 0, 0, 0]
    g.preparation([0, 0, 0, 0])
    assert g.occupant[0][:4] == [-1, -1, -1, 3]
    assert all(o == -1 for k in range(3) for j, o in enumerate(g.occupant[k]) if (k, j) != (0, 3))
    # W-7.3.1 before W-10: everyone ranks first (8), and the cleaned-up Vikings are in Asgard to move
    assert g.midgard == [8, 9, 8, 7] and g.asgard == [0, 0, 0, 0]


def test_w7_3_1_cleanup_before_reinforcement():
    g, _ = blank(sell_cards_for_vikings=False)
    g.asgard = [0, 0, 0, 0]
    g.occupant[0][:3] = [0, 0, 0]
    g.walhalla = [0, 0, 0, 0]
    g.preparation([0, 0, 0, 0])
    assert g.midgard[0] == 7 + 3 and g.asgard[0] == 0 and on_board(g, 0) == 0


def test_w7_3_2_dragons_collected_and_shuffled():
    orders = set()
    for i in range(4):
        g = ref.Game(Rules(start_player="seat0"), 21, i, ("random",) * 4)
        g.dragons = g.dragons[:3]
        g.moored = [2, 3, 2, 2]
        g.preparation([0, 0, 0, 0])
        assert sorted(g.dragons) == list(range(12)) and g.moored == [0, 0, 0, 0]
        orders.add(tuple(g.dragons))
    assert len(orders) == 4 and tuple(range(12)) not in orders


@pytest.mark.parametrize("n,start,new", [(4, 3, 0), (4, 1, 2), (3, 2, 0), (3, 0, 1)])
def test_w7_3_3_start_player_moves_left(n, start, new):
    g, _ = blank(n=n)
    g.start = start
    g.preparation([0] * n)
    assert g.start == new


def test_w7_3_3_start_player_sequence_in_a_game():
    g = traced(ref.Game(Rules(num_players=3), 22, 0, ("random",) * 3))
    first = g.start
    g.play_out()
    assert g.first_player == first and g.start == (first + 2) % 3


# ---------------------------------------------------------------- W-10 reinforcement and selling


@pytest.mark.parametrize("n,walhalla,cards,asgard,moved", [
    (4, [3, 3, 1, 0], [0, 0, 0, 0], [10, 10, 10, 10], [8, 8, 6, 5]),  # shared first: 1, 1, 3, 4
    (4, [2, 3, 0, 0], [1, 0, 0, 0], [10, 10, 10, 10], [8, 7, 6, 6]),  # 2 + 2 beats 3; shared third
    (4, [1, 2, 3, 4], [0, 0, 0, 0], [10, 10, 10, 10], [5, 6, 7, 8]),
    (4, [1, 1, 1, 1], [0, 0, 0, 0], [10, 3, 0, 8], [8, 3, 0, 8]),  # limited by Asgard
    (3, [2, 1, 0], [0, 0, 0], [12, 12, 12], [10, 9, 8]),
    (3, [0, 0, 1], [0, 1, 0], [12, 12, 12], [8, 10, 9]),  # 0 + 2 beats 1
])
def test_w10_ranking_shared_ranks_asgard_limit(n, walhalla, cards, asgard, moved):
    g, _ = blank(n=n, sell_cards_for_vikings=False)
    g.walhalla, g.asgard = list(walhalla), list(asgard)
    g.midgard = [1] * n  # Vikings still in Midgard stay there
    m = min(walhalla)
    g.preparation(cards)
    assert g.midgard == [1 + x for x in moved]
    assert g.asgard == [a - x + m for a, x in zip(asgard, moved)]
    assert g.walhalla == [w - m for w in walhalla]


def test_w10_reinforcement_table_parameter():
    g, _ = blank(n=3, reinforcement_table=(3, 2, 1), sell_cards_for_vikings=False)
    g.walhalla = [0, 2, 1]
    g.midgard = [0, 0, 0]
    g.preparation([0, 0, 0])
    assert g.midgard == [1, 3, 2]


def test_w10_4_dp9_options_order_and_sale():
    plans = {0: {ref.DP_SELL: [(1, 0, 1, 0, 0)]}}
    g, log = blank(plans=plans)
    g.start = 1  # new start: seat 2
    g.walhalla = [2, 0, 0, 0]  # seat 0 ranks first (8), the others share second (7)
    g.asgard = [10, 9, 0, 9]
    g.hands = [[1, 0, 2, 0, 0], [0, 0, 0, 0, 0], [0, 3, 0, 0, 0], [0, 0, 0, 4, 1]]
    g.preparation([0, 0, 0, 0])
    assert [d.seat for d in log] == [3, 0]  # seat 2: no Asgard left; seat 1: empty hand
    assert log[0].options == ref.count_vectors([0, 0, 0, 4, 1], 2)
    assert log[1].options == [(0, 0, 0, 0, 0), (0, 0, 1, 0, 0), (0, 0, 2, 0, 0), (1, 0, 0, 0, 0), (1, 0, 1, 0, 0)]
    assert log[1].view["asgard"][0] == 2
    assert g.hands[0] == [0, 0, 1, 0, 0] and g.discard == [1, 0, 1, 0, 0]
    assert g.midgard[0] == 7 + 8 + 2 and g.asgard[0] == 0 and g.cards_sold == [2, 0, 0, 0]


def test_w10_4_selling_limit_uses_asgard_before_heroes_leave():
    g, log = blank()
    g.walhalla = [1, 1, 1, 1]
    g.asgard = [8, 8, 8, 8]
    g.hands[0] = [1, 0, 0, 0, 0]
    g.preparation([0, 0, 0, 0])
    assert log == [] and g.asgard == [1, 1, 1, 1] and g.walhalla == [0, 0, 0, 0]


def test_w10_4_selling_off_asks_nothing():
    g, log = blank(sell_cards_for_vikings=False)
    g.hands[0] = [2, 2, 2, 2, 2]
    g.asgard = [20, 20, 20, 20]
    g.preparation([0, 0, 0, 0])
    assert log == [] and g.hands[0] == [2, 2, 2, 2, 2]


def test_s5_count_vectors_each_entry_bounded_total_bounded_ascending():
    assert ref.count_vectors([2, 0, 1]) == [(0, 0, 0), (0, 0, 1), (1, 0, 0), (1, 0, 1), (2, 0, 0), (2, 0, 1)]
    assert ref.count_vectors([2, 0, 1], 1) == [(0, 0, 0), (0, 0, 1), (1, 0, 0)]
    assert ref.count_vectors([0, 0], 0) == [(0, 0)]


# ---------------------------------------------------------------- W-11 heroes leave


@pytest.mark.parametrize("walhalla,after", [
    ([3, 2, 4, 2], [1, 0, 2, 0]),
    ([1, 5, 3, 0], [1, 5, 3, 0]),  # one empty Walhalla: nothing moves
    ([2, 2, 2, 2], [0, 0, 0, 0]),
])
def test_w11_heroes_leave_by_the_minimum(walhalla, after):
    g, _ = blank(sell_cards_for_vikings=False)
    g.walhalla = list(walhalla)
    g.asgard = [0, 0, 0, 0]
    g.preparation([0, 0, 0, 0])
    m = min(walhalla)
    assert g.walhalla == after and g.asgard == [m] * 4 and g.heroes_lost == [m] * 4


def test_w11_counts_physical_vikings_not_walhalla_cards():
    g, _ = blank(sell_cards_for_vikings=False)
    g.walhalla = [0, 2, 2, 2]
    g.preparation([3, 0, 0, 0])
    assert g.walhalla == [0, 2, 2, 2]


# ---------------------------------------------------------------- §5 plies


def test_s5_every_decision_point_is_one_ply():
    calls = []
    g = ref.play_game(Rules(), 31, 0, observer=lambda game, d, c: calls.append(d))
    assert g.plies == len(calls) > 0 and any(len(d.options) == 1 for d in calls) and vp_adds_up(g)
    assert all(d.options for d in calls)

"""Attila's design-metric columns: ``decisions``, ``options``, ``lead_changes``, ``decisive_turn``.

- the four columns sit right after ``plies`` and every seat count keeps them;
- ``decisions`` / ``options`` equal a count taken from outside the game: a
  wrapper around each seat's policy counts the times it is asked, and an
  observer recounts each point's options from the position by §5 (its own
  A-2 legality, count vectors by product), for random, greedy and lookahead
  seats -- the lookahead's rollouts must add nothing;
- the kernel gives the same four values as the reference (the equality tests
  compare every column; here also with lookahead seats);
- the lead measure is each seat's VP, in both implementations, and the lead
  columns equal a plain recomputation from the VP after every turn;
- sanity over a few hundred kernel games.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from toolkit.games.attila import SPEC
from toolkit.games.attila import kernel as K
from toolkit.games.attila import reference as ref
from toolkit.games.attila.rules import Rules

NEW = ("decisions", "options", "lead_changes", "decisive_turn")
SHORT = Rules(num_players=4, influence_track_max=8, war_threshold=3, figures_per_tribe=4,
              peace_tiles_per_century=(3, 3, 3, 3), hand_size=4, cards_per_tribe=3)
STRICT = Rules(num_players=3, support_any_tribe=False, second_figure_option=False, max_tiles_per_turn=1,
               tiebreak="influence_sum", start_player="seat0")


def test_columns_follow_plies_and_are_kept_for_every_seat_count():
    i = K.COLUMNS.index("plies")
    assert K.COLUMNS[i + 1:i + 5] == NEW
    assert [K.COLUMNS.index(c) for c in NEW] == [K.C_DECISIONS, K.C_OPTIONS, K.C_LEAD_CHANGES, K.C_DECISIVE_TURN]
    for n in range(2, 6):
        assert set(NEW) <= set(K.columns_for(n))
        assert set(NEW) <= set(SPEC.result_columns(Rules(num_players=n)))


# ---------------------------------------------------------------------- counting from outside


class Counting:
    """Wraps a seat's policy: counts the decisions it is asked and the options it is shown."""

    def __init__(self, inner):
        self.inner, self.needs_view = inner, getattr(inner, "needs_view", True)
        self.decisions = self.options = 0

    def choose(self, view, decision):
        self.decisions += 1
        self.options += len(decision.options)
        return self.inner.choose(view, decision)


def _legal(game, t, x):
    """A-2, written again here."""
    rules, board = game.rules, game.board
    if game.pacified[x] or sum(game.figures[x]) >= rules.war_threshold or game.supply[t] <= 0:
        return False
    return (x in board.start or game.figures[x][t] > 0
            or any(game.figures[y][t] > 0 for y in board.neighbours[x]))


def _expected_options(game, d):
    """The number of options §5 lists at decision ``d`` in the game's position."""
    hand, n_prov = game.hands[d.seat], game.board.n
    if d.kind == ref.DP_TILE:
        usable = ("double_turn" in game.tiles[d.seat]) + ("plus_two" in game.tiles[d.seat])
        usable += "exchange" in game.tiles[d.seat] and sum(hand) > 0
        return usable + 1
    if d.kind == ref.DP_PLUS_TWO:
        return 6 + 15
    if d.kind == ref.DP_EXCHANGE:
        return math.prod(c + 1 for c in hand) - 1
    if d.kind == ref.DP_PLAY:
        return sum(_legal(game, t, x) for t in range(6) if hand[t] > 0 for x in range(n_prov))
    if d.kind == ref.DP_DISCARD:
        return sum(c > 0 for c in hand)
    if d.kind == ref.DP_BONUS:
        return 1 + sum(_legal(game, d.info, x) for x in range(n_prov))
    assert d.kind == ref.DP_SUPPORT
    x = d.info
    layable = [game.rules.support_any_tribe or game.figures[x][t] > 0 for t in range(6)]
    return math.prod(hand[t] + 1 if layable[t] else 1 for t in range(6))


def _counted_game(rules, seed, g, policies):
    seen = {"decisions": 0, "options": 0, "kinds": set()}

    def observer(game, d, choice):
        assert len(d.options) == _expected_options(game, d), (d.kind, d.options)
        seen["decisions"] += 1
        seen["options"] += len(d.options)
        seen["kinds"].add(d.kind)

    game = ref.Game(rules, seed, g, policies, observer)
    game.players = [Counting(p) for p in game.players]
    game.play_out()
    return game, seen


@pytest.mark.parametrize("rules,policies,n", [
    (Rules(), ("random",) * 4, 12),
    (Rules(num_players=2), ("random", "greedy"), 8),
    (Rules(num_players=5), ("greedy",) * 5, 6),
    (STRICT, ("random", "greedy", "random"), 8),
    (SHORT, ("random", "greedy", "random", "greedy"), 12),
])
def test_decisions_and_options_equal_an_outside_count(rules, policies, n):
    kinds = set()
    for g in range(n):
        game, seen = _counted_game(rules, 11, g, policies)
        row = ref.record_row(game)
        assert row["decisions"] == seen["decisions"] == sum(p.decisions for p in game.players) == row["plies"]
        assert row["options"] == seen["options"] == sum(p.options for p in game.players)
        kinds |= seen["kinds"]
    assert {ref.DP_TILE, ref.DP_PLAY, ref.DP_SUPPORT} <= kinds
    if rules.second_figure_option:
        assert ref.DP_BONUS in kinds
    else:
        assert ref.DP_BONUS not in kinds  # influence is automatic: no DP-6


@pytest.mark.parametrize("rules,policies,n", [
    (SHORT, ("lookahead:1", "greedy", "lookahead:2", "random"), 3),
    (Rules(num_players=2), ("lookahead:1", "random"), 2),
])
def test_lookahead_rollouts_are_not_counted(rules, policies, n):
    out = np.zeros((n, K.N_COLUMNS), np.int32)
    K.play_many(K.to_kernel(rules), K.policy_ids(policies), 13, 0, out, np.zeros(n, np.int32), False)
    for g in range(n):
        game, seen = _counted_game(rules, 13, g, policies)
        row = ref.record_row(game)
        assert row["decisions"] == seen["decisions"] == sum(p.decisions for p in game.players)
        assert row["options"] == seen["options"]
        got = dict(zip(K.COLUMNS, out[g].tolist()))
        assert {c: got[c] for c in NEW} == {c: row[c] for c in NEW}


# ---------------------------------------------------------------------- the lead measure


@pytest.mark.parametrize("vp,leader", [([0, 0, 0, 0], -1), ([3, 9, 7, 1], 1), ([12, 4, 12, 0], -1), ([5, 2], 0)])
def test_lead_measure_is_the_vp_in_both_implementations(vp, leader):
    from toolkit.core.lead import leader as lead_of

    rules = Rules(num_players=len(vp))
    game = ref.Game(rules, 1, 0, ("random",) * len(vp))
    game.vp = list(vp)
    game.influence[0] = [22] * 6  # influence is not the measure
    assert ref.lead_measure(game) == vp
    st = np.zeros(K.STATE_SIZE, np.int64)
    st[K.S_VP:K.S_VP + len(vp)] = vp
    st[K.S_INF:K.S_INF + 6] = 22
    values = np.full(K.MAX_SEATS, -7, np.int64)
    K.lead_measure(st, len(vp), values)
    assert values[:len(vp)].tolist() == vp
    assert lead_of(vp) == leader


def _plain_lead(vps, winner):
    """lead_changes and decisive_turn from the VP after each turn, without core.lead."""
    leaders = []
    for vp in vps:
        top = max(vp)
        leaders.append(vp.index(top) if vp.count(top) == 1 else -1)
    strict = [w for w in leaders if w != -1]
    changes = sum(a != b for a, b in zip(strict, strict[1:]))
    if winner < 0 or not vps:
        return changes, 0
    if leaders[-1] != winner:
        return changes, len(vps)
    t = len(vps)
    while t > 1 and leaders[t - 2] == winner:
        t -= 1
    return changes, t


@pytest.mark.parametrize("rules,policies", [(Rules(), ("greedy",) * 4), (Rules(num_players=3), ("random",) * 3),
                                            (SHORT, ("greedy", "random") * 2)])
def test_lead_columns_follow_the_vp_turn_by_turn(rules, policies):
    n = 40
    out = np.zeros((n, K.N_COLUMNS), np.int32)
    K.play_many(K.to_kernel(rules), K.policy_ids(policies), 17, 0, out, np.zeros(n, np.int32), False)
    changed = 0
    for g in range(n):
        game = ref.Game(rules, 17, g, policies)
        vps, seat = [], game.start_player
        while not game.game_over:  # play_out, by hand
            game.turn(seat)
            game.lead.update(ref.lead_measure(game))
            vps.append(list(game.vp))
            seat = (seat + 1) % game.n
        row = ref.record_row(game)
        assert len(vps) == row["turns"]
        assert (row["lead_changes"], row["decisive_turn"]) == _plain_lead(vps, row["winner"])
        got = dict(zip(K.COLUMNS, out[g].tolist()))
        assert {c: got[c] for c in NEW} == {c: row[c] for c in NEW}
        changed += row["lead_changes"] > 0
    assert changed > 0


def test_a_lead_taken_at_the_first_scoring_and_kept():
    """A hand-fed game: nobody leads until the first scoring (turn 3), then seat 2 leads for good."""
    vps = [[0, 0, 0], [0, 0, 0], [2, 1, 5], [2, 1, 5], [6, 4, 9]]
    assert _plain_lead(vps, 2) == (0, 3)
    from toolkit.core.lead import LeadTracker, lead_reset, lead_result, lead_update

    tracker = LeadTracker()
    for vp in vps:
        tracker.update(vp)
    assert tracker.result(2) == (0, 3)
    lead = np.zeros(4, np.int64)
    lead_reset(lead)
    st = np.zeros(K.STATE_SIZE, np.int64)
    values = np.zeros(K.MAX_SEATS, np.int64)
    for turn, vp in enumerate(vps, 1):
        st[K.S_VP:K.S_VP + 3] = vp
        K.lead_measure(st, 3, values)
        lead_update(lead, values, 3, turn)
    assert tuple(int(v) for v in lead_result(lead, 2, len(vps))) == (0, 3)


# ---------------------------------------------------------------------- sanity on kernel games


@pytest.mark.parametrize("rules,policies", [(Rules(), ("random",) * 4), (Rules(), ("greedy",) * 4),
                                            (Rules(num_players=2), ("random", "greedy")),
                                            (Rules(num_players=5), ("random",) * 5), (SHORT, ("random",) * 4),
                                            (STRICT, ("greedy", "random", "greedy"))])
def test_sanity_over_kernel_games(rules, policies):
    n = 400
    out = np.zeros((n, K.N_COLUMNS), np.int32)  # the runner's dtype: another one compiles the kernel again (a minute)
    K.play_many(K.to_kernel(rules), K.policy_ids(policies), 23, 0, out, np.zeros(n, np.int32), False)
    col = {c: out[:, i] for i, c in enumerate(K.COLUMNS)}
    assert (col["decisions"] >= 1).all() and (col["decisions"] == col["plies"]).all()
    assert (col["options"] >= col["decisions"]).all()
    assert (col["lead_changes"] >= 0).all()
    assert ((0 <= col["decisive_turn"]) & (col["decisive_turn"] <= col["turns"])).all()
    assert ((col["decisive_turn"] == 0) == (col["winner"] == -1)).all()
    # VP are 0 for everyone until the first scoring: the winner cannot lead before century IV ends
    won = col["winner"] >= 0
    assert (col["decisive_turn"][won] >= col["century_end_turn_0"][won]).all()
    if rules == Rules():
        assert (col["options"] > 2 * col["decisions"]).all()  # DP-4 alone offers dozens of plays

"""Walhalla's design-metric columns: ``decisions``, ``options``, ``lead_changes``, ``decisive_turn``.

- The four columns follow ``plies`` in ``COLUMNS`` and survive ``columns_for`` (they are not per seat
  or per raid).  Kernel <=> reference equality on them is part of ``tests/conformance/test_equality.py``, which
  compares whole rows; here a few kernel rows are checked against counts taken from outside.
- ``decisions`` and ``options`` are counted from outside the game, by an observer and by wrapping
  each seat's policy, for random, greedy and lookahead seats; the lookahead's rollouts (which call
  ``Game.decide`` in worlds of their own) must not count.
- The lead measure (each seat's VP so far) on hand-built positions in both implementations, two short
  scripted games whose leaders are known (in one the final scoring turns the lead round), and an
  independent recomputation of the lead columns from the VP after every turn, a raid's last turn
  taken after the raid's scoring and preparation.  In the kernel the leader after the last update is
  the final VP's strict leader: a sole winner is not it only after a tie-break (W-9.4).
- Sanity over a few hundred kernel games.
"""

from __future__ import annotations

import numpy as np
import pytest

import toolkit
from toolkit.games.walhalla import kernel as K
from toolkit.games.walhalla import reference as ref
from toolkit.games.walhalla.data import FOREST, VILLAGE
from toolkit.games.walhalla.rules import Rules

from walhalla_configs import CONFIGS

NEW = ("decisions", "options", "lead_changes", "decisive_turn")


def test_the_new_columns_follow_plies_and_survive_columns_for():
    i = K.COLUMNS.index("plies")
    assert K.COLUMNS[i + 1:i + 5] == NEW
    assert (K.C_DECISIONS, K.C_OPTIONS, K.C_LEAD_CHANGES, K.C_DECISIVE_TURN) == tuple(range(i + 1, i + 5))
    assert K.COLUMNS[K.C_LENGTHS] == "length_0" and K.COLUMNS[K.C_TURNS_RAID] == "turns_raid_0"
    assert K.COLUMNS[K.C_COMBATS_RAID] == "combats_raid_0" and K.COLUMNS[K.C_SEAT] == "score_0"
    for rules in (Rules(), Rules(num_players=3), Rules(num_players=3, raids=1)):
        cols = K.columns_for(rules)
        assert cols[cols.index("plies") + 1:cols.index("plies") + 5] == NEW
    row = ref.record_row(ref.play_game(Rules(num_players=3), 4, 0))
    assert list(row)[i + 1:i + 5] == list(NEW)


# ---------------------------------------------------------------- counting from outside


class Counted:
    """Wraps a seat's policy object: counts its decision points and their options."""

    def __init__(self, inner, tally):
        self.inner, self.tally = inner, tally
        self.needs_view = getattr(inner, "needs_view", True)

    def choose(self, view, d):
        self.tally[0] += 1
        self.tally[1] += len(d.options)
        return self.inner.choose(view, d)


def counted_game(rules, seed, game_index, policies):
    """A reference game with (observer counts, wrapped-policy counts, every ``decide`` anywhere)."""
    seen = [0, 0]
    wrapped = [0, 0]
    everywhere = [0]

    def observer(game, d, choice):
        assert choice in d.options
        seen[0] += 1
        seen[1] += len(d.options)

    real_decide = ref.Game.decide

    def decide(self, kind, seat, options, info=None):
        everywhere[0] += 1
        return real_decide(self, kind, seat, options, info)

    game = ref.Game(rules, seed, game_index, policies, observer)
    game.players = [Counted(p, wrapped) for p in game.players]
    ref.Game.decide = decide
    try:
        game.play_out()
    finally:
        ref.Game.decide = real_decide
    return ref.record_row(game), seen, wrapped, everywhere[0]


@pytest.mark.parametrize("config,policies,games", [
    ("standard_4p", ("random",) * 4, 12),
    ("standard_3p", ("greedy", "random", "greedy"), 10),
    ("variable_4p", ("greedy",) * 4, 8),
    ("cards_4p", ("random", "greedy", "random", "greedy"), 8),  # many DP-5/6/8/9
    ("cards_3p", ("greedy", "random", "random"), 8),
])
def test_decisions_and_options_equal_an_outside_count(config, policies, games):
    rules = CONFIGS[config]
    for g in range(games):
        row, seen, wrapped, everywhere = counted_game(rules, 77, g, policies)
        assert [row["decisions"], row["options"]] == seen == wrapped, (config, g)
        assert everywhere == row["decisions"] == row["plies"]
        assert row["options"] >= row["decisions"]  # every DP has at least one option


@pytest.mark.parametrize("config,policies", [
    ("standard_4p", ("lookahead:1", "random", "greedy", "lookahead:2")),
    ("cards_3p", ("random", "lookahead:1", "greedy")),
])
def test_lookahead_rollouts_do_not_count(config, policies):
    """The rollouts present many decision points (``everywhere``), none of them in the record."""
    rules = CONFIGS[config]
    for g in range(2):
        row, seen, wrapped, everywhere = counted_game(rules, 5, g, policies)
        assert [row["decisions"], row["options"]] == seen == wrapped
        assert everywhere > 2 * row["decisions"]  # the rollouts really decided, in their worlds
        assert row["plies"] == row["decisions"]


def kernel_rows(rules, policies, n, seed, first=0):
    out = np.zeros((n, K.N_COLUMNS), np.int32)
    violations = np.zeros(n, np.int32)
    K.play_many(K.to_kernel(rules), K.policy_ids(policies), seed, first, out, violations, True)
    assert not violations.any()
    return [dict(zip(K.COLUMNS, r)) for r in out.tolist()]


@pytest.mark.parametrize("config,policies,n", [
    ("standard_4p", ("random",) * 4, 6),
    ("cards_3p", ("greedy", "random", "greedy"), 6),
    ("standard_3p", ("lookahead:1", "greedy", "random"), 2),
])
def test_kernel_counts_equal_the_outside_count(config, policies, n):
    rules = CONFIGS[config]
    for g, row in enumerate(kernel_rows(rules, policies, n, 91)):
        expected, seen, _, _ = counted_game(rules, 91, g, policies)
        assert [row["decisions"], row["options"]] == seen
        assert {c: row[c] for c in NEW} == {c: expected[c] for c in NEW}


def test_option_counts_of_the_vector_decision_points():
    """DP-8 and DP-9 count their vectors the same way for greedy seats (closed forms)."""
    assert len(ref.raid_card_options([0, 0, 2, 1, 1], last_raid=False)) == 10 * 2 * 2  # C(2+3, 3) horn splits
    assert len(ref.raid_card_options([0, 0, 1, 1, 0], last_raid=True)) == 4
    assert len(ref.count_vectors([1, 1, 0, 0, 0], 1)) == 3
    work = np.zeros(K.N_CARDS, np.int64)
    assert K.nth_vector(np.array([2, 2, 2, 1, 1], np.int64), 3, 2, 1 << 30, -1, work) == 40
    assert not work.any()  # counting leaves the vector all zero (greedy's DP-8 relies on it)
    assert K.nth_vector(np.array([1, 1, 0, 0, 0], np.int64), 0, 0, 1, -1, work) == 3


# ---------------------------------------------------------------- the lead measure


def test_lead_measure_is_the_vp_so_far_in_both_implementations():
    game = ref.Game(Rules(), 3, 0, ("random",) * 4)
    game.vp = [5, 11, 11, 2]
    game.hands[0] = [0, 0, 3, 0, 3]  # hidden Horns and Plunder add nothing
    assert ref.lead_measure(game) == [5, 11, 11, 2]
    ip = K.to_kernel(Rules(num_players=3))
    st = np.zeros(K.STATE_SIZE, np.int64)
    st[K.S_VP:K.S_VP + 4] = [7, 4, 9, 99]  # seat 3 is absent with 3 players
    st[K.S_HAND + 2 * K.N_CARDS + K.PLUNDER] = 4
    values = np.full(K.MAX_SEATS, -1, np.int64)
    K.lead_measure(ip, st, values)
    assert values.tolist() == [7, 4, 9, -1]


class Script:
    """A scripted seat: ``plan[kind]`` answers in order, else the first option."""

    def __init__(self, plan=None):
        self.plan = {k: list(v) for k, v in (plan or {}).items()}

    def choose(self, view, d):
        queue = self.plan.get(d.kind)
        return queue.pop(0) if queue else d.options[0]


def dragon(g, colour, seat):
    return next(d for d in range(len(g.dragon_colour)) if g.dragon_colour[d] == colour and g.dragon_seat[d] == seat)


def scripted_one_raid_game(forests, villages, plans):
    """One raid (final scoring at its end) of two dragons, both into F0, which touches only P0: field
    (0, q - 1) at position q.  Every field is a village of value 0 but ``forests``; both dragons
    have the coloured seat at the stern in the active seat's colour (no DP-2).  Seat 0 plays turn 1
    (positions 1..3), seat 1 turn 2 (positions 4..6).  Returns the game played, with the lead
    measure recorded at every ``lead.update``."""
    rules = Rules(num_players=4, raids=1, start_player="seat0")
    g = ref.Game(rules, 1, 0, ("random",) * 4)
    g.hands, g.deck, g.discard = [[0] * 5 for _ in range(4)], [], [0] * 5
    g.occupant = [[-1] * len(r) for r in g.occupant]
    g.field_type = [[VILLAGE] * len(r) for r in g.field_type]
    g.field_value = [[0] * len(r) for r in g.field_value]
    g.inner_tip, g.outer_tip = [3, 4, 5], [6, 7, 8]
    for j in forests:
        g.field_type[0][j] = FOREST
    assert set(villages).isdisjoint(forests)
    g.dragons = [dragon(g, 0, 2), dragon(g, 1, 2)]
    g.players = [Script(plans[0]), Script(plans[1]), Script(), Script()]
    g.vp_after = []
    real_update = g.lead.update
    g.lead.update = lambda values: (g.vp_after.append(list(values)), real_update(values))
    g.play_out()
    return g


def test_a_short_scripted_game_whose_leaders_are_known():
    """Turn 1: seat 0 lands on a forest (2 VP, leads).  Turn 2, the raid's and the game's last:
    seat 1 lands two Vikings on forests (4 VP).  Final scoring: seat 1 holds P0's majority (6 + 2
    fields) against seat 0's (3 + 1); Walhalla 1 each, shared ceil(10 / 4) = 3.  Seat 1 wins 15 to
    9.  Turn 2 ends the raid, so its lead is measured after the final scoring, [9, 15, 3, 3] (it
    was [2, 4, 0, 0] when the measure was taken right after the turn): seat 1 leads after turn 2
    either way, so one lead change and decisive turn 2 as before."""
    g = scripted_one_raid_game(forests=(0, 3, 4), villages=(),
                               plans=({ref.DP_BOARD: [0b001], ref.DP_FJORD: [0]},
                                      {ref.DP_BOARD: [0b011], ref.DP_FJORD: [0]}))
    row = ref.record_row(g)
    assert g.vp_after == [[2, 0, 0, 0], [9, 15, 3, 3]]
    assert g.vp == [9, 15, 3, 3]
    assert (row["winner"], row["turns"], row["lead_changes"], row["decisive_turn"]) == (1, 2, 1, 2)
    # DP-1 (8 seat sets), DP-3 (4 fjords), DP-4 (one candidate each): 3 + 4 decision points
    assert (row["decisions"], row["options"]) == (7, (8 + 4 + 1) + (8 + 4 + 1 + 1))


def test_the_final_scoring_is_seen_by_the_lead_measure():
    """The final scoring turns the lead round.  Turn 1: seat 0 lands on a forest (0, 0) and a
    village (0, 1): 2 VP, leads.  Turn 2: seat 1 lands on the forests (0, 3), (0, 4): 4 VP, ahead
    before the scoring.  Final scoring: P0's strength is seat 0's 2 Vikings + 1 village = 3 against
    seat 1's 2, so seat 0 takes the majority (6, seat 1 3); 2 fields each; Walhalla shared, 3 each.
    Seat 0 wins 13 to 12.  Measured after the final scoring, the leaders are seat 0, seat 0: no
    lead change, decisive turn 1.  (Measured right after turn 2 they were seat 0, seat 1: one
    change and the winner not ahead at the end, so decisive turn = turns = 2.)"""
    g = scripted_one_raid_game(forests=(0, 3, 4), villages=(1,),
                               plans=({ref.DP_BOARD: [0b011], ref.DP_FJORD: [0]},
                                      {ref.DP_BOARD: [0b011], ref.DP_FJORD: [0]}))
    row = ref.record_row(g)
    assert g.vp == [13, 12, 3, 3]
    assert g.vp_after == [[2, 0, 0, 0], [13, 12, 3, 3]]
    assert (row["winner"], row["turns"], row["lead_changes"], row["decisive_turn"]) == (0, 2, 0, 1)


def lead_columns(vp_per_turn, winner):
    """lead_changes and decisive_turn recomputed from the VP after every turn (independent of lead.py)."""
    leaders = []
    for vp in vp_per_turn:
        top = max(vp)
        leaders.append(vp.index(top) if vp.count(top) == 1 else -1)
    strict = [x for x in leaders if x != -1]
    changes = sum(1 for a, b in zip(strict, strict[1:]) if a != b)
    if winner < 0 or not leaders:
        return changes, 0
    if leaders[-1] != winner:
        return changes, len(leaders)
    t = len(leaders)
    while t > 1 and leaders[t - 2] == winner:
        t -= 1
    return changes, t


@pytest.mark.parametrize("config,policies", [
    ("standard_4p", ("random",) * 4),
    ("standard_3p", ("greedy",) * 3),
    ("cards_4p", ("greedy", "random", "greedy", "random")),
])
def test_lead_columns_recomputed_from_the_vp_after_each_turn(config, policies):
    rules = CONFIGS[config]
    games = 20
    rows = kernel_rows(rules, policies, games, 13)
    for g in range(games):
        game = ref.Game(rules, 13, g, policies)
        vp_after = []  # each turn's VP once all it triggered is resolved
        real_turn, real_score, real_prep = game.turn, game.score_raid, game.preparation

        def turn(active, game=game, vp_after=vp_after):
            assert not vp_after or vp_after[-1] == game.vp  # nothing scores between turns of a raid
            real_turn(active)
            vp_after.append(list(game.vp))

        def after_the_raid(real, game=game, vp_after=vp_after):
            def wrapped(*args):
                out = real(*args)
                if game.turns_per_raid[game.raid] > 0:  # the raid's last turn triggered this
                    vp_after[-1] = list(game.vp)
                return out
            return wrapped

        game.turn = turn
        game.score_raid, game.preparation = after_the_raid(real_score), after_the_raid(real_prep)
        game.play_out()
        expected = ref.record_row(game)
        assert len(vp_after) == expected["turns"]
        assert vp_after[-1] == game.vp  # the last turn's lead sees the final scoring
        assert (expected["lead_changes"], expected["decisive_turn"]) == lead_columns(vp_after, expected["winner"])
        assert {c: rows[g][c] for c in NEW} == {c: expected[c] for c in NEW}


@pytest.mark.parametrize("tiebreak", ["shared", "walhalla_then_fields"])
def test_the_last_update_sees_the_final_vp_in_the_kernel(tiebreak):
    """The kernel's state after a game (``work[:STATE_SIZE]``): its lead tracker's current leader is the
    final VP's strict leader (-1 when the top is shared), so a sole winner is not the leader only when it won a tie-break."""
    from toolkit.core.lead import L_CURRENT, leader
    rules = Rules(tiebreak=tiebreak)
    ip, pol = K.to_kernel(rules), K.policy_ids(("random",) * 4)
    rs, work = np.empty(2 * K.N_STREAMS, np.uint64), np.zeros(K.WORK_SIZE, np.int64)
    row = np.zeros(K.N_COLUMNS, np.int32)
    tie_wins = 0
    for g in range(300):
        K.play_game(ip, pol, 8, g, row, True, rs, work)
        scores = [int(row[K.C_SEAT + s]) for s in range(4)]
        assert work[K.S_LEAD + L_CURRENT] == leader(scores)
        winner = int(row[K.C_WINNER])
        if winner >= 0 and leader(scores) != winner:
            tie_wins += 1
            assert tiebreak != "shared" and scores.count(max(scores)) > 1
            assert row[K.C_DECISIVE_TURN] == row[K.C_TURNS]
    assert (tie_wins > 0) == (tiebreak != "shared")


# ---------------------------------------------------------------- sanity over kernel games


@pytest.mark.parametrize("players,policy", [(4, "random"), (3, "random"), (4, "greedy"), (3, "greedy")])
def test_kernel_sanity(players, policy):
    df = toolkit.simulate("walhalla", rules={"num_players": players}, policies=(policy,) * players, n_games=400,
                          seed=21, progress=False)
    assert ((0 <= df["decisive_turn"]) & (df["decisive_turn"] <= df["turns"])).all()
    assert ((df["decisive_turn"] == 0) == (df["winner"] == -1)).all()
    assert (df["options"] >= df["decisions"]).all()
    assert (df["decisions"] >= 1).all() and (df["lead_changes"] >= 0).all()
    assert (df["decisions"] == df["plies"]).all()
    assert df["lead_changes"].max() >= 1 and (df["decisive_turn"] < df["turns"]).any()

"""Property tests over random valid Walhalla ``Rules`` (hypothesis, derandomized).

For any valid rule values (every parameter of spec §9.2 drawn from its
allowed values, the cross-field constraints of ``Rules.validate`` respected
by construction), with ``random``, ``greedy`` and ``lookahead:1`` seats mixed:

- the kernel plays ``N_GAMES`` games with its §7 checks on (``check=True``),
  every column kept (the unused seats' and raids' too), and the same games
  with the checks off (the checks only watch);
- every record is consistent (§6): winners against the scores and
  ``tiebreak`` (W-9.4); VP by source summing to the score; the final field
  points and the Walhalla majority recomputed from the final counts (W-9.2,
  W-9.3, written out again here from the spec); ``raids`` played, at most 12
  turns per raid (§7.3), the per-raid tallies summing to the totals; the
  peninsula lengths (§7.9); combats against their outcomes (W-6: every
  combat is won by the attacker or chosen by the defender; the defender
  chooses exactly when no uncancelled Axe was played; every loser goes to
  Walhalla); a ply for every decision these imply (§5);
- the pure-Python reference plays the first games of each example
  identically (every column).

The rule-value rejections are tested in ``test_rules_walhalla.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit.games.walhalla import kernel as K
from toolkit.games.walhalla import reference as ref
from toolkit.games.walhalla.data import CARD_TYPES
from toolkit.games.walhalla.rules import DRAW_18, DRAW_18_COMBINATIONS, Rules

N_GAMES = 30
N_REFERENCE = 2  # reference games per example (pure Python greedy is the slow part): 150 in all
N_REFERENCE_LOOKAHEAD = 1  # ... and with a lookahead seat (about 0.3 s a game in pure Python)
SEAT_POLICIES = ("random", "greedy") * 3 + ("lookahead:1",)  # a lookahead seat in ~40% of the examples
VP_SOURCES = ref.VP_SOURCES

PROPERTY_SETTINGS = settings(max_examples=50, deadline=None, derandomize=True, database=None,
                             suppress_health_check=[HealthCheck.too_slow])


def small_or_any(low, high, small):
    """Mostly values up to ``small`` (the interesting region), sometimes anything allowed."""
    return st.one_of(st.integers(low, small), st.integers(low, small), st.integers(low, high))


@st.composite
def rule_values(draw):
    """Every §9.2 parameter, within ``Rules.validate``'s cross-field constraints."""
    players = draw(st.integers(3, 4))
    tiles = draw(st.one_of(st.just(DRAW_18), st.tuples(*[st.integers(5, 8)] * 3).filter(lambda t: sum(t) <= 18)))
    source = draw(st.sampled_from(["asgard", "midgard"]))
    vikings = draw(small_or_any(2, 40, 16))
    deck = draw(st.fixed_dictionaries({c: small_or_any(0, 40, 8) for c in CARD_TYPES})
                .filter(lambda d: sum(d.values()) >= 1))
    return {
        "num_players": players,
        "peninsula_tiles": tiles,
        "raids": draw(st.integers(1, 5)),
        "vikings_per_colour": vikings,
        "start_midgard": draw(st.integers(1, min(39, vikings - (source == "asgard")))),
        "initial_walhalla_source": source,
        "initial_action_cards": draw(st.integers(0, min(10, sum(deck.values()) // players))),
        "forest_vp": draw(st.integers(0, 10)),
        "cult_cards": draw(st.integers(0, 5)),
        "village_bonus": draw(st.integers(0, 10)),
        "landing_mandatory": draw(st.booleans()),
        "winner_loses_hero": draw(st.booleans()),
        "action_deck": deck,
        "horn_strength": draw(st.integers(0, 10)),
        "plunder_vp": draw(st.integers(0, 10)),
        "walhalla_card_bonus": draw(st.integers(0, 10)),
        "sell_cards_for_vikings": draw(st.booleans()),
        "reinforcement_table": tuple(draw(st.lists(st.integers(0, 40), min_size=players, max_size=players))),
        "walhalla_final_vp": tuple(draw(st.lists(st.integers(0, 30), min_size=2, max_size=2))),
        "final_vp_per_occupied_field": draw(st.integers(0, 10)),
        "tie_rounding": draw(st.sampled_from(["up", "down"])),
        "peninsula_eligibility_min_vikings": draw(small_or_any(1, 16, 3)),
        "start_player": draw(st.sampled_from(["random", "seat0"])),
        "tiebreak": draw(st.sampled_from(["shared", "walhalla_then_fields"])),
    }


def kernel_rows(rules, seed, policies, n_games=N_GAMES, check=True):
    """The kernel's rows (every column), with its §7 checks on or off."""
    out = np.zeros((n_games, K.N_COLUMNS), np.int32)
    violations = np.zeros(n_games, np.int32)
    K.play_many(K.to_kernel(rules), K.policy_ids(policies), seed, 0, out, violations, check)
    bad = np.flatnonzero(violations)
    assert bad.size == 0, (f"kernel check §7.{violations[bad[0]]} failed in game {bad[0]} "
                           f"(seed {seed}, {policies}, {rules})")
    return [dict(zip(K.COLUMNS, r)) for r in out.tolist()]


def majority(strength, eligible, first, second, up) -> list:
    """W-9.3 written out from the spec: the most scores ``first``, the second most ``second``; a tie for
    first splits first + second (no second place), a tie for second splits ``second``; rounding by
    ``tie_rounding``."""
    def split(total, k):
        return -(-total // k) if up else total // k

    n = len(strength)
    gains = [0] * n
    ranked = sorted({strength[p] for p in range(n) if eligible[p]}, reverse=True)
    if not ranked:
        return gains
    t1 = [p for p in range(n) if eligible[p] and strength[p] == ranked[0]]
    if len(t1) > 1:
        return [split(first + second, len(t1)) if p in t1 else 0 for p in range(n)]
    gains[t1[0]] = first
    if len(ranked) > 1:
        t2 = [p for p in range(n) if eligible[p] and strength[p] == ranked[1]]
        for p in t2:
            gains[p] = split(second, len(t2))
    return gains


def check_record(rules, row) -> list:
    """§6 consistency of one row; returns the problems found (empty when consistent)."""
    n, problems = rules.num_players, []

    def expect(ok, what):
        if not ok:
            problems.append(what)

    def seat(name):
        return [row[f"{name}_{p}"] for p in range(n)]

    vp, wins, walhalla, fields = seat("score"), seat("win"), seat("walhalla_end"), seat("fields_end")
    axes, shields, landings = sum(seat("axes")), sum(seat("shields")), seat("landings")
    # seats beyond the player count and raids beyond rules.raids stay 0
    expect(all(row[f"{f}_{s}"] == 0 for f in K.SEAT_FIELDS for s in range(n, K.MAX_SEATS)), "unused seat columns")
    expect(all(row[f"{f}_{r}"] == 0 for f in ("turns_raid", "combats_raid") for r in range(rules.raids, K.MAX_RAIDS)),
           "unused raid columns")
    # W-9.4 winners, result, tiebreak
    winners = [p for p in range(n) if wins[p]]
    expect(set(wins) <= {0, 1} and row["n_winners"] == len(winners) >= 1, "n_winners = sum of win_p >= 1")
    expect(row["winner"] == (winners[0] if len(winners) == 1 else -1), "winner column")
    expect(row["result"] == (0 if len(winners) == 1 else 1), "result against the winners")
    top = [p for p in range(n) if vp[p] == max(vp)]
    if rules.tiebreak == "walhalla_then_fields":
        top = [p for p in top if walhalla[p] == max(walhalla[q] for q in top)]
        top = [p for p in top if fields[p] == max(fields[q] for q in top)]
    expect(winners == top, "the winners are the top scores (after the tiebreak)")
    # VP by source; the final scoring's field points and Walhalla majority (W-9.2, W-9.3)
    expect(all(vp[p] == sum(row[f"vp_{s}_{p}"] for s in VP_SOURCES) for p in range(n)), "VP by source sum to VP")
    expect(min(row[f"vp_{s}_{p}"] for s in VP_SOURCES for p in range(n)) >= 0, "VP by source >= 0")
    expect(seat("vp_fields") == [rules.final_vp_per_occupied_field * f for f in fields], "W-9.2 field points")
    first, second = rules.walhalla_final_vp
    expect(seat("vp_walhalla") == majority(walhalla, [w >= 1 for w in walhalla], first, second,
                                           rules.tie_rounding == "up"), "W-9.3 Walhalla majority")
    forest = seat("vp_forest")
    expect(all(f % max(rules.forest_vp, 1) == 0 and f <= rules.forest_vp * landings[p]
               for p, f in enumerate(forest)), "W-5.4 forest VP: forest_vp per landing at most")
    plunder = seat("vp_plunder")
    expect(all(x % max(rules.plunder_vp, 1) == 0 for x in plunder), "W-7.2 plunder VP: multiples of plunder_vp")
    if rules.plunder_vp == 0 or rules.action_deck["plunder"] == 0:
        expect(plunder == [0] * n, "no Plunder VP without Plunder")
    # W-3, §7.3: raids and turns
    turns = [row[f"turns_raid_{r}"] for r in range(rules.raids)]
    expect(row["raids"] == rules.raids, "raids == rules.raids")
    expect(all(0 <= t <= 12 for t in turns) and sum(turns) == row["turns"], "0 <= turns per raid <= 12, sum")
    midgard = rules.start_midgard - (rules.initial_walhalla_source == "midgard")
    expect((turns[0] >= 1) == (midgard >= 1), "W-7.1: the first raid has a turn iff Midgard starts non-empty")
    expect(sum(row[f"combats_raid_{r}"] for r in range(rules.raids)) == row["combats"], "combats per raid sum")
    # §7.9 lengths, W-2.8 start player
    lengths = tuple(row[f"length_{k}"] for k in range(3))
    if rules.peninsula_tiles == DRAW_18:
        expect(tuple(sorted(lengths)) in DRAW_18_COMBINATIONS, "draw_18 lengths")
    else:
        expect(lengths == tuple(rules.peninsula_tiles), "fixed lengths")
    expect(0 <= row["start_player"] < n and (rules.start_player == "random" or row["start_player"] == 0),
           "start player")
    # W-6 combats
    expect(row["combats"] == row["attacker_wins"] + row["defender_chose_win"], "combats = attacker wins + "
           "defender's choices to win")
    expect(shields <= axes and row["defender_choices"] == row["combats"] - (axes - shields),
           "the defender chooses unless an uncancelled Axe decided (W-6.3)")
    expect(0 <= row["defender_chose_win"] <= row["defender_choices"], "defender wins <= defender choices")
    expect(sum(seat("to_walhalla")) == row["combats"], "every combat sends its loser to Walhalla (W-6.4)")
    if rules.action_deck["axe"] == 0:
        expect(axes == 0, "no Axe played without Axes")
    if rules.action_deck["shield"] == 0:
        expect(shields == 0, "no Shield played without Shields")
    # heroes and sales between raids
    if not rules.winner_loses_hero:
        expect(len(set(seat("heroes_lost"))) == 1, "W-11 alone: every player loses the same heroes")
    if not rules.sell_cards_for_vikings or rules.raids == 1:
        expect(seat("cards_sold") == [0] * n, "no sales (W-10.4)")
    if rules.raids == 1 and not rules.winner_loses_hero:
        expect(seat("heroes_lost") == [0] * n, "no heroes lost in one raid without winner_loses_hero")
    # fields and Vikings
    expect(all(0 <= fields[p] <= landings[p] for p in range(n)), "fields at the end <= landings")
    expect(sum(fields) <= 2 * sum(lengths), "fields at the end <= fields")
    expect(all(0 <= w <= rules.vikings_per_colour for w in walhalla), "0 <= Walhalla <= vikings_per_colour")
    # §5: a ply per decision point these tallies imply (DP-3 every turn, DP-4 before every landing and every
    # combat the defender won, DP-5/6 for every card played, DP-7 for every defender's choice)
    implied = row["turns"] + sum(landings) + (row["combats"] - row["attacker_wins"]) + axes + shields \
        + row["defender_choices"]
    expect(row["plies"] >= implied, "plies >= the decision points implied")
    return problems


@PROPERTY_SETTINGS
@given(values=rule_values(), seats=st.lists(st.sampled_from(SEAT_POLICIES), min_size=4, max_size=4),
       seed=st.integers(0, 2**63 - 1))
def test_random_rules_play_correctly(values, seats, seed):
    rules = Rules(**values)  # must not raise: the strategy only draws valid values
    policies = tuple(seats[:rules.num_players])
    rows = kernel_rows(rules, seed, policies)
    assert kernel_rows(rules, seed, policies, check=False) == rows, "the §7 checks change the games"
    for g, row in enumerate(rows):
        problems = check_record(rules, row)
        assert not problems, f"game {g} (seed {seed}, {policies}, {rules}): {problems}"
    for g in range(N_REFERENCE if "lookahead:1" not in policies else N_REFERENCE_LOOKAHEAD):
        expected = ref.record_row(ref.play_game(rules, seed, g, policies))
        if rows[g] != expected:
            diff = {c: (expected[c], rows[g][c]) for c in K.COLUMNS if expected[c] != rows[g][c]}
            raise AssertionError(f"game {g} (seed {seed}, {policies}, {rules}) differs (reference, kernel): {diff}")


# ---------------------------------------------------------------------- controls


def _bump(**changes):
    def corrupt(row):
        for column, delta in changes.items():
            row[column] += delta
    return corrupt


CORRUPTIONS = {
    "score without a source": (_bump(score_1=1), "VP by source sum to VP"),
    "a loser marked as winner": (lambda row: row.update({f"win_{(row['winner'] + 1) % 3}": 1}), "n_winners"),
    "13 turns in a raid": (lambda row: row.update(turns=row["turns"] + 13 - row["turns_raid_0"], turns_raid_0=13),
                           "turns per raid"),
    "a fight nobody won": (_bump(combats=1, combats_raid_0=1, to_walhalla_0=1), "combats = attacker wins"),
    "Walhalla VP off the counts": (_bump(vp_walhalla_0=1, score_0=1), "W-9.3 Walhalla majority"),
    "field points off the fields": (_bump(fields_end_1=1), "W-9.2 field points"),
    "a loser kept out of Walhalla": (_bump(to_walhalla_2=-1), "loser to Walhalla"),
    "a peninsula too long": (_bump(length_0=1), "fixed lengths"),
    "plies missing": (lambda row: row.update(plies=row["turns"]), "plies >= the decision points implied"),
    "an absent seat scored": (_bump(score_3=1), "unused seat columns"),
    "an absent raid played": (_bump(turns_raid_4=1), "unused raid columns"),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_check_record_catches_a_corrupted_row(name):
    """The record checks are not vacuous: a real row passes, and each corruption is named."""
    rules = Rules(num_players=3, raids=3)
    row = next(r for r in kernel_rows(rules, 3, ("greedy", "random", "greedy"), n_games=10)
               if r["winner"] >= 0 and r["combats"] > 0)
    assert check_record(rules, row) == []
    corrupt, words = CORRUPTIONS[name]
    corrupt(row)
    assert any(words in problem for problem in check_record(rules, row)), (name, check_record(rules, row))

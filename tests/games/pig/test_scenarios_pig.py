"""Scenario tests for Pig: one hand-built position per numbered rule of spec ``docs/rules/pig.md`` (P-1.1 ..
P-5.2), the decision points of §5 and the record of §6.

Every expected value is worked out from the spec, on scripted dice.  Most scenarios run in a :class:`Twin`
(``pig_helpers``): the reference and the kernel on the same position and the same dice, their states compared
after every step, so each value asserted holds in both.
"""

from __future__ import annotations

import pytest

import toolkit
from toolkit.core.policy import players
from toolkit.core.rng import CHANCE, Stream
from toolkit.games.pig import kernel as K
from toolkit.games.pig.policies import greedy_choice
from toolkit.games.pig.reference import HOLD, ROLL, Decision, Game, option_code, play_game, record_row
from toolkit.games.pig.rules import Rules

from pig_helpers import ScriptedChance, Scripted, Twin, kernel_game

STD = Rules()  # target 100, a six-sided die


# ---------------------------------------------------------------- P-1 set-up


@pytest.mark.parametrize("start_player,start", [("seat0", None), ("random", 0), ("random", 1)])
def test_p1_1_both_banked_scores_start_at_zero(start_player, start):
    v = Twin.new_game(Rules(start_player=start_player), start=start).view()
    assert v["score"] == (0, 0)
    assert v["turn_total"] == 0 and v["winner"] == -1 and v["turns"] == 1 and v["plies"] == 0
    assert v["rolls"] == (0, 0)


def test_p1_1_kernel_games_start_at_zero_on_any_seed():
    for g in range(10):
        kg = kernel_game(STD, seed=3, game=g)
        assert kg.st[K.S_SCORE] == 0 and kg.st[K.S_SCORE + 1] == 0


@pytest.mark.parametrize("start_player,start,expected", [
    ("random", 0, (0, 7)), ("random", 1, (7, 0)), ("seat0", None, (0, 7))])
def test_p1_2_the_second_seat_starts_with_the_bonus(start_player, start, expected):
    v = Twin.new_game(Rules(start_player=start_player, second_player_bonus=7), start=start).view()
    assert v["score"] == expected
    assert v["seat"] == (start or 0)  # the bonus goes to the seat that does not move first


def test_p1_2_the_bonus_is_a_banked_score_not_a_win():
    """Bonus target - 1: seat 1 starts one point short and has not won; it wins only by a hold (P-5.1)."""
    t = Twin.new_game(Rules(target=10, second_player_bonus=9, start_player="seat0"))
    assert t.view()["score"] == (0, 9) and t.view()["winner"] == -1
    t.dice(2)
    assert t.advance() == 0
    t.apply(HOLD)
    t.dice(3)
    assert t.advance() == 1  # seat 1 at 9 still plays a turn
    v = t.apply(HOLD)
    assert v["score"] == (2, 12) and v["winner"] == 1


def test_p1_2_a_bonus_at_the_target_is_refused():
    """A seat must not start with the winning score (the rules' validation, beside §9.2's ranges)."""
    Rules(target=10, second_player_bonus=9)
    with pytest.raises(ValueError, match="second_player_bonus"):
        Rules(target=10, second_player_bonus=10)


# ---------------------------------------------------------------- P-2 start player


def test_p2_seat0_takes_the_first_turn_without_a_start_draw():
    t = Twin.new_game(Rules(start_player="seat0"))
    assert t.chance.asked == []  # no below(2): the start is not drawn
    assert t.view()["seat"] == 0 and t.view()["start_seat"] == 0
    t.dice(3)
    assert t.advance() == 0
    assert t.chance.asked == [6]  # the first draw is the first roll


@pytest.mark.parametrize("first", [0, 1])
def test_p2_random_start_is_the_chance_streams_below_2(first):
    t = Twin.new_game(STD, start=first)
    assert t.chance.asked == [2]
    assert t.view()["seat"] == first and t.view()["start_seat"] == first
    t.dice(4)
    assert t.advance() == first
    assert t.view()["rolls"][first] == 1 and t.view()["rolls"][1 - first] == 0


def test_p2_kernel_start_seat_is_the_first_chance_draw_of_each_game():
    starts = []
    for g in range(30):
        kg = kernel_game(STD, seed=5, game=g)
        chance = Stream(5, g, CHANCE)
        first = chance.below(2)
        assert kg.st[K.S_START] == first and kg.st[K.S_SEAT] == first
        assert int(kg.rs[0]) == chance.state  # one draw, no more
        starts.append(first)
        fixed = kernel_game(Rules(start_player="seat0"), seed=5, game=g)
        assert fixed.st[K.S_START] == 0 and fixed.st[K.S_SEAT] == 0
        assert int(fixed.rs[0]) == Stream(5, g, CHANCE).state  # seat0: nothing drawn
    assert set(starts) == {0, 1}


# ---------------------------------------------------------------- P-3 a turn


def test_p3_1_a_turn_starts_at_zero_with_a_roll_that_is_not_a_choice():
    t = Twin(STD, score=(12, 30), seat=1)
    assert t.view()["turn_total"] == 0
    t.dice(4)
    assert t.advance() == 1  # the first DP comes after the roll
    v = t.view()
    assert v["turn_total"] == 4 and v["rolls"] == (0, 1) and v["plies"] == 1


def test_p3_1_a_first_roll_bust_passes_the_turn_with_no_decision():
    t = Twin(STD, score=(12, 30), seat=1)
    t.dice(1, 5)
    assert t.advance() == 0  # seat 1 was never asked
    v = t.view()
    assert v["rolls"] == (1, 1) and v["busts"] == (0, 1) and v["plies"] == 1
    assert v["turn_total"] == 5 and v["score"] == (12, 30)


@pytest.mark.parametrize("sides,faces", [(6, (5, 4)), (2, (2, 2)), (20, (17, 20))])
def test_p3_2_a_bust_loses_the_turn_total_and_keeps_the_banked_score(sides, faces):
    t = Twin(Rules(die_sides=sides), score=(30, 40), seat=0)
    t.dice(faces[0])
    assert t.advance() == 0
    t.apply(ROLL)
    t.dice(faces[1])
    assert t.advance() == 0
    assert t.view()["turn_total"] == sum(faces)
    t.apply(ROLL)
    t.dice(1, 2)
    assert t.advance() == 1  # the bust ended seat 0's turn; seat 1 rolled a 2
    v = t.view()
    assert v["score"] == (30, 40)
    assert v["turn_total"] == 2  # seat 1's own, from 0
    assert v["busts"] == (1, 0) and v["holds"] == (0, 0) and v["turns"] == 2


@pytest.mark.parametrize("sides,faces", [(6, (2, 3, 6)), (2, (2, 2, 2)), (20, (20, 2, 19)), (10, (10, 9, 3))])
def test_p3_3_other_faces_add_to_the_turn_total_then_the_player_decides(sides, faces):
    t = Twin(Rules(die_sides=sides), score=(0, 0), seat=0)
    total = 0
    for face in faces:
        t.dice(face)
        assert t.advance() == 0
        total += face
        assert t.view()["turn_total"] == total
        assert t.decision.options == ("roll", "hold") and t.kg.options() == [0, 1]
        t.apply(ROLL)
    assert t.view()["plies"] == len(faces) and t.view()["score"] == (0, 0)


def test_p3_4_a_hold_banks_the_turn_total_and_ends_the_turn():
    t = Twin(STD, score=(30, 40), seat=0)
    t.dice(6, 5)
    t.advance()
    t.apply(ROLL)
    t.advance()
    v = t.apply(HOLD)
    assert v["score"] == (41, 40)
    assert v["turn_total"] == 0 and v["seat"] == 1 and v["turns"] == 2 and v["holds"] == (1, 0)
    t.dice(3)
    assert t.advance() == 1
    assert t.view()["turn_total"] == 3  # seat 1's turn starts from 0, not from 11


def test_p3_4_holding_on_the_first_decision_banks_the_one_roll():
    t = Twin(Rules(die_sides=20), score=(5, 0), seat=1)
    t.dice(13)
    t.advance()
    assert t.apply(HOLD)["score"] == (5, 13)


# ---------------------------------------------------------------- P-4 turns alternate


def test_p4_turns_alternate_after_busts_and_holds():
    t = Twin(STD, score=(0, 0), seat=1)
    t.dice(1, 3)  # turn 1: seat 1 busts at once; turn 2: seat 0 rolls 3
    assert t.advance() == 0 and t.view()["turns"] == 2
    assert t.apply(HOLD)["seat"] == 1  # turn 3
    t.dice(4)
    assert t.advance() == 1
    t.apply(ROLL)
    t.dice(1, 2)  # seat 1 busts after a roll; turn 4: seat 0 rolls 2
    assert t.advance() == 0
    t.apply(HOLD)  # turn 5: seat 1
    t.dice(1, 1, 6)  # seat 1 and then seat 0 bust at once; turn 7: seat 1 rolls 6
    assert t.advance() == 1
    v = t.view()
    assert v["turns"] == 7 and v["score"] == (5, 0) and v["turn_total"] == 6
    assert v["busts"] == (1, 3) and v["holds"] == (2, 0)


# ---------------------------------------------------------------- P-5 end of game


@pytest.mark.parametrize("rules,before,faces,after", [
    (STD, 95, (5,), 100),  # exactly the target
    (STD, 98, (6,), 104),  # past it
    (STD, 90, (4, 6), 100),  # after a roll again
    (Rules.preset("quick"), 45, (5,), 50),
    (Rules(target=10, die_sides=2), 8, (2,), 10),
])
def test_p5_1_a_hold_reaching_the_target_wins_at_once(rules, before, faces, after):
    t = Twin(rules, score=(before, 37), seat=0)
    for i, face in enumerate(faces):
        t.dice(face)
        assert t.advance() == 0
        if i < len(faces) - 1:
            t.apply(ROLL)
    t.dice(2, 2)  # dice that must stay unrolled: the game is over
    v = t.apply(HOLD)
    assert v["score"] == (after, 37) and v["winner"] == 0
    assert v["seat"] == 0 and v["turns"] == 1 and v["turn_total"] == 0
    assert t.advance() == -1 and t.unrolled == 2


def test_p5_1_a_turn_total_past_the_target_is_not_a_win_until_held():
    t = Twin(STD, score=(95, 0), seat=0)
    t.dice(6)
    assert t.advance() == 0
    assert t.view()["winner"] == -1  # 95 + 6 is past 100, but not banked
    t.apply(ROLL)
    t.dice(1, 2)
    assert t.advance() == 1  # the bust loses it; the game goes on
    v = t.view()
    assert v["winner"] == -1 and v["score"] == (95, 0)


def test_p5_1_a_hold_below_the_target_does_not_win():
    t = Twin(STD, score=(95, 99), seat=0)
    t.dice(4)
    t.advance()
    v = t.apply(HOLD)
    assert v["score"] == (99, 99) and v["winner"] == -1 and v["seat"] == 1


def test_p5_2_each_seats_score_is_its_banked_score():
    """Seat 1 builds a turn total of 12 and busts; seat 0 wins: the record has the banked scores only."""
    t = Twin(STD, score=(94, 23), seat=1)
    t.dice(6)
    t.advance()
    t.apply(ROLL)
    t.dice(6)
    t.advance()
    t.apply(ROLL)
    t.dice(1, 6)
    assert t.advance() == 0
    t.apply(HOLD)
    row = t.row()
    assert (row["score_0"], row["score_1"]) == (100, 23)
    assert row["winner"] == 0


def test_p5_2_a_losers_score_is_its_bonus_if_it_never_banked():
    t = Twin.new_game(Rules(target=10, second_player_bonus=5, start_player="seat0"))
    t.dice(6, 5)
    t.advance()
    t.apply(ROLL)
    t.advance()
    t.apply(HOLD)
    row = t.row()
    assert (row["score_0"], row["score_1"], row["winner"], row["turns"]) == (11, 5, 0, 1)


# ---------------------------------------------------------------- §5 decision points


def test_s5_options_are_roll_then_hold():
    assert (ROLL, HOLD) == ("roll", "hold")
    decision = Decision(0, 7)
    assert decision.options == (ROLL, HOLD)
    assert (option_code(decision, ROLL), option_code(decision, HOLD)) == (K.ROLL, K.HOLD) == (0, 1)
    kg = kernel_game(STD, seed=2)
    kg.advance()
    assert kg.options() == [0, 1]
    # code 0 rolls (nothing banked, a roll due), code 1 holds (the total banked)
    seat, total, score = int(kg.st[K.S_SEAT]), int(kg.st[K.S_TOTAL]), int(kg.st[K.S_SCORE + kg.st[K.S_SEAT]])
    rolled, held = kg.copy(), kg.copy()
    rolled.apply(0)
    assert rolled.st[K.S_SCORE + seat] == score and rolled.st[K.S_ROLLING] == 1 and rolled.st[K.S_TOTAL] == total
    held.apply(1)
    assert held.st[K.S_SCORE + seat] == score + total and held.st[K.S_SEAT] == 1 - seat


def test_s5_a_bust_and_a_first_roll_are_not_decisions():
    """Seat 0 busts at once, seat 1 rolls 4, rolls again and busts, seat 0 rolls 6 and 5 and holds 11: three
    DPs, each after a roll that is not a bust."""
    rules = Rules(target=10, start_player="seat0")
    chance = ScriptedChance()
    chance.roll(6, 1, 4, 1, 6, 5)
    log = []
    game = Game(rules, [Scripted(ROLL, HOLD, log=log), Scripted(ROLL, log=log)], chance).play()
    assert log == [(1, 4, (ROLL, HOLD)), (0, 6, (ROLL, HOLD)), (0, 11, (ROLL, HOLD))]
    assert game.plies == 3 and game.winner == 0 and game.score == [11, 0]

    t = Twin.new_game(rules)  # the kernel counts the same
    t.dice(1, 4)
    t.advance()
    t.apply(ROLL)
    t.dice(1, 6)
    t.advance()
    t.apply(ROLL)
    t.dice(5)
    t.advance()
    t.apply(HOLD)
    assert t.view()["plies"] == 3 and t.row()["decisions"] == 3 and t.row()["options"] == 6


def test_s5_random_policy_draws_one_below_2_from_the_deciding_seats_stream():
    seed, g = 8, 4
    seat_players = players("pig", ("random", "random"), STD, seed, g)
    mine = [Stream(seed, g, 1), Stream(seed, g, 2)]
    for seat in (0, 1, 1, 0, 1, 0, 0, 0):
        decision = Decision(seat, 5)
        assert seat_players[seat].choose(None, decision) == (ROLL, HOLD)[mine[seat].below(2)]
        assert [p.stream.state for p in seat_players] == [s.state for s in mine]  # the other seat's untouched


class Coin:
    """The §5 random policy written from the spec: one below(2) from stream 1 + seat, the option of that
    index in canonical order."""

    def __init__(self, seed, game, seat):
        self.stream = Stream(seed, game, 1 + seat)

    def choose(self, game, decision):
        return decision.options[self.stream.below(2)]


def test_s5_random_games_follow_the_draw_order_in_reference_and_kernel():
    """Whole random games: §5's draws (chance: start, rolls; seat streams: one below(2) a DP) give the same
    games as the reference's ``random`` players and the kernel's."""
    seed, n = 21, 40
    kernel_rows = toolkit.simulate("pig", n_games=n, seed=seed, policies="random", progress=False)
    for g in range(n):
        mine = Game(STD, [Coin(seed, g, 0), Coin(seed, g, 1)], Stream(seed, g, CHANCE)).play()
        row = record_row(mine)
        assert row == record_row(play_game(STD, seed, g))
        assert row == {c: int(kernel_rows[c].iloc[g]) for c in row}, g


@pytest.mark.parametrize("score,total,expected", [
    (0, 19, ROLL), (0, 20, HOLD), (0, 25, HOLD), (89, 10, ROLL), (90, 10, HOLD), (98, 2, HOLD)])
def test_greedy_holds_at_20_or_when_a_hold_wins(score, total, expected):
    """``greedy``, the default players (not the spec's): P1's "hold at 20", or a hold that reaches the target."""
    decision = Decision(1, total)
    game = Game(STD, None, None)
    game.score, game.seat, game.turn_total, game.rolling = [50, score], 1, total, False
    assert greedy_choice(game, decision) == expected
    kg = kernel_game(STD, ("greedy", "greedy"))
    st = kg.st
    st[K.S_SCORE], st[K.S_SCORE + 1], st[K.S_SEAT], st[K.S_TOTAL], st[K.S_ROLLING] = 50, score, 1, total, 0
    assert kg.advance() == 1  # the DP is already due: nothing rolled
    assert kg.options()[kg.choose()] == option_code(decision, expected)


# ---------------------------------------------------------------- §6 the record


def test_s6_the_record_of_a_scripted_game():
    """Target 10, seat 1 starts (drawn).  Seat 1: 4, roll, 1 (bust).  Seat 0: 3, hold (3).  Seat 1: 6, roll,
    5, hold (11): seat 1 wins in three turns, four DPs."""
    t = Twin.new_game(Rules(target=10), start=1)
    t.dice(4)
    assert t.advance() == 1
    t.apply(ROLL)
    t.dice(1, 3)
    assert t.advance() == 0
    t.apply(HOLD)
    t.dice(6)
    assert t.advance() == 1
    t.apply(ROLL)
    t.dice(5)
    assert t.advance() == 1
    t.apply(HOLD)
    assert t.advance() == -1
    row = t.row()
    expected = {"winner": 1, "win_0": 0, "win_1": 1, "start_seat": 1, "score_0": 3, "score_1": 11, "turns": 3,
                "plies": 4, "decisions": 4, "options": 8, "rolls_0": 1, "rolls_1": 4, "busts_0": 0, "busts_1": 1,
                "holds_0": 1, "holds_1": 1}
    assert {k: row[k] for k in expected} == expected
    assert set(K.COLUMNS) >= set(expected)


def test_s6_a_first_turn_win_counts_one_turn():
    rules = Rules(target=12, start_player="seat0")
    t = Twin.new_game(rules)
    t.dice(6, 6)
    t.advance()
    t.apply(ROLL)
    t.advance()
    t.apply(HOLD)
    row = t.row()
    expected = {"winner": 0, "score_0": 12, "score_1": 0, "turns": 1, "plies": 2, "rolls_0": 2, "rolls_1": 0,
                "busts_0": 0, "busts_1": 0, "holds_0": 1, "holds_1": 0, "start_seat": 0}
    assert {k: row[k] for k in expected} == expected

"""Pig §7.1-7.6 (spec ``docs/rules/pig.md``) over seeded games, and negative controls for the kernel's checks.

- The reference and the kernel are stepped DP by DP (the kernel through ``KernelGame``) and an oracle written
  from §7 checks every step: the rolls between two DPs (read from the reference's chance stream; the kernel's
  predicted from its chance-stream state, §5's one ``below(die_sides)`` a roll) change no banked score, a bust
  starts the next turn at 0, the turn total is the sum of the turn's rolls, every face is in 1..die_sides; a
  hold banks exactly the turn total; at the end §7.4 and §7.6.  This covers more than the kernel's own checks
  see: ``check_step`` runs after each applied option, so the rolls and busts inside ``advance`` fall outside
  its window; it sees §7.3 only through their result (every banked point was held: a score is its holds plus
  its head start), and §7.2 only as a turn total that is never below 2 at a decision point and 0 after a hold.
- ``toolkit.simulate(..., check=True)`` runs the kernel's ``check_step`` / ``check_end`` on every step and
  raises ``AssertionError`` naming §7.N on a violation.
- Negative controls: each way of breaking a checked invariant, made by hand on a valid kernel state, returns
  that invariant's number; the oracle above is shown to fail too.
"""

from __future__ import annotations

import numpy as np
import pytest

import toolkit
from toolkit.core.rng import Stream
from toolkit.games.pig import kernel as K
from toolkit.games.pig.invariants import check_end, check_step
from toolkit.games.pig.reference import HOLD, ROLL, new_game, play_game
from toolkit.games.pig.rules import Rules

from pig_configs import CONFIGS as SHARED_CONFIGS  # the game's rule configurations, beside this file
from pig_helpers import kernel_game, kernel_view, reference_view

CONFIGS = {**SHARED_CONFIGS,  # standard, quick, variant_a (d2, seat 0 first, bonus), variant_b (d20)
           "short-bonus": Rules(target=10, second_player_bonus=9)}  # seat 1 starts one point short of winning
POLICIES = [("random", "random"), ("greedy", "random"), ("lookahead:2", "greedy")]


# ---------------------------------------------------------------- the oracle, from §7


def check_rolls(before: dict, faces, after: dict, sides: int) -> None:
    """The rolls made between two DPs (or a DP and the end): §7.1, 7.2, 7.3, 7.5."""
    seat, total, busts = before["seat"], before["turn_total"], sum(before["busts"])
    for face in faces:
        assert 1 <= face <= sides, f"§7.5: face {face}"
        if face == 1:
            seat, total, busts = 1 - seat, 0, busts + 1  # the next turn starts at 0 (§7.2)
        else:
            total += face
    assert after["score"] == before["score"], f"§7.1/7.3: rolls {faces} changed {before['score']} to {after['score']}"
    assert after["turn_total"] == total, f"§7.2: turn total {after['turn_total']}, the rolls make {total}"
    assert (after["seat"], sum(after["busts"])) == (seat, busts), f"rolls {faces}: {before} -> {after}"


def check_option(before: dict, option: str, after: dict) -> None:
    """One applied option at a DP-1: a roll banks nothing; a hold banks the turn total, and the next turn
    starts at 0 (§7.1, 7.2)."""
    seat = before["seat"]
    banked = list(before["score"])
    if option == HOLD:
        banked[seat] += before["turn_total"]
        assert after["turn_total"] == 0, f"§7.2: {after['turn_total']} left after a hold"
    else:
        assert after["turn_total"] == before["turn_total"]
    assert list(after["score"]) == banked, f"§7.1: {option} at {before['score']} gave {after['score']}"


def check_finished(view: dict, target: int) -> None:
    """§7.4 and §7.6 at the end."""
    w = view["winner"]
    assert w in (0, 1) and view["score"][w] >= target > view["score"][1 - w], f"§7.4: {view}"
    busts, holds, rolls = sum(view["busts"]), sum(view["holds"]), sum(view["rolls"])
    assert view["turns"] == busts + holds and view["plies"] == rolls - busts, f"§7.6: {view}"


class Recorder:
    """The reference's chance stream, with the faces it hands out kept for :meth:`take`."""

    def __init__(self, stream, sides):
        self.stream, self.sides, self.faces = stream, sides, []

    def below(self, n):
        value = self.stream.below(n)
        assert n == self.sides  # after the start, the chance stream only rolls (§5)
        self.faces.append(value + 1)
        return value

    def take(self):
        faces, self.faces = self.faces, []
        return faces


class ReferenceRun:
    def __init__(self, rules, seed, game, policies):
        self.game = new_game(rules, seed, game, policies)
        self.game.start()
        self.game.chance = self.rolls = Recorder(self.game.chance, rules.die_sides)

    def advance(self):
        self.decision = self.game.advance()
        return -1 if self.decision is None else self.decision.seat

    def faces(self):
        return self.rolls.take()

    def choose(self):
        return self.game.choose(self.decision)

    def apply(self, option):
        self.game.apply(self.decision, option)

    def view(self):
        return reference_view(self.game)


class KernelRun:
    def __init__(self, rules, seed, game, policies):
        self.kg, self.sides = kernel_game(rules, policies, seed, game), rules.die_sides

    def advance(self):
        mirror = Stream(state=int(self.kg.rs[0]))
        rolled = sum(kernel_view(self.kg.st)["rolls"])
        seat = self.kg.advance()
        rolled = sum(kernel_view(self.kg.st)["rolls"]) - rolled
        self._faces = [mirror.below(self.sides) + 1 for _ in range(rolled)]
        assert int(self.kg.rs[0]) == mirror.state, "the kernel drew other than one below(die_sides) a roll"
        assert self.kg.st[K.S_BAD_ROLL] == 0
        return seat

    def faces(self):
        return self._faces

    def choose(self):
        return (ROLL, HOLD)[self.kg.options()[self.kg.choose()]]

    def apply(self, option):
        self.kg.apply((ROLL, HOLD).index(option))

    def view(self):
        return kernel_view(self.kg.st)


MAX_DECISIONS = 20_000  # far beyond any game here: a game that does not end fails instead of hanging


def play_checked(run, rules) -> dict:
    """Play ``run`` to its end under the oracle; the final state."""
    before = run.view()
    assert before["turn_total"] == 0
    for _ in range(MAX_DECISIONS):
        seat = run.advance()
        after = run.view()
        check_rolls(before, run.faces(), after, rules.die_sides)
        if seat < 0:
            break
        option = run.choose()
        run.apply(option)
        before = run.view()
        check_option(after, option, before)
    else:
        raise AssertionError(f"no end after {MAX_DECISIONS} decisions")
    check_finished(after, rules.target)
    return after


@pytest.mark.parametrize("policies", POLICIES, ids=",".join)
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_reference_games_keep_the_invariants(config, policies):
    rules = CONFIGS[config]
    busts = holds = 0
    for g in range(12 if policies[0].startswith("lookahead") else 40):
        end = play_checked(ReferenceRun(rules, 31, g, policies), rules)
        busts, holds = busts + sum(end["busts"]), holds + sum(end["holds"])
    assert busts > 0 and holds > 0  # both ways of ending a turn were checked


@pytest.mark.parametrize("policies", POLICIES, ids=",".join)
@pytest.mark.parametrize("config", ["standard", "variant_a", "short-bonus"])
def test_kernel_games_stepped_keep_the_invariants(config, policies):
    rules = CONFIGS[config]
    for g in range(6 if policies[0].startswith("lookahead") else 20):
        end = play_checked(KernelRun(rules, 32, g, policies), rules)
        assert end == reference_view(play_game(rules, 32, g, policies))  # the same game


@pytest.mark.parametrize("policies", ["random", "greedy", "random,greedy", "lookahead:2,random"])
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_kernel_runs_with_checks_raise_nothing(config, policies):
    rules = CONFIGS[config]
    n = 300 if "lookahead" in policies else 3_000
    df = toolkit.simulate("pig", rules=rules, n_games=n, seed=33, policies=policies, progress=False, check=True)
    # the record agrees with §7.4 and §7.6 as well
    w = df["winner"].to_numpy()
    scores = df[["score_0", "score_1"]].to_numpy()
    assert (scores[np.arange(n), w] >= rules.target).all() and (scores[np.arange(n), 1 - w] < rules.target).all()
    rolls, busts = df["rolls_0"] + df["rolls_1"], df["busts_0"] + df["busts_1"]
    assert (df["turns"] == busts + df["holds_0"] + df["holds_1"]).all() and (df["plies"] == rolls - busts).all()


# ---------------------------------------------------------------- negative controls: the kernel's checks

RULES = Rules(target=50)


def at_decision(seed=4):
    """A kernel game at a DP-1 with a turn total and something banked on both sides."""
    kg = kernel_game(RULES, ("greedy", "greedy"), seed)
    for _ in range(MAX_DECISIONS):
        assert kg.advance() >= 0, "the game ended before such a DP"
        st = kg.st
        if st[K.S_SCORE] > 0 and st[K.S_SCORE + 1] > 0 and st[K.S_TOTAL] > 0:
            return kg
        kg.apply(kg.options()[kg.choose()])
    raise AssertionError(f"no such DP in {MAX_DECISIONS} decisions")


def stepped(option):
    """(params, before, after) of ``option`` applied at :func:`at_decision`."""
    kg = at_decision()
    before = kg.st.copy()
    kg.apply(option)
    return kg.params, before, kg.st.copy()


def finished(seed=4):
    kg = kernel_game(RULES, ("greedy", "random"), seed)
    for _ in range(MAX_DECISIONS):
        if kg.advance() < 0:
            return kg.params, kg.st.copy()
        kg.apply(kg.options()[kg.choose()])
    raise AssertionError(f"no end after {MAX_DECISIONS} decisions")


@pytest.mark.parametrize("option", [K.ROLL, K.HOLD])
def test_a_valid_step_passes(option):
    params, before, after = stepped(option)
    assert before[K.S_TOTAL] > 0
    assert check_step(params, before, after, option) == 0


def test_a_valid_end_passes():
    params, st = finished()
    assert st[K.S_WINNER] >= 0 and check_end(params, st) == 0


def _mover(before):
    return K.S_SCORE + int(before[K.S_SEAT])


def _other(before):
    return K.S_SCORE + 1 - int(before[K.S_SEAT])


STEP_CORRUPTIONS = {  # name: (option, the entry changed after it (from the state before), by how much, invariant)
    "7.1 hold banks less than the total": (K.HOLD, _mover, -1, 1),
    "7.1 hold banks more than the total": (K.HOLD, _mover, 1, 1),
    "7.1 hold banks for the other seat too": (K.HOLD, _other, 2, 1),
    "7.1 hold lowers the other seat": (K.HOLD, _other, -1, 1),
    "7.1 roll banks points": (K.ROLL, _mover, 4, 1),
    "7.1 roll lowers a score": (K.ROLL, _mover, -4, 1),
    "7.1 roll lowers the other score": (K.ROLL, _other, -1, 1),
    "7.2 turn total kept after a hold": (K.HOLD, lambda before: K.S_TOTAL, 3, 2),
    "7.2 a negative turn total": (K.ROLL, lambda before: K.S_TOTAL, -100, 2),
    "7.5 a roll off the die (hold)": (K.HOLD, lambda before: K.S_BAD_ROLL, 1, 5),
    "7.5 a roll off the die (roll)": (K.ROLL, lambda before: K.S_BAD_ROLL, 1, 5),
}


@pytest.mark.parametrize("name", list(STEP_CORRUPTIONS))
def test_check_step_catches(name):
    option, at, delta, code = STEP_CORRUPTIONS[name]
    params, before, after = stepped(option)
    after[at(before)] += delta
    assert check_step(params, before, after, option) == code


@pytest.mark.parametrize("seat_of", [_mover, _other], ids=["mover", "other"])
def test_check_step_catches_points_banked_between_two_checks(seat_of):
    """§7.3: a bust (or any roll) that changed a banked score happens in ``advance``, between the state a
    check saw after one option and the state before the next; the score then differs from the points the
    seat's holds banked (plus its bonus), which the next check sees (3), though that step changes nothing."""
    params, before, after = stepped(K.ROLL)
    assert check_step(params, before, after, K.ROLL) == 0
    at = seat_of(before)
    before[at] += 5
    after[at] += 5
    assert check_step(params, before, after, K.ROLL) == 3


@pytest.mark.parametrize("fields", [{"S_ROLLING": 0, "S_TOTAL": 1}, {"S_WINNER": 0, "S_TOTAL": 6}],
                         ids=["a decision point after a roll of 1", "a finished game with a turn total"])
def test_check_step_catches_a_turn_total_no_roll_can_make(fields):
    """§7.2: a decision point follows a roll of at least 2 (a 1 busts), and a game ends on a hold, which
    banks the total: a state against either is caught (2)."""
    params, before, after = stepped(K.ROLL)
    for name, value in fields.items():
        after[getattr(K, name)] = value
    assert check_step(params, before, after, K.ROLL) == 2


def _add(at, amount):
    def change(st):
        st[at(st)] += amount
    return change


def _set(at, value):
    def change(st):
        st[at(st)] = value(st)
    return change


WINNER = lambda st: K.S_SCORE + st[K.S_WINNER]  # noqa: E731
LOSER = lambda st: K.S_SCORE + 1 - st[K.S_WINNER]  # noqa: E731
END_CORRUPTIONS = {  # name: (change to a finished state, invariant)
    "7.4 winner below the target": (_set(WINNER, lambda st: RULES.target - 1), 4),
    "7.4 loser at the target": (_set(LOSER, lambda st: RULES.target), 4),
    "7.4 loser past the target": (_set(LOSER, lambda st: RULES.target + 7), 4),
    "7.4 no winner": (_set(lambda st: K.S_WINNER, lambda st: -1), 4),
    "7.6 a turn too many": (_add(lambda st: K.S_TURNS, 1), 6),
    "7.6 a turn too few": (_add(lambda st: K.S_TURNS, -1), 6),
    "7.6 a bust not in the turns": (_add(lambda st: K.T_BUSTS + 1, 1), 6),
    "7.6 a hold not in the turns": (_add(lambda st: K.T_HOLDS, 1), 6),
    "7.6 a ply too many": (_add(lambda st: K.S_PLIES, 1), 6),
    "7.6 a roll not in the plies": (_add(lambda st: K.T_ROLLS + 1, 1), 6),
    "7.5 a roll off the die": (_set(lambda st: K.S_BAD_ROLL, lambda st: 1), 5),
}


@pytest.mark.parametrize("name", list(END_CORRUPTIONS))
def test_check_end_catches(name):
    corrupt, code = END_CORRUPTIONS[name]
    params, st = finished()
    corrupt(st)
    assert check_end(params, st) == code


# ---------------------------------------------------------------- negative controls: the oracle

VIEW = {"score": (10, 20), "turn_total": 5, "seat": 0, "winner": -1, "turns": 3, "plies": 4, "start_seat": 0,
        "rolls": (3, 2), "busts": (1, 0), "holds": (0, 1)}


def _view(**changes):
    return {**VIEW, **changes}


@pytest.mark.parametrize("check,args", [
    (check_rolls, (VIEW, [3], _view(turn_total=8, score=(10, 21)), 6)),  # a roll banked a point
    (check_rolls, (VIEW, [1, 4], _view(seat=1, turn_total=4, busts=(2, 0), score=(15, 20)), 6)),  # a bust banked
    (check_rolls, (VIEW, [1, 4], _view(seat=1, turn_total=9, busts=(2, 0)), 6)),  # the total carried over a bust
    (check_rolls, (VIEW, [3, 2], _view(turn_total=9), 6)),  # not the sum
    (check_rolls, (VIEW, [7], _view(turn_total=12), 6)),  # off the die
    (check_option, (VIEW, HOLD, _view(score=(14, 20), turn_total=0, seat=1))),  # banked 4 of 5
    (check_option, (VIEW, HOLD, _view(score=(15, 20), turn_total=5, seat=1))),  # total kept
    (check_option, (VIEW, ROLL, _view(score=(15, 20)))),  # a roll banked
    (check_finished, (_view(winner=0, score=(49, 20), busts=(1, 1), turns=3), 50)),  # winner short
    (check_finished, (_view(winner=0, score=(50, 50), busts=(1, 1), turns=3), 50)),  # loser at target
    (check_finished, (_view(winner=1, score=(10, 50)), 50)),  # turns 3 != 1 bust + 1 hold
    (check_finished, (_view(winner=1, score=(10, 50), turns=2, plies=5), 50)),  # plies 5 != 5 rolls - 1 bust
], ids=lambda x: x.__name__ if callable(x) else "")
def test_the_oracle_catches(check, args):
    with pytest.raises(AssertionError):
        check(*args)


def test_the_oracle_passes_a_valid_step():
    check_rolls(VIEW, [3, 1, 4], _view(seat=1, turn_total=4, busts=(2, 0)), 6)
    check_option(VIEW, HOLD, _view(score=(15, 20), turn_total=0, seat=1))
    check_finished(_view(winner=1, score=(10, 50), turns=2, plies=4), 50)

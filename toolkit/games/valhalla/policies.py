"""Valhalla strategies, pure-Python form (the kernel has the same three in njit form).

``random``
    Exactly §5: uniform over the DP-1 options; DP-2 ``throw_again`` or
    ``decline`` with probability 1/2 each.
``greedy``
    A rule of thumb.  Each DP-1 option gets an integer score, the highest wins
    (ties: the first in canonical order):

    - +1000 bearing off; +500 + target for an attack (hit the most advanced
      enemy); -1000 landing on the rock; +200 landing on a safe square or 36;
    - -600 (``EXPOSED``) landing anywhere else where the ship can be hit back:
      not protected (V-6.4) after the move, with an opponent ship (not a
      repairing one; home counts as square 0) 1 to ``reach`` squares behind,
      ``reach`` the largest throw value of the throw mode (§3);
    - +300 for releasing a repairing ship;
    - + (40 - origin): advance the rearmost ship (home counts as origin 0).

    DP-2: always throw again.

    Why the exposure term (issue 16): without it "hit first" made two greedy
    players swap ships back and forth, about 1,140 attacks and 1,630 turns a
    game against 380 turns for random self-play, which is no way a person
    plays (an attack leaves the hit ship right behind the attacker, so it hits
    back).  With it, greedy self-play lasts about 290 turns (reference, 60
    games, seed 5) and greedy still beats random in about 87% of games.
``lookahead``
    Expectimax, one ply: for each option, the expected value over the exact
    distribution of the opponent's next throw of the position after the
    opponent's best reply (or no reply), with the evaluation
    :func:`evaluate`.  DP-2: throw again when the expected best evaluation
    after one more throw is at least the current one.  Probabilities are
    grouped by (value, natural one) in order of first appearance among the
    16 stick outcomes, and summed in that order, so the float sums equal the
    kernel's bit for bit.
"""

from __future__ import annotations

from toolkit.core import policy as core_policy
from toolkit.games.valhalla.reference import (
    DECLINE, HOME, OFF, THROW_AGAIN, VALHALLA, Throw, apply_move, is_protected, legal_moves,
)

POLICIES = ("random", "greedy", "lookahead")
WIN_VALUE = 1_000_000
EXPOSED = 600  # greedy's penalty for a landing the opponent can hit on its next throw
REPAIR_PENALTY = 8
OFF_PROGRESS = 48


def evaluate(state, seat: int) -> int:
    """Position value for ``seat``: its ships' progress minus the opponent's."""
    total = 0
    for s, sign in ((seat, 1), (1 - seat, -1)):
        for pos, repairing in zip(state.pos[s], state.repairing[s]):
            if pos == OFF:
                total += sign * OFF_PROGRESS
            elif pos != HOME:
                total += sign * (pos - (REPAIR_PENALTY if repairing else 0))
    return total


def reach(rules) -> int:
    """The largest throw value of the throw mode (§3): how far behind a ship its attackers can stand."""
    values = {1, 2, 3, 4, rules.zero_runes_value}
    if rules.throw_mode == "runes":
        values |= {0, rules.hagalaz_alone_value}
    return max(values)


def exposed(rules, state, seat, target) -> bool:
    """``seat``'s ship on ``target`` (1..35, ``state`` after its move) can be attacked on the opponent's
    next throw: it is not protected and an opponent ship (not repairing; home is square 0) stands 1 to
    :func:`reach` squares behind it."""
    if is_protected(rules, state, target):
        return False
    opponent = 1 - seat
    for pos, repairing in zip(state.pos[opponent], state.repairing[opponent]):
        if pos not in (OFF, VALHALLA) and not repairing and 1 <= target - pos <= reach(rules):
            return True
    return False


def greedy_score(rules, state, seat, move) -> int:
    score = 40 - move.origin
    if move.target == OFF:
        score += 1000
    if move.attack:
        score += 500 + move.target
    if move.target == rules.rock_square:
        score -= 1000
    elif move.target in rules.safe_squares or move.target == VALHALLA:
        score += 200
    elif move.target < VALHALLA:
        after = state.copy()
        apply_move(rules, after, seat, move)
        if exposed(rules, after, seat, move.target):
            score -= EXPOSED
    if move.origin not in (HOME, VALHALLA) and state.repairing[seat][state.ship_at(seat, move.origin)]:
        score += 300
    return score


def throw_groups(rules) -> list:
    """[(probability, Throw)] grouped by (value, natural one), first-appearance order."""
    from toolkit.games.valhalla.odds import float_outcomes

    groups: dict = {}
    for prob, _, value, natural_one in float_outcomes(rules):
        groups[(value, natural_one)] = groups.get((value, natural_one), 0.0) + prob
    return [(prob, Throw(value, natural_one)) for (value, natural_one), prob in groups.items()]


class RandomPolicy(core_policy.RandomPolicy):
    """§5's uniform choice (``core.policy.RandomPolicy``) at both decision points."""

    def choose_move(self, game, seat, throw, moves):
        return self.choose(None, moves)

    def choose_extra_throw(self, game, seat) -> bool:
        return self.choose(None, [THROW_AGAIN, DECLINE]) == THROW_AGAIN


class GreedyPolicy:
    def __init__(self, rules, stream):
        self.rules = rules

    def choose_move(self, game, seat, throw, moves):
        best, best_score = moves[0], None
        for move in moves:
            score = greedy_score(self.rules, game.state, seat, move)
            if best_score is None or score > best_score:
                best, best_score = move, score
        return best

    def choose_extra_throw(self, game, seat) -> bool:
        return True


class LookaheadPolicy:
    def __init__(self, rules, stream):
        self.rules = rules
        self.groups = throw_groups(rules)

    def _after(self, state, seat, move):
        """(position after ``move``, True if it wins)."""
        after = state.copy()
        apply_move(self.rules, after, seat, move)
        return after, after.borne_off(seat) == self.rules.ships_per_player

    def expected_after_reply(self, state, seat) -> float:
        """E over the opponent's throw of the value after its best reply."""
        opponent = 1 - seat
        total = 0.0
        for prob, throw in self.groups:
            replies = legal_moves(self.rules, state, opponent, throw)
            if not replies:
                value = evaluate(state, seat)
            else:
                value = None
                for reply in replies:
                    after, won = self._after(state, opponent, reply)
                    v = -WIN_VALUE if won else evaluate(after, seat)
                    if value is None or v < value:
                        value = v
            total += prob * value
        return total

    def choose_move(self, game, seat, throw, moves):
        best, best_value = moves[0], None
        for move in moves:
            after, won = self._after(game.state, seat, move)
            value = float(WIN_VALUE) if won else self.expected_after_reply(after, seat)
            if best_value is None or value > best_value:
                best, best_value = move, value
        return best

    def choose_extra_throw(self, game, seat) -> bool:
        state = game.state
        now = evaluate(state, seat)
        total = 0.0
        for prob, throw in self.groups:
            moves = legal_moves(self.rules, state, seat, throw)
            value = now
            if moves:
                value = None
                for move in moves:
                    after, won = self._after(state, seat, move)
                    v = WIN_VALUE if won else evaluate(after, seat)
                    if value is None or v > value:
                        value = v
            total += prob * value
        return total >= now


_CLASSES = {"random": RandomPolicy, "greedy": GreedyPolicy, "lookahead": LookaheadPolicy}


def make_policy(name: str, rules, stream):
    if name not in _CLASSES:
        raise ValueError(f"policy={name!r} is not allowed: one of {', '.join(POLICIES)}")
    return _CLASSES[name](rules, stream)


# the reference asks core.policy for its players (it does not import this module); the lambda looks
# make_policy up at each call, so a test may replace it
core_policy.register_players("valhalla", lambda name, rules, stream: make_policy(name, rules, stream))

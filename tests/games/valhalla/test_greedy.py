"""Valhalla's ``greedy`` plays like a person (issue 16): it does not land where the opponent hits it back.

- on hand-built positions the reference's and the kernel's greedy choose the same move: the safe
  advance over an attack that leaves the ship exposed, and the attack that lands in a protected run;
- greedy self-play lasts at most 1.5 times as long as random self-play (fixed seeds, the kernel);
  without the exposure term ("hit first", the greedy before issue 16) it lasted over four times as
  long: the negative control plays the reference with ``EXPOSED = 0``.
"""

from __future__ import annotations

import numpy as np
import pytest

import toolkit
from test_valhalla_metrics_columns import kernel_state  # beside this file
from toolkit.games.valhalla import kernel, policies, reference
from toolkit.games.valhalla.reference import State, Throw
from toolkit.games.valhalla.rules import Rules

OFF = reference.OFF


def reference_choice(rules, state, seat, throw):
    moves = reference.legal_moves(rules, state, seat, throw)
    scores = [policies.greedy_score(rules, state, seat, move) for move in moves]
    move = moves[scores.index(max(scores))]
    return move.origin, move.target


def kernel_choice(rules, state, seat, throw):
    ip = kernel.to_kernel(rules)[0]
    st = kernel_state(rules, state)
    mo = np.zeros((3, 8), np.int64)
    n = kernel.legal_moves(ip, st, seat, throw.value, throw.natural_one, mo)
    i = kernel.greedy_choice(ip, st, seat, mo, n, np.zeros(kernel.STATE_SIZE, np.int64))
    return int(mo[0, i]), int(mo[1, i])


@pytest.mark.parametrize("seat0,seat1,value,chosen", [
    # 10 -> 13 hits the ship on 13, which lands on 10, three behind: it would hit back.  20 -> 23 has
    # nobody 1..5 behind it, so greedy advances there (the old "hit first" took 10 -> 13)
    ([10, 20, OFF, OFF, OFF, OFF], [13, 7, OFF, OFF, OFF, OFF], 3, (20, 23)),
    # 24 -> 27 hits, and the attacker stands beside its ship on 28: a run of two, protected (V-6.4c);
    # 28 -> 31 would stand four ahead of the ship on 27
    ([24, 28, OFF, OFF, OFF, OFF], [27, OFF, OFF, OFF, OFF, OFF], 3, (24, 27)),
    # no safe choice: both landings can be hit, so the attack's bonus decides as before
    ([10, 14, OFF, OFF, OFF, OFF], [13, 12, OFF, OFF, OFF, OFF], 3, (10, 13)),
])
def test_greedy_avoids_landing_where_it_is_hit_back(seat0, seat1, value, chosen):
    rules = Rules()
    state = State.from_positions(seat0, seat1)
    throw = Throw(value, value == 1)
    assert reference_choice(rules, state, 0, throw) == chosen
    assert kernel_choice(rules, state, 0, throw) == chosen


def test_greedy_without_the_exposure_term_hits_first(monkeypatch):
    """Negative control of the positions above: "hit first" takes the exposed attack."""
    monkeypatch.setattr(policies, "EXPOSED", 0)
    state = State.from_positions([10, 20, OFF, OFF, OFF, OFF], [13, 7, OFF, OFF, OFF, OFF])
    assert reference_choice(Rules(), state, 0, Throw(3, False)) == (10, 13)


@pytest.mark.parametrize("preset", ["standard", "alternative"])
def test_greedy_self_play_lasts_at_most_one_and_a_half_random_games(preset):
    rules = Rules.preset(preset)
    random = toolkit.simulate("valhalla", rules, n_games=2000, seed=5, policies=("random",) * 2, progress=False)
    greedy = toolkit.simulate("valhalla", rules, n_games=2000, seed=5, policies=("greedy",) * 2, progress=False)
    ratio = greedy["turns"].mean() / random["turns"].mean()
    assert ratio <= 1.5, f"greedy self-play {greedy['turns'].mean():.0f} turns, random {random['turns'].mean():.0f}"
    # and greedy is still a rule of thumb worth the name
    mixed = toolkit.simulate("valhalla", rules, n_games=2000, seed=5, policies=("greedy", "random"), progress=False)
    assert mixed["win_0"].mean() > 0.8


def test_negative_control_hit_first_self_play_is_long(monkeypatch):
    """The reference's "hit first" greedy (``EXPOSED = 0``) over 30 games: more than 1.5 times random's
    turns, so the check above can fail."""
    monkeypatch.setattr(policies, "EXPOSED", 0)
    rules = Rules()

    def turns(policy):
        rows = [reference.record_row(reference.play_game(rules, 5, g, (policy, policy))) for g in range(30)]
        return sum(row["turns"] for row in rows) / len(rows)

    assert turns("greedy") > 1.5 * turns("random")

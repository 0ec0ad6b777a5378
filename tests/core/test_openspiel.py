"""The OpenSpiel bridge (``toolkit.openspiel``, the extra ``openspiel``): our five games as OpenSpiel games.

The bridge steps the kernel's protocol, so these tests check what it adds: that every transition it
makes is one the kernel's own §7 checks accept, that its chance nodes draw what the kernel draws, that
its information states tell apart exactly what a seat can tell apart, and that OpenSpiel's own search
plays whole games on it.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import toolkit
from toolkit import openspiel as bridge

GAMES = tuple(toolkit.GAMES)  # every registered game is bridged
HIDDEN = tuple(name for name, spec in toolkit.GAMES.items() if spec.hidden_information)
PLAYERS = {name: spec.seats(spec.Rules()) for name, spec in toolkit.GAMES.items()}


def decisions(name: str, games: int = 2, seed: int = 3):
    """(state, legal actions) at every decision point of ``games`` bridge games with uniformly random
    actions and chance outcomes."""
    game = bridge.load(name, players=PLAYERS.get(name))
    r = np.random.RandomState(seed)
    for g in range(games):
        state = game.new_initial_state(g)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(r.randint(game.outcomes)))
                continue
            actions = state.legal_actions()
            yield state, actions
            state.apply_action(actions[r.randint(len(actions))])


@pytest.mark.parametrize("name", GAMES)
def test_every_transition_is_one_the_kernels_checks_accept(name):
    game = bridge.load(name, players=PLAYERS.get(name))
    k = game.kernel
    r = np.random.RandomState(11)
    ends = 0
    for g in range(3):
        state = game.new_initial_state(g)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(r.randint(game.outcomes)))
                continue
            actions = state.legal_actions()
            codes = [int(k.nth(game.params, state.play.st, i)) for i in range(int(k.count(game.params, state.play.st)))]
            assert actions == sorted(bridge.to_action(name, c) for c in codes)
            assert [bridge.to_code(name, a) for a in actions] == sorted(codes, key=lambda c: bridge.to_action(name, c))
            assert all(0 <= a < game.num_distinct_actions() for a in actions)
            before = state.play.st.copy()
            action = actions[r.randint(len(actions))]
            state.apply_action(action)  # the decision waits for the chance node after it
            assert state.is_chance_node()
            state.apply_action(int(r.randint(game.outcomes)))
            assert k.check_step(game.params, before, state.play.st, bridge.to_code(name, action)) == 0
        assert k.check_end(game.params, state.play.st) == 0
        returns = state.returns()
        assert len(returns) == game.seats and set(returns) <= {0.0, 1.0} and sum(returns) >= 1
        ends += 1
    assert ends == 3


def test_walhallas_count_vectors_are_renumbered_both_ways():
    codes = [0, 3, 40 << 8, (2 << 8) | (1 << 16) | (5 << 24) | (40 << 32), 255]
    actions = [bridge.to_action("walhalla", c) for c in codes]
    assert [bridge.to_code("walhalla", a) for a in actions] == codes
    assert len(set(actions)) == len(codes) and max(actions) < bridge.ACTION_BOUND["walhalla"] < 2 ** 31
    with pytest.raises(ValueError, match="above 40"):
        bridge.to_action("walhalla", 41 << 8)
    with pytest.raises(ValueError, match="beyond its action bound"):
        bridge.to_action("halali", bridge.ACTION_BOUND["halali"])
    assert bridge.to_code("halali", 77) == 77 == bridge.to_action("halali", 77)


def test_the_chance_nodes_throw_the_sticks_as_the_kernel_does():
    """Valhalla's first throw after the start, over 64 outcomes of 30 games' chance nodes, is distributed
    as the kernel's throws in 1,920 simulator games (each value within 0.04)."""
    from toolkit.core.protocol import KernelGame

    game = bridge.load("valhalla")
    value = game.kernel.STATE.value
    bridged = []
    for g in range(30):
        start = game.new_initial_state(g)
        for k in range(game.outcomes):
            state = start.clone()
            state.apply_action(k)
            bridged.append(int(state.play.st[value]))
    direct = []
    for g in range(len(bridged)):
        play = KernelGame(game.kernel, game.rules, ("random", "random"), seed=5, game=g)
        play.advance()
        direct.append(int(play.st[value]))
    values = sorted(set(direct) | set(bridged))
    assert len(values) >= 4
    for v in values:
        assert abs(bridged.count(v) - direct.count(v)) / len(direct) < 0.04, v
    # negative control: the outcome is what moves the throw (one game's 64 outcomes are not all alike)
    assert len(set(bridged[:game.outcomes])) > 1


@pytest.mark.parametrize("name", HIDDEN)
def test_information_states_tell_apart_what_the_seat_knows_and_nothing_else(name):
    seen = same = other_differs = 0
    for i, (state, actions) in enumerate(decisions(name)):
        if i % 7:
            continue
        seat = state.current_player()
        twin = state.resample_from_infostate(seat, seed=1000 + i)
        assert twin.information_state_string(seat) == state.information_state_string(seat)
        assert twin.legal_actions() == actions
        same += int(np.array_equal(twin.play.st, state.play.st))
        for q in range(state.num_players() if name != "halali" else 0):  # Halali hides the tiles from both
            if q != seat:  # negative control: what the other seats hold was redrawn, so they can tell
                other_differs += twin.information_state_string(q) != state.information_state_string(q)
        seen += 1
    assert seen >= 10
    assert same < seen  # the resampled worlds are other worlds ...
    assert other_differs > 0 or name == "halali"  # ... which the other seats see differ


def test_a_face_up_tile_is_part_of_halalis_information_state():
    """Negative control of the test above for Halali, where nobody sees a face-down tile: swapping two
    face-down tiles is one information state, changing a face-up one is another."""
    layout = bridge.load("halali").kernel.STATE
    for i, (state, _) in enumerate(decisions("halali", games=1)):
        up = [s for s in range(49) if state.play.st[layout.up + s] == 1 and state.play.st[layout.kind + s] >= 0]
        down = [s for s in range(49) if state.play.st[layout.up + s] == 0 and state.play.st[layout.kind + s] >= 0]
        kinds = {int(state.play.st[layout.kind + s]) for s in down}
        if i > 10 and up and len(kinds) > 1:
            break
    seat = state.current_player()
    a, b = next((a, b) for a in down for b in down
                if state.play.st[layout.kind + a] != state.play.st[layout.kind + b])
    hidden = state.clone()
    for field in ("kind", "id", "dir"):
        at = getattr(layout, field)
        hidden.play.st[at + a], hidden.play.st[at + b] = state.play.st[at + b], state.play.st[at + a]
    assert hidden.information_state_string(seat) == state.information_state_string(seat)
    shown = state.clone()
    shown.play.st[layout.kind + up[0]] = 1 - min(state.play.st[layout.kind + up[0]], 1)
    assert shown.information_state_string(seat) != state.information_state_string(seat)


def test_valhalla_hides_nothing():
    for i, (state, actions) in enumerate(decisions("valhalla", games=1)):
        if i % 11:
            continue
        twin = state.resample_from_infostate(state.current_player(), seed=i)
        assert np.array_equal(twin.play.st, state.play.st)


def test_herrlofs_discard_record_is_not_part_of_the_information_state():
    """``disc`` counts the opponent's buried discards too: two states that differ only there are one
    information state (negative control: a difference in the seat's own hand is another one)."""
    game = bridge.load("herrlof")
    layout = game.kernel.STATE
    for state, _ in decisions("herrlof", games=1):
        if state.play.st[layout.disc:layout.disc + 64].any():
            break
    seat = state.current_player()
    twin = state.clone()
    twin.play.st[layout.disc:layout.disc + 64] = 0
    assert twin.information_state_string(seat) == state.information_state_string(seat)
    assert not np.array_equal(game.observe(state.play.st, seat), state.play.st)  # something is masked
    other = state.resample_from_infostate(1 - seat, seed=9)  # redraws the seat's own hand
    assert other.information_state_string(seat) != state.information_state_string(seat)


def test_the_games_are_registered_with_openspiel():
    game = pyspiel.load_game("toolkit_attila(players=3)")
    assert game.num_players() == 3 and game.get_type().short_name == "toolkit_attila"
    assert pyspiel.load_game("toolkit_valhalla").get_type().information == \
        pyspiel.GameType.Information.PERFECT_INFORMATION
    with pytest.raises(ValueError, match="players=3 is not allowed"):
        bridge.load("herrlof", players=3)
    with pytest.raises(ValueError, match="chance_outcomes=0"):
        bridge.load("halali", chance_outcomes=0)


# one game of each kind, from the declarations: OpenSpiel plays MCTSBot where nothing is hidden, ISMCTSBot where
# something is (the first registered two-player game of each)
BOT_GAMES = tuple(next(n for n in GAMES if PLAYERS[n] == 2 and toolkit.GAMES[n].hidden_information == hidden)
                  for hidden in (False, True))


@pytest.mark.parametrize("name", BOT_GAMES)
def test_openspiels_search_and_ours_play_whole_games_on_the_bridge(name):
    """OpenSpiel's MCTSBot (nothing hidden: Valhalla today) and ISMCTSBot (something hidden: Herrlof) against our
    search, tiny budgets: whole games, both searches decide, the same seed gives the same games."""
    first = bridge.match(name, "mcts:6:0:random", iterations=6, n_games=2, seed=4)
    assert first.our_seat.tolist() == [0, 1]
    assert (first.our_decisions > 0).all() and (first.their_decisions > 0).all()
    assert set(first.our_share) <= {0.0, 0.5, 1.0}
    again = bridge.match(name, "mcts:6:0:random", iterations=6, n_games=2, seed=4)
    assert again.drop(columns=["our_seconds", "their_seconds"]).equals(
        first.drop(columns=["our_seconds", "their_seconds"]))
    with pytest.raises(ValueError, match="ours='greedy' is not allowed"):
        bridge.match(name, "greedy", iterations=6, n_games=1)
    with pytest.raises(TypeError):  # the games and the iterations are named, never read by position
        bridge.match(name, "mcts:6:0:random", 6)


def test_the_rollout_evaluator_plays_on_as_uniformly_random_seats():
    """From the start, the kernel playout's win rate of the first seat matches the simulator's random
    self-play (Halali, 400 playouts, within 0.08 of 2,000 simulated games)."""
    game = bridge.load("halali")
    evaluator = bridge.RolloutEvaluator(game, np.random.RandomState(2))
    state = game.new_initial_state(0)
    wins = np.array([evaluator.evaluate(state) for _ in range(400)])
    assert wins.shape == (400, 2) and set(np.unique(wins)) <= {0.0, 1.0}
    frame = toolkit.simulate("halali", n_games=2000, seed=3)
    simulated = frame["win_0"].mean()
    assert abs(wins[:, 0].mean() - simulated) < 0.08
    assert 0 < wins[:, 0].mean() < 1  # the playouts are not all one game


def test_every_game_declares_its_actions_and_one_without_is_refused_by_name(monkeypatch):
    """The bridge reads each game's kernel (ACTION_BOUND, and action_of / code_of where codes are wider than
    an int), never a table of names; a game whose kernel declares none is refused with the name to add."""
    assert set(bridge.ACTION_BOUND) == set(toolkit.GAMES)
    assert all(isinstance(bound, int) and 0 < bound < 2 ** 31 for bound in bridge.ACTION_BOUND.values())
    monkeypatch.setitem(bridge.ACTION_BOUND, "valhalla", None)
    with pytest.raises(ValueError, match="valhalla's kernel declares no ACTION_BOUND"):
        bridge.to_action("valhalla", 3)

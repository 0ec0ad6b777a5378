"""Conformance: the tree search written once (``toolkit.core.mcts``), in every game (issue 16, first part).

- it returns the index of a legal option, and the same search from the same streams returns the same;
- it draws only from the deciding seat's decision stream (the chance stream and the other seats' are
  left as they were) and leaves the real state alone;
- it decides on what its seat knows: in a world ``determinize`` draws for the seat (everything hidden
  drawn again), from the same decision stream, it chooses the same;
- it plays: ``mcts:200`` against ``random`` wins most of a few seeded games in every game (each seat
  in turn);
- the ``mcts:N`` policy, by name, through ``toolkit.simulate``: its games keep every invariant (the
  kernel's checks) and are the games ``KernelGame`` steps with the same search, decision by decision
  (the same seeds on 1 and 2 threads: ``test_reproducibility.py``); a bad budget is refused by name.

The positions are the decision points of seeded random games, as many games as a test needs
(:func:`decision_points`, ``conformance_games.games_until``): a game of a few decisions is sampled in more games.
"""

from __future__ import annotations

import numpy as np
import pytest

import toolkit
from conformance_games import NAMES, SPECS, games_until
from toolkit.core import mcts, mcts_python
from toolkit.core.protocol import KernelGame

SEED = 20261205


def search(game: KernelGame, seat: int, iterations: int) -> int:
    game.seat = seat
    return game.search(iterations, 1.4)


def policy_search(game: KernelGame, seat: int, name: str) -> int:
    """The search the policy ``name`` (``mcts[:N[:D]][:greedy|:random][:uct|:flat]``) makes, called with its
    settings spelled out: N iterations, the cut-off D, the rollout policy's code, its mode's bit (plain UCT,
    flat or neither), the default exploration."""
    iterations, depth, rollout, mode = mcts.parse(name, **mcts.game_defaults(game.kernel))
    code = int(game.kernel.policy_ids(("greedy",))[0]) if rollout == "greedy" else 0
    game.seat = seat
    return game.search(iterations, None, depth, code, mode=mode)


def decision_points(name, games=2, every=7, at_least=5):
    """Seeded random games' decision points with more than one option (every ``every``-th of a game): those of
    the first ``games`` games, then of more games until there are ``at_least`` (``games_until``: a game shorter
    than ``every`` decisions gives one a game, and one with no choice fails by name)."""
    spec = toolkit.GAMES[name]
    rules = toolkit.rules(name)
    seats = spec.seats(rules)
    found = 0
    for g in games_until(lambda: found >= at_least, games, f"{at_least} decision points with a choice"):
        game = KernelGame(spec.kernel, rules, ("random",) * seats, SEED, g)
        step = 0
        while (seat := game.advance()) >= 0:
            options = game.options()
            if len(options) > 1 and step % every == 0:
                yield game, seat, options
                found += 1
            game.apply(options[game.choose()])
            step += 1


@pytest.mark.parametrize("name", sorted(NAMES))
def test_a_search_is_legal_repeatable_and_draws_from_its_seat_only(name):
    checked = 0
    for game, seat, options in decision_points(name):
        a, b = game.copy(), game.copy()
        i = search(a, seat, 40)
        assert 0 <= i < len(options)
        assert search(b, seat, 40) == i and np.array_equal(a.rs, b.rs)
        assert np.array_equal(a.st, game.st)
        moved = np.flatnonzero(a.rs != game.rs).tolist()
        assert moved == [1 + seat], moved
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("name", sorted(name for name, spec in SPECS.items() if spec.hidden_information))
def test_a_search_decides_on_what_its_seat_knows(name):
    checked = 0
    for game, seat, options in decision_points(name, every=11, at_least=5):
        world = game.copy().determinize(seat)  # drawn from a copy: the real stream stays as it is
        twin = game.copy()
        twin.st[:] = world
        assert twin.options() == options
        assert search(twin, seat, 30) == search(game.copy(), seat, 30)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("name", sorted(NAMES))
def test_mcts_beats_random(name):
    spec = toolkit.GAMES[name]
    rules = toolkit.rules(name)
    seats = spec.seats(rules)
    games = 2 * seats
    won = 0
    for g in range(games):
        me = g % seats
        game = KernelGame(spec.kernel, rules, ("random",) * seats, SEED, g)
        while (seat := game.advance()) >= 0:
            options = game.options()
            i = search(game, seat, 200) if seat == me and len(options) > 1 else game.choose()
            game.apply(options[i])
        won += game.returns()[me]
    assert won >= games - 1, f"mcts:200 won {won} of {games} against random (fair share {games / seats:.1f})"


@pytest.mark.parametrize("name", sorted(NAMES))
def test_the_mcts_policy_plays_checked_games_as_the_search_decides(name):
    spec = toolkit.GAMES[name]
    rules = toolkit.rules(name)
    seats = spec.seats(rules)
    lineup = (("mcts:12",) + ("mcts:6:random:uct", "mcts:5:random")[:seats - 1]
              + ("mcts:4:3:greedy",) * max(0, seats - 3))
    toolkit.simulate(name, n_games=3, seed=SEED, policies=lineup, check=True, progress=False)  # raises on a violation
    out = np.zeros((1, len(spec.columns)), np.int32)
    violations = np.full(1, -1, np.int32)
    searched = 0
    for g in games_until(lambda: searched >= 10, 3, "10 decisions with a choice by a search"):
        spec.play_many(*spec.prepare(rules, lineup), SEED, g, out, violations, True)  # game g, checked
        assert violations.tolist() == [0], g
        game = KernelGame(spec.kernel, rules, lineup, SEED, g)
        while (seat := game.advance()) >= 0:
            options = game.options()
            if len(options) > 1 and lineup[seat].startswith("mcts"):
                twin = game.copy()
                i = policy_search(twin, seat, lineup[seat])  # the KernelGame's own search
                assert game.choose() == i and np.array_equal(game.rs, twin.rs)
                searched += 1
            else:
                i = game.choose()
            game.apply(options[i])
        assert game.record().tolist() == out[0].tolist(), g


def test_a_bad_budget_is_refused_by_name():
    for bad in ("mcts:0", "mcts:x", "mcts:1000001", "mcts:", "mcts:5:x", "mcts:5:1:2", "mcts:5:random:greedy",
                "mcts:5:uct:random", "mcts:uct:5", "mcts:5:uct:uct"):
        with pytest.raises(ValueError, match=r"mcts:N.*N iterations a decision in 1\.\.1,000,000"):
            toolkit.simulate("valhalla", n_games=1, policies=(bad, "random"), progress=False)
    with pytest.raises(ValueError, match="not allowed"):
        toolkit.simulate("valhalla", n_games=1, policies=("mcts2", "random"), progress=False)


@pytest.mark.parametrize("name", sorted(NAMES))
def test_the_python_twin_makes_the_kernels_choices(name):
    """``core.mcts_python`` (dictionaries and a Python loop over the protocol) against the kernel's search,
    at small budgets (20 + 3 per option), with rollouts to the end by random and cut off after 6 plies of
    greedy (scored as the game scores a cut-off: in Valhalla graded and at the start of a turn, elsewhere all
    or nothing against zero); and,
    as the negative control, the twin with another exploration constant differs somewhere.  Valhalla's and
    Attila's searches at these budgets are flat and sweep the root (no UCB1 anywhere), so there the
    exploration constant must change nothing; their negative controls are
    :func:`test_the_twin_reads_how_the_game_searches`'s."""
    spec = toolkit.GAMES[name]
    flat = getattr(spec.kernel, "MCTS_ROOT_SWEEP", False) and getattr(spec.kernel, "MCTS_EXPAND_AFTER", 0) > 200
    greedy = int(spec.kernel.policy_ids(("greedy",) * spec.seats(toolkit.rules(name)))[0])
    checked = differs = 0
    for game, seat, options in decision_points(name, games=1, every=9, at_least=4):
        budget = min(200, 20 + 3 * len(options))  # every option tried, some twice: a choice by the statistics
        for cutoff, rollout in ((0, 0), (6, greedy)):
            kernel_side, twin = game.copy(), game.copy()
            i = kernel_side.search(budget, None, cutoff, rollout)
            assert mcts_python.search(twin, budget, cutoff=cutoff, rollout=rollout) == i
            assert np.array_equal(twin.rs, kernel_side.rs)
            differs += mcts_python.search(game.copy(), budget, exploration=0.05, cutoff=cutoff, rollout=rollout) != i
            checked += 1
        if checked >= 8:
            break
    assert checked >= 6 and (differs == 0 if flat else differs >= 1), (checked, differs)


# every game's own search settings, as its kernel declares them (Valhalla and Attila today)
SETTINGS = [(name, setting) for name, spec in SPECS.items()
            for setting in ("MCTS_ROOT_SWEEP", "MCTS_EXPAND_AFTER", "MCTS_REWARD_SCALE", "MCTS_CUTOFF_AT_TURN")
            if hasattr(spec.kernel, setting)]


@pytest.mark.parametrize(("name", "setting"), SETTINGS)
def test_the_twin_reads_how_the_game_searches(monkeypatch, name, setting):
    """Negative controls of the twin test for the settings Valhalla and Attila search with: the root swept over
    shared worlds, the tree grown only after 1,000 visits (at the twin test's budgets it stays flat; off, the
    root's children grow at once), the graded reward and the cut-off at a turn's start.  A twin that reads
    the setting off (the compiled search keeps it) chooses otherwise somewhere, at the budgets and cut-off of
    that test."""
    kernel = toolkit.GAMES[name].kernel
    greedy = int(kernel.policy_ids(("greedy",) * toolkit.GAMES[name].seats(toolkit.rules(name)))[0])
    assert getattr(kernel, setting)
    points = [(game.copy(), len(options))
              for game, _, options in decision_points(name, games=1, every=9, at_least=8)][:8]
    kernel_choices = [game.copy().search(min(200, 20 + 3 * n), None, 6, greedy) for game, n in points]
    assert [mcts_python.search(game.copy(), min(200, 20 + 3 * n), cutoff=6, rollout=greedy)
            for game, n in points] == kernel_choices  # the twin as the test runs it
    monkeypatch.setattr(kernel, setting, type(getattr(kernel, setting))(0))
    off = [mcts_python.search(game.copy(), min(200, 20 + 3 * n), cutoff=6, rollout=greedy) for game, n in points]
    assert off != kernel_choices


@pytest.mark.parametrize("name", sorted(NAMES))
def test_uct_by_name_is_plain_uct_in_the_kernel_and_the_twin(name):
    """``mcts:...:uct`` (the bit ``mcts.UCT`` of the rollout code) asks for plain UCT: UCB1 from the root,
    a node grown at its first visit.  The kernel and the twin agree on it draw for draw; in a game whose own
    search sweeps its root and stays flat (Valhalla, Attila) it chooses otherwise somewhere, and the
    exploration constant matters again (the twin with another one differs somewhere: the negative
    control); in the other games it is their own search, choice for choice.  At least 8 positions are checked,
    and more (up to 80) until the controls have seen their difference: how often another exploration constant
    chooses otherwise is the game's (a sixth of the positions in a dice race, a quarter in Pig)."""
    kernel = toolkit.GAMES[name].kernel
    flat = getattr(kernel, "MCTS_ROOT_SWEEP", False)
    checked = differs = explores = 0
    for game, seat, options in decision_points(name, games=1, every=9, at_least=80):
        budget = min(200, 20 + 3 * len(options))
        kernel_side, twin = game.copy(), game.copy()
        i = kernel_side.search(budget, None, 0, 0, uct=True)
        assert mcts_python.search(twin, budget, uct=True) == i
        assert np.array_equal(twin.rs, kernel_side.rs)
        own = game.copy().search(budget, None, 0, 0)
        assert (own == i) or flat, (name, own, i)
        differs += own != i
        explores += mcts_python.search(game.copy(), budget, exploration=0.05, uct=True) != i
        checked += 1
        if checked >= 8 and explores >= 1 and (differs >= 1 or not flat):
            break
    assert checked >= 8 and explores >= 1 and (differs >= 1 if flat else differs == 0), (checked, differs, explores)


def declared_search(kernel) -> tuple:
    """A game's default search as its kernel declares it (``MCTS_ROLLOUT``, ``MCTS_CUTOFF``,
    ``MCTS_AGAINST_ROOT``, ``MCTS_CUTOFF_AT_TURN``, ``MCTS_REWARD_SCALE``, ``MCTS_ROOT_SWEEP``,
    ``MCTS_EXPAND_AFTER``; the kernels' comments give the figures that chose them), core's default where it
    declares none: read from the module, not a table of names, so a new game is checked as it declares."""
    return (getattr(kernel, "MCTS_ROLLOUT", mcts.DEFAULT_ROLLOUT), getattr(kernel, "MCTS_CUTOFF", mcts.DEFAULT_DEPTH),
            getattr(kernel, "MCTS_AGAINST_ROOT", False), getattr(kernel, "MCTS_CUTOFF_AT_TURN", False),
            float(getattr(kernel, "MCTS_REWARD_SCALE", 0.0)), getattr(kernel, "MCTS_ROOT_SWEEP", False),
            getattr(kernel, "MCTS_EXPAND_AFTER", 0))


def test_each_game_names_how_it_searches_by_default(monkeypatch):
    """``mcts:N`` rolls out by the game's default and cuts off where it says (its kernel's ``MCTS_ROLLOUT``
    and ``MCTS_CUTOFF``, else random to the end); ``:D``, ``:greedy`` and ``:random`` say it outright.  The
    compiled search scores a cut-off against the root, at a turn's start and graded exactly where the kernel
    says so."""
    for name, spec in toolkit.GAMES.items():
        kernel = spec.kernel
        greedy = int(kernel.policy_ids(("greedy",))[0])
        rollout, depth, against_root, at_turn, scale, sweep, expand_after = declared_search(kernel)
        assert mcts.game_defaults(kernel) == {"rollout": rollout, "depth": depth}, name
        scope = kernel.mcts.py_func.__globals__
        assert (scope["AGAINST_ROOT"], scope["AT_TURN"], scope["REWARD_SCALE"]) == (against_root, at_turn, scale), name
        assert (scope["ROOT_SWEEP"], scope["EXPAND_AFTER"]) == (sweep, expand_after), name
        own = greedy if rollout == "greedy" else 0
        assert mcts.policy_codes(kernel, ("mcts:50", "random"))[0] == mcts.code(50, depth, own), name
        assert mcts.policy_codes(kernel, ("mcts:50:7:greedy", "random"))[0] == mcts.code(50, 7, greedy), name
        assert mcts.policy_codes(kernel, ("mcts:50:0:random", "random"))[0] == mcts.code(50, 0, 0), name
        assert mcts.policy_codes(kernel, ("mcts:50:random", "random"))[0] == mcts.code(50, depth, 0), name
        assert mcts.policy_codes(kernel, ("mcts:50:0:random:uct", "random"))[0] == mcts.code(50, 0, mcts.UCT), name
        assert mcts.policy_codes(kernel, ("mcts:50:uct", "random"))[0] == mcts.code(50, depth, own | mcts.UCT), name
    kernel = toolkit.GAMES["attila"].kernel  # a game that named nothing would play random to the end
    monkeypatch.delattr(kernel, "MCTS_ROLLOUT", raising=False)
    monkeypatch.delattr(kernel, "MCTS_CUTOFF", raising=False)
    assert mcts.game_defaults(kernel) == {"rollout": "random", "depth": 0}
    assert mcts.policy_codes(kernel, ("mcts:50", "random"))[0] == mcts.code(50, 0, 0)


@pytest.mark.parametrize("name", sorted(NAMES))
def test_flat_by_name_is_flat_monte_carlo_in_the_kernel_and_the_twin(monkeypatch, name):
    """Issue 50: ``mcts:N:D:flat`` (the judges' search) sweeps the root in whole rounds and grows nothing below
    it, in any game: the kernel's statistics equal the twin's for the same name, and equal the twin's own
    search of the game with the root swept and the growth threshold past the budget (``MCTS_ROOT_SWEEP``,
    ``MCTS_EXPAND_AFTER`` set on the kernel module, which the twin reads): the same visits and rewards.
    Every option has the same visits.  Negative control: where the game's own search grows a tree (Pig,
    Herrlof, Halali, Walhalla), its statistics differ from flat's somewhere."""
    kernel = toolkit.GAMES[name].kernel
    grows = not getattr(kernel, "MCTS_ROOT_SWEEP", False)
    points = [(game.copy(), options) for game, _, options in decision_points(name, games=1, every=9, at_least=4)][:4]
    flat, own = [], []
    for game, options in points:
        budget = 4 * len(options)
        flat.append(game.root_statistics(f"mcts:{budget}:0:flat"))
        assert flat[-1] == game.root_statistics(f"mcts:{budget}:0:flat", twin=True)
        assert set(flat[-1].visits) == {4}, flat[-1].visits
        own.append(game.root_statistics(f"mcts:{budget}:0"))
    assert (own != flat) if grows else True
    monkeypatch.setattr(kernel, "MCTS_ROOT_SWEEP", True, raising=False)
    monkeypatch.setattr(kernel, "MCTS_EXPAND_AFTER", 10**9, raising=False)
    for (game, options), found in zip(points, flat):
        swept = game.root_statistics(f"mcts:{4 * len(options)}:0", twin=True)
        assert (swept.visits, swept.wins, swept.choice) == (found.visits, found.wins, found.choice)


@pytest.mark.parametrize("name", sorted(NAMES))
def test_root_statistics_are_the_kernels_and_the_twins(name):
    """Issue 38: what the search thinks of each option (``KernelGame.root_statistics``), read from the
    kernel's own tree, equals the Python twin's tree (``core.mcts_python``) number for number: the visits and
    the deciding seat's summed rewards of every legal option, and the choice.  The visits add up to the
    budget (the root swept in whole rounds where the game sweeps it: the budget less its remainder by the
    number of options), the choice is the one the seat's ``mcts`` policy makes there, the most visited
    option or, swept, the best mean, and the game's own streams are left as they were.  Negative control:
    a budget one larger gives other statistics."""
    spec = toolkit.GAMES[name]
    sweep = getattr(spec.kernel, "MCTS_ROOT_SWEEP", False)
    checked = 0
    for game, seat, options in decision_points(name, games=1, every=9, at_least=4):
        budget = min(200, 20 + 3 * len(options))
        streams = game.rs.copy()
        stats = game.root_statistics(f"mcts:{budget}")
        assert np.array_equal(game.rs, streams)
        twin = game.root_statistics(f"mcts:{budget}", twin=True)
        assert stats == twin
        assert list(stats.codes) == options and stats.seat == seat
        runs = budget - budget % len(options) if sweep and len(options) <= budget else budget
        assert sum(stats.visits) == runs, (stats.visits, runs)
        assert stats.choice == policy_search(game.copy(), seat, f"mcts:{budget}")
        mean = stats.estimates()[0]
        if sweep:
            assert stats.choice == int(np.nanargmax(mean))
        else:
            assert stats.choice == int(np.argmax(stats.visits))
        assert all(0.0 <= m <= 1.0 for m in mean[~np.isnan(mean)])
        assert game.root_statistics(f"mcts:{budget + 1}") != stats
        checked += 1
        if checked >= 4:
            break
    assert checked >= 3

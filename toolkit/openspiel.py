"""The registered games as OpenSpiel games, so that OpenSpiel's algorithms play them (the extra ``openspiel``).

Each game is a ``pyspiel.Game`` registered as ``toolkit_<game>`` (``pyspiel.load_game("toolkit_herrlof")``,
or :func:`load` with rules of our own).  Its states step the game's kernel protocol from Python
(:class:`toolkit.core.protocol.KernelGame`, ``docs/architecture.md``, "The game protocol"), so the rules
OpenSpiel plays are exactly the simulator's.  What the bridge had to decide, since the protocol is not
OpenSpiel's:

- **Chance nodes.**  Our kernels draw chance inside ``start``, ``apply`` and ``advance`` from the chance
  stream, not at points of their own.  The bridge puts a chance node before the start and after every
  decision: ``chance_outcomes`` K equally likely outcomes (``chance_outcomes=``, default 64), outcome
  ``k`` reseeding the chance stream from its current state and ``k`` before the game runs on to the next
  decision point.  Over the states a game can reach, the next stretch's chance is then distributed as
  the kernel draws it; at one node it is a K-sample of that distribution (the throws of four sticks, a
  shuffle of the whole deck), not its exact enumeration.  A stretch that draws nothing still has its
  chance node (all K outcomes lead to the same next decision).
- **Actions** are the kernel's option codes (every option, by ``count``/``nth``), which mean the same
  move in every state, as OpenSpiel's information-set search needs; Walhalla's count vectors (codes up
  to ``2**40``) are renumbered to fit OpenSpiel's int (:func:`to_action`).  ``num_distinct_actions`` is
  :data:`ACTION_BOUND` (a code beyond it raises, never wraps): Walhalla's 723 million are fine for the
  tree searches, too many for an algorithm that allocates one slot per action.
- **Information states.**  The protocol has no observation function, but its ``determinize`` already
  keeps exactly what a seat knows and redraws the rest from a stream, in an order that does not depend
  on the hidden layout (the conformance suite's permutation test).  Drawn from a fixed stream, it gives
  one representative world per information set: :meth:`State.information_state_string` is a digest of
  it (less :data:`HIDDEN_RECORDS`, bookkeeping the determinization copies although the seat has not
  seen it).  It is a state, not a history: the seat's knowledge as the game's state keeps it (what the
  kernel's own search and lookahead see), which is OpenSpiel's "observation" too.
- **Resampling.**  ``resample_from_infostate`` is ``determinize`` drawing from the given random source,
  with a fresh chance stream (the real one would tell the world's future draws).
- **Returns** are the protocol's: 1 for each winner (each seat of a shared win), else 0.

>>> game = load("valhalla")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 64)
>>> state.apply_action(5)
>>> state.current_player() in (0, 1), state.legal_actions() == sorted(state.legal_actions())
(True, True)
"""

from __future__ import annotations

import hashlib
import time
import types

import numpy as np

try:
    import pyspiel
except ImportError as error:  # pragma: no cover - the extra is optional
    raise ImportError("toolkit.openspiel needs OpenSpiel: pip install 'toolkit[openspiel]'") from error

import toolkit
from toolkit.core import mcts, rng
from toolkit.core.driver import from_template
from toolkit.core.jit import njit_no_nrt
from toolkit.core.layout import seat_count
from toolkit.core.protocol import KernelGame

CHANCE_OUTCOMES = 64
START = -1  # the pending "decision" of the chance node before the start
DECIDING = -2  # no pending decision: a decision point (or the end)


def _declared(attribute: str, default=None) -> dict:
    """Game name -> its kernel's ``attribute`` (the bridge's declarations live in each game's kernel)."""
    return {name: getattr(spec.kernel, attribute, default) for name, spec in toolkit.GAMES.items()}


def to_action(name: str, code: int) -> int:
    """OpenSpiel's action for option ``code`` of game ``name``: the code itself, or the game's own numbering
    (its kernel's ``action_of``: Walhalla's count vectors).  Raises for a code beyond :data:`ACTION_BOUND`."""
    kernel = toolkit.GAMES[name].kernel
    action = kernel.action_of(code) if hasattr(kernel, "action_of") else code
    if not 0 <= action < _bound(name):
        raise ValueError(f"{name}'s option code {code} is beyond its action bound {ACTION_BOUND[name]}")
    return action


def _bound(name: str) -> int:
    if ACTION_BOUND.get(name) is None:
        raise ValueError(f"{name}'s kernel declares no ACTION_BOUND (every option code below it: the bridge's "
                         "number of actions)")
    return ACTION_BOUND[name]


def to_code(name: str, action: int) -> int:
    """The option code of OpenSpiel's ``action`` (the inverse of :func:`to_action`)."""
    kernel = toolkit.GAMES[name].kernel
    return kernel.code_of(action) if hasattr(kernel, "code_of") else int(action)


# every game's number of distinct actions: its kernel's ACTION_BOUND (a game without one is refused by name)
ACTION_BOUND = _declared("ACTION_BOUND")

# state fields the determinization copies though a seat has not seen them: left out of the information state
HIDDEN_RECORDS = _declared("HIDDEN_RECORDS", ())

_SALT_OUTCOME = 0x452821E638D01377  # digits of pi, after rng's salts
_OBSERVER_SEED = 0x5EED


def game_type(name: str, players: int) -> "pyspiel.GameType":
    """OpenSpiel's declaration of game ``name`` (its seat range from the game's spec)."""
    spec = toolkit.GAMES[name]
    counts = spec.seat_counts()
    hidden = spec.hidden_information
    information = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=f"toolkit_{name}", long_name=f"toolkit {spec.title or name.title()}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information.IMPERFECT_INFORMATION if hidden else information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts), min_num_players=min(counts),
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=False,
        parameter_specification={"players": players, "seed": 0, "chance_outcomes": CHANCE_OUTCOMES})


class Game(pyspiel.Game):
    """One of our games under a set of rules, as an OpenSpiel game (see the module docstring)."""

    def __init__(self, name: str, rules=None, players: int | None = None, seed: int = 0,
                 chance_outcomes: int = CHANCE_OUTCOMES):
        if name not in toolkit.GAMES:
            raise ValueError(f"game={name!r} is not allowed: choose one of {', '.join(toolkit.GAMES)}")
        if chance_outcomes < 1:
            raise ValueError(f"chance_outcomes={chance_outcomes} is not allowed: at least 1")
        spec = toolkit.GAMES[name]
        if players is not None and players not in spec.seat_counts():
            allowed = ", ".join(map(str, spec.seat_counts()))
            raise ValueError(f"players={players} is not allowed: {name} is played by {allowed}")
        if rules is None:
            fixed = players is None or spec.seat_counts() == (players,)
            rules = toolkit.rules(name) if fixed else toolkit.rules(name, num_players=players)
        seats = spec.seats(rules)
        if players is not None and players != seats:
            raise ValueError(f"players={players} is not allowed: the rules give {seats} seats")
        self.name, self.rules, self.seats, self.seed, self.outcomes = name, rules, seats, seed, chance_outcomes
        self.kernel = spec.kernel
        self.params = self.kernel.to_kernel(rules)
        sizes = dict(self.kernel.STATE._fields)
        self.hidden = [at for field in HIDDEN_RECORDS.get(name, ())
                       for at in range(getattr(self.kernel.STATE, field), getattr(self.kernel.STATE, field) + sizes[field])]
        self._observer_rs = np.zeros(self.kernel.RS_SIZE, np.uint64)
        info = pyspiel.GameInfo(
            num_distinct_actions=_bound(name), max_chance_outcomes=chance_outcomes, num_players=seats,
            min_utility=0.0, max_utility=1.0, utility_sum=None, max_game_length=1_000_000)
        super().__init__(game_type(name, seats), info,
                         {"players": seats, "seed": seed, "chance_outcomes": chance_outcomes})

    def new_initial_state(self, game: int = 0) -> "State":
        """Game ``game`` of the run seeded with the game's ``seed`` (its streams as the simulator's)."""
        return State(self, index=game)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "Observer":
        return Observer(self)

    def observe(self, st: np.ndarray, seat: int) -> np.ndarray:
        """The representative world of what ``seat`` knows in state ``st``: the determinization from a
        fixed stream, with :data:`HIDDEN_RECORDS` cleared."""
        k = self.kernel
        rs = self._observer_rs
        rs[:] = np.uint64(rng.mix64(_OBSERVER_SEED))
        world = np.zeros(k.STATE_SIZE, np.int64)
        k.determinize(self.params, st, rs, seat, world, np.zeros(max(k.SCRATCH_SIZE, 1), np.int64))
        world[self.hidden] = 0
        return world


class State(pyspiel.State):
    """A game between decision points: a chance node before the start and after each decision (the
    module docstring), else the seat to decide, with the kernel's options as its legal actions."""

    def __init__(self, game: Game, twin: "State | None" = None, index: int = 0):
        super().__init__(game)
        self._game = game
        if twin is not None:
            self.play, self.pending, self.seat = twin.play.copy(), twin.pending, twin.seat
            return
        self.play = KernelGame.__new__(KernelGame)  # KernelGame without its start: the first chance node starts
        k = game.kernel
        self.play.kernel, self.play.params = k, game.params
        self.play.policies = np.zeros(game.seats, np.int64)
        self.play.rs = np.zeros(k.RS_SIZE, np.uint64)
        rng.seed_streams(self.play.rs, game.seed, index)
        self.play.st = np.zeros(k.STATE_SIZE, np.int64)
        self.play.scratch = np.zeros(max(k.SCRATCH_SIZE, 1), np.int64)
        self.play._out = np.zeros(k.MAX_OPTIONS, np.int64)
        self.play.seat = -1
        self.pending, self.seat = START, pyspiel.PlayerId.CHANCE

    # -- OpenSpiel's API
    def current_player(self) -> int:
        return self.seat

    def _legal_actions(self, player: int) -> list:
        k, play = self._game.kernel, self.play  # count/nth list every option (Walhalla's options() caps them)
        return sorted(to_action(self._game.name, int(k.nth(play.params, play.st, i)))
                      for i in range(int(k.count(play.params, play.st))))

    def chance_outcomes(self) -> list:
        p = 1.0 / self._game.outcomes
        return [(k, p) for k in range(self._game.outcomes)]

    def _apply_action(self, action: int) -> None:
        play = self.play
        if self.seat == pyspiel.PlayerId.CHANCE:
            chance = int(play.rs[rng.CHANCE])
            play.rs[rng.CHANCE] = np.uint64(rng.mix64(chance + (int(action) + 1) * _SALT_OUTCOME))
            if self.pending == START:
                play.kernel.start(play.params, play.st, play.rs)
            else:
                play.apply(self.pending)
            self.pending = DECIDING
            seat = play.advance()
            self.seat = pyspiel.PlayerId.TERMINAL if seat < 0 else seat
        else:
            self.pending, self.seat = to_code(self._game.name, action), pyspiel.PlayerId.CHANCE

    def _action_to_string(self, player: int, action: int) -> str:
        return f"chance {action}" if player == pyspiel.PlayerId.CHANCE else f"option {action}"

    def is_terminal(self) -> bool:
        return self.seat == pyspiel.PlayerId.TERMINAL

    def returns(self) -> list:
        if not self.is_terminal():
            return [0.0] * self._game.seats
        return self.play.returns()[:self._game.seats]

    def resample_from_infostate(self, player: int, sampler=None, seed: int | None = None) -> "State":
        """A state ``player`` cannot tell from this one, drawn from ``seed`` (else from ``sampler``, an
        OpenSpiel sampler, as its C++ bots pass one): the kernel's determinization and a fresh chance
        stream."""
        if seed is None:
            seed = int(sampler(0.0, 1.0) * 2 ** 53) if callable(sampler) else int(np.random.randint(2 ** 62))
        twin = State(self._game, self)
        play = twin.play
        rs = np.zeros(play.kernel.RS_SIZE, np.uint64)
        rng.seed_streams(rs, seed, 0)
        play.rs[rng.CHANCE] = rs[rng.CHANCE]
        play.rs[1 + player] = rs[1 + player]
        play.kernel.determinize(play.params, self.play.st, play.rs, player, play.st, play.scratch)
        return twin

    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.seat
        world = self._game.observe(self.play.st, player)
        return f"{player}:{hashlib.blake2b(world.tobytes(), digest_size=16).hexdigest()}"

    observation_string = information_state_string

    def clone(self) -> "State":
        return State(self._game, self)

    def __deepcopy__(self, memo) -> "State":
        return State(self._game, self)

    def __str__(self) -> str:
        return f"{self._game.name} seat {self.seat} pending {self.pending}"


# the template's names, bound per kernel by _playout
START_CODE = DECIDING_CODE = 0
start = advance = count = nth = apply = returns = None


def _rollout(params, st, rs, pending, seat, out, row):
    """Play on from ``st`` to the end, every seat uniformly at random (one ``below(n)`` from its decision
    stream, the driver's ``random``): from the decision point of ``seat`` (``pending`` DECIDING), else
    after the ``pending`` decision (START: the start); ``out`` gets the returns."""
    if pending != DECIDING_CODE:
        if pending == START_CODE:
            start(params, st, rs)
        else:
            apply(params, st, rs, pending)
        seat = advance(params, st, rs)
    while seat >= 0:
        n = count(params, st)
        apply(params, st, rs, nth(params, st, rng.below(rs, 1 + seat, n) if n > 1 else 0))
        seat = advance(params, st, rs)
    returns(params, st, out, row)


class RolloutEvaluator:
    """OpenSpiel's ``RandomRolloutEvaluator`` with the playout run in the kernel: ``evaluate(state)`` is
    the returns of one game played on from ``state`` by uniformly random seats, the chance drawn as the
    kernel draws it (the bridge's chance nodes are a sample of that).  It is what OpenSpiel's evaluator
    computes (the same distribution, up to the chance nodes' K outcomes), without a Python call per ply;
    the tree search around it is OpenSpiel's.  ``prior`` is uniform, as OpenSpiel's.  Its playout is
    compiled for the game on first use, cached beside the game's kernel."""

    def __init__(self, game: Game, random_state=None):
        self.game = game
        self.random = random_state or np.random.RandomState()
        k = game.kernel
        self.rs = np.zeros(k.RS_SIZE, np.uint64)
        self.st = np.zeros(k.STATE_SIZE, np.int64)
        self.out = np.zeros(seat_count(k.COLUMNS), np.float64)
        self.row = np.zeros(len(k.COLUMNS), np.int32)
        self.playout = _playout(k)

    def evaluate(self, state: State) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        rng.seed_streams(self.rs, int(self.random.randint(2 ** 62)), 0)
        self.st[:] = state.play.st
        pending = state.pending if state.is_chance_node() else DECIDING
        self.playout(state.play.params, self.st, self.rs, pending, max(state.seat, 0), self.out, self.row)
        return self.out[:self.game.seats].copy()

    def prior(self, state: State) -> list:
        if state.is_chance_node():
            return state.chance_outcomes()
        actions = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


_PLAYOUTS: dict = {}


def _playout(kernel):
    """The kernel's :func:`_rollout`, compiled once per process and cached beside the kernel's file (so a
    change to the kernel or to this module recompiles it: ``core.driver.from_template``).  It calls the
    game's ``advance`` and ``apply`` as the search does (``core.mcts.make_mcts``), rather than inlining them,
    which took most of its compile time."""
    if kernel.__name__ not in _PLAYOUTS:
        scope = {"rng": rng, "start": kernel.start, "advance": kernel.advance_called, "count": kernel.count,
                 "nth": kernel.nth, "apply": kernel.apply_called, "returns": kernel.returns, "START_CODE": START,
                 "DECIDING_CODE": DECIDING}
        where = types.SimpleNamespace(f_code=types.SimpleNamespace(co_filename=kernel.__file__), f_lineno=1,
                                      f_globals=vars(kernel))
        _PLAYOUTS[kernel.__name__] = njit_no_nrt(from_template(_rollout, "openspiel_rollout", scope, where))
    return _PLAYOUTS[kernel.__name__]


class Observer:
    """OpenSpiel's observer of a game: strings only (the information state above), no tensor."""

    def __init__(self, game: Game):
        self.tensor = np.zeros(0, np.float32)
        self.dict = {}

    def set_from(self, state: State, player: int) -> None:
        pass

    def string_from(self, state: State, player: int) -> str:
        return state.information_state_string(player)


def openspiel_bot(game: Game, iterations: int, seed: int, exploration: float = mcts.EXPLORATION):
    """OpenSpiel's own tree search for ``game`` (its Python bots; its C++ ``MCTSBot`` crashes on Python
    games in open_spiel 2.0.2, OpenSpiel's own ``python_tic_tac_toe`` too): ``MCTSBot`` (UCT, no solver)
    where nothing is hidden, ``ISMCTSBot`` (its resampling our determinization) otherwise, both with
    UCB1's constant ``exploration`` and :class:`RolloutEvaluator` playouts, drawing from ``seed``."""
    from open_spiel.python.algorithms import ismcts
    from open_spiel.python.algorithms import mcts as os_mcts

    random = np.random.RandomState(seed % 2 ** 32)
    evaluator = RolloutEvaluator(game, np.random.RandomState((seed + 1) % 2 ** 32))
    if game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return os_mcts.MCTSBot(game, exploration, iterations, evaluator, solve=False, random_state=random)
    bot = ismcts.ISMCTSBot(game, evaluator, exploration, iterations, random_state=random)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, seed=int(random.randint(2 ** 62))))
    return bot


def match(name: str, ours: str = "mcts:200", *, iterations: int = 200, n_games: int = 20, seed: int = 0, rules=None,
          players: int | None = None, chance_outcomes: int = CHANCE_OUTCOMES, progress: bool = False):
    """Our search ``ours`` (an ``mcts:...`` policy name) in one seat against OpenSpiel's bot of
    ``iterations`` (:func:`openspiel_bot`) in the others, ``n_games`` games on the bridge, ours in seat
    ``game % seats``; the chance nodes drawn from ``seed`` and the game's index.  Everything after ``ours``
    is named (``match("herrlof", "mcts:100", 100)`` read as 100 games, but was OpenSpiel's iterations).  Returns a DataFrame, one
    row a game: ``our_seat``, ``our_share`` (our return over the returns' sum: 1 a win, 0.5 a two-way
    shared win), ``our_decisions``, ``our_seconds``, ``their_decisions``, ``their_seconds``."""
    import pandas as pd
    from tqdm.auto import tqdm

    search = mcts.parse(ours, **mcts.game_defaults(toolkit.GAMES[name].kernel))
    if search is None:
        raise ValueError(f"ours={ours!r} is not allowed: a search, {mcts.ALLOWED}")
    our_iterations, depth, rollout, mode = search
    game = load(name, rules, players, seed, chance_outcomes)
    kernel = game.kernel
    rollout_code = int(kernel.policy_ids(("greedy",))[0]) if rollout == "greedy" else 0
    rows = []
    for g in tqdm(range(n_games), disable=not progress, desc=f"{name}: {ours} against OpenSpiel"):
        chance = np.random.RandomState((seed * 7919 + g) % 2 ** 32)
        bot = openspiel_bot(game, iterations, seed * 1_000_003 + g)
        state = game.new_initial_state(g)
        me = g % game.seats
        row = {"game": g, "our_seat": me, "our_decisions": 0, "our_seconds": 0.0, "their_decisions": 0,
               "their_seconds": 0.0}
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(chance.randint(game.outcomes)))
                continue
            actions = state.legal_actions()
            if len(actions) == 1:
                state.apply_action(actions[0])
                continue
            began = time.perf_counter()
            if state.current_player() == me:
                play = state.play
                play.seat = me
                index = play.search(our_iterations, depth=depth, rollout=rollout_code, mode=mode)
                state.apply_action(to_action(name, int(kernel.nth(play.params, play.st, index))))
                row["our_decisions"] += 1
                row["our_seconds"] += time.perf_counter() - began
            else:
                state.apply_action(int(bot.step(state)))
                row["their_decisions"] += 1
                row["their_seconds"] += time.perf_counter() - began
        returns = state.returns()
        row["our_share"] = returns[me] / sum(returns) if sum(returns) > 0 else 1.0 / game.seats
        rows.append(row)
    return pd.DataFrame(rows)


def load(name: str, rules=None, players: int | None = None, seed: int = 0,
         chance_outcomes: int = CHANCE_OUTCOMES) -> Game:
    """Game ``name`` under ``rules`` (default: its standard preset, with ``players`` seats) as an
    OpenSpiel game; ``seed`` seeds the start's chance stream."""
    return Game(name, rules, players, seed, chance_outcomes)


class Registered(Game):
    """What ``pyspiel.load_game("toolkit_<game>(players=…,seed=…,chance_outcomes=…)")`` makes: the game's
    standard rules (with ``players`` seats).  One subclass per game, named in ``NAME``: OpenSpiel's
    registry holds it (a registered closure aborts the interpreter at exit)."""

    NAME = ""

    def __init__(self, params=None):
        params = dict(params or {})
        standard = toolkit.GAMES[self.NAME].seats(toolkit.rules(self.NAME))
        super().__init__(self.NAME, players=int(params.get("players", standard)), seed=int(params.get("seed", 0)),
                         chance_outcomes=int(params.get("chance_outcomes", CHANCE_OUTCOMES)))


REGISTERED = {}
for _name in toolkit.GAMES:
    REGISTERED[_name] = type(f"{_name.title()}Game", (Registered,), {"NAME": _name, "__module__": __name__})
    pyspiel.register_game(game_type(_name, toolkit.GAMES[_name].seats(toolkit.rules(_name))), REGISTERED[_name])

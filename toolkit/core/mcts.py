"""Monte Carlo tree search over the decision-point protocol, written once for every game: the ``mcts``
policies (``mcts[:N[:D]][:greedy|:random][:uct]``, played by ``core.driver``'s searching loop).

One search decides for ``seat`` at a decision point of the state ``st``.  Each iteration:

1. a **world**: ``determinize(params, st, rs, seat, world, scratch)`` (a copy where nothing is hidden),
   and fresh streams for it (chance and every seat's decisions), seeded from ``seat``'s decision stream,
   so the search never reads the real future draws nor anything its seat cannot see;
2. **selection** down the tree: a node is the sequence of options played from the root (an *open-loop*
   tree: throws, draws and the hidden cards differ between iterations, so a node stands for what was
   chosen, not for a state).  At each decision point, the children whose options are legal in this world
   are *available*; while every legal option has a child, the next is the available child of highest
   UCB1 for the seat deciding there, counted over the iterations it was available (single-observer
   information-set MCTS, Cowling, Powley & Whitehouse 2012; with nothing hidden and no chance it is UCT);
3. **expansion** of the first legal option (canonical order) without a child, then a **rollout** to the
   end, or to the cut-off after ``D`` plies: by the game's ``greedy`` or by ``random`` (one ``below(n)``
   from the deciding seat's stream of the world).  The defaults are the kernel's ``MCTS_ROLLOUT`` and
   ``MCTS_CUTOFF``, else :data:`DEFAULT_ROLLOUT` and :data:`DEFAULT_DEPTH` (see :func:`game_defaults`).
   In a game whose kernel sets ``MCTS_CUTOFF_AT_TURN``, a rollout past its ``D`` plies goes on to the
   start of the searching seat's next turn (the first decision of that seat after another seat's), so
   that every leaf is scored at the same point of a turn, not with one side a move ahead.  In a game whose
   kernel sets ``MCTS_EXPAND_AFTER`` (E > 0), a node visited fewer than E times grows no children: the
   rollout starts there (below E visits a node's statistics cannot yet tell its options apart, and the
   search would average the root's options over nearly random play after them);
4. **backpropagation** of ``returns`` (1 for each winner, else 0), each node keeping every seat's sum, so
   that a seat chooses by its own reward with any number of seats.  A rollout cut off is scored by the
   game's ``evaluate``: a seat it puts ahead wins (1), a level one half-wins, one behind loses; or, in a
   game whose kernel sets ``MCTS_AGAINST_ROOT``, against the same world at the root: a seat whose
   evaluation rose wins.  In a game whose kernel sets ``MCTS_REWARD_SCALE`` (s > 0) the reward is not
   all or nothing but ``0.5 + 0.5 tanh(value / s)``: a lead of s is worth about 0.88, so the size of a
   lead counts, not only its sign.  No one setting is best everywhere.  Against the root, where one side
   is far ahead the leaves still differ (Valhalla, ``mcts:1000:32:greedy`` against ``lookahead``, 120
   games over both seatings on the same seeds: 0.525 scored against zero, 0.608 against the root);
   against zero, where the evaluation rarely moves within a cut-off (Halali's match points,
   ``mcts:1000:16:greedy``: 0.758 against zero, 0.625 against the root).  Valhalla now plays the graded
   reward against zero, cut off at a turn's start (its kernel has the figures).

The choice is the root's most visited legal option, the first in canonical order on a tie.  In a game
whose kernel sets ``MCTS_ROOT_SWEEP``, the root is not chosen by UCB1 but swept: a world (and its streams)
is drawn once for each round of ``n`` iterations, ``n`` the root's options, which are played in turn in
it, so every option is judged on the same worlds (common random numbers); the rounds are whole (the
budget rounded down to a multiple of ``n``, unless it is smaller) and the choice is the option of the best
mean reward for the seat.  Valhalla and Attila sweep, flat at ``mcts:1000`` (``MCTS_EXPAND_AFTER`` 1,000;
their kernels have the figures: Attila, about 17 options a decision and three opponents, in a field of
``lookahead`` 0.440 against 0.146 with UCB1 at the root and the tree grown at once; Valhalla against
``lookahead`` 0.618 against 0.573).  A name ending ``:uct`` asks for plain UCT in any game: UCB1 from the
root and a node grown at its first visit, neither sweep nor threshold (the bit :data:`UCT` of the
rollout's code; the OpenSpiel cross-check plays it, as OpenSpiel's bots search so).  A name ending ``:flat``
asks for flat Monte Carlo in any game (the bit :data:`FLAT`): the root swept and no node grown below it, so
an option's value is the mean result of the rollouts played after it, every seat playing the rollout policy
(with ``D`` 0, a win probability with that play after the option; the judges of ``decisions`` and the viewer
search so: ``toolkit.analysis.calibration``).  The budget is a
number of iterations, so a seed gives the same search on any machine.

:func:`make_mcts` builds a game's search from its protocol functions, cached beside its kernel as
``core.driver.make_play_game`` builds the game loop.
"""

from __future__ import annotations

import dataclasses
import math
import sys

import numpy as np

from toolkit.core import rng
from toolkit.core.driver import from_template
from toolkit.core.jit import njit_no_nrt
from toolkit.core.layout import seat_count

# the names the template takes from the scope make_mcts gives each copy
advance = count = nth = apply = determinize = returns = evaluate = options = choose = None
advance_inline = apply_inline = None
STATE_SIZE = SCRATCH = RS_SIZE = ROW = SEATS = MAX_OPTIONS = 0
AGAINST_ROOT = False
AT_TURN = False  # a cut-off waits for the start of the searching seat's turn (MCTS_CUTOFF_AT_TURN)
ROOT_SWEEP = False  # each world searched once through every root option in turn (MCTS_ROOT_SWEEP)
EXPAND_AFTER = 0  # a node grows children once it has been visited this often (MCTS_EXPAND_AFTER)
REWARD_SCALE = 0.0  # > 0: a cut-off's reward is 0.5 + 0.5 tanh(value / REWARD_SCALE) (MCTS_REWARD_SCALE)
NAME = "mcts"  # the policy: ``mcts`` (DEFAULT_ITERATIONS) or ``mcts:N``
DEFAULT_ITERATIONS = 1000
MOST_ITERATIONS = 1_000_000
DEFAULT_DEPTH = 0  # rollouts to the end of the game
# who plays the rollouts, and where they are cut off, when the name does not say: random to the end,
# unless the game's kernel names others (MCTS_ROLLOUT, MCTS_CUTOFF: the strongest setting measured against
# lookahead that the test suite can pay for; the figures are in each kernel and in issue 16's notes)
DEFAULT_ROLLOUT = "random"
ROLLOUTS = ("greedy", "random")
MOST_DEPTH = 100_000
ROLLOUT_SHIFT = 40
UCT = 1 << 20  # in a search's rollout code (the driver's code >> ROLLOUT_SHIFT): plain UCT, by name ``:uct``
FLAT = 1 << 21  # in a search's rollout code: flat Monte Carlo, by name ``:flat`` (the module docstring)
MODES = {"uct": UCT, "flat": FLAT}  # a name's last part -> its bit
DEPTH_SHIFT = 20  # a search's driver code: -(iterations + depth << DEPTH_SHIFT); 2**20 > MOST_ITERATIONS
EXPLORATION = math.sqrt(2.0)  # UCB1's constant, for rewards in [0, 1]
# node fields
CODE, FIRST, NEXT, VISITS, AVAIL = range(5)
FIELDS = 5


def _mcts(params, st, rs, seat, iterations, exploration, cutoff, rollout, tree):
    k = 1 + seat
    # the work arrays, laid out in ``tree`` (int64; see :func:`entries`), so that a search allocates nothing
    m = iterations + 2
    nodes = tree[:m * FIELDS].reshape((m, FIELDS))
    at = m * FIELDS
    wins = tree[at:at + m * SEATS].view(np.float64).reshape((m, SEATS))
    at += m * SEATS
    path = tree[at:at + m]
    movers = tree[at + m:at + 2 * m]
    at += 2 * m
    world = tree[at:at + STATE_SIZE]
    at += STATE_SIZE
    scratch = tree[at:at + SCRATCH]
    at += SCRATCH
    wrs = tree[at:at + RS_SIZE].view(np.uint64)
    at += RS_SIZE
    ret = tree[at:at + SEATS].view(np.float64)
    at += SEATS
    row = tree[at:at + ROW].view(np.int32)
    at += ROW
    opts = tree[at:at + MAX_OPTIONS]
    at += MAX_OPTIONS
    root = tree[at:at + SEATS].view(np.float64)  # each seat's evaluation of this iteration's world
    at += SEATS
    saved = tree[at:at + STATE_SIZE]
    nodes[0, CODE], nodes[0, FIRST], nodes[0, NEXT], nodes[0, VISITS], nodes[0, AVAIL] = -1, -1, -1, 0, 0
    used = 1
    uct = (rollout & UCT) != 0  # plain UCT asked for by name (``:uct``): neither the sweep nor the threshold
    flat = (rollout & FLAT) != 0  # flat Monte Carlo (``:flat``): the root swept, no node grown below it
    rollout &= UCT - 1
    sweep = (ROOT_SWEEP and not uct) or flat
    expand_after = 0 if uct else (iterations + 1 if flat else EXPAND_AFTER)
    n_root = 1
    runs = iterations
    if sweep:
        for j in range(STATE_SIZE):
            world[j] = st[j]
        n_root = count(params, world)
        if n_root <= iterations:
            runs = iterations - iterations % n_root
    saved_base = np.uint64(0)
    for it in range(runs):
        if sweep:
            if it % n_root == 0:
                determinize(params, st, rs, seat, saved, scratch)
                saved_base = rng.next_u64(rs, k)
            for j in range(STATE_SIZE):
                world[j] = saved[j]
            base = saved_base
        else:
            determinize(params, st, rs, seat, world, scratch)
            base = rng.next_u64(rs, k)
        if AGAINST_ROOT and cutoff > 0:
            for s in range(SEATS):
                root[s] = evaluate(params, world, s)
        for j in range(RS_SIZE):
            wrs[j] = rng.mix64_nb(base + np.uint64(j + 1))
        node, mover, depth, over = 0, seat, 0, False
        while True:  # selection
            lo, hi = 0, count(params, world)
            if sweep and node == 0:  # this round's root option only
                lo = it % n_root
                hi = min(lo + 1, hi)
            best, best_value, untried = -1, -1.0, -1
            for i in range(lo, hi):
                code = nth(params, world, i)
                child = nodes[node, FIRST]
                while child >= 0 and nodes[child, CODE] != code:
                    child = nodes[child, NEXT]
                if child < 0:
                    if untried < 0:
                        untried = code
                    continue
                nodes[child, AVAIL] += 1
                value = (wins[child, mover] / nodes[child, VISITS]
                         + exploration * math.sqrt(math.log(nodes[child, AVAIL]) / nodes[child, VISITS]))
                if best < 0 or value > best_value:
                    best, best_value = child, value
            if untried >= 0:  # expansion
                child = used
                used += 1
                nodes[child, CODE] = untried
                nodes[child, FIRST] = -1
                nodes[child, NEXT] = nodes[node, FIRST]
                nodes[child, VISITS] = 0
                nodes[child, AVAIL] = 1
                for s in range(SEATS):
                    wins[child, s] = 0.0
                nodes[node, FIRST] = child
                best = child
            path[depth], movers[depth] = best, mover
            depth += 1
            apply(params, world, wrs, nodes[best, CODE])
            node = best
            mover = advance(params, world, wrs)
            if mover < 0:
                over = True
                break
            if untried >= 0 or nodes[best, VISITS] < expand_after:
                break
        plies = 0
        if not over:  # rollout: random to the end, or to the cut-off (at the start of the seat's turn)
            last = movers[depth - 1]  # who decided last
            while mover >= 0 and (cutoff == 0 or plies < cutoff or (AT_TURN and (mover != seat or last == seat))):
                last = mover
                if rollout == 0:
                    n = count(params, world)
                    option = nth(params, world, rng.below(wrs, 1 + mover, n) if n > 1 else 0)
                else:  # the game's own policy of that code
                    n = options(params, world, opts)
                    option = opts[choose(params, rollout, world, wrs, mover, opts, n, scratch) if n > 1 else 0]
                apply_inline(params, world, wrs, option)
                mover = advance_inline(params, world, wrs)
                plies += 1
        if mover >= 0:  # cut off: a seat the evaluation puts ahead (of its value at the root) wins, level half-wins
            for s in range(SEATS):
                value = evaluate(params, world, s) - (root[s] if AGAINST_ROOT else 0.0)
                if REWARD_SCALE > 0.0:
                    ret[s] = 0.5 + 0.5 * math.tanh(value / REWARD_SCALE)
                else:
                    ret[s] = 1.0 if value > 0 else (0.5 if value == 0 else 0.0)
        else:
            returns(params, world, ret, row)
        for d in range(depth):
            nodes[path[d], VISITS] += 1
            for s in range(SEATS):
                wins[path[d], s] += ret[s]
    # the most visited of the root's options legal in the real position, or the best mean where swept
    # (listed on a copy: a game's ``nth`` may use its state's scratch, and the real state is left alone)
    for j in range(STATE_SIZE):
        world[j] = st[j]
    n = count(params, world)
    best, most = 0, -2.0
    for i in range(n):
        code = nth(params, world, i)
        child = nodes[0, FIRST]
        while child >= 0 and nodes[child, CODE] != code:
            child = nodes[child, NEXT]
        if sweep:
            score = wins[child, seat] / nodes[child, VISITS] if child >= 0 and nodes[child, VISITS] > 0 else -1.0
        else:
            score = float(nodes[child, VISITS]) if child >= 0 else 0.0
        if score > most:
            best, most = i, score
    return best


@dataclasses.dataclass(frozen=True)
class RootStatistics:
    """What one search thought of each option at a decision point: for the options legal there, in
    canonical order, their ``codes``, ``visits`` (iterations that played the option first) and ``wins``
    (the deciding ``seat``'s summed rewards over them), and ``choice``, the index the search picks.
    ``policy`` is the search's name (``mcts:N...``) and ``depth`` its cut-off (0: rollouts played to the end).
    :meth:`estimates` turns them into means with 95% intervals, in :attr:`unit`: win probabilities where every
    rollout was played to the end, the game's heuristic scores where they were cut off."""

    policy: str
    seat: int
    codes: tuple
    visits: tuple
    wins: tuple
    choice: int
    every_seat: tuple = ()  # per option, every seat's summed rewards (``wins`` is the deciding seat's column)
    depth: int = 0  # the rollouts' cut-off in plies, 0: played to the end

    @property
    def unit(self) -> str:
        """What the numbers are: ``"win probability"`` where the rollouts were played to the end (each leaf a
        result: 1 among the winners, else 0), ``"score"`` where they were cut off and scored by the game's
        heuristic (``benchmarks/calibration.py``: not a win probability)."""
        return unit_of(self.depth)

    def estimate_for(self, seat: int, option: int) -> float:
        """``seat``'s estimated win probability after ``option`` (an index), NaN if it was never played."""
        visits = self.visits[option]
        return self.every_seat[option][seat] / visits if visits else float("nan")

    def estimates(self):
        """``(mean, low, high)`` arrays, one entry per option: the option's estimated win probability for
        the deciding seat (its mean reward, in [0, 1]) and a 95% Wilson interval counted over its visits (a
        graded reward is treated as a share of wins); NaN for an option the search never played."""
        from toolkit.core.stats import wilson

        visits = np.asarray(self.visits, float)
        mean, low, high = wilson(np.asarray(self.wins, float), visits)
        return np.atleast_1d(mean), np.atleast_1d(low), np.atleast_1d(high)


def root_statistics(kernel, tree, iterations: int, params, st, seat: int) -> tuple[list, list, list, list]:
    """What a finished search (``kernel.mcts`` of ``iterations`` iterations, run on ``tree``) learnt at its root: for each option legal
    in the real position ``st``, in canonical order, ``(codes, visits, wins)``: the option's code, the
    iterations that played it first, and the sum of ``seat``'s rewards over them (each in [0, 1], so
    ``wins / visits`` is the option's estimated win probability for ``seat``), and last every seat's sums
    (a tuple per option).  Read from the search's own work array, laid out as :func:`_mcts` lays it out, so
    the numbers are the kernel's."""
    seats = seat_count(kernel.COLUMNS)
    m = iterations + 2  # nodes, as _mcts lays them out
    nodes = tree[:m * FIELDS].reshape((m, FIELDS))
    wins = tree[m * FIELDS:m * FIELDS + m * seats].view(np.float64).reshape((m, seats))
    children = {}
    child = nodes[0, FIRST]
    while child >= 0:
        children[int(nodes[child, CODE])] = child
        child = nodes[child, NEXT]
    world = st.copy()  # a game's ``nth`` may use its state's scratch
    codes = [int(kernel.nth(params, world, i)) for i in range(int(kernel.count(params, world)))]
    visits = [int(nodes[children[c], VISITS]) if c in children else 0 for c in codes]
    every = [tuple(float(w) for w in wins[children[c]]) if c in children else (0.0,) * seats for c in codes]
    return codes, visits, [e[seat] for e in every], every


def _sizes(kernel_globals: dict) -> tuple[int, int]:
    """(entries a search needs whatever its budget, entries per node) for the kernel of these globals."""
    g = kernel_globals
    seats = seat_count(g["COLUMNS"])
    fixed = (g["STATE_SIZE"] + max(g["SCRATCH_SIZE"], 1) + g["RS_SIZE"] + seats + (len(g["COLUMNS"]) + 1) // 2
             + g["MAX_OPTIONS"] + seats + g["STATE_SIZE"])
    return fixed, FIELDS + seats + 2


def entries(kernel, iterations: int) -> int:
    """The int64 entries of the ``tree`` work array a search of ``iterations`` iterations needs in the
    game of ``kernel`` (its module, or its globals)."""
    fixed, per_node = _sizes(kernel if isinstance(kernel, dict) else vars(kernel))
    return fixed + per_node * (iterations + 2)


def policy_codes(kernel, policies) -> np.ndarray:
    """A line-up's policy codes for ``kernel``'s driver: the game's ``policy_ids``, where a seat playing
    ``mcts...`` has the negative code of :func:`code` (every game's own policies have codes >= 0, and the
    driver reads a seat's code at ``policies[seat]``).

    >>> from toolkit.games.valhalla import kernel
    >>> policy_codes(kernel, ("mcts:200:0:random", "greedy")).tolist()
    [-200, 1]
    >>> int(policy_codes(kernel, ("mcts:200", "greedy"))[0]) == code(200, 48, 1)  # Valhalla: greedy (1), 48 plies
    True
    """
    policies = tuple(policies)
    searches = [parse(name, **game_defaults(kernel)) for name in policies]
    codes = kernel.policy_ids(tuple("random" if b is not None else name for name, b in zip(policies, searches)))
    greedy = int(kernel.policy_ids(("greedy",) * len(policies))[0])
    for seat, search in enumerate(searches):
        if search is not None:
            iterations, depth, rollout, mode = search
            codes[seat] = code(iterations, depth, (greedy if rollout == "greedy" else 0) | mode)
    return codes


def code(iterations: int, depth: int, rollout: int = 0) -> int:
    """The driver's code of a search: ``-(iterations + depth << DEPTH_SHIFT + rollout << ROLLOUT_SHIFT)``,
    ``rollout`` the game's code of the rollout policy (0: random), with the bit :data:`UCT` for plain UCT or
    :data:`FLAT` for flat Monte Carlo."""
    return -(iterations + (depth << DEPTH_SHIFT) + (rollout << ROLLOUT_SHIFT))


ALLOWED = "mcts[:N[:D]][:greedy|:random][:uct|:flat]"
IN_WORDS = (f"a tree search is written mcts:N, with N iterations a decision in 1..{MOST_ITERATIONS:,} (e.g. mcts:100), "
            f"then optionally :D to cut its rollouts off after D plies (0..{MOST_DEPTH:,}; 0 plays them to the "
            "end), :greedy or :random for the player of its rollouts, and :uct (plain UCT) or :flat (flat Monte "
            "Carlo); what is left out is the game's default")


def unit_of(depth: int) -> str:
    """The unit of a search's values: a win probability where its rollouts are played to the end (``depth``
    0), else the score of the game's heuristic at the cut-off."""
    return "win probability" if depth == 0 else "score"


def depth_of(kernel, name: str) -> int:
    """The cut-off of the search ``name`` in ``kernel``'s game (the game's default where the name does not say).

    >>> from toolkit.games.valhalla import kernel
    >>> depth_of(kernel, "mcts:200"), depth_of(kernel, "mcts:200:0"), unit_of(depth_of(kernel, "mcts:200"))
    (48, 0, 'score')
    """
    parsed = parse(name, **game_defaults(kernel))
    if parsed is None:
        raise ValueError(f"policy={name!r} is not allowed: a tree search, {ALLOWED}")
    return parsed[1]


def game_defaults(kernel) -> dict:
    """How ``kernel``'s game searches when the policy name does not say: ``{"rollout": ..., "depth": ...}``,
    its kernel's ``MCTS_ROLLOUT`` and ``MCTS_CUTOFF``, else :data:`DEFAULT_ROLLOUT` and :data:`DEFAULT_DEPTH`
    (the keywords of :func:`parse`)."""
    return {"rollout": getattr(kernel, "MCTS_ROLLOUT", DEFAULT_ROLLOUT),
            "depth": getattr(kernel, "MCTS_CUTOFF", DEFAULT_DEPTH)}


def parse(name: str, rollout: str = DEFAULT_ROLLOUT, depth: int = DEFAULT_DEPTH) -> tuple[int, int, str, int] | None:
    """``(iterations, depth, rollout, mode)`` of a policy name ``mcts[:N[:D]][:greedy|:random][:uct|:flat]``,
    None for any other name: ``N`` iterations (default :data:`DEFAULT_ITERATIONS`), rollouts cut off after
    ``D`` plies (default ``depth``; 0: played to the end), played by the game's ``greedy`` or by ``random``
    (default ``rollout``); ``mode`` 0, or the bit of the name's last part: :data:`UCT` (``uct``: plain UCT,
    UCB1 from the root and a node grown at its first visit, even in a game whose search sweeps its root or
    waits before growing, ``MCTS_ROOT_SWEEP``, ``MCTS_EXPAND_AFTER``) or :data:`FLAT` (``flat``: the root
    swept and nothing grown below it, in any game).  A game's defaults are :func:`game_defaults`.

    >>> parse("mcts"), parse("mcts:50:random"), parse("mcts:50:20:greedy"), parse("lookahead")
    ((1000, 0, 'random', 0), (50, 0, 'random', 0), (50, 20, 'greedy', 0), None)
    >>> parse("mcts", "greedy", 32), parse("mcts:50:0", "greedy", 32), parse("mcts:200:0:random:uct") == (200, 0, 'random', UCT)
    ((1000, 32, 'greedy', 0), (50, 0, 'greedy', 0), True)
    >>> parse("mcts:200:0:flat", "greedy", 32) == (200, 0, "greedy", FLAT)
    True
    """
    base, *args = name.split(":")
    if base != NAME:
        return None
    mode = MODES.get(args[-1], 0) if args else 0
    if mode:
        args.pop()
    if args and args[-1] in ROLLOUTS:
        rollout = args.pop()
    if len(args) > 2 or not all(a.isdigit() for a in args):
        raise ValueError(f"policy={name!r} is not allowed: {IN_WORDS}")
    iterations = int(args[0]) if args else DEFAULT_ITERATIONS
    depth = int(args[1]) if len(args) > 1 else depth
    if not 1 <= iterations <= MOST_ITERATIONS:
        raise ValueError(f"policy={name!r} is not allowed: a tree search mcts:N needs N iterations a decision in "
                         f"1..{MOST_ITERATIONS:,}")
    if not 0 <= depth <= MOST_DEPTH:
        raise ValueError(f"policy={name!r} is not allowed: mcts:N:D needs a cut-off of D plies in "
                         f"0..{MOST_DEPTH:,} (0: rollouts to the end)")
    return iterations, depth, rollout, mode


def make_mcts(kernel_globals: dict, caller=None):
    """The search of a game's kernel module (its globals: the protocol functions ``advance``, ``count``,
    ``nth``, ``apply``, ``determinize``, ``returns``, ``evaluate``, ``options``, ``choose``, the compiled
    ``advance_called`` and ``apply_called`` (``core.driver.make_calls``), the sizes ``STATE_SIZE``,
    ``SCRATCH_SIZE``, ``RS_SIZE`` and ``COLUMNS``; ``MCTS_AGAINST_ROOT``, ``MCTS_CUTOFF_AT_TURN`` and
    ``MCTS_REWARD_SCALE`` where the game scores its cut-offs so, ``MCTS_EXPAND_AFTER`` and
    ``MCTS_ROOT_SWEEP`` where it grows its tree so: the module docstring)::

        mcts(params, st, rs, seat, iterations, exploration, cutoff, rollout, tree) -> index of the chosen option

    ``st`` is a decision point of ``seat`` (``advance`` returned it); ``rs``'s stream ``1 + seat`` is
    the only one drawn from; ``tree`` is int64 work of :func:`entries` ``(kernel, iterations)`` entries
    (its content does not matter), so that the search allocates nothing.  Call it at the top level of
    the kernel module, after those names; the driver plays ``mcts:N`` with it
    (``core.driver.make_play_game``'s ``search``).
    """
    g = kernel_globals
    caller = caller or sys._getframe(1)
    # the search calls the game's ``advance`` and ``apply`` (``advance_called``, ``apply_called``: the kernel's
    # core.driver.make_calls) rather than holding a copy of them at each call site (Numba inlines by copying
    # the function's IR, and its callees'), but in the rollouts of a game whose kernel sets
    # ``MCTS_INLINE_ROLLOUT`` (Valhalla: twice the iterations/s).  ``search.advance`` and ``search.apply`` are
    # the same pair, for the driver's copy that searches and the OpenSpiel playout: the driver's searching
    # copy so compiles in about 30-60 s a game instead of 50-170 s, cold, on one core (issue 16's notes)
    advance, apply = g["advance_called"], g["apply_called"]
    scope = {"np": np, "math": math, "rng": rng, "advance": advance, "count": g["count"], "nth": g["nth"],
             "apply": apply, "advance_inline": g["advance"] if g.get("MCTS_INLINE_ROLLOUT") else advance,
             "apply_inline": g["apply"] if g.get("MCTS_INLINE_ROLLOUT") else apply,
             "determinize": g["determinize"], "returns": g["returns"], "evaluate": g["evaluate"],
             # a rollout plays greedy or random (ALLOWED), never a lookahead: the kernel's choose without it
             "options": g["options"], "choose": g.get("choose_plain", g["choose"]), "MAX_OPTIONS": g["MAX_OPTIONS"],
             "STATE_SIZE": g["STATE_SIZE"], "SCRATCH": max(g["SCRATCH_SIZE"], 1), "RS_SIZE": g["RS_SIZE"],
             "ROW": (len(g["COLUMNS"]) + 1) // 2, "SEATS": seat_count(g["COLUMNS"]), "CODE": CODE, "FIRST": FIRST,
             "NEXT": NEXT, "VISITS": VISITS, "AVAIL": AVAIL, "FIELDS": FIELDS, "UCT": UCT, "FLAT": FLAT,
             "AGAINST_ROOT": bool(g.get("MCTS_AGAINST_ROOT", False)),
             "AT_TURN": bool(g.get("MCTS_CUTOFF_AT_TURN", False)),
             "ROOT_SWEEP": bool(g.get("MCTS_ROOT_SWEEP", False)),
             "EXPAND_AFTER": int(g.get("MCTS_EXPAND_AFTER", 0)),
             "REWARD_SCALE": float(g.get("MCTS_REWARD_SCALE", 0.0))}
    search = njit_no_nrt(from_template(_mcts, "mcts", scope, caller))
    search.sizes, search.exploration, search.depth_shift = _sizes(g), EXPLORATION, DEPTH_SHIFT
    search.rollout_shift = ROLLOUT_SHIFT
    search.advance, search.apply = advance, apply
    return search

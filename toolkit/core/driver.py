"""The game drivers every kernel is run by, written once.

:func:`make_play_game` builds a game's one-game kernel ``play_game`` from its decision-point protocol
(``docs/architecture.md``, "The game protocol"), and :func:`make_play_many` the driver over many games
(``GameSpec.play_many``, called by ``toolkit.core.runner``)::

    play_many(params, policies, seed, first_game, out, violations, check)

plays games ``first_game .. first_game + len(out) - 1`` into the rows of ``out`` and each game's invariant
code into ``violations`` (0: every invariant held; only looked for with ``check``).  ``params`` is whatever
the game's ``to_kernel(rules)`` returns (one array, or a tuple of arrays) and ``policies`` its
``policy_ids``; the driver hands both through untouched.

The games are cut into blocks of consecutive games, spread over ``numba.get_num_threads()`` Python threads
(:class:`Blocks`), and each block allocates its work arrays once: allocating them per game cost 10% of the
two-thread speed (the runtime's allocation counters are shared atomics).  The block loop (``play_block``)
holds the lines of ``run`` and ``decide`` itself rather than calling them: Numba links the code of every
function a function calls into its own module and optimises and emits all of it again, so each level of
calls compiled the whole game once more (issue 35: a third of Attila's and Walhalla's cold compile).  A game depends only on ``(seed,
game index)``, so neither the blocks nor the threads change any result.

The one-game kernel is called as::

    play_game(params, policies, seed, game, row, check, rs, work)

with ``rs`` (``rs_size`` uint64: the random streams' states) and ``work`` (``work_size`` int64, zeroed once
per block) its scratch.  A game's kernel makes both with ``toolkit.core.wiring.finish_kernel``; a driver
that also writes a log (Herrlof's rounds, Halali's captures) is the game's own loop over the same functions
(:func:`variants`).
"""

from __future__ import annotations

import functools
import hashlib
import sys
import types
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from toolkit.core import rng
from toolkit.core.jit import njit, njit_inline, njit_no_nrt, njit_parallel
from toolkit.core.layout import seat_count, seat_run

BLOCKS = 256  # at most this many blocks of games per call of a prange loop (a game's own logs)
BLOCKS_PER_THREAD = 16  # blocks of games per thread: the threads finish together though games differ in length
# the names the templates below take from the scope make_play_many / make_play_game give each copy
play_game = RS_SIZE = work_entries = None
start = advance = count = nth = options = apply = choose = check_step = check_end = record = run = None
decide = search = logged_game = play_block = None
ADVANCE = APPLY = None  # the game's own, in the copies of _advance_call and _apply_call
SEARCH = CHOOSE = PER_BLOCK = False
STATE_SIZE = MAX_OPTIONS = WORK_SIZE = TREE_FIXED = TREE_NODE = SEATS = C_WIN = DEPTH_SHIFT = ROLLOUT_SHIFT = 0
EXPLORATION = 0.0
RANDOM = 0  # the policy id of ``random`` in every game (``GameSpec.policies[0]``)


def _work_entries(policies):
    most = 0  # the largest budget of a seat searching (``mcts:N:D``, code -(N + D << DEPTH_SHIFT))
    for j in range(policies.shape[0]):
        if policies[j] < 0:
            most = max(most, (-policies[j]) & ((1 << DEPTH_SHIFT) - 1))
    return WORK_SIZE + (TREE_FIXED + TREE_NODE * (most + 2) if most > 0 else 0)


def _play_block(params, policies, seed, first_game, out, violations, check, rs, st, opts, before, scratch, tree):
    for i in range(out.shape[0]):  # the one loop over a game's decisions, _decide's lines in it
        rng.seed_streams(rs, seed, first_game + i)
        start(params, st, rs)
        violation = 0
        while True:
            seat = advance(params, st, rs)
            if seat < 0:
                break
            policy = policies[seat]
            if policy == RANDOM:  # every spec's §5: uniform, one below(n) from the seat's decision stream
                n = count(params, st)
                option = nth(params, st, rng.below(rs, 1 + seat, n) if n > 1 else 0)
            elif SEARCH and policy < 0:  # a constant SEARCH: Numba prunes the branch in the other copies
                n = count(params, st)
                if n == 1:
                    option = nth(params, st, 0)
                else:
                    c = -policy
                    iterations = c & ((1 << DEPTH_SHIFT) - 1)
                    depth = (c >> DEPTH_SHIFT) & ((1 << DEPTH_SHIFT) - 1)
                    option = nth(params, st, search(params, st, rs, seat, iterations, EXPLORATION, depth,
                                                    c >> ROLLOUT_SHIFT, tree))
            elif CHOOSE:  # a constant: the random copy has no policies compiled in
                n = options(params, st, opts)
                option = opts[choose(params, policy, st, rs, seat, opts, n, scratch) if n > 1 else 0]
            else:
                option = nth(params, st, 0)  # never reached: Blocks runs the random copy only when every code is RANDOM
            if check:
                for q in range(STATE_SIZE):
                    before[q] = st[q]
            apply(params, st, rs, option)
            if check and violation == 0:
                violation = check_step(params, before, st, option)
        if check and violation == 0:
            violation = check_end(params, st)
        record(params, st, out[i])
        violations[i] = violation


def make_play_many(play_game, rs_size: int, work_size: int, caller=None):
    """The ``play_many`` driver of the one-game kernel ``play_game`` (module docstring): a :class:`Blocks`.

    Call it at the top level of the game's kernel module (``play_many = make_play_many(...)``).  It runs
    the block loops of the copies of ``play_game`` (``play_game.block``: :func:`_play_block` over each
    copy's scope, with ``_decide``'s lines in it; module docstring).  :class:`Blocks` cuts each block's
    streams and work
    in Python, the work with room for the largest tree search of the line-up
    (``play_game.work_entries(policies)``).
    """
    assert work_size == play_game.work_size, "play_many's work is play_game's"
    caller = caller or sys._getframe(1)
    driver = Blocks(play_game.block, play_game.searching.block, play_game.random.block, play_game.work_entries,
                    rs_size, play_game.state_size, play_game.max_options, work_size, play_game.whole.block,
                    play_game.lookahead_in)
    driver.__doc__ = (f"Games ``first_game .. first_game + len(out) - 1`` of the one-game kernel "
                      f"``{play_game.__name__}`` into ``out`` (``toolkit.core.driver``).")
    return driver


# each copy's name (copy_for) and the attribute of Blocks that holds its loop
COPY_ATTRIBUTE = {"random": "random", "plain": "plain", "search": "searching", "lookahead": "whole"}


def copy_for(policies, lookahead_in=None) -> str:
    """Which copy of a game's loop plays a line-up (the game's policy codes): ``"lookahead"`` (the whole
    copy) if ``lookahead_in(codes)``, the kernel's test, says a seat plays a policy its ``choose_plain``
    leaves out; else ``"search"`` if a seat plays ``mcts`` (a negative code); ``"random"`` if every seat is
    random (code ``RANDOM``); else ``"plain"``."""
    codes = np.asarray(policies)
    if lookahead_in is not None and bool(lookahead_in(codes)):
        return "lookahead"
    return "search" if bool((codes < 0).any()) else "random" if bool((codes == RANDOM).all()) else "plain"


class Searching:
    """A compiled loop over games in two or three copies (:func:`variants`): called as ``loop(params,
    policies, ...)``, it runs ``whole`` if the line-up has a seat of the game's own lookahead
    (``lookahead_in``, the kernel's: :func:`copy_for`), ``searching`` if it searches, else ``plain``.

    ``signatures`` are the plain copy's (the search's are ``searching.signatures``)."""

    def __init__(self, plain, searching, whole=None, lookahead_in=None):
        self.plain, self.searching, self.whole = plain, searching, whole or searching
        self.lookahead_in = lookahead_in
        self.__name__ = getattr(plain, "__name__", type(plain).__name__)

    def loop(self, policies):
        """The copy that plays the line-up of these policy codes."""
        return getattr(self, COPY_ATTRIBUTE[copy_for(policies, self.lookahead_in)], self.plain)  # no random copy

    def __call__(self, params, policies, *args):
        return self.loop(policies)(params, policies, *args)

    @property
    def signatures(self):
        return self.plain.signatures

    def __repr__(self):
        return f"<{self.__name__}: plain and searching copies (toolkit.core.driver.Searching)>"


class Blocks(Searching):
    """A game's ``play_many(params, policies, seed, first_game, out, violations, check)``: the rows of ``out``
    cut into blocks of consecutive games, each block played by the compiled block loop of the copy the
    line-up needs (:meth:`copy`: ``random``, ``plain``, ``search`` or ``lookahead``, the whole copy) on one of
    ``numba.get_num_threads()`` Python threads; the loop releases the GIL (``nogil``).

    It replaced a ``numba.prange`` driver (issue 35): the parallel driver was compiled once more around
    the whole game (Numba links and optimises the code of everything a function calls into its own
    module, and the parfor lowering made a second such module), a quarter of every game's cold compile
    (Attila 12 of 48 s, ``benchmarks/compile.py``).  Each block allocates its work once, and a game depends
    only on ``(seed, game index)``, so neither the blocks nor the threads change any result."""

    def __init__(self, plain, searching, random, work_entries, rs_size=0, state_size=0, max_options=0,
                 work_size=0, whole=None, lookahead_in=None):
        super().__init__(plain, searching, whole, lookahead_in)
        self.random, self.work_entries = random, work_entries
        self.rs_size, self.state_size, self.max_options, self.work_size = rs_size, state_size, max_options, work_size

    def _play(self, loop, entries, params, policies, seed, first_game, out, violations, check):
        """One block: its own streams and work (the state, the options, a copy of the state, the
        policies' scratch, the search's tree), cut here so the loop is the only compiled level."""
        rs = np.empty(self.rs_size, np.uint64)
        work = np.zeros(entries, np.int64)
        s, m, w = self.state_size, self.max_options, self.work_size
        loop(params, policies, seed, first_game, out, violations, check, rs, work[:s], work[s:s + m],
             work[s + m:2 * s + m], work[2 * s + m:w], work[w:])

    def copy(self, policies) -> str:
        """Which copy plays the line-up of these policy codes (:func:`copy_for`): ``"random"``, ``"plain"``,
        ``"search"`` or ``"lookahead"``."""
        return copy_for(policies, self.lookahead_in)

    @property
    def signatures(self):
        """The compiled signatures of every copy (each compiled when a line-up first needs it)."""
        whole = self.whole.signatures if self.whole is not self.searching else []
        return [*self.random.signatures, *self.plain.signatures, *self.searching.signatures, *whole]

    def __call__(self, params, policies, seed, first_game, out, violations, check):
        loop = self.loop(policies)
        entries = self.work_entries(policies)
        n = out.shape[0]
        threads = min(numba.get_num_threads(), n)
        if threads <= 1:
            self._play(loop, entries, params, policies, seed, first_game, out, violations, check)
            return
        blocks = min(n, BLOCKS_PER_THREAD * threads)
        bounds = [b * n // blocks for b in range(blocks + 1)]
        with ThreadPoolExecutor(threads, thread_name_prefix="toolkit-games") as pool:
            parts = [pool.submit(self._play, loop, entries, params, policies, seed, first_game + lo, out[lo:hi],
                                 violations[lo:hi], check) for lo, hi in zip(bounds, bounds[1:])]
            for part in parts:
                part.result()


def variants(templates, scope: dict, play_game, caller=None) -> dict:
    """Loops over a game's decisions compiled twice, so that the tree search is compiled only when used.

    ``templates`` is a list of ``(name, function, jit)``, in the order they call each other (a later one
    may call an earlier one by its name); ``scope`` the names they use besides ``decide``,
    ``play_game`` and ``work_entries``, which are ``play_game``'s (:func:`make_play_game`) in the plain
    copy and ``play_game.searching``'s in the other (the one a line-up that searches runs), and
    ``play_game.whole``'s in a third where the kernel leaves its lookahead out of those two
    (:func:`copy_for`).  Each copy is made by :func:`from_template` in the
    file of ``caller`` (default: the calling frame), the searching one named ``<name>_search``.
    Returns ``{name: Searching(plain, searching, whole)}``.
    """
    caller = caller or sys._getframe(1)
    copies = []
    games = ((play_game, ""), (play_game.searching, "_search"))
    if play_game.whole is not play_game.searching:
        games += ((play_game.whole, "_whole"),)
    for game, suffix in games:
        names = dict(scope, **{name: f for name, f in game.calls.items() if name in scope}, decide=game.decide,
                     play_game=game, work_entries=game.work_entries)
        for name, template, jit in templates:
            names[name] = jit(from_template(template, name + suffix, names, caller))
        copies.append(names)
    whole = copies[-1] if len(copies) > 2 else copies[1]
    return {name: Searching(copies[0][name], copies[1][name], whole[name], play_game.lookahead_in)
            for name, _, _ in templates}


def _play_logged(params, policies, seed, first_game, out, log):
    n = out.shape[0]
    blocks = min(n, BLOCKS)
    for b in prange(blocks):  # noqa: F821  (the copy's scope gives it: numba.prange)
        rs = np.empty(RS_SIZE, np.uint64)
        work = np.zeros(work_entries(policies), np.int64)
        for i in range(b * n // blocks, (b + 1) * n // blocks):
            logged_game(params, policies, seed, first_game + i, out[i], rs, work, log[b if PER_BLOCK else i])


def logged_variants(one_game, scope: dict, play_game, per_block: bool = False, caller=None):
    """A game's own loop with a log beside the record (Herrlof's rounds, Halali's captures), by
    :func:`variants`: ``(logged_game, play_logged)``.

    ``one_game(params, policies, seed, game, row, rs, work, log)`` is the template of one game, written over
    the protocol with the copy's ``decide`` (``scope``: the kernel's globals, ``RS_SIZE`` among them);
    ``play_logged(params, policies, seed, first_game, out, log)`` plays games ``first_game ..`` into the
    rows of ``out`` in at most :data:`BLOCKS` blocks in parallel, game ``i`` logging into ``log[i]``, or
    with ``per_block`` into ``log[b]`` of its block (a tally the caller sums over the blocks)."""
    scope = dict(scope, prange=numba.prange, BLOCKS=BLOCKS, PER_BLOCK=per_block)
    copies = variants([("logged_game", one_game, njit_no_nrt), ("play_logged", _play_logged, njit_parallel)], scope,
                      play_game, caller or sys._getframe(1))
    return copies["logged_game"], copies["play_logged"]


# ---------------------------------------------------------------- one game, from the protocol


def _protocol_game(params, policies, seed, game, row, check, rs, work):
    violations = np.zeros(1, np.int32)
    play_block(params, policies, seed, game, row.reshape((1, row.shape[0])), violations, check, rs, work[:STATE_SIZE],
               work[STATE_SIZE:STATE_SIZE + MAX_OPTIONS], work[STATE_SIZE + MAX_OPTIONS:2 * STATE_SIZE + MAX_OPTIONS],
               work[2 * STATE_SIZE + MAX_OPTIONS:WORK_SIZE], work[WORK_SIZE:])
    return violations[0]


def _decide(params, policies, st, rs, seat, opts, scratch, tree):
    policy = policies[seat]
    if policy == RANDOM:  # every spec's §5: uniform, one below(n) from the seat's decision stream
        n = count(params, st)
        return nth(params, st, rng.below(rs, 1 + seat, n) if n > 1 else 0)
    if SEARCH:  # a constant: the plain copy has no search compiled in (Numba prunes the branch)
        if policy < 0:  # mcts:N:D, the tree search of N iterations, rollouts cut off after D plies (core.mcts)
            n = count(params, st)
            if n == 1:
                return nth(params, st, 0)
            c = -policy
            iterations, depth = c & ((1 << DEPTH_SHIFT) - 1), (c >> DEPTH_SHIFT) & ((1 << DEPTH_SHIFT) - 1)
            return nth(params, st, search(params, st, rs, seat, iterations, EXPLORATION, depth, c >> ROLLOUT_SHIFT,
                                          tree))
    if CHOOSE:  # a constant: the random copy has no policies compiled in (every seat of its line-ups is random)
        n = options(params, st, opts)
        return opts[choose(params, policy, st, rs, seat, opts, n, scratch) if n > 1 else 0]
    return nth(params, st, 0)  # never reached: Blocks runs the random copy only when every code is RANDOM


@njit_inline
def index_of(opts, n, option):
    """The index of ``option`` among ``opts[:n]`` (0 if it is not there): a ``choose`` that works out the
    option itself returns its index."""
    for i in range(n):
        if opts[i] == option:
            return i
    return 0


def _noalias(flags):
    flags.noalias = True
    return flags


def from_template(template, name: str, scope: dict, caller):
    """A copy of the function ``template`` named ``name``, whose globals are ``scope`` and whose code
    object says it stands in the file of the frame ``caller`` (a game's kernel module) at its line.

    Numba's cache then keys the copy like a function written there: it is stored beside the kernel.  A
    closure would not do: Numba hashes a closure's cells into the cache key, and a compiled function
    pickles with an id new in every process, so it would be compiled again in every process.

    Numba names a function's cache files by its qualified name and line, so two copies made at one line
    over different scopes must not share a name: the copy's qualified name ends with a digest of the
    template's and of the compiled functions' in ``scope`` (:func:`_copy_digest`).  That the copy's code
    is current is the cache directory's business: it is named by a digest of every source it can
    depend on (:mod:`toolkit.core.cache`), so an edit to a template's module, or to any helper, gives
    every copy a fresh cache.
    """
    qualname = f"{name}_{_copy_digest(template, scope)}"
    code = template.__code__.replace(co_filename=caller.f_code.co_filename, co_firstlineno=caller.f_lineno,
                                     co_name=name, co_qualname=qualname)
    function = types.FunctionType(code, scope, name)
    function.__module__ = caller.f_globals.get("__name__", __name__)
    return function


def _copy_digest(template, scope: dict) -> str:
    """Eight hex digits of the BLAKE2 digest of ``template``'s module and name and of the qualified names
    of the compiled functions in ``scope`` (which carry their own digests if they are copies)."""
    digest = hashlib.blake2b(f"{template.__module__}.{template.__qualname__}".encode(), digest_size=4)
    for qualname in sorted(f"{f.py_func.__module__}.{f.py_func.__qualname__}" for f in scope.values()
                           if hasattr(f, "py_func")):
        digest.update(b"|" + qualname.encode())
    return digest.hexdigest()


def _advance_call(params, st, rs):
    return ADVANCE(params, st, rs)


def _apply_call(params, st, rs, option):
    APPLY(params, st, rs, option)


def make_calls(advance, apply, caller=None):
    """The game's ``advance`` and ``apply`` as one compiled function each, ``(advance_called,
    apply_called)``, for the code that calls them rather than inlining them: the tree search
    (``core.mcts``), the driver's copy that searches (:func:`make_play_game`), a lookahead's rollouts,
    :class:`toolkit.core.protocol.KernelGame`.  Numba inlines an ``inline="always"`` function by
    copying its IR, and its callees', at every call site, so each inlined ``apply`` is compiled once
    more.  Call it at the top level of the kernel module, after ``apply``
    (``advance_called, apply_called = make_calls(advance, apply)``)."""
    caller = caller or sys._getframe(1)
    scope = {"ADVANCE": advance, "APPLY": apply}
    return (njit_no_nrt(from_template(_advance_call, "advance_called", scope, caller)),
            njit_no_nrt(from_template(_apply_call, "apply_called", scope, caller)))


def make_play_game(start, advance, count, nth, options, apply, choose, check_step, check_end, record,
                   state_size: int, max_options: int, scratch_size: int, search, *, inline_steps: bool = True,
                   choose_plain=None, lookahead_in=None, caller=None):
    """The one-game kernel ``play_game(params, policies, seed, game, row, check, rs, work)`` of a game's
    protocol functions (all njit; ``docs/architecture.md``), returning a violation code (0: none).

    The loop: seed the streams; ``start``; then ``advance`` to each decision point and ``decide`` it
    (below); ``apply`` the option; with ``check``, ``check_step(params, before, st, option)`` after each
    apply (``before``: the state before it) and ``check_end(params, st)`` at the end, the first violation
    kept; last ``record``.

    ``decide(params, policies, st, rs, seat, opts, scratch, tree) -> option`` picks by the seat's policy
    code ``policies[seat]``: a single option without a draw; ``random`` (code 0) with one ``below(n)``
    from the seat's decision stream ``1 + seat``; ``mcts:N:D`` (code -(N + D << 20 + R << 40): rollouts cut
    off after D plies, played by the policy of code R) by ``search``, the game's ``core.mcts.make_mcts``,
    in the work ``tree``; any other code by the game's ``choose(params, policy, st, rs, seat, opts, n,
    scratch) -> index`` over the ``options``.

    ``work`` needs ``play_game.work_entries(policies)`` entries (njit): the state, the options, a copy
    of the state, the policies' scratch (:func:`work_size`, ``play_game.work_size``), then the search's
    tree for the largest ``mcts:N`` of the line-up.  It is the block loop (:func:`_play_block`,
    ``play_game.block``, the loop ``play_many`` runs) over one game: the loop over a game's decisions is
    written once.  Each is made by :func:`from_template`, so that Numba caches it beside the game's kernel.

    The returned ``play_game`` cannot search: its ``decide`` has no ``search`` compiled in (a search doubled
    the loop's compile time), and a negative code would reach ``choose``.  ``play_game.searching`` is the
    copy that can; :func:`variants` and :func:`make_play_many` pick between the two by the line-up
    (``play_game.copy_for(policies)``, :func:`copy_for`).

    A game may leave its own searching policy (a ``lookahead`` that plays imagined turns) out of the plain
    and searching copies: ``choose_plain`` is ``choose`` without it, and ``lookahead_in(codes)`` (Python)
    says whether a line-up's policy codes have a seat that needs it.  Such a line-up runs a fourth copy,
    ``play_game.whole``, the searching one with the whole ``choose`` (elsewhere ``play_game.whole`` is
    ``play_game.searching``).  The plain copy is the one a ``greedy`` line-up, the report's and the
    dashboard's first, waits for, and the searching one the first ``mcts`` seat: Attila's lookahead was 12
    of the plain copy's 17.5 s (``benchmarks/compile.py``).  :func:`copy_for` picks the copy
    (``play_game.copy_for(policies)``).
    ``play_game.decide`` is the decision, for a game's own loops (a log beside the record, made by
    :func:`variants`).

    The copy that searches calls ``advance`` and ``apply`` (``search.advance``, ``search.apply``: the
    kernel's :func:`make_calls`) rather than inlining them: Numba inlines by copying a function's IR, and
    its callees', into the caller, so an inlined ``apply`` is compiled once more in every copy that holds
    it.  The plain copy inlines them where ``inline_steps`` (a game whose plies are cheap, where the
    call costs speed), and otherwise calls the same compiled pair, which it and the searching copy then
    share (``play_game.calls``).
    """
    caller = caller or sys._getframe(1)
    size = work_size(state_size, max_options, scratch_size)
    tree_fixed, tree_node = search.sizes
    scope = {"np": np, "rng": rng, "RANDOM": RANDOM, "start": start, "advance": advance, "count": count, "nth": nth,
             "options": options, "apply": apply, "choose": choose, "check_step": check_step, "check_end": check_end,
             "record": record, "search": None, "SEARCH": False, "EXPLORATION": search.exploration,
             "DEPTH_SHIFT": search.depth_shift, "ROLLOUT_SHIFT": search.rollout_shift, "STATE_SIZE": state_size,
             "MAX_OPTIONS": max_options, "WORK_SIZE": size, "TREE_FIXED": tree_fixed, "TREE_NODE": tree_node}
    work_entries = njit_no_nrt(from_template(_work_entries, "work_entries", scope, caller))
    games = []
    # three copies of the loop, each compiled only when a line-up needs it: the plain one, with the game's
    # policies (but a lookahead left out by ``choose_plain``); the one that can also search (an ``mcts``
    # seat: the search doubled the loop's compile time); and the random one, without the policies (about
    # half of a game's cold compile), for the line-ups of random seats only that a first run, the dashboard
    # and the exact-odds checks play.  A fourth, the whole one, where ``choose_plain`` left a lookahead out.
    base = scope
    copies = (("", False, choose_plain or choose), ("_search", True, choose_plain or choose), ("_random", False, None))
    if choose_plain is not None:
        copies += (("_whole", True, choose),)
    for suffix, searching, chooser in copies:
        # each copy's scope from the base: the searching copy's called advance and apply must not leak into
        # the next copy (the random copy once ran at half speed so)
        calls = {"advance": search.advance, "apply": search.apply} if searching or not inline_steps else {}
        scope = dict(base, search=search if searching else None, SEARCH=searching, CHOOSE=chooser is not None,
                     choose=chooser, **calls)
        scope["decide"] = decide = njit_inline(from_template(_decide, "decide" + suffix, scope, caller))
        # the block loop (:func:`_play_block`, the one loop over a game's decisions), which ``play_many`` runs;
        # its arrays never overlap, and saying so (LLVM's noalias) lets the game's state stay in registers
        # across the stores to the streams and the row: Valhalla +10% (issue 15)
        scope["play_block"] = block = njit(from_template(_play_block, "play_block" + suffix, scope, caller))
        block._compiler._customize_flags = _noalias
        game = njit(from_template(_protocol_game, "play_game" + suffix, scope, caller))
        game.__doc__ = make_play_game.__doc__.split("\n\n")[0].replace("of a game's", "of this game's")
        game.decide, game.work_entries, game.work_size = decide, work_entries, size
        game.block, game.state_size, game.max_options = block, state_size, max_options
        game.calls, game.scope, game.lookahead_in = calls, scope, lookahead_in
        game.copy_for = functools.partial(copy_for, lookahead_in=lookahead_in)
        games.append(game)
    games[0].searching, games[0].random, games[0].whole = games[1], games[2], games[-1 if choose_plain else 1]
    return games[0]


def _returns(params, st, out, row):
    record(params, st, row)
    for s in range(SEATS):
        out[s] = row[C_WIN + s]


def make_returns(record, columns, caller=None):
    """The protocol's ``returns(params, st, out, row)`` of a game's ``record`` and ``COLUMNS``: at the end of
    a game, ``out[seat]`` is 1 for a seat among the winners (each seat of a shared win) and 0 otherwise,
    its ``win_<seat>`` column (a search player's reward); ``row`` is a scratch row of ``len(columns)``.
    Seats a game does not have (fewer players than columns) get 0.  Call it at the top level of the
    kernel module, after ``record``."""
    seats = seat_count(columns)
    scope = {"record": record, "SEATS": seats, "C_WIN": seat_run(columns, "win", seats)}
    returns = njit_no_nrt(from_template(_returns, "returns", scope, caller or sys._getframe(1)))
    returns.__doc__ = make_returns.__doc__.split("\n\n")[0].replace("of a game's", "of this game's")
    return returns


def work_size(state_size: int, max_options: int, scratch_size: int) -> int:
    """The ``work`` entries :func:`make_play_game`'s kernel needs."""
    return 2 * state_size + max_options + scratch_size

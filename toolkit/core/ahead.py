"""Compiling ahead (``toolkit warm``, ``make``'s set-up step): each game's copies of its driver
(:data:`toolkit.core.warm.COPIES`) compiled into the cache by playing a few games in parallel processes,
so that no first use compiles.  It plays games (``core.runner``) and records each copy warm
(``core.warm``, below the runner: its markers, estimates and first-use bar).
"""

from __future__ import annotations

import os
import time

from toolkit.core import warm


def compile_copy(game: str, copy: str) -> tuple[str, str, float]:
    """Compile (or load) one copy of a game's driver by playing a few games; ``(game, copy, seconds)``."""
    from toolkit.core.registry import GAMES
    from toolkit.core.runner import simulate

    timed = warm.after_the_copies_before(game, copy)
    start = time.perf_counter()
    spec = GAMES[game]
    seats = spec.seats(spec.Rules())
    policies = {"random": ("random",) * seats, "plain": ("greedy",) + ("random",) * (seats - 1),
                "search": ("mcts:2",) + ("random",) * (seats - 1),
                "lookahead": ("lookahead:1",) + ("random",) * (seats - 1)}[copy]
    simulate(spec, n_games=2, policies=policies, progress=False)
    _extras(spec, copy, policies)
    seconds = time.perf_counter() - start
    if not warm.is_warm(game, copy):  # simulate records it unless the copy was loaded from the cache unmarked
        warm.record_time(game, copy, seconds, timed)
    return game, copy, seconds


def _extras(spec, copy: str, policies) -> None:
    """What else a copy's first use compiles, done with it: with the ``random`` copy the streamed summary's
    folds (``keep="summary"``, every game's), with the ``plain`` copy the protocol's stepping of one game (the
    decision's kind: ``KernelGame``, as the decisions, the viewer and a seat use it), and with every copy the
    game's own logged loops played by the copy's policies, where its package has them (its ``warm_logs``:
    Herrlof's round log, Halali's capture heat map).  Without these, a notebook's first round log compiled for
    14 s with nothing said (issue 50's CI measurements)."""
    import importlib

    from toolkit.core.protocol import KernelGame
    from toolkit.core.runner import simulate

    rules = spec.Rules()
    if copy == "random":
        simulate(spec, rules, 2, policies=policies, keep="summary", progress=False)
    if copy == "plain":
        game = KernelGame(spec.kernel, rules, policies, 0, 0)
        while game.advance() >= 0:
            game.kind()
            game.apply(game.options()[game.choose()])
    package = importlib.import_module(spec.kernel.__name__.rpartition(".")[0])
    logs = getattr(package, "warm_logs", None)
    if logs is not None:
        logs(policies)


def copies_of(game: str) -> tuple:
    """The copies of the game's driver, in the order of :data:`COPIES`: ``lookahead`` only where the kernel
    leaves its lookahead out of the others (``core.driver.Blocks.whole``)."""
    from toolkit.core.registry import GAMES

    driver = GAMES[game].play_many
    return warm.COPIES if driver.whole is not driver.searching else warm.COPIES[:3]


def next_game(left: dict, busy: set):
    """The game whose next copy a free process compiles: of those with copies ``left`` and none compiling
    (``busy``), the one with the most seconds of compiling left (:func:`estimate`); ``None`` if none."""
    idle = [g for g in left if left[g] and g not in busy]
    return max(idle, key=lambda g: sum(warm.estimate(g, copy) for copy in left[g]), default=None)


def warm_up(games, search: bool = False, jobs: int | None = None, progress: bool = True) -> list:
    """Compile each game's random and plain copies (and with ``search`` its searching copy, and its whole
    copy where it has one: :func:`copies_of`) into the cache,
    ``jobs`` processes at a time (default: one a core).  A game's copies compile one after the other, in
    the order of :data:`COPIES`, since each reuses what the one before compiled (two at once would both
    compile the game's steps); a free process takes the next copy of the game with the most compiling
    left.  Returns ``[(game, copy, seconds)]`` in the order they finished."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    from tqdm.auto import tqdm

    left = {g: [copy for copy in copies_of(g)[:None if search else 2] if not warm.is_warm(g, copy)] for g in games}
    left = {g: copies for g, copies in left.items() if copies}
    total = sum(map(len, left.values()))
    done: list = []
    if not total:
        return done
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(left)))
    remaining = {g: sum(warm.estimate(g, copy) for copy in copies) for g, copies in left.items()}
    seconds = max(sum(remaining.values()) / jobs, max(remaining.values()))
    bar = tqdm(total=total, unit="copy", disable=not progress,
               desc=f"compiling {total} kernel copies on {jobs} processes, about {seconds:.0f} s")

    def submit(pool):
        game = next_game(left, busy)
        if game is None:
            return None
        busy.add(game)
        return pool.submit(compile_copy, game, left[game].pop(0))

    busy: set = set()
    # spawn, not fork: the parent has Numba's threads and compiler state
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        running = {submit(pool) for _ in range(jobs)} - {None}
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                game, copy, took = future.result()
                busy.discard(game)
                done.append((game, copy, took))
                bar.set_postfix_str(f"{game} {copy} {took:.0f} s")
                bar.update()
            while len(running) < jobs and (job := submit(pool)) is not None:
                running.add(job)
    bar.close()
    return done

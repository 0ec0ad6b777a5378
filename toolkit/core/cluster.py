"""Running pieces of a job on a Dask cluster (``distributed``), in order, with bounded memory.

The runner (one big ``simulate``) and the sweep cut their work into tasks,
each a pure function of its arguments (a game range of one seed), so the
result never depends on which worker ran which task.  This module holds the
two pieces of plumbing they share:

- :func:`connect`: a ``distributed.Client`` from ``client=`` or from a
  scheduler address (and whether we own it, i.e. must close it);
- :func:`run_tasks`: submit tasks a few at a time and yield their results,
  in task order (a caller writes one part after another to a file) or as
  they finish, while at most ``window`` results are held (in flight or
  waiting for an earlier one).
"""

from __future__ import annotations

import contextlib

CONNECT_TIMEOUT_S = 20  # how long to wait for a scheduler that does not answer


def _distributed():
    try:
        import distributed
    except ImportError:  # pragma: no cover - the dask extra is part of make's install
        raise ValueError('backend="dask" needs the dask extra: pip install "toolkit[dask]"') from None
    return distributed


@contextlib.contextmanager
def connect(client=None, scheduler: str | None = None):
    """The client to use: ``client`` as given (left open), or a new one for ``scheduler`` (closed after)."""
    if client is not None and scheduler is not None:
        raise ValueError("pass either client= or scheduler=, not both")
    distributed = _distributed()
    if client is not None:
        yield client
        return
    if scheduler is None:
        raise ValueError('backend="dask" needs client= (a distributed.Client) or scheduler= (its address)')
    try:
        own = distributed.Client(scheduler, timeout=f"{CONNECT_TIMEOUT_S}s")
    except OSError as error:
        raise ValueError(f"scheduler={scheduler!r} is not allowed: no Dask scheduler answers there ({error})") \
            from None
    try:
        yield own
    finally:
        own.close()


def threads(client) -> int:
    """Worker threads of the cluster (at least 1)."""
    try:
        return max(1, sum(client.nthreads().values()))
    except Exception:  # noqa: BLE001 - a client that cannot tell
        return 1


def run_tasks(client, func, tasks, *, ordered: bool, window: int | None = None):
    """Yield ``(i, func(*tasks[i]))`` for every task, computed on the cluster.

    ``ordered``: in task order (a file written part after part), else as the
    tasks finish (totals that add in any order, rows placed by index).  At
    most ``window`` tasks are submitted and not yet yielded (default: four
    per worker thread), so memory is bounded by ``window`` results however
    many tasks there are; in order, a slow task holds back the later ones it
    is waited for, so the window leaves the other threads work meanwhile.
    """
    distributed = _distributed()
    tasks = list(tasks)
    window = 4 * threads(client) if window is None else max(1, int(window))
    queue = distributed.as_completed()
    index_of, ready = {}, {}
    submitted = yielded = 0

    def submit_more():
        nonlocal submitted
        while submitted < len(tasks) and len(index_of) + len(ready) < window:
            future = client.submit(func, *tasks[submitted], pure=False)
            index_of[future] = submitted
            queue.add(future)
            submitted += 1

    submit_more()
    try:
        while yielded < len(tasks):
            future = next(queue)
            i = index_of.pop(future)
            result = future.result()  # a task's error is raised here
            future.release()
            if ordered:
                ready[i] = result
                while yielded in ready:
                    yield yielded, ready.pop(yielded)
                    yielded += 1
            else:
                yielded += 1
                yield i, result
            submit_more()
    finally:
        for future in index_of:
            future.cancel()

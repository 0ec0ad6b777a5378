"""The page's work off the page's thread: a run that can be watched, cancelled and made stale.

A :class:`Slot` is one kind of work on a page (the rules' run, the tournament, the tuning).  Starting it
runs the work in a thread under a :class:`toolkit.core.jobs.Job`, so the kernel keeps answering the page
(a click, a new value) while games are played, and:

- a new start cancels the one still running: its result would be stale (another rule, another
  line-up); the runs end at their next chunk, a fraction of a second, and only the latest start's
  result is shown;
- :class:`Progress` shows the job's games done of those planned, the time left at the pace so far, and
  a button that cancels it;
- different slots' runs take turns chunk by chunk (``core.jobs``), so a long tournament does not hold
  up the rules' plots.

``background=False`` runs the work at once in the caller's thread (scripts, most tests), with the same
progress and the same results.
"""

from __future__ import annotations

import threading

import ipywidgets as w

from toolkit.core import jobs

DRAW_LOCK = threading.Lock()  # matplotlib's pyplot is not thread-safe: one figure drawn at a time


def in_kernel() -> bool:
    """True inside a Jupyter kernel (a notebook, Voilà): where the page can only stay live if the games
    are played in another thread."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


class Progress:
    """A bar, a line of words (``12,000 of 40,000 games, about 6 s left``) and a cancel button; hidden
    while nothing runs."""

    def __init__(self, what: str):
        self.what = what
        self.bar = w.FloatProgress(value=0.0, min=0.0, max=1.0, layout=w.Layout(width="14em"))
        self.label = w.HTML()
        self.cancel_button = w.Button(description="cancel", icon="stop", button_style="warning",
                                      layout=w.Layout(width="auto"))
        self.box = w.HBox([self.bar, self.label, self.cancel_button], layout=w.Layout(display="none"))
        self.on_cancel = None
        self.cancel_button.on_click(lambda _: self.on_cancel() if self.on_cancel is not None else None)

    def started(self, text: str = "") -> None:
        self.bar.value = 0.0
        self.label.value = text or f"{self.what} …"
        self.cancel_button.disabled = False
        self.box.layout.display = "flex"

    def show(self, job: jobs.Job) -> None:
        if job.cancelled:
            return  # the words say "cancelled" now, not the count it stopped at
        self.bar.value = job.fraction()
        self.label.value = f"{self.what}: {jobs.describe(job)}"

    def finished(self) -> None:
        self.box.layout.display = "none"

    def cancelled(self) -> None:
        self.cancel_button.disabled = True
        self.label.value = f"{self.what}: cancelled"


class Slot:
    """One kind of work of a page; see the module docstring.

    ``start(work, done, failed)``: ``work()`` plays (in a thread when ``background``); then ``done(result)``,
    or ``failed(error)`` for an exception other than a cancel; neither if a newer start or a cancel
    came first.  ``wait()`` waits for the latest start to finish.  ``on_cancelled()``, if set, is called
    when ``cancel()`` stops running work, so the page can replace what said it was running."""

    def __init__(self, background: bool, progress: Progress | None = None):
        self.background = background
        self.progress = progress
        if progress is not None:
            progress.on_cancel = self.cancel
        self.on_cancelled = None
        self.generation = 0
        self._open = False  # the latest start has neither shown its result nor failed nor been cancelled
        self.job: jobs.Job | None = None
        self.cancelled = 0  # starts stopped before their result (stale or cancelled by hand)
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def start(self, work, done, failed, text: str = "") -> jobs.Job:
        with self._lock:
            self.generation += 1
            generation = self.generation
            if self.job is not None:
                self.job.cancel()  # stale now: it stops at its next chunk
            job = self.job = jobs.Job(on_progress=self.progress.show if self.progress is not None else None)
            self._open = True
            previous = self._thread
        if self.progress is not None:
            self.progress.started(text)

        def run() -> None:
            if previous is not None:
                previous.join()  # one run of a slot at a time
            try:
                if job.cancelled:
                    raise jobs.Cancelled
                with jobs.running(job):
                    result = work()
            except jobs.Cancelled:
                self.cancelled += 1
                return
            except Exception as error:  # shown on the page, never lost in a thread
                with self._lock:
                    if generation == self.generation:
                        self._finish()
                        failed(error)
                return
            with self._lock:  # a newer start cannot slip in between the check and the showing
                if generation == self.generation and not job.cancelled:
                    self._finish()
                    done(result)
                else:
                    self.cancelled += 1

        if not self.background:
            run()
            return job
        thread = self._thread = threading.Thread(target=run, name="toolkit-page-job", daemon=True)
        thread.start()
        return job

    def cancel(self) -> None:
        """Stop the running work at its next chunk; its result is not shown."""
        with self._lock:
            stopped = self._open  # work started whose result is not shown yet
            self._open = False
            if self.job is not None and not self.job.cancelled:
                self.job.cancel()
                if self.progress is not None:
                    self.progress.cancelled()
        if stopped and self.on_cancelled is not None:
            self.on_cancelled()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the latest start to end; True if it has."""
        thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _finish(self) -> None:
        self._open = False
        if self.progress is not None:
            self.progress.finished()


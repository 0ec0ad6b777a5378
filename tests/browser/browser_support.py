"""Helpers of the browser tests (servers, page checks, timings); the fixtures are in conftest.py.

A module of its own, so that test files import it by a name no other folder's conftest shares."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

# what a page must never show: widgets that did not render, a Python traceback, a widget's repr,
# Voila's message for a cell that raised (it hides the traceback itself)
BROKEN_PAGE_TEXTS = ("Loading widget", "Error displaying widget", "Click to show javascript error",
                     "HBox(children", "VBox(children", "Traceback (most recent call last)",
                     "There was an error when executing cell")

TIMINGS: dict[str, float] = {}  # name -> seconds (or the unit its name ends with), printed at the end (conftest.py)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, log: Path, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server exited with code {process.returncode}:\n{log.read_text()[-3000:]}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    pytest.fail(f"nothing listened on port {port} after {timeout:.0f} s:\n{log.read_text()[-3000:]}")


def start_server(argv: list[str], log: Path, port: int, cwd=None, env=None) -> subprocess.Popen:
    """``argv`` in a process group of its own, output to ``log``; waits for ``port``.

    (Jupyter starts kernels in sessions of their own: the server shuts them down when it stops.)"""
    with log.open("w") as out:
        process = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, cwd=cwd, start_new_session=True,
                                   env={**os.environ, **(env or {})})
    wait_for_port(port, process, log)
    return process


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def stop_server(process: subprocess.Popen, timeout: float = 30.0) -> None:
    """SIGTERM to the server's whole group, then SIGKILL to what is left after ``timeout``."""
    if _group_alive(process.pid):
        os.killpg(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while _group_alive(process.pid) and time.monotonic() < deadline:
        process.poll()  # reap the leader, so that a finished group stops counting as alive
        time.sleep(0.2)
    if _group_alive(process.pid):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def url_in_log(log: Path, prefix: str, timeout: float = 60.0) -> str:
    """The first address in ``log`` that starts with ``prefix`` (e.g. the app's address with its token)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for word in log.read_text().split():
            if word.startswith(prefix):
                return word
        time.sleep(0.2)
    pytest.fail(f"no address starting {prefix} in the log:\n{log.read_text()[-3000:]}")


def page_problems(page) -> list[str]:
    """The broken-page texts found on ``page``, and every stderr output area that holds any text.

    The areas are read with ``textContent``: ``innerText`` came back empty for a warning JupyterLab
    had not laid out yet (the overview notebook's Dask port warning, which CI caught this way).  An
    area holding only whitespace is not counted: it shows the reader nothing."""
    text = page.inner_text("body")
    found = [t for t in BROKEN_PAGE_TEXTS if t in text]
    stderr = page.locator("[data-mime-type='application/vnd.jupyter.stderr']")
    shown = [t for t in (stderr.all_text_contents() if stderr.count() else []) if t.strip()]
    if shown:
        found.append("stderr output: " + " | ".join(repr(t) for t in shown)[:500])
    return found




def status_words(game: str, rule: str, text: str) -> str:
    """What the status line shows for ``rule`` set to ``text`` (its ``--set`` form): the rule's label and the
    value in words (issue 52; the ``--set`` text is only in the tooltip)."""
    import toolkit
    from toolkit.core.params import params_of

    declared = params_of(toolkit.GAMES[game].Rules)[rule]
    return f"{declared.label}: {declared.kind.word(declared.kind.parse(rule, text))}"


def choice_words(game: str, rule: str, choice: str) -> str:
    """The words a rule's menu shows for ``choice`` (what a person picks)."""
    import toolkit
    from toolkit.core.params import params_of

    kind = params_of(toolkit.GAMES[game].Rules)[rule].kind
    return kind.word(kind.parse(rule, choice))

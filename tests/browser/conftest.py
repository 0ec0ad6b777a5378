"""Browser tests: Debian's Chromium driven by Playwright (never a downloaded browser).

``make test`` installs the ``chromium`` package when it is missing (as root;
see the Makefile), and the ``dev`` extra brings Playwright.  Every page gets a
screenshot in the test's temporary folder.  Timings the tests measure are
collected in :data:`TIMINGS` and printed at the end of the run (they are
reported, never asserted: this VM's speed drifts).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]
# what a page must never show: widgets that did not render, a Python traceback, a widget's repr
BROKEN_PAGE_TEXTS = ("Loading widget", "Error displaying widget", "Click to show javascript error",
                     "HBox(children", "VBox(children", "Traceback (most recent call last)")

TIMINGS: dict[str, float] = {}


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.browser)


def pytest_terminal_summary(terminalreporter):
    if TIMINGS:
        terminalreporter.write_sep("-", "browser timings (measured, not asserted)")
        for name, seconds in TIMINGS.items():
            terminalreporter.write_line(f"{name}: {seconds:.2f} s")


def chromium_path() -> str:
    found = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
    if found is None:
        pytest.fail("Debian's chromium is not installed: `make test` installs it (apt-get install chromium, as root)")
    return found


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


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
    """``argv`` in its own process group (its kernels go with it), output to ``log``; waits for ``port``."""
    out = log.open("w")
    process = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, cwd=cwd, start_new_session=True,
                               env={**os.environ, **(env or {})})
    wait_for_port(port, process, log)
    return process


def stop_server(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def page_problems(page) -> list[str]:
    """The broken-page texts found on ``page``, and any stderr output area."""
    text = page.inner_text("body")
    found = [t for t in BROKEN_PAGE_TEXTS if t in text]
    stderr = page.locator("[data-mime-type='application/vnd.jupyter.stderr']")
    if stderr.count():
        found.append("stderr output: " + " | ".join(stderr.all_inner_texts())[:500])
    return found


@pytest.fixture(scope="module")
def toolkit_command():
    return [sys.executable, "-m", "toolkit.cli"]

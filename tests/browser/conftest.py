"""Browser tests: Debian's Chromium driven by Playwright (never a downloaded browser).

``make test`` installs the ``chromium`` package when it is missing (as root;
see the Makefile), and the ``dev`` extra brings Playwright.  Every page gets a
screenshot in the test's temporary folder.  Timings the tests measure are
collected in :data:`TIMINGS` and printed at the end of the run (they are
reported, never asserted: this VM's speed drifts).  ``make test`` runs them
with the rest of the suite on the pytest-xdist workers, where the printed
timings of a worker are not shown (run ``pytest tests/browser`` to see them;
the dashboard's redraw times are measured by ``benchmarks/redraw.py``).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from browser_support import (BROKEN_PAGE_TEXTS, TIMINGS, free_port, page_problems, start_server,  # noqa: F401
                             stop_server, wait_for_port)

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


def pytest_collection_modifyitems(items):
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.browser)


def pytest_terminal_summary(terminalreporter):
    if TIMINGS:
        terminalreporter.write_sep("-", "browser timings (measured, not asserted)")
        for name, value in TIMINGS.items():  # seconds, unless the name gives its unit: "(MB)", "(count)"
            unit = "" if name.endswith(("(MB)", "(count)")) else " s"
            terminalreporter.write_line(f"{name}: {value:.2f}{unit}" if unit or value != int(value)
                                        else f"{name}: {value:.0f}")


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


@pytest.fixture(scope="module")
def toolkit_command():
    return [sys.executable, "-m", "toolkit.cli"]

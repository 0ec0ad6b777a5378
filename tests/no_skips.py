"""A pytest plugin: with ``TOOLKIT_NO_SKIPS=1`` (``make test`` sets it) any skipped test fails the run.

A skip hides a missing dependency or a machine the test cannot use (a one-core runner, no
kernelspec) behind a green run; in ``make test`` and CI the whole suite must really run.  The
skipped tests are listed with their reasons.
"""

from __future__ import annotations

import os


def pytest_sessionfinish(session, exitstatus):
    if os.environ.get("TOOLKIT_NO_SKIPS") != "1":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if not skipped:
        return
    if reporter is not None:
        reporter.ensure_newline()
        reporter.write_sep("=", f"{len(skipped)} skipped: TOOLKIT_NO_SKIPS=1 makes a skip fail the run", red=True)
        for report in skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
            reporter.write_line(f"SKIPPED {report.nodeid}: {reason.removeprefix('Skipped: ')}")
    session.exitstatus = 1

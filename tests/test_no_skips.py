"""``TOOLKIT_NO_SKIPS=1`` turns a skipped test into a failed run (tests/no_skips.py), and only then."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
INNER = "import pytest\n\ndef test_ok():\n    pass\n\ndef test_needs_more():\n    pytest.skip('needs 2 Numba threads')\n"


def _run(tmp_path, flag):
    (tmp_path / "test_inner.py").write_text(INNER)
    env = {k: v for k, v in os.environ.items() if k != "TOOLKIT_NO_SKIPS"}
    env["PYTHONPATH"] = str(TESTS)
    if flag is not None:
        env["TOOLKIT_NO_SKIPS"] = flag
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no_skips", "-p", "no:cacheprovider", "-q",
                           "--rootdir", str(tmp_path), "-c", os.devnull, "test_inner.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def test_a_skip_fails_the_run_under_the_flag(tmp_path):
    result = _run(tmp_path, "1")
    assert result.returncode == 1, result.stdout
    assert "1 skipped: TOOLKIT_NO_SKIPS=1 makes a skip fail the run" in result.stdout
    assert "SKIPPED test_inner.py::test_needs_more: needs 2 Numba threads" in result.stdout


def test_without_the_flag_a_skip_is_only_reported(tmp_path):
    for flag in (None, "0"):
        result = _run(tmp_path, flag)
        assert result.returncode == 0, result.stdout
        assert "1 passed, 1 skipped" in result.stdout

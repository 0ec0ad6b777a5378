"""A benchmark exits non-zero on a missed target (issue 36, point 18): ``make bench`` and CI fail on it, not
only the printed table."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import common  # noqa: E402  (benchmarks/common.py)
import strength  # noqa: E402


def test_a_missed_target_is_exit_code_1(capsys):
    assert common.report_checks([("a", True), ("b", True)]) == 0
    assert common.report_checks([("a", True), ("b", False)]) == 1
    out, err = capsys.readouterr()
    assert "[MISSED] b" in out and "1 of 2 targets missed" in err


@pytest.mark.parametrize("share, code", [(0.9, 0), (0.4, 1)])
def test_the_strength_benchmark_fails_on_a_missed_target(monkeypatch, capsys, share, code):
    """Its table's verdict is its exit code (the games are replaced by a fixed score: the subject is the code)."""
    monkeypatch.setattr(strength, "pooled", lambda name, *a: (share * 200, 200, 2, 0.0))
    assert strength.main(["valhalla"]) == code
    assert ("miss the target" in capsys.readouterr().err) == bool(code)

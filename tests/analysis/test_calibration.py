"""The judge's win probabilities are win probabilities (issue 50, point 1): predicted against observed in bins
of at least 200 positions, within their intervals (:mod:`toolkit.analysis.calibration`), in every game; and
the searches cut off and scored by a heuristic fail the same check (the negative control: the check can tell).

The judge here is smaller than the shipped one (``mcts:10:0:flat`` against :data:`toolkit.analysis.decisions.
JUDGE`, ``mcts:200:0:flat``): flat, an option's value is the mean of results played out after it whatever the
budget, so the unit does not depend on it, and the bins are sorted by one search and read from another, so
the smaller search's noise does not bias them.
``benchmarks/calibration.py`` runs the shipped judge on 2,400 positions a game, in ten bins.

The intervals are Wilson's, Bonferroni-corrected for every interval the file checks (six games, three bins and
the whole each): with 24 intervals at 95% each, a calibrated judge would miss one in most runs (seen: Halali's
middle bin, 0.445 predicted against 0.530 [0.446, 0.612] observed, at 2.4 standard errors; on 2,400 positions
in ten bins every Halali bin is inside).  Fixed seeds: the positions, searches and results are the
same on every run.

Breaks seen red: the judge's default cut off again (``JUDGE = "mcts:200"``:
``test_every_judge_of_the_toolkit_plays_to_the_end``); the observed games played on the game's own streams
(``calibration.positions`` without its fresh streams: Valhalla's real-game check, observed 0.40 against 0.50).
"""

from __future__ import annotations

import functools
from statistics import NormalDist

import numpy as np
import pytest

from toolkit.analysis import calibration, decisions
from toolkit.core import mcts
from toolkit.core.runner import get_spec
from toolkit.viz import viewer

JUDGE = "mcts:10:0:flat"
BINS = 3
POSITIONS = 200 * BINS

# played on in the real game where nothing is hidden (Pig, Valhalla: a world is the game itself), and in the
# worlds the deciding seat can see (what the search imagines) where something is: the search deals the
# unseen cards or tiles uniformly, while the real hands are what the players kept (benchmarks/calibration.py
# measures that gap on the real games)
CASES = [("pig", False), ("valhalla", False)] + [(g, True) for g in ("herrlof", "halali", "attila", "walhalla")]
Z = NormalDist().inv_cdf(1 - 0.025 / (len(CASES) * (BINS + 1)))  # every interval of the file held together at 95%


def _table(rows) -> str:
    return "; ".join(f"predicted {p:.3f}, observed {o:.3f} [{lo:.3f}, {hi:.3f}] of {k}"
                     for p, o, lo, hi, k, _ in rows)


@functools.lru_cache(maxsize=None)
def judged(game: str, world: bool, judge: str = JUDGE):
    """The positions of a case, played once for the tests of this file that read them."""
    return calibration.positions(game, POSITIONS, judge, seed=50, world=world)


@pytest.mark.parametrize("game, world", CASES, ids=[f"{g}-{'worlds' if w else 'real'}" for g, w in CASES])
def test_the_judge_is_calibrated(game, world):
    binned, predicted, observed = judged(game, world)
    rows = calibration.reliability(binned, predicted, observed, bins=BINS, z=Z)
    assert len(rows) == BINS and all(k >= 200 for *_, k, _ in rows), _table(rows)
    assert all(inside for *_, inside in rows), _table(rows)
    (whole,) = calibration.reliability(binned, predicted, observed, bins=1, z=Z)  # and all positions as one bin
    assert whole[5], _table([whole])


def test_a_search_cut_off_is_not_calibrated():
    """The negative control: Halali's ``mcts`` players cut their rollouts off after 16 plies and score the
    leaves 1, 1/2 or 0 by who is ahead; read as win probabilities, some bin misses, at the file's size and
    level.  (Valhalla's cut-off map, off by about 0.08 in its outer bins, is beyond this size: the next test
    states what it can see; ``benchmarks/calibration.py`` measures both maps on 2,000 positions or more.)"""
    assert mcts.depth_of(get_spec("halali").kernel, "mcts:40") == 16
    binned, predicted, observed = calibration.positions("halali", POSITIONS, "mcts:40", seed=50, world=True)
    rows = calibration.reliability(binned, predicted, observed, bins=BINS, z=Z)
    assert not all(inside for *_, inside in rows), _table(rows)


def test_what_the_check_can_see():
    """The power of the check at this size and level, on Valhalla's played-out positions: predictions 0.12 too
    high or too low miss a bin; 0.04 off, none does.  The check sees an error of about 0.1 in a bin, not less
    (``benchmarks/calibration.py``, ten bins of 240 positions, sees about 0.09 in a bin)."""
    binned, predicted, observed = judged("valhalla", False)

    def missed(shift):
        shifted = np.clip(predicted + shift, 0.0, 1.0)
        return [r for r in calibration.reliability(binned, shifted, observed, bins=BINS, z=Z) if not r[5]]

    assert missed(0.12) and missed(-0.12)
    assert not missed(0.04) and not missed(-0.04) and not missed(0.0)


def test_every_judge_of_the_toolkit_plays_to_the_end():
    """The decisions' judge, the viewer's "what mcts thinks" and its swings rate in win probability in every
    game (their rollouts are played to the end), and a judge cut off is refused or named a score."""
    for game in ("pig", "valhalla", "herrlof", "halali", "attila", "walhalla"):
        kernel = get_spec(game).kernel
        for judge in (decisions.JUDGE, viewer.JUDGE, viewer.SWING_JUDGE):
            assert mcts.depth_of(kernel, judge) == 0 and mcts.parse(judge)[3] == mcts.FLAT, (game, judge)
    with pytest.raises(ValueError, match=r"judge='mcts:200' is not allowed: in Attila its rollouts are cut off "
                                         r"after 16 plies .* a score, not a win probability"):
        decisions.decisions("attila", n_games=2, judge="mcts:200")
    assert mcts.unit_of(0) == "win probability" and mcts.unit_of(16) == "score"

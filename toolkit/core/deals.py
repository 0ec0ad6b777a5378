"""Replaying a run's deals, for the simulated odds shown beside the exact ones (``GameSpec.simulated_odds``).

The exact odds of most games are about the deal or set-up (a hand, the tiles
laid out), which a run's records do not hold.  But game ``g`` of a run seeded
``s`` draws its set-up from the chance stream ``Stream(s, g, CHANCE)`` alone,
and each game's pure-Python reference set-up draws from it exactly as the
kernel does (the equality tests check it game for game).  So running the
reference set-up on that stream gives the very deal the run's game ``g`` was
played from, without the kernel and without playing the game on.

Each game's ``odds.samples(frame, rules, policies)`` collects, per row of its
``summary``, one value per replayed deal that shows the quantity (an
indicator for a probability, the measured number for a mean), and
``odds.simulated`` is :func:`sample_means` of them.
"""

from __future__ import annotations

import numpy as np

SAMPLE_DEALS = 10_000  # deals replayed per run (a game whose set-up is slower replays fewer, see its odds.py)


def replayed_games(frame, rules, policies=None, limit: int = SAMPLE_DEALS) -> tuple[int, np.ndarray]:
    """``(seed, game indices)`` of the first ``min(len(frame), limit)`` rows of a run's frame.

    The deals are the run's only if they are replayed under the run's rules
    (another deck deals other cards) and, where a policy's choice is replayed,
    its policies, so a frame that records them (``attrs["rules"]``,
    ``attrs["policies"]``) must agree with ``rules`` and ``policies``.

    Raises
    ------
    ValueError
        If the frame's recorded rules or policies are not ``rules`` and ``policies``.

    Examples
    --------
    >>> import pandas as pd
    >>> from toolkit.games.attila.rules import Rules
    >>> frame = pd.DataFrame({"game_index": [7, 8, 9]})
    >>> frame.attrs["seed"] = 5
    >>> replayed_games(frame, Rules(), limit=2)
    (5, array([7, 8]))
    """
    recorded = frame.attrs.get("rules")
    if recorded is not None and type(rules).from_json(recorded) != rules:
        raise ValueError("rules is not allowed: the frame's games were played under other rules "
                         f"({recorded}), so replaying these would not give the run's deals")
    recorded = frame.attrs.get("policies")
    if recorded is not None and policies is not None and list(policies) != list(recorded):
        raise ValueError(f"policies={','.join(policies)!r} is not allowed: the frame's games were played by "
                         f"{','.join(recorded)}")
    return int(frame.attrs["seed"]), frame["game_index"].to_numpy()[:limit]


def sample_means(samples: dict, quantities) -> dict[str, float]:
    """The mean of each non-empty sample whose name is one of ``quantities`` (a ``summary``'s rows).

    Rows a game's ``summary`` leaves out for these rules (a zero probability,
    a peninsula label that does not apply) are dropped here, so the keys are
    exactly the summary's strings.

    Examples
    --------
    >>> sample_means({"P(a)": [1, 0, 0, 1], "P(b)": [], "mean c": [2, 4]}, ["P(a)", "P(b)"])
    {'P(a)': 0.5}
    """
    wanted = set(quantities)
    return {q: float(np.mean(v)) for q, v in samples.items() if q in wanted and len(v) > 0}

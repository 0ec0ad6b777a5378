"""Paired comparison of two rule sets or two policy line-ups on common seeds.

Both variants play games ``0 .. n_games - 1`` of the same seed, so game ``g``
of variant A and game ``g`` of variant B see the same chance stream (the same
throws, the same start-throw sequence).  The per-game differences then have
far less variance than two independent runs would: the standard error of the
difference is reported both ways (``se`` paired, ``se_unpaired``).
"""

from __future__ import annotations

from toolkit.core.runner import get_spec, resolve_rules, simulate
from toolkit.core.stats import paired_difference


def paired(game, n_games: int = 10_000, *, seed: int = 0, rules_a=None, rules_b=None, policies_a=None,
           policies_b=None, column: str = "win_0", threads=None, progress=None) -> dict:
    """Mean difference of ``column`` between variant A and variant B on common seeds.

    Examples
    --------
    >>> from toolkit.games.valhalla.rules import Rules
    >>> d = paired("valhalla", 2000, seed=3, rules_b=Rules(zero_runes_value=4), column="turns", progress=False)
    >>> d["games"]
    2000
    """
    spec = get_spec(game)
    rules_a = resolve_rules(spec, rules_a)
    rules_b = resolve_rules(spec, rules_b)
    a = simulate(spec, rules_a, n_games, seed=seed, policies=policies_a, threads=threads, progress=progress)
    b = simulate(spec, rules_b, n_games, seed=seed, policies=policies_b, threads=threads, progress=progress)
    if column not in a.columns:
        raise ValueError(f"column={column!r} is not allowed: one of {', '.join(map(str, a.columns))}")
    out = paired_difference(a[column].to_numpy(), b[column].to_numpy())
    out.update({"column": column, "seed": seed, "rules_a": rules_a.changed(), "rules_b": rules_b.changed(),
                "policies_a": a.attrs["policies"], "policies_b": b.attrs["policies"]})
    return out

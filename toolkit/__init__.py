"""toolkit: what are the odds, and is this rule fair? Simulators for five Nordic tabletop games.

>>> import toolkit
>>> df = toolkit.simulate("valhalla", n_games=1000, seed=1, progress=False)
>>> toolkit.win_rates(df)[["seat", "win_rate"]].shape
(2, 2)
"""

from toolkit._version import __version__  # noqa: E402,F401

from toolkit.core.results import load, save  # noqa: E402
from toolkit.core.runner import Summary, simulate  # noqa: E402
from toolkit.core.stats import paired_difference, wilson, win_rates  # noqa: E402
from toolkit.games import GAMES  # noqa: E402


def rules(game: str, preset: str = "standard", *, file=None, **overrides):
    """The ``Rules`` of ``game`` for a preset, with overrides; or, with ``file``, those of a variant file
    (:mod:`toolkit.core.variants`: a ``.toml`` variant or a run's sidecar) with the overrides on top."""
    from toolkit.core.runner import get_spec

    spec = get_spec(game)
    if file is None:
        return spec.Rules.preset(preset, **overrides)
    from toolkit.core import variants

    if preset != "standard":
        raise ValueError(f"preset={preset!r} is not allowed with file={str(file)!r}: the variant file names the preset "
                         f"it starts from")
    base = variants.load_rules(file, spec.name)
    return base.replace(**overrides) if overrides else base


def load_rules(path):
    """The rules of the variant file ``path`` (any game's: the file names it); see :mod:`toolkit.core.variants`."""
    from toolkit.core import variants

    return variants.load_rules(path)


def save_rules(rules, path, name: str | None = None, note: str = "", preset: str | None = None):
    """Write ``rules`` as a variant file (``.toml``) that ``--rules FILE`` and :func:`load_rules` read back."""
    from toolkit.core import variants

    return variants.save(rules, path, name, note, preset)


def odds(game: str, rules=None, preset: str = "standard"):
    """The exact odds table of ``game`` (a DataFrame)."""
    from toolkit.core.runner import get_spec, resolve_rules

    spec = get_spec(game)
    return spec.odds(resolve_rules(spec, rules, preset if rules is None else None))


def compare(game: str, policies, n_games: int = 10_000, **kwargs):
    """Every ordered pair of ``policies`` (see :func:`toolkit.analysis.tournament.compare`)."""
    from toolkit.analysis.tournament import compare as _compare

    return _compare(game, policies, n_games, **kwargs)


def paired(game: str, n_games: int = 10_000, **kwargs):
    """Two rule sets or policy line-ups on common seeds (see :func:`toolkit.analysis.paired.paired`)."""
    from toolkit.analysis.paired import paired as _paired

    return _paired(game, n_games, **kwargs)


def settle(game: str, rules=None, baseline=None, **kwargs):
    """Play a change and its baseline on common seeds in batches until the difference is shown, or shown
    smaller than a tolerance, or the budget is spent (see :func:`toolkit.analysis.settle.settle`)."""
    from toolkit.analysis.settle import settle as _settle

    return _settle(game, rules, baseline, **kwargs)


def ladder(game: str, rules=None, **kwargs):
    """Ratings and play-dependent design metrics from weak to strong policies (see
    :func:`toolkit.analysis.strength.ladder`)."""
    from toolkit.analysis.strength import ladder as _ladder

    return _ladder(game, rules, **kwargs)


def tune(game: str, targets, vary, trials: int = 40, n_games: int = 20_000, **kwargs):
    """The rules of ``vary`` whose design metrics come nearest ``targets`` (see
    :func:`toolkit.analysis.tuning.tune`)."""
    from toolkit.analysis.tuning import tune as _tune

    return _tune(game, targets, vary, trials, n_games, **kwargs)


__all__ = ["GAMES", "Summary", "compare", "ladder", "load", "load_rules", "odds", "paired", "paired_difference", "rules", "save", "save_rules",
           "settle", "simulate", "tune", "wilson", "win_rates"]

"""Conformance: reference <=> kernel equal, game for game, on every game's equality cases
(docs/architecture.md decision 1; issue 15, point 5).

For each case, every column of the pure-Python reference's record (``GameSpec.play_reference``) must
equal the Numba kernel's row for the same ``(seed, game index)``, and the kernel runs with its §7 checks
on (``check=True``): a violation in any game fails the case.  Both draw from the same streams in the same
order and list options in the canonical order of spec §5, so any difference is a bug in one of them.

The cases are data, declared beside each game's scenario tests: ``EQUALITY`` in
``tests/games/<game>/<game>_configs.py``, each ``(config, policies, seed, games)`` or with a fifth item,
a dict of ``set`` (rules changed for the case), ``first_game`` and ``expect`` (``(what, check)``:
``check(frame)`` must hold on the kernel's games, so that the configuration really reaches the rules it
is there to test; ``frame`` has the kernel's columns with their category labels).  Where the reference
is slow (a lookahead's rollouts in pure Python) the cases are few games.

One class per game of the suite (made below from ``conformance_games.NAMES``: the registered games and the
test-only ones), so that pytest-xdist's
``--dist loadscope`` spreads the games over the workers.
"""

from __future__ import annotations


import numpy as np
import pandas as pd
import pytest

import toolkit
from conformance_games import NAMES
from game_data import game_configs

pytestmark = pytest.mark.slow  # the reference plays thousands of games: started first (tests/conftest.py)



def cases(name):
    module = game_configs(name)
    for case in module.EQUALITY:
        config, policies, seed, games, *more = case
        options = more[0] if more else {}
        rules = module.CONFIGS[config]
        if "set" in options:
            rules = rules.replace(**options["set"])
        label = f"{config}-{'-'.join(policies)}-{seed}-{games}"
        yield pytest.param(rules, tuple(policies), seed, games, options, id=label)


def kernel_rows(name, rules, policies, seed, first_game, games) -> np.ndarray:
    """The kernel's rows (every column of ``GameSpec.columns``), its §7 checks on."""
    spec = toolkit.GAMES[name]
    out = np.zeros((games, len(spec.columns)), np.int32)
    violations = np.zeros(games, np.int32)
    spec.play_many(*spec.prepare(rules, policies), seed, first_game, out, violations, True)
    bad = np.flatnonzero(violations)
    assert bad.size == 0, f"game {first_game + bad[0]}: §7 violation {violations[bad[0]]} in the kernel"
    return out


def differences(name, rules, policies, seed, games, first_game=0, rows=None) -> str | None:
    """The first game whose reference row differs from the kernel's (``rows``, else played here)."""
    spec = toolkit.GAMES[name]
    if rows is None:
        rows = kernel_rows(name, rules, policies, seed, first_game, games)
    columns = list(spec.columns)
    wrong = 0
    first = None
    for i in range(games):
        expected = spec.play_reference(rules, seed, first_game + i, policies)
        got = dict(zip(columns, rows[i].tolist()))
        if got != {c: int(expected[c]) for c in columns}:
            wrong += 1
            if first is None:
                detail = ", ".join(f"{c}: reference {expected[c]} kernel {got[c]}" for c in columns
                                   if got[c] != expected[c])
                first = f"game {first_game + i}: {detail}"
    return None if wrong == 0 else f"{wrong} of {games} games differ (policies {policies}, seed {seed}); first {first}"


def labelled(name, rows) -> pd.DataFrame:
    """The kernel's rows as a frame, its coded columns as their labels (what ``expect`` checks)."""
    spec = toolkit.GAMES[name]
    frame = pd.DataFrame(rows, columns=list(spec.columns))
    for column, labels in spec.categories.items():
        frame[column] = pd.Categorical.from_codes(frame[column].to_numpy(), categories=list(labels))
    return frame


class EqualityCases:
    game: str = ""

    def test_reference_equals_kernel(self, rules, policies, seed, games, options):
        first_game = options.get("first_game", 0)
        rows = kernel_rows(self.game, rules, policies, seed, first_game, games)
        assert differences(self.game, rules, policies, seed, games, first_game, rows) is None
        if "expect" in options:
            what, check = options["expect"]
            assert check(labelled(self.game, rows)), f"the games do not reach what the case is for: {what}"


def pytest_generate_tests(metafunc):
    if metafunc.cls is not None and issubclass(metafunc.cls, EqualityCases):
        metafunc.parametrize("rules,policies,seed,games,options", list(cases(metafunc.cls.game)))


for _name in sorted(NAMES):
    _title = f"TestEquality{_name.title()}"
    globals()[_title] = type(_title, (EqualityCases,), {"game": _name})


def test_every_game_declares_equality_cases_with_every_policy():
    for name, spec in toolkit.GAMES.items():
        declared = game_configs(name).EQUALITY
        assert declared, name
        seen = {p.partition(":")[0] for case in declared for p in case[1]}
        assert seen >= set(spec.policies), f"{name}: no equality case plays {set(spec.policies) - seen}"


def test_a_kernel_that_differs_is_reported():
    """Negative control: rows of another seed are not the reference's games."""
    name = "valhalla"
    rules = toolkit.rules(name)
    other = kernel_rows(name, rules, ("random", "random"), 2, 0, 20)
    found = differences(name, rules, ("random", "random"), 1, 20, rows=other)
    assert found is not None and found.startswith("20 of 20") or found.split(" of ")[0].isdigit()
    assert differences(name, rules, ("random", "random"), 2, 20, rows=other) is None


def test_an_expectation_that_fails_is_reported():
    """Negative control: a case whose ``expect`` does not hold fails its test."""
    case = EqualityCases()
    case.game = "valhalla"
    with pytest.raises(AssertionError, match="do not reach"):
        case.test_reference_equals_kernel(toolkit.rules("valhalla"), ("random", "random"), 3, 5,
                                          {"expect": ("a game longer than a million turns",
                                                      lambda frame: (frame["turns"] > 10**6).any())})

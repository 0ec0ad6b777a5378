"""How much a test's size buys: planted rule bugs, and which of them a check catches at a given size (issue 49).

Not a test (pytest collects no file here): a tool to run by hand before a check is made smaller, so that the
closing note can show the bugs it still catches.  ``mutants/<game>.py`` lists one-line bugs planted in the
game's pure-Python reference and its Python players, ``(path, old, new, what)``, each breaking one rule of the
spec, rare rules favoured (tie-breaks, variants, end-game corners).  A bug is planted by executing the
module's source with the one change *in place* (the module object keeps its identity, so everything that
reaches it through its module sees the bug); the compiled kernel is never touched, so nothing recompiles.

``python tests/power/power.py equality GAME [FACTOR]``
    For each bug, the first game of each equality case (``EQUALITY`` in the game's configs,
    ``tests/conformance/test_equality.py``) whose reference row differs from the kernel's; then which bugs a
    suite of the cases scaled by ``FACTOR`` (ceil, at least 2 games) would lose.  Games are prefix-stable
    (game ``g`` of a run is the same whatever the run's length), so one run at the declared sizes answers for
    every smaller one.

``python tests/power/power.py property GAME N [N ...]``
    Whether the game's property test (``test_random_rules_play_correctly``, hypothesis, derandomized) fails
    with each bug at each number of examples (shrinking off).  Hypothesis does not draw the first ``N`` of a
    longer run, so each size is run.

A bug whose text no longer occurs in its file stops the run with its index: the list follows the code.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import math
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "tests")]


def mutants(game: str) -> list:
    found: dict = {}
    exec((Path(__file__).parent / "mutants" / f"{game}.py").read_text(), found)
    return found["MUTANTS"]


class Planted:
    """The game's reference and policies modules, re-executable with one bug in them."""

    def __init__(self, game: str):
        self.modules = [importlib.import_module(f"toolkit.games.{game}.{m}") for m in ("reference", "policies")]
        self.sources = {m.__file__: Path(m.__file__).read_text() for m in self.modules}

    def load(self, texts) -> None:
        for m in self.modules:
            exec(compile(texts[m.__file__], m.__file__, "exec"), m.__dict__)

    def plant(self, k: int, path: str, old: str, new: str) -> None:
        texts = dict(self.sources)
        full = str(REPO / path)
        if texts[full].count(old) != 1:
            raise SystemExit(f"bug {k}: its text occurs {texts[full].count(old)} times in {path}: update the list")
        texts[full] = texts[full].replace(old, new)
        self.load(texts)

    def restore(self) -> None:
        self.load(self.sources)


def equality(game: str, factor: float) -> None:
    import numpy as np

    import toolkit
    from game_data import game_configs

    spec, configs = toolkit.GAMES[game], game_configs(game)
    cases = []
    for config, policies, seed, games, *more in configs.EQUALITY:
        options = more[0] if more else {}
        rules = configs.CONFIGS[config]
        rules = rules.replace(**options["set"]) if "set" in options else rules
        first = options.get("first_game", 0)
        rows = np.zeros((games, len(spec.columns)), np.int32)
        spec.play_many(*spec.prepare(rules, tuple(policies)), seed, first, rows, np.zeros(games, np.int32), True)
        cases.append((f"{config}-{'-'.join(policies)}-{seed}-{games}", rules, tuple(policies), seed, first, rows))

    def first_difference(case):
        _, rules, policies, seed, first, rows = case
        for i, row in enumerate(rows):
            try:
                expected = spec.play_reference(rules, seed, first + i, policies)
            except Exception:  # a bug that raises fails the test as surely as a row that differs
                return i
            if row.tolist() != [int(expected[c]) for c in spec.columns]:
                return i
        return None

    planted = Planted(game)
    assert all(first_difference(case) is None for case in cases), "the reference differs without a bug"
    lost = []
    for k, (path, old, new, what) in enumerate(mutants(game)):
        start = time.perf_counter()
        planted.plant(k, path, old, new)
        found = {case[0]: (first_difference(case), len(case[5])) for case in cases}
        planted.restore()
        caught = {c: i for c, (i, _) in found.items() if i is not None}
        smaller = {c for c, (i, n) in found.items() if i is not None and i < (n if n <= 2 else
                                                                               max(2, math.ceil(n * factor)))}
        if caught and not smaller:
            lost.append(k)
        print(f"[{k:2d}] {what[:72]:72s} caught by {len(caught)}/{len(cases)} cases, first at game "
              f"{min(caught.values(), default='-')}; x{factor}: {len(smaller)} ({time.perf_counter() - start:.0f} s)",
              flush=True)
    print(f"lost at x{factor}: {lost or 'none'}")


def properties(game: str, sizes: list[int]) -> None:
    from hypothesis import HealthCheck, Phase, settings

    folder = REPO / "tests" / "games" / game
    sys.path.insert(0, str(folder))
    path = next(folder.glob("test_properties*.py"))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    test = module.test_random_rules_play_correctly

    def fails(n: int) -> bool:
        # the test's own settings object, replaced (a second @settings is refused)
        test._hypothesis_internal_use_settings = settings(
            max_examples=n, deadline=None, derandomize=True, database=None, phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck))
        try:
            test()
        except Exception:
            return True
        return False

    assert not any(fails(n) for n in sizes), "the property test fails without a bug"
    planted = Planted(game)
    for k, (path, old, new, what) in enumerate(mutants(game)):
        planted.plant(k, path, old, new)
        row = {n: fails(n) for n in sizes}
        planted.restore()
        print(f"[{k:2d}] {what[:72]:72s} " + "  ".join(f"{n}: {'red' if r else 'green'}" for n, r in row.items()),
              flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="check", required=True)
    p = sub.add_parser("equality")
    p.add_argument("game")
    p.add_argument("factor", nargs="?", type=float, default=0.5)
    p = sub.add_parser("property")
    p.add_argument("game")
    p.add_argument("sizes", nargs="+", type=int)
    args = parser.parse_args(argv)
    if args.check == "equality":
        equality(args.game, args.factor)
    else:
        properties(args.game, args.sizes)


if __name__ == "__main__":
    main()

"""Run every benchmark (``make bench``) and print their tables: each registered game's own
(``benchmarks/<game>.py``, or the generic ``kernels.py`` for a game without one), the table of every
kernel against its reference, the compile times (cold and warm), the tree search's speed, the sweep and the export path."""

from __future__ import annotations

import importlib.util
import pathlib
import sys

import toolkit

HERE = pathlib.Path(__file__).parent


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    runs = [(game, game if (HERE / f"{game}.py").exists() else "kernels",
             [] if (HERE / f"{game}.py").exists() else [game]) for game in toolkit.GAMES]
    runs += [("kernels", "kernels", []), ("compile", "compile", []), ("mcts", "mcts", []), ("sweep", "sweep", []),
             ("export", "export", [])]
    for title, name, args in runs:
        print(f"== {title} ==")
        load(name).main(args + sys.argv[1:])
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())

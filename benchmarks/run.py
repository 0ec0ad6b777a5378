"""Run every game's benchmark (``make bench``) and print their tables."""

from __future__ import annotations

import importlib.util
import pathlib
import sys

HERE = pathlib.Path(__file__).parent
BENCHMARKS = ["valhalla", "herrlof", "halali", "attila", "walhalla", "sweep", "export"]  # one per game, the sweep, the export path


def main() -> int:
    for name in BENCHMARKS:
        spec = importlib.util.spec_from_file_location(f"bench_{name}", HERE / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print(f"== {name} ==")
        module.main(sys.argv[1:])
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What the test suite knows of each game besides its ``GameSpec``: the data declared beside the
game's own tests, in ``tests/games/<game>/<game>_configs.py`` (never a table here that names games).

=========================  ======================================================================
``CONFIGS``, ``EQUALITY``  rule configurations and the reference <=> kernel cases (test_equality)
``FIRST_MOVER_VARIANTS``   rule values that choose the first mover otherwise (test_first_seat; optional)
``first_mover``            ``(game, seat) -> seat`` where the first decision is not always the first
                           mover's (test_first_seat; optional: by default it is)
``MCTS_SCAN``              ``(rule overrides, seed, games)`` where seeded games hold a win in one for the
                           search to find, or the path of the game's own position test where they do
                           not (test_mcts_positions; required)
``PROTOCOL_LINEUP``        line-up -> the policy its seats play in test_protocol's lock step where the
                           line-up is too slow as it is (optional)
``trace``                  ``(reference, lines, rules, seed, game_index, policies)``: the golden
                           recorder's trace of one reference game, where the protocol's is not enough
                           (tests/golden/golden_record.py; optional)
``GOLDEN_SLOW``            line-ups whose golden traces and digests are the slow kind (optional)
=========================  ======================================================================
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

GAMES_DIR = Path(__file__).resolve().parent / "games"


@functools.lru_cache(maxsize=None)
def game_configs(name: str):
    """The module ``tests/games/<name>/<name>_configs.py``."""
    path = GAMES_DIR / name / f"{name}_configs.py"
    if not path.is_file():
        raise FileNotFoundError(f"{name}: no {path.relative_to(GAMES_DIR.parents[1])} (docs/adding-a-game.md, "
                                "step 10)")
    spec = importlib.util.spec_from_file_location(f"{name}_configs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

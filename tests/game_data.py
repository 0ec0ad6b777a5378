"""What the test suite knows of each game besides its ``GameSpec``: the data declared beside the
game's own tests, in ``tests/games/<game>/<game>_configs.py`` (never a table here that names registered games;
:data:`TEST_GAMES` says where the test-only games live, whose data are beside them).

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
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
GAMES_DIR = TESTS / "games"
# the test-only games: name -> the folder of its package, under tests/.  Never registered in toolkit/games: the
# conformance suite registers each around its modules (tests/conformance/conftest.py, conformance_games.py),
# and its data are ``<name>_configs.py`` in that folder, beside the game
TEST_GAMES = {"tiny": TESTS / "conformance" / "tiny"}


def local_package(name: str) -> str:
    """The package of the test-only game ``name`` (:data:`TEST_GAMES`), its folder's parent put on
    ``sys.path`` so that it imports."""
    folder = TEST_GAMES[name]
    if str(folder.parent) not in sys.path:
        sys.path.insert(0, str(folder.parent))
    return folder.name


def configs_path(name: str) -> Path:
    """Where game ``name`` declares its data: ``tests/games/<name>/<name>_configs.py``, or beside a test-only
    game's package."""
    if name in TEST_GAMES:
        local_package(name)  # its configs import its rules
        return TEST_GAMES[name] / f"{name}_configs.py"
    return GAMES_DIR / name / f"{name}_configs.py"


@functools.lru_cache(maxsize=None)
def game_configs(name: str):
    """The module ``tests/games/<name>/<name>_configs.py`` (a test-only game's beside it: :func:`configs_path`)."""
    path = configs_path(name)
    if not path.is_file():
        raise FileNotFoundError(f"{name}: no {path.relative_to(TESTS.parent)} (docs/adding-a-game.md, step 11)")
    spec = importlib.util.spec_from_file_location(f"{name}_configs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

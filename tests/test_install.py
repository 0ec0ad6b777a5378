"""The toolkit as an installed package: a wheel, installed outside the checkout, plays every game.

The wheel is built from a copy of the package sources (``pip wheel --no-deps``),
installed with ``pip install --no-deps --target`` into a temporary folder, and
run from another temporary folder with that folder first on ``PYTHONPATH``, so
neither the checkout nor its ``data/`` can be reached.  Every game is played
through the CLI (``toolkit simulate GAME -o GAME.csv``) and its rows must equal
the checkout's games of the same seed.

Compiling every kernel from cold in a fresh process takes two to three minutes
of one core (``benchmarks/compile.py``).  Only
:data:`COLD_GAME` is compiled from cold here, which shows that a fresh install
compiles and caches its kernels; the installed copy's Numba cache starts with
the checkout's entries of the other games (``make test`` runs ``toolkit warm``
first; a run by hand without it compiles them all here).  Numba files a cache entry under a hash of the source folder's path and
checks it against the hash of the source file's content; the digest of the sources that names the
cache directory (``toolkit.core.cache``) is the same for the installed copy, so the installed
files, byte for byte the checkout's, load those entries: the rows they play
are still the installed package's, compared below with the checkout's.  The
job is started in the background (``start_background``, called by
``conftest.py`` for tests marked ``background``) and runs on the second core
while the rest of the suite runs; the test waits for it and checks what it
produced.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import zipfile
from pathlib import Path

import pandas as pd
import pytest

import toolkit

REPO = Path(__file__).resolve().parent.parent
N_GAMES = 60
SEED = 5
JOB_TIMEOUT_S = 1500
COLD_GAME = "pig"  # the game the installed copy compiles from cold: the tutorial, the shortest compile

# run inside the installed copy: where toolkit comes from, where its data files are, then every game
DRIVER = """
import json, sys
import toolkit
from toolkit.cli import main
from toolkit.games.attila.board import resolve_path as attila_map
from toolkit.games.walhalla.data import DEFAULT_TILES, resolve_path as walhalla_file
report = {"toolkit": toolkit.__file__, "attila_map": str(attila_map("attila_map.json")),
          "walhalla_tiles": str(walhalla_file(None, DEFAULT_TILES)), "codes": {}}
for game in toolkit.GAMES:
    report["codes"][game] = main(["simulate", game, "-n", sys.argv[1], "--seed", sys.argv[2],
                                  "-o", game + ".csv", "--no-progress"])
print(json.dumps(report))
"""

_job: dict = {}
_lock = threading.Lock()


def _run(argv, **kwargs):
    done = subprocess.run(argv, capture_output=True, text=True, timeout=JOB_TIMEOUT_S, **kwargs)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, argv))} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done


def _seed_cache(installed: Path, cache: Path) -> list:
    """Copy the checkout's Numba cache entries of every package folder but :data:`COLD_GAME`'s to where
    Numba looks for those of the installed folder (``installed`` is the installed ``toolkit``); return
    the folders copied."""
    from numba.core.caching import _CacheLocator

    from toolkit.core.jit import CACHE_DIR

    checkout_cache = Path(CACHE_DIR)  # this version's directory (core.cache), the installed copy's too
    copied = []
    for folder in sorted({p.parent for p in (REPO / "toolkit").rglob("*.py")}):
        relative = folder.relative_to(REPO / "toolkit")
        if relative == Path("games", COLD_GAME):
            continue
        source = checkout_cache / _CacheLocator.get_suitable_cache_subpath(str(folder / "x.py"))
        if source.is_dir():
            shutil.copytree(source, cache / checkout_cache.name / _CacheLocator.get_suitable_cache_subpath(
                str(installed / relative / "x.py")))
            copied.append(relative.as_posix())
    return copied


def _build_install_play(root: Path) -> dict:
    """Build the wheel from a copy of the sources, install it under ``root/site``, play every game."""
    source = root / "source"
    shutil.copytree(REPO / "toolkit", source / "toolkit", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    wheels = root / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
          "-w", str(wheels), str(source)], cwd=root)
    wheel = next(wheels.glob("toolkit-*.whl"))
    site = root / "site"
    _run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site), str(wheel)],
         cwd=root)
    work = root / "work"
    work.mkdir()
    # no cache set: the installed copy keeps its compiled kernels in the user's cache directory
    # (core.cache; platformdirs reads XDG_CACHE_HOME on Linux), never in site-packages
    cache = root / "xdg" / "toolkit"
    seeded = _seed_cache(site / "toolkit", cache)
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "TOOLKIT_CACHE_DIR", "PYTHONSTARTUP")}
    env.update(PYTHONPATH=str(site), XDG_CACHE_HOME=str(root / "xdg"))
    played = _run([sys.executable, "-c", DRIVER, str(N_GAMES), str(SEED)], cwd=work, env=env)
    listed = _run([str(site / "bin" / "toolkit"), "list"], cwd=work, env=env)
    return {"root": root, "site": site, "work": work, "wheel": wheel, "cache": cache, "seeded": seeded,
            "report": json.loads(played.stdout.strip().splitlines()[-1]), "list": listed.stdout}


def start_background() -> None:
    """Start the job once (``conftest.py`` calls this when the test is collected)."""
    with _lock:
        if "thread" in _job:
            return
        root = Path(tempfile.mkdtemp(prefix="toolkit-wheel-"))
        atexit.register(shutil.rmtree, root, ignore_errors=True)

        def work():
            try:
                _job["result"] = _build_install_play(root)
            except BaseException as error:  # reported by the test
                _job["error"] = error

        _job["thread"] = threading.Thread(target=work, name="wheel-job", daemon=True)
        _job["thread"].start()


@pytest.fixture(scope="module")
def installed():
    start_background()
    _job["thread"].join(JOB_TIMEOUT_S)
    if "error" in _job:
        raise _job["error"]
    assert "result" in _job, f"the wheel job did not finish within {JOB_TIMEOUT_S} s"
    return _job["result"]


@pytest.mark.background
def test_wheel_carries_the_data_files(installed):
    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    for packaged in ("toolkit/games/attila/data/attila_map.json",
                     "toolkit/games/walhalla/data/walhalla_tiles.json",
                     "toolkit/games/walhalla/data/walhalla_dragons.json",
                     "toolkit/games/walhalla/data/walhalla_action_cards.json"):
        assert packaged in names
    # nothing of the checkout but the package itself
    assert not any(n.startswith(("tests/", "data/", "notebooks/", "benchmarks/")) for n in names)


@pytest.mark.background
def test_installed_package_runs_from_outside_the_checkout(installed):
    report, site = installed["report"], installed["site"]
    assert Path(report["toolkit"]).resolve().is_relative_to(site.resolve())
    for key in ("attila_map", "walhalla_tiles"):
        found = Path(report[key]).resolve()
        assert found.is_relative_to(site.resolve()) and found.is_file(), key
    assert not installed["work"].resolve().is_relative_to(REPO)
    # a fresh install compiles its kernels and caches them where Numba looks for the installed files
    from numba.core.caching import _CacheLocator

    assert f"games/{COLD_GAME}" not in installed["seeded"]
    from toolkit.core.jit import CACHE_DIR

    compiled = installed["cache"] / Path(CACHE_DIR).name / _CacheLocator.get_suitable_cache_subpath(
        str(site / "toolkit" / "games" / COLD_GAME / "kernel.py"))
    # the driver's block loop's cache files are named by its qualified name, play_block_random_<digest of its
    # scope> (core.driver.from_template; the CLI's default line-up is random), in the directory of this version
    # of the sources (core.cache)
    assert any(compiled.glob("kernel.play_block_random_*-*.nbi")), sorted(compiled.iterdir())
    assert not any(site.rglob("*.nbi")) and not any(site.rglob("*.nbc"))  # nothing cached in site-packages
    # the console script of the wheel lists every game
    assert [line.split()[0] for line in installed["list"].split("\n\n")[0].splitlines()[1:]] == list(toolkit.GAMES)


@pytest.mark.background
@pytest.mark.parametrize("game", list(toolkit.GAMES))
def test_installed_package_plays_the_same_games(installed, game):
    assert installed["report"]["codes"][game] == 0
    written = toolkit.load(installed["work"] / f"{game}.csv")
    here = toolkit.simulate(game, n_games=N_GAMES, seed=SEED, progress=False)
    assert written.attrs["game"] == game and written.attrs["seed"] == SEED
    assert written.attrs["rules"] == here.attrs["rules"]
    assert list(written.columns) == list(here.columns)
    assert written["game_index"].tolist() == list(range(N_GAMES))
    for column in here.columns:
        assert written[column].astype(str).tolist() == here[column].astype(str).tolist(), column
    assert len(pd.unique(written["plies"])) > 1  # real games, not a constant

"""Where compiled kernels are cached: one directory per version of every source they can depend on.

Numba checks a cached function against its own file only (the file's modification time and size).  A
kernel inlines helpers from other modules (``core/rng.py``, ``core/lookahead.py``, the driver's templates),
so an edit to one of those left the kernel running as its old compiled self until its cache was deleted:
a benchmark measured code that no longer existed (issue 35).  So the cache directory Numba is given is
named by a digest of every source under ``toolkit/core`` and ``toolkit/games`` (where all compiled code and
the constants it freezes live) and of the Python, NumPy, Numba and llvmlite versions: any edit there gives
a new, empty directory, and no compiled code can outlive its sources.

The root of those directories is, in order: ``TOOLKIT_CACHE_DIR``; ``NUMBA_CACHE_DIR`` (the Makefile sets
it to the checkout's ``.numba_cache``); else a per-user cache directory (``platformdirs``: on Linux
``~/.cache/toolkit``), so an installed wheel compiles once per machine and version, never into
site-packages.  :func:`configure` runs when ``toolkit.core.jit`` is imported, before any kernel is
decorated; it keeps the root in ``TOOLKIT_CACHE_DIR`` so that child processes (Dask workers, ``toolkit
warm``'s jobs, pytest-xdist workers) compute the same directory.  Directories of other digests are
removed once they have not been used for :data:`KEEP_DAYS` days, the newest :data:`KEEP` always kept.
"""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import sys
import time
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # the installed or checked-out ``toolkit``
COMPILED = ("core", "games")  # the folders whose sources compiled code can depend on
# a game's words and pictures (issue 38): plain Python over the reference that nothing compiled imports
# (tests/core/test_cache.py checks the imports), so an edit there recompiles nothing
NOT_COMPILED = ("view.py", "viz.py")
PREFIX = "kernels-"
KEEP = 3  # directories of other digests always kept (the newest), e.g. two branches in turn
KEEP_DAYS = 14  # older unused ones are removed


def source_digest(package: Path = PACKAGE) -> str:
    """Twelve hex digits of the BLAKE2 digest of every ``.py`` file under ``package``'s :data:`COMPILED`
    folders but the games' drawings and words (:data:`NOT_COMPILED`), path and content, in sorted order,
    and of the Python, NumPy, Numba and llvmlite versions."""
    import llvmlite
    import numba
    import numpy

    digest = hashlib.blake2b(digest_size=6)
    versions = (sys.version, platform.machine(), numpy.__version__, numba.__version__, llvmlite.__version__)
    digest.update("|".join(versions).encode())
    for folder in COMPILED:
        for path in sorted(p for p in (package / folder).rglob("*.py") if p.name not in NOT_COMPILED):
            digest.update(b"\0" + path.relative_to(package).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_root() -> Path:
    """The folder that holds the digest directories (module docstring)."""
    for variable in ("TOOLKIT_CACHE_DIR", "NUMBA_CACHE_DIR"):
        if os.environ.get(variable):
            return Path(os.environ[variable]).expanduser().resolve()
    import platformdirs

    return Path(platformdirs.user_cache_dir("toolkit", appauthor=False))


def cache_dir() -> Path:
    """The directory compiled kernels of these sources are kept in (created by :func:`configure`)."""
    return cache_root() / f"{PREFIX}{source_digest()}"


def configure() -> Path:
    """Point Numba's cache at :func:`cache_dir` (created, and older digests pruned), return it."""
    from numba.core import config

    root = cache_root()
    directory = root / f"{PREFIX}{source_digest()}"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        os.utime(directory)  # "used now", for the pruning of other processes
    except OSError:  # an unwritable root: Numba then looks for its next cache locator, or compiles
        pass
    os.environ["TOOLKIT_CACHE_DIR"] = str(root)
    os.environ["NUMBA_CACHE_DIR"] = str(directory)  # Numba's reload_config() reads it again
    config.CACHE_DIR = str(directory)
    prune(root, keep=directory)
    return directory


def prune(root: Path, keep: Path, now: float | None = None) -> list[Path]:
    """Remove the digest directories under ``root`` other than ``keep`` and the newest :data:`KEEP`
    others that were last used more than :data:`KEEP_DAYS` days ago; return those removed."""
    now = time.time() if now is None else now
    try:
        others = sorted((p for p in root.glob(PREFIX + "*") if p.is_dir() and p != keep),
                        key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return []
    removed = []
    for old in others[KEEP:]:
        try:
            if now - old.stat().st_mtime > KEEP_DAYS * 86_400:
                shutil.rmtree(old, ignore_errors=True)
                removed.append(old)
        except OSError:
            continue
    return removed

"""The conformance suite's set-up: the test-only games (Tiny, ``conformance_games.py``) are registered while
each conformance module runs, and unregistered after it, so that a test elsewhere in the same process (the CLI's,
the report's, ``tests/conftest.py``'s session check) never sees them; and their compiled code is never older than
their sources (:func:`drop_stale_compiled_code`)."""

from __future__ import annotations

import fcntl
import hashlib
import shutil
import sys
from pathlib import Path

import pytest

from conformance_games import SPECS, TEST_GAMES, registered


def drop_stale_compiled_code(folder) -> bool:
    """Drop the cached compiled code of the test-only game in ``folder`` if any of its sources changed since it
    was cached; True if it did.

    Numba checks a cached function against its own file only, so a kernel's compiled copies (filed beside its
    ``kernel.py``) would outlive an edit of the ``mechanics.py`` they inline, or of the layout constants those
    freeze (issue 35).  The toolkit's cache directory is named by a digest of every source under ``toolkit/``
    (``toolkit.core.cache``), which a game under ``tests/`` is not: here the folder Numba caches the game's
    files in (one for all of them: Numba names it by their directory) holds a digest of its sources, and is
    emptied when they no longer match (under a lock: pytest-xdist's workers start together)."""
    from numba.core.caching import _CacheLocator

    from toolkit.core.cache import NOT_COMPILED  # a game's words and pictures
    from toolkit.core.jit import CACHE_DIR  # the toolkit's cache directory, configured on this import

    sources = sorted(p for p in folder.glob("*.py") if p.name not in NOT_COMPILED and not p.name.startswith("test_"))
    digest = hashlib.blake2b(digest_size=8)
    for path in sources:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    cached = Path(CACHE_DIR) / _CacheLocator.get_suitable_cache_subpath(sources[0])
    cached.parent.mkdir(parents=True, exist_ok=True)
    with open(cached.parent / f".{cached.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        marker = cached / "sources.digest"
        if marker.is_file() and marker.read_text() == digest.hexdigest():
            return False
        shutil.rmtree(cached, ignore_errors=True)
        cached.mkdir()
        marker.write_text(digest.hexdigest())
        return True


for _folder in TEST_GAMES.values():
    drop_stale_compiled_code(_folder)


@pytest.fixture(scope="module", autouse=True)
def registered_test_games():
    """The test-only games in ``toolkit.GAMES`` for the module (module-scoped, so that a module's fixtures see
    them too)."""
    with registered():
        yield


@pytest.fixture(scope="session", autouse=True)
def compiled_once_test_games():
    """``tests/conftest.py``'s ``compiled_once`` for the test-only games, which it does not see (they are
    unregistered by then): each copy of their ``play_many`` compiled at most once in the session."""
    yield
    twice = {}
    for name in TEST_GAMES:
        spec = SPECS[name]
        if f"{spec.package}.kernel" not in sys.modules:  # never loaded: nothing compiled
            continue
        for attribute in ("plain", "searching", "random", "whole"):
            signatures = getattr(spec.play_many, attribute).signatures
            if len(signatures) > 1:
                twice[f"{name} ({attribute})"] = [str(s) for s in signatures]
    assert not twice, f"a test compiled a game's play_many again, for other argument types: {twice}"

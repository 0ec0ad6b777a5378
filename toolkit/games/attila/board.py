"""The Attila map (spec §2.1): provinces, start provinces and adjacency, loaded and checked.

The default map is ``attila_map.json``, shipped in the package's ``data/`` folder
(a copy of the spec's designed substitute, ``docs/rules/attila_map.json``).  The ``map`` rule names any JSON file with the same four keys;
:func:`load_map` refuses a file whose adjacency is not a simple undirected
graph, whose graph is not connected, or whose start provinces are unknown,
with an error that names the ``map`` parameter and the problem.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from toolkit.core import datafiles

DEFAULT_MAP = "attila_map.json"
PACKAGE = "toolkit.games.attila"
DATA_DIR = datafiles.data_dir(PACKAGE)  # the packaged data files (importlib.resources)


@dataclasses.dataclass(frozen=True)
class Board:
    """A validated map; provinces are numbered in the file's (canonical) order."""

    ids: tuple  # province ids ("GIN", ...), canonical order
    names: tuple
    start: tuple  # indices of the start provinces, ascending
    neighbours: tuple  # neighbours[x]: the adjacent provinces of x, ascending (land borders and sea links)

    @property
    def n(self) -> int:
        return len(self.ids)

    def index(self, province_id: str) -> int:
        return self.ids.index(province_id)


def resolve_path(value: str):
    """``map`` as a readable file: a path as given, or else the packaged file of that name."""
    found = datafiles.resolve(value, PACKAGE)
    if found is None:
        raise ValueError(f"map={value!r} is not allowed: no such file ({datafiles.where(PACKAGE)})")
    return found


def _fail(value, problem):
    return ValueError(f"map={value!r} is not allowed: {problem}")


@functools.lru_cache(maxsize=16)
def load_map(value: str = DEFAULT_MAP) -> Board:
    """Load and check a map file (the ``map`` rule).

    Examples
    --------
    >>> board = load_map()
    >>> board.n, len(board.start)
    (25, 6)
    """
    path = resolve_path(value)
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise _fail(value, f"not readable JSON ({error})") from None
    for key in ("provinces", "start_provinces", "land_borders", "sea_links"):
        if key not in data:
            raise _fail(value, f"the key {key!r} is missing")
    try:
        ids = tuple(str(p["id"]) for p in data["provinces"])
        names = tuple(str(p.get("name", p["id"])) for p in data["provinces"])
    except (TypeError, KeyError):
        raise _fail(value, "provinces must be a list of {id, name}") from None
    if not ids:
        raise _fail(value, "there are no provinces")
    if len(set(ids)) != len(ids):
        raise _fail(value, "a province id appears twice")
    if len(ids) > 62:
        raise _fail(value, f"{len(ids)} provinces; at most 62 are supported")
    index = {p: i for i, p in enumerate(ids)}
    neighbours = [set() for _ in ids]
    seen = set()
    for key in ("land_borders", "sea_links"):
        for pair in data[key]:
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise _fail(value, f"{key} must hold pairs of province ids")
            a, b = (str(x) for x in pair)
            if a not in index or b not in index:
                raise _fail(value, f"{key} names an unknown province in {[a, b]}")
            if a == b:
                raise _fail(value, f"{key} has a self-loop on {a}")
            edge = frozenset((a, b))
            if edge in seen:
                raise _fail(value, f"the border {a}-{b} is listed twice")
            seen.add(edge)
            neighbours[index[a]].add(index[b])
            neighbours[index[b]].add(index[a])
    start = []
    for p in data["start_provinces"]:
        if str(p) not in index:
            raise _fail(value, f"start province {p!r} is not a province")
        start.append(index[str(p)])
    if not start or len(set(start)) != len(start):
        raise _fail(value, "start_provinces must name distinct provinces (at least one)")
    reached, frontier = {0}, [0]
    while frontier:
        x = frontier.pop()
        for y in neighbours[x]:
            if y not in reached:
                reached.add(y)
                frontier.append(y)
    if len(reached) != len(ids):
        missing = sorted(ids[i] for i in range(len(ids)) if i not in reached)
        raise _fail(value, f"the map is not connected ({', '.join(missing)} cannot be reached from {ids[0]})")
    return Board(ids=ids, names=names, start=tuple(sorted(start)),
                 neighbours=tuple(tuple(sorted(n)) for n in neighbours))

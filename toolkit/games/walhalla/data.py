"""Walhalla's fixed components (spec §2.1-§2.3): land tiles, dragons, action cards, loaded and checked.

The three files are shipped in the package's ``data/`` folder (``importlib.resources``):

- ``walhalla_tiles.json``: the 18 land tiles of §2.1, each two fields of
  different types; a wheat field carries its printed value 1..3;
- ``walhalla_dragons.json``: the 12 dragons ``D_c_j`` of §2.2 (colour c,
  coloured seat j);
- ``walhalla_action_cards.json``: the 5 card types of §2.3 with their default
  quantities (the ``action_deck`` rule may change the quantities, not the types).

The order of tiles and dragons in the files is canonical: setup shuffles them
by index, so reordering a file changes the games a seed produces.  Each loader
takes an optional path (a path, or the name of a packaged file), refuses a file
that breaks the spec with a ``ValueError`` naming the file and the problem,
and caches what it loaded.  The arrays the kernel uses are derived from the
loaded tuples (``TileSet.tile_types`` ...), a fresh array on each call.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections import Counter
import numpy as np

from toolkit.core import datafiles

PACKAGE = "toolkit.games.walhalla"
DATA_DIR = datafiles.data_dir(PACKAGE)  # the packaged data files (importlib.resources)
DEFAULT_TILES = "walhalla_tiles.json"
DEFAULT_DRAGONS = "walhalla_dragons.json"
DEFAULT_ACTION_CARDS = "walhalla_action_cards.json"

# field types (§2.1); the code of a type is its index
FIELD_TYPES = ("village", "forest", "cult", "wheat")
VILLAGE, FOREST, CULT, WHEAT = range(4)
WHEAT_VALUES = (1, 2, 3)
N_TILES = 18
TILES_PER_PAIR = 3  # each of the 6 type pairs appears 3 times

# colours and dragons (§2, §2.2): seat s plays colour s; dragon seats 0 bow, 1 middle, 2 stern
COLOURS = ("red", "blue", "green", "yellow")
N_COLOURS = 4
DRAGON_SEATS = 3
N_DRAGONS = N_COLOURS * DRAGON_SEATS

# action card types (§2.3), canonical order; the code of a type is its index
CARD_TYPES = ("axe", "shield", "horn", "walhalla", "plunder")
AXE, SHIELD, HORN, WALHALLA_CARD, PLUNDER = range(5)


@dataclasses.dataclass(frozen=True)
class TileSet:
    """The land tiles, in the file's (canonical) order."""

    ids: tuple  # tile ids ("VF1", ...)
    types: tuple  # types[t] = (type code of field 0, type code of field 1)
    values: tuple  # values[t] = (printed wheat value or 0, same for field 1)

    @property
    def n(self) -> int:
        return len(self.ids)

    @property
    def tile_types(self) -> np.ndarray:
        """``tile_types[t, i]``: type code (index into ``FIELD_TYPES``) of field i of tile t; shape (n, 2)."""
        return np.array(self.types, dtype=np.int64).reshape(self.n, 2)

    @property
    def tile_values(self) -> np.ndarray:
        """``tile_values[t, i]``: printed wheat value of field i of tile t, 0 if not wheat; shape (n, 2)."""
        return np.array(self.values, dtype=np.int64).reshape(self.n, 2)


@dataclasses.dataclass(frozen=True)
class DragonSet:
    """The dragons, in the file's (canonical) order."""

    ids: tuple  # "D_c_j"
    colours: tuple  # colours[d]: the colour (0..3) bound to dragon d's coloured seat
    seats: tuple  # seats[d]: which seat (0 bow, 1 middle, 2 stern) is coloured

    @property
    def n(self) -> int:
        return len(self.ids)

    @property
    def dragon_colour(self) -> np.ndarray:
        """``dragon_colour[d]``: colour of dragon d's coloured seat; shape (n,)."""
        return np.array(self.colours, dtype=np.int64)

    @property
    def dragon_seat(self) -> np.ndarray:
        """``dragon_seat[d]``: the coloured seat (0..2) of dragon d; shape (n,)."""
        return np.array(self.seats, dtype=np.int64)


@dataclasses.dataclass(frozen=True)
class ActionCards:
    """The action card types, in ``CARD_TYPES`` order, with their default quantities."""

    ids: tuple  # == CARD_TYPES
    names: tuple
    quantities: tuple  # default count of each type (the ``action_deck`` default)
    whens: tuple  # when the card is played
    effects: tuple  # one line each

    @property
    def deck(self) -> dict:
        """Card type -> default quantity (the ``action_deck`` rule's default)."""
        return dict(zip(self.ids, self.quantities))

    @property
    def total(self) -> int:
        return sum(self.quantities)


def resolve_path(path, default: str):
    """``path`` as a readable file: a path as given, or else the packaged file of that name;
    ``None`` is the packaged default."""
    found = datafiles.resolve(default if path is None else path, PACKAGE)
    if found is None:
        raise ValueError(f"Walhalla data file {str(path)!r} does not exist ({datafiles.where(PACKAGE)})")
    return found


def _read(path, default: str, what: str):
    """The JSON object in ``path``, and the error maker naming the file."""
    resolved = resolve_path(path, default)

    def fail(problem):
        return ValueError(f"Walhalla {what} file {str(resolved)!r} is not valid: {problem}")

    try:
        data = json.loads(resolved.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise fail(f"not readable JSON ({error})") from None
    if not isinstance(data, dict):
        raise fail("the file must hold a JSON object")
    return data, fail


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _items(data, key, fail):
    if key not in data:
        raise fail(f"the key {key!r} is missing")
    items = data[key]
    if not isinstance(items, list) or not all(isinstance(x, dict) for x in items):
        raise fail(f"{key!r} must be a list of objects")
    ids = [x.get("id") for x in items]
    if not all(isinstance(i, str) and i for i in ids):
        raise fail(f"every entry of {key!r} needs a non-empty string 'id'")
    repeated = sorted(i for i, k in Counter(ids).items() if k > 1)
    if repeated:
        raise fail(f"the id {repeated[0]!r} appears more than once")
    return items


@functools.lru_cache(maxsize=16)
def load_tiles(path=None) -> TileSet:
    """Load and check a tile set (§2.1).

    Examples
    --------
    >>> tiles = load_tiles()
    >>> tiles.n, tiles.tile_types.shape, int(tiles.tile_values.sum())
    (18, (18, 2), 18)
    """
    data, fail = _read(path, DEFAULT_TILES, "tile")
    items = _items(data, "tiles", fail)
    if len(items) != N_TILES:
        raise fail(f"there must be {N_TILES} tiles, not {len(items)}")
    types, values = [], []
    for tile in items:
        tid, fields = tile["id"], tile.get("fields")
        if not isinstance(fields, list) or len(fields) != 2:
            raise fail(f"tile {tid!r}: 'fields' must list exactly 2 field types")
        for f in fields:
            if f not in FIELD_TYPES:
                raise fail(f"tile {tid!r}: unknown field type {f!r} (one of {', '.join(FIELD_TYPES)})")
        if fields[0] == fields[1]:
            raise fail(f"tile {tid!r}: its two fields must have different types (both are {fields[0]!r})")
        codes = tuple(FIELD_TYPES.index(f) for f in fields)
        if WHEAT in codes:
            wheat = tile.get("wheat")
            if not _is_int(wheat) or wheat not in WHEAT_VALUES:
                raise fail(f"tile {tid!r}: its wheat field needs a printed value 'wheat' in 1..3 (got {wheat!r})")
        elif "wheat" in tile:
            raise fail(f"tile {tid!r}: has a 'wheat' value but no wheat field")
        types.append(codes)
        values.append(tuple(tile["wheat"] if c == WHEAT else 0 for c in codes))

    per_type = Counter(c for codes in types for c in codes)
    wrong = [f"{FIELD_TYPES[c]} {per_type[c]}" for c in range(4) if per_type[c] != 2 * N_TILES // 4]
    if wrong:
        raise fail(f"the {2 * N_TILES} fields must be 9 of each type (found {', '.join(wrong)})")
    per_pair = Counter(tuple(sorted(codes)) for codes in types)
    for a in range(4):
        for b in range(a + 1, 4):
            if per_pair[(a, b)] != TILES_PER_PAIR:
                raise fail(f"each type pair must appear {TILES_PER_PAIR} times; "
                           f"{FIELD_TYPES[a]}-{FIELD_TYPES[b]} appears {per_pair[(a, b)]} times")
    per_value = Counter(v for vs in values for v in vs if v)
    if any(per_value[v] != 3 for v in WHEAT_VALUES):
        found = ", ".join(f"{v}: {per_value[v]}" for v in WHEAT_VALUES)
        raise fail(f"the wheat values must be 1, 2 and 3, three of each (found {found})")
    for other in (VILLAGE, FOREST, CULT):
        pair_values = sorted(max(vs) for codes, vs in zip(types, values) if set(codes) == {other, WHEAT})
        if pair_values != list(WHEAT_VALUES):
            raise fail(f"the {FIELD_TYPES[other]}-wheat tiles must carry wheat values 1, 2, 3 "
                       f"(they carry {pair_values})")
    return TileSet(ids=tuple(t["id"] for t in items), types=tuple(types), values=tuple(values))


@functools.lru_cache(maxsize=16)
def load_dragons(path=None) -> DragonSet:
    """Load and check a dragon set (§2.2): one dragon ``D_c_j`` per colour c and coloured seat j.

    Examples
    --------
    >>> dragons = load_dragons()
    >>> dragons.n, dragons.ids[:4], dragons.dragon_seat[:4].tolist()
    (12, ('D_0_0', 'D_0_1', 'D_0_2', 'D_1_0'), [0, 1, 2, 0])
    """
    data, fail = _read(path, DEFAULT_DRAGONS, "dragon")
    items = _items(data, "dragons", fail)
    if len(items) != N_DRAGONS:
        raise fail(f"there must be {N_DRAGONS} dragons, not {len(items)}")
    for dragon in items:
        did, colour, seat = dragon["id"], dragon.get("colour"), dragon.get("seat")
        if not _is_int(colour) or not 0 <= colour < N_COLOURS:
            raise fail(f"dragon {did!r}: 'colour' must be an integer in 0..{N_COLOURS - 1} (got {colour!r})")
        if not _is_int(seat) or not 0 <= seat < DRAGON_SEATS:
            raise fail(f"dragon {did!r}: 'seat' must be an integer in 0..{DRAGON_SEATS - 1} (got {seat!r})")
    owners = Counter((d["colour"], d["seat"]) for d in items)
    for colour in range(N_COLOURS):
        for seat in range(DRAGON_SEATS):
            if owners[(colour, seat)] != 1:
                raise fail(f"there must be one dragon per colour and coloured seat; colour {colour} on seat "
                           f"{seat} has {owners[(colour, seat)]}")
    for dragon in items:
        if dragon["id"] != f"D_{dragon['colour']}_{dragon['seat']}":
            raise fail(f"dragon {dragon['id']!r}: its id must be D_{dragon['colour']}_{dragon['seat']} "
                       "(D_colour_seat)")
    return DragonSet(ids=tuple(d["id"] for d in items), colours=tuple(d["colour"] for d in items),
                     seats=tuple(d["seat"] for d in items))


@functools.lru_cache(maxsize=16)
def load_action_cards(path=None) -> ActionCards:
    """Load and check the action card types (§2.3): exactly ``CARD_TYPES``, in that order.

    Examples
    --------
    >>> cards = load_action_cards()
    >>> cards.deck, cards.total
    ({'axe': 8, 'shield': 6, 'horn': 8, 'walhalla': 4, 'plunder': 6}, 32)
    """
    data, fail = _read(path, DEFAULT_ACTION_CARDS, "action card")
    items = _items(data, "cards", fail)
    ids = tuple(c["id"] for c in items)
    if ids != CARD_TYPES:
        raise fail(f"the card types must be exactly {', '.join(CARD_TYPES)} in this order (found {', '.join(ids)})")
    for card in items:
        quantity = card.get("quantity")
        if not _is_int(quantity) or quantity < 0:
            raise fail(f"card {card['id']!r}: 'quantity' must be an integer >= 0 (got {quantity!r})")
        for key in ("effect", "when"):
            text = card.get(key)
            if not isinstance(text, str) or not text.strip() or "\n" in text:
                raise fail(f"card {card['id']!r}: {key!r} must be one non-empty line of text")
    if sum(c["quantity"] for c in items) < 1:
        raise fail("the deck must hold at least 1 card")
    return ActionCards(ids=ids, names=tuple(str(c.get("name", c["id"])) for c in items),
                       quantities=tuple(c["quantity"] for c in items),
                       whens=tuple(c["when"] for c in items), effects=tuple(c["effect"] for c in items))

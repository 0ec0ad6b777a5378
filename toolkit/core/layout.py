"""Offsets into the kernels' flat arrays, derived from names instead of numbered by hand.

A kernel writes its §6 record into one row of ``int32`` (``COLUMNS``, the names of the result
columns in order) and keeps a game's state in one ``int64`` array.  Numbering the offsets by hand
(``C_WINNER, C_WIN, C_SCORE = 0, 1, 3``) lets one inserted column shift everything after it
silently.  Here they are computed from the names when the module is imported, and every run a
kernel writes as ``offset + i`` is checked to lie where it assumes: a layout that does not fit
fails at import, naming the column.

- :func:`offset`: the index of a name, and of a run of names that must follow one another;
- :func:`seat_run`: ``<field>_0 .. <field>_{n-1}``;
- :class:`Layout`: named fields of a state array, each a number of slots, laid out in order.

Numba reads these module-level integers as compile-time constants, as it read the hand-written ones.
"""

from __future__ import annotations


def offset(columns, *names) -> int:
    """The index of ``names[0]`` in ``columns``, after checking that ``names`` stand there in order.

    >>> offset(("winner", "win_0", "win_1", "turns"), "win_0", "win_1")
    1
    >>> offset(("winner", "win_1", "win_0"), "win_0", "win_1")
    Traceback (most recent call last):
    ...
    ValueError: columns: 'win_1' is not at 3, 1 after 'win_0' (found none)
    """
    if not names:
        raise ValueError("offset needs at least one name")
    try:
        first = list(columns).index(names[0])
    except ValueError:
        raise ValueError(f"columns: no column {names[0]!r}") from None
    for k, name in enumerate(names):
        found = columns[first + k] if first + k < len(columns) else None
        if found != name:
            raise ValueError(f"columns: {name!r} is not at {first + k}, {k} after {names[0]!r} "
                             f"(found {found if found is not None else 'none'})")
    return first


def seat_run(columns, field: str, seats: int) -> int:
    """The index of ``<field>_0``, with ``<field>_1 .. <field>_{seats-1}`` right after it.

    >>> seat_run(("winner", "score_0", "score_1"), "score", 2)
    1
    """
    return offset(columns, *(f"{field}_{s}" for s in range(seats)))


def seat_count(columns, field: str = "win") -> int:
    """How many seats have a ``<field>_<seat>`` column (the seats a record has room for).

    >>> seat_count(("winner", "win_0", "win_1", "score_0"))
    2
    """
    prefix = f"{field}_"
    return sum(1 for c in columns if c.startswith(prefix) and c[len(prefix):].isdigit())


def block(columns, fields, seats: int) -> int:
    """The index of ``<fields[0]>_0``, with every ``<field>_<seat>`` after it, field by field.

    >>> block(("winner", "a_0", "a_1", "b_0", "b_1"), ("a", "b"), 2)
    1
    """
    return offset(columns, *(f"{f}_{s}" for f in fields for s in range(seats)))


class Layout:
    """Named fields of a flat array, laid out in the order given, each ``size`` slots long.

    >>> state = Layout(("board", 33), ("off", 2), ("turn", 1))
    >>> state.board, state.off, state.turn, state.size
    (0, 33, 35, 36)
    >>> state.names()[:2]
    ('board', 'off')
    """

    def __init__(self, *fields):
        self._fields = []
        at = 0
        for name, size in fields:
            if hasattr(self, name) or name in ("size", "names"):
                raise ValueError(f"Layout: field {name!r} twice or reserved")
            if size < 0:
                raise ValueError(f"Layout: field {name!r} has size {size}")
            setattr(self, name, at)
            self._fields.append((name, size))
            at += size
        self.size = at

    def names(self) -> tuple:
        return tuple(name for name, _ in self._fields)

    def __repr__(self) -> str:
        return f"Layout({', '.join(f'{n}[{s}]' for n, s in self._fields)}; size {self.size})"

"""Rule parameters declared once: default, bounds or choices, doc.

Every game's ``Rules`` is a frozen dataclass whose fields are made with
:func:`param`.  From that single declaration the toolkit derives

- validation (a bad value raises ``ValueError`` naming the parameter, the
  value and what is allowed),
- the CLI ``--set NAME=VALUE`` syntax (:meth:`Kind.parse`),
- the notebook widgets (``toolkit.viz.controls.control``; a set is a grid of checkboxes
  and a mapping a grid of labelled number boxes): this module imports nothing of the toolkit and no
  widget library, what a control holds comes back through :meth:`Kind.from_widget`,
- the JSON form written to CSV sidecars (:meth:`Kind.to_json` / ``from_json``),
- the ``toolkit rules GAME`` table (:meth:`Kind.allowed`).

Kinds cover every parameter the specs use:

============  ===========================  ==================================
kind          ``--set`` syntax             example (spec)
============  ===========================  ==================================
Int           ``max_turns=500``            ``ships_per_player`` 1..6
Float         ``p=0.4``                    ``stick_rune_up_probability`` (0,1)
Bool          ``x=true`` / ``false``       ``extra_throw_enabled``
Choice        ``setup=alternating_blocks`` ``throw_mode``
Optional      ``gap=none`` or ``gap=2``    ``two_player_second_place_gap``
IntSet        ``safe_squares=1,2,3,29``    ``safe_squares``, ``consolation_range``
ChoiceSet     ``v=natural_one,4,5``        ``extra_throw_values``
IntList       ``tiles=5,6,7``              ``peninsula_tiles``, ``walhalla_final_vp``
              or a named word ``draw_18``  (``IntList(..., named=("draw_18",))``)
Mapping       ``counts=bear:2,fox:6``      ``tile_counts``, ``action_deck``
DataFile      ``map=path/to/map.json``     Attila's ``map``
============  ===========================  ==================================

A default may depend on the player count: ``param(ByPlayers({2: 2, 3: None}),
...)`` resolves against the rules' ``num_players`` field when the rules are
built (Attila's two-player gap, Walhalla's start Midgard).
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}
# A set with more possible elements than this is typed as tags rather than ticked: Herrlof's
# consolation_range (0..100) would be 101 checkboxes, while Valhalla's squares (35) and Halali's
# exits (28) stay one click each.
MAX_CHECKBOXES = 64


def _fail(name: str, value: Any, allowed: str) -> ValueError:
    return ValueError(f"{name}={value!r} is not allowed: {allowed}")


class FrozenMap(Mapping):
    """An immutable, hashable mapping (rule values must be hashable)."""

    __slots__ = ("_d",)

    def __init__(self, items=()):
        self._d = dict(items)

    def __getitem__(self, key):
        return self._d[key]

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def __hash__(self):
        return hash(frozenset(self._d.items()))

    def __eq__(self, other):
        return isinstance(other, Mapping) and dict(self._d) == dict(other)

    def __repr__(self):
        return f"FrozenMap({self._d!r})"


# --------------------------------------------------------------------- kinds


class Kind:
    """How one parameter is checked, parsed, shown and serialised."""

    type_name: ClassVar[str] = "value"
    typed_widget: ClassVar[bool] = False  # the widget holds a value of the type, not a text (from_widget)

    def check(self, name: str, value: Any) -> Any:
        """Return the normalised value or raise ``ValueError``."""
        raise NotImplementedError

    def allowed(self) -> str:
        """What is allowed, in words (used in errors and ``toolkit rules``)."""
        raise NotImplementedError

    def parse(self, name: str, text: str) -> Any:
        """Parse the ``--set NAME=TEXT`` form."""
        return self.check(name, text)

    def format(self, value: Any) -> str:
        """The ``--set`` text of a value (inverse of :meth:`parse`)."""
        return str(value)

    def to_json(self, value: Any) -> Any:
        return value

    def from_json(self, name: str, obj: Any) -> Any:
        return self.check(name, obj)

    def from_widget(self, name: str, widget_value: Any) -> Any:
        """The value a widget holds: parsed from its text, or checked where the widget holds a typed
        value (``typed_widget``: sliders, checkboxes, drop-downs)."""
        return self.check(name, widget_value) if self.typed_widget else self.parse(name, widget_value)

    def word(self, value: Any) -> str:
        """A value in words, for a page: a choice's declared words, yes/no for a yes-or-no rule, else its
        ``--set`` text (which stays in the tooltips and the command lines)."""
        return self.format(value)


@dataclasses.dataclass(frozen=True)
class Int(Kind):
    low: int | None = None
    high: int | None = None
    type_name: ClassVar[str] = "int"
    typed_widget: ClassVar[bool] = True

    def allowed(self):
        lo = "-inf" if self.low is None else self.low
        hi = "inf" if self.high is None else self.high
        return f"an integer in {lo}..{hi}"

    def check(self, name, value):
        if isinstance(value, bool) or not isinstance(value, (int, str)) and not _is_integral_float(value):
            raise _fail(name, value, self.allowed())
        try:
            ivalue = int(value) if not isinstance(value, str) else int(value.strip())
        except ValueError:
            raise _fail(name, value, self.allowed()) from None
        if (self.low is not None and ivalue < self.low) or (self.high is not None and ivalue > self.high):
            raise _fail(name, value, self.allowed())
        return ivalue

def _range_text(low, high):
    return f"{'-inf' if low is None else low}..{'inf' if high is None else high}"


def _is_integral_float(value):
    return isinstance(value, float) and value.is_integer()


@dataclasses.dataclass(frozen=True)
class Float(Kind):
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    type_name: ClassVar[str] = "float"
    typed_widget: ClassVar[bool] = True

    def allowed(self):
        left = "(" if self.low_open or self.low is None else "["
        right = ")" if self.high_open or self.high is None else "]"
        lo = "-inf" if self.low is None else self.low
        hi = "inf" if self.high is None else self.high
        return f"a number in {left}{lo}, {hi}{right}"

    def check(self, name, value):
        if isinstance(value, bool):
            raise _fail(name, value, self.allowed())
        try:
            fvalue = float(value)
        except (TypeError, ValueError):
            raise _fail(name, value, self.allowed()) from None
        bad = not math.isfinite(fvalue)
        if self.low is not None:
            bad |= fvalue <= self.low if self.low_open else fvalue < self.low
        if self.high is not None:
            bad |= fvalue >= self.high if self.high_open else fvalue > self.high
        if bad:
            raise _fail(name, value, self.allowed())
        return fvalue

@dataclasses.dataclass(frozen=True)
class Bool(Kind):
    type_name: ClassVar[str] = "bool"
    typed_widget: ClassVar[bool] = True

    def allowed(self):
        return "true or false"

    def check(self, name, value):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        raise _fail(name, value, self.allowed())

    def format(self, value):
        return "true" if value else "false"

    def word(self, value):
        return "yes" if value else "no"

# a raw identifier in text a page shows: snake_case ("first_only") or a word glued to a number ("seat0");
# a square such as Halali's "d7:N" is the board's own notation
RAW_NAME = re.compile(r"\b[A-Za-z0-9]+_\w+|\b[A-Za-z]{2,}\d+\b")


def _check_words(choices: tuple, words: tuple) -> None:
    if words and len(words) != len(choices):
        raise TypeError(f"{len(words)} words for {len(choices)} choices {choices}")


def raw_choices(kind) -> list:
    """The choices of a ``Choice`` or ``ChoiceSet`` that a page would show as raw names because no words
    were declared for them (tests/core/test_words.py: none in any game)."""
    if kind.words:
        return []
    return [c for c in kind.choices if RAW_NAME.search(str(c))]


def _word_of(choices: tuple, words: tuple, value) -> str:
    for choice, word in zip(choices, words):
        if choice == value:
            return word
    return str(value)


@dataclasses.dataclass(frozen=True)
class Choice(Kind):
    """One of ``choices``; ``words`` (one per choice, in order) are what a page shows, the choice itself
    staying the ``--set`` text (``words`` may be left out where every choice is already a plain word)."""

    choices: tuple
    words: tuple = ()
    type_name: ClassVar[str] = "choice"
    typed_widget: ClassVar[bool] = True

    def __post_init__(self):
        _check_words(self.choices, self.words)

    def word(self, value):
        return _word_of(self.choices, self.words, value)

    def allowed(self):
        return "one of " + ", ".join(str(c) for c in self.choices)

    def check(self, name, value):
        for c in self.choices:
            if isinstance(value, bool) != isinstance(c, bool):
                continue  # True is not 1 here
            if value == c or (isinstance(value, str) and value.strip() == str(c)):
                return c
        if isinstance(value, str):
            for c in self.choices:
                if not isinstance(c, bool) and value.strip() == str(c):
                    return c
        raise _fail(name, value, self.allowed())

@dataclasses.dataclass(frozen=True)
class Optional(Kind):
    """Either ``None`` (written ``none``) or a value of ``inner``."""

    inner: Kind
    type_name: ClassVar[str] = "optional"

    def allowed(self):
        return f"none or {self.inner.allowed()}"

    def check(self, name, value):
        if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "null", "")):
            return None
        try:
            return self.inner.check(name, value)
        except ValueError:
            raise _fail(name, value, self.allowed()) from None

    def format(self, value):
        return "none" if value is None else self.inner.format(value)

    def to_json(self, value):
        return None if value is None else self.inner.to_json(value)


def _split(text: str) -> list[str]:
    text = text.strip().strip("{}[]()")
    return [t.strip() for t in text.split(",") if t.strip()] if text else []


def _checked_elements(kind, name, value, element, items=iter) -> list:
    """The elements of a set or list rule's ``value``, each checked by the ``element`` kind.

    ``value`` is an iterable or a comma-separated text (``{}[]()`` around it are dropped);
    ``items`` turns it into what ``element`` checks (an ``IntSet`` expands ``a..b``).  Whatever
    is wrong, the error names the whole value and what ``kind`` allows."""
    raw = value
    if isinstance(value, str):
        value = _split(value)
    if not isinstance(value, Iterable):
        raise _fail(name, raw, kind.allowed())
    try:
        return [element.check(name, v) for v in items(value)]
    except ValueError:
        raise _fail(name, raw, kind.allowed()) from None


def _expand_ranges(name, items, allowed):
    out = []
    for item in items:
        if isinstance(item, str) and ".." in item:
            a, _, b = item.partition("..")
            try:
                out.extend(range(int(a), int(b) + 1))
            except ValueError:
                raise _fail(name, item, allowed) from None
        else:
            out.append(item)
    return out


@dataclasses.dataclass(frozen=True)
class IntSet(Kind):
    """A set of integers, each within ``low..high``; ``a..b`` expands to a range."""

    low: int | None = None
    high: int | None = None
    min_size: int = 0
    type_name: ClassVar[str] = "set of int"

    def allowed(self):
        return f"a set of integers in {_range_text(self.low, self.high)}, comma-separated (a..b for a range)" + (
            f" with at least {self.min_size} element(s)" if self.min_size else "")

    def check(self, name, value):
        items = frozenset(_checked_elements(self, name, value, Int(self.low, self.high),
                                            lambda v: _expand_ranges(name, list(v), self.allowed())))
        if len(items) < self.min_size:
            raise _fail(name, value, self.allowed())
        return items

    def format(self, value):
        return ",".join(str(v) for v in sorted(value))

    def to_json(self, value):
        return sorted(value)

    def options(self) -> tuple | None:
        """Every allowed element, or ``None`` when too many to tick one by one (or unbounded)."""
        if self.low is None or self.high is None or self.high - self.low + 1 > MAX_CHECKBOXES:
            return None
        return tuple(range(self.low, self.high + 1))

@dataclasses.dataclass(frozen=True)
class ChoiceSet(Kind):
    """A subset of a fixed list of choices (kept in the choices' order)."""

    choices: tuple
    words: tuple = ()  # one per choice, as Choice's
    type_name: ClassVar[str] = "set of choice"

    def __post_init__(self):
        _check_words(self.choices, self.words)

    def word(self, value):
        """The chosen elements in words, in order."""
        return ", ".join(_word_of(self.choices, self.words, v) for v in value) or "none"

    def allowed(self):
        return "a subset of {" + ", ".join(str(c) for c in self.choices) + "}"

    def check(self, name, value):
        picked = set(_checked_elements(self, name, value, Choice(self.choices, self.words),
                                       lambda v: (x if isinstance(x, str) else str(x) for x in v)))
        return tuple(c for c in self.choices if c in picked)

    def format(self, value):
        return ",".join(str(v) for v in value)

    def to_json(self, value):
        return list(value)

    def options(self) -> tuple:
        """Every allowed element (a ``ChoiceSet`` is always shown as checkboxes)."""
        return tuple(self.choices)

    def from_widget(self, name, widget_value):
        return self.check(name, list(widget_value))


@dataclasses.dataclass(frozen=True)
class IntList(Kind):
    """An ordered list of integers with a fixed or bounded length.

    ``named`` lists words accepted instead of a list (the value is then that
    word, a ``str``): Walhalla's ``peninsula_tiles`` is ``6,6,6`` or
    ``draw_18``.  A word is kept as is in every form (``--set``, JSON, widget).
    """

    low: int | None = None
    high: int | None = None
    length: int | None = None
    named: tuple = ()
    type_name: ClassVar[str] = "list of int"

    def allowed(self):
        n = f"{self.length} " if self.length else ""
        text = f"a list of {n}integers in {_range_text(self.low, self.high)}"
        if self.named:
            text += ", or " + " or ".join(str(w) for w in self.named)
        return text

    def check(self, name, value):
        if isinstance(value, str) and value.strip() in self.named:
            return value.strip()
        items = tuple(_checked_elements(self, name, value, Int(self.low, self.high)))
        if self.length is not None and len(items) != self.length:
            raise _fail(name, value, self.allowed())
        return items

    def format(self, value):
        if isinstance(value, str):  # one of ``named``
            return value
        return ",".join(str(v) for v in value)

    def to_json(self, value):
        return value if isinstance(value, str) else list(value)


@dataclasses.dataclass(frozen=True)
class Mapping_(Kind):
    """A mapping from fixed keys to values of ``value`` kind (``a:1,b:2`` or JSON).

    With ``complete=True`` every key must be given; otherwise missing keys keep
    the default's value (merging happens in :func:`param`-built rules).
    """

    keys: tuple
    value: Kind
    complete: bool = True
    type_name: ClassVar[str] = "mapping"

    def allowed(self):
        return "a mapping {" + ", ".join(str(k) for k in self.keys) + "} -> " + self.value.allowed()

    def _key(self, name, key):
        for k in self.keys:
            if key == k or str(key).strip() == str(k):
                return k
        raise _fail(name, key, "keys must be among " + ", ".join(str(k) for k in self.keys))

    def _per_key(self, name, value, read) -> dict:
        """``value``, a mapping, with each key found among ``keys`` and each value read by
        ``read(f"{name}[{key}]", v)`` (the value kind's ``check`` or ``from_widget``)."""
        if not isinstance(value, Mapping):
            raise _fail(name, value, self.allowed())
        out = {}
        for k, v in value.items():
            key = self._key(name, k)
            out[key] = read(f"{name}[{key}]", v)
        return out

    def check(self, name, value):
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("{"):
                try:
                    value = json.loads(text)
                except json.JSONDecodeError:
                    raise _fail(name, value, self.allowed()) from None
            else:
                pairs = {}
                # values may themselves be lists written with '/' or ';': a:1/2/3
                for item in [t for t in text.split(",") if t.strip()]:
                    if ":" not in item:
                        raise _fail(name, value, self.allowed() + " written key:value,key:value")
                    k, _, v = item.partition(":")
                    pairs[k.strip()] = v.strip().replace("/", ",").replace(";", ",")
                value = pairs
        out = self._per_key(name, value, self.value.check)
        if self.complete and set(out) != set(self.keys):
            missing = [k for k in self.keys if k not in out]
            raise _fail(name, value, self.allowed() + f"; missing {missing}")
        return FrozenMap((k, out[k]) for k in self.keys if k in out)

    def format(self, value):
        return ",".join(f"{k}:{self.value.format(v).replace(',', '/')}" for k, v in value.items())

    def to_json(self, value):
        return {str(k): self.value.to_json(v) for k, v in value.items()}

    def from_widget(self, name, widget_value):
        if isinstance(widget_value, str):
            return self.parse(name, widget_value)
        return self.check(name, self._per_key(name, widget_value, self.value.from_widget))


@dataclasses.dataclass(frozen=True)
class DataFile(Kind):
    """A path to a JSON data file (a map, a tile set); ``loader`` validates it.  ``shipped``: the files the
    game ships by name (a page offers them in a menu; any other path can still be typed)."""

    suffix: str = ".json"
    shipped: tuple = ()
    type_name: ClassVar[str] = "data file"

    def allowed(self):
        return f"a path to an existing {self.suffix} file"

    def check(self, name, value):
        if not isinstance(value, (str, os.PathLike)):
            raise _fail(name, value, self.allowed())
        path = os.fspath(value).strip()
        if not path.endswith(self.suffix):
            raise _fail(name, value, self.allowed())
        return path


# --------------------------------------------------------------------- fields


@dataclasses.dataclass(frozen=True)
class ByPlayers:
    """A default that depends on the player count (``num_players`` field)."""

    by_count: Mapping

    def resolve(self, num_players: int):
        return self.by_count.get(num_players)


@dataclasses.dataclass(frozen=True)
class When:
    """The condition under which a rule matters: ``field`` equals ``test``, or ``test(value of field)``
    holds when ``test`` is a function; ``text`` says it in words (\"while effect_3 is not off\")."""

    field: str
    test: Any
    text: str = ""

    def holds(self, value) -> bool:
        return bool(self.test(value)) if callable(self.test) else value == self.test

    def words(self, fields: Mapping | None = None) -> str:
        """When the rule matters, in words; with ``fields`` (the game's declared rules) the rule it depends
        on is named by its label (“while “Extra throws” is yes”), else by its name (for
        a tooltip)."""
        shown = str(self.test).lower() if isinstance(self.test, bool) else self.test
        text = self.text or f"while {self.field} is {shown}"
        if fields is None or self.field not in fields:
            return text
        field = fields[self.field]
        if not self.text and not callable(self.test):
            text = f"while {self.field} is {field.kind.word(self.test)}"
        return re.sub(rf"\b{re.escape(self.field)}\b", lambda _: f"“{field.label}”", text, count=1)


# a spec reference closing a rule's doc: "(V-5.3)", "(DP-2)", a section sign and what follows it
_SPEC_REFERENCE = re.compile(r"\s*\((?:[^()]*§[^()]*|[A-Z]{1,2}-\d[\w.]*(?:[,;][^()]*)?|variant \d+)\)\s*$")
LABEL_CHARS = 70  # a longer doc is labelled by its part before ": " (the rest stays in the tooltip)
OUTSIDE_SPEC = "[design: variant]"  # the basis of a rule the game's spec does not have (Attila's variants)


@dataclasses.dataclass(frozen=True)
class Param:
    kind: Kind
    doc: str
    basis: str = ""
    default: Any = None  # the declared default (may be a ByPlayers)
    group: str = ""  # the heading the rules panel shows it under ("set-up", "scoring"); "" = "other"
    # a When (or a (field, value) pair): the rule only matters under that condition (Valhalla's
    # hagalaz_alone_value in runes mode); the rules panel greys its control out otherwise
    applies: When | None = None

    def __post_init__(self):
        if self.applies is not None and not isinstance(self.applies, When):
            object.__setattr__(self, "applies", When(*self.applies))

    def applies_to(self, values) -> bool:
        """Whether the rule matters under ``values`` (field -> value; a mapping or a Rules)."""
        if self.applies is None:
            return True
        field = self.applies.field
        return self.applies.holds(values[field] if isinstance(values, dict) else getattr(values, field))

    @property
    def label(self) -> str:
        """The rule in words, for a control's label: its doc without the spec reference that closes it
        (\"Throw that releases a repairing ship\" for ``dock_release``, whose doc ends \"(V-5.3)\")."""
        words = _SPEC_REFERENCE.sub("", self.doc).strip()
        if len(words) > LABEL_CHARS and ": " in words:
            words = words.split(": ", 1)[0]
        return words

    @property
    def outside_spec(self) -> bool:
        """A rule the game's spec does not have: the toolkit's own variant, off by default."""
        return OUTSIDE_SPEC in self.basis


class _Unset:
    """Marks a player-count default not yet resolved (``None`` is a real value)."""

    def __repr__(self):
        return "UNSET"


UNSET = _Unset()


def param(default, kind: Kind, doc: str, basis: str = "", group: str = "", applies: When | tuple | None = None):
    """Declare a rule field: ``x: int = param(6, Int(1, 6), "ships per player", group="set-up")``.

    ``doc`` says the rule in words; a spec reference closing it (``"(V-5.3)"``) is left out of the
    rules panel's label (:attr:`Param.label`).  ``group`` is the heading the field is shown under in
    the rules panel (fields without one are shown under "other").  ``applies=(field, value)`` or
    ``applies=When(field, test, text)``: the rule only matters while ``field`` has ``value`` (or
    ``test(value)`` holds); the panel greys its control out otherwise, and a test plays games with the
    condition false and the rule changed and finds them the same (``tests/core/test_applies.py``).
    """
    meta = {"param": Param(kind=kind, doc=doc, basis=basis, default=default, group=group, applies=applies)}
    if isinstance(default, ByPlayers):
        return dataclasses.field(default=UNSET, metadata=meta)
    if isinstance(default, (list, dict, set)):
        return dataclasses.field(default_factory=lambda d=default: d, metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


def params_of(rules_cls) -> dict[str, Param]:
    """Name -> :class:`Param` for each declared field, in declaration order."""
    return {f.name: f.metadata["param"] for f in dataclasses.fields(rules_cls) if "param" in f.metadata}


class RulesBase:
    """Mixin for a game's frozen ``Rules`` dataclass.

    Subclasses set ``GAME``, ``PRESETS`` (name -> dict of overrides),
    ``RULES_VERSION`` and ``RULES_HISTORY``, and may override :meth:`validate` for constraints
    between fields (raise ``ValueError`` naming both fields).
    """

    GAME: ClassVar[str] = ""
    PRESETS: ClassVar[dict] = {"standard": {}}
    RULES_VERSION: ClassVar[int] = 1
    # version -> what changed in it, in a sentence: a variant file written for an older version is refused
    # with these (toolkit.core.variants); a game that raises RULES_VERSION says here what changed
    RULES_HISTORY: ClassVar[dict] = {1: "the first version"}

    def __post_init__(self):
        specs = params_of(type(self))
        players = getattr(self, "num_players", None)
        for name, spec in specs.items():
            value = getattr(self, name)
            if value is UNSET:
                value = spec.default.resolve(players)
            if value is None and isinstance(spec.default, ByPlayers):
                object.__setattr__(self, name, None)
                continue
            value = spec.kind.check(name, value)
            if isinstance(spec.kind, Mapping_) and not spec.kind.complete and spec.default is not None:
                # a partial mapping keeps the default's value for the keys it leaves out
                merged = dict(spec.kind.check(name, spec.default))
                merged.update(value)
                value = FrozenMap((k, merged[k]) for k in spec.kind.keys if k in merged)
            object.__setattr__(self, name, value)
        self.validate()

    def validate(self) -> None:
        """Constraints between fields; raise ``ValueError``."""

    # -- construction ---------------------------------------------------------

    @classmethod
    def preset(cls, name: str = "standard", **overrides):
        """The named preset with ``overrides`` applied."""
        if name not in cls.PRESETS:
            raise ValueError(f"preset={name!r} is not allowed: one of {', '.join(cls.PRESETS)}")
        values = dict(cls.PRESETS[name])
        values.update(overrides)
        unknown = set(values) - set(params_of(cls))
        if unknown:
            raise ValueError(
                f"unknown parameter {sorted(unknown)[0]!r} for {cls.GAME}: one of {', '.join(params_of(cls))}")
        return cls(**values)

    @classmethod
    def from_assignments(cls, assignments: Iterable[str], preset: str = "standard", **overrides):
        """Build from CLI ``NAME=VALUE`` strings on top of a preset."""
        return cls.preset(preset, **{**overrides, **cls.parse_assignments(assignments)})

    @classmethod
    def parse_assignments(cls, assignments: Iterable[str]) -> dict:
        """CLI ``NAME=VALUE`` strings as ``{name: value}``, each value checked."""
        specs = params_of(cls)
        values = {}
        for text in assignments:
            name, sep, raw = text.partition("=")
            name = name.strip()
            if not sep:
                raise ValueError(f"--set {text!r} is not allowed: write NAME=VALUE")
            if name not in specs:
                raise ValueError(f"unknown parameter {name!r} for {cls.GAME}: one of {', '.join(specs)}")
            values[name] = specs[name].kind.parse(name, raw)
        return values

    @classmethod
    def from_json(cls, obj: Mapping):
        specs = params_of(cls)
        values = {}
        for name, raw in obj.items():
            if name not in specs:
                raise ValueError(f"unknown parameter {name!r} for {cls.GAME}: one of {', '.join(specs)}")
            values[name] = specs[name].kind.from_json(name, raw)
        return cls(**values)

    def replace(self, **changes):
        """A copy with ``changes``; player-count defaults follow a new ``num_players``
        unless they had been set to something else."""
        if "num_players" in changes and changes["num_players"] != getattr(self, "num_players", None):
            for name, spec in params_of(type(self)).items():
                if (name not in changes and isinstance(spec.default, ByPlayers)
                        and getattr(self, name) == spec.default.resolve(self.num_players)):
                    changes[name] = UNSET
        return dataclasses.replace(self, **changes)

    # -- views -------------------------------------------------------------------

    def to_json(self) -> dict:
        """JSON-ready dict of every parameter (the CSV sidecar's ``rules``)."""
        return {name: spec.kind.to_json(getattr(self, name)) for name, spec in params_of(type(self)).items()}

    def changed(self) -> dict:
        """Parameters that differ from the class defaults (for titles and logs)."""
        base = type(self)(**({"num_players": self.num_players} if hasattr(self, "num_players") else {}))
        return {k: v for k, v in self.to_json().items() if v != base.to_json()[k]}

    def preset_name(self) -> str | None:
        """The preset these rules equal, if any."""
        for name in self.PRESETS:
            try:
                if type(self).preset(name, **({"num_players": self.num_players}
                                             if hasattr(self, "num_players") else {})) == self:
                    return name
            except ValueError:
                continue
        return None

    @classmethod
    def describe(cls) -> list[dict]:
        """One row per parameter: name, type, default, allowed, doc, basis."""
        rows = []
        for name, spec in params_of(cls).items():
            default = spec.default
            if isinstance(default, ByPlayers):
                shown = "; ".join(f"{k} players: {v}" for k, v in default.by_count.items())
            else:
                shown = spec.kind.format(spec.kind.check(name, default)) if default is not None else "none"
            rows.append({"name": name, "type": spec.kind.type_name, "default": shown,
                         "allowed": spec.kind.allowed(), "doc": spec.doc, "basis": spec.basis})
        return rows

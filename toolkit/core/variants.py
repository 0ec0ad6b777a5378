"""A rule variant is a file every tool reads (issue 51): a small TOML file a designer names, keeps in git and
sends to a colleague, and every command that takes rules reads (``--rules FILE``).

The file holds the game, a name, the preset it starts from, the rules version it was written for, an
optional note, and only the rules that differ from the preset::

    # a toolkit rule variant: toolkit simulate valhalla --rules fast-throws.toml
    game = "valhalla"
    name = "fast throws"
    preset = "alternative"
    rules_version = 1
    note = "rune side up more often; zero runes count 4"

    [rules]
    stick_rune_up_probability = 0.6
    zero_runes_value = 4

A number, boolean or string is written as TOML's own, anything else (a list, a mapping, none) as its
``--set`` text in a string (``peninsula_tiles = "5,6,7"``, ``capture_matrix = "bear:fox/hunter,..."``), one
short line each; a string is read as the ``--set`` text is read (:meth:`~toolkit.core.params.Kind.parse`), anything else as the JSON form of the CSV sidecar
(:meth:`~toolkit.core.params.Kind.from_json`).  Reading uses the standard library (``tomllib``), writing
``tomli-w``.  A run's JSON sidecar (``X.csv.json`` beside ``X.csv``, or the data file itself)
is read as a variant too: every rule is in it.

Every mistake in a file is one ``ValueError`` (:class:`VariantError`) whose one line names the file and the
key: an unknown game or rule (with the closest name), a value outside its domain, a file written for another
game, a rules version the toolkit no longer has (and what changed since), a key the format does not have.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import tomllib
from pathlib import Path

from toolkit.core.params import params_of

SUFFIX = ".toml"
KEYS = ("game", "name", "preset", "rules_version", "note", "rules")
DATA_SUFFIXES = (".csv", ".parquet")  # a run's data file: its sidecar is read


class VariantError(ValueError):
    """A variant file that cannot be read, in one line naming the file and the key."""


@dataclasses.dataclass(frozen=True)
class Variant:
    """What a variant file holds: the game's name, the variant's ``name``, the ``preset`` it starts from,
    the resulting ``rules`` (the game's ``Rules``), the ``note`` and the file it was read from."""

    game: str
    name: str
    preset: str
    rules: object
    note: str = ""
    path: Path | None = None

    def changes(self) -> dict:
        """The rules that differ from the preset, in the ``--set`` text (as the file lists them)."""
        return {k: params_of(type(self.rules))[k].kind.format(v) for k, v in differences(self.rules, self.preset).items()}


def _closest(word: str, choices) -> str:
    near = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


def _fail(path, key: str | None, message: str) -> VariantError:
    where = f"{path}: {key}" if key else f"{path}"
    return VariantError(f"{where}: {message}")


def _spec_of(path, game):
    from toolkit.core.registry import GAMES

    if not isinstance(game, str):
        raise _fail(path, "game", f"{game!r} is not allowed: a game's name, one of {', '.join(GAMES)}")
    if game not in GAMES:
        raise _fail(path, "game", f"{game!r} is not a registered game{_closest(game, GAMES)}: one of "
                                  f"{', '.join(GAMES)}")
    return GAMES[game]


def _check_version(path, rules_cls, version) -> None:
    current = rules_cls.RULES_VERSION
    if isinstance(version, bool) or not isinstance(version, int):
        raise _fail(path, "rules_version", f"{version!r} is not allowed: the integer version of {rules_cls.GAME}'s "
                                           f"rules the file was written for (today's is {current})")
    if version > current:
        raise _fail(path, "rules_version", f"{version} is newer than this toolkit's {rules_cls.GAME} rules "
                                           f"(version {current}): update the toolkit")
    if version < current:
        history = getattr(rules_cls, "RULES_HISTORY", {})
        changed = "; ".join(f"version {v}: {history.get(v, 'no note kept')}" for v in range(version + 1, current + 1))
        raise _fail(path, "rules_version", f"{version} is a version of {rules_cls.GAME}'s rules this toolkit no longer "
                                           f"has (today's is {current}; what changed since: {changed}): check "
                                           f"the rules against `toolkit rules {rules_cls.GAME}` and write the "
                                           f"file again")


def _value(path, param, name: str, raw):
    """One rule's value from the file: a string as ``--set`` reads it, anything else as the JSON form."""
    try:
        return param.kind.parse(name, raw) if isinstance(raw, str) else param.kind.from_json(name, raw)
    except ValueError as error:
        raise _fail(path, f"rules.{name}", str(error)) from None


def _rules(path, spec, preset, values: dict):
    Rules = spec.Rules
    if not isinstance(preset, str) or preset not in Rules.PRESETS:
        raise _fail(path, "preset", f"{preset!r} is not a preset of {spec.name}{_closest(preset, Rules.PRESETS)}: "
                                    f"one of {', '.join(Rules.PRESETS)}")
    if not isinstance(values, dict):
        raise _fail(path, "rules", f"{values!r} is not allowed: a table of rule = value ([rules])")
    declared = params_of(Rules)
    read = {}
    for name, raw in values.items():
        if name not in declared:
            raise _fail(path, f"rules.{name}", f"not a rule of {spec.name}{_closest(name, declared)} "
                                               f"(`toolkit rules {spec.name}` lists them)")
        read[name] = _value(path, declared[name], name, raw)
    try:
        return Rules.preset(preset, **read)
    except ValueError as error:  # a constraint between rules (each names the rules it ties)
        raise _fail(path, "rules", str(error)) from None


def _read_sidecar(path: Path) -> Variant:
    from toolkit.core.results import find_sidecar, sidecar_path

    meta = path if path.suffix == ".json" else find_sidecar(path)
    if meta is None:
        raise _fail(path, None, f"no sidecar {sidecar_path(path).name} beside it: a run's data file is read "
                                f"through the JSON file written with it")
    try:
        data = json.loads(meta.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise _fail(path, None, "no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise _fail(meta, None, f"not a run's JSON sidecar ({error})") from None
    if not isinstance(data, dict) or "rules" not in data or "game" not in data:
        raise _fail(meta, None, "not a run's JSON sidecar: it has no game and rules")
    spec = _spec_of(meta, data["game"])
    _check_version(meta, spec.Rules, data.get("rules_version"))
    rules = _rules(meta, spec, "standard", data["rules"])
    name = path.name.split(".")[0]  # run.csv.json, run.csv, run.json: "run"
    return Variant(spec.name, name, rules.preset_name() or "standard", rules, "", path)


def read(path, game: str | None = None) -> Variant:
    """The variant in ``path`` (a ``.toml`` variant file, or a run's ``.json`` sidecar, or the ``.csv`` /
    ``.parquet`` file it describes), checked to be ``game``'s when given; :class:`VariantError` otherwise."""
    path = Path(path)
    if path.is_dir():
        raise _fail(path, None, "is a folder, not a variant file")
    if path.suffix in (".json", *DATA_SUFFIXES):
        variant = _read_sidecar(path)
    else:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise _fail(path, None, "no such file") from None
        except (OSError, UnicodeDecodeError) as error:
            raise _fail(path, None, f"cannot be read ({error})") from None
        except tomllib.TOMLDecodeError as error:
            raise _fail(path, None, f"not a TOML file ({error})") from None
        for key in data:
            if key not in KEYS:
                raise _fail(path, key, f"not a key of a variant file{_closest(key, KEYS)}: {', '.join(KEYS)}")
        if "game" not in data:
            raise _fail(path, "game", "missing: the game the variant is for")
        spec = _spec_of(path, data["game"])
        for key in ("name", "note"):
            if not isinstance(data.get(key, ""), str):
                raise _fail(path, key, f"{data[key]!r} is not allowed: a string")
        if "rules_version" not in data:
            raise _fail(path, "rules_version", f"missing: the version of {spec.name}'s rules the file was written "
                                               f"for (today's is {spec.Rules.RULES_VERSION})")
        _check_version(path, spec.Rules, data["rules_version"])
        preset = data.get("preset", "standard")
        rules = _rules(path, spec, preset, data.get("rules", {}))
        variant = Variant(spec.name, data.get("name") or path.stem, preset, rules, data.get("note", ""), path)
    if game is not None and variant.game != game:
        raise _fail(path, "game", f"the file is for {variant.game}, not {game}")
    return variant


def load_rules(path, game: str | None = None):
    """The rules of the variant in ``path`` (:func:`read`)."""
    return read(path, game).rules


def differences(rules, preset: str) -> dict:
    """The rules that differ from ``preset`` at the same number of players (and the number of players itself
    where it differs from the preset's)."""
    cls = type(rules)
    players = {"num_players": rules.num_players} if hasattr(rules, "num_players") else {}
    base = cls.preset(preset, **players)
    out = {k: getattr(rules, k) for k in params_of(cls) if getattr(rules, k) != getattr(base, k)}
    if players and cls.preset(preset).num_players != rules.num_players:
        out = {"num_players": rules.num_players, **out}
    return out


def nearest_preset(rules) -> str:
    """The preset these rules are, or the one they differ from in the fewest rules (the first on a tie)."""
    cls = type(rules)
    return min(cls.PRESETS, key=lambda name: len(differences(rules, name)))


def _toml_value(kind, value):
    """The value as the file writes it: a number, boolean or string as TOML's own, anything else (a list, a
    mapping, none) as its ``--set`` text, one short line a designer reads as the command line writes it."""
    data = kind.to_json(value)
    if isinstance(data, (bool, int, float, str)):
        return data
    return kind.format(value)


def text(rules, name: str, note: str = "", preset: str | None = None) -> str:
    """The variant file of ``rules`` named ``name``, starting from ``preset`` (default the preset they are,
    or the nearest one)."""
    import tomli_w

    cls = type(rules)
    preset = preset or rules.preset_name() or nearest_preset(rules)
    declared = params_of(cls)
    body = {"game": cls.GAME, "name": name, "preset": preset, "rules_version": cls.RULES_VERSION}
    if note:
        body["note"] = note
    body["rules"] = {k: _toml_value(declared[k].kind, v) for k, v in differences(rules, preset).items()}
    head = f"# a toolkit rule variant: toolkit simulate {cls.GAME} --rules FILE (docs/variants.md)\n"
    return head + tomli_w.dumps(body)


def save(rules, path, name: str | None = None, note: str = "", preset: str | None = None) -> Path:
    """Write ``rules`` as a variant file at ``path`` (``.toml``), named ``name`` (default the file's stem);
    returns the path.  Read back (:func:`read`), the file gives these rules exactly."""
    path = Path(path)
    if path.suffix != SUFFIX:
        raise ValueError(f"path={str(path)!r} is not allowed: a variant file's name ends in {SUFFIX}")
    if not path.parent.is_dir():
        raise ValueError(f"path={str(path)!r} is not allowed: the folder {str(path.parent)!r} does not exist "
                         f"(make it first)")
    written = text(rules, name or path.stem, note, preset)
    path.write_text(written, encoding="utf-8")
    return path

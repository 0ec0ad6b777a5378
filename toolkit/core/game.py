"""What the core needs to know about a game: :class:`GameSpec`.

Each game package builds one ``SPEC`` and ``toolkit.games.GAMES`` lists them.
The runner, the CLI, the widgets and the report only talk to games through
this object, so a new game plugs in by filling it in.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
from types import MappingProxyType, ModuleType
from typing import Any, Callable, Mapping

from toolkit.core import mcts

DEFAULT_REPORT_GAMES = 200_000
RESULTS = ("win", "shared", "draw", "aborted")  # the outcomes a game can declare (GameSpec.results)


@dataclasses.dataclass(frozen=True)
class PageRuns:
    """The sizes of the designer page's own runs (``toolkit report --html``): ``tournament`` games per
    ordered pair (two seats) or per seating (three or more: the tested policy in each seat in turn),
    ``skill`` games per seating for the skill gap and luck, the ``lookahead`` setting that plays in
    both beside ``random`` and ``greedy``, the strength ladder's games and rungs, and the games whose decisions
    the judge rates for "which decisions matter" (``toolkit.analysis.decisions``, played by the default
    policies)."""

    tournament: int = 200
    skill: int = 200
    lookahead: str = "lookahead"
    # the strength ladder (``toolkit.analysis.ladder``): games per pairing (and of each policy's self-play),
    # and its rungs, weakest first ("lookahead" stands for the ``lookahead`` setting above)
    ladder: int = 40
    ladder_policies: tuple = ("random", "greedy", "lookahead", "mcts:100")
    # which decisions matter, judged by mcts:200: 1,000 games take 1.5 s (Pig) to 36 s (Herrlof) on two
    # cores (benchmarks/seeing.py), so 200 cost the page 0.3-7 s
    decisions: int = 200


@dataclasses.dataclass(frozen=True)
class RuleQuestion:
    """A designer's question about one rule of the game, answered by a sweep of its values in the
    overview notebook (``notebooks/overview.py``, section 2)."""

    rule: str
    values: tuple
    metric: str  # the design metric (``toolkit.analysis.metrics``) the rule is about
    why: str  # what the rule does and what the sweep asks (Markdown, one paragraph)
    base: Mapping = dataclasses.field(default_factory=dict)  # rules the sweep starts from (a player count)


@dataclasses.dataclass(frozen=True)
class TuneQuestion:
    """A designer's question answered by tuning rules toward a target (:func:`toolkit.analysis.tune`), in
    the overview notebook (section 5): ``targets`` and ``vary`` as :func:`~toolkit.analysis.tuning.tune`
    takes them, played by ``policies`` from the rules ``base``; ``trials`` and ``n_games`` the notebook's
    setting at its full size (it scales ``n_games`` down with its ``N``)."""

    question: str  # the question (Markdown, one sentence)
    targets: Mapping
    vary: Mapping
    policies: str | None = None  # one name fills every seat; None: random
    preset: str | None = None  # the preset the search starts from (None: standard)
    trials: int = 20
    n_games: int = 20_000
    skilled: str = "lookahead"  # a skill_gap target's players
    unskilled: str = "random"


@dataclasses.dataclass(frozen=True)
class Presentation:
    """How a game is shown, apart from what it is (:class:`GameSpec`): the run sizes of the report, the
    dashboard and the overview notebook, and the designer's questions those answer.  Every field has a
    default; a game measures its own speed to set the sizes (benchmarks/redraw.py, the report's timings)."""

    report_games: int = DEFAULT_REPORT_GAMES  # games of ``toolkit report``'s default run
    page_runs: PageRuns = PageRuns()  # the designer page's own runs
    # games per run of the dashboard: played and drawn in about a second on two cores with the default
    # players at the standard player count (each game measures its own: benchmarks/redraw.py)
    panel_games: int = 20_000
    # the overview notebook: the skilled policy's setting, and a run with it plays 1 / lookahead_share of
    # the notebook's games per seating (at least 2)
    notebook_lookahead: str = "lookahead"
    lookahead_share: int = 20
    rule_question: RuleQuestion | None = None  # the overview notebook's sweep
    tune_question: TuneQuestion | None = None  # the overview notebook's and the report's tuning

    def lookahead_games(self, n_games: int) -> int:
        """Games per seating with ``notebook_lookahead`` when the overview notebook plays ``n_games``."""
        return max(2, n_games // self.lookahead_share)


def with_parts(spec: "GameSpec", **given) -> "GameSpec":
    """``spec`` with some of what its folder provides given instead (:class:`Folder`; a test's stand-in)."""
    return dataclasses.replace(spec, given={**spec.given, **given})


def with_presentation(spec: "GameSpec", **changes) -> "GameSpec":
    """``spec`` with some of its :class:`Presentation` fields changed (a test's smaller runs)."""
    return dataclasses.replace(spec, presentation=dataclasses.replace(spec.presentation, **changes))


class GameUnavailable(LookupError):
    """A registered game whose folder cannot be loaded: its declaration (``toolkit/games/<name>/__init__.py``)
    or a module it provides (the kernel, the reference, ...).  Only that game's commands fail; ``toolkit list``
    and ``toolkit check`` name it with this message."""

    def __init__(self, game: str, where: str, error: BaseException):
        self.game, self.where, self.error = game, where, error
        super().__init__(f"game {game!r} cannot be loaded: {where} raised {type(error).__name__}: {error}")


# What a game's folder provides, found on first use by :class:`Folder` (``docs/adding-a-game.md``): each
# name, the module of the game's package it comes from and how it is read there.  Nothing here is imported
# when a game is declared, so ``import toolkit`` loads no kernel and a broken folder breaks only its game.
PROVIDED = {
    "Rules": ("rules", lambda m: m.Rules),
    "policies": ("policies", lambda m: tuple(m.POLICIES)),  # policy names, the first is "random"
    "policy_parser": ("policies", lambda m: getattr(m, "parse_policy", None)),  # name -> raises ValueError
    # named players a seat is offered beside ``policies`` and the tree search (e.g. Herrlof's lookahead:64)
    "named_players": ("policies", lambda m: tuple(getattr(m, "NAMED_PLAYERS", ()))),
    "odds": ("odds", lambda m: m.summary),  # rules -> DataFrame of exact numbers
    # (frame, rules, policies) -> {quantity: value}: the rows of ``odds`` a run's records also measure
    "simulated_odds": ("odds", lambda m: getattr(m, "simulated", None)),
    # the kernel: ``COLUMNS``, ``play_many``, ``to_kernel(rules)``, ``policy_ids(policies)``, and if it has
    # them ``CATEGORIES`` and ``columns_for(rules)``
    "kernel": ("kernel", lambda m: m),
    "columns_for": ("kernel", lambda m: getattr(m, "columns_for", None)),  # rules -> the columns a frame shows
}


# the parts :class:`Folder` finds besides :data:`PROVIDED`'s, read from the kernel (and the reference)
FROM_KERNEL = ("columns", "play_many", "prepare", "categories", "play_reference")


class Folder:
    """What the folder of ``spec``'s game provides, each found on first use (the one loader of a game's
    parts): :data:`PROVIDED`'s names from the game's modules, and the kernel's result ``columns``,
    ``play_many``, ``prepare`` ((rules, policies) -> the kernel's arguments before the seed), ``categories``
    (column -> labels of its codes: the kernel's ``CATEGORIES``, else the declared ``results`` for a
    ``result`` column) and ``play_reference`` ((rules, seed, game_index, policies) -> one game's row of the
    reference).  ``given`` overrides any of them (a test's stand-in)."""

    def __init__(self, spec: "GameSpec"):
        self._spec = spec
        self._found = dict(spec.given)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self._found:
            self._found[name] = self._find(name)
        return self._found[name]

    def module(self, name: str) -> ModuleType:
        """The game's module ``name`` (``"kernel"``, ``"reference"``, ...), imported on first use."""
        spec = self._spec
        try:
            return importlib.import_module(f"{spec.package}.{name}")
        except Exception as error:  # a broken module breaks its own game only
            raise GameUnavailable(spec.name, f"{spec.package}.{name}", error) from error

    def _find(self, name: str):
        spec = self._spec
        if name in PROVIDED:
            module, read = PROVIDED[name]
            return read(self.module(module))
        kernel = self.kernel
        if name == "columns":
            return tuple(kernel.COLUMNS)
        if name == "play_many":
            return kernel.play_many
        if name == "prepare":
            return lambda rules, policies: (kernel.to_kernel(rules), mcts.policy_codes(kernel, policies))
        if name == "categories":
            categories = getattr(kernel, "CATEGORIES", None)
            return dict(categories) if categories else ({"result": spec.results} if "result" in kernel.COLUMNS else {})
        if name == "play_reference":
            return self._play_reference
        raise AttributeError(f"a game's folder provides no {name!r}")

    def _play_reference(self, rules, seed, game_index, policies) -> dict:
        """One game of the reference as a row of ``columns``: ``reference.play_reference`` where it has one,
        else ``reference.record_row(reference.play_game(...))``."""
        reference = self.module("reference")
        if hasattr(reference, "play_reference"):  # a reference whose record needs more than the game (Halali's match)
            row = reference.play_reference(rules, seed, game_index, policies)
        else:
            row = reference.record_row(reference.play_game(rules, seed, game_index, policies))
        return {c: row[c] for c in self.columns}


@dataclasses.dataclass(frozen=True)
class GameSpec:
    """What a game is, declared in its package's ``__init__.py`` (``SPEC``): nothing here imports the game's
    kernel.  What the folder provides (its rules class, policies, odds, kernel, reference, view and drawing)
    is found when first used by :attr:`folder`; the same names read as attributes (``spec.kernel``,
    ``spec.Rules``, ``spec.columns``, ...)."""

    name: str
    description: str
    default_policies: Callable  # rules -> tuple of policy names (the report's choice)
    seats: Callable  # rules -> number of seats
    package: str | None = None  # the game's package; None: ``toolkit.games.<name>``
    title: str | None = None  # None: the name with a capital
    # the outcomes a game's record can hold, the labels of its ``result`` column's codes in order (the
    # layout's ``RESULT_CODES``): "win" (one winner), "shared" (a win shared by tied seats, each counts it),
    # "draw" (nobody wins), "aborted" (a game stopped unfinished, nobody wins)
    results: tuple = ("win",)
    histogram_columns: tuple = ("turns", "plies")
    turn_word: str = "one player's turn"  # what a turn is (spec §6), for labels
    # rules -> the seats' names as the game says them (Halali's Blue and Brown); None: "seat 0", "seat 1", ...
    seat_names: Callable | None = None
    # (column getter) -> array of the seat that moved first in each game; turns then follow seat order.
    # Every result frame shows it as ``first_seat`` (``core/results.to_frame``, the one place it is derived)
    first_mover: Callable | None = None
    hidden_information: bool = False  # a seat does not see everything (cards, tiles, bids)
    tutorial: bool = False  # the game a contributor reads first (``toolkit list`` marks it; docs/adding-a-game.md)
    # exact tables printed by ``toolkit odds`` before ``odds``: title -> the function (rules -> DataFrame or
    # {value: probability}), or its "module:function" name, imported when first used (:meth:`extra_table`)
    extra_odds: Mapping = dataclasses.field(default_factory=dict)
    # how the report, the dashboard and the notebooks show it: run sizes and the designer's questions, each
    # with a default, so that a new game need not give them
    presentation: Presentation = Presentation()
    # hooks, each a "module:function" imported when first used (so matplotlib loads only then):
    # replay(rules, seed, game_index, policies) -> the positions of one game, in order (policies None: the
    # game's choice);
    # draw_position(position, ax=None) -> the matplotlib Axes it drew one of those positions on
    replay: str | None = None
    draw_position: str | None = None
    # seeing a game (issue 38; docs/architecture.md, "Seeing a game"): ``view``, the module (default
    # ``<package>.view``) of ``DECISIONS`` (DP number -> the spec's DP name), ``describe(game, decision,
    # option)`` and ``position(game, decision=None)``, all over the reference's game; ``draw``, the hook
    # ``draw(position, seat=None, ax=None)`` (default ``<package>.viz:draw``)
    view: str | None = None
    draw: str | None = None
    # the folder's parts given here instead of found (:class:`Folder`; a test's stand-in, ``with_parts``)
    given: Mapping = dataclasses.field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self):
        package = self.package or f"toolkit.games.{self.name}"
        defaults = {"package": package, "title": self.name.title(), "view": f"{package}.view",
                    "draw": f"{package}.viz:draw"}
        for name, value in defaults.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, value)
        unknown = set(self.results) - set(RESULTS)
        if not self.results or self.results[0] != "win" or unknown:
            raise TypeError(f"GameSpec {self.name!r}: results={self.results!r} is not allowed: \"win\" first, "
                            f"then any of {', '.join(RESULTS[1:])}")
        object.__setattr__(self, "extra_odds", MappingProxyType(dict(self.extra_odds)))
        object.__setattr__(self, "given", MappingProxyType(dict(self.given)))

    def __getattr__(self, name: str):
        """``spec.kernel``, ``spec.Rules``, ``spec.columns``, ...: what the game's folder provides (:class:`Folder`),
        found when first read."""
        if name in PROVIDED or name in FROM_KERNEL:
            return getattr(self.folder, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @functools.cached_property
    def folder(self) -> Folder:
        """What the game's folder provides, each part found on first use (:class:`Folder`)."""
        return Folder(self)

    # what the declared ``results`` allow besides one winner (the report's and the tournament's columns)
    shared_wins = property(lambda self: "shared" in self.results, doc="Tied seats can share a win (each counts it).")
    draws = property(lambda self: "draw" in self.results, doc="A game can end with nobody winning.")
    aborts = property(lambda self: "aborted" in self.results, doc="A game can be stopped unfinished (nobody wins).")

    @property
    def reference(self) -> str:
        """The dotted name of the game's pure-Python reference module (imported when first used)."""
        return f"{self.package}.reference"

    def extra_table(self, title: str) -> Callable:
        """The function of the exact table ``title`` of :attr:`extra_odds`."""
        table = self.extra_odds[title]
        if not isinstance(table, str):
            return table
        module, _, attribute = table.partition(":")
        return getattr(importlib.import_module(module), attribute)

    def hook(self, name: str) -> Callable:
        """The function the game declares for hook ``name`` (``"replay"``, ``"draw_position"``, ``"draw"``)."""
        target = getattr(self, name, None) if name in ("replay", "draw_position", "draw") else None
        if target is None:
            raise ValueError(f"{self.name} declares no {name} hook")
        module, _, attribute = target.partition(":")
        return getattr(importlib.import_module(module), attribute)

    def view_module(self) -> ModuleType:
        """The game's ``view`` module (``describe``, ``position``, ``DECISIONS``), imported when first used."""
        return importlib.import_module(self.view)

    def seat_name(self, rules, seat: int) -> str:
        """Seat ``seat`` as the game names it under ``rules`` (Halali: "Blue"), else "seat 0", "seat 1", ..."""
        names = self.seat_names(rules) if self.seat_names is not None else None
        return names[seat] if names else f"seat {seat}"

    def seat_counts(self) -> tuple:
        """The numbers of seats the game can be played with: the range of its ``num_players`` rule, or
        the fixed number of its standard rules."""
        from toolkit.core.params import params_of

        kind = getattr(params_of(self.Rules).get("num_players"), "kind", None)
        if kind is None or getattr(kind, "low", None) is None or getattr(kind, "high", None) is None:
            return (self.seats(self.Rules.preset("standard")),)
        return tuple(range(kind.low, kind.high + 1))

    def result_columns(self, rules) -> tuple:
        """The columns of a result frame for these rules: ``columns``, less those of absent seats."""
        return tuple(self.columns) if self.columns_for is None else tuple(self.columns_for(rules))

    def check_policy_name(self, name: str) -> None:
        """Raise ``ValueError`` unless ``name`` is one of the game's policies
        (``lookahead:16`` style arguments are checked by ``policy_parser``), or ``mcts`` / ``mcts:N``, the
        tree search every kernel plays (``toolkit.core.mcts``)."""
        if mcts.parse(name) is not None:
            return
        try:
            if self.policy_parser is not None:
                self.policy_parser(name)
            elif name.partition(":")[0] in self.policies and ":" in name:
                raise ValueError(f"policy={name!r} is not allowed: {name.partition(':')[0]} takes no argument")
            elif name not in self.policies:
                raise ValueError(self.unknown_player(name))
        except ValueError:
            if name.partition(":")[0] in self.policies:
                raise  # a known kind of player with a bad argument: its own message says what it takes
            raise ValueError(self.unknown_player(name)) from None

    def unknown_player(self, name: str) -> str:
        """The message for a name that is no kind of player: every kind the game has, the tree search
        included, and the closest valid name (a misspelt ``mcst:100`` is told ``mcts:100``)."""
        import difflib

        base, colon, argument = name.partition(":")
        closest = []
        if colon:  # a misspelt kind with its argument: the closest kind, the same argument
            kinds = difflib.get_close_matches(base.lower(), (*self.policies, mcts.NAME), n=1, cutoff=0.5)
            closest = [f"{kinds[0]}:{argument}"] if kinds else []
        if not closest:
            closest = difflib.get_close_matches(name.lower(), self.player_choices(), n=1, cutoff=0.5)
        said = f"; the closest is {closest[0]!r}" if closest else ""
        return (f"policy={name!r} is not allowed: a player is one of {', '.join(self.policies)}, or a tree search "
                f"mcts:N with N iterations a decision (e.g. {mcts.NAME}:100, {mcts.NAME}:1000){said}")

    def player_choices(self) -> tuple:
        """The players a seat is offered by name (the dashboard's seat menus), weakest kinds first: the
        game's policies, its ``named_players`` and the tree search at two budgets.  A seat takes any other
        name :meth:`check_policy_name` accepts as well."""
        return tuple(dict.fromkeys((*self.policies, *self.named_players, f"{mcts.NAME}:100", f"{mcts.NAME}:1000")))

    def check_policies(self, policies, rules) -> tuple:
        """Validate per-seat policy names; a single name fills every seat."""
        seats = self.seats(rules)
        if policies is None:
            policies = ("random",) * seats
        elif isinstance(policies, str):
            policies = tuple(p.strip() for p in policies.split(","))
        policies = tuple(policies)
        if len(policies) == 1:
            policies = policies * seats
        if len(policies) != seats:
            raise ValueError(f"policies={','.join(policies)!r} is not allowed: {self.name} needs {seats} "
                             f"policies, one per seat, from {', '.join(self.policies)}")
        for p in policies:
            self.check_policy_name(p)
        return policies

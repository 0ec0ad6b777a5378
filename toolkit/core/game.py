"""What the core needs to know about a game: :class:`GameSpec`.

Each game package builds one ``SPEC`` and ``toolkit.games.GAMES`` lists them.
The runner, the CLI, the widgets and the report only talk to games through
this object, so a new game plugs in by filling it in.
"""

from __future__ import annotations

import dataclasses
import importlib
from types import MappingProxyType, ModuleType
from typing import Any, Callable, Mapping

from toolkit.core import mcts

DEFAULT_REPORT_GAMES = 200_000


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


def with_presentation(spec: "GameSpec", **changes) -> "GameSpec":
    """``spec`` with some of its :class:`Presentation` fields changed (a test's smaller runs)."""
    return dataclasses.replace(spec, presentation=dataclasses.replace(spec.presentation, **changes))


@dataclasses.dataclass(frozen=True)
class GameSpec:
    name: str
    description: str
    default_policies: Callable  # rules -> tuple of policy names (the report's choice)
    seats: Callable  # rules -> number of seats
    # Left as None, the fields below are found by the layout every game folder has (docs/adding-a-game.md):
    # in ``package`` (default ``toolkit.games.<name>``) the modules ``rules`` (``Rules``), ``policies``
    # (``POLICIES``, ``parse_policy`` if it has one), ``odds`` (``summary``, ``simulated`` if it has one),
    # ``kernel`` and ``reference``; ``title`` is the name with a capital
    package: str | None = None
    title: str | None = None
    Rules: type | None = None
    policies: tuple | None = None  # policy names, the first is "random"
    # named players a seat is offered beside ``policies`` and the tree search (the policies module's
    # NAMED_PLAYERS, e.g. Herrlof's lookahead:64 or greedy:no_steal); any valid name is accepted anyway
    named_players: tuple | None = None
    odds: Callable | None = None  # rules -> DataFrame of exact numbers
    # the game's kernel module: ``COLUMNS``, ``play_many``, ``to_kernel(rules)``, ``policy_ids(policies)``
    # and, if it has them, ``CATEGORIES`` (else ``RESULT_CODES`` for the ``result`` column) and
    # ``columns_for(rules)``; the fields below left as None are taken from it
    kernel: ModuleType | None = None
    # the game's pure-Python reference module (its dotted name: imported when first used): ``play_game(rules,
    # seed, game_index, policies)`` and ``record_row(game)``; ``play_reference`` left as None plays it
    reference: str | None = None
    columns: tuple | None = None  # kernel result columns, in order
    prepare: Callable | None = None  # (rules, policies) -> tuple of kernel arguments before (seed, first_game, out, ...)
    play_many: Any = None  # the parallel njit driver
    play_reference: Callable | None = None  # (rules, seed, game_index, policies) -> dict row (same columns)
    categories: dict | None = None  # column -> labels of its codes
    histogram_columns: tuple = ("turns", "plies")
    turn_word: str = "one player's turn"  # what a turn is (spec §6), for labels
    # rules -> the seats' names as the game says them (Halali's Blue and Brown); None: "seat 0", "seat 1", ...
    seat_names: Callable | None = None
    policy_parser: Callable | None = None  # name -> raises ValueError if unknown; for names with arguments
    columns_for: Callable | None = None  # rules -> the columns a frame shows (seats beyond the player count dropped)
    # (column getter) -> array of the seat that moved first in each game; turns then follow seat order.
    # Every result frame shows it as ``first_seat`` (``core/results.to_frame``, the one place it is derived)
    first_mover: Callable | None = None
    # (frame, rules, policies) -> {quantity: value}: the rows of ``odds`` that a run's records also
    # measure, or a replay of its deals (``toolkit.core.deals``), shown beside the exact ones by the dashboard
    simulated_odds: Callable | None = None
    # what the outcome record can hold besides one winner: a win shared by tied seats (each counts it),
    # a draw (nobody wins), a game stopped unfinished (nobody wins)
    shared_wins: bool = False
    draws: bool = False
    aborts: bool = False
    hidden_information: bool = False  # a seat does not see everything (cards, tiles, bids)
    tutorial: bool = False  # the game a contributor reads first (``toolkit list`` marks it; docs/adding-a-game.md)
    # exact tables printed by ``toolkit odds`` before ``odds``: title -> (rules -> DataFrame or {value: probability})
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
    # seeing a game (issue 38; docs/architecture.md, "Seeing a game"), found by the folder's layout when
    # None: ``view``, the module (default ``<package>.view``) of ``DECISIONS`` (DP number -> the spec's DP
    # name), ``describe(game, decision, option)`` (an option in a player's words) and ``position(game,
    # decision=None)`` (what a picture shows), all over the reference's game; ``draw``, the hook
    # ``draw(position, seat=None, ax=None)`` (default ``<package>.viz:draw``) that draws a position as
    # ``seat`` may see it, or open
    view: str | None = None
    draw: str | None = None

    def __post_init__(self):
        self._fill_from_package()
        kernel = self.kernel
        derived = {}
        if kernel is not None:
            derived = {
                "columns": kernel.COLUMNS,
                "play_many": kernel.play_many,
                "prepare": lambda rules, policies: (kernel.to_kernel(rules), mcts.policy_codes(kernel, policies)),
                "categories": getattr(kernel, "CATEGORIES", None) or (
                    {"result": kernel.RESULT_CODES} if hasattr(kernel, "RESULT_CODES") else {}),
            }
            if self.columns_for is None and hasattr(kernel, "columns_for"):
                derived["columns_for"] = kernel.columns_for
        if self.reference is not None:
            derived["play_reference"] = self._play_reference
        for name, value in derived.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, value)
        for name in ("columns", "play_many", "prepare", "play_reference"):
            if getattr(self, name) is None:
                raise TypeError(f"GameSpec {self.name!r}: give {name} (or the kernel / reference module)")
        if self.categories is None:
            object.__setattr__(self, "categories", {})
        object.__setattr__(self, "extra_odds", MappingProxyType(dict(self.extra_odds)))

    def _fill_from_package(self) -> None:
        """The fields left as None, from the game folder's modules (see the field comments)."""
        package = self.package or f"toolkit.games.{self.name}"

        def module(name):
            return importlib.import_module(f"{package}.{name}")

        found = {"package": lambda: package, "title": lambda: self.name.title(),
                 "Rules": lambda: module("rules").Rules, "policies": lambda: module("policies").POLICIES,
                 "policy_parser": lambda: getattr(module("policies"), "parse_policy", None),
                 "named_players": lambda: tuple(getattr(module("policies"), "NAMED_PLAYERS", ())),
                 "odds": lambda: module("odds").summary,
                 "simulated_odds": lambda: getattr(module("odds"), "simulated", None),
                 "kernel": lambda: module("kernel"), "reference": lambda: f"{package}.reference",
                 "view": lambda: f"{package}.view", "draw": lambda: f"{package}.viz:draw"}
        for name, find in found.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, find())

    def _play_reference(self, rules, seed, game_index, policies) -> dict:
        """One game of the reference as a row of ``columns`` (``reference.play_game`` and ``record_row``)."""
        reference = importlib.import_module(self.reference)
        row = reference.record_row(reference.play_game(rules, seed, game_index, policies))
        return {c: row[c] for c in self.columns}

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

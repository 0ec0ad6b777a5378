"""The rule-tweaking dashboard (``toolkit app``): one page for a designer who does not write Python.

:func:`dashboard` builds it from the parts the notebooks use, so there is no
second code path: the generated rules panel (:func:`toolkit.viz.widgets.rules_panel`),
:func:`toolkit.simulate`, the design metrics, :func:`toolkit.analysis.tournament.compare`,
:func:`toolkit.analysis.ladder`, :func:`toolkit.analysis.tune` and the plots of
:mod:`toolkit.viz.plots`.  ``toolkit app`` serves it with Voilà (code hidden); in a notebook,
``dashboard("valhalla")`` shows the same.

On the page:

- the game; beside each other, the controls (one player per seat, any name the game accepts, and the
  rules panel: preset, number of games, one control per rule, a refused value's message under its
  field) and the run (its progress, the status line, the plots and tables), which stays in view while
  the controls scroll, so at 1440×900 a change is seen without scrolling;
- the run: win rate per seat and by place in the turn order with 95% intervals, the length and score
  distributions, the design metrics, the exact odds beside the simulated ones (measured on the run's
  records, or on a replay of its first deals, ``toolkit.core.deals``);
- **before/after**: "pin as baseline" keeps the current run; every later run is shown beside it as
  paired differences on the same seeds (:func:`toolkit.analysis.paired.before_after`) with 95%
  intervals and one sentence each, and the plots keep their axes from run to run (they only widen), so a
  change is seen as a change; "play on until settled" plays the baseline and the page's rules in batches
  on the same seeds until each difference is shown, or shown smaller than the tolerance, or the games set
  run out (:func:`toolkit.analysis.settle.settle`, an always-valid interval read after every batch);
- on demand, each with a progress bar, the time left at the pace so far and a cancel button: a policy
  tournament and a strength ladder on the current rules (the report's players and sizes, scaled to the
  player count: :func:`job_games`), a rule tuning toward a target (prefilled with the game's own question,
  ``GameSpec.presentation.tune_question``), and a CSV of the current run.

The games play off the page's thread (:mod:`toolkit.viz.background`) when the page runs in a kernel: a
new change cancels a run it makes stale (within a chunk, a fraction of a second), only the latest
settings are drawn, and a long tournament does not hold up the rules' plots.  Every run uses the same
seed, so a change of rule is compared on the same random numbers.
"""

from __future__ import annotations

import base64
import dataclasses
import html
import tempfile
import threading
import time
from pathlib import Path

import pandas as pd

from toolkit.core import jobs
from toolkit.core.deals import SAMPLE_DEALS
from toolkit.core.runner import get_spec
from toolkit.viz import background as page_jobs
from toolkit.viz.widgets import NotPlayed, error_html

TUNE_TRIALS, TUNE_GAMES = 20, 2_000  # the tuning's defaults: trials, games per trial
CSV_LINK_LIMIT = 50_000_000  # bytes: a bigger run is offered as the command that writes it to disk
VARIANTS_EVERY = 2.0  # seconds between two looks at the variants' folder (a page in a kernel)
SLOW_RUN = 3.0  # seconds: a run expected to take longer says so at the seats before it starts

_NOTE_STYLE = "color:#555"
_duration = jobs.format_duration
# the run's column stays in view beside the controls while they scroll (Voilà scrolls its own box)
_PAGE_STYLE = """<style>
.toolkit-run {position: sticky; top: 0; align-self: flex-start; max-height: 100vh; overflow-y: auto;}
.toolkit-run > * {flex-shrink: 0;}  /* its parts keep their height: the column scrolls, they do not overlap */
.toolkit-run img {max-width: 100%;}
.toolkit-run table {font-size: 12px;}
</style>"""


def _close_tree(widget) -> None:
    """Close ``widget`` and every widget inside it (ipywidgets' ``close`` leaves the children open)."""
    for child in getattr(widget, "children", ()):
        _close_tree(child)
    widget.close()


_error = error_html  # the rules panel's red, and a defect's traceback folded


def _figure(**options):
    """A matplotlib Figure outside pyplot (no global state: drawn in a run's thread), on the Agg canvas."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(**options)
    FigureCanvasAgg(figure)
    return figure


def simulated_odds(spec, rules, frame: pd.DataFrame, policies) -> pd.DataFrame:
    """``spec.odds(rules)`` with a ``simulated`` column where the run's records give the same quantity.

    A game declares those quantities with ``GameSpec.simulated_odds`` (keys as in the exact
    table); other rows show no simulated value.  They are remembered for the last
    :data:`SIMULATED_KEPT` runs (:func:`_simulated`): a slider moved back, or a rule toggled twice,
    redraws without replaying the deals again."""
    table = spec.odds(rules).copy()
    found = _simulated(spec, rules, frame, policies) if spec.simulated_odds is not None else {}
    table["simulated"] = [found.get(q, float("nan")) for q in table["quantity"]]
    return table


SIMULATED_KEPT = 16  # runs whose simulated odds are remembered
_SIMULATED: dict = {}  # key -> the simulated odds, oldest first


def _simulated(spec, rules, frame: pd.DataFrame, policies) -> dict:
    """``spec.simulated_odds`` of a run, remembered by what the run is a function of: the game, its rules, its
    players, its seed and its game numbers (a run is the same whatever the threads: the README's
    reproducibility).  A frame without its seed is not remembered."""
    import hashlib

    seed = frame.attrs.get("seed")
    try:
        key = (spec.name, rules, tuple(policies), int(seed),
               hashlib.blake2b(frame["game_index"].to_numpy().tobytes(), digest_size=16).hexdigest())
        hash(key)
    except (TypeError, ValueError, KeyError):
        return spec.simulated_odds(frame, rules, policies)
    found = _SIMULATED.pop(key) if key in _SIMULATED else spec.simulated_odds(frame, rules, policies)
    _SIMULATED[key] = found  # the newest
    while len(_SIMULATED) > SIMULATED_KEPT:
        del _SIMULATED[next(iter(_SIMULATED))]
    return found


def job_players(spec, kind: str) -> list:
    """The players of the page's tournament (``"tournament"``: random, greedy and the game's lookahead
    setting, as the report's) or ladder (``"ladder"``: the report's rungs)."""
    runs = spec.presentation.page_runs
    names = ("random", "greedy", runs.lookahead) if kind == "tournament" else runs.ladder_policies
    return list(dict.fromkeys(runs.lookahead if n == "lookahead" else n for n in names))


def job_games(spec, rules, kind: str) -> int:
    """Default games per pairing or seating of the page's tournament or ladder for these rules: the
    report's size (``GameSpec.presentation.page_runs``, set per game from its measured speed) for the standard player
    count, scaled for another count so that the whole job plays about as many games (more players: more
    seatings, fewer games each), at least 10.  ``benchmarks/jobs.py`` times every default job of every
    game and player count against the 60 s budget."""
    from toolkit.analysis import tournament

    base_games = spec.presentation.page_runs.tournament if kind == "tournament" else spec.presentation.page_runs.ladder
    names = job_players(spec, kind)
    standard = spec.seats(spec.Rules())
    ratio = len(tournament.lineups(names, standard)) / len(tournament.lineups(names, spec.seats(rules)))
    return max(10, int(round(base_games * ratio, -1 if base_games * ratio >= 100 else 0)))


@dataclasses.dataclass
class RunView:
    """One shown run: its HTML (plots and tables) and what it was (the frame, the rules, the players)."""

    data: str
    frame: pd.DataFrame
    rules: object
    policies: tuple

    def _repr_html_(self) -> str:
        return self.data


@dataclasses.dataclass
class Baseline:
    """A pinned run: later runs are shown as paired differences from it."""

    frame: pd.DataFrame
    rules: object
    policies: tuple
    text: str  # the rules and players in words, for the page


def _file_name(name: str) -> str:
    """A variant's name as a file's: letters, digits, - and _ kept, every other run of characters one -."""
    import re

    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-") or "variant"


def _command_for(spec, rules) -> str:
    """The ``toolkit simulate`` command that plays ``rules``: their preset (or the nearest) and a ``--set`` for
    each rule that differs from it."""
    from toolkit.core import variants
    from toolkit.core.params import params_of

    preset = rules.preset_name() or variants.nearest_preset(rules)
    kinds = params_of(type(rules))
    sets = " ".join(f"--set {k}={kinds[k].kind.format(v)}" for k, v in variants.differences(rules, preset).items())
    return f"toolkit simulate {spec.name} --preset {preset} {sets}".rstrip()


def _games_box(value: int, description: str, minimum: int, step: int):
    """A box for the games of a run (at most 10,000,000), labelled ``description``."""
    import ipywidgets as w

    return w.BoundedIntText(value=value, min=minimum, max=10_000_000, step=step, description=description,
                            style={"description_width": "initial"}, layout=w.Layout(width="16em"))


class Dashboard:
    """The page of :func:`dashboard`; its parts are attributes so tests (and users) can drive it.

    Attributes
    ----------
    game : ipywidgets.Dropdown
    panel : toolkit.viz.widgets.RulesPanel
        Rebuilt when the game changes.
    seat_policies : list of ipywidgets.Combobox
        One per seat of the current rules, at the report's players (``GameSpec.default_policies``): a menu
        of the game's players (``GameSpec.player_choices``: its policies, its named players such as
        ``lookahead:64``, ``mcts:100`` and ``mcts:1000``) that also takes any other valid name typed in
        (``mcts:300``); a name the game refuses is shown at the seats (``seat_message``) and nothing is played.
    seat_message : ipywidgets.HTML
        The seats' error, or the time a slow line-up is expected to take.
    frame : DataFrame or None
        The last run shown, one row per game.
    baseline : Baseline or None
        The pinned run (``pin_baseline``); ``differences`` the last run's paired differences from it.
    run_slot, tournament_slot, ladder_slot, tune_slot : toolkit.viz.page_jobs.Slot
        Where each kind of work runs (in a thread when ``background``; ``wait()`` waits for it).
    """

    def __init__(self, game: str | None = None, *, n_games: int | None = None, seed: int = 0,
                 threads: int | None = None, tournament_games: int | None = None, refresh: bool = True,
                 background: bool | None = None, variants: str = ".", ask_above: float | None = None):
        import ipywidgets as w

        from toolkit.games import GAMES

        game = next(iter(GAMES)) if game is None else game  # no game named here: the first registered

        from toolkit.core import costs

        self.seed = seed
        self.threads = threads
        self.n_games = n_games
        self.ask_above = costs.ASK_ABOVE if ask_above is None else ask_above
        self._asked = None  # (the held run's key, the games that fit, its estimate): a run over ask_above is asked first
        self._allowed = None  # (key, estimate) of the held run the page chose to play (whole or the games offered)
        self.fewer_button = w.Button(icon="fast-forward", layout=w.Layout(width="auto"),
                                     tooltip="play the games that fit the time a run starts without asking")
        self.all_button = w.Button(icon="play", layout=w.Layout(width="auto"), tooltip="play every game asked for")
        self.fewer_button.on_click(lambda _: self.play_fewer())
        self.all_button.on_click(lambda _: self.play_all())
        self.ask_box = w.HBox([self.fewer_button, self.all_button], layout=w.Layout(display="none",
                                                                                  flex_flow="row wrap"))
        self.fixed_tournament_games = tournament_games
        self.background = page_jobs.in_kernel() if background is None else background
        self.frame = None
        self.rules = None
        self.policies = None
        self.baseline = None
        self.differences = None
        self.limits = {}  # (game, seats, panel) -> (xlim, ylim) of the plots so far: they only widen
        self.seat_policies = []
        self.seat_message = w.HTML()
        self.game = w.Dropdown(options=[(spec.title, name) for name, spec in GAMES.items()], value=get_spec(game).name,
                               description="game")
        self.policy_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.controls_box = w.VBox(layout=w.Layout(flex="0 0 42%", min_width="0"))
        self.run_box = w.VBox(layout=w.Layout(flex="1 1 58%", min_width="0"))
        self.run_box.add_class("toolkit-run")

        self.run_progress = page_jobs.Progress("playing")
        self.run_slot = page_jobs.Slot(self.background, self.run_progress)
        self.pin_button = w.Button(description="pin as baseline", icon="thumb-tack", layout=w.Layout(width="auto"),
                                   tooltip="keep this run: later runs are shown as paired differences from it")
        self.unpin_button = w.Button(description="clear baseline", icon="times", layout=w.Layout(width="auto"),
                                     disabled=True)
        self.baseline_note = w.HTML()
        self.pin_button.on_click(lambda _: self.pin_baseline())
        self.unpin_button.on_click(lambda _: self.clear_baseline())
        # play on until settled (issue 50): the page's rules and players against the pinned baseline's
        self.settle_tolerance = w.BoundedFloatText(value=0.01, min=0.0005, max=0.5, step=0.005,
                                                   description="tolerance", layout=w.Layout(width="12em"),
                                                   tooltip="the largest change of a rate that counts as none")
        self.settle_games = _games_box(200_000, "at most games", 2_000, 10_000)
        self.settle_button = w.Button(description="play on until settled", icon="forward", disabled=True,
                                      layout=w.Layout(width="auto"),
                                      tooltip="play the baseline and this run's rules in batches on the same seeds "
                                              "until each difference is shown, or shown smaller than the tolerance")
        self.settle_progress, self.settle_slot, self.settle_output = self._watched("settling")
        self.settled = None
        self.settle_button.on_click(lambda _: self.run_settle())

        # rule variants (issue 51): save the page's rules as a file, open one, reset, compare up to three, sweep
        self.variant_name = w.Text(value="", placeholder="a name for these rules", description="variant",
                                   layout=w.Layout(width="20em"))
        self.variant_folder = w.Text(value=str(variants), description="in the folder", style={"description_width": "initial"},
                                     layout=w.Layout(width="20em"))
        self.save_variant_button = w.Button(description="save as a variant", icon="save", layout=w.Layout(width="auto"),
                                            tooltip="write the page's rules as a variant file (NAME.toml) that every "
                                                    "command reads with --rules FILE")
        self.variant_menu = w.Dropdown(description="open", layout=w.Layout(width="20em"))
        self.open_variant_button = w.Button(description="open the variant", icon="folder-open",
                                            layout=w.Layout(width="auto"))
        self.reset_button = w.Button(description="reset to the preset", icon="undo", layout=w.Layout(width="auto"))
        self.variant_note = w.HTML()
        self.compare_variants = w.SelectMultiple(description="variants", rows=4, layout=w.Layout(width="24em"))
        self.compare_games = _games_box(20_000, "games each", 100, 10_000)
        self.compare_button = w.Button(description="compare side by side", icon="columns", layout=w.Layout(width="auto"))
        self.compare_progress, self.compare_slot, self.compare_output = self._watched("comparing variants")
        self.compared = None
        self.sweep_rule = w.Dropdown(description="rule", layout=w.Layout(width="20em"))
        self.sweep_metric = w.Dropdown(description="metric", layout=w.Layout(width="20em"))
        self.sweep_games = _games_box(5_000, "games a value", 100, 1_000)
        self.sweep_button = w.Button(description="sweep the rule", icon="line-chart", layout=w.Layout(width="auto"))
        self.sweep_progress, self.sweep_slot, self.sweep_output = self._watched("sweeping")
        self.swept = None
        self.apply_tuned_button = w.Button(description="apply the tuned rules", icon="check", disabled=True,
                                           layout=w.Layout(width="auto"),
                                           tooltip="put the tuned rules on the page (then save them as a variant)")
        for button, action in (("save_variant_button", "save_variant"), ("open_variant_button", "open_variant"),
                               ("reset_button", "reset_rules"), ("compare_button", "run_compare"),
                               ("sweep_button", "run_sweep"), ("apply_tuned_button", "apply_tuned")):
            getattr(self, button).on_click(lambda _, action=action: getattr(self, action)())
        self.variant_folder.observe(lambda _: self._variant_menus(), names="value")

        self.tournament_games = w.IntText(value=tournament_games or 10, description="games per pairing",
                                          style={"description_width": "initial"}, layout=w.Layout(width="16em"))
        self.tournament_button = w.Button(description="run a policy tournament", icon="trophy",
                                          layout=w.Layout(width="auto"))
        self.tournament_progress, self.tournament_slot, self.tournament_output = self._watched("tournament")
        self.ladder_games = w.IntText(value=10, description="games per pairing", style={"description_width": "initial"},
                                      layout=w.Layout(width="16em"))
        self.ladder_button = w.Button(description="climb the strength ladder", icon="signal",
                                      layout=w.Layout(width="auto"))
        self.ladder_progress, self.ladder_slot, self.ladder_output = self._watched("ladder")
        self.ladder = None
        self.csv_button = w.Button(description="prepare the CSV of this run", icon="download",
                                   layout=w.Layout(width="auto"))
        self.csv_link = w.HTML()
        self.tune_metric = w.Dropdown(description="metric", layout=w.Layout(width="auto"))
        self.tune_goal = w.Dropdown(options=["reach", "max", "min"], value="reach", description="",
                                    tooltip="goal: reach the target, or the metric's max or min",
                                    layout=w.Layout(width="6em"))
        self.tune_value = w.FloatText(value=0.5, description="target", layout=w.Layout(width="12em"))
        self.tune_rules = w.SelectMultiple(description="rules to vary", rows=6, layout=w.Layout(width="auto"),
                                           style={"description_width": "initial"})
        self.tune_trials = w.BoundedIntText(value=TUNE_TRIALS, min=2, max=1_000, description="trials",
                                            layout=w.Layout(width="10em"))
        self.tune_games = w.BoundedIntText(value=TUNE_GAMES, min=10, max=10_000_000, step=1000,
                                           description="games per trial", style={"description_width": "initial"})
        self.tune_button = w.Button(description="tune the rules", icon="sliders", layout=w.Layout(width="auto"))
        self.tune_progress, self.tune_slot, self.tune_output = self._watched("tuning")
        self.tune_question = w.HTML()  # the game's own question, which the controls come prefilled with
        self.tuning = None
        # see and play (issue 38): a seeded game of these rules and seats, a seat for you, which decisions matter
        self.watch_index = w.BoundedIntText(value=0, min=0, max=10**9, description="game number",
                                            style={"description_width": "initial"}, layout=w.Layout(width="14em"))
        self.watch_button = w.Button(description="watch this game", icon="eye", layout=w.Layout(width="auto"))
        self.play_seat = w.Dropdown(options=[0, 1], value=0, description="your seat",
                                    style={"description_width": "initial"}, layout=w.Layout(width="10em"))
        self.play_button = w.Button(description="play it yourself", icon="hand-pointer-o", layout=w.Layout(width="auto"))
        self.see_note = w.HTML()
        self.see_box = w.VBox()
        self.viewer = self.player = None
        self.decision_games = w.IntText(value=200, description="games to judge", style={"description_width": "initial"},
                                        layout=w.Layout(width="14em"))
        from toolkit.analysis.decisions import JUDGE

        self.decision_judge = w.Text(value=JUDGE, description="judge", layout=w.Layout(width="14em"))
        self.decisions_button = w.Button(description="which decisions matter?", icon="balance-scale",
                                         layout=w.Layout(width="auto"))
        self.decisions_progress, self.decisions_slot, self.decisions_output = self._watched("judging decisions")
        self.decisions = None
        for slot, output in ((self.tournament_slot, self.tournament_output), (self.ladder_slot, self.ladder_output),
                             (self.tune_slot, self.tune_output), (self.decisions_slot, self.decisions_output),
                             (self.settle_slot, self.settle_output), (self.compare_slot, self.compare_output),
                             (self.sweep_slot, self.sweep_output)):
            slot.on_cancelled = lambda output=output: self._show(  # in place of its "playing …" note
                output, f'<span style="{_NOTE_STYLE}">cancelled: nothing to show</span>')
        for button, action in (("watch_button", "watch"), ("play_button", "play"),
                               ("decisions_button", "run_decisions"), ("tune_button", "run_tuning"),
                               ("tournament_button", "run_tournament"), ("ladder_button", "run_ladder"),
                               ("csv_button", "prepare_csv")):
            getattr(self, button).on_click(lambda _, action=action: getattr(self, action)())
        self.game.observe(lambda change: self._build(change["new"], refresh=True), names="value")
        self.box = w.VBox([
            w.HTML(_PAGE_STYLE + "<h2>What are the odds, and is this rule fair?</h2>"),
            self.game,
            w.HBox([self.controls_box, self.run_box], layout=w.Layout(width="100%", align_items="flex-start",
                                                                       grid_gap="16px")),
            w.HTML("<h3>Rule variants: save, open, compare</h3>"),
            w.HBox([self.variant_name, self.save_variant_button, self.reset_button],
                   layout=w.Layout(flex_flow="row wrap")),
            w.HBox([self.variant_folder, self.variant_menu, self.open_variant_button],
                   layout=w.Layout(flex_flow="row wrap")), self.variant_note,
            w.HTML(f'<span style="{_NOTE_STYLE}">The page\'s rules beside up to three variants of the folder, on the '
                   "same seeds and players: each variant's paired differences from the page's rules.</span>"),
            w.HBox([self.compare_variants, self.compare_games, self.compare_button],
                   layout=w.Layout(flex_flow="row wrap", align_items="center")),
            self.compare_progress.box, self.compare_output,
            w.HTML("<h3>Sweep one rule over its range</h3>"),
            w.HTML(f'<span style="{_NOTE_STYLE}">One rule over its range, the others as on the page, every value on '
                   "the same seeds: a metric against the value, with 95% intervals.</span>"),
            w.HBox([self.sweep_rule, self.sweep_metric, self.sweep_games, self.sweep_button],
                   layout=w.Layout(flex_flow="row wrap")), self.sweep_progress.box, self.sweep_output,
            w.HTML("<h3>A policy tournament on these rules</h3>"),
            w.HBox([self.tournament_games, self.tournament_button]), self.tournament_progress.box,
            self.tournament_output,
            w.HTML("<h3>The strength ladder on these rules</h3>"),
            w.HBox([self.ladder_games, self.ladder_button]), self.ladder_progress.box, self.ladder_output,
            w.HTML("<h3>Tune the rules toward a target</h3>"), self.tune_question,
            w.HBox([self.tune_metric, self.tune_goal, self.tune_value]), self.tune_rules,
            w.HBox([self.tune_trials, self.tune_games, self.tune_button]), self.tune_progress.box, self.tune_output,
            self.apply_tuned_button,
            w.HTML("<h3>See and play a game on these rules</h3>"),
            w.HBox([self.watch_index, self.watch_button, self.play_seat, self.play_button]), self.see_note,
            self.see_box,
            w.HTML("<h3>Which decisions matter on these rules</h3>"),
            w.HBox([self.decision_games, self.decision_judge, self.decisions_button]), self.decisions_progress.box,
            self.decisions_output,
            w.HTML("<h3>This run as a table</h3>"), w.HBox([self.csv_button, self.csv_link]),
        ])
        self._build(self.game.value, refresh=refresh)
        if self.background:  # in a kernel: a page drawn before a variant was saved (a preheated one) lists it
            threading.Thread(target=self._watch_variants, daemon=True, name="variant-files").start()

    def _watch_variants(self) -> None:
        """Every :data:`VARIANTS_EVERY` seconds, the variant menus follow the folder (a variant saved by
        another page, or before this page's kernel was handed to it), until the page's box is closed."""
        while self.box.comm is not None:
            time.sleep(VARIANTS_EVERY)
            try:
                if self.variant_files() != list(self.variant_menu.options):
                    self._variant_menus()
            except Exception:  # a folder gone for a moment: tried again at the next look
                continue

    # -- building -------------------------------------------------------------------

    def _build(self, game: str, *, refresh: bool) -> None:
        from toolkit.viz.widgets import rules_panel

        for slot in (self.run_slot, self.tournament_slot, self.ladder_slot, self.tune_slot, self.decisions_slot,
                     self.settle_slot, self.compare_slot, self.sweep_slot):
            slot.cancel()  # the other game's work is of no use now
        self.spec = get_spec(game)
        self.frame = None
        self.clear_baseline()
        self.csv_link.value = ""
        self.tournament_output.outputs = ()
        self.ladder_output.outputs = ()
        self.decisions_output.outputs = ()
        self._clear_seeing()
        n = self.n_games or self.spec.presentation.panel_games
        old_panel = getattr(self, "panel", None)
        if old_panel is not None:
            _close_tree(old_panel.box)  # else every game switch leaves its widgets alive in kernel and page
        self.panel = rules_panel(self.spec, self._run, n_games=n, refresh=False, title=f"{self.spec.title} rules",
                                 columns=2, slot=self.run_slot, check=self._check_seats)
        self.panel.on_result = self._shown
        self.run_slot.on_cancelled = self._run_cancelled
        self._seat_controls(self.panel.rules(), keep=False)  # a new game: its own seats and policies
        self.controls_box.children = [self.policy_box, self.panel.controls]
        self._hide_ask()
        self.run_box.children = [self.run_progress.box, self.panel.status, self.ask_box,
                                 self._row(self.pin_button, self.unpin_button, self.baseline_note),
                                 self._row(self.settle_tolerance, self.settle_games, self.settle_button),
                                 self.settle_progress.box, self.settle_output, self.panel.output]
        self._job_sizes(self.panel.rules())
        self._tune_controls()
        self._variant_menus()
        self._sweep_controls()
        self.compare_output.outputs = ()
        self.sweep_output.outputs = ()
        self.apply_tuned_button.disabled = True
        if refresh:
            self.panel.refresh()

    # -- see and play (issue 38) ----------------------------------------------------------

    def _clear_seeing(self) -> None:
        for shown in (self.viewer, self.player):
            if shown is not None:
                _close_tree(shown.widget)
        self.viewer = self.player = None
        self.see_box.children = ()
        self.see_note.value = ""

    def _seeing_settings(self):
        """The rules, the seat players and the game number to see, or None (the reason shown)."""
        try:
            rules = self.panel.rules()
            self._check_seats(rules)
            policies = self.seat_players(rules)
        except ValueError as error:
            self.see_note.value = error_html(error)
            return None
        return rules, policies, int(self.watch_index.value)

    def watch(self):
        """The viewer (:func:`toolkit.viz.viewer.viewer`) of game ``game number`` of this page's seed, played by
        the seats' players on the current rules: the game the page's run counts as that row."""
        from toolkit.viz.viewer import viewer

        settings = self._seeing_settings()
        if settings is None:
            return None
        rules, policies, index = settings
        self._clear_seeing()
        self.viewer = viewer(self.spec, rules, policies, self.seed, index)
        self.see_box.children = (self.viewer.widget,)
        return self.viewer

    def play(self):
        """A game of the current rules where you play seat ``your seat`` against the other seats' players
        (:func:`toolkit.viz.viewer.play`); what your seat cannot see stays hidden."""
        from toolkit.viz.viewer import play

        settings = self._seeing_settings()
        if settings is None:
            return None
        rules, policies, index = settings
        self._clear_seeing()
        self.player = play(self.spec, rules, policies, self.seed, index, seat=int(self.play_seat.value))
        self.see_box.children = (self.player.widget,)
        return self.player

    def run_decisions(self):
        """Which decisions matter (:func:`toolkit.analysis.decisions.decisions`) with the seats' players on the
        current rules, in the background with progress and a cancel; shows the table and its sentences.
        Returns the Job, or ``None``; ``decisions`` holds the table when done."""
        from toolkit.analysis import decisions

        rules = self._job_rules(self.decisions_output)
        games = self.decision_games.value
        if rules is None:
            return None
        if isinstance(games, bool) or not isinstance(games, int) or not 2 <= games <= 1_000_000:
            self._show(self.decisions_output, _error(f"games={games!r} is not allowed: an integer in 2..1,000,000"))
            return None
        judge = self.decision_judge.value.strip()
        try:
            self._check_seats(rules)
            policies = self.seat_players(rules)
            decisions.check_judge(self.spec, judge)
        except ValueError as error:
            self._show(self.decisions_output, _error(error))
            return None
        spec, seed = self.spec, self.seed
        self._show(self.decisions_output, f'<span style="{_NOTE_STYLE}">judging the decisions of {games:,} games '
                                          f"with {html.escape(judge)} …</span>")
        return self._start_job(
            "decisions", self.decisions_slot, self.decisions_output,
            lambda: decisions.decisions(spec.name, rules, n_games=games, seed=seed, policies=policies, judge=judge,
                                        progress=False),
            self._decisions_html, f"the decisions of {games:,} games")

    @staticmethod
    def _decisions_html(table) -> str:
        from toolkit.analysis import decisions

        return (f"<p>{html.escape(decisions.answer(table))}</p>"
                + decisions.shown(table).to_html(escape=True, border=0))

    @staticmethod
    def _row(*children):
        import ipywidgets as w

        return w.HBox(list(children), layout=w.Layout(flex_flow="row wrap", align_items="center"))

    def _job_sizes(self, rules) -> None:
        """The tournament's and the ladder's default games for this game and player count."""
        if self.fixed_tournament_games is None:
            self.tournament_games.value = job_games(self.spec, rules, "tournament")
        self.ladder_games.value = job_games(self.spec, rules, "ladder")
        self._sized_for = self.spec.seats(rules)

    def _tune_controls(self) -> None:
        """The tuning's choices for the current game, prefilled with its own question."""
        from toolkit.analysis import metrics, tuning
        from toolkit.core.params import params_of

        self.tuning = None
        self.tune_output.outputs = ()
        rules = self.panel.rules()
        self.tune_metric.options = [(metrics.label(m), m) for m in tuning.metric_names(self.spec, rules)]
        fields = params_of(self.spec.Rules)
        searchable = []
        for name in fields:
            try:
                tuning.space(self.spec, {name: None})
            except ValueError:
                continue  # a domain without bounds (a mapping, a list, a free number): not offered
            searchable.append(name)
        self.tune_rules.options = [(fields[name].label, name) for name in searchable]
        question = self.spec.presentation.tune_question
        self.tune_question.value = "" if question is None else (
            f"<p><i>{html.escape(question.question)}</i> (the game's question, asked of the "
            f"{html.escape(question.preset or 'standard')} preset with {html.escape(question.policies or 'random')} "
            "players; the tuning runs on the rules and players set above)</p>")
        if question is not None:
            (metric, goal), = list(question.targets.items())[:1]
            self.tune_metric.value = metric
            self.tune_goal.value = goal if isinstance(goal, str) else "reach"
            self.tune_value.value = 0.0 if isinstance(goal, str) else float(goal)
            self.tune_rules.value = tuple(n for n in question.vary if n in searchable)

    def _seat_controls(self, rules, *, keep: bool = True) -> None:
        """One player box per seat of ``rules``; ``keep``: the seats that stay keep their choice."""
        import ipywidgets as w

        seats = self.spec.seats(rules)
        if list(self.play_seat.options) != list(range(seats)):
            self.play_seat.options = list(range(seats))  # the seat a person may take
        if keep and len(self.seat_policies) == seats:
            for k, box in enumerate(self.seat_policies):  # a rule may rename the seats (a Halali match)
                box.description = self.spec.seat_name(rules, k)
            return
        defaults = self.spec.default_policies(rules)  # the report's players, so the first numbers agree
        old = [d.value for d in self.seat_policies] if keep else []
        for box in self.seat_policies:
            box.close()
        self.seat_policies = []
        choices = list(self.spec.player_choices())
        for k in range(seats):
            box = w.Combobox(value=old[k] if k < len(old) else defaults[k], options=choices, ensure_option=False,
                             placeholder="a player, e.g. mcts:300", description=self.spec.seat_name(rules, k),
                             continuous_update=False, layout=w.Layout(width="15em"))
            box.observe(self._on_seat, names="value")
            self.seat_policies.append(box)
        self.seat_message.value = ""
        self.policy_box.children = [w.HTML("<b>players</b>&nbsp;"), *self.seat_policies, self.seat_message]
        if getattr(self, "_sized_for", None) not in (None, seats):
            self._job_sizes(rules)  # another player count: the jobs' default sizes follow

    def seat_players(self, rules) -> tuple:
        """The seats' players, checked as the CLI checks ``--policies``; a ``ValueError`` is also shown at the
        seats."""
        try:
            policies = self.spec.check_policies([box.value.strip() for box in self.seat_policies], rules)
        except ValueError as error:
            self.seat_message.value = _error(error)
            raise
        self.seat_message.value = ""
        return policies

    def _check_seats(self, rules) -> None:
        """Before a run, on the page's thread: the seats follow the player count, and a refused name is
        shown at the seats at once (not after a run still going)."""
        self._seat_controls(rules)
        self.seat_players(rules)

    def _on_seat(self, _change) -> None:
        try:
            self.seat_players(self.panel.rules())
        except ValueError:
            self.run_slot.cancel()  # a run still going is for a line-up no longer shown
            return  # the message is at the seats; the last plots stay
        if self.panel.auto:
            self.panel.refresh()

    def _watched(self, label: str):
        """A watched job's parts on the page: its progress line (saying ``label``), the slot that runs it in
        the background, and the output its results are shown in."""
        import ipywidgets as w

        progress = page_jobs.Progress(label)
        return progress, page_jobs.Slot(self.background, progress), w.Output()

    def estimate(self, rules, policies, n_games: int):
        """How long ``n_games`` games of this line-up should take, before they are played
        (:func:`toolkit.core.runner.estimate`: the players' shipped speed weighed with a probe of the run's first
        games): a :class:`toolkit.core.costs.Estimate`."""
        from toolkit.core import runner

        return runner.estimate(self.spec, rules, policies, n_games, seed=self.seed, threads=self.threads)

    def _ask(self, guess, n_games: int, policies, key) -> str:
        """Hold a run expected to take over :attr:`ask_above` seconds: offer the games that fit and the whole
        run (two buttons under the status line); returns the status line's words."""
        from toolkit.core.jobs import format_duration

        fewer = min(guess.fitting(self.ask_above), n_games - 1)
        self._asked = (key, fewer, guess)
        players = html.escape(",".join(policies))
        self.fewer_button.description = f"play {fewer:,} games (about {format_duration(guess.seconds * fewer / n_games)})"
        self.all_button.description = f"play all {n_games:,} games (about {format_duration(guess.seconds)})"
        self.ask_box.layout.display = "flex"
        return (f"<b>not started</b>: {n_games:,} games of {players} would take "
                f"{html.escape(guess.words())}, over the {format_duration(self.ask_above)} a run starts without "
                "asking; choose below. The plots below are the last run's.")

    def _hide_ask(self) -> None:
        self._asked = None
        self.ask_box.layout.display = "none"

    def play_fewer(self) -> None:
        """The held run's offer taken: the games that fit the time, played at once."""
        if self._asked is None:
            return
        (rules, policies, n_games, seed), fewer, guess = self._asked
        offered = dataclasses.replace(guess, seconds=guess.seconds * fewer / n_games)
        self._allowed = ((rules, policies, fewer, seed), offered)  # offered: played without asking again
        self._hide_ask()
        if self.panel.n_games.value != fewer:
            self.panel.n_games.value = fewer  # a change of the games box plays (the panel's own refresh)
            if self.panel.auto:
                return
        self.panel.refresh()

    def play_all(self) -> None:
        """The held run played whole, as asked."""
        if self._asked is None:
            return
        self._allowed = (self._asked[0], self._asked[2])
        self._hide_ask()
        self.panel.refresh()

    # -- the baseline ---------------------------------------------------------------

    def pin_baseline(self) -> Baseline | None:
        """Keep the run shown as the baseline of the runs after it."""
        if self.frame is None:
            self.baseline_note.value = f'<span style="{_NOTE_STYLE}">no run to pin yet</span>'
            return None
        players = ",".join(self.policies)
        self.baseline = Baseline(self.frame, self.rules, self.policies,
                                 f"{self.panel.describe(self.rules)}, players {html.escape(players)}, "
                                 f"{len(self.frame):,} games")
        self.unpin_button.disabled = False
        self.settle_button.disabled = False
        self.baseline_note.value = (f'<span style="{_NOTE_STYLE}">baseline: {self.baseline.text}; change a rule or a '
                                    "player to see the difference</span>")
        return self.baseline

    def clear_baseline(self) -> None:
        self.baseline = None
        self.differences = None
        self.unpin_button.disabled = True
        self.settle_button.disabled = True
        self.settle_slot.cancel()
        self.settle_output.outputs = ()
        self.baseline_note.value = ""

    def run_settle(self):
        """The page's rules and players against the pinned baseline's, played in batches on the page's seed
        until every headline quantity is settled (:func:`toolkit.analysis.settle.settle`: an always-valid
        interval read after every batch) or the games run out; in the background with progress and a cancel.

        Returns the Job, or ``None`` (no baseline, bad rules or settings); ``settled`` holds the table when
        done."""
        from toolkit.analysis import settle as settling

        baseline = self.baseline
        if baseline is None:
            self._show(self.settle_output, _error("pin a run as the baseline first"))
            return None
        try:
            rules = self.panel.rules()
            policies = self.seat_players(rules)
        except ValueError as error:
            self._show(self.settle_output, _error(error))
            return None
        if self.spec.seats(rules) != self.spec.seats(baseline.rules):
            self._show(self.settle_output, _error("the baseline has another number of players: pin a run of "
                                                  "these seats first"))
            return None
        tolerance, most = float(self.settle_tolerance.value), int(self.settle_games.value)
        self._show(self.settle_output, f'<span style="{_NOTE_STYLE}">playing the baseline and these rules on the same '
                                       f"seeds, looking after every batch ({settling.FIRST_BATCH:,} games a side, "
                                       f"then half as many again each time), at most {most:,} games a side …</span>")
        spec, seed, threads = self.spec, self.seed, self.threads
        return self._start_job(
            "settled", self.settle_slot, self.settle_output,
            lambda: settling.settle(spec, rules, baseline.rules, policies=policies, baseline_policies=baseline.policies,
                                    seed=seed, quantities="all", tolerance=tolerance, max_games=most,
                                    threads=threads, progress=False),
            self._settled_html, f"until settled, at most {most:,} games a side")

    @staticmethod
    def _settled_html(table) -> str:
        shown = pd.DataFrame({
            "quantity": table["quantity"],
            "baseline": [f"{v:.3f}" for v in table["baseline"]],
            "now": [f"{v:.3f}" for v in table["now"]],
            "difference [always-valid 95%]": [f"{r.difference:+.3f} [{r.ci_low:+.3f}, {r.ci_high:+.3f}]"
                                              for r in table.itertuples()],
            "verdict": table["verdict"],
            "games a side": [f"{g:,}" for g in table["games"]],
        })
        looks = ", ".join(f"{n:,}" for n in table.attrs["looks"])
        head = ("Settled" if table.attrs["settled"] else "Not settled") + \
            f" after {table.attrs['games']:,} games a side (looked at {looks})."
        return (f"<h3>Until settled</h3><p>{head}</p><ul>"
                + "".join(f"<li>{html.escape(sentence)}</li>" for sentence in table["sentence"]) + "</ul>"
                + shown.to_html(index=False, escape=True, border=0))

    # -- one run --------------------------------------------------------------------

    def _run(self, rules, n_games: int) -> RunView:
        from toolkit.core import warm
        from toolkit.core.runner import simulate

        policies = self.seat_players(rules)
        compiling = warm.notice(self.spec, rules, policies)
        if compiling:  # minutes once per machine and version: said before the page goes quiet
            self.panel.status.value = compiling
        self._hide_ask()
        key = (rules, tuple(policies), n_games, self.seed)
        if self._allowed is not None and self._allowed[0] == key:
            guess = self._allowed[1]  # asked about and chosen: not estimated again
        else:
            guess = self.estimate(rules, policies, n_games)
            if guess.seconds > self.ask_above:
                raise NotPlayed(self._ask(guess, n_games, policies, key))
        if guess.seconds >= SLOW_RUN:
            self.seat_message.value = (f'<span style="{_NOTE_STYLE}">{n_games:,} games of {",".join(policies)}: '
                                       f"{html.escape(guess.words())}</span>")
        frame = simulate(self.spec, rules, n_games, seed=self.seed, policies=policies, threads=self.threads,
                         progress=False)
        baseline = self.baseline  # read once: the page's thread may pin another meanwhile
        with page_jobs.DRAW_LOCK:
            return self._draw(rules, policies, frame, baseline)

    def _draw(self, rules, policies, frame, baseline) -> RunView:
        from toolkit.analysis import metrics, paired
        from toolkit.viz import plots, report_html

        title = f"{self.spec.title}, {len(frame):,} games, policies {','.join(policies)}"
        figure = _figure(figsize=(10, 6.6))
        axes = figure.subplots(2, 2).ravel()
        seats = self.spec.seats(rules)
        names = [self.spec.seat_name(rules, s) for s in range(seats)]
        plots.seat_advantage_bar(metrics.seat_advantage(frame), ax=axes[0], title="win rate by seat and by place",
                                 seat_names=names)
        self._steady(axes[0], seats, "seats", x=False)
        if baseline is not None:
            plots.length_histogram(baseline.frame, "turns", ax=axes[1], label="baseline")
        plots.length_histogram(frame, "turns", ax=axes[1], title="game length",
                               label="this run" if baseline is not None else None)
        axes[1].set_xlabel(f"turns (a turn is {self.spec.turn_word})")
        self._steady(axes[1], seats, "length")
        plots.score_distribution(frame, ax=axes[2], title="final score per seat", seat_names=names)
        self._steady(axes[2], seats, "score")
        differences = None
        if baseline is None:
            axes[3].axis("off")
            axes[3].text(0.5, 0.5, "Pin a run as the baseline:\nthe runs after it are shown here\n"
                                   "as paired differences on the same seeds.", ha="center", va="center",
                         color="#555", transform=axes[3].transAxes)
        else:
            differences = paired.before_after(baseline.frame, frame)
            rates = differences[~differences["quantity"].str.contains("turns")]
            plots.interval_plot(rates, ax=axes[3], label="quantity", reference=0.0, digits=3,
                                xlabel="this run − baseline (95% interval, paired)", ylabel="",
                                title="the change from the baseline")
            self._steady(axes[3], seats, "differences", y=False)
        figure.suptitle(title)
        image = report_html.figure_uri(figure)  # laid out there (fit_titles); the plots first, then the tables

        parts = [f'<img src="{image}" alt="{html.escape(title)}" style="max-width:100%">']
        if differences is not None:
            parts.append(self._differences_html(differences, baseline))
        table = report_html.metrics_table(metrics.design_metrics(frame)).drop(columns="run")  # one run here
        odds = simulated_odds(self.spec, rules, frame, policies)
        odds_shown = pd.DataFrame({"quantity": odds["quantity"], "exact": odds["exact"],
                                   "value": odds["value"].map("{:.4f}".format),
                                   "simulated": odds["simulated"].map(lambda v: "–" if pd.isna(v) else f"{v:.4f}")})
        note = (f'<p style="{_NOTE_STYLE}">"simulated" measures the same quantity on this run: from its '
                f"records, or, for a quantity of the deal or set-up, by replaying the deals of up to its first "
                f"{min(len(frame), SAMPLE_DEALS):,} games; – where neither measures it.</p>" if odds["simulated"].notna().any() else
                f'<p style="{_NOTE_STYLE}">Neither the game records nor a replay of the deals measure these '
                "quantities, so only the exact values are shown.</p>")
        parts += ["<h3>Design metrics</h3>", table.to_html(index=False, escape=True, border=0),
                  "<h3>Exact odds and simulated ones</h3>", odds_shown.to_html(index=False, escape=True, border=0),
                  note]
        view = RunView("".join(parts), frame, rules, tuple(policies))
        view.differences = differences
        return view

    def _differences_html(self, differences: pd.DataFrame, baseline: Baseline) -> str:
        """The before/after sentences and their table."""
        games = differences.attrs["games"]
        how = ("paired on the same seeds" if differences.attrs["paired"]
               else "on different seeds, so unpaired")
        cut = "" if differences.attrs["baseline_games"] == differences.attrs["games_now"] else (
            f" (the first {games:,} games of each: the baseline has {differences.attrs['baseline_games']:,}, "
            f"this run {differences.attrs['games_now']:,})")
        sentences = "".join(f"<li>{html.escape(s)}</li>" for s in differences["sentence"])
        together = differences.attrs.get("together", 1)
        shown = pd.DataFrame({
            "quantity": differences["quantity"],
            "baseline": [f"{v:.3f}" for v in differences["baseline"]],
            "this run": [f"{v:.3f}" for v in differences["now"]],
            f"difference [{'95%' if together == 1 else f'95%, {together} together'}]":
                [f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]" for d, lo, hi in
                                 zip(differences["difference"], differences["ci_low"], differences["ci_high"])]})
        return (f"<h3>Against the baseline</h3><p>Baseline: {baseline.text}. {games:,} games, {how}{cut}.</p>"
                f"<ul>{sentences}</ul>" + shown.to_html(index=False, escape=True, border=0))

    def _steady(self, ax, seats: int, name: str, *, x: bool = True, y: bool = True) -> None:
        """Keep a plot's axes from run to run (widened to show each new run whole), so a change in the rules
        is seen as a change, not as a rescaled axis; a new game or player count starts afresh."""
        key = (self.spec.name, seats, name)
        xlim, ylim = ax.get_xlim(), ax.get_ylim()
        old = self.limits.get(key)
        if old is not None:
            if x:
                xlim = (min(xlim[0], old[0][0]), max(xlim[1], old[0][1]))
                ax.set_xlim(xlim)
            if y:
                ylim = (min(ylim[0], old[1][0]), max(ylim[1], old[1][1]))
                ax.set_ylim(ylim)
        self.limits[key] = (xlim, ylim)

    def _shown(self, view: RunView) -> None:
        """The run now shown (the panel calls this on the page's thread or the run's, once it is the latest)."""
        self.frame, self.rules, self.policies = view.frame, view.rules, view.policies
        self.differences = getattr(view, "differences", None)
        self.csv_link.value = ""

    def _run_cancelled(self) -> None:
        """A run cancelled by hand: the status says so and whose plots are shown (the last finished run's
        players, which the seats may no longer name), and the cancelled run's time estimate is gone."""
        shown = getattr(self, "policies", None)
        self.panel.status.value = ("cancelled: the plots below are the last finished run's"
                                   + (f" (players {html.escape(','.join(shown))})" if shown else ""))
        self.seat_message.value = ""
        self._hide_ask()

    # -- on demand ------------------------------------------------------------------

    def _job_rules(self, output):
        """The current rules and, for a job, its check; a refusal is shown in ``output``."""
        try:
            return self.panel.rules()
        except ValueError as error:
            self._show(output, _error(error))
            return None

    def _games(self, box, output) -> int | None:
        value = box.value
        if isinstance(value, bool) or not isinstance(value, int) or not 10 <= value <= 10_000_000:
            self._show(output, _error(f"{box.description}={value!r} is not allowed: an integer in 10..10,000,000"))
            return None
        return value

    def run_tournament(self):
        """Every policy of the page's tournament (:func:`job_players`) against every other on the current
        rules, in the background with progress and a cancel; shows the matrix, the ratings and their sentence.

        Returns the :class:`~toolkit.core.jobs.Job`, or ``None`` (bad rules or size).  ``tournament_slot.wait()``
        waits for it; ``tournament`` holds the :func:`~toolkit.analysis.tournament.compare` table."""
        from toolkit.analysis import tournament
        from toolkit.core import warm

        rules = self._job_rules(self.tournament_output)
        games = self._games(self.tournament_games, self.tournament_output)
        if rules is None or games is None:
            return None
        names = job_players(self.spec, "tournament")
        compiling = warm.notice(self.spec, rules, ("greedy",) * self.spec.seats(rules))  # the policies' copy
        self._show(self.tournament_output, f'<span style="{_NOTE_STYLE}">{compiling + "; then " if compiling else ""}'
                                           f'playing every pairing of {", ".join(names)}, {games:,} games each …</span>')
        spec, seed, threads = self.spec, self.seed, self.threads
        return self._start_job(
            "tournament", self.tournament_slot, self.tournament_output,
            lambda: tournament.compare(spec, names, games, seed=seed, rules=rules, threads=threads, progress=False),
            lambda table: self._tournament_html(table, rules), f"every pairing of {', '.join(names)}")

    def _start_job(self, attribute: str, slot, output, compute, render, text: str):
        """Start ``compute()`` in ``slot`` (a long job: progress, cancel); its result goes to
        ``self.<attribute>`` and ``render(result)``, drawn under the draw lock, to ``output``; a failure is
        shown in ``output``.  Returns the Job."""
        def work():
            result = compute()
            with page_jobs.DRAW_LOCK:
                return result, render(result)

        def done(pair):
            setattr(self, attribute, pair[0])
            self._show(output, pair[1])

        setattr(self, attribute, None)
        return slot.start(work, done, lambda e: self._show(output, _error(e)), text=text)

    def _tournament_html(self, table, rules) -> str:
        from toolkit.analysis import ratings, tournament
        from toolkit.viz import plots, report_html, words

        seats = self.spec.seats(rules)
        ax = _figure(figsize=(5, 3.5), layout="constrained").subplots()
        plots.comparison_matrix(tournament.matrix(table), ax=ax, centre=0.5 if seats == 2 else 1 / seats,
                                xlabel="opponent (column)" if seats == 2 else "field policy (column)",
                                ylabel="policy (row)" if seats == 2 else "tested policy (row)",
                                title="row policy's win rate" + ("" if seats == 2 else f" (fair share 1/{seats})"))
        image = report_html.figure_uri(ax.figure)
        rated = ratings.ratings(table)
        return (f'<img src="{image}" alt="tournament: row policy\'s win rate" style="max-width:100%">'
                + f"<p>{html.escape(ratings.in_words(rated))}</p>"
                + words.in_words(rated).to_html(escape=True, border=0, float_format="{:.1f}".format))

    def run_ladder(self):
        """The strength ladder (:func:`toolkit.analysis.ladder`) of the report's rungs on the current rules, in
        the background with progress and a cancel; shows its plot, its answer and its table.

        Returns the Job, or ``None``; ``ladder`` holds the table when done."""
        from toolkit.analysis import strength

        rules = self._job_rules(self.ladder_output)
        games = self._games(self.ladder_games, self.ladder_output)
        if rules is None or games is None:
            return None
        names = job_players(self.spec, "ladder")
        spec, seed, threads = self.spec, self.seed, self.threads
        self._show(self.ladder_output, f'<span style="{_NOTE_STYLE}">climbing {", ".join(names)}, {games:,} games '
                                       "per pairing …</span>")
        return self._start_job(
            "ladder", self.ladder_slot, self.ladder_output,
            lambda: strength.ladder(spec, rules, policies=names, n_games=games, seed=seed, threads=threads,
                                    progress=False),
            self._ladder_html, f"the ladder {', '.join(names)}")

    def _ladder_html(self, table) -> str:
        from toolkit.analysis import strength
        from toolkit.viz import plots, report_html

        shown = [m for m in ("first_player_advantage", "duration_turns", "decisiveness", "lead_changes",
                             "skill_gap") if m in table.columns and not table[m].isna().all()]
        figure = _figure(figsize=(3.2 * len(shown), 3.2), layout="constrained")
        plots.ladder_plot(table, axes=list(figure.subplots(1, len(shown), squeeze=False)[0]), metrics=shown)
        image = report_html.figure_uri(figure)
        left_out = strength.not_played(table.index, self.spec.name)
        every = base64.b64encode(table.to_csv().encode()).decode()  # every column, as the CLI's -o writes it
        return (f'<img src="{image}" alt="the strength ladder" style="max-width:100%">'
                f"<p>{html.escape(table.attrs['answer'])}</p>"
                + (f'<p style="{_NOTE_STYLE}">{html.escape(left_out)}</p>' if left_out else "")
                + report_html.ladder_table(table).to_html(escape=True, border=0)
                + f'<p style="{_NOTE_STYLE}">The measures a designer reads; <a download="ladder.csv" '
                  f'href="data:text/csv;base64,{every}">the whole table as CSV</a> holds all {len(table.columns)} '
                  "columns.</p>")

    # -- rule variants (issue 51) ------------------------------------------------------------

    def _folder(self) -> Path:
        return Path(self.variant_folder.value.strip() or ".")

    def variant_files(self) -> list:
        """The variant files of this game in the folder, ``(name, path)`` by file name (another game's files
        and files that do not read are left out: the menu offers only what opens here)."""
        from toolkit.core import variants

        folder = self._folder()
        found = []
        for path in sorted(folder.glob(f"*{variants.SUFFIX}")) if folder.is_dir() else []:
            try:
                variant = variants.read(path, self.spec.name)
            except ValueError:
                continue
            found.append((f"{variant.name} ({path.name})", str(path)))
        return found

    def _variant_menus(self) -> None:
        files = self.variant_files()
        self.variant_menu.options = files
        self.variant_menu.value = files[0][1] if files else None
        chosen = [v for v in self.compare_variants.value if v in dict(map(reversed, files))]
        self.compare_variants.options = files
        self.compare_variants.value = tuple(chosen)

    def save_variant(self):
        """Write the page's rules as a variant file named by the name box, in the folder box's folder
        (``NAME.toml``, the name made safe for a file); returns its path, or ``None`` with the reason shown."""
        from toolkit.core import variants

        name = self.variant_name.value.strip()
        try:
            if not name:
                raise ValueError("variant='' is not allowed: give the variant a name first")
            rules = self.panel.rules()
            start = self.panel.preset.value or None
            path = variants.save(rules, self._folder() / f"{_file_name(name)}{variants.SUFFIX}", name, preset=start)
        except ValueError as error:
            self.variant_note.value = _error(error)
            return None
        self._variant_menus()
        self.variant_menu.value = str(path)
        saved = variants.read(path)
        changes = saved.changes()
        self.variant_note.value = (f'<span style="{_NOTE_STYLE}">saved {html.escape(str(path))}: '
                                   f"{html.escape(', '.join(f'{k}={v}' for k, v in changes.items()) or 'no change')} "
                                   f"from the {html.escape(saved.preset)} preset; at the command line: "
                                   f"<code>toolkit simulate {self.spec.name} --rules {html.escape(str(path))}</code> "
                                   f"or <code>toolkit report --rules {html.escape(str(path))}</code></span>")
        return path

    def open_variant(self, path=None):
        """Put the rules of a variant file (the menu's, or ``path``) on the page; returns the variant."""
        from toolkit.core import variants

        path = path or self.variant_menu.value
        try:
            if not path:
                raise ValueError(f"variant=None is not allowed: no variant of {self.spec.name} in the folder "
                                 f"{str(self._folder())!r} (save one first)")
            variant = variants.read(path, self.spec.name)
        except ValueError as error:
            self.variant_note.value = _error(error)
            return None
        self.variant_name.value = variant.name
        self.panel.set_rules(variant.rules)
        self.variant_note.value = f'<span style="{_NOTE_STYLE}">opened {html.escape(str(path))}</span>'
        return variant

    def reset_rules(self) -> None:
        """Every rule back at the preset's value (the menu's preset, or the standard one), at the page's number
        of players."""
        preset = self.panel.preset.value or "standard"
        try:
            players = self.panel.rules()
            keep = {"num_players": players.num_players} if hasattr(players, "num_players") else {}
        except ValueError:
            keep = {}
        self.panel.set_rules(self.spec.Rules.preset(preset, **keep))
        self.variant_note.value = f'<span style="{_NOTE_STYLE}">the {html.escape(preset)} preset</span>'

    def apply_tuned(self) -> None:
        """Put the tuning's proposed rules on the page."""
        if self.tuning is None or not self.tuning.proposed:
            self.variant_note.value = _error("no tuned rules to apply: tune the rules first (a change must be "
                                             "proposed)")
            return
        self.panel.set_rules(self.tuning.best_rules)
        self.variant_note.value = (f'<span style="{_NOTE_STYLE}">the tuned rules are on the page; save them as a '
                                   f"variant to keep them</span>")

    def run_compare(self):
        """The page's rules beside up to three variant files on the same seeds and players, in the background:
        each variant's headline quantities with their paired differences from the page's rules, the intervals
        held together over every quantity of every variant.  Returns the Job, or ``None``."""
        from toolkit.analysis import paired
        from toolkit.core import costs, variants
        from toolkit.core.runner import simulate

        chosen = list(self.compare_variants.value)
        try:
            if not 1 <= len(chosen) <= 3:
                raise ValueError(f"variants: {len(chosen)} chosen is not allowed: choose 1 to 3 of the folder's")
            rules = self.panel.rules()
            self._check_seats(rules)
            policies = self.seat_players(rules)
            read = [variants.read(path, self.spec.name) for path in chosen]
            for variant in read:
                if self.spec.seats(variant.rules) != self.spec.seats(rules):
                    raise ValueError(f"{variant.path}: has {self.spec.seats(variant.rules)} players, the page "
                                     f"{self.spec.seats(rules)}: compare variants of one number of players")
        except ValueError as error:
            self._show(self.compare_output, _error(error))
            return None
        games, spec, seed, threads = int(self.compare_games.value), self.spec, self.seed, self.threads
        self._show(self.compare_output, f'<span style="{_NOTE_STYLE}">playing the page\'s rules and '
                                        f"{len(read)} variant(s), {games:,} games each on the same seeds …</span>")

        def compute():
            runs = len(read) + 1  # every run's games in the count from the start, at the line-up's cost
            with jobs.planned(runs * games, runs * games * costs.per_game(spec, policies)):
                base = simulate(spec, rules, games, seed=seed, policies=policies, threads=threads, progress=False)
                return {v.name: paired.before_after(base, simulate(spec, v.rules, games, seed=seed,
                                                                   policies=policies, threads=threads, progress=False),
                                                    comparisons=len(read)) for v in read}

        return self._start_job("compared", self.compare_slot, self.compare_output, compute, self._compared_html,
                               f"{len(read) + 1} runs of {games:,} games")

    @staticmethod
    def _compared_html(tables: dict) -> str:
        first = next(iter(tables.values()))
        together = first.attrs.get("together", 1)
        shown = pd.DataFrame({"quantity": first["quantity"], "the page's rules": [f"{v:.3f}" for v in first["baseline"]]})
        for name, table in tables.items():
            shown[name] = [f"{r.now:.3f}: {r.difference:+.3f} [{r.ci_low:+.3f}, {r.ci_high:+.3f}]"
                           for r in table.itertuples()]
        sentences = "".join(f"<li><b>{html.escape(name)}</b>: {html.escape(s)}</li>"
                            for name, table in tables.items() for s in table["sentence"])
        return (f"<p>Each variant's value: its paired difference from the page's rules [95% for the {together} "
                f"intervals together], {first.attrs['games']:,} games each on the same seeds.</p>"
                + shown.to_html(index=False, escape=True, border=0) + f"<ul>{sentences}</ul>")

    def _sweep_controls(self) -> None:
        """The rules a sweep can take (a number, a choice or a yes/no) and the metrics it can draw, in words."""
        from toolkit.analysis import metrics, tuning
        from toolkit.core import params as P

        def sweepable(kind):
            if isinstance(kind, (P.Int, P.Float)):
                return kind.low is not None and kind.high is not None
            return isinstance(kind, (P.Choice, P.Bool))

        self.sweep_rule.options = [(param.label, name) for name, param in P.params_of(self.spec.Rules).items()
                                   if sweepable(param.kind)]
        names = [m for m in tuning.metric_names(self.spec) if m != "skill_gap"]
        self.sweep_metric.options = [(metrics.label(m), m) for m in names]
        if "first_player_win_rate" in names:
            self.sweep_metric.value = "first_player_win_rate"

    def sweep_values(self, name: str) -> list:
        """The values a sweep of rule ``name`` plays: every value of a choice or yes/no, every integer of a
        range of at most 12, else 7 evenly spaced over the range (a float's open ends stepped in from)."""
        import numpy as np

        from toolkit.core import params as P

        kind = P.params_of(self.spec.Rules)[name].kind
        if isinstance(kind, P.Bool):
            return [False, True]
        if isinstance(kind, P.Choice):
            return list(kind.choices)
        low, high = kind.low, kind.high
        if isinstance(kind, P.Int):
            if high - low < 12:
                return list(range(low, high + 1))
            return sorted({int(round(v)) for v in np.linspace(low, high, 7)})
        span = high - low
        return [round(float(v), 6) for v in np.linspace(low + span / 20, high - span / 20, 7)]

    def run_sweep(self):
        """One rule over its range (:meth:`sweep_values`), the other rules as on the page, every value on the
        page's seed and players (:func:`toolkit.analysis.sweep.sweep`): the metric against the value with its
        95% interval.  Returns the Job, or ``None``."""
        from toolkit.analysis.sweep import sweep

        name, metric = self.sweep_rule.value, self.sweep_metric.value
        try:
            if name is None or metric is None:
                raise ValueError("rule and metric: choose one of each")
            rules = self.panel.rules()
            self._check_seats(rules)
            policies = self.seat_players(rules)
            values = self.sweep_values(name)
            rules.replace(**{name: values[0]})  # a value the other rules refuse: said now, not after the runs
        except ValueError as error:
            self._show(self.sweep_output, _error(error))
            return None
        games, spec, seed, threads = int(self.sweep_games.value), self.spec, self.seed, self.threads
        self._show(self.sweep_output, f'<span style="{_NOTE_STYLE}">sweeping “{html.escape(self._rule_words(name))}'
                                      f"” over {len(values)} values, {games:,} games each on the same seeds "
                                      "…</span>")
        return self._start_job(
            "swept", self.sweep_slot, self.sweep_output,
            lambda: sweep(spec, {name: values}, games, seed=seed, rules=rules, policies=",".join(policies),
                          threads=threads, progress=False),
            lambda table: self._swept_html(table, name, metric),
            f"{len(values)} values of “{self._rule_words(name)}”")

    def _rule_words(self, name: str) -> str:
        from toolkit.core.params import params_of

        return params_of(self.spec.Rules)[name].label

    def _swept_html(self, table, name: str, metric: str) -> str:
        from toolkit.analysis.metrics import label
        from toolkit.core.params import params_of
        from toolkit.viz import report_html

        kind = params_of(self.spec.Rules)[name].kind
        rule, measured = self._rule_words(name), label(metric)

        figure = _figure(figsize=(5.5, 3.4), layout="constrained")
        ax = figure.subplots()
        x = list(range(len(table)))
        y = table[metric].to_numpy(dtype=float)
        low, high = (table.get(f"{metric}_{b}") for b in ("low", "high"))
        if low is not None and high is not None:
            ax.errorbar(x, y, yerr=[y - low.to_numpy(dtype=float), high.to_numpy(dtype=float) - y], fmt="o-",
                        capsize=3)
        else:
            ax.plot(x, y, "o-")
        ax.set_xticks(x, [kind.word(v) for v in table[name]])
        ax.set_xlabel(rule)
        ax.set_ylabel(measured)
        ax.set_title(f"{self.spec.title}: {measured} against “{rule}”\n"
                     f"({int(table['games'].iloc[0]):,} games a value)")
        image = report_html.figure_uri(figure)
        shown = pd.DataFrame({rule: [kind.word(v) for v in table[name]], measured: [
            f"{r[metric]:.3f}" + (f" [{r[metric + '_low']:.3f}, {r[metric + '_high']:.3f}]"
                                  if f"{metric}_low" in table else "") for _, r in table.iterrows()]})
        return (f'<img src="{image}" alt="{html.escape(measured)} against {html.escape(rule)}" '
                'style="max-width:100%">' + shown.to_html(index=False, escape=True, border=0))

    def run_tuning(self):
        """:func:`toolkit.analysis.tune` from the current rules and seat policies toward the chosen target,
        the chosen rules over their declared domains, in the background with progress and a cancel; shows the
        search, the rules' importance, the target metric under the current and the tuned rules, the answer
        and the ``--set`` flags.

        Returns the Job, or ``None`` (bad rules or settings); ``tuning`` holds the
        :class:`~toolkit.analysis.tuning.Tuning` when done."""
        from toolkit.analysis import metrics, tuning
        from toolkit.core import warm

        goal = self.tune_value.value if self.tune_goal.value == "reach" else self.tune_goal.value
        try:
            rules = self.panel.rules()
            policies = self.seat_players(rules)
            if not self.tune_rules.value:
                raise ValueError("rules to vary: choose at least one")
        except ValueError as error:
            self._show(self.tune_output, _error(error))
            return None
        trials, games = int(self.tune_trials.value), int(self.tune_games.value)
        compiling = warm.notice(self.spec, rules, policies)
        vary = tuple(self.tune_rules.value)
        metric = self.tune_metric.value
        self._show(self.tune_output, f'<span style="{_NOTE_STYLE}">{compiling + "; then " if compiling else ""}'
                                     f"tuning {html.escape(', '.join(map(self._rule_words, vary)))} toward "
                                     f"{html.escape(metrics.label(metric))} = {goal}: {trials} trials of "
                                     f"{games:,} games with {','.join(policies)} …</span>")
        spec, seed, threads = self.spec, self.seed, self.threads
        question = spec.presentation.tune_question  # a skill gap's players are the question's (Herrlof: greedy against random)
        skill = {} if question is None else {"skilled": question.skilled, "unskilled": question.unskilled}
        return self._start_job(
            "tuning", self.tune_slot, self.tune_output,
            lambda: tuning.tune(spec, {metric: goal}, dict.fromkeys(vary), trials, games, seed=seed, rules=rules,
                                policies=policies, threads=threads, progress=False, **skill),
            self._tuning_html, f"{trials} trials of {games:,} games")

    def _tuning_html(self, found) -> str:
        from toolkit.viz import plots, report_html

        image = report_html.figure_uri(plots.tuning_figure(found, title="the search", width=4.6))
        flags = " ".join(found.set_flags())
        self.apply_tuned_button.disabled = not found.proposed
        return (f'<img src="{image}" alt="the tuning: the search, the importance, the result" '
                'style="max-width:100%">'
                f"<p><b>Tuned</b> (the current rules beside, {found.settings['final_games']:,} games on a fresh "
                f"seed, players {html.escape(found.settings['policies'])}): {html.escape(found.answer())}</p>"
                + (f"<p>The tuned rules from these: <code>{html.escape(flags)}</code>; at the command line: "
                   f"<code>{html.escape(_command_for(self.spec, found.best_rules))}</code> (or apply them below "
                   f"and save them as a variant)</p>" if found.proposed
                   else "<p>No change proposed.</p>"))

    @staticmethod
    def _show(output, text: str) -> None:
        """Replace what an output area shows: set the Output's state itself, which works the same
        in a kernel and outside one (where ``clear_output`` would not clear it)."""
        output.outputs = ({"output_type": "display_data", "data": {"text/html": text}, "metadata": {}},)

    def prepare_csv(self) -> bytes | None:
        """The current run as CSV (``toolkit.save``'s format) with its JSON sidecar (game, rules, seed,
        policies, version), offered as two download links; a run bigger than ``CSV_LINK_LIMIT``
        is offered as the ``toolkit simulate`` command that writes the same file."""
        from toolkit.core import results

        if self.frame is None:
            self.csv_link.value = f'<span style="{_NOTE_STYLE}">no run yet</span>'
            return None
        name = f"{self.spec.name}_{len(self.frame)}_games.csv"
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / name
            written = results.save(self.frame, path)
            data = path.read_bytes()
            sidecar = next(p for p in written if p.suffix == ".json")
            sidecar_name, sidecar_data = sidecar.name, sidecar.read_bytes()
        if len(data) > CSV_LINK_LIMIT:
            self.csv_link.value = (f'<span style="{_NOTE_STYLE}">{len(data) / 1e6:,.0f} MB is too big for a link in '
                                   f"the page; this writes the same file: <code>{html.escape(self.command(name))}</code>"
                                   "</span>")
            return data
        links = [f'<a download="{n}" href="data:{kind};base64,{base64.b64encode(d).decode("ascii")}">{n}</a>'
                 for n, kind, d in ((name, "text/csv", data), (sidecar_name, "application/json", sidecar_data))]
        self.csv_link.value = (f"download {links[0]} and its rules {links[1]} "
                               f'<span style="{_NOTE_STYLE}">({len(self.frame):,} rows, {len(data) / 1e6:.1f} MB)</span>')
        return data

    def command(self, output: str) -> str:
        """The ``toolkit simulate`` command that writes the current run to ``output``."""
        import shlex

        from toolkit.core.params import params_of

        fields = params_of(self.spec.Rules)
        names = list(self.rules.changed())
        if hasattr(self.rules, "num_players"):
            names = ["num_players"] + [n for n in names if n != "num_players"]
        settings = "".join(f" --set {shlex.quote(f'{n}={fields[n].kind.format(getattr(self.rules, n))}')}"
                           for n in names)
        return (f"toolkit simulate {self.spec.name} -n {len(self.frame)} --seed {self.seed} "
                f"--policies {','.join(self.policies)}{settings} -o {shlex.quote(output)}")

    def _ipython_display_(self):
        from IPython.display import display

        display(self.box)


def dashboard(game: str | None = None, **options) -> Dashboard:
    """The rule-tweaking dashboard for ``game`` (default: the first registered game; see the module
    docstring); displays itself.

    ``options``: ``n_games`` (games per run; default ``GameSpec.presentation.panel_games``), ``seed``,
    ``threads``, ``tournament_games`` (default :func:`job_games`), ``refresh`` (run once at once, default
    True), ``background`` (play off the page's thread; default: inside a kernel), ``variants`` (the folder of
    rule variant files the page saves and opens; default the working directory)."""
    return Dashboard(game, **options)

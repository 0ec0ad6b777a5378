"""The rule-tweaking dashboard (``toolkit app``): one page for a designer who does not write Python.

:func:`dashboard` builds it from the parts the notebooks use, so there is no
second code path: the generated rules panel (:func:`toolkit.viz.widgets.rules_panel`),
:func:`toolkit.simulate`, the design metrics, :func:`toolkit.analysis.tournament.compare`
and the plots of :mod:`toolkit.viz.plots`.  ``toolkit app`` serves it with
Voilà (code hidden); in a notebook, ``dashboard("valhalla")`` shows the same.

On the page, top to bottom:

- the game; the rules panel (preset, number of games, one control per rule;
  a bad value shows its message in red and keeps the last plots); one policy
  per seat (the seats follow the player count);
- the run: win rate per seat and by place in the turn order with 95%
  intervals, the length and score distributions, the design metrics, and the
  exact odds beside the simulated ones (measured on the run's records, or on
  a replay of its first deals, ``toolkit.core.deals``);
- on demand: a policy tournament on the current rules, a rule tuning toward a
  target (:func:`toolkit.analysis.tune` from the current rules and policies: the
  rules searched over their declared domains, the search, their importance and the
  tuned metric beside the current one with 95% intervals, prefilled with the
  game's own question, ``GameSpec.tune_question``), and a CSV of the current run
  (one row per game, as ``toolkit simulate -o`` writes it).

Every run uses the same seed, so a change of rule is compared on the same
random numbers.
"""

from __future__ import annotations

import base64
import html
import tempfile
from pathlib import Path

import pandas as pd

from toolkit.core.deals import SAMPLE_DEALS
from toolkit.core.runner import get_spec

TOURNAMENT_GAMES = 2_000  # per ordered pair (two seats) or per seating, as toolkit compare's -n
TUNE_TRIALS, TUNE_GAMES = 20, 2_000  # the tuning's defaults: trials, games per trial
CSV_LINK_LIMIT = 50_000_000  # bytes: a bigger run is offered as the command that writes it to disk
SLOW_RUN = 3.0  # seconds: a run expected to take longer says so at the seats before it starts

_NOTE_STYLE = "color:#555"


def _close_tree(widget) -> None:
    """Close ``widget`` and every widget inside it (ipywidgets' ``close`` leaves the children open)."""
    for child in getattr(widget, "children", ()):
        _close_tree(child)
    widget.close()


def _duration(seconds: float) -> str:
    """``4 s``, ``2 min 5 s``, ``1 h 3 min``: a time estimate as a person reads it."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{max(seconds, 1)} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"


def _error(error) -> str:
    """A refused value's message, in the red the rules panel uses."""
    return f'<span style="color:#b00020;font-weight:bold">{html.escape(str(error))}</span>'


def simulated_odds(spec, rules, frame: pd.DataFrame, policies) -> pd.DataFrame:
    """``spec.odds(rules)`` with a ``simulated`` column where the run's records give the same quantity.

    A game declares those quantities with ``GameSpec.simulated_odds`` (keys as in the exact
    table); other rows show no simulated value."""
    table = spec.odds(rules).copy()
    found = spec.simulated_odds(frame, rules, policies) if spec.simulated_odds is not None else {}
    table["simulated"] = [found.get(q, float("nan")) for q in table["quantity"]]
    return table


class Dashboard:
    """The page of :func:`dashboard`; its parts are attributes so tests (and users) can drive it.

    Attributes
    ----------
    game : ipywidgets.Dropdown
    panel : toolkit.viz.widgets.RulesPanel
        Rebuilt when the game changes.
    seat_policies : list of ipywidgets.Combobox
        One per seat of the current rules: a menu of the game's players (``GameSpec.player_choices``:
        its policies, its named players such as ``lookahead:64``, ``mcts:100`` and ``mcts:1000``) that also
        takes any other valid name typed in (``mcts:300``); a name the game refuses is shown at the seats
        (``seat_message``) and nothing is played.
    seat_message : ipywidgets.HTML
        The seats' error, or the time a slow line-up is expected to take.
    frame : DataFrame or None
        The last run, one row per game.
    """

    def __init__(self, game: str = "valhalla", *, n_games: int | None = None, seed: int = 0,
                 threads: int | None = None, tournament_games: int = TOURNAMENT_GAMES, refresh: bool = True):
        import ipywidgets as w

        from toolkit.games import GAMES

        self.seed = seed
        self.threads = threads
        self.n_games = n_games
        self.frame = None
        self.rules = None
        self.policies = None
        self.seat_policies = []
        self.seat_message = w.HTML()
        self.game = w.Dropdown(options=[(spec.title, name) for name, spec in GAMES.items()], value=get_spec(game).name,
                               description="game")
        self.policy_box = w.HBox()
        self.panel_box = w.VBox()
        self.tournament_games = w.BoundedIntText(value=tournament_games, min=10, max=10_000_000, step=1000,
                                                 description="games per pairing", style={"description_width": "initial"})
        self.tournament_button = w.Button(description="run a policy tournament", icon="trophy",
                                          layout=w.Layout(width="auto"))
        self.tournament_output = w.Output()
        self.csv_button = w.Button(description="prepare the CSV of this run", icon="download",
                                   layout=w.Layout(width="auto"))
        self.csv_link = w.HTML()
        self.tune_metric = w.Dropdown(description="metric", layout=w.Layout(width="auto"))
        self.tune_goal = w.Dropdown(options=["reach", "max", "min"], value="reach", description="",
                                    layout=w.Layout(width="6em"))
        self.tune_value = w.FloatText(value=0.5, description="target", layout=w.Layout(width="12em"))
        self.tune_rules = w.SelectMultiple(description="rules to vary", rows=6, layout=w.Layout(width="auto"),
                                           style={"description_width": "initial"})
        self.tune_trials = w.BoundedIntText(value=TUNE_TRIALS, min=2, max=1_000, description="trials",
                                            layout=w.Layout(width="10em"))
        self.tune_games = w.BoundedIntText(value=TUNE_GAMES, min=10, max=10_000_000, step=1000,
                                           description="games per trial", style={"description_width": "initial"})
        self.tune_button = w.Button(description="tune the rules", icon="sliders", layout=w.Layout(width="auto"))
        self.tune_output = w.Output()
        self.tune_question = w.HTML()  # the game's own question, which the controls come prefilled with
        self.tuning = None
        self.tune_button.on_click(lambda _: self.run_tuning())
        self.tournament_button.on_click(lambda _: self.run_tournament())
        self.csv_button.on_click(lambda _: self.prepare_csv())
        self.game.observe(lambda change: self._build(change["new"], refresh=True), names="value")
        self.box = w.VBox([
            w.HTML("<h2>What are the odds, and is this rule fair?</h2>"),
            self.game, self.panel_box,
            w.HTML("<h3>A policy tournament on these rules</h3>"),
            w.HBox([self.tournament_games, self.tournament_button]), self.tournament_output,
            w.HTML("<h3>Tune the rules toward a target</h3>"), self.tune_question,
            w.HBox([self.tune_metric, self.tune_goal, self.tune_value]), self.tune_rules,
            w.HBox([self.tune_trials, self.tune_games, self.tune_button]), self.tune_output,
            w.HTML("<h3>This run as a table</h3>"), w.HBox([self.csv_button, self.csv_link]),
        ])
        self._build(self.game.value, refresh=refresh)

    # -- building -------------------------------------------------------------------

    def _build(self, game: str, *, refresh: bool) -> None:
        from toolkit.viz.widgets import rules_panel

        self.spec = get_spec(game)
        self.frame = None
        self.csv_link.value = ""
        self.tournament_output.outputs = ()
        n = self.n_games or self.spec.panel_games
        old_panel = getattr(self, "panel", None)
        if old_panel is not None:
            _close_tree(old_panel.box)  # else every game switch leaves its widgets alive in kernel and page
        self.panel = rules_panel(self.spec, self._run, n_games=n, refresh=False, title=f"{self.spec.title} rules")
        self._seat_controls(self.panel.rules(), keep=False)  # a new game: its own seats and policies
        self.panel_box.children = [self.policy_box, self.panel.box]
        self._tune_controls()
        if refresh:
            self.panel.refresh()

    def _tune_controls(self) -> None:
        """The tuning's choices for the current game, prefilled with its own question."""
        from toolkit.analysis import tuning
        from toolkit.core.params import params_of

        self.tuning = None
        self.tune_output.outputs = ()
        rules = self.panel.rules()
        self.tune_metric.options = tuning.metric_names(self.spec, rules)
        fields = params_of(self.spec.Rules)
        searchable = []
        for name in fields:
            try:
                tuning.space(self.spec, {name: None})
            except ValueError:
                continue  # a domain without bounds (a mapping, a list, a free number): not offered
            searchable.append(name)
        self.tune_rules.options = searchable
        question = self.spec.tune_question
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
        if keep and len(self.seat_policies) == seats:
            return
        defaults = self.spec.check_policies(None, rules)  # random, as simulate and the notebook panels
        old = [d.value for d in self.seat_policies] if keep else []
        for box in self.seat_policies:
            box.close()
        self.seat_policies = []
        choices = list(self.spec.player_choices())
        for k in range(seats):
            box = w.Combobox(value=old[k] if k < len(old) else defaults[k], options=choices, ensure_option=False,
                             placeholder="a player, e.g. mcts:300", description=f"seat {k}",
                             continuous_update=False, layout=w.Layout(width="16em"))
            box.observe(self._on_seat, names="value")
            self.seat_policies.append(box)
        self.seat_message.value = ""
        self.policy_box.children = [w.HTML("<b>players</b>&nbsp;"), *self.seat_policies, self.seat_message]

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

    def _on_seat(self, _change) -> None:
        try:
            self.seat_players(self.panel.rules())
        except ValueError:
            return  # the message is at the seats; the last plots stay
        if self.panel.auto:
            self.panel.refresh()

    def estimate(self, rules, policies, n_games: int) -> float | None:
        """Seconds ``n_games`` games of this line-up should take, from a timed run of its first few games,
        or ``None`` for a line-up of random and greedy players (always quick)."""
        import os
        import time

        from toolkit.core import warm
        from toolkit.core.runner import simulate

        if all(p in ("random", "greedy") for p in policies):
            return None
        run = dict(seed=self.seed, policies=policies, threads=self.threads, keep="summary", progress=False)
        if not warm.loaded(self.spec.play_many, warm.copy_of(self.spec, self.spec.prepare(rules, policies)[-1])):
            simulate(self.spec, rules, 1, **run)  # loads the copy (a second or so), which is not the games' time
        probe = min(n_games, self.threads or os.cpu_count() or 1)
        start = time.perf_counter()
        simulate(self.spec, rules, probe, **run)
        return (time.perf_counter() - start) * n_games / probe

    # -- one run --------------------------------------------------------------------

    def _run(self, rules, n_games: int):
        import matplotlib.pyplot as plt
        from IPython.display import HTML

        from toolkit.analysis import metrics
        from toolkit.core import warm
        from toolkit.core.runner import simulate
        from toolkit.viz import plots, report_html

        self._seat_controls(rules)  # a new player count changes the seats
        policies = self.seat_players(rules)
        compiling = warm.notice(self.spec, rules, policies)
        if compiling:  # minutes once per machine and version: said before the page goes quiet
            self.panel.status.value = compiling
        seconds = self.estimate(rules, policies, n_games)
        if seconds is not None and seconds >= SLOW_RUN:
            self.seat_message.value = (f'<span style="{_NOTE_STYLE}">{n_games:,} games of {",".join(policies)}: '
                                       f"about {_duration(seconds)} (timed on the first games)</span>")
        frame = simulate(self.spec, rules, n_games, seed=self.seed, policies=policies, threads=self.threads,
                         progress=False)
        self.frame, self.rules, self.policies = frame, rules, policies
        self.csv_link.value = ""

        title = f"{self.spec.title}, {len(frame):,} games, policies {','.join(policies)}"
        figure, axes = plt.subplots(1, 3, figsize=(15, 3.8))
        plots.seat_advantage_bar(metrics.seat_advantage(frame), ax=axes[0], title="win rate by seat and by place")
        plots.length_histogram(frame, "turns", ax=axes[1], title="game length")
        axes[1].set_xlabel(f"turns (a turn is {self.spec.turn_word})")
        plots.score_distribution(frame, ax=axes[2], title="final score per seat")
        figure.suptitle(title)
        image = report_html.figure_uri(figure)  # the plots first, then the tables, in one output

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
        text = (f'<img src="{image}" alt="{html.escape(title)}" style="max-width:100%">'
                + "<h3>Design metrics</h3>" + table.to_html(index=False, escape=True, border=0)
                + "<h3>Exact odds and simulated ones</h3>" + odds_shown.to_html(index=False, escape=True, border=0)
                + note)
        return HTML(text)

    # -- on demand ------------------------------------------------------------------

    def run_tournament(self):
        """Every policy against every other on the current rules; shows the matrix and the ratings.

        Returns the :func:`~toolkit.analysis.tournament.compare` table, or ``None`` (bad rules)."""
        from toolkit.analysis import ratings, tournament
        from toolkit.core import warm
        from toolkit.viz import plots, report_html

        try:
            rules = self.panel.rules()
        except ValueError as error:
            self._show_tournament(_error(error))
            return None
        games = int(self.tournament_games.value)
        names = list(self.spec.policies)
        compiling = warm.notice(self.spec, rules, ("greedy",) * self.spec.seats(rules))  # the policies' copy
        self._show_tournament(f'<span style="{_NOTE_STYLE}">{compiling + "; then " if compiling else ""}'
                              f'playing every pairing of {", ".join(names)}, {games:,} games each …</span>')
        table = tournament.compare(self.spec, names, games, seed=self.seed, rules=rules, threads=self.threads,
                                   progress=False)
        seats = self.spec.seats(rules)
        ax = plots.comparison_matrix(tournament.matrix(table), centre=0.5 if seats == 2 else 1 / seats,
                                     xlabel="opponent (column)" if seats == 2 else "field policy (column)",
                                     ylabel="policy (row)" if seats == 2 else "tested policy (row)",
                                     title="row policy's win rate" + ("" if seats == 2 else f" (fair share 1/{seats})"))
        image = report_html.figure_uri(ax.figure)
        rated = ratings.ratings(table)
        self._show_tournament(f'<img src="{image}" alt="tournament: row policy\'s win rate" style="max-width:100%">'
                              + f"<p>{html.escape(ratings.in_words(rated))}</p>"
                              + rated.to_html(escape=True, border=0, float_format="{:.1f}".format))
        return table

    def run_tuning(self):
        """:func:`toolkit.analysis.tune` from the current rules and seat policies toward the chosen target,
        the chosen rules over their declared domains; shows the search, the rules' importance, the target
        metric under the current and the tuned rules, the answer and the ``--set`` flags.

        Returns the :class:`~toolkit.analysis.tuning.Tuning`, or ``None`` (bad rules or settings)."""
        from toolkit.analysis import tuning
        from toolkit.core import warm
        from toolkit.viz import plots, report_html

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
        self._show(self.tune_output, f'<span style="{_NOTE_STYLE}">{compiling + "; then " if compiling else ""}'
                                     f'tuning {", ".join(self.tune_rules.value)} '
                                     f"toward {self.tune_metric.value} = {goal}: {trials} trials of {games:,} games "
                                     "…</span>")
        try:
            found = tuning.tune(self.spec, {self.tune_metric.value: goal}, dict.fromkeys(self.tune_rules.value),
                                trials, games, seed=self.seed, rules=rules, policies=policies, threads=self.threads,
                                progress=False)
        except ValueError as error:  # a target the rules do not measure, every trial refused
            self._show(self.tune_output, _error(error))
            return None
        self.tuning = found
        image = report_html.figure_uri(plots.tuning_figure(found, title="the search", width=4.6))
        flags = " ".join(found.set_flags())
        self._show(self.tune_output,
                   f'<img src="{image}" alt="the tuning: the search, the importance, the result" '
                   'style="max-width:100%">'
                   f"<p><b>Tuned</b> (the current rules beside, {found.settings['final_games']:,} games on a fresh "
                   f"seed): {html.escape(found.answer())}</p>"
                   + (f"<p>The tuned rules from these: <code>{html.escape(flags)}</code></p>" if found.proposed
                      else "<p>No change proposed.</p>"))
        return found

    def _show_tournament(self, text: str) -> None:
        self._show(self.tournament_output, text)

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


def dashboard(game: str = "valhalla", **options) -> Dashboard:
    """The rule-tweaking dashboard for ``game`` (see the module docstring); displays itself.

    ``options``: ``n_games`` (games per run; default :data:`DEFAULT_GAMES`), ``seed``,
    ``threads``, ``tournament_games``, ``refresh`` (run once at once, default True)."""
    return Dashboard(game, **options)

"""The rules panel: ipywidgets controls generated from a game's ``Rules`` fields.

:func:`rules_panel` builds one control per rule parameter from its
declaration (``toolkit.core.params``; ``toolkit.viz.controls.control(kind, ...)`` and
``kind.from_widget``), a preset dropdown, a game-count box and an output
area.  On every change it rebuilds the ``Rules`` (validation included), calls
the ``run`` function it was given and shows what that returns.  Nothing here
knows any game: a new game gets its panel for free.

Each control shows its rule in words above it (the declaration's doc without its spec reference,
``Param.label``; the parameter's name, used by ``--set``, is in its tooltip and in the status line), a
rule the spec does not have says so, and a rule that does not matter under the other rules
(``param(applies=...)``) is greyed out with the condition under which it would.  Each control's cell has
the classes ``toolkit-rule`` and ``toolkit-rule-<name>``.

The controls are grouped under headings taken from the declarations
(``param(..., group="scoring")``), in the order each group first appears;
fields without a group are shown under "other".  A set is a grid of
checkboxes (:class:`CheckboxGrid`), a mapping a grid of labelled number boxes
(:class:`MappingGrid`) or, for a set per key, a matrix of checkboxes
(:class:`CheckboxMatrix`): each is one control with a ``value``, like any
ipywidgets control.

A bad value (out of range, or two fields that do not fit together) shows the
``ValueError`` message in the panel, without a traceback, and keeps the last
good plots.

Rules reach the kernel as values (``spec.prepare``), so changing a widget
never recompiles anything: only the first run pays Numba's compile time.

The panel also works without a browser, which is how it is tested::

    panel = rules_panel("valhalla", run, n_games=1000, auto=False)
    panel.widgets["throw_mode"].value = "simplified"   # reruns `run`
    panel.rules()                                      # the Rules now shown
    panel.refresh()                                    # rerun by hand
"""

from __future__ import annotations

import html
import inspect
import re

import ipywidgets as w

from toolkit.core.params import params_of
from toolkit.core.runner import get_spec
from toolkit.viz.controls import CheckboxGrid, CheckboxMatrix, ControlGrid, MappingGrid  # noqa: F401 (the panel's controls)
from toolkit.viz.controls import control
from toolkit.viz.controls import html_escape as _html_escape

_ERROR_STYLE = "color:#b00020;font-weight:bold"
_HEADING_STYLE = "font-weight:bold;border-bottom:1px solid #ccc;margin-top:6px"
OTHER = "other"  # the heading of fields declared without a group
MAX_GAMES = 100_000_000  # the most games one run of the panel plays


_VARIANT_STYLE = "font-size:85%;color:#8a4b00;border:1px solid #d9a066;border-radius:3px;padding:0 3px;margin-left:4px"
_GREY = "color:#888"


def rule_label(name: str, spec, disabled: bool = False, fields=None) -> str:
    """A rule's label in the rules panel: its words (:attr:`Param.label`), marked "not in the spec" for
    the toolkit's own variants; the tooltip holds the parameter's name, its doc and basis.  A rule that
    does not matter under the other rules (greyed out) says when it does, naming the rule it depends on
    in words (``fields``: the game's declared rules)."""
    tip = f"{name}: {spec.doc} {spec.basis}".strip()
    if spec.applies is not None:
        tip += f"; matters only {spec.applies.words()}"
    text = _html_escape(spec.label)
    if spec.outside_spec:
        text += f'<span style="{_VARIANT_STYLE}">not in the spec</span>'
    if disabled and spec.applies is not None:
        text = (f'<span style="{_GREY}">{text}</span> <span style="{_GREY};font-size:85%">'
                f"(matters only {_html_escape(spec.applies.words(fields))})</span>")
    return f'<div class="toolkit-rule-label" title="{html.escape(tip)}" style="line-height:1.25">{text}</div>'


def error_html(error) -> str:
    """A refused value's message (a ``ValueError`` or a text) in red; an error that is not a refusal (a
    defect) says "the run failed" with its type, and its traceback folded under it."""
    if isinstance(error, (ValueError, str)):
        return f'<span style="{_ERROR_STYLE}">{_html_escape(str(error))}</span>'
    import traceback

    trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    return (f'<span style="{_ERROR_STYLE}">the run failed: {_html_escape(f"{type(error).__name__}: {error}")}</span>'
            f"<details><summary>details</summary><pre>{_html_escape(trace)}</pre></details>")


def _accepts_n_games(run) -> bool:
    try:
        parameters = inspect.signature(run).parameters
    except (TypeError, ValueError):
        return False
    return "n_games" in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())


class NotPlayed(Exception):
    """Raised by a panel's ``run`` that chose not to play (a run too long to start unasked): the plots
    stay the last run's and the status line shows ``status`` (HTML)."""

    def __init__(self, status: str):
        super().__init__(status)
        self.status = status


class RulesPanel:
    """A generated rules panel; see :func:`rules_panel`.

    Attributes
    ----------
    widgets : dict
        Parameter name -> its ipywidgets control, in declaration order.
    groups : dict
        Heading -> names of its fields, headings in the order each group first appears.
    sections : dict
        Heading -> the box that shows it (its heading, then a grid of its controls).
    preset : ipywidgets.Dropdown
        Resets every control to a preset's values (one rerun, not one per field).
    n_games : ipywidgets.IntText
        Games per run, passed to ``run`` if it takes an ``n_games`` argument (1 .. :data:`MAX_GAMES`; another
        number is refused by name, not clamped).
    controls : ipywidgets.VBox
        The title, the preset and games boxes and the grouped controls (``box`` is these, the status line
        and the output; the dashboard places the status and the output beside them instead).
    status : ipywidgets.HTML
        The current rules' preset or changed parameters, or the error message.
    output : ipywidgets.Output
        Where the result of ``run`` is displayed.
    last_result, last_error
        What the latest refresh returned, or the message of its ``ValueError``.
    """

    def __init__(self, game, run, preset: str = "standard", n_games: int = 100_000, *,
                 columns: int = 3, auto: bool = True, title: str | None = None, slot=None, check=None):
        self.spec = get_spec(game)
        self.run = run
        self.slot = slot  # a toolkit.viz.background.Slot: runs off the page's thread, a new change cancels
        if slot is not None:
            slot.on_cancelled = self._cancelled  # a run cancelled by hand: the status no longer says "running"
        self.on_result = None  # on_result(result): called when a run's result is shown (the dashboard keeps its run)
        self.check = check  # check(rules): more checks before a run (the dashboard's seats), ValueError refuses
        self._pass_n_games = _accepts_n_games(run)
        self.params = params_of(self.spec.Rules)
        rules = self.spec.Rules.preset(preset)  # a bad preset raises here, before anything is drawn
        self.auto = auto
        self.runs = 0
        self.last_result = None
        self.last_error: str | None = None
        self._resetting = False

        self.preset = w.Dropdown(options=list(self.spec.Rules.PRESETS), value=preset, description="preset")
        self.n_games = w.IntText(value=n_games, step=10_000, description="games",
                                 style={"description_width": "initial"})
        self.widgets = {}
        # each control's rule in words above it (the name, the doc and where the rule comes from in its
        # tooltip, the name again in the --set line of the status); a rule outside the spec says so
        self.labels = {}
        for name, spec in self.params.items():
            widget = control(spec.kind, name, getattr(rules, name), spec.doc)
            if hasattr(widget, "continuous_update"):
                widget.continuous_update = False  # one run per finished edit, not per keystroke
            widget.layout.width = "auto"
            widget.description = ""
            if isinstance(widget, ControlGrid):
                widget.children[0].layout.display = "none"  # the grid's own label: the words above say it
            self.widgets[name] = widget
            self.labels[name] = w.HTML()
        self.status = w.HTML()
        self.output = w.Output()

        self._grey_out()  # and the labels drawn
        self.preset.observe(self._on_preset, names="value")
        self.n_games.observe(self._on_change, names="value")
        for widget in self.widgets.values():
            widget.observe(self._on_change, names="value")

        self.groups = {}
        for name, spec in self.params.items():
            self.groups.setdefault(spec.group or OTHER, []).append(name)
        self.sections = {}
        # each control with the place its refused value's message shows, right under it
        self.messages = {name: w.HTML() for name in [*self.widgets, "games"]}
        self.cells = {name: w.VBox([self.labels[name], widget, self.messages[name]], layout=w.Layout(min_width="0"))
                      for name, widget in self.widgets.items()}
        for name, cell in self.cells.items():
            cell.add_class("toolkit-rule")
            cell.add_class(f"toolkit-rule-{name}")  # where a page (and a browser test) finds a rule by its name
        for heading, names in self.groups.items():
            for name in names:
                if isinstance(self.widgets[name], ControlGrid):
                    self.cells[name].layout.grid_column = "1 / -1"  # a grid of cells takes a whole row
            grid = w.GridBox([self.cells[name] for name in names],
                             layout=w.Layout(grid_template_columns=f"repeat({columns}, minmax(0, 1fr))",
                                             grid_gap="2px 12px"))
            heading_html = w.HTML(f'<div style="{_HEADING_STYLE}">{_html_escape(heading)}</div>')
            self.sections[heading] = w.VBox([heading_html, grid])
        header = [w.HTML(f"<b>{_html_escape(title or self.spec.title + ' rules')}</b>")]
        self.controls = w.VBox(header + [w.HBox([self.preset, w.VBox([self.n_games, self.messages["games"]])]),
                                         *self.sections.values()])
        self.box = w.VBox([self.controls, self.status, self.output])

    # -- the function form -------------------------------------------------------

    def values(self) -> dict:
        """Parameter name -> value read back from its control (each checked alone)."""
        return {name: self.params[name].kind.from_widget(name, widget.value)
                for name, widget in self.widgets.items()}

    def rules(self):
        """The ``Rules`` the controls show; ``ValueError`` if a value or a combination is bad."""
        return self.spec.Rules(**self.values())

    def set_preset(self, name: str) -> None:
        """Put every control at the preset's value, then refresh once."""
        self.preset.value = name  # the observer does the work (also when changed in the browser)

    def set_rules(self, rules) -> None:
        """Put every control at ``rules``' value (a variant opened, tuned rules applied), then refresh once;
        the preset menu shows the preset they are, or none."""
        self._resetting = True
        try:
            for name in self.params:
                self.widgets[name].value = self._control_value(name, getattr(rules, name))
        finally:
            self._resetting = False
        self._grey_out()
        self._follow_rules()
        if self.auto:
            self.refresh()

    def refresh(self):
        """Rebuild the rules, call ``run``, show its result; return it (``None`` after an error)."""
        from IPython import get_ipython
        from IPython.display import display

        try:
            rules = self.rules()
            n_games = self.games()
            if self.check is not None:
                self.check(rules)
        except ValueError as error:
            if self.slot is not None:
                self.slot.cancel()  # a run still going is for values the controls no longer show
            return self._fail(error)
        self._clear_messages()
        self.status.value = "running …"
        self.runs += 1
        if self.slot is not None:
            self.slot.start(lambda: self._call(rules, n_games), lambda result: self._shown(result, rules),
                            self._failed, text=f"{n_games:,} games")
            return None
        with self.output:
            try:
                if self._pass_n_games:
                    result = self.run(rules, n_games=n_games)
                else:
                    result = self.run(rules)
            except NotPlayed as held:
                self.status.value = held.status
                return None
            except ValueError as error:
                return self._fail(error)
            if get_ipython() is not None:  # outside a kernel it would only print escape codes
                self.output.clear_output(wait=True)
            self._display(result, display)
        self.last_result, self.last_error = result, None
        if self.on_result is not None:
            self.on_result(result)
        self.status.value = self.describe(rules)
        return result

    def _call(self, rules, n_games):
        return self.run(rules, n_games=n_games) if self._pass_n_games else self.run(rules)

    def _shown(self, result, rules) -> None:
        """A run in the background finished and is still the latest: show what it returned."""
        self.output.outputs = _outputs(result)
        self.last_result, self.last_error = result, None
        if self.on_result is not None:
            self.on_result(result)
        self.status.value = self.describe(rules)

    def _failed(self, error: Exception) -> None:
        """A run in the background failed: a refused value as at the field, anything else as a defect (a run
        that chose not to play says why in the status line)."""
        if isinstance(error, NotPlayed):
            self.status.value = error.status
            return
        if isinstance(error, ValueError):
            self._fail(error)
            return
        self.last_result, self.last_error = None, f"{type(error).__name__}: {error}"
        self.status.value = error_html(error)

    def _cancelled(self) -> None:
        self.status.value = "cancelled: the plots below are the last finished run's"

    def games(self) -> int:
        """The games box's number, or a ``ValueError`` naming it (0 games is refused, not run as 1)."""
        value = self.n_games.value
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_GAMES:
            raise ValueError(f"games={value!r} is not allowed: an integer in 1..{MAX_GAMES:,}")
        return value

    def describe(self, rules) -> str:
        """The status line: the preset or the changed rules, each in words (its label and the value's words;
        the ``--set`` text in its tooltip), and the number of players where the game lets it vary."""
        preset = rules.preset_name()
        shown = f"preset <code>{preset}</code>" if preset else "custom rules"
        changed = [name for name in rules.changed() if name != "num_players"]
        if changed and not preset:  # in words; the --set text in the tooltip
            shown += ": " + ", ".join(
                f'<span title="{html.escape(name + "=" + self.params[name].kind.format(getattr(rules, name)))}">'
                f"{_html_escape(self.params[name].label)}: "
                f"<b>{_html_escape(self.params[name].kind.word(getattr(rules, name)))}</b></span>"
                for name in changed)
        if len(self.spec.seat_counts()) > 1:
            shown += f", {self.spec.seats(rules)} players"
        return shown

    # -- internals ---------------------------------------------------------------

    @staticmethod
    def _display(result, display) -> None:
        """Show a Figure, an Axes, or a tuple of them; anything else via IPython's display."""
        import matplotlib.pyplot as plt
        from matplotlib.axes import Axes
        from matplotlib.figure import Figure

        items = result if isinstance(result, (tuple, list)) else (result,)
        figures = []
        for item in items:
            if item is None:
                continue
            figure = item.figure if isinstance(item, Axes) else item
            if isinstance(figure, Figure):
                if figure not in figures:
                    figures.append(figure)
            else:
                display(item)
        for figure in figures:
            display(figure)
            plt.close(figure)  # else the inline backend shows it a second time at the cell's end

    def field_of(self, message: str) -> str | None:
        """The control a refusal's message is about: the name it starts with (``zero_runes_value=9 ...``,
        ``ranges[bear]=9 ...``, ``games=0 ...``), if the panel has that control."""
        found = re.match(r"\s*([A-Za-z_]\w*)(\[[^\]]*\])?=", message)
        return found.group(1) if found and found.group(1) in self.messages else None

    def _fail(self, error: ValueError):
        """Show a refused value's message in red at its control (or in the status line when it names no
        control of the panel); the last good plots stay."""
        message = str(error)
        self.last_result, self.last_error = None, message
        self._clear_messages()
        red = f'<span style="{_ERROR_STYLE}">{_html_escape(message)}</span>'
        field = self.field_of(message)
        if field is None:
            self.status.value = red
        else:
            self.messages[field].value = red
            where = self.params[field].label if field in self.params else field
            self.status.value = (f"not run: a value is not allowed, see the message under "
                                 f"<b>{_html_escape(where)}</b>; the plots below are the last good rules'")
        return None

    def _grey_out(self) -> None:
        """Disable each control whose rule does not matter under the others' current values
        (``param(..., applies=...)``), enable it again when it does, and draw each label as it stands."""
        for name, spec in self.params.items():
            if spec.applies is not None:
                field = spec.applies.field
                try:
                    current = {field: self.params[field].kind.from_widget(field, self.widgets[field].value)}
                except ValueError:
                    current = None  # the controlling field's own value is refused: leave the control as it is
                if current is not None:
                    self.widgets[name].disabled = not spec.applies_to(current)
            label = rule_label(name, spec, self.widgets[name].disabled, self.params)
            if self.labels[name].value != label:
                self.labels[name].value = label

    def _clear_messages(self) -> None:
        for html in self.messages.values():
            if html.value:
                html.value = ""

    def _on_change(self, change) -> None:
        self._grey_out()
        if self._resetting:
            return
        if change is not None and change.get("owner") is self.widgets.get("num_players"):
            self._follow_players(change["old"], change["new"])
        self._follow_rules()
        if self.auto:
            self.refresh()

    def _follow_rules(self) -> None:
        """The preset menu shows the preset the controls' rules are, or no entry when they are none: then
        choosing any preset, the one the rules came from too, is a change the menu hears and resets the
        controls (issue 49: with the menu left on "standard", choosing it did nothing, and a game with one
        preset could not be reset at all)."""
        try:
            preset = self.rules().preset_name()
        except ValueError:  # a value not allowed: the menu stays as it is
            return
        if preset == self.preset.value:
            return
        self._following = True  # heard by _on_preset: only the menu moves, the controls are the rules already
        try:
            if preset is None:
                self.preset.index = None
            else:
                self.preset.value = preset
        finally:
            self._following = False

    def _follow_players(self, old, new) -> None:
        """Defaults that depend on the player count (``ByPlayers``) follow a new ``num_players``,
        as ``Rules.replace`` does, unless the user moved them off the old count's default."""
        from toolkit.core.params import ByPlayers

        self._resetting = True
        try:
            for name, spec in self.params.items():
                if not isinstance(spec.default, ByPlayers):
                    continue
                widget = self.widgets[name]
                if widget.value == self._control_value(name, spec.default.resolve(old)):
                    widget.value = self._control_value(name, spec.default.resolve(new))
        finally:
            self._resetting = False

    def _control_value(self, name, value):
        """``value`` in the form ``widgets[name].value`` takes (text, a tuple of ticked options, a dict)."""
        spec = self.params[name]
        fresh = control(spec.kind, name, value, spec.doc)  # the kind alone knows the form
        try:
            return fresh.value
        finally:
            _close(fresh)

    def _on_preset(self, change) -> None:
        if change["new"] is None or getattr(self, "_following", False):
            return
        self.set_rules(self.spec.Rules.preset(change["new"]))

    def _repr_mimebundle_(self, **kwargs):
        return self.box._repr_mimebundle_(**kwargs)

    def _ipython_display_(self):
        from IPython.display import display

        display(self.box)


def _outputs(result) -> tuple:
    """What ``run`` returned as an Output widget's outputs (set from any thread, unlike ``with output``):
    a Figure or an Axes as a PNG, anything with an HTML form as that HTML, else its text."""
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from toolkit.viz.report_html import figure_uri

    shown = []
    for item in result if isinstance(result, (tuple, list)) else (result,):
        if item is None:
            continue
        figure = item.figure if isinstance(item, Axes) else item
        if isinstance(figure, Figure):
            data = {"text/html": f'<img src="{figure_uri(figure)}" style="max-width:100%">'}
        elif hasattr(item, "_repr_html_"):
            data = {"text/html": item._repr_html_()}
        else:
            data = {"text/plain": repr(item)}
        shown.append({"output_type": "display_data", "data": data, "metadata": {}})
    return tuple(shown)


def _close(widget) -> None:
    """Close a control and the controls inside it (each is a model in the browser until closed)."""
    for child in getattr(widget, "children", ()):
        _close(child)
    widget.close()


def rules_panel(game, run, preset: str = "standard", n_games: int = 100_000, *, columns: int = 3,
                auto: bool = True, refresh: bool = True, title: str | None = None, slot=None,
                check=None) -> RulesPanel:
    """An ipywidgets panel with one control per rule parameter of ``game``, grouped under headings.

    Parameters
    ----------
    game : str or GameSpec
        ``"valhalla"``, …
    run : callable
        ``run(rules)`` or ``run(rules, n_games=...)``: simulate and draw.  It
        returns what to show: a matplotlib Figure or Axes (or a tuple of
        them), or anything IPython can display.  A ``ValueError`` it raises is
        shown as a message.
    preset : str
        The preset the controls start at.
    n_games : int
        Initial value of the game-count box.
    columns : int
        Controls per row (a grid of checkboxes or number boxes takes a whole row).
    auto : bool
        Rerun on every change (default); ``False``: only on :meth:`RulesPanel.refresh`.
    refresh : bool
        Run once right away, so the panel opens with plots.
    slot : toolkit.viz.background.Slot, optional
        Run off the page's thread: the page stays live, a change cancels the run it makes stale and
        only the latest settings are drawn (``refresh`` then returns ``None``; ``slot.wait()`` waits).
    check : callable, optional
        ``check(rules)`` before each run; its ``ValueError`` is shown as a refused value is.

    Returns
    -------
    RulesPanel
        Displays itself in a notebook; ``.widgets``, ``.rules()`` and
        ``.refresh()`` drive it from code.

    Examples
    --------
    >>> import toolkit
    >>> calls = []
    >>> panel = rules_panel("valhalla", calls.append, refresh=False)
    >>> panel.widgets["extra_throw_enabled"].value = True
    >>> calls[-1].extra_throw_enabled
    True
    """
    panel = RulesPanel(game, run, preset, n_games, columns=columns, auto=auto, title=title, slot=slot, check=check)
    if refresh:
        panel.refresh()
    return panel


def summary_run(game, *, seed: int = 0, policies=None, threads: int | None = None):
    """A ready ``run`` for :func:`rules_panel`: simulate in summary mode, plot win rates and length.

    Returns ``run(rules, n_games)`` -> a Figure with :func:`~toolkit.viz.plots.win_rates_bar`
    and :func:`~toolkit.viz.plots.length_histogram` side by side.
    """
    from toolkit.core.runner import simulate
    from toolkit.viz import plots

    spec = get_spec(game)

    def run(rules, n_games: int = 100_000):
        import matplotlib.pyplot as plt

        summary = simulate(spec, rules, n_games, seed=seed, policies=policies, threads=threads,
                           keep="summary", progress=False)
        figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6))
        plots.win_rates_bar(summary.win_rates(), ax=left)
        plots.length_histogram(summary, "turns", ax=right)
        figure.tight_layout()
        return figure

    return run

"""Composite ipywidgets controls for rule values that are not one number or choice.

A set is a grid of checkboxes (:class:`CheckboxGrid`), a mapping a grid of
labelled number boxes (:class:`MappingGrid`) or, for a set per key, a matrix of
checkboxes (:class:`CheckboxMatrix`): each is one control with a ``value``,
like any ipywidgets control.  :func:`control` makes the control of any kind of
rule value declared in ``toolkit.core.params`` (which knows no widget: the
layers run downward, core below viz); the rules panel
(``toolkit.viz.widgets``) lays them out.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import ipywidgets as w
import traitlets

from toolkit.core import params as P


def html_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class ControlGrid(w.VBox, w.ValueWidget):
    """A labelled grid of small controls that acts as one control.

    ``value`` is read from the controls when the user changes one, and written
    to them when code sets it, so it can be observed and set like the value of
    any ipywidgets control (``observe(handler, names="value")``).  A user's
    change gives exactly one ``value`` event; setting ``value`` gives one too,
    and none from the controls it updates.

    Subclasses say how ``value`` is read from the controls (``_read``), written
    to them (``_write``) and put in canonical form (``_canonical``).  A value
    the controls cannot show (an element outside the options, a key not in the
    grid) is kept in ``value``, so the kind's ``from_widget`` refuses it with a
    message; the next change by the user replaces it with what is shown.
    """

    description = traitlets.Unicode(help="The parameter name shown above the grid.")
    disabled = traitlets.Bool(False, help="Greyed out: every control of the grid disabled (a rule that does "
                                         "not matter under the others, ``param(applies=...)``).")

    def __init__(self, controls, grid_children, value, *, description="", tooltip="",
                 columns="repeat(auto-fill, minmax(6em, 1fr))"):
        self._controls = controls
        self._writing = False
        label = w.Label(description, tooltip=tooltip)
        grid = w.GridBox(grid_children, layout=w.Layout(grid_template_columns=columns, grid_gap="0px 8px",
                                                        align_items="center"))
        # the tooltip goes on the label only: the box's browser view would read a ``description``
        # it never receives (a Python-only trait here) and fail to render ("javascript error")
        super().__init__([label, grid], description=description)
        traitlets.dlink((self, "description"), (label, "value"))
        self.value = value
        for control in self._controls:
            control.observe(self._on_control, names="value")
        self.observe(self._on_value, names="value")
        self.observe(self._on_disabled, names="disabled")

    def _on_disabled(self, change) -> None:
        for control in self._controls:
            control.disabled = change["new"]

    @traitlets.validate("value")
    def _validate_value(self, proposal):
        if isinstance(proposal["value"], str):
            raise traitlets.TraitError(f"{self.description}: give the value itself, not its text")
        return self._canonical(proposal["value"])

    def _on_control(self, change) -> None:
        if not self._writing:
            self.value = self._read()

    def _on_value(self, change) -> None:
        self._writing = True  # the controls' own events must not set value again, half written
        try:
            self._write(change["new"])
        finally:
            self._writing = False

    def _read(self):
        raise NotImplementedError

    def _write(self, value) -> None:
        raise NotImplementedError

    def _canonical(self, value):
        raise NotImplementedError


def _ordered(options, chosen) -> tuple:
    """``chosen`` in the options' order, then anything not among them (kept for the error message)."""
    chosen = list(dict.fromkeys(chosen))
    return tuple(o for o in options if o in chosen) + tuple(c for c in chosen if c not in options)


def _label_em(labels) -> float:
    """A width in em that holds the longest label."""
    return 0.6 * max((len(label) for label in labels), default=1) + 0.5


def _columns(min_em: float) -> str:
    """As many grid columns as fit, each at least ``min_em`` wide."""
    return f"repeat(auto-fill, minmax({min_em:.1f}em, 1fr))"


class CheckboxGrid(ControlGrid):
    """A set as one labelled checkbox per option; ``value`` is the tuple of ticked options, in order.

    >>> grid = CheckboxGrid((1, 2, 3), (3, 1), description="safe_squares")
    >>> grid.value
    (1, 3)
    >>> grid.checkboxes[2].value = True
    >>> grid.value
    (1, 2, 3)
    """

    def __init__(self, options, value=(), *, description="", tooltip="", words=None):
        self.options = tuple(options)
        words = dict(zip(self.options, words or [str(o) for o in self.options]))  # what each box says
        self.checkboxes = {o: w.Checkbox(value=o in tuple(value), description=words[o], indent=False,
                                         tooltip=str(o), layout=w.Layout(width="auto"))
                           for o in self.options}
        boxes = list(self.checkboxes.values())
        super().__init__(boxes, boxes, value, description=description, tooltip=tooltip,
                         columns=_columns(2 + _label_em(words.values())))

    def _read(self):
        return tuple(o for o, box in self.checkboxes.items() if box.value)

    def _write(self, value):
        for o, box in self.checkboxes.items():
            box.value = o in value

    def _canonical(self, value):
        return _ordered(self.options, value)


class MappingGrid(ControlGrid):
    """A mapping as one labelled control per key; ``value`` is the dict key -> that control's value.

    Setting ``value`` to a dict with some of the keys changes only those.

    >>> import ipywidgets as w
    >>> grid = MappingGrid({"bear": w.IntText(2, description="bear"), "fox": w.IntText(6, description="fox")},
    ...                    description="tile_counts")
    >>> grid.cells["fox"].value = 5
    >>> grid.value
    {'bear': 2, 'fox': 5}
    """

    def __init__(self, cells, *, description="", tooltip=""):
        self.cells = dict(cells)
        controls = list(self.cells.values())
        label_em = _label_em(getattr(c, "description", "") for c in controls)
        for cell in controls:
            if hasattr(cell, "continuous_update"):
                cell.continuous_update = False  # one change per finished entry, not per keystroke
            if hasattr(getattr(cell, "style", None), "description_width"):
                cell.style.description_width = f"{label_em:.1f}em"  # the boxes line up in columns
        super().__init__(controls, controls, self._read(), description=description, tooltip=tooltip,
                         columns=_columns(label_em + 5))

    def _read(self):
        return {k: cell.value for k, cell in self.cells.items()}

    def _write(self, value):
        for k, v in value.items():
            if k in self.cells:
                try:
                    self.cells[k].value = v
                except traitlets.TraitError:
                    pass  # the cell cannot show it; value keeps it for from_widget to refuse

    def _canonical(self, value):
        if not isinstance(value, Mapping):
            raise traitlets.TraitError(f"{self.description}: give a dict key -> value")
        merged = self._read()  # keys left out keep what their cell shows
        merged.update(value)
        return merged


class CheckboxMatrix(ControlGrid):
    """A mapping of each row key to a set of column options, as a matrix of checkboxes.

    ``value`` is the dict row -> tuple of ticked columns (in the columns' order);
    Halali's ``capture_matrix`` is one row per kind, ticked under the kinds it captures.

    >>> matrix = CheckboxMatrix(("bear", "fox"), ("bear", "fox"), {"bear": ("fox",), "fox": ()})
    >>> matrix.checkboxes["fox", "fox"].value = True
    >>> matrix.value
    {'bear': ('fox',), 'fox': ('fox',)}
    """

    def __init__(self, rows, columns, value, *, description="", tooltip=""):
        self.rows, self.columns = tuple(rows), tuple(columns)
        self.checkboxes = {(r, c): w.Checkbox(value=c in tuple(value.get(r, ())), indent=False,
                                              tooltip=f"{r}: {c}", layout=w.Layout(width="2em"))
                           for r in self.rows for c in self.columns}
        # column names written upwards, so a column is as narrow as its checkbox
        header = [w.Label("")] + [w.HTML(f'<div style="writing-mode:vertical-rl;transform:rotate(180deg);'
                                         f'white-space:nowrap">{html_escape(str(c))}</div>')
                                  for c in self.columns]
        children = list(header)
        for r in self.rows:
            children.append(w.Label(str(r)))
            children.extend(self.checkboxes[r, c] for c in self.columns)
        super().__init__(list(self.checkboxes.values()), children, value, description=description,
                         tooltip=tooltip, columns=f"max-content repeat({len(self.columns)}, 2em)")

    def _read(self):
        return {r: tuple(c for c in self.columns if self.checkboxes[r, c].value) for r in self.rows}

    def _write(self, value):
        for r, chosen in value.items():
            if r in self.rows:
                for c in self.columns:
                    self.checkboxes[r, c].value = c in chosen

    def _canonical(self, value):
        if not isinstance(value, Mapping):
            raise traitlets.TraitError(f"{self.description}: give a dict row -> columns")
        merged = self._read()  # rows left out keep what their checkboxes show
        merged.update({r: _ordered(self.columns, chosen) for r, chosen in value.items()})
        return merged


# ------------------------------------------------------------------ a control for each kind of rule value


@functools.singledispatch
def control(kind, name: str, value, description: str = ""):
    """The ipywidgets control of a rule value of ``kind`` (a ``toolkit.core.params.Kind``); its ``.value``
    goes back through ``kind.from_widget``.  Any kind without its own control is a text box of its
    ``--set`` form."""
    return w.Text(value=kind.format(value), description=name, tooltip=description,
                  style={"description_width": "initial"})


@control.register
def _(kind: P.Int, name, value, description=""):
    style = {"description_width": "initial"}
    if kind.low is not None and kind.high is not None and kind.high - kind.low <= 200:
        return w.IntSlider(value=value, min=kind.low, max=kind.high, description=name,
                           tooltip=description, style=style, continuous_update=False)
    # a plain box, not BoundedIntText: that one silently clamps a value out of range to the nearest
    # bound; here the value reaches ``check`` and an out-of-range one is refused by name
    return w.IntText(value=value, description=name, tooltip=description, style=style)


@control.register
def _(kind: P.Float, name, value, description=""):
    style = {"description_width": "initial"}
    if kind.low is None or kind.high is None:
        return w.FloatText(value=value, description=name, tooltip=description, style=style)
    # the slider spans the closed range; an open end is refused by from_widget's check
    return w.FloatSlider(value=value, min=kind.low, max=kind.high, step=(kind.high - kind.low) / 100,
                         readout_format=".3f", description=name, tooltip=description, style=style,
                         continuous_update=False)


@control.register
def _(kind: P.Bool, name, value, description=""):
    return w.Checkbox(value=value, description=name, tooltip=description, indent=False)


@control.register
def _(kind: P.Choice, name, value, description=""):
    return w.Dropdown(options=[(kind.word(c), c) for c in kind.choices], value=value,
                      description=name, tooltip=description, style={"description_width": "initial"})


@control.register
def _(kind: P.DataFile, name, value, description=""):
    """A box with a menu of the game's shipped files (Attila's maps); the path of another file can be typed."""
    return w.Combobox(value=kind.format(value), options=list(kind.shipped), ensure_option=False,
                      placeholder=f"a shipped file, or the path of a {kind.suffix} file", description=name,
                      tooltip=description, style={"description_width": "initial"}, continuous_update=False)


@control.register
def _(kind: P.IntSet, name, value, description=""):
    options = kind.options()
    if options is None:  # a box of typed numbers, each shown as a removable tag
        return w.IntsInput(value=sorted(value), min=kind.low, max=kind.high, description=name,
                           tooltip=description, style={"description_width": "initial"})
    return CheckboxGrid(options, value, description=name, tooltip=description)


@control.register
def _(kind: P.ChoiceSet, name, value, description=""):
    return CheckboxGrid(kind.options(), value, description=name, tooltip=description,
                        words=[kind.word((o,)) for o in kind.options()])


@control.register
def _(kind: P.Mapping_, name, value, description=""):
    """A grid with one cell per key of ``value`` (every key, for a rule's value).

    A set per key (Halali's ``capture_matrix``) is a matrix of checkboxes, one row per key; any other
    value a labelled box per key: an unbounded number box for ``Int`` and ``Float`` (a bad entry is shown
    as typed and refused by ``from_widget`` with a message, never silently clamped), else the value
    kind's own control."""
    keys = [k for k in kind.keys if k in value]
    options = kind.value.options() if isinstance(kind.value, (P.IntSet, P.ChoiceSet)) else None
    if options is not None:
        return CheckboxMatrix(keys, options, {k: value[k] for k in keys}, description=name, tooltip=description)

    def cell(key, cell_value):
        number = {P.Int: w.IntText, P.Float: w.FloatText}.get(type(kind.value))
        if number is not None:
            return number(value=cell_value, description=str(key), tooltip=kind.value.allowed(),
                          layout=w.Layout(width="auto"))
        return control(kind.value, str(key), cell_value, kind.value.allowed())

    return MappingGrid({k: cell(k, value[k]) for k in keys}, description=name, tooltip=description)

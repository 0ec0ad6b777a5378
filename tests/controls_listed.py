"""Every control a page of widgets offers a person, listed from the widgets themselves (issue 49).

A browser test clicks what a person clicks; this lists what there is to click, so that a test can compare
it with what the browser tests declare they click (tests/viz/test_controls_listed.py does so for the
dashboard) and a new control cannot go untested.  It needs no browser: build the page's widgets in Python
(``Dashboard(...).box``, a notebook's viewer ``.widget``, a rules panel's ``.box``) and call
:func:`interactive_controls`.

A control is named ``(kind, label)``:

- ``kind``: its class name (``Button``, ``Dropdown``, ``IntText``, ``CheckboxGrid``, ...);
- ``label``: the rule's name for a rules panel's control (its cell's class ``toolkit-rule-<name>``, as the
  browser tests find it), else its description, else its tooltip, else its placeholder;
- the same kind and label twice on a page: each is prefixed with the heading above it (``<h1>``..``<h4>``
  of an HTML widget before it), ``"The strength ladder on these rules › games per pairing"``;
- a grid of the rules panel (``toolkit.viz.controls.ControlGrid``) is one control, its checkboxes and
  boxes are not listed apart;
- a box in :data:`GENERATED` holds buttons made anew at each step (a person's options): listed once as
  ``("Button", <the box's class>)`` whatever their labels.

Not controls: text and pictures (HTML, Label, Image), output areas, progress bars, and boxes.  A control
without any label is listed with the label ``""``, which no declaration should accept.

>>> import ipywidgets as w
>>> interactive_controls(w.VBox([w.HTML("<h3>Run</h3>"), w.Button(description="go"), w.IntText(description="games")]))
[('Button', 'go'), ('IntText', 'games')]
"""

from __future__ import annotations

import html
import re

import ipywidgets as w

# boxes of buttons made anew for each decision (toolkit.viz.viewer.Play): one control, named by the box's class
GENERATED = ("toolkit-play-options",)

# what shows or holds things but takes no click or key
NOT_CONTROLS = (w.HTML, w.HTMLMath, w.Label, w.Image, w.Audio, w.Video, w.Output, w.FloatProgress, w.IntProgress,
                w.Valid)

_HEADING = re.compile(r"<h[1-4][^>]*>(.*?)</h[1-4]>", re.S | re.I)
_RULE_CLASS = "toolkit-rule-"


def _grid_class():
    from toolkit.viz.controls import ControlGrid

    return ControlGrid


def _is_control(widget) -> bool:
    if isinstance(widget, NOT_CONTROLS):
        return False
    if isinstance(widget, (w.Button, _grid_class())):
        return True
    return isinstance(widget, w.ValueWidget) and not isinstance(widget, w.Box)


def _label(widget, rule: str | None) -> str:
    if rule is not None:
        return rule
    for name in ("description", "tooltip", "placeholder"):
        text = (getattr(widget, name, None) or "").strip()
        if text:
            return text
    return ""


def _walk(widget, rule, heading, found):
    """Append ``(kind, label, heading)`` for each control under ``widget``, in the page's order; return the
    heading in force after it."""
    classes = getattr(widget, "_dom_classes", ())
    rule = next((c[len(_RULE_CLASS):] for c in classes if c.startswith(_RULE_CLASS)), rule)
    generated = next((c for c in classes if c in GENERATED), None)
    if generated is not None:
        if widget.children:
            found.append(("Button", generated, heading))
        return heading
    if isinstance(widget, (w.HTML, w.HTMLMath)):
        headings = _HEADING.findall(widget.value or "")
        if headings:
            heading = html.unescape(re.sub(r"<[^>]+>", "", headings[-1])).strip()
        return heading
    if _is_control(widget):
        found.append((type(widget).__name__, _label(widget, rule), heading))
        return heading
    for child in getattr(widget, "children", ()):
        heading = _walk(child, rule, heading, found)
    return heading


def interactive_controls(widget) -> list[tuple[str, str]]:
    """The controls a person can click or type into under ``widget``, as ``(kind, label)`` in the page's
    order (see the module docstring)."""
    found: list[tuple[str, str, str | None]] = []
    _walk(widget, None, None, found)
    counts: dict[tuple[str, str], int] = {}
    for kind, label, _ in found:
        counts[kind, label] = counts.get((kind, label), 0) + 1
    return [(kind, label if counts[kind, label] == 1 or not heading else f"{heading} › {label}")
            for kind, label, heading in found]


def unlisted(found, declared, where: str) -> list[str]:
    """Sentences naming each control in ``found`` that ``declared`` lacks, and each declared one not found
    (a renamed or removed control): empty when they agree."""
    found, declared = set(found), set(declared)
    return ([f"{kind} {label!r} is on {where} but no browser test is declared to click it"
             for kind, label in sorted(found - declared)]
            + [f"{kind} {label!r} is declared clicked but {where} has no such control"
               for kind, label in sorted(declared - found)])

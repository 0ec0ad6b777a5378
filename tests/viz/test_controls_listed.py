"""Every control of the dashboard is clicked by a browser test (issue 49), checked without a browser.

The dashboard is built in Python (as ``toolkit app valhalla`` builds it), with its viewer and your seat
shown as "watch this game" and "play it yourself" show them; its controls are listed by
``tests/controls_listed.py`` and compared with ``CLICKED`` in tests/browser/test_app_browser.py, which names
for each control the browser test that clicks it or types into it.  A new control fails here, by name, until
a browser test clicks it; a test named there must exist.  Every kind of control any game's rules panel makes
must be clicked there too (Valhalla's page, or one control of the kind in ``ELSEWHERE``).
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

import ipywidgets as w
import pytest
from controls_listed import interactive_controls, unlisted

import toolkit
from toolkit.viz.dashboard import Dashboard
from toolkit.viz.widgets import rules_panel

BROWSER_TESTS = Path(__file__).resolve().parents[1] / "browser"


@pytest.fixture(scope="module")
def declared():
    """tests/browser/test_app_browser.py: its ``CLICKED``, ``ELSEWHERE`` and test functions (imported as pytest
    imports it, from its folder; nothing there starts a browser at import)."""
    if str(BROWSER_TESTS) not in sys.path:
        sys.path.insert(0, str(BROWSER_TESTS))
    import test_app_browser

    return test_app_browser


@pytest.fixture(scope="module")
def board():
    board = Dashboard("valhalla", n_games=10, threads=1, refresh=False, background=False)
    yield board
    board._clear_seeing()


def page_controls(board) -> list[tuple[str, str]]:
    """The page's controls as it loads, then with its viewer shown, then with your seat."""
    board._clear_seeing()
    found = interactive_controls(board.box)
    board.watch()
    found += interactive_controls(board.box)
    board.play()
    found += interactive_controls(board.box)
    board._clear_seeing()
    return list(dict.fromkeys(found))


def test_every_control_of_the_dashboard_is_clicked_by_a_browser_test(board, declared):
    found = page_controls(board)
    assert ("Dropdown", "jump to") in found and ("Button", "toolkit-play-options") in found  # shown ones too
    problems = unlisted(found, declared.CLICKED, "the dashboard")
    assert not problems, "\n".join(problems)
    tests = {name for name, f in inspect.getmembers(declared, inspect.isfunction) if name.startswith("test_")}
    missing = sorted({test for test in (*declared.CLICKED.values(), *declared.ELSEWHERE.values())} - tests)
    assert missing == [], f"declared as clicking controls but not in test_app_browser.py: {missing}"


def test_a_new_control_is_named_as_untested(board, declared):
    """The negative control: a button added to the page, and a viewer control renamed, are each named (beside
    whatever the page already lacks, which the test above reports)."""
    before = set(unlisted(page_controls(board), declared.CLICKED, "the dashboard"))
    surprise = w.Button(description="surprise me")
    board.box.children = (*board.box.children, surprise)
    try:
        found = page_controls(board)
    finally:
        board.box.children = board.box.children[:-1]
        surprise.close()
    assert set(unlisted(found, declared.CLICKED, "the dashboard")) - before == {
        "Button 'surprise me' is on the dashboard but no browser test is declared to click it"}
    renamed = [c if c != ("Dropdown", "jump to") else ("Dropdown", "go to") for c in page_controls(board)]
    assert set(unlisted(renamed, declared.CLICKED, "the dashboard")) - before == {
        "Dropdown 'go to' is on the dashboard but no browser test is declared to click it",
        "Dropdown 'jump to' is declared clicked but the dashboard has no such control"}


def test_every_kind_of_rule_control_is_clicked_by_a_browser_test(declared):
    """Another game's panel is on the same page once chosen: each kind of control it makes is clicked, on
    Valhalla's page or as the one control of ``ELSEWHERE`` declared for its kind, which that game has."""
    clicked = {kind for kind, _ in declared.CLICKED} | {kind for _, kind, _ in declared.ELSEWHERE}
    unclicked = {}
    for name in toolkit.GAMES:
        panel = rules_panel(name, lambda rules: None, n_games=10, auto=False)
        for rule, widget in panel.widgets.items():
            if type(widget).__name__ not in clicked:
                unclicked.setdefault(type(widget).__name__, f"{name}.{rule}")
        for game, kind, rule in (key for key in declared.ELSEWHERE if key[0] == name):
            assert type(panel.widgets.get(rule)).__name__ == kind, f"{game} has no {kind} {rule!r}"
    assert unclicked == {}, f"kinds of rule control no browser test clicks (one rule of each): {unclicked}"


def test_the_listing_names_controls_as_the_browser_tests_find_them():
    """A rule's control by its rule, another by its description, else its tooltip; the same kind and label
    twice on a page each under the heading above it; a grid of checkboxes as one control; a box of buttons
    made anew at each decision as one; text, pictures, outputs and progress bars not at all."""
    from toolkit.viz.controls import CheckboxGrid

    cell = w.VBox([w.HTML("the rule in words"), CheckboxGrid((1, 2, 3), (1,), description="")])
    cell.add_class("toolkit-rule-safe_squares")
    options = w.VBox([w.Button(description="move ship 1"), w.Button(description="move ship 2")])
    options.add_class("toolkit-play-options")
    page = w.VBox([w.HTML("<h3>A &amp; B</h3>"), w.IntText(description="games"), cell,
                   w.Dropdown(options=["a"], tooltip="goal"), w.HTML("<h2>C</h2><p>text</p>"),
                   w.HBox([w.IntText(description="games"), w.FloatProgress(), w.Output(), w.Image()]), options])
    assert interactive_controls(page) == [("IntText", "A & B › games"), ("CheckboxGrid", "safe_squares"),
                                          ("Dropdown", "goal"), ("IntText", "C › games"),
                                          ("Button", "toolkit-play-options")]


# ------------------------------------------------------------------ the games' notebooks

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
_WIDGET_CALL = re.compile(r"widgets\.(\w+)\((?:[^()]|\([^()]*\))*?description=\"([^\"]+)\"")


@pytest.fixture(scope="module")
def lab():
    """tests/browser/test_notebooks_lab.py: its ``WIDGET_CELLS``, ``CLICKED``, ``declared_for`` and tests."""
    if str(BROWSER_TESTS) not in sys.path:
        sys.path.insert(0, str(BROWSER_TESTS))
    import test_notebooks_lab

    return test_notebooks_lab


def notebook_controls(game: str, lab) -> list[tuple[str, str]]:
    """The controls of game ``game``'s notebook but its rules', from the widgets its widget cells make: the
    rules panel's, the viewer's (a search named by its kind, ``mcts:N:0:flat``, its budget following the notebook's
    N), your seat's, and those a cell builds itself (``widgets.X(..., description="...")`` in its source)."""
    import jupytext

    from toolkit.viz.viewer import play, viewer

    cells = [c.source for c in jupytext.read(NOTEBOOKS / f"{game}.py").cells if c.cell_type == "code"]
    rules = set(toolkit.GAMES[game].Rules.__dataclass_fields__)
    found = []
    for marker in lab.WIDGET_CELLS:
        for source in (c for c in cells if marker in c):
            if marker == "rules_panel(":
                panel = rules_panel(game, lambda r: None, n_games=10, auto=False)
                found += [c for c in interactive_controls(panel.box) if c[1] not in rules]
            elif marker == 'viewer("':
                found += interactive_controls(viewer(game, judge="mcts:N:0:flat", swing_judge="mcts:10:0:flat").widget)
            elif marker == 'play("':
                found += interactive_controls(play(game).widget)
            else:
                found += _WIDGET_CALL.findall(source)
    return list(dict.fromkeys(found))


@pytest.mark.parametrize("game", list(toolkit.GAMES))
def test_every_control_of_a_games_notebook_is_clicked_by_a_browser_test(game, lab):
    found = notebook_controls(game, lab)
    assert ("Dropdown", "preset") in found and ("Button", "toolkit-play-options") in found
    problems = unlisted(found, lab.declared_for(game), f"{game}'s notebook")
    assert not problems, "\n".join(problems)
    tests = {name for name, f in inspect.getmembers(lab, inspect.isfunction) if name.startswith("test_")}
    assert set(lab.CLICKED.values()) <= tests, sorted(set(lab.CLICKED.values()) - tests)


def test_a_new_control_of_a_notebook_is_named_as_untested(lab, monkeypatch):
    """The negative control: a button added to the viewer, and a replay cell's control renamed, are named."""
    from toolkit.viz import viewer as viewer_module

    built = viewer_module.Viewer.__init__

    def with_a_button(self, *args, **kwargs):
        built(self, *args, **kwargs)
        self.widget.children = (*self.widget.children, w.Button(description="share this game"))

    monkeypatch.setattr(viewer_module.Viewer, "__init__", with_a_button)
    assert unlisted(notebook_controls("pig", lab), lab.declared_for("pig"), "pig's notebook") == [
        "Button 'share this game' is on pig's notebook but no browser test is declared to click it"]
    monkeypatch.undo()
    renamed = [c if c != ("IntSlider", "position") else ("IntSlider", "move") for c in notebook_controls("halali", lab)]
    assert unlisted(renamed, lab.declared_for("halali"), "halali's notebook") == [
        "IntSlider 'move' is on halali's notebook but no browser test is declared to click it",
        "IntSlider 'position' is declared clicked but halali's notebook has no such control"]

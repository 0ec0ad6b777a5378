"""The notebooks in JupyterLab in Chromium: ``make lab``, Run All, the panels redraw, a save leaves git clean.

One JupyterLab for the module, started by ``make lab`` itself (as root it
passes ``--allow-root``) in a temporary git repository holding what the
repository tracks of the notebooks: ``notebooks/*.py`` and ``.gitignore``.
``make lab`` makes the ``.ipynb`` files; the server's port and empty token
come from a temporary ``JUPYTER_CONFIG_DIR``, and ``TOOLKIT_NOTEBOOK_N``
gives every notebook its test size.

Each game's notebook is opened alone on the module's one page (a load of JupyterLab's app costs seconds of
the browser's work: measured 4.6 s against 2.0 s to open the next notebook on the same page): Run → Run
All Cells, then the page is
checked (every code cell ran, no broken widget, traceback or stderr), its
rules panel is driven (a dropdown, a checkbox and a slider each redraw the
plot; a bad value shows the red message and keeps the plot), a replay slider
moves its board, the game viewer steps and a click plays your seat, and
finally the notebook is saved: the ``.ipynb`` holds the
outputs, the paired ``.py`` was rewritten, and ``git status`` is clean.  The
last test is the negative control: the old setup (tracked ``.ipynb``, a
``jupytext_version`` in the header) goes dirty under the same run and save.

The overview notebook has no control to click (``tests/test_notebooks.py`` checks it shows no widget): it
runs by nbclient there, at the same test size, and ``make lab`` here still makes its ``.ipynb``.

Every control a game's notebook offers is clicked or typed into here (issue 49).  Its widgets come only from
the cells :data:`WIDGET_CELLS` names (checked on each page); :data:`CLICKED` names, for each of their controls
but the rules' (each kind of rule control is clicked on the dashboard's page:
``tests/viz/test_controls_listed.py``), the test that uses it, and each test records what it used with
:func:`used`.  ``tests/viz/test_controls_listed.py`` lists those cells' controls from the widgets themselves
and fails on one no test here is declared to click.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from browser_support import TIMINGS, choice_words, free_port, page_problems, start_server, status_words, stop_server
from test_notebooks import SMALL_N
from toolkit.core.params import params_of
from toolkit.games import GAMES

jupytext = pytest.importorskip("jupytext")

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = [*GAMES]  # one notebook per registered game (the overview: tests/test_notebooks.py, by nbclient)
MADE = [*GAMES, "overview"]  # the .ipynb files `make lab` makes
# TOOLKIT_NOTEBOOK_N: every size a notebook uses follows it (tests/test_notebooks.py holds the value)
RUN_ALL_TIMEOUT_MS = 600_000
OPEN_TIMEOUT_MS = 120_000
REDRAW_TIMEOUT_MS = 60_000
RUN_STARTED_TIMEOUT_MS = 30_000  # from the click on Run All Cells to the first prompt's [*] (or its number)
RUN_ALL_CLICKS = 3
CURRENT = ".jp-NotebookPanel:not(.lm-mod-hidden)"  # the notebook shown in the main area
ERROR_STYLE = "span[style*='b00020']"  # the rules panel's message for a value that is not allowed


# the cells of a game's notebook that show widgets, by a marker in their source, and what each shows
WIDGET_CELLS = {"rules_panel(": "the rules panel", 'viewer("': "the viewer", 'play("': "your seat",
                "widgets.IntSlider(": "the replay"}
_VIEWER_TEST = "test_viewer_steps_a_seat_plays_and_the_decisions_are_told"
# every control of those cells but the rules' -> the test that clicks it (a search's budget follows N: mcts:N:0:flat)
CLICKED = {
    ("Dropdown", "preset"): "test_panel_preset_and_games_redraw",
    ("IntText", "games"): "test_panel_preset_and_games_redraw",
    ("Button", "◀ back"): _VIEWER_TEST,
    ("Button", "forward ▶"): _VIEWER_TEST,
    ("IntSlider", "decision"): _VIEWER_TEST,
    ("Dropdown", "seen by"): _VIEWER_TEST,  # a game with hidden information only
    ("Checkbox", "what mcts:N:0:flat thinks"): _VIEWER_TEST,
    ("Dropdown", "jump to"): _VIEWER_TEST,
    ("Button", "toolkit-play-options"): _VIEWER_TEST,
    ("Checkbox", "play my forced moves for me (a decision with one option)"): _VIEWER_TEST,
    ("Play", "play"): "test_replay_slider_moves_the_board",  # the replay's cell only
    ("IntSlider", "position"): "test_replay_slider_moves_the_board",
}
_USED: set = set()  # the controls the running test used (``used``)


def used(*controls) -> None:
    """Record that the running test clicked or typed into ``controls`` (keys of :data:`CLICKED`)."""
    unknown = [c for c in controls if c not in CLICKED]
    assert not unknown, f"not declared in CLICKED: {unknown}"
    _USED.update(controls)


def declared_for(name: str) -> set:
    """The controls of :data:`CLICKED` game ``name``'s notebook has: "seen by" where something is hidden, the
    replay's where its notebook replays a game."""
    spec = GAMES[name]
    return {c for c in CLICKED if (c != ("Dropdown", "seen by") or spec.hidden_information)
            and (c not in (("Play", "play"), ("IntSlider", "position")) or spec.replay)}


@pytest.fixture(autouse=True)
def _declared_controls_were_used(request):
    """After a test of a game's notebook that passed: it used every control :data:`CLICKED` declares for it and
    that notebook has."""
    _USED.clear()
    failed = request.session.testsfailed
    yield
    notebook = request.node.funcargs.get("notebook")
    if request.session.testsfailed > failed or notebook is None:
        return
    test = request.node.originalname
    declared = {c for c in declared_for(notebook.name) if CLICKED[c] == test}
    assert declared <= _USED, f"{request.node.name} is declared to click {sorted(declared - _USED)} but did not"


@dataclass(frozen=True)
class PanelCase:
    """What to change in a notebook's rules panel: one of each kind of control, then a bad value."""

    dropdown: tuple[str, str]  # label, option to choose
    checkbox: str | None  # None: the game has no yes/no rule
    slider: tuple[str, str]  # label, key that moves it one step
    bad: tuple[str, str, str] | None  # CSS of the input, text typed, the name the message must give; None below


def untyped_rules(name: str) -> bool:
    """Every rule of game ``name`` is a choice, a yes/no or a bounded number: its panel has no box to type a
    value into, so it can show no bad value (Pig's)."""
    from toolkit.core.params import Bool, Choice, Float, Int

    return all(isinstance(p.kind, (Bool, Choice)) or (isinstance(p.kind, (Int, Float)) and None not in
                                                      (p.kind.low, p.kind.high))
               for p in params_of(GAMES[name].Rules).values())


def _text_input(rule: str) -> str:
    """The text box of rule ``rule`` in a rules panel (its cell has the class ``toolkit-rule-<name>``)."""
    return f".toolkit-rule-{rule} .widget-text input"


def _grid_cell(grid: str, cell: str) -> str:
    """A number box of a grid control (a mapping): the cell labelled ``cell`` of rule ``grid``."""
    return f".toolkit-rule-{grid} .widget-text:has(> .widget-label:text-is('{cell}')) input"


def panel_case(name: str) -> PanelCase:
    """What to change in game ``name``'s rules panel: ``tests/games/<name>/notebook_panel.json``, beside
    the game's other tests (a game without the file fails here, by name).

    The file gives ``dropdown`` (label, option), ``checkbox`` (label), ``slider`` (label, key) and
    ``bad`` (a game without a yes/no rule, or whose rules are all bounded, gives null for ``checkbox`` or
    ``bad``, and it is checked that it has none): the ``input`` to type into (``{"text": label}``, a text box; ``{"grid": heading, "cell":
    label}``, a number box of a mapping; ``{"css": selector}``), the text ``typed`` and the name the
    message ``names``.  Each change must change what the plot shows: Attila's support_any_tribe and
    Walhalla's landing_mandatory, for two, change no winner and no game length in greedy self-play
    (measured), so their plot stays the same."""
    path = REPO / "tests" / "games" / name / "notebook_panel.json"
    assert path.is_file(), f"{name}: no {path.relative_to(REPO)} (what the browser test changes in its panel)"
    case = json.loads(path.read_text())
    checkbox, bad = case.get("checkbox"), case.get("bad")
    if checkbox is None:
        assert not any(type(p.kind).__name__ == "Bool" for p in params_of(GAMES[name].Rules).values()), \
            f"{name}: notebook_panel.json names no checkbox, but the game has a yes/no rule"
    if bad is None:
        assert untyped_rules(name), f"{name}: notebook_panel.json types no bad value, but a rule takes typed text"
        return PanelCase(tuple(case["dropdown"]), checkbox, tuple(case["slider"]), None)
    where = bad["input"]
    if "text" in where:
        selector = _text_input(where["text"])
    elif "grid" in where:
        selector = _grid_cell(where["grid"], where["cell"])
    else:
        selector = where["css"]
    return PanelCase(tuple(case["dropdown"]), checkbox, tuple(case["slider"]), (selector, bad["typed"], bad["names"]))


PANELS = {name: panel_case(name) for name in GAMES}  # every game's notebook has a rules panel
REPLAYS = [name for name, spec in GAMES.items() if spec.replay]  # their notebooks replay a game with a slider

# JupyterLab as `make lab` starts it, told by a config file what a test needs: a free port, no token,
# no browser, and nothing fetched from the network (news, update checks); the app is exposed in the page
# (window.jupyterapp) so that a test can wait until the notebook's kernel is really attached
SERVER_CONFIG = {"ServerApp": {"ip": "127.0.0.1", "open_browser": False, "port_retries": 0},
                 "IdentityProvider": {"token": ""},
                 "LabApp": {"news_url": None, "check_for_updates_class": "jupyterlab.NeverCheckForUpdate",
                            "expose_app_in_browser": True}}
LAB_SETTINGS = {"@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false"}}


# ------------------------------------------------------------------ the repositories and servers


def _git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid",
                           "-c", "commit.gpgsign=false", *args], cwd=folder, capture_output=True, text=True,
                          check=True).stdout


def git_status(folder: Path) -> str:
    return _git(folder, "status", "--porcelain", "--untracked-files=all")


def jupyter_config(folder: Path, port: int) -> Path:
    folder.mkdir()
    (folder / "jupyter_server_config.json").write_text(
        json.dumps({**SERVER_CONFIG, "ServerApp": {**SERVER_CONFIG["ServerApp"], "port": port}}))
    for name, settings in LAB_SETTINGS.items():
        path = folder / "lab" / "user-settings" / name
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(settings))
    return folder


def tracked_copy(folder: Path) -> Path:
    """``folder`` as a git repository holding the tracked notebook files of this one, committed."""
    (folder / "notebooks").mkdir(parents=True)
    for py in sorted((REPO / "notebooks").glob("*.py")):
        shutil.copy2(py, folder / "notebooks" / py.name)
    shutil.copy2(REPO / ".gitignore", folder / ".gitignore")
    _git(folder, "init", "-q")
    _git(folder, "add", "-A")
    _git(folder, "commit", "-q", "-m", "the tracked notebook files")
    return folder


@dataclass
class Lab:
    url: str
    repo: Path  # the temporary git repository; JupyterLab's root is its notebooks/
    shots: Path
    py_mtimes: dict  # notebook -> mtime of its .py before JupyterLab saved anything
    log: Path  # the server's output


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lab")
    repo = tracked_copy(folder / "repo")
    # `make lab` runs .venv/bin/jupyter: the venv running these tests, linked in (and git-excluded)
    (repo / ".venv").symlink_to(Path(sys.prefix))
    with (repo / ".git" / "info" / "exclude").open("a") as exclude:
        exclude.write("/.venv\n")
    port = free_port()
    config = jupyter_config(folder / "jupyter", port)
    py_mtimes = {name: (repo / "notebooks" / f"{name}.py").stat().st_mtime_ns for name in MADE}
    start = time.monotonic()
    # -o: the venv is taken as installed (make must not reinstall it because pyproject.toml is newer)
    process = start_server(["make", "--no-print-directory", "-f", str(REPO / "Makefile"), "-C", str(repo),
                            "-o", ".venv/.installed", "lab"],
                           folder / "server.log", port,
                           env={"JUPYTER_CONFIG_DIR": str(config), "TOOLKIT_NOTEBOOK_N": SMALL_N})
    TIMINGS["make lab: the .ipynb files made and JupyterLab listening"] = time.monotonic() - start
    shots = folder / "screenshots"
    shots.mkdir()
    yield Lab(f"http://127.0.0.1:{port}/", repo, shots, py_mtimes, folder / "server.log")
    stop_server(process)


# ------------------------------------------------------------------ driving JupyterLab


def code_cell_count(py: Path) -> int:
    return sum(cell.cell_type == "code" for cell in jupytext.read(py).cells)


# the kernel of the notebook shown: its id when the session is ready, a kernel is connected and idle
KERNEL_READY = """() => { const s = window.jupyterapp?.shell?.currentWidget?.sessionContext;
    return s && s.isReady && !s.hasNoKernel && s.session?.kernel?.connectionStatus === 'connected'
        && s.kernelDisplayStatus === 'idle' ? s.session.kernel.id : null; }"""
KERNEL_STEADY_S = 1.0  # the same kernel ready this long before a run is started


def wait_for_kernel(page, name: str, log: Path | None, timeout: float = OPEN_TIMEOUT_MS / 1000) -> None:
    """Until the notebook shown has a kernel attached, connected and idle, the same one for
    :data:`KERNEL_STEADY_S`; JupyterLab's kernel selection dialog, if it shows, is answered with its
    default (the notebook's kernel) and reported as a warning, any other dialog fails the test.

    The toolbar's execution indicator says idle before a kernel is attached: CI clicked Run All then, and
    saw the click lost, the kernel selection dialog shown, or the run stopped after the first cell."""
    deadline = time.monotonic() + timeout
    ready, since = None, 0.0
    while time.monotonic() < deadline:
        text = dialog_text(page)
        if text is not None:
            handle_dialog(page, name, text.startswith("Select Kernel"), log)
            ready = None
            continue
        kernel = page.evaluate(KERNEL_READY)
        if kernel is None or kernel != ready:
            ready, since = kernel, time.monotonic()
        elif time.monotonic() - since >= KERNEL_STEADY_S:
            return
        time.sleep(0.25)
    pytest.fail(f"{name}: no kernel attached and idle after {timeout:.0f} s\nserver log:\n"
                + (log.read_text()[-3000:] if log is not None and log.exists() else "(no server log)"))


def open_notebook(page, url: str, name: str, n_code_cells: int, log: Path | None = None):
    """``page`` showing ``name``.ipynb alone, its kernel attached and idle (:func:`wait_for_kernel`): on a page
    that has JupyterLab already, opened as its file browser opens a file (:func:`close_notebook` closed the
    one before); else loaded there (``?reset``: no tab of an earlier page restored).  A load of JupyterLab
    costs seconds of the browser's work that a module's six notebooks need only once."""
    start = time.monotonic()
    if page.url.startswith(url):
        page.evaluate("async path => { await window.jupyterapp.commands.execute('docmanager:open', {path}); }",
                      f"{name}.ipynb")
    else:
        page.goto(f"{url}lab/tree/{name}.ipynb?reset", timeout=OPEN_TIMEOUT_MS)
    page.wait_for_function("([current, n]) => document.querySelectorAll(`${current} .jp-CodeCell`).length === n",
                           arg=[CURRENT, n_code_cells], timeout=OPEN_TIMEOUT_MS)
    wait_for_kernel(page, name, log)
    TIMINGS[f"JupyterLab: {name}.ipynb opened, kernel idle"] = time.monotonic() - start
    return page


def prompts(page) -> list[str]:
    # text content: a cell out of view is not laid out (content-visibility), so it has no inner text
    return [p.strip() for p in page.locator(f"{CURRENT} .jp-CodeCell .jp-InputPrompt").all_text_contents()]


def dialog_text(page) -> str | None:
    """The text of the dialog JupyterLab shows over the page, if it shows one."""
    dialog = page.locator(".jp-Dialog")
    return " | ".join(dialog.first.inner_text().split("\n")) if dialog.count() else None


def handle_dialog(page, name: str, accept: bool, log: Path | None) -> None:
    """A dialog over the page fails the test with its text and the server's log (``accept`` false), or
    is answered (its accept button, else its last, the default) and reported as a warning in the run's
    summary (``accept``).

    CI once saw the old-setup control's Run menu covered by a dialog (which one, the log did not say)."""
    text = dialog_text(page)
    if text is None:
        return
    if not accept:
        tail = log.read_text()[-3000:] if log is not None and log.exists() else "(no server log)"
        pytest.fail(f"JupyterLab showed a dialog over {name}: {text!r}\nserver log:\n{tail}")
    warnings.warn(f"JupyterLab showed a dialog over {name}, answered with its default button: {text!r}",
                  stacklevel=2)
    buttons = page.locator(".jp-Dialog .jp-Dialog-button")
    accept = buttons.and_(page.locator(".jp-mod-accept"))
    (accept.first if accept.count() else buttons.last).click()  # the last is a dialog's default
    page.locator(".jp-Dialog").wait_for(state="detached", timeout=REDRAW_TIMEOUT_MS)


def run_all(page, name: str, *, accept_dialogs: bool = False, log: Path | None = None) -> None:
    """Run → Run All Cells, and wait until the run is over (every cell done, or stopped by an error).

    JupyterLab can drop the click on the menu item: the old-setup control's first prompt stayed blank
    until the timeout in CI, and its first click was lost again when run alone (why is not known).  So
    the click is repeated, up to :data:`RUN_ALL_CLICKS` times, until the first prompt shows the run
    queued or done; a second click after a run started is never made.  Before each click, a dialog
    over the page is handled by :func:`handle_dialog`."""
    start = time.monotonic()
    for attempt in range(RUN_ALL_CLICKS):
        handle_dialog(page, name, accept_dialogs, log)
        page.locator(".lm-MenuBar-itemLabel").get_by_text("Run", exact=True).click()
        page.locator(".lm-Menu-itemLabel").get_by_text("Run All Cells", exact=True).click()
        try:
            page.wait_for_function(
                "current => /^\\[(\\*|\\d+)\\]:$/.test((document.querySelector(current + ' .jp-CodeCell "
                ".jp-InputPrompt') || {}).textContent?.trim() || '')",
                arg=CURRENT, timeout=RUN_STARTED_TIMEOUT_MS, polling=250)
            break
        except PlaywrightTimeout:
            if attempt == RUN_ALL_CLICKS - 1:
                handle_dialog(page, name, False, log)  # the reason, when it is a dialog
                raise
            warnings.warn(f"{name}: Run All Cells started nothing in {RUN_STARTED_TIMEOUT_MS / 1000:.0f} s; "
                          "clicked again", stacklevel=2)
    page.wait_for_function(
        "current => { const p = [...document.querySelectorAll(current + ' .jp-CodeCell .jp-InputPrompt')]"
        "  .map(e => e.textContent.trim());"
        "  return /^\\[\\d+\\]:$/.test(p[0]) && !p.some(t => t.includes('*')); }",
        arg=CURRENT, timeout=RUN_ALL_TIMEOUT_MS, polling=250)
    TIMINGS[f"JupyterLab: {name}.ipynb Run All Cells (N={SMALL_N})"] = time.monotonic() - start


def save(page) -> None:
    page.locator(f"{CURRENT} .jp-InputPrompt").first.click()  # the notebook has the focus, in command mode
    page.keyboard.press("Control+s")


def close_notebook(page) -> None:
    """The notebook shown is closed without a question (what it holds is the test's, saved or not)."""
    page.evaluate("""() => { const widget = window.jupyterapp.shell.currentWidget;
        if (widget) { widget.context.model.dirty = false; widget.dispose(); } }""")
    page.wait_for_function("current => document.querySelectorAll(current).length === 0", arg=CURRENT,
                           timeout=OPEN_TIMEOUT_MS)


def shut_down_kernels(page) -> None:
    """Every session of the server ends (its kernel with it), through the API as JupyterLab calls it."""
    page.evaluate("""async () => {
        const xsrf = (document.cookie.match(/_xsrf=([^;]+)/) || [])[1] || '';
        const sessions = await (await fetch('/api/sessions')).json();
        for (const s of sessions) {
            await fetch('/api/sessions/' + s.id, {method: 'DELETE', headers: {'X-XSRFToken': xsrf}});
        }
    }""")


def code_cells_with(page, marker: str):
    return page.locator(f"{CURRENT} .jp-CodeCell").filter(has=page.locator(".jp-InputArea", has_text=marker))


def code_cell(page, marker: str):
    """The code cell whose source contains ``marker``."""
    found = code_cells_with(page, marker)
    assert found.count() == 1, f"{found.count()} code cells contain {marker!r}"
    return found


def control(area, kind: str, label: str):
    """The ipywidgets control of class ``widget-<kind>`` inside ``area`` labelled exactly ``label``."""
    name = area.page.locator(".widget-label, .widget-label-basic").get_by_text(label, exact=True)
    found = area.locator(f".widget-{kind}").filter(has=name)
    assert found.count() == 1, f"{found.count()} {kind} controls labelled {label!r}"
    return found


def rule_control(area, kind: str, rule: str):
    """The control of class ``widget-<kind>`` of rule ``rule`` in a rules panel inside ``area``: its cell
    (class ``toolkit-rule-<name>``) shows the rule in words above it, with the name in its tooltip."""
    cell = area.locator(f".toolkit-rule-{rule}")
    assert cell.count() == 1, f"{cell.count()} cells of rule {rule!r}"
    label = cell.locator(".toolkit-rule-label")
    assert label.inner_text().strip() not in ("", rule), f"{rule}: no words above the control"
    assert label.get_attribute("title").startswith(f"{rule}: "), f"{rule}: the tooltip does not name the rule"
    found = cell.locator(f".widget-{kind}")
    assert found.count() == 1, f"{found.count()} {kind} controls of rule {rule!r}"
    return found


OUTPUT_IMAGE = ".widget-output img"  # a plot in an output widget
WIDGET_IMAGE = ".toolkit-viewer img, .toolkit-play img"  # the viewer's and your seat's picture (a widgets Image)


def image_source(area, images: str = OUTPUT_IMAGE) -> str:
    image = area.locator(images)
    assert image.count() == 1, f"{image.count()} images ({images})"
    return image.get_attribute("src")


def wait_for_new_image(area, old: str, what: str, images: str = OUTPUT_IMAGE) -> str:
    """Until ``area`` shows one image (``images``, default the output widget's) other than ``old``; its time
    goes to TIMINGS."""
    start = time.monotonic()
    image = area.locator(images)
    while time.monotonic() - start < REDRAW_TIMEOUT_MS / 1000:
        if image.count() == 1 and (new := image.get_attribute("src")) != old:
            TIMINGS[what] = time.monotonic() - start
            return new
        time.sleep(0.25)
    area.scroll_into_view_if_needed()
    area.page.screenshot(path=area.page.shots / ("timeout_" + re.sub(r"\W+", "_", what) + ".png"))
    texts = area.locator(".widget-html").all_text_contents()  # a rules panel's status is its last
    pytest.fail(f"no new image after {REDRAW_TIMEOUT_MS / 1000:.0f} s ({what})"
                + (f"; status: {texts[-1]!r}" if texts else ""))


def saved_execution_counts(path: Path) -> list:
    notebook = json.loads(path.read_text())
    return [cell.get("execution_count") for cell in notebook["cells"] if cell["cell_type"] == "code"]


def wait_for_saved_run(path: Path, n_code_cells: int, timeout: float = 60.0) -> None:
    """Until ``path`` on disk holds a run of every code cell (the save is done)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            counts = saved_execution_counts(path)
        except (OSError, ValueError):  # not there, or written right now
            counts = []
        if len(counts) == n_code_cells and all(counts):
            return
        time.sleep(0.2)
    pytest.fail(f"{path.name} was not saved with a run of its {n_code_cells} code cells in {timeout:.0f} s")


def wait_for_no_backup(path: Path, timeout: float = 30.0) -> None:
    """Until Jupyter's save of ``path`` is over: it copies the file to ``.~<name>`` and writes the file in
    place, then removes the copy (a ``git status`` in between saw a half-written file and the copy)."""
    backup = path.with_name(".~" + path.name)
    deadline = time.monotonic() + timeout
    while backup.exists() and time.monotonic() < deadline:
        time.sleep(0.2)


# ------------------------------------------------------------------ one notebook at a time


@dataclass
class Notebook:
    name: str
    page: object
    n_code_cells: int


@pytest.fixture(scope="module")
def lab_page(browser, lab):
    """The module's one page of JupyterLab, where each game's notebook is opened in turn."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.shots = lab.shots  # where its screenshots go
    yield page
    page.close()


@pytest.fixture(scope="module", params=NOTEBOOKS)
def notebook(request, lab_page, lab):
    """``request.param`` opened alone on the module's page and run once; its tests then run in file order;
    then its kernel is shut down and it is closed."""
    name = request.param
    n_code_cells = code_cell_count(lab.repo / "notebooks" / f"{name}.py")
    page = open_notebook(lab_page, lab.url, name, n_code_cells, lab.log)
    run_all(page, name, log=lab.log)
    yield Notebook(name, page, n_code_cells)
    shut_down_kernels(page)
    close_notebook(page)


def page_shot(notebook, step: str) -> Path:
    return notebook.page.shots / f"{notebook.name}_{step}.png"


def panel_of(notebook):
    """The output of the cell that makes the rules panel, and what to change in it; None without a panel."""
    return code_cell(notebook.page, "rules_panel(").locator(".jp-Cell-outputArea"), PANELS[notebook.name]


def test_make_lab_makes_each_ipynb_and_git_stays_clean(lab):
    for name in MADE:
        assert (lab.repo / "notebooks" / f"{name}.ipynb").is_file()
    assert git_status(lab.repo) == ""  # the .ipynb files are ignored


def test_every_cell_runs_and_the_page_shows_no_problem(notebook):
    page = notebook.page
    assert all(re.fullmatch(r"\[\d+\]:", p) for p in prompts(page)), prompts(page)
    assert len(prompts(page)) == notebook.n_code_cells
    assert page_problems(page) == []
    with_widgets = page.locator(f"{CURRENT} .jp-CodeCell").filter(has=page.locator(".jp-OutputArea .jupyter-widgets"))
    known = sum(code_cells_with(page, marker).count() for marker in WIDGET_CELLS)
    assert with_widgets.count() == known, (
        f"{with_widgets.count()} cells show widgets, {known} are cells of WIDGET_CELLS: a new one's controls need "
        "a test here that clicks them")
    if notebook.name in PANELS:
        panel = code_cell(page, "rules_panel(").locator(".jp-Cell-outputArea")
        panel.scroll_into_view_if_needed()
        assert panel.locator("select").count() >= 2  # the preset and at least one rule
        assert panel.locator("input[type=checkbox]").count() >= (1 if PANELS[notebook.name].checkbox else 0)
        assert panel.locator(".noUi-handle").count() >= 1
        image_source(panel)  # the plot is there
    page.screenshot(path=page_shot(notebook, "run"))


def test_panel_dropdown_redraws(notebook):
    panel, case = panel_of(notebook)
    if panel is None:
        return
    label, option = case.dropdown
    old = image_source(panel)
    rule_control(panel, "dropdown", label).locator("select").select_option(label=choice_words(notebook.name, label,
                                                                                              option))
    wait_for_new_image(panel, old, f"JupyterLab: {notebook.name} panel redraw after a dropdown ({label})")
    expect(panel).to_contain_text(status_words(notebook.name, label, option))  # the status names the change


def test_panel_checkbox_redraws(notebook):
    panel, case = panel_of(notebook)
    if panel is None or case.checkbox is None:  # the game has no yes/no rule (panel_case checked)
        return
    old = image_source(panel)
    box = rule_control(panel, "checkbox", case.checkbox).locator("input[type=checkbox]")
    was = box.is_checked()
    box.click()
    what = f"JupyterLab: {notebook.name} panel redraw after a checkbox ({case.checkbox})"
    wait_for_new_image(panel, old, what)
    expect(panel).to_contain_text(status_words(notebook.name, case.checkbox, str(not was).lower()))  # in words


def test_panel_slider_redraws(notebook):
    panel, case = panel_of(notebook)
    if panel is None:
        return
    label, key = case.slider
    old = image_source(panel)
    slider = rule_control(panel, "hslider", label)
    before = int(slider.locator(".widget-readout").text_content())
    slider.locator(".noUi-handle").focus()
    notebook.page.keyboard.press(key)
    wait_for_new_image(panel, old, f"JupyterLab: {notebook.name} panel redraw after a slider ({label})")
    after = int(slider.locator(".widget-readout").text_content())
    assert abs(after - before) == 1
    expect(panel).to_contain_text(status_words(notebook.name, label, str(after)))


def test_panel_bad_value_shows_the_message_and_keeps_the_plot(notebook):
    panel, case = panel_of(notebook)
    if panel is None or case.bad is None:  # no rule takes typed text (panel_case checked)
        return
    selector, text, name = case.bad
    old = image_source(panel)
    box = panel.locator(selector)
    assert box.count() == 1, f"{box.count()} inputs match {selector}"
    if "jupyter-widget-tagsinput" in (box.get_attribute("class") or ""):  # tags: the text box shows once clicked
        box.dispatch_event("click")  # on the box itself: a click on a tag could remove it
        box.locator("input").fill(text)
        # Enter adds no tag in JupyterLab (measured: the typed text stays); leaving the box adds it
        panel.locator(".widget-html").first.click()
    else:
        box.fill(text)
        box.press("Enter")
    message = panel.locator(ERROR_STYLE, has_text=name)
    message.wait_for(timeout=REDRAW_TIMEOUT_MS)
    assert "not allowed" in message.inner_text()
    assert image_source(panel) == old  # the last good plot stays
    message.scroll_into_view_if_needed()
    notebook.page.screenshot(path=page_shot(notebook, "bad_value"))


def test_panel_preset_and_games_redraw(notebook):
    """The panel's preset menu and its games box.  The rules tests above changed the rules, so the menu shows
    no preset, and choosing "standard" (Halali's and Attila's only one) resets the controls, reruns and
    redraws: with the menu left on "standard", choosing it did nothing (issue 49).  A new number of games
    reruns and redraws."""
    panel, _ = panel_of(notebook)
    menu = control(panel, "dropdown", "preset").locator("select")
    assert menu.evaluate("e => e.selectedIndex") == -1, "the rules were changed: the menu shows no preset"
    old = image_source(panel)
    menu.select_option(label="standard")
    used(("Dropdown", "preset"))
    wait_for_new_image(panel, old, f"JupyterLab: {notebook.name} panel redraw after the preset")
    expect(panel).to_contain_text("preset standard")
    assert panel.locator(ERROR_STYLE).count() == 0  # the bad value above is gone with the reset
    games = control(panel, "text", "games").locator("input")
    old = image_source(panel)
    games.fill("150")
    games.press("Enter")
    used(("IntText", "games"))
    wait_for_new_image(panel, old, f"JupyterLab: {notebook.name} panel redraw after the games (150)")
    expect(games).to_have_value("150")
    assert panel.locator(ERROR_STYLE).count() == 0  # a number in range: no message, a new plot


def test_replay_slider_moves_the_board(notebook):
    if notebook.name not in REPLAYS:
        replays = code_cells_with(notebook.page, "widgets.IntSlider(").count()
        assert replays == 0, f"add {notebook.name} to REPLAYS"
        return
    replay = code_cell(notebook.page, "widgets.IntSlider(").locator(".jp-Cell-outputArea")
    replay.scroll_into_view_if_needed()
    slider = control(replay, "hslider", "position")
    before = int(slider.locator(".widget-readout").text_content())
    old = image_source(replay)
    slider.locator(".noUi-handle").focus()
    notebook.page.keyboard.press("ArrowRight")
    used(("IntSlider", "position"))
    old = wait_for_new_image(replay, old, f"JupyterLab: {notebook.name} replay board after one step")
    assert int(slider.locator(".widget-readout").text_content()) == before + 1
    buttons = replay.locator(".widget-play button")  # play, pause, stop, repeat
    buttons.nth(0).click()
    used(("Play", "play"))
    wait_for_new_image(replay, old, f"JupyterLab: {notebook.name} replay board playing")
    expect(slider.locator(".widget-readout")).not_to_have_text(str(before + 1))  # the slider plays along
    buttons.nth(1).click()  # pause: the position stays (a step every 0.8-0.9 s while playing)
    paused = slider.locator(".widget-readout").text_content()
    time.sleep(1.2)
    assert slider.locator(".widget-readout").text_content() == paused
    notebook.page.screenshot(path=page_shot(notebook, "replay"))


def test_viewer_steps_a_seat_plays_and_the_decisions_are_told(notebook):
    """A game notebook's "see a game, play a seat" section (issues 38, 49): the viewer's forward and back buttons
    and its slider's key move it and redraw the picture; "seen by" a seat redraws it as that seat sees it (a game
    with hidden information); "what ... thinks" adds the search's estimates; "jump to" finds the decisions that
    swung the game and shows the one chosen; a click on your first option redraws your seat's picture; and the
    decisions' sentence is there."""
    page = notebook.page
    seen = code_cell(page, 'viewer("').locator(".jp-Cell-outputArea")
    seen.scroll_into_view_if_needed()
    viewer_widget = seen.locator(".toolkit-viewer")
    assert viewer_widget.count() == 1
    readout = viewer_widget.locator(".widget-hslider .widget-readout")
    caption = viewer_widget.locator(".widget-html").last
    old = image_source(seen, WIDGET_IMAGE)
    viewer_widget.get_by_role("button", name="forward ▶").click()
    used(("Button", "forward ▶"))
    old = wait_for_new_image(seen, old, f"JupyterLab: {notebook.name} viewer one step forward", WIDGET_IMAGE)
    assert int(readout.text_content()) == 2  # the slider counts decisions from 1, as the caption does
    expect(caption).to_contain_text("Decision 2:")
    viewer_widget.locator(".widget-hslider .noUi-handle").focus()
    page.keyboard.press("ArrowRight")
    used(("IntSlider", "decision"))
    expect(caption).to_contain_text("Decision 3:", timeout=REDRAW_TIMEOUT_MS)
    viewer_widget.get_by_role("button", name="◀ back").click()
    used(("Button", "◀ back"))
    expect(caption).to_contain_text("Decision 2:", timeout=REDRAW_TIMEOUT_MS)
    if GAMES[notebook.name].hidden_information:
        old = image_source(seen, WIDGET_IMAGE)
        eyes = viewer_widget.locator(".widget-dropdown", has=page.get_by_text("seen by", exact=True)).locator("select")
        eyes.select_option(label="seat 0")
        used(("Dropdown", "seen by"))
        wait_for_new_image(seen, old, f"JupyterLab: {notebook.name} viewer seen by seat 0", WIDGET_IMAGE)
    viewer_widget.get_by_text(re.compile(r"^what mcts:\d+:0:flat thinks$")).click()
    used(("Checkbox", "what mcts:N:0:flat thinks"))
    table = viewer_widget.locator("table")
    for step in range(3, 60):  # on to a decision with a choice (a forced one has nothing to rate)
        if "visits" in table.inner_text():
            break
        viewer_widget.get_by_role("button", name="forward ▶").click()
        expect(caption).to_contain_text(f"Decision {step}:", timeout=REDRAW_TIMEOUT_MS)
    expect(table).to_contain_text("visits", timeout=REDRAW_TIMEOUT_MS)
    jump = viewer_widget.locator(".widget-dropdown", has=page.get_by_text("jump to", exact=True)).locator("select")
    jump.select_option(label="find the decisions that swung the game")
    used(("Dropdown", "jump to"))
    expect(jump.locator("option").first).to_have_text(re.compile(r"^(choose\sone\sof\sthe|none:)"),
                                                      timeout=REDRAW_TIMEOUT_MS)
    entries = jump.locator("option").all_inner_texts()[1:]
    if entries:  # a game nobody won alone has none
        number = int(re.match(r"decision\s(\d+):", entries[-1]).group(1))
        jump.select_option(label=entries[-1])
        expect(caption).to_contain_text(f"Decision {number}:", timeout=REDRAW_TIMEOUT_MS)
    mine = code_cell(page, 'play("').locator(".jp-Cell-outputArea")
    mine.scroll_into_view_if_needed()
    old = image_source(mine, WIDGET_IMAGE)
    mine.locator(".toolkit-play-options button").first.click()
    used(("Button", "toolkit-play-options"))
    wait_for_new_image(mine, old, f"JupyterLab: {notebook.name} your seat after your first click", WIDGET_IMAGE)
    forced = "play my forced moves for me (a decision with one option)"  # on by default (issue 52)
    toggle = mine.get_by_role("checkbox", name=forced)
    expect(toggle).to_be_checked()
    toggle.click()  # off: what it does is checked in tests/viz/test_viewer.py and the dashboard's browser test
    expect(toggle).not_to_be_checked()
    toggle.click()
    expect(toggle).to_be_checked()
    used(("Checkbox", forced))
    told = code_cell(page, "answer(judged)").locator(".jp-Cell-outputArea")
    expect(told).to_contain_text(f"In {GAMES[notebook.name].title}, ")
    assert told.locator("table").count() == 1  # the table under the sentence
    page.screenshot(path=page_shot(notebook, "viewer"))


def test_save_writes_the_outputs_and_leaves_git_clean(notebook, lab):
    ipynb = lab.repo / "notebooks" / f"{notebook.name}.ipynb"
    py = lab.repo / "notebooks" / f"{notebook.name}.py"
    save(notebook.page)
    wait_for_saved_run(ipynb, notebook.n_code_cells)
    wait_for_no_backup(py)
    assert py.stat().st_mtime_ns > lab.py_mtimes[notebook.name]  # jupytext rewrote the paired .py ...
    assert git_status(lab.repo) == ""  # ... with the same text, and the .ipynb is ignored


# ------------------------------------------------------------------ the negative control


def old_setup(folder: Path) -> Path:
    """The setup before: a tracked .ipynb without outputs, and a .py header naming the jupytext version
    that wrote it (here another one than installed, as after an upgrade or on a colleague's machine).

    The notebook is Valhalla's header and its first two cells (the introduction and the imports): what
    goes dirty is the header and the outputs, which the rest of the notebook only makes longer to run
    (a minute or two of CI for a second run of the whole notebook)."""
    (folder / "notebooks").mkdir(parents=True)
    other = "1.16.0" if jupytext.__version__ != "1.16.0" else "1.17.0"
    text = "\n# %%".join((REPO / "notebooks" / "valhalla.py").read_text().split("\n# %%")[:3]).rstrip("\n") + "\n"
    text = text.replace("#     notebook_metadata_filter: -jupytext.text_representation.jupytext_version\n", "")
    version = "#       format_version: '1.3'\n"
    text = text.replace(version, f"{version}#       jupytext_version: {other}\n")
    assert f"jupytext_version: {other}" in text
    (folder / "notebooks" / "valhalla.py").write_text(text)
    subprocess.run([sys.executable, "-m", "jupytext", "--quiet", "--to", "ipynb", "notebooks/valhalla.py"],
                   cwd=folder, check=True)
    ignored = (REPO / ".gitignore").read_text().replace("notebooks/*.ipynb\n", "")  # the .gitignore before
    (folder / ".gitignore").write_text(ignored)
    _git(folder, "init", "-q")
    _git(folder, "add", "-A")
    _git(folder, "commit", "-q", "-m", "the old setup")
    return folder


def test_old_setup_goes_dirty_under_the_same_run_and_save(browser, tmp_path):
    repo = old_setup(tmp_path / "repo")
    port = free_port()
    process = start_server([sys.executable, "-m", "jupyter", "lab", "--allow-root",
                            f"--ServerApp.root_dir={repo / 'notebooks'}"],
                           tmp_path / "server.log", port,
                           env={"JUPYTER_CONFIG_DIR": str(jupyter_config(tmp_path / "jupyter", port)),
                                "TOOLKIT_NOTEBOOK_N": SMALL_N})
    try:
        n_code_cells = code_cell_count(repo / "notebooks" / "valhalla.py")
        page = open_notebook(browser.new_page(viewport={"width": 1400, "height": 1000}), f"http://127.0.0.1:{port}/",
                             "valhalla", n_code_cells, tmp_path / "server.log")
        # the subject here is what git sees after the run and the save, so a dialog is answered (and
        # reported) rather than failing the control
        run_all(page, "valhalla (old setup)", accept_dialogs=True, log=tmp_path / "server.log")
        save(page)
        wait_for_saved_run(repo / "notebooks" / "valhalla.ipynb", n_code_cells)
        shut_down_kernels(page)
        page.close()
    finally:
        stop_server(process)
    assert git_status(repo).splitlines() == [" M notebooks/valhalla.ipynb", " M notebooks/valhalla.py"]

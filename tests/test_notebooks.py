"""The notebooks' sources pair with their ``.ipynb`` byte for byte, and running and saving one leaves git clean.

``notebooks/<name>.py`` (jupytext percent format) is the reviewed source and the
only tracked form.  ``make lab`` makes the git-ignored ``notebooks/<name>.ipynb``
from it; the two are paired (``formats: ipynb,py:percent``), so a save in
JupyterLab writes the outputs to the ``.ipynb`` and rewrites the ``.py``.  That
rewrite must give the same bytes, whatever jupytext version is installed: the
header leaves out ``jupytext_version`` (``notebook_metadata_filter``).  The
browser test ``tests/browser/test_notebooks_lab.py`` does the real
open-run-save in JupyterLab for every game's notebook: it runs every cell at the
test size and fails on an error, a stopped run or anything on stderr, then
clicks its controls and saves.  The overview notebook has no control to click,
so it runs here by nbclient, with the same checks (issue 49).

``SMALL_N`` is the test size: ``TOOLKIT_NOTEBOOK_N``, the one knob every size a
notebook uses follows (games per run, the slower players' games, the searches'
budgets and samples, tuning trials, the decisions' games).  At it every cell
runs its real code on real output; what the numbers say at the full size is
the benchmarks' and ``make golden``'s to check, not this test's.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from toolkit.games import GAMES

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
NAMES = [*GAMES, "overview"]  # one notebook per registered game, and the overview
SMALL_N = "200"
NO_VERSION = "-jupytext.text_representation.jupytext_version"

nbformat = pytest.importorskip("nbformat")
jupytext = pytest.importorskip("jupytext")


@pytest.fixture(autouse=True)
def warm_kernels():
    """Overrides the session fixture of ``conftest.py``: no test here plays a game."""
    yield


def test_every_notebook_is_listed():
    assert sorted(p.stem for p in NOTEBOOKS.glob("*.py")) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_py_header_pairs_the_ipynb_without_a_version(name):
    notebook = jupytext.read(NOTEBOOKS / f"{name}.py")
    settings = notebook.metadata["jupytext"]
    assert settings["formats"] == "ipynb,py:percent"
    assert settings.get("notebook_metadata_filter") == NO_VERSION
    header = (NOTEBOOKS / f"{name}.py").read_text().split("# ---\n")[1]
    assert "jupytext_version:" not in header  # a save by another jupytext version writes the same header


def _as_saved_by_jupyterlab(notebook):
    """``notebook`` after a run and a save in JupyterLab: outputs, execution counts, the kernel's
    ``language_info``, widget state, the cell metadata JupyterLab adds; the ``.ipynb`` on the way."""
    saved = nbformat.from_dict(nbformat.reads(nbformat.writes(notebook), as_version=4))
    saved.metadata["jupytext"].pop("text_representation", None)  # the .ipynb does not keep it
    saved.metadata["language_info"] = {"name": "python", "version": "3.99.0", "file_extension": ".py",
                                       "codemirror_mode": {"name": "ipython", "version": 3}}
    saved.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    count = 0
    for cell in saved.cells:
        cell.metadata.update({"trusted": True, "scrolled": True, "collapsed": False,
                              "execution": {"iopub.status.idle": "2000-01-01T00:00:00Z"}})
        if cell.cell_type == "code":
            count += 1
            cell.execution_count = count
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="output\n"),
                            nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo="})]
    return saved


@pytest.mark.parametrize("name", NAMES)
def test_a_save_rewrites_the_py_byte_for_byte(name, monkeypatch):
    text = (NOTEBOOKS / f"{name}.py").read_text()
    saved = _as_saved_by_jupyterlab(jupytext.reads(text, fmt="py:percent"))
    assert jupytext.writes(saved, fmt="py:percent") == text, (
        f"a save in JupyterLab would change notebooks/{name}.py: run jupytext --sync notebooks/{name}.py")
    # the same under another jupytext version: the header holds none
    monkeypatch.setattr("jupytext.header.__version__", "0.0.0-another")
    assert jupytext.writes(saved, fmt="py:percent") == text


def _git(*args):
    try:
        return subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True)
    except OSError:
        pytest.skip("git is not installed")


def test_only_the_py_sources_are_tracked():
    listed = _git("ls-files", "notebooks")
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    tracked = set(listed.stdout.split())
    assert {f"notebooks/{name}.py" for name in NAMES} <= tracked
    assert not [p for p in tracked if p.endswith(".ipynb")], "git rm --cached the .ipynb files"
    for name in NAMES:  # ignored, so a run and a save in JupyterLab leave `git status` clean
        assert _git("check-ignore", "-q", "--no-index", f"notebooks/{name}.ipynb").returncode == 0


def notebook_problems(notebook) -> list[str]:
    """What a run of ``notebook`` (nbformat, executed) shows that a reader must not see: a code cell that did not
    run, an error, any text on stderr, or a widget (whose controls only a browser test can click)."""
    found = []
    for i, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        if not cell.get("execution_count"):
            found.append(f"cell {i} did not run")
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                found.append(f"cell {i}: {output.ename}: {output.evalue}")
            elif output.output_type == "stream" and output.name == "stderr" and output.text.strip():
                found.append(f"cell {i} wrote to stderr: {output.text.strip()[:300]!r}")
            elif "application/vnd.jupyter.widget-view+json" in output.get("data", {}):
                found.append(f"cell {i} shows a widget: its controls need the JupyterLab test "
                             "(tests/browser/test_notebooks_lab.py)")
    return found


@pytest.mark.slow  # about 20 s: started first (tests/conftest.py)
def test_the_overview_runs_every_cell_with_no_error_stderr_or_widget():
    """The overview notebook at the test size, by nbclient, with the checks the JupyterLab test makes of the
    game notebooks' pages (every cell ran, no traceback, nothing on stderr), in the kernel JupyterLab would
    start (``python3``, in the notebooks' folder)."""
    nbclient = pytest.importorskip("nbclient")
    notebook = jupytext.read(NOTEBOOKS / "overview.py")
    env = {**os.environ, "TOOLKIT_NOTEBOOK_N": SMALL_N}
    client = nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3", allow_errors=True,
                                     resources={"metadata": {"path": str(NOTEBOOKS)}})
    with _environment(env):
        client.execute()
    assert notebook_problems(notebook) == []
    # section 6 (issue 51): the variant saved and read back gives the same rules and the same games
    shown = [o.get("data", {}).get("text/markdown", "") for c in notebook.cells if c.cell_type == "code"
             for o in c.get("outputs", [])]
    games = int(SMALL_N) // 10
    assert any(text.startswith(f"Read back: the same rules (True), the same {games:,} games (True).")
               for text in shown), [t for t in shown if "Read back" in t]


class _environment:
    """``os.environ`` as ``env`` while the block runs (the kernel nbclient starts inherits it)."""

    def __init__(self, env):
        self.env = env

    def __enter__(self):
        self.saved = dict(os.environ)
        os.environ.update(self.env)

    def __exit__(self, *exc):
        os.environ.clear()
        os.environ.update(self.saved)


def test_a_run_with_an_error_stderr_or_a_widget_is_reported():
    """Negative control: each kind of problem ``notebook_problems`` exists for is named."""
    v4 = nbformat.v4
    cells = [v4.new_code_cell("1", execution_count=1),
             v4.new_code_cell("2", execution_count=None),
             v4.new_code_cell("3", execution_count=3, outputs=[v4.new_output("error", ename="ValueError",
                                                                              evalue="bad", traceback=[])]),
             v4.new_code_cell("4", execution_count=4, outputs=[v4.new_output("stream", name="stderr",
                                                                              text="a warning\n")]),
             v4.new_code_cell("5", execution_count=5, outputs=[v4.new_output("stream", name="stderr", text=" \n")]),
             v4.new_code_cell("6", execution_count=6, outputs=[v4.new_output(
                 "display_data", data={"application/vnd.jupyter.widget-view+json": {"model_id": "x"},
                                       "text/plain": "HBox(children=())"})])]
    found = notebook_problems(v4.new_notebook(cells=cells))
    assert [f.split(":")[0] for f in found] == ["cell 1 did not run", "cell 2", "cell 3 wrote to stderr",
                                                "cell 5 shows a widget"]

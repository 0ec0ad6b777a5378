"""The notebooks' sources pair with their ``.ipynb`` byte for byte, and running and saving one leaves git clean.

``notebooks/<name>.py`` (jupytext percent format) is the reviewed source and the
only tracked form.  ``make lab`` makes the git-ignored ``notebooks/<name>.ipynb``
from it; the two are paired (``formats: ipynb,py:percent``), so a save in
JupyterLab writes the outputs to the ``.ipynb`` and rewrites the ``.py``.  That
rewrite must give the same bytes, whatever jupytext version is installed: the
header leaves out ``jupytext_version`` (``notebook_metadata_filter``).  The
browser test ``tests/browser/test_notebooks_lab.py`` does the real
open-run-save in JupyterLab: it runs every cell of every notebook with a small
N and fails on an error, a stopped run or anything on stderr.  (An nbclient run
of the same notebooks here did the same work a second time, about 150 s of CI;
it was dropped in issue 15.)
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from toolkit.games import GAMES

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
NAMES = [*GAMES, "overview"]  # one notebook per registered game, and the overview
SMALL_N = "2000"
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

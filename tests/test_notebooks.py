"""The notebooks run from top to bottom with a small N, and their .py and .ipynb agree.

``notebooks/*.py`` (jupytext percent format) is the reviewed source; the
paired ``.ipynb`` is generated from it and committed without outputs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
NAMES = ["valhalla", "herrlof", "halali", "attila", "walhalla", "overview"]
SMALL_N = "2000"

nbformat = pytest.importorskip("nbformat")
jupytext = pytest.importorskip("jupytext")


def _cells(notebook):
    return [(c.cell_type, c.source.strip()) for c in notebook.cells]


@pytest.mark.parametrize("name", NAMES)
def test_ipynb_and_py_have_the_same_cells(name):
    py = jupytext.read(NOTEBOOKS / f"{name}.py")
    ipynb = jupytext.read(NOTEBOOKS / f"{name}.ipynb")
    assert _cells(py) == _cells(ipynb), f"run: jupytext --sync notebooks/{name}.py"
    assert ipynb.metadata.get("jupytext", {}).get("formats") == "ipynb,py:percent"


@pytest.mark.parametrize("name", NAMES)
def test_ipynb_is_committed_without_outputs(name):
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None


@pytest.mark.notebook
@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs_without_errors(name, monkeypatch, tmp_path):
    nbclient = pytest.importorskip("nbclient")
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    from jupyter_client.manager import KernelManager

    try:
        KernelSpecManager().get_kernel_spec("python3")
    except NoSuchKernel:
        pytest.skip("no python3 kernelspec (python -m ipykernel install --sys-prefix)")
    km = KernelManager(kernel_name="python3")
    # jupyter_client runs a spec starting "python"/"python3" with sys.executable; a spec
    # that names another interpreter is pointed at this one (the venv), which has toolkit.
    if km.kernel_spec.argv[0] not in {"python", f"python{sys.version_info[0]}",
                                      "python%i.%i" % sys.version_info[:2], sys.executable}:
        km.kernel_spec.argv[0] = sys.executable
    monkeypatch.setenv("TOOLKIT_NOTEBOOK_N", SMALL_N)
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    monkeypatch.setenv("NUMBA_CACHE_DIR", os.environ.get("NUMBA_CACHE_DIR", str(NOTEBOOKS.parent / ".numba_cache")))
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    client = nbclient.NotebookClient(notebook, km=km, timeout=300,
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError on the first failing cell
    for cell in notebook.cells:
        if cell.cell_type == "code":
            errors = [o for o in cell.outputs if o.output_type == "error"]
            assert not errors, f"{name}: {errors[0].ename}: {errors[0].evalue}"

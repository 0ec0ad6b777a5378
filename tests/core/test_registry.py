"""A game loads when it is used (issue 53, point 2): registering imports nothing, ``import toolkit`` imports
no game and no kernel, and a game folder that fails to import breaks only its own commands, which say why;
``toolkit list`` and ``toolkit check`` name it with its error."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import toolkit
from toolkit.cli import main
from toolkit.core.game import GameUnavailable
from toolkit.core.registry import GAMES


def test_import_toolkit_imports_no_game():
    code = "import sys, toolkit; print(sorted(m for m in sys.modules if m.startswith('toolkit.games.')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
    assert list(toolkit.GAMES)[:1] == ["valhalla"] and "pig" in toolkit.GAMES  # all registered, by name


@pytest.fixture
def broken(tmp_path, monkeypatch):
    """A copy of the tutorial game registered as ``brokenpig``, whose kernel names a layout constant that is
    not there (a contributor's slip): its declaration loads, its kernel does not."""
    import shutil
    from pathlib import Path

    package = tmp_path / "brokenpig"
    shutil.copytree(Path(toolkit.__file__).parent / "games" / "pig", package,
                    ignore=shutil.ignore_patterns("__pycache__"))
    for path in package.glob("*.py"):
        path.write_text(path.read_text().replace("toolkit.games.pig", "brokenpig").replace('"pig"', '"brokenpig"'))
    kernel = package / "kernel.py"
    kernel.write_text(kernel.read_text().replace("ACTION_BOUND, COLUMNS,", "ACTION_BOUND, COLUMNS, NO_SUCH_NAME,"))
    init = package / "__init__.py"
    init.write_text(init.read_text() + '\nSPEC = dataclasses.replace(SPEC, package="brokenpig", tutorial=False)\n'
                    .replace("\nSPEC", "\nimport dataclasses\n\nSPEC", 1))
    monkeypatch.syspath_prepend(str(tmp_path))
    GAMES.register("brokenpig", "brokenpig")
    yield "brokenpig"
    GAMES.unregister("brokenpig")
    for name in [m for m in sys.modules if m == "brokenpig" or m.startswith("brokenpig.")]:
        del sys.modules[name]


def test_a_broken_game_breaks_only_its_own_commands(broken, capsys):
    spec = GAMES[broken]  # the declaration loads
    assert spec.title == "Brokenpig"
    with pytest.raises(GameUnavailable, match="brokenpig.kernel raised ImportError: cannot import name 'NO_SUCH_NAME'"):
        spec.kernel
    assert main(["simulate", broken, "-n", "10"]) == 1
    assert "game 'brokenpig' cannot be loaded: brokenpig.kernel raised ImportError" in capsys.readouterr().err
    assert main(["simulate", "pig", "-n", "10", "--no-progress"]) == 0  # the other games work
    capsys.readouterr()
    assert main(["list"]) == 1
    out, err = capsys.readouterr()
    assert "pig" in out and "brokenpig" not in out.replace("brokenpig.kernel", "")
    assert "game 'brokenpig' cannot be loaded: brokenpig.kernel raised ImportError" in err
    assert main(["check", broken]) == 1
    assert "brokenpig.kernel cannot be imported: ImportError" in capsys.readouterr().out


def test_a_game_whose_declaration_fails_is_named(tmp_path, monkeypatch, capsys):
    (tmp_path / "nodeclaration").mkdir()
    (tmp_path / "nodeclaration" / "__init__.py").write_text(textwrap.dedent("""
        from toolkit.core.game import GameSpec
        SPEC = GameSpec(name="nodeclaration", description="x", default_policies=None, seats=None, results=("draw",))
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    GAMES.register("nodeclaration", "nodeclaration")
    try:
        with pytest.raises(GameUnavailable, match='results=\\(\'draw\',\\) is not allowed: "win" first'):
            GAMES["nodeclaration"]
        with pytest.warns(UserWarning, match="nodeclaration"):
            assert "nodeclaration" not in [spec.name for spec in GAMES.values()]
        assert main(["check", "nodeclaration"]) == 1
        assert "game 'nodeclaration' cannot be loaded" in capsys.readouterr().out
    finally:
        GAMES.unregister("nodeclaration")


def test_the_report_of_every_game_leaves_a_broken_one_out(broken, monkeypatch, capsys):
    """``toolkit report`` with no game named plays every game that loads, and says which it left out (stopped
    by a bad game count, refused once the games are known, before any is played)."""
    from toolkit import report

    asked = []
    monkeypatch.setattr(report, "get_spec", lambda name: asked.append(name) or GAMES[name])
    with pytest.raises(ValueError, match="n_games=0 is not allowed"):
        report.report(n_games=0)
    assert asked == [name for name in GAMES if name != broken] and "pig" in asked
    assert f"report: game '{broken}' cannot be loaded" in capsys.readouterr().err

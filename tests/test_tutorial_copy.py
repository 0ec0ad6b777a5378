"""The guide holds (issue 37, point 2): a copy of the tutorial game under another name, added as
``docs/adding-a-game.md`` says, works everywhere with no other file of the repository edited by hand.

A scratch copy of the repository (its tracked and new files, committed in a git repository of its own) gets
a game ``hog``: Pig's folder, its tests folder, its spec and its notebook copied under the new name (rule
numbers ``P-`` become ``G-``), less Pig's optional ``presentation`` (so the defaults are what a new game
gets), one line in the registry, and its golden playthroughs written by the recorder.  In the copy, with a
cache of its own (so the new game compiles from nothing):

- ``toolkit check hog`` finds nothing missing, and the recorder wrote hog's playthroughs as Pig's, renamed;
- the conformance suite, the golden playthroughs, the OpenSpiel bridge's tests, the rule checks, the game's
  own tests (its scenario tests, copied), the notebook pairing and the documentation checks pass on it;
- the CLI plays it (``simulate``, ``compare``, ``odds``, ``ladder``, ``tune``, ``report --html``), each
  result read back for its values;
- the overview notebook runs with it alone (``TOOLKIT_NOTEBOOK_GAMES=hog``);
- ``git status`` lists only the game's own places.

The negative controls: a guide step left out (a kernel name, a file of the tests folder, the registry
line) is reported by ``toolkit check`` by name, and a shared file edited shows in the places check.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from test_notebooks import SMALL_N  # the notebooks' test size

REPO = Path(__file__).resolve().parents[1]
SOURCE, NAME, LETTER = "pig", "hog", "G"  # the tutorial game, its copy's name and rule letter
# the places a new game owns (docs/adding-a-game.md), and the registry, which gains one line
OWN = (f"toolkit/games/{NAME}/", f"tests/games/{NAME}/", f"docs/rules/{NAME}.md", f"notebooks/{NAME}.py",
       f"tests/golden/{NAME}/", "tests/golden/digests.json")
REGISTRY = "toolkit/games/__init__.py"

pytestmark = pytest.mark.slow


def renamed(text: str) -> str:
    """Pig's text as the copy's: the name, the rule numbers (``P-3.2`` -> ``G-3.2``, not ``DP-1``) and the
    rule numbers in test names (``test_p3_2_`` -> ``test_g3_2_``)."""
    text = re.sub(r"(?<![A-Za-z])P-(\d)", rf"{LETTER}-\1", text)
    text = re.sub(r"\btest_p(\d)", rf"test_{LETTER.lower()}\1", text)
    return text.replace(SOURCE, NAME).replace(SOURCE.title(), NAME.title())


def git(root: Path, *args) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout


def scratch_repository(root: Path) -> Path:
    """The repository's tracked and new files (not the ignored ones) in ``root``, committed there."""
    files = git(REPO, "ls-files", "-co", "--exclude-standard", "-z").split("\0")
    for name in filter(None, files):
        if (REPO / name).is_file():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, root / name)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "scratch")
    return root


def add_game(root: Path, register: bool = True) -> None:
    """Pig's places copied under the new name (the guide's steps 1-8 and 10), without its presentation, and the
    registry line (step 9)."""
    for folder in (f"toolkit/games/{SOURCE}", f"tests/games/{SOURCE}"):
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                target = root / renamed(path.relative_to(root).as_posix())
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(renamed(path.read_text(encoding="utf-8")), encoding="utf-8")
    for name in (f"docs/rules/{SOURCE}.md", f"notebooks/{SOURCE}.py"):
        (root / renamed(name)).write_text(renamed((root / name).read_text(encoding="utf-8")), encoding="utf-8")
    declaration = root / f"toolkit/games/{NAME}/__init__.py"
    text, removed = re.subn(r"\n    presentation=Presentation\(\n.*?\n    \),", "", declaration.read_text(encoding="utf-8"),
                            flags=re.DOTALL)
    assert removed == 1, "Pig's SPEC has one presentation=Presentation(...) block"
    declaration.write_text(text, encoding="utf-8")
    if register:
        registry = root / REGISTRY
        text = registry.read_text(encoding="utf-8")
        registry.write_text(text.replace(f'    "{SOURCE}",\n', f'    "{SOURCE}",\n    "{NAME}",\n'), encoding="utf-8")


def environment(root: Path, cache: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "TOOLKIT_CACHE_DIR", "PYTHONPATH")}
    env.update(PYTHONPATH=str(root), TOOLKIT_CACHE_DIR=str(cache), TOOLKIT_TEST_THREADS="1")
    return env


def run(root: Path, env: dict, *argv, timeout: int = 900) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *argv], cwd=root, env=env, capture_output=True, text=True,
                          timeout=timeout)


def foreign_changes(root: Path) -> list[str]:
    """What ``git status`` lists outside the game's own places, a registry change other than one added line
    naming the game, and a digest other than the game's own changed."""
    changed = [line[3:].strip('"') for line in git(root, "status", "--porcelain", "-uall").splitlines()]
    found = [path for path in changed if path != REGISTRY and not path.startswith(OWN)]
    if REGISTRY in changed:
        diff = [line for line in git(root, "diff", "-U0", REGISTRY).splitlines()
                if line[:1] in "+-" and not line.startswith(("+++", "---"))]
        if diff != [f'+    "{NAME}",']:
            found.append(f"{REGISTRY}: {diff}")
    if "tests/golden/digests.json" in changed:
        before = json.loads(git(root, "show", "HEAD:tests/golden/digests.json"))
        after = json.loads((root / "tests/golden/digests.json").read_text())
        found += [f"digest {key}" for key in sorted(set(before) | set(after))
                  if before.get(key) != after.get(key) and not key.startswith(f"{NAME}/")]
    return found


CLI = """
import json, sys
from pathlib import Path

import toolkit
from toolkit.cli import main

out = Path(sys.argv[1])
assert Path(toolkit.__file__).resolve().parents[1] == Path.cwd().resolve(), toolkit.__file__
codes = {
    "check": main(["check", "NAME"]),
    "simulate": main(["simulate", "NAME", "-n", "400", "--seed", "3", "--no-progress", "-o", str(out / "games.csv")]),
    "simulate pig": main(["simulate", "pig", "-n", "400", "--seed", "3", "--no-progress", "-o", str(out / "pig.csv")]),
    "compare": main(["compare", "NAME", "--policies", "random,greedy", "-n", "300", "--no-progress",
                     "-o", str(out / "compare.csv")]),
    "odds": main(["odds", "NAME"]),
    "ladder": main(["ladder", "NAME", "--policies", "random,greedy,mcts:30", "-n", "30", "--no-progress",
                    "-o", str(out / "ladder.csv")]),
    "tune": main(["tune", "NAME", "--target", "first_player_win_rate=0.5", "--vary", "second_player_bonus=0..20",
                  "--trials", "3", "-n", "400", "--policies", "greedy", "--no-progress", "-o", str(out / "best.json")]),
    "report": main(["report", "NAME", "-n", "300", "--out", str(out / "report"), "--html", str(out / "html"),
                    "--no-progress"]),
}
(out / "codes.json").write_text(json.dumps(codes))
""".replace("NAME", NAME)


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """The scratch repository with the copied game, its golden files recorded, and its environment."""
    root = scratch_repository(tmp_path_factory.mktemp("repo"))
    add_game(root)
    env = environment(root, tmp_path_factory.mktemp("cache"))
    done = run(root, env, "tests/golden/golden_record.py", "--only", NAME)
    assert done.returncode == 0, done.stdout + done.stderr
    return root, env


def test_the_copy_supplies_everything_and_touches_only_its_places(copy):
    root, env = copy
    done = run(root, env, "-m", "toolkit.cli", "check", NAME)
    assert done.returncode == 0 and "everything a game supplies is there" in done.stdout, done.stdout + done.stderr
    assert foreign_changes(root) == []
    traces = sorted((root / f"tests/golden/{SOURCE}").glob("*.txt"))
    assert len(traces) == 6  # 2 presets x 3 line-ups
    for trace in traces:  # the same games: hog is Pig renamed (its rule letters appear in no trace)
        assert (root / f"tests/golden/{NAME}" / trace.name).read_text() == renamed(trace.read_text()), trace.name
    digests = json.loads((root / "tests/golden/digests.json").read_text())
    pig_keys = [key for key in digests if key.startswith(f"{SOURCE}/")]
    assert pig_keys and all(digests[key.replace(SOURCE, NAME, 1)] == digests[key] for key in pig_keys)


def test_the_suite_passes_on_the_copy(copy):
    root, env = copy
    paths = ["tests/conformance", f"tests/games/{NAME}", "tests/golden", "tests/core/test_openspiel.py",
             "tests/core/test_applies.py", "tests/test_notebooks.py"]
    done = run(root, env, "-m", "pytest", *paths, "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-x",
               "-k", NAME, timeout=1500)
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-3000:]
    passed = int(re.search(r"(\d+) passed", done.stdout)[1])
    assert passed >= 60, done.stdout[-2000:]  # the copy's cases ran, not an empty selection
    done = run(root, env, "-m", "pytest", "tests/test_docs.py", "tests/test_layers.py", "-q", "-p", "no:cacheprovider",
               "-p", "no:xdist")
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-3000:]


def test_the_cli_and_the_report_play_the_copy(copy, tmp_path):
    root, env = copy
    (tmp_path / "cli.py").write_text(CLI)
    done = run(root, env, str(tmp_path / "cli.py"), str(tmp_path))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert json.loads((tmp_path / "codes.json").read_text()) == dict.fromkeys(
        ("check", "simulate", "simulate pig", "compare", "odds", "ladder", "tune", "report"), 0)
    games = pd.read_csv(tmp_path / "games.csv")
    assert len(games) == 400 and ((games["win_0"] + games["win_1"]) == 1).all()
    winner_scores = games["score_0"].where(games["winner"] == 0, games["score_1"])
    assert (winner_scores >= 100).all()  # P-5.1 (the standard target), in the copy's games
    pig = pd.read_csv(tmp_path / "pig.csv")  # the same seed's games of the game it was copied from
    pd.testing.assert_frame_equal(games, pig)
    compare = pd.read_csv(tmp_path / "compare.csv")
    assert set(compare["seat0_policy"]) == {"random", "greedy"} and (compare["games"] == 300).all()
    assert "P(a roll busts)" in done.stdout and "1/6" in done.stdout  # toolkit odds hog
    assert set(pd.read_csv(tmp_path / "ladder.csv")["policy"]) >= {"random", "greedy", "mcts:30"}
    assert 0 <= json.loads((tmp_path / "best.json").read_text())["rules"]["second_player_bonus"] <= 20
    page = (tmp_path / "html" / f"{NAME}.html").read_text(encoding="utf-8")
    assert f"{NAME.title()} declares no tuning question" in page  # the default presentation, on the page


def test_the_overview_notebook_runs_with_the_copy(copy):
    root, env = copy
    script = ("import jupytext, nbclient\n"
              "notebook = jupytext.read('notebooks/overview.py')\n"
              "nbclient.NotebookClient(notebook, timeout=600, kernel_name='python3').execute()\n"
              "print(sum(len(c.get('outputs', [])) for c in notebook.cells))\n")
    env = dict(env, TOOLKIT_NOTEBOOK_GAMES=NAME, TOOLKIT_NOTEBOOK_N=SMALL_N)
    done = run(root, env, "-c", script, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    assert int(done.stdout.split()[-1]) > 10


def test_a_missing_step_is_named(tmp_path):
    """Negative controls: each left-out step of the guide is reported by name (no compile: nothing runs)."""
    root = scratch_repository(tmp_path / "repo")
    add_game(root, register=False)
    env = environment(root, tmp_path / "cache")
    check = [sys.executable, "-m", "toolkit.cli", "check", NAME]
    done = subprocess.run(check, cwd=root, env=env, capture_output=True, text=True)
    assert done.returncode != 0 and f"game '{NAME}' is not registered" in done.stderr
    add_game(root)
    kernel = root / f"toolkit/games/{NAME}/kernel.py"
    kernel.write_text(kernel.read_text().replace("finish_kernel(globals())", ""))
    (root / f"tests/games/{NAME}/notebook_panel.json").unlink()
    done = subprocess.run(check, cwd=root, env=env, capture_output=True, text=True)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"toolkit.games.{NAME}.kernel does not define play_many" in done.stdout
    layout = root / f"toolkit/games/{NAME}/layout.py"
    layout.write_text(layout.read_text().replace("ACTION_BOUND = 2", "BOUND = 2"))
    done = subprocess.run(check, cwd=root, env=env, capture_output=True, text=True)
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"toolkit.games.{NAME}.layout does not define ACTION_BOUND" in done.stdout
    assert f"toolkit.games.{NAME}.kernel cannot be imported: ImportError: cannot import name 'ACTION_BOUND'" in done.stdout
    assert f"no tests/games/{NAME}/notebook_panel.json" in done.stdout
    assert foreign_changes(root) == []  # a removed file of its own is still its own place
    (root / "README.md").write_text("edited\n")
    assert foreign_changes(root) == ["README.md"]
    digests = root / "tests/golden/digests.json"
    entries = json.loads(digests.read_text())
    entries[f"{SOURCE}/standard-random"]["quick"]["games"] += 1  # another game's digest rewritten
    digests.write_text(json.dumps(entries))
    assert foreign_changes(root) == ["README.md", f"digest {SOURCE}/standard-random"]

"""The documents the simulators follow are inside the repository, and the code cites them correctly.

- Nothing in the repository refers to a file outside it: no text file names the shared folder beside
  the checkout or an absolute checkout path, no relative path climbs above the repository root, and
  every relative Markdown link or image resolves to a file in the repository.
- Each game has its spec in ``docs/rules/<game>.md``, and every rule number (``V-6.3``, ``R-3.3.1``,
  ``V-6.4c``) and section (``§7.10``) that the code and tests cite, in text or in a test name
  (``test_v6_3_...``, ``test_s7_10_...``), exists in that game's spec.
- ``docs/README.md`` indexes every file in ``docs/``.

Text only, but for the guide's checks against the declarations (``toolkit.core.game``, ``toolkit.core.checklist``):
nothing here compiles a kernel.
"""

from __future__ import annotations

import ast
import functools
import importlib
import json
import os
import re
import subprocess
import urllib.parse
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
RULES = DOCS / "rules"
SEEDS = DOCS / "seeds"



def registered_games(path: Path = REPO / "toolkit" / "games" / "__init__.py") -> list[str]:
    """The games of the registry (its literal ``REGISTERED = (...)``), read from its source: this module
    imports nothing of ``toolkit``."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == ["REGISTERED"]:
            return list(ast.literal_eval(node.value))
    raise AssertionError(f"{path}: no REGISTERED = (...) literal")


def game_specs() -> set[Path]:
    """``docs/rules/<game>.md`` of every registered game: the indexes may list them (they do), but a new
    game need not edit them; its spec is checked from the registry instead."""
    return {(RULES / f"{game}.md").resolve() for game in registered_games()}

# Written in two pieces so that this file does not match itself.
OUTSIDE = (".." + "/shared", "/" + "work/")
WALK_SKIP = {".git", ".venv", ".numba_cache", "__pycache__", ".pytest_cache", ".hypothesis",
             ".ipynb_checkpoints", "build"}


@pytest.fixture(autouse=True)
def warm_kernels():
    """Overrides the session fixture of ``conftest.py``: these tests read text and need no kernel."""
    yield


# ---------------------------------------------------------------------------------------------------
# The files
# ---------------------------------------------------------------------------------------------------

def _walk(root: Path) -> list[Path]:
    found = []
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = [d for d in dirs if d not in WALK_SKIP and not d.endswith(".egg-info")
                   and (here / d).relative_to(root).as_posix() != "data/results"]
        found += [here / f for f in files]
    return found


def repo_files(root: Path = REPO) -> list[Path]:
    """The tracked files and the new ones git does not ignore, or every file outside the generated folders
    without git.

    The files under ``docs/`` are always included, so a new document is checked before it is added.
    """
    try:  # tracked, and new files git does not ignore (a game being added is checked before it is committed)
        out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=root, capture_output=True,
                             check=True).stdout
        paths = {root / p for p in out.decode().split("\0") if p}
    except (OSError, subprocess.CalledProcessError):
        paths = set(_walk(root))
    if (root / "docs").is_dir():
        paths |= {p for p in (root / "docs").rglob("*")}
    return sorted(p for p in paths if p.is_file())


def read_text(path: Path) -> str | None:
    """The file's text, or None for a binary file (a PNG, a non-UTF-8 file)."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def text_files(root: Path = REPO) -> dict[Path, str]:
    return {p: t for p in repo_files(root) if (t := read_text(p)) is not None}


# ---------------------------------------------------------------------------------------------------
# (a) nothing refers outside the repository
# ---------------------------------------------------------------------------------------------------

CLIMB = re.compile(r"(?<![\w.])((?:\.\./)+)")
LINK = re.compile(r"!?\[[^\]\n]*\]\(\s*<?([^()\s<>]+)>?(?:\s+[\"'][^\"'\n]*[\"'])?\s*\)")
LINK_DEF = re.compile(r"^ {0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def outside_references(path: Path, text: str, root: Path = REPO) -> list[str]:
    """Every place in ``text`` (the file ``path``) that refers outside ``root``, as ``file:line: what``."""
    found = []
    rel = path.relative_to(root).as_posix() if _inside(path, root) else str(path)
    for number, line in enumerate(text.splitlines(), 1):
        for needle in OUTSIDE:
            if needle in line:
                found.append(f"{rel}:{number}: {needle!r} in {line.strip()[:100]!r}")
        for m in CLIMB.finditer(line):
            target = path.parent.joinpath(*[".."] * m.group(1).count("../"))
            if not _inside(target, root):
                found.append(f"{rel}:{number}: {m.group(1)!r} climbs above the repository")
    return found


def markdown_targets(text: str) -> list[str]:
    """The targets of the Markdown links and images in ``text`` (inline and reference definitions)."""
    return LINK.findall(text) + LINK_DEF.findall(text)


def broken_links(path: Path, text: str, root: Path = REPO) -> list[str]:
    """The relative link targets of the Markdown file ``path`` that are not files or folders in ``root``."""
    broken = []
    for target in markdown_targets(text):
        if SCHEME.match(target) or target.startswith("#"):
            continue  # a URL, mailto:, or an anchor in the same page
        local = urllib.parse.unquote(target.split("#", 1)[0].split("?", 1)[0])
        resolved = (root / local.lstrip("/")) if local.startswith("/") else (path.parent / local)
        if not (_inside(resolved, root) and resolved.exists()):
            broken.append(f"{path.relative_to(root).as_posix()}: ({target})")
    return broken


def test_no_reference_outside_the_repository():
    found = [hit for path, text in text_files().items() for hit in outside_references(path, text)]
    assert not found, "references outside the repository:\n" + "\n".join(found)


def markdown_files(root: Path = REPO) -> list[Path]:
    return [p for p in repo_files(root) if p.suffix == ".md"]


def test_markdown_links_resolve():
    files = markdown_files()
    assert REPO / "README.md" in files and DOCS / "README.md" in files
    broken = [b for p in files for b in broken_links(p, p.read_text(encoding="utf-8"))]
    assert not broken, "broken relative links:\n" + "\n".join(broken)
    readme_targets = markdown_targets((REPO / "README.md").read_text(encoding="utf-8"))
    assert "docs/architecture.md" in readme_targets and "docs/rules/" in readme_targets


def test_files_the_specs_name_are_here():
    """The seed summaries the specs cite are in docs/seeds, and the files rules/README lists are in docs/rules."""
    seed_name = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")
    for spec in sorted(RULES.glob("*.md")):
        for name in seed_name.findall(spec.read_text(encoding="utf-8")):
            assert (SEEDS / name).is_file(), f"{spec.name} cites seed {name}, missing from docs/seeds"
    index = (RULES / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"`([\w-]+\.(?:md|json))`", index))
    assert {f"{registered_games()[0]}.md", "attila_map.json"} <= listed  # the index is read (positive control)
    for name in sorted(listed):
        assert (RULES / name).is_file(), f"rules/README.md lists {name}, missing from docs/rules"
    unlisted = sorted(p.name for p in RULES.iterdir() if p.is_file() and p.name != "README.md"
                      and p.name not in listed and p.resolve() not in game_specs())
    assert not unlisted, f"docs/rules holds files that are neither listed in its README nor a game's spec: {unlisted}"
    assert "next to this file" in (RULES / "attila.md").read_text(encoding="utf-8")


def test_the_packaged_attila_map_is_the_specs_map():
    spec_map = json.loads((RULES / "attila_map.json").read_text(encoding="utf-8"))
    packaged = REPO / "toolkit/games/attila/data/attila_map.json"
    assert json.loads(packaged.read_text(encoding="utf-8")) == spec_map


def test_negative_controls_for_outside_references(tmp_path):
    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "page.md"
    up = ".." + "/"  # not written out, so that this file does not climb itself
    text = (f"See {OUTSIDE[0]}/rules/x.md, {OUTSIDE[1]}main, `{up}{up}up.txt`, `{up}seeds/`.\n"
            f"[gone](missing.md) [ok](page.md) [web](https://example.org/x) [top](#top) ![img]({up}nope.png)\n")
    page.write_text(text, encoding="utf-8")
    (tmp_path / "seeds").mkdir()
    hits = outside_references(page, text, root=tmp_path)
    assert len(hits) == 3, hits  # the shared folder, the absolute path, two levels up (not one, to seeds/)
    assert f"{up}{up}" in hits[2]
    broken = broken_links(page, text, root=tmp_path)
    assert broken == ["docs/page.md: (missing.md)", f"docs/page.md: ({up}nope.png)"]


# ---------------------------------------------------------------------------------------------------
# (b) every cited rule number exists in its game's spec
# ---------------------------------------------------------------------------------------------------

SECTION = re.compile(r"^## (\d+)\.\s")            # ## 7. Invariants            -> §7
SUBSECTION = re.compile(r"^### (\d+)\.(\d+)\s")   # ### 9.2 Parameter table    -> §9.2
RULE_BLOCK = re.compile(r"^\*\*([A-Z])-(\d+)\b")  # **V-6 Special squares**   -> V-6
ITEM = re.compile(r"^( *)(\d+)\.\s")              # 3. ... under V-6            -> V-6.3
LETTER_ITEM = re.compile(r"^( *)[-*] \(([a-z])\)\s")  # - (c) ... under V-6.4   -> V-6.4c


def defined_ids(spec: str) -> set[str]:
    """The rule numbers and sections a spec defines.

    A ``## N.`` heading defines §N and a ``### N.M`` heading §N.M.  A ``**X-N ...**`` line starts rule
    block X-N.  A numbered list item is numbered under the block or section it stands in (item 3 under
    **V-6** is V-6.3, item 10 under ``## 7.`` is §7.10); an indented numbered list nests one level
    (R-3.3.1), and a lettered bullet ``- (c)`` adds its letter (V-6.4c).  Item numbers are the ones
    written in the file.  An unindented line that is not a list item ends the list.
    """
    ids: set[str] = set()
    base = None
    stack: list[tuple[int, str]] = []  # (indent, number) of the open numbered items
    for line in spec.splitlines():
        if m := SECTION.match(line):
            base, stack = f"§{m[1]}", []
            ids.add(base)
        elif m := SUBSECTION.match(line):
            base, stack = f"§{m[1]}.{m[2]}", []
            ids.add(base)
        elif line.startswith("#"):
            stack = []
        elif m := RULE_BLOCK.match(line):
            base, stack = f"{m[1]}-{m[2]}", []
            ids.add(base)
        elif base and (m := ITEM.match(line)):
            indent = len(m[1])
            while stack and stack[-1][0] >= indent:
                stack.pop()
            stack.append((indent, m[2]))
            ids.add(base + "." + ".".join(n for _, n in stack))
        elif base and (m := LETTER_ITEM.match(line)):
            indent = len(m[1])
            while stack and stack[-1][0] >= indent:
                stack.pop()
            if stack:
                ids.add(base + "." + ".".join(n for _, n in stack) + m[2])
        elif line.strip() and not line[0].isspace():
            stack = []
    return ids


def rule_block_prefixes(spec: str) -> set[str]:
    return {m[1] for line in spec.splitlines() if (m := RULE_BLOCK.match(line))}


def prefix_of(spec: str) -> str:
    """The one prefix letter of a spec's numbered rules (its §4 rule blocks, **V-1 ...**)."""
    prefixes = rule_block_prefixes(spec)
    assert len(prefixes) == 1, f"rule blocks with prefixes {sorted(prefixes)}: a spec has one letter"
    return prefixes.pop()


# game -> the prefix letter of its numbered rules, for every registered game (its spec: docs/rules/<game>.md)
GAMES = {game: prefix_of((RULES / f"{game}.md").read_text(encoding="utf-8")) for game in registered_games()}
PREFIX_GAME = {prefix: game for game, prefix in GAMES.items()}
LETTERS = "".join(sorted(PREFIX_GAME))

NUM = r"\d+(?:\.\d+)*"
# V-6.3, V-6.4c, W-4.1-3 (a range: W-4.1 and W-4.3); not DP-1 (a decision point)
RULE_CITE = re.compile(rf"(?<![\w-])([{LETTERS}])-({NUM})([a-z])?(?:[-–]({NUM}))?(?![\w-])")
# §7.10, § 5, §7.1-7.8 and §7.1-6 (ranges: both ends)
SECTION_CITE = re.compile(rf"§ ?({NUM})(?:[-–]({NUM}))?")
TEST_DEF = re.compile(r"\bdef (test_\w+)")
TEST_PART = re.compile(rf"([{LETTERS.lower()}s])(\d+(?:_\d+)*)([a-z])?(?=_|$)")
SPEC_NAME = re.compile(rf"\b({'|'.join(GAMES)})\.md\b")


def _range_end(start: str, end: str) -> str:
    """The full number of a range's end: ``7.1-6`` ends at 7.6, ``7.1-7.8`` at 7.8."""
    first, last = start.split("."), end.split(".")
    return ".".join(first[: max(len(first) - len(last), 0)] + last)


def rule_ids_of_test_name(name: str) -> list[str]:
    """The rule numbers a test name carries: ``test_v6_4b_x`` -> V-6.4b, ``test_s7_10_x`` -> §7.10,
    ``test_w2_4_w4_3_x`` -> W-2.4 and W-4.3; the first word that is no number ends them."""
    ids, rest = [], name.removeprefix("test_")
    while m := TEST_PART.match(rest):
        letter, number = m[1], m[2].replace("_", ".") + (m[3] or "")
        ids.append(f"§{number}" if letter == "s" else f"{letter.upper()}-{number}")
        rest = rest[m.end():].lstrip("_")
    return ids


def _path_games(rel: str) -> list[str]:
    return [game for game in GAMES if game in rel]


def cited_ids(files: dict[str, str]) -> dict[str, dict[str, list[str]]]:
    """game -> rule number or section -> where it is cited (``file:line``), over ``{path: text}``.

    A rule number belongs to the game of its prefix letter.  A section (``§``) belongs to the game
    whose spec (``<game>.md``) the same line names, else to the one game the file's path names
    (``toolkit/games/halali/``, ``tests/test_report_walhalla.py``), else to every game (a generic
    module citing §5, §6 or §7 means it of each spec).
    """
    cited: dict[str, dict[str, list[str]]] = {game: {} for game in GAMES}

    def add(game, rule, where):
        cited[game].setdefault(rule, []).append(where)

    for rel, text in files.items():
        path_games = _path_games(rel)
        for number, line in enumerate(text.splitlines(), 1):
            where = f"{rel}:{number}"
            named = SPEC_NAME.findall(line)
            section_games = named or (path_games if len(path_games) == 1 else list(GAMES))
            for m in RULE_CITE.finditer(line):
                game = PREFIX_GAME[m[1]]
                add(game, f"{m[1]}-{m[2]}{m[3] or ''}", where)
                if m[4]:
                    add(game, f"{m[1]}-{_range_end(m[2], m[4])}", where)
            for m in SECTION_CITE.finditer(line):
                for game in section_games:
                    add(game, f"§{m[1]}", where)
                    if m[2]:
                        add(game, f"§{_range_end(m[1], m[2])}", where)
            for m in TEST_DEF.finditer(line):
                for rule in rule_ids_of_test_name(m[1]):
                    if rule.startswith("§"):
                        for game in (path_games if len(path_games) == 1 else GAMES):
                            add(game, rule, f"{where} {m[1]}")
                    else:
                        add(PREFIX_GAME[rule[0]], rule, f"{where} {m[1]}")
    return cited


def missing_ids(cited: dict[str, list[str]], defined: set[str]) -> dict[str, list[str]]:
    """The cited rule numbers that ``defined`` lacks, each with where it is cited."""
    return {rule: where for rule, where in sorted(cited.items()) if rule not in defined}


def code_files(root: Path = REPO) -> dict[str, str]:
    """The code and tests that cite the specs: every tracked Python file (package, tests, notebooks'
    jupytext sources, benchmarks) but this one, whose citations are examples, as ``{relative path: text}``."""
    this = Path(__file__).resolve()
    return {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
            for p in repo_files(root) if p.suffix == ".py" and p.resolve() != this}


def spec_text(game: str) -> str:
    return (RULES / f"{game}.md").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=None)
def code_citations() -> dict[str, dict[str, list[str]]]:
    return cited_ids(code_files())


@pytest.fixture
def cited():
    return code_citations()


def test_each_game_has_its_spec_with_its_own_prefix():
    """Every game folder is registered, each with its spec and a prefix letter of its own (``s`` is taken by
    sections in test names)."""
    folders = {p.name for p in (REPO / "toolkit" / "games").iterdir() if (p / "__init__.py").is_file()}
    assert set(registered_games()) == folders and len(folders) >= 2
    assert len(set(GAMES.values())) == len(GAMES) and "S" not in GAMES.values(), GAMES


def uncited_rules(game: str, cited: dict, spec: str) -> list[str]:
    """The rule blocks (``V-6``) of a spec that the code and tests never cite, by the block or an item of it:
    every rule has a scenario test, so each block is cited at least once (a test name or a docstring).
    Sections are not asked for: a generic module citing §5-§7 cites them of every spec."""
    defined = defined_ids(spec)
    wanted = {rule for rule in defined if not rule.startswith("§") and "." not in rule}
    return sorted(rule for rule in wanted
                  if not any(c == rule or c.startswith(rule + ".") for c in cited[game]))


@pytest.mark.parametrize("game", GAMES)
def test_every_cited_rule_exists_in_the_spec(game, cited):
    uncited = uncited_rules(game, cited, spec_text(game))
    assert not uncited, f"{game}: never cited by the code or tests (is the citation scan broken?): {uncited}"
    missing = missing_ids(cited[game], defined_ids(spec_text(game)))
    assert not missing, f"{game}: cited but not in docs/rules/{game}.md:\n" + "\n".join(
        f"  {rule}: {', '.join(where[:5])}" for rule, where in missing.items())


def test_known_rules_are_found():
    """Positive control: numbers known to be in the specs are parsed at every level."""
    expected = {
        "valhalla": {"V-1", "V-4.2.1", "V-6.3", "V-6.4c", "V-8", "§3.4", "§7.10", "§9.2"},
        "herrlof": {"R-3.3.1", "R-4.4.4", "R-6.3", "§2.3", "§7.9"},
        "halali": {"H-3.7", "H-4.5", "H-8", "§2.4", "§7.10"},
        "attila": {"A-3.2.2", "A-3.8", "A-5.5", "A-7", "§2.1", "§7.10"},
        "walhalla": {"W-7.3.6", "W-10.4", "W-12", "§2.3", "§3.4", "§9.1"},
    }
    for game, rules in expected.items():
        defined = defined_ids(spec_text(game))
        assert rules <= defined, f"{game}: {sorted(rules - defined)}"
    assert "V-6.4d" not in defined_ids(spec_text("valhalla"))  # only (a), (b), (c)
    assert "§7.10" not in defined_ids(spec_text("herrlof"))  # nine invariants
    # the code and tests cite these, so the scan finds them
    cited = code_citations()
    assert {"V-6.4c", "§7.10"} <= set(cited["valhalla"]) and "R-3.3.1" in cited["herrlof"]
    assert "W-4.3" in cited["walhalla"]  # also from W-4.1-3 and test_w2_4_w4_3_...


def test_citation_parsing():
    assert rule_ids_of_test_name("test_v6_4b_repairing_ship_protected") == ["V-6.4b"]
    assert rule_ids_of_test_name("test_s7_10_alternative_random_policy") == ["§7.10"]
    assert rule_ids_of_test_name("test_w2_4_w4_3_three_players") == ["W-2.4", "W-4.3"]
    assert rule_ids_of_test_name("test_a3_2_second_figure") == ["A-3.2"]
    assert rule_ids_of_test_name("test_s5_dp1_tiles_then_proceed") == ["§5"]
    assert rule_ids_of_test_name("test_observer_accepts_legal_move") == []
    text = ("W-4.1-3 and §7.1-6, V-6.4c, DP-2, A-1..A-7\n"
            "spec ``valhalla.md`` §9.1\n"
            "def test_r4_4_1_destroyed_trick():\n")
    cited = cited_ids({"toolkit/games/walhalla/x.py": text})
    assert set(cited["walhalla"]) == {"W-4.1", "W-4.3", "§7.1", "§7.6"}
    assert set(cited["valhalla"]) == {"V-6.4c", "§9.1"}
    assert set(cited["attila"]) == {"A-1", "A-7"}
    assert set(cited["herrlof"]) == {"R-4.4.1"}
    assert set(cited["halali"]) == set()


def test_negative_controls_for_rule_citations():
    """A citation of a rule that does not exist is reported, in text and in a test name; a rule removed
    from a (scratch copy of a) spec is reported where the code cites it."""
    scratch = {"tests/games/valhalla/test_scratch.py":
               '"""V-99.9 and §7.11."""\ndef test_v6_9_no_such_item():\n    pass\n'}
    cited = cited_ids(scratch)["valhalla"]
    missing = missing_ids(cited, defined_ids(spec_text("valhalla")))
    assert set(missing) == {"V-99.9", "§7.11", "V-6.9"}
    assert missing["V-6.9"] == ["tests/games/valhalla/test_scratch.py:2 test_v6_9_no_such_item"]

    spec = spec_text("valhalla")
    assert "**V-8 End of game**" in spec
    without_v8 = spec.replace("**V-8 End of game**", "End of game")
    missing = missing_ids(code_citations()["valhalla"], defined_ids(without_v8))
    assert set(missing) == {"V-8"} and len(missing["V-8"]) >= 5

    without_item = spec.replace("\n3. **Rock** (`rock_square`", "\n**Rock** (`rock_square`")
    assert "V-6.3" not in defined_ids(without_item)

    # a rule block nothing cites is reported, and so is a spec with a second prefix letter
    assert uncited_rules("valhalla", code_citations(), spec + "\n**V-99 Nothing**\n") == ["V-99"]
    with pytest.raises(AssertionError, match="prefixes"):
        prefix_of(spec + "\n**Q-1 Stray**\n")


# ---------------------------------------------------------------------------------------------------
# (c) the index
# ---------------------------------------------------------------------------------------------------

def test_the_docs_index_links_every_document():
    assert (DOCS / "architecture.md").is_file() and (DOCS / "README.md").is_file()
    index = DOCS / "README.md"
    linked = {(index.parent / urllib.parse.unquote(t.split("#", 1)[0])).resolve()
              for t in markdown_targets(index.read_text(encoding="utf-8")) if not SCHEME.match(t)}
    assert (RULES / f"{registered_games()[0]}.md").resolve() in linked  # the links are read (positive control)
    unlinked = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*")
                      if p.is_file() and p != index and p.resolve() not in linked | game_specs())
    assert not unlinked, f"docs/README.md does not link: {unlinked}"


# ---------------------------------------------------------------------------------------------------
# (d) the guide to adding a game, checked against the code
# ---------------------------------------------------------------------------------------------------

GUIDE = DOCS / "adding-a-game.md"


def guide_tables(text: str) -> tuple[dict, set]:
    """``({module: [names it must define]}, {GameSpec fields named})`` from the guide's tables (the ones
    headed ``| module | must define |``, ``| field | what it declares |`` and ``| presentation field | what it
    sets |``, the last as ``presentation.<name>``)."""
    required, fields, header = {}, set(), None
    for line in text.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = tuple(cells)
            continue
        if len(cells) != 2 or not cells[0].startswith("`"):
            continue
        name = cells[0].strip("`")
        if header == ("module", "must define") and name.endswith(".py"):
            required[name[:-3]] = re.findall(r"`(\w+)`", cells[1])
        elif header == ("field", "what it declares"):
            fields.add(name)
        elif header == ("presentation field", "what it sets"):
            fields.add(f"presentation.{name}")
    return required, fields


def guide_problems(text: str) -> list[str]:
    import dataclasses

    from toolkit.core.game import GameSpec

    required, fields = guide_tables(text)
    problems = []
    if not required or not fields:
        return ["the guide's tables are missing"]
    from toolkit.core.game import Presentation

    known = {f.name for f in dataclasses.fields(GameSpec)} | {f"presentation.{f.name}"
                                                               for f in dataclasses.fields(Presentation)}
    problems += [f"GameSpec has no field {f!r}" for f in sorted(fields - known)]
    for game in GAMES:
        for module, names in required.items():
            try:
                loaded = importlib.import_module(f"toolkit.games.{game}.{module}")
            except ImportError:
                problems.append(f"toolkit.games.{game}.{module} does not exist")
                continue
            problems += [f"{game}.{module} has no {n}" for n in names if not hasattr(loaded, n)]
    return problems


def test_the_adding_a_game_guide_matches_the_code():
    assert guide_problems(GUIDE.read_text(encoding="utf-8")) == []


def test_negative_controls_for_the_guide():
    text = GUIDE.read_text(encoding="utf-8")
    assert guide_problems(text.replace("| `kernel.py` | `start`,", "| `kernel.py` | `begin`,"))
    assert guide_problems(text.replace("| `results` |", "| `result_codes` |"))
    assert guide_problems(text.replace("| `panel_games` |", "| `panel_runs` |"))
    assert guide_problems(text.replace("| `odds.py` |", "| `chances.py` |"))
    assert guide_problems("no tables here") == ["the guide's tables are missing"]


FENCE = re.compile(r"^( *)```(\w+)\n(.*?)^\1```", re.MULTILINE | re.DOTALL)


def quoted_excerpts(text: str) -> list[tuple[str, str]]:
    """``(path, excerpt)`` of every fenced block of the guide whose first line is a comment naming a file
    of the repository (``# toolkit/games/pig/rules.py``); the block's indent is taken off."""
    found = []
    for indent, _, body in FENCE.findall(text):
        lines = [line[len(indent):] for line in body.splitlines()]
        if lines and re.fullmatch(r"# [\w./-]+\.\w+", lines[0]):
            found.append((lines[0][2:], "\n".join(lines[1:]) + "\n"))
    return found


def excerpt_problems(text: str, root: Path = REPO) -> list[str]:
    """The guide's quotes that are not, line for line, in the file they name."""
    problems = []
    for path, excerpt in quoted_excerpts(text):
        file = root / path
        if not file.is_file():
            problems.append(f"{path}: no such file")
        elif excerpt not in file.read_text(encoding="utf-8"):
            problems.append(f"{path}: the quote is not in the file: {excerpt.splitlines()[0]!r}")
    return problems


def test_the_guide_quotes_the_tutorial_game_as_it_is():
    text = GUIDE.read_text(encoding="utf-8")
    quoted = {path for path, _ in quoted_excerpts(text)}
    tutorial = {f"toolkit/games/pig/{m}.py" for m in ("rules", "reference", "policies", "kernel", "heuristics",
                                                        "odds", "__init__")}
    assert tutorial <= quoted, sorted(tutorial - quoted)  # every file of the walk-through is quoted
    assert excerpt_problems(text) == []


def test_the_guide_lists_what_the_checker_checks():
    from toolkit.core.checklist import MODULES

    required, _ = guide_tables(GUIDE.read_text(encoding="utf-8"))
    assert {module: tuple(names) for module, names in required.items()} == MODULES


def test_negative_controls_for_the_guides_quotes():
    text = GUIDE.read_text(encoding="utf-8")
    assert excerpt_problems(text.replace('PRESETS = {"standard": {}, "quick": {"target": 50}}',
                                         'PRESETS = {"standard": {}}'))
    assert excerpt_problems(text.replace("# toolkit/games/pig/odds.py", "# toolkit/games/pig/chances.py"))
    assert excerpt_problems("```python\n# README.md\nnot in the readme\n```\n")
    assert quoted_excerpts("```python\nx = 1\n```\n") == []  # a block naming no file is no quote

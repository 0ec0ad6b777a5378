"""Every ``toolkit`` command in README.md and in the CLI's examples is run, and the numbers the README
prints beside a command are the ones the command prints (issue 36, point 7).

The commands are read from the texts themselves, never copied here, so the README, the examples and this
test cannot drift apart:

- README.md: every line of a ``sh`` block that runs ``.venv/bin/toolkit`` (with its ``\\`` continuations)
  and every ``toolkit …`` in backquotes;
- ``toolkit/cli.py``'s docstring, its list of examples;
- every ``e.g.`` in an option's help (``toolkit COMMAND --help``).

A bracketed part (``[--preset alternative]``) is optional: it is kept when it is concrete and dropped when it
is a placeholder (``[--preset P]``); a command left with a placeholder (``toolkit ladder GAME``, ``toolkit
simulate … --scheduler ADDRESS``) describes a syntax and is not a command.  docs/*.md show no numbers
beside a command (their commands are such syntaxes).

How each is checked:

- The three commands whose numbers the README prints run exactly as written; each number is read back from
  the README's text and compared with what the command prints, rounded as the README rounds it (half up),
  and the README's words about those numbers are checked against them: Attila's and Walhalla's win rates by
  place in the turn order (one command per table row, the row's ``--players`` and ``--policies`` put in;
  Walhalla's sources of VP from the rows the same commands write with ``-o``), and Herrlof's shares of the
  decided games (the command with each decliner the text names).
- ``test_every_command_runs``: every other command runs in-process with at most 10 games (and 2 tuning
  trials, 1 finalist).  Its numbers are not in the README (the Speed section's throughputs measure the
  machine; no test can reproduce them), so what is checked is that the command is accepted and runs to
  the end, exit code 0.  ``--scheduler ADDRESS`` needs a Dask cluster: the command runs locally without it
  (the same games: ``tests/core/test_simulate_dask.py``) and is checked before play with it.
- Checked before play only (parsed, then the game, the rules with their ``--set`` values, the policies and
  the output file's format, as the command checks them), for their cost: ``toolkit report`` (the HTML
  pages: tournaments with lookahead, skill and luck runs; ``tests/test_report_*.py`` run them), ``toolkit
  ladder`` (``mcts:1000`` rungs, 12-15 s even at 2 games; ``tests/analysis/test_ladder.py`` runs ladders),
  ``toolkit app`` (a server) and ``toolkit warm`` (compiling every game in processes; ``make test`` runs it
  first).
- The two error lines the README quotes are printed by the ``--set`` they name.
- An option's ``e.g.`` is accepted as that option (``test_the_help_examples_are_accepted``).

Negative controls (each a scratch edit, then restored; every one failed here): in ``cli.py``, the place
table printed from the seats' rows (the Attila and Walhalla tables fail), the decided shares taken over
every game, draws kept (Herrlof fails), the decided matrix transposed or not printed (Herrlof fails), the
mean of the places printed as 1/seats (Walhalla's expected column fails); in README.md, a cell of the
Attila table, Walhalla's expected column and Herrlof's steal changed by one in the third decimal,
Walhalla's "at most 3.4 points" made 3.3, its forests' 13% made 14%, its "52–53%" made 52% and Plunder's
shares swapped (each fails); in the examples, ``--vary special_effects`` in
``tune herrlof``, ``mcts:x`` in a ladder's policies and ``--plot ladder.txt`` (each fails); in the
options' help, ``lookahed:16``, ``consolation_range=3..99`` and ``skill_gap=maxx`` (each fails).
"""

from __future__ import annotations

import re
import shlex
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pandas as pd
import pytest

import toolkit.cli
from toolkit.cli import build_parser, main
from toolkit.core.params import params_of
from toolkit.core.runner import get_spec
from toolkit.games import GAMES

pytestmark = pytest.mark.slow  # about 31 s of CI: started early (tests/conftest.py), so the suite ends on short modules

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")

SMALL = {"-n": 10, "--n-games": 10, "--trials": 2, "--skill-games": 10, "--final-games": 10, "--finalists": 1,
         "--max-games": 10_000}
RUN_GAMES = ("simulate", "compare", "metrics", "sweep", "tune", "paired")  # the commands that play -n games
PARSE_ONLY = ("report", "ladder", "app", "warm")
OUTPUTS = ("-o", "--output", "--plot", "--save")
PLACEHOLDER = re.compile(r"[A-Z][A-Z_]*|.*(…|\.\.\.).*")  # GAME, DIR, ADDRESS, ..., …

RATE = r"(\d\.\d{4}) \[(\d\.\d{4}), (\d\.\d{4})\]"
PLACE_ROW = re.compile(r"^(\d+)(?:st|nd|rd|th)\s+\d+\s+" + RATE + r"$", re.M)
PLACES_MEAN = re.compile(r"^mean of the places: (\d\.\d{4}) \(the fair share 1/(\d+) = (\d\.\d{4})", re.M)
SHARED = re.compile(r"^shared wins: [\d,]+ games, " + RATE, re.M)
# the README's words for Walhalla's sources of VP -> the rows' columns vp_<source>_<seat>
VP_SOURCES = {"peninsula majorities": "peninsula", "wheat": "wheat", "forests": "forest",
              "the final field points": "fields", "the Walhalla majority": "walhalla", "Plunder": "plunder"}


# ----------------------------------------------------------------------------- reading the texts


def _command(text: str) -> list[str] | None:
    """The argv after ``toolkit`` of one command line, optional parts resolved; None for a syntax."""
    text = re.sub(r"\s+#\s.*$", "", text.strip())  # a comment after the command
    text = re.sub(r"^(\.venv/bin/)?toolkit\s+", "", text)

    def optional(match):  # concrete: kept; a placeholder: dropped
        inner = match[1]
        return inner if not any(PLACEHOLDER.fullmatch(t) for t in inner.split()) else ""

    text = re.sub(r"\[([^\]]*)\]", optional, text)
    argv = shlex.split(text)
    if not argv or any(PLACEHOLDER.fullmatch(t) for t in argv):
        return None
    return argv


def _joined(lines):
    """Lines with their ``\\`` continuations joined."""
    out, current = [], ""
    for line in lines:
        current += line.rstrip()
        if current.endswith("\\"):
            current = current[:-1] + " "
            continue
        out.append(current)
        current = ""
    return out


def readme_commands() -> list[tuple[str, ...]]:
    found = []
    for block in re.findall(r"```sh\n(.*?)```", README, re.S):
        found += [_command(line) for line in _joined(block.splitlines()) if line.startswith(".venv/bin/toolkit ")]
    prose = re.sub(r"```.*?```", "", README, flags=re.S)
    subcommands = "|".join(build_parser()._subparsers._group_actions[0].choices)
    found += [_command(" ".join(text.split())) for text in re.findall(rf"`(toolkit (?:{subcommands})\b[^`]*)`", prose)]
    for block in re.findall(r"```sh\n(.*?)```", README, re.S):  # a command quoted in a comment (make run's)
        found += [_command(text) for text in re.findall(rf"`(toolkit (?:{subcommands})\b[^`]*)`", block)]
    return list(dict.fromkeys(tuple(argv) for argv in found if argv))


def help_commands() -> list[tuple[str, ...]]:
    doc = toolkit.cli.__doc__
    examples = doc[doc.index("::") + 2:].split("\n\n")[1]  # the indented block after "::"
    lines = [line.strip() for line in examples.splitlines() if line.strip()]
    found = [_command(line) for line in _joined(lines)]
    assert all(line.startswith("toolkit ") for line in _joined(lines))
    return list(dict.fromkeys(tuple(argv) for argv in found if argv))


COMMANDS = {" ".join(argv): argv for argv in readme_commands() + help_commands()}


# ----------------------------------------------------------------------------- running them


def run(capsys, argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _small(argv, tmp_path) -> list[str]:
    """``argv`` with at most 10 games (and 2 tuning trials, 1 finalist), output files in ``tmp_path`` and no
    scheduler."""
    out = list(argv)
    for i, token in enumerate(out[:-1]):
        if token in SMALL:
            out[i + 1] = str(min(int(out[i + 1]), SMALL[token]))
        elif token in OUTPUTS:
            out[i + 1] = str(tmp_path / Path(out[i + 1]).name)
    if "--scheduler" in out:
        i = out.index("--scheduler")
        del out[i:i + 2]
    for i, token in enumerate(out[:-1]):  # a variant file: the one a README command saves, in tmp_path
        if token == "--rules" and not Path(out[i + 1]).is_absolute():
            out[i + 1] = str(_saved(out[i + 1], tmp_path))
    if out[0] in RUN_GAMES and not {"-n", "--n-games"} & set(out):
        out += ["-n", str(SMALL["-n"])]
    if out[0] == "tune":
        out += [option for option in ("--trials", "--final-games", "--finalists") if option not in out
                for option in (option, str(SMALL[option]))]
    if "--skill" in out and "--skill-games" not in out:
        out += ["--skill-games", str(SMALL["--skill-games"])]
    return out


def _saved(name: str, tmp_path) -> Path:
    """The variant file ``name`` as the README's command that saves it (``toolkit rules ... --save NAME``)
    writes it, in ``tmp_path``: a command that reads a variant runs after the one that writes it."""
    path = tmp_path / Path(name).name
    if not path.exists():
        (saving,) = [argv for argv in COMMANDS.values() if "--save" in argv and argv[argv.index("--save") + 1] == name]
        assert toolkit.cli.main(_small(saving, tmp_path)) == 0
    return path


def _check_before_play(argv, tmp_path) -> None:
    """What the command checks before it plays: games, rules, policies and the output files' formats."""
    args = build_parser().parse_args(list(argv))
    games = getattr(args, "games", None) or ([args.game] if hasattr(args, "game") else [])
    if getattr(args, "rules", None):  # a variant file: the one a README command saves
        args.rules = ([str(_saved(r, tmp_path)) for r in args.rules] if isinstance(args.rules, list)
                      else str(_saved(args.rules, tmp_path)))
    for game in games:
        spec = get_spec(game)
        if hasattr(args, "set"):
            toolkit.cli._rules(spec, args)
        for name in getattr(args, "policies", None).split(",") if getattr(args, "policies", None) else []:
            spec.check_policy_name(name)
    for dest, suffixes in (("output", (".csv", ".parquet")), ("plot", (".png", ".svg", ".pdf"))):
        if getattr(args, dest, None):
            toolkit.cli._check_output(str(tmp_path / Path(getattr(args, dest)).name), suffixes)


def test_the_texts_hold_commands():
    """The reading above finds the commands (a change of layout must not leave this test with nothing)."""
    readme, examples = readme_commands(), help_commands()
    assert len(readme) >= 25 and len(examples) >= 30, (len(readme), len(examples))
    assert {argv[0] for argv in readme + examples} >= {"list", "rules", "simulate", "odds", "compare", "metrics",
                                                      "ladder", "sweep", "tune", "report", "app"}
    assert ("rules", "valhalla", "--preset", "alternative") in examples  # a concrete optional part is kept
    assert not any("GAME" in argv or "ADDRESS" in argv for argv in readme + examples)


# two tuning trials are too few for Optuna's importances, which it says; the command still ends
@pytest.mark.filterwarnings("ignore:Target and region quantiles select the same set of trials")
@pytest.mark.parametrize("command", COMMANDS, ids=list(COMMANDS))
def test_every_command_runs(capsys, tmp_path, command):
    argv = COMMANDS[command]
    if argv[0] in PARSE_ONLY or "--scheduler" in argv:
        _check_before_play(argv, tmp_path)
    if argv[0] in PARSE_ONLY:
        return
    code, out, err = run(capsys, _small(argv, tmp_path))
    assert code == 0, err
    assert "error" not in err and out


def _help_examples() -> dict[tuple[str, str], tuple[str, ...]]:
    """``{(option's dest, example text): commands whose help gives it}``: each option help's ``e.g. …``."""
    found = {}
    for command, parser in build_parser()._subparsers._group_actions[0].choices.items():
        for action in parser._actions:
            if action.help and "e.g." in action.help:
                key = (action.dest, action.help[action.help.index("e.g.") + len("e.g."):].strip())
                found[key] = found.get(key, ()) + (command,)
    return found


def _accepting(check) -> list[str]:
    """The games ``check(spec)`` accepts (no ``ValueError``)."""
    accepted = []
    for name, spec in GAMES.items():
        try:
            check(spec)
        except ValueError:
            continue
        accepted.append(name)
    return accepted


def test_the_help_examples_are_accepted():
    """Every ``e.g.`` in an option's help (``toolkit COMMAND --help``) is accepted as that option: a ``--set``
    by some game's rules, a policy line-up by some game, a ``--target`` by the tuning of some game, and the
    dashboard's games per run is the game's ``panel_games``.  An example of another option fails here until
    it has a check."""
    from toolkit.analysis import tuning

    examples = _help_examples()
    assert {dest for dest, _ in examples} >= {"set", "policies", "target"}
    for (dest, text), commands in examples.items():
        if dest == "set":
            assignments = [a.rstrip(",") for a in re.findall(r"--set (\S+)", text)]
            assert len(assignments) >= 2, text
            for assignment in assignments:
                assert _accepting(lambda spec: spec.Rules.from_assignments([assignment])), (commands, assignment)
        elif dest in ("policies", "skill"):
            names = re.match(r"[^\s)]+", text)[0].split(",")
            checks = lambda spec: [spec.check_policy_name(name) for name in names]  # noqa: E731
            assert _accepting(checks), (commands, names)
        elif dest == "target":
            targets = [t.strip() for t in text.split(", ")]
            for target in targets:
                assert _accepting(lambda spec: tuning.targets_of(spec.name, *tuning.parse_targets([target]))), target
        elif dest == "n_games" and commands == ("app",):
            games, title = re.match(r"([\d,]+) for (\w+)\)", text).groups()
            assert GAMES[title.lower()].presentation.panel_games == int(games.replace(",", "")), text
        else:
            raise AssertionError(f"no check for the example of {dest} in {commands}: {text}")


# ----------------------------------------------------------------------------- the numbers beside them


def _section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start:end]


def _table(text: str) -> tuple[list[str], list[list[str]], int]:
    """The first markdown table of ``text``: its header, its rows (cells stripped) and where it ends."""
    match = re.search(r"^(\|.*\|)\n\|[-|]+\|\n((?:\|.*\|\n)+)", text, re.M)
    cells = lambda line: [c.strip() for c in line.strip()[1:-1].split("|")]  # noqa: E731
    return cells(match[1]), [cells(line) for line in match[2].splitlines()], match.end()


def _set_option(argv: list[str], option: str, value: str) -> list[str]:
    out = list(argv)
    out[out.index(option) + 1] = value
    return out


def _rounded(text: str, digits: int) -> str:
    """A printed number to ``digits`` decimals, half up (``0.2435`` -> ``0.244``), as a reader rounds it."""
    return str(Decimal(text).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def _three(text) -> str:
    return _rounded(str(text), 3)


def _places(out: str) -> list[str]:
    """The printed places as the README writes them: ``0.365 [0.355, 0.374]``."""
    rows = PLACE_ROW.findall(out)
    assert [int(r[0]) for r in rows] == list(range(1, len(rows) + 1)) and rows, out
    return [f"{_three(r[1])} [{_three(r[2])}, {_three(r[3])}]" for r in rows]


def _rates(cells: list[str]) -> list[tuple[float, float, float]]:
    return [tuple(float(x) for x in re.fullmatch(r"(\S+) \[(\S+), (\S+)\]", c).groups()) for c in cells]


def _turn_order_table(capsys, title: str, rows_to: Path | None = None) -> tuple[list[dict], str, list[str]]:
    """Run the command under the table of ``title``'s section for each row and compare every cell; return
    what each row's command printed, the section's text and the table's header.

    The row's first cell is ``players`` or ``players, policy``: they replace the command's ``--players``
    and ``--policies``.  The prose above the table names the games and the seed; they must be the
    command's.  With ``rows_to``, each command also writes its games' rows there (``-o FILE --summary``:
    the same games and the same summary, ``tests/test_cli_values.py``).
    """
    section = _section(title)
    header, rows, end = _table(section)
    block = re.search(r"```sh\n(.*?)\n```", section[end:], re.S)[1]
    (line,) = [line for line in _joined(block.splitlines()) if line.startswith(".venv/bin/toolkit ")]
    argv = _command(line)
    assert argv[:2] == ["simulate", title.lower()], argv
    n_games, seed = re.search(r"([\d,]+) games each, seed (\d+)", section[:end]).groups()
    assert (argv[argv.index("-n") + 1], argv[argv.index("--seed") + 1]) == (n_games.replace(",", ""), seed)
    places = header[1:-1]
    assert places[0] == "1st to play" and places[1:] == ["2nd", "3rd", "4th", "5th"][:len(places) - 1]
    found = []
    for k, row in enumerate(rows):
        players, _, policy = row[0].partition(", ")
        run_argv = _set_option(argv, "--players", players)
        if policy:
            run_argv = _set_option(run_argv, "--policies", policy)
        path = None if rows_to is None else rows_to / f"row{k}.parquet"
        written = [] if path is None else ["-o", str(path), "--summary"]
        code, out, err = run(capsys, run_argv + ["--no-progress"] + written)
        assert code == 0, err
        printed = _places(out)
        shown = [c for c in row[1:-1] if c]
        assert row[1:-1] == shown + [""] * (len(places) - int(players)), row
        assert shown == printed, f"README row {row[0]!r}: {shown}, the command prints {printed}"
        mean, seats, fair = PLACES_MEAN.search(out).groups()
        found.append({"row": row[0], "players": int(players), "policy": policy, "last": row[-1], "mean": mean,
                      "fair": fair, "seats": int(seats), "rates": _rates(printed),
                      "printed": [Decimal(r[1]) for r in PLACE_ROW.findall(out)],
                      "shared": SHARED.search(out)[1] if SHARED.search(out) else "0", "path": path})
    return found, section, header


def test_attila_win_rates_by_place_are_the_commands(capsys):
    """README's Attila table: greedy self-play by place in the turn order, one command per row; the fair
    column is 1/players; the words above the table hold for its numbers."""
    rows, section, header = _turn_order_table(capsys, "Attila")
    assert header[-1] == "fair"
    for row in rows:
        assert row["seats"] == row["players"] and row["last"] == _three(1 / row["players"]) == _three(row["fair"])
    words = re.search(r"with (\d) to (\d) players the first player wins clearly more than the fair share and more "
                      r"than any other place; with (\d), this many games barely tell the first player from the second",
                      " ".join(section.split()))
    clear_low, clear_high, unclear = (int(x) for x in words.groups())
    for row in rows:
        (first, first_low, _), *others = row["rates"]
        if clear_low <= row["players"] <= clear_high:
            assert first_low > 1 / row["players"] and all(first_low > high for _, _, high in others), row
        elif row["players"] == unclear:
            assert first_low <= others[0][2], row  # the intervals overlap
    assert {row["players"] for row in rows} == {unclear, *range(clear_low, clear_high + 1)}


def test_walhalla_win_rates_by_place_are_the_commands(capsys, tmp_path):
    """README's Walhalla table: by place in the turn order for 3 and 4 players, greedy and random; the
    expected column is the mean of the places; the shared wins, the largest gap between two places, the
    best place in 3-player greedy play and the sources of the VP (from the rows of the same runs) are the
    ones the words below the table give."""
    rows, section, header = _turn_order_table(capsys, "Walhalla", rows_to=tmp_path)
    assert header[-1] == "expected"
    for row in rows:
        assert row["last"] == _three(row["mean"]), row
    text = " ".join(section.split())
    low, high = re.search(r"Shared wins, (\d+\.\d)% to (\d+\.\d)% of the games", text).groups()
    shared = [Decimal(row["shared"]) * 100 for row in rows]
    assert (low, high) == (_rounded(min(shared), 1), _rounded(max(shared), 1)), shared
    gap = re.search(r"moves a player's chances by at most (\d+\.\d) points", text)[1]
    assert gap == _rounded(max(max(r["printed"]) - min(r["printed"]) for r in rows) * 100, 1)
    players, place = re.search(r"in (\d)-player greedy play the (\w+) player, who starts the last raid, does best",
                               text).groups()
    (best,) = [row for row in rows if row["players"] == int(players) and row["policy"] == "greedy"]
    order = ["first", "second", "third", "fourth"]
    assert max(range(len(best["printed"])), key=best["printed"].__getitem__) == order.index(place), best

    # each source's share of all VP, in whole percent per policy: "42%" every row of it, "52–53%" the range
    shares = {}
    for row in rows:
        games = pd.read_parquet(row["path"])
        vp = {source: int(games[[f"vp_{source}_{s}" for s in range(row["players"])]].to_numpy().sum())
              for source in VP_SOURCES.values()}
        for source, points in vp.items():
            share = _rounded(Decimal(100 * points) / sum(vp.values()), 0)
            shares.setdefault((source, row["policy"]), set()).add(int(share))
    said = re.search(r"the peninsula majorities give (\S+) of a greedy player's VP and (\S+) of a random player's; "
                     r"then (.*?) \(shares of all VP", text)
    claims = {("peninsula", "greedy"): said[1], ("peninsula", "random"): said[2]}
    for words, greedy, random in re.findall(r"([A-Za-z ]+?) \((\S+), (\S+)\)", said[3]):
        source = VP_SOURCES[re.sub(r"^and ", "", words.strip())]
        claims.update({(source, "greedy"): greedy, (source, "random"): random})
    assert set(claims) == set(shares), claims
    for key, claim in claims.items():
        low, _, high = claim.rstrip("%").partition("–")
        assert (int(low), int(high or low)) == (min(shares[key]), max(shares[key])), (key, claim, shares[key])


def test_herrlof_shares_of_the_decided_games_are_the_commands(capsys):
    """README's price of Herrlof's optional moves between equals: the command it quotes, with each decliner it
    names in place of the first, prints the shares the README gives (the user's row, the decliner's column)."""
    text = " ".join(README.split())
    command, mixed = re.search(r"`(toolkit compare herrlof [^`]*)` \(([\d,]+) mixed games\)", text).groups()
    argv = _command(command)
    user, first_decliner = argv[argv.index("--policies") + 1].split(",")
    n_games = int(argv[argv.index("-n") + 1])
    assert int(mixed.replace(",", "")) == 2 * n_games  # both seatings of the mixed pair
    claims = re.findall(r"\(`(\S+?)`\)(?: wins)? (\d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\])", text)
    assert [d for d, _ in claims][0] == first_decliner and len(claims) == 3, claims
    for decliner, shown in claims:
        assert decliner.startswith(f"{user}:no_"), decliner
        code, out, err = run(capsys, _set_option(argv, "--policies", f"{user},{decliner}") + ["--no-progress"])
        assert code == 0, err
        lines = out.splitlines()
        start = next(k for k, line in enumerate(lines) if line.startswith("row policy's share of the decided games"))
        assert lines[start + 1].split() == ["policy", user, decliner]
        cell = re.match(rf"{re.escape(user)}\s+{RATE}\s+{RATE}$", lines[start + 2])
        printed = f"{_three(cell[4])} [{_three(cell[5])}, {_three(cell[6])}]"
        assert printed == shown, f"README: {decliner} {shown}, the command prints {printed}"


def test_the_quoted_error_lines_are_printed(capsys):
    """The README's two examples of a bad value: the ``--set`` each names prints that line (``…`` stands for
    the part the README leaves out) on stderr, exit code 2."""
    text = " ".join(_section("CLI quickstart").split())
    first = re.search(r"`(toolkit: error: (\w+)='(\S+)' is not allowed: [^`]*)`", text)
    second = re.search(r"for (\w+)'s `--set (\S+)`, `(toolkit: error: [^`]*)`", text)
    games = [name for name, spec in GAMES.items() if first[2] in params_of(spec.Rules)]
    assert len(games) == 1, games
    cases = [(games[0], f"{first[2]}={first[3]}", first[1]), (second[1].lower(), second[2], second[3])]
    for game, assignment, line in cases:
        code, out, err = run(capsys, ["simulate", game, "--set", assignment, "-n", "1"])
        assert code == 2 and not out
        pattern = ".*".join(re.escape(part) for part in line.split("…"))
        assert re.fullmatch(pattern, err.strip()), (err, line)


def test_the_variant_workflows_numbers_are_the_commands(tmp_path, capsys):
    """Issue 51: the README's variant workflow, end to end: the variant its command saves, then the first
    player's win rate the two ``simulate`` commands print (the variant's, then the preset's), each as the
    README states it, and its words about them (the intervals overlap)."""
    text = " ".join(_section("CLI quickstart").split())
    found = re.search(rf"Under the variant the first player of random games wins {RATE} of 100,000 games \(seed 1\), "
                      rf"under the alternative preset alone {RATE}: intervals that overlap", text)
    assert found, "the README's sentence on the variant's numbers"
    stated = [tuple(found.groups()[:3]), tuple(found.groups()[3:])]
    printed = []
    for argv in (["simulate", "valhalla", "--rules", "four.toml", "-n", "100000", "--seed", "1"],
                 ["simulate", "valhalla", "--preset", "alternative", "-n", "100000", "--seed", "1"]):
        command = next(a for a in COMMANDS.values() if list(a) == argv)  # the README's own command, as written
        out = _small_run(capsys, command, tmp_path)
        printed.append(re.search(rf"^1st\s+\d+\s+{RATE}$", out, flags=re.M).groups())
    assert printed == stated
    (low_a, high_a), (low_b, high_b) = ((float(r[1]), float(r[2])) for r in printed)
    assert low_a <= high_b and low_b <= high_a  # "intervals that overlap"


def _small_run(capsys, argv, tmp_path) -> str:
    """``argv`` run as written (its games too), a variant it reads saved first as the README saves it."""
    argv = list(argv)
    if "--rules" in argv:
        i = argv.index("--rules")
        argv[i + 1] = str(_saved(argv[i + 1], tmp_path))
    code, out, err = run(capsys, argv)
    assert code == 0, err
    return out

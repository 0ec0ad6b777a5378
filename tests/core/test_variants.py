"""A rule variant is a file every tool reads (issue 51, point 1): ``toolkit.core.variants``, ``toolkit rules GAME
... --save FILE`` and ``--rules FILE`` on every command that takes rules.

Read back, a saved variant gives the rules that saved it (every game, its presets at every player count, and
rules changed in every kind of value a game has: numbers, booleans, choices, lists, mappings, none), and the
same seed plays the same rows from the file as from the rules.  Every mistake in a file is one line naming the
file and the key, exit 2 at the command line, before any game is played.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

import toolkit
from toolkit.cli import build_parser, main
from toolkit.core import variants
from toolkit.core.params import params_of

# rules changed in every kind of value the games have (the README's and the CLI help's examples)
CHANGED = {
    "valhalla": ("alternative", {"stick_rune_up_probability": 0.6, "zero_runes_value": 4}),
    "herrlof": ("publisher", {"hand_size": 12}),
    "halali": ("standard", {"capture_matrix": "bear:fox/hunter", "exit_squares": "d7:N,g4:E", "match_games": 2}),
    "attila": ("standard", {"num_players": 2, "two_player_second_place_gap": None}),
    "walhalla": ("variable", {"num_players": 3, "peninsula_tiles": (5, 6, 7)}),
    "pig": ("standard", {"second_player_bonus": 3}),
}


def every_preset():
    for name, spec in toolkit.GAMES.items():
        counts = spec.seat_counts() if len(spec.seat_counts()) > 1 else [None]
        for preset in spec.Rules.PRESETS:
            for seats in counts:
                yield name, preset, seats


@pytest.mark.parametrize("game, preset, seats", list(every_preset()))
def test_every_preset_at_every_player_count_reads_back(tmp_path, game, preset, seats):
    rules = toolkit.rules(game, preset, **({"num_players": seats} if seats else {}))
    path = variants.save(rules, tmp_path / "v.toml", "a name")
    variant = variants.read(path, game)
    assert variant.rules == rules and variant.name == "a name" and variant.preset == preset
    assert variant.changes() == ({} if not seats or seats == toolkit.rules(game, preset).num_players
                                 else {"num_players": str(seats)})


@pytest.mark.parametrize("game", CHANGED)
def test_changed_rules_read_back_and_play_the_same_games(tmp_path, game):
    """Only the rules that differ from the preset are written, each on one line; the file plays the rules'
    games row for row (the same seed).  The control: the preset alone plays other games."""
    preset, changes = CHANGED[game]
    rules = toolkit.rules(game, preset, **changes)
    path = variants.save(rules, tmp_path / f"{game}.toml", note="a note", preset=preset)
    text = path.read_text()
    body = dict(re.findall(r"^(\w+) = (.*)$", text.split("[rules]")[1], flags=re.M))
    assert set(body) == set(changes) and f'preset = "{preset}"' in text and 'note = "a note"' in text
    variant = variants.read(path)
    assert variant.rules == rules and variant.game == game and variant.note == "a note"
    assert toolkit.load_rules(path) == rules == toolkit.rules(game, file=path)
    ours = toolkit.simulate(game, variant.rules, 30, seed=3, threads=1, progress=False)
    theirs = toolkit.simulate(game, rules, 30, seed=3, threads=1, progress=False)
    pd.testing.assert_frame_equal(ours, theirs)
    plain = toolkit.simulate(game, toolkit.rules(game, preset), 30, seed=3, threads=1, progress=False)
    assert not plain.drop(columns=plain.columns[:1]).equals(ours.drop(columns=ours.columns[:1]))


def test_a_runs_sidecar_and_its_data_file_read_as_the_runs_rules(tmp_path):
    rules = toolkit.rules("halali", **CHANGED["halali"][1])
    toolkit.simulate("halali", rules, 5, seed=1, threads=1, progress=False, output=tmp_path / "run.parquet")
    for name in ("run.parquet", "run.parquet.json"):
        variant = variants.read(tmp_path / name, "halali")
        assert variant.rules == rules and variant.name == "run"
    (tmp_path / "run.parquet.json").rename(tmp_path / "run.json")  # the sidecar's name before issue 51
    assert variants.read(tmp_path / "run.parquet").rules == rules
    assert toolkit.load(tmp_path / "run.parquet").attrs["rules"] == rules.to_json()


GOOD = 'game = "valhalla"\nname = "v"\npreset = "alternative"\nrules_version = 1\n\n[rules]\nzero_runes_value = 4\n'
BAD = [  # (what the file is, its text, the key the message names, words the message holds)
    ("not TOML", "game = valhalla\n", None, "not a TOML file"),
    ("empty", "", "game", "missing"),
    ("no game", GOOD.replace('game = "valhalla"\n', ""), "game", "missing"),
    ("unknown game", GOOD.replace('"valhalla"', '"valhala"'), "game", "did you mean 'valhalla'"),
    ("game not a string", GOOD.replace('"valhalla"', "3"), "game", "a game's name"),
    ("another game's file", GOOD, "game", "the file is for valhalla, not pig"),
    ("unknown key", GOOD.replace("name =", "nmae ="), "nmae", "did you mean 'name'"),
    ("unknown rule", GOOD.replace("zero_runes_value", "zero_rune_value"), "rules.zero_rune_value",
     "did you mean 'zero_runes_value'"),
    ("value outside its domain", GOOD.replace("= 4", "= 9"), "rules.zero_runes_value", "1..6"),
    ("value of the wrong type", GOOD.replace("= 4", '= "four"'), "rules.zero_runes_value", "not allowed"),
    ("unknown preset", GOOD.replace('"alternative"', '"alternate"'), "preset", "did you mean 'alternative'"),
    ("no rules version", GOOD.replace("rules_version = 1\n", ""), "rules_version", "missing"),
    ("a newer rules version", GOOD.replace("rules_version = 1", "rules_version = 7"), "rules_version",
     "update the toolkit"),
    ("rules version not a number", GOOD.replace("rules_version = 1", 'rules_version = "1"'), "rules_version",
     "not allowed"),
    ("rules not a table", GOOD.replace("[rules]\nzero_runes_value = 4\n", "rules = 4\n"), "rules", "a table"),
    ("name not a string", GOOD.replace('name = "v"', "name = 5"), "name", "a string"),
    ("rules that contradict each other", 'game = "walhalla"\nrules_version = 1\n[rules]\nnum_players = 3\n'
     'reinforcement_table = "8,7,6,5"\n', "rules", "num_players=3"),
]


@pytest.mark.parametrize("what, text, key, words", BAD, ids=[b[0] for b in BAD])
def test_a_bad_file_is_one_line_naming_the_file_and_the_key(tmp_path, what, text, key, words):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    game = "pig" if what == "another game's file" else None
    with pytest.raises(variants.VariantError) as caught:
        variants.read(path, game)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"{path}: {key}: " if key else f"{path}: ")
    assert words in message, message


def test_an_older_rules_version_says_what_changed_since(tmp_path, monkeypatch):
    """A game whose rules moved to version 2 refuses a file written for version 1, with what changed."""
    Rules = toolkit.GAMES["valhalla"].Rules
    monkeypatch.setattr(Rules, "RULES_VERSION", 2)
    monkeypatch.setattr(Rules, "RULES_HISTORY", {1: "the first version", 2: "Hagalaz alone moves back two"})
    path = tmp_path / "old.toml"
    path.write_text(GOOD)
    with pytest.raises(variants.VariantError, match="no longer has .*version 2: Hagalaz alone moves back two"):
        variants.read(path)


def test_the_command_line_saves_a_variant_and_every_command_reads_it(tmp_path, capsys):
    """``toolkit rules --save`` writes the file; ``simulate --rules`` plays what ``--preset/--set`` plays;
    ``--set`` applies on top of the file; ``--preset`` with ``--rules`` is refused."""
    path = tmp_path / "fast.toml"
    assert main(["rules", "valhalla", "--preset", "alternative", "--set", "zero_runes_value=4", "--save", str(path),
                 "--name", "fast", "--note", "four for zero"]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {path}: valhalla variant 'fast', preset alternative, changes "
                                              f"zero_runes_value=4")
    outputs = []
    for argv in (["--rules", str(path)], ["--preset", "alternative", "--set", "zero_runes_value=4"]):
        assert main(["simulate", "valhalla", "-n", "300", "--threads", "1", "--no-progress", *argv]) == 0
        outputs.append(capsys.readouterr().out.split("\n", 1)[1])  # the rows after the title line
    assert outputs[0] == outputs[1]
    assert main(["simulate", "valhalla", "-n", "300", "--threads", "1", "--no-progress", "--rules", str(path),
                 "--set", "zero_runes_value=6"]) == 0
    assert capsys.readouterr().out.split("\n", 1)[1] != outputs[0]  # the --set on top changed the games
    assert main(["simulate", "valhalla", "--rules", str(path), "--preset", "standard"]) == 2
    assert "--preset standard is not allowed with --rules" in capsys.readouterr().err


def _takes_rules(parser):
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, command in sub.choices.items():
        options = {o for a in command._actions for o in a.option_strings}
        if "--preset" in options or "--set" in options:
            yield name, options


def test_every_command_that_takes_rules_takes_a_variant_file():
    commands = dict(_takes_rules(build_parser()))
    assert {"simulate", "odds", "compare", "metrics", "ladder", "decisions", "sweep", "tune", "paired",
            "rules"} <= set(commands)
    assert [name for name, options in commands.items() if "--rules" not in options] == []


@pytest.mark.parametrize("what, text, key, words", BAD, ids=[b[0] for b in BAD])
def test_a_bad_file_stops_a_command_before_any_game(tmp_path, capsys, what, text, key, words):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    game = "pig" if what == "another game's file" else "walhalla" if 'game = "walhalla"' in text else "valhalla"
    out = tmp_path / "x.csv"
    assert main(["simulate", game, "--rules", str(path), "-n", "100000", "-o", str(out), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err and str(path) in err
    assert not any(Path(tmp_path).glob("x.*"))  # nothing played, nothing written


def test_a_variant_file_is_refused_where_it_cannot_be_written(tmp_path, capsys):
    assert main(["rules", "pig", "--save", str(tmp_path / "nope" / "v.toml")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["rules", "pig", "--save", str(tmp_path / "v.txt")]) == 2
    assert "ends in .toml" in capsys.readouterr().err
    assert main(["rules", "pig", "--name", "x"]) == 2
    assert "without --save" in capsys.readouterr().err


def test_the_file_lists_a_list_and_a_mapping_as_their_set_text():
    rules = toolkit.rules("halali", **CHANGED["halali"][1])
    text = variants.text(rules, "h")
    kinds = params_of(type(rules))
    assert f'capture_matrix = "{kinds["capture_matrix"].kind.format(rules.capture_matrix)}"' in text
    assert 'exit_squares = "' in text and "match_games = 2" in text


def test_odds_decisions_and_rules_read_the_variant_file(tmp_path, capsys):
    """``odds``, ``decisions`` and ``rules`` print with ``--rules FILE`` what they print with the preset and
    ``--set`` the file was saved from (all but the first line, which names the rules as they were given);
    ``rules`` shows the file's values in a column of their own.  The control: the preset alone differs."""
    path = toolkit.save_rules(toolkit.rules("valhalla", "alternative", zero_runes_value=4), tmp_path / "v.toml")
    decisions = ["-n", "4", "--judge", "mcts:4:0:flat", "--threads", "1", "--no-progress"]
    for command, extra in (("odds", []), ("decisions", decisions)):
        shown = []
        for rules in (["--rules", str(path)], ["--preset", "alternative", "--set", "zero_runes_value=4"],
                      ["--preset", "alternative"]):
            assert main([command, "valhalla", *rules, *extra]) == 0
            shown.append(capsys.readouterr().out.split("\n", 1)[1])
        assert shown[0] == shown[1] != shown[2], command
    assert main(["rules", "valhalla", "--rules", str(path)]) == 0
    table = capsys.readouterr().out
    row = next(line for line in table.splitlines() if line.startswith("zero_runes_value"))
    assert str(path) in table and row.split()[2:4] == ["5", "4"]  # the default, then the file's value
    assert main(["rules", "valhalla", "--set", "zero_runes_value=3"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("zero_runes_value"))
    assert row.split()[2:4] == ["5", "3"]

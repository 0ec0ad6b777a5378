"""The golden playthroughs (``golden_record.py``) are reproduced exactly.

Every ``make test`` replays the traces of every configuration except the card games' lookahead
(minutes of pure Python; ``make golden`` checks those and every whole-run digest), and the digests
of the first games of every configuration.  ``make golden`` checks everything.
"""

from __future__ import annotations

import json

import pytest

import golden_record as gr

pytestmark = pytest.mark.slow  # about 19 s of CI: started early (tests/conftest.py), so the suite ends on short modules

CONFIGS = gr.configs()
DIGESTS = json.loads(gr.DIGESTS.read_text())


def _id(config) -> str:
    return gr.digest_key(*config)


def test_every_configuration_is_recorded():
    """One trace file and one digest entry per configuration, and nothing else."""
    assert {gr.digest_key(*c) for c in CONFIGS} == set(DIGESTS)
    files = {p.relative_to(gr.HERE) for p in gr.HERE.glob("*/*.txt")}
    assert files == {gr.trace_path(*c).relative_to(gr.HERE) for c in CONFIGS}
    # every preset at every player count of every game, each line-up: counted from the games' declarations
    import toolkit

    assert len(CONFIGS) == len(gr.LINEUPS) * sum(len(spec.Rules.PRESETS) * len(spec.seat_counts())
                                                 for spec in toolkit.GAMES.values())


@pytest.mark.parametrize("config", [c for c in CONFIGS if not gr.slow(c[0], c[3])], ids=_id)
def test_trace_is_reproduced(config):
    assert gr.trace_text(*config) == gr.trace_path(*config).read_text()


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_first_games_digests_are_reproduced(config):
    assert gr.digest_entry(*config, quick_only=True) == {k: DIGESTS[gr.digest_key(*config)][k]
                                                         for k in ("columns", "quick")}


def test_traces_hold_what_they_promise():
    """Each trace file has its games' decisions, draws and whole records (so a comparison of two
    empty or truncated texts cannot pass)."""
    from toolkit.games import GAMES

    for config in CONFIGS:
        name, preset, players, lineup = config
        text = gr.trace_path(*config).read_text()
        columns = GAMES[name].columns  # the reference's row has every column, absent seats' too
        games = gr.TRACE_GAMES[lineup]
        assert text.count("## game ") == games, config
        assert text.count("\nrecord ") == games * len(columns), config
        assert " DP-1" in text and "\nchance " in text, config
        if lineup == "random":  # the random policy draws from its own stream (spec §5)
            assert "seat 0 draws below(" in text, config


def test_a_changed_game_changes_its_trace_and_digest():
    """Negative control: another seed, another game index, or another rule value gives other text
    and other digests."""
    config = ("halali", "standard", None, "random")
    rules = gr.make_rules("halali", "standard", None)
    assert gr.trace_game("halali", rules, ("random", "random"), gr.SEED, 0) != \
        gr.trace_game("halali", rules, ("random", "random"), gr.SEED, 1)
    assert gr.trace_game("halali", rules, ("random", "random"), gr.SEED + 1, 0) != \
        gr.trace_game("halali", rules, ("random", "random"), gr.SEED, 0)
    recorded = DIGESTS[gr.digest_key(*config)]["quick"]["sha256"]
    frame = gr.run_frame(*config, gr.QUICK_GAMES)
    assert gr.column_digests(frame) == recorded
    assert "first_seat" in frame and "first_seat" not in recorded  # a derived column is not digested
    frame.loc[frame.index[-1], "turns"] += 1  # one value of one game
    changed = gr.column_digests(frame)
    assert changed["turns"] != recorded["turns"]
    assert {c for c in changed if changed[c] != recorded[c]} == {"turns"}


def test_trace_summarises_only_long_runs_of_decision_draws():
    trace = gr.Trace()
    for i in range(gr.RUN - 1):
        trace.draw("seat 0 draws", f"below(3) = {i % 3}")
    trace.append("seat 0 DP-1 [0, 1] -> 1")
    for i in range(gr.RUN):
        trace.draw("seat 1 draws", f"below(3) = {i % 3}")
    trace.draw("chance", "below(2) = 1")
    assert trace[:gr.RUN - 1] == [f"seat 0 draws below(3) = {i % 3}" for i in range(gr.RUN - 1)]
    assert trace[gr.RUN - 1] == "seat 0 DP-1 [0, 1] -> 1"
    assert trace[gr.RUN].startswith(f"seat 1 draws {gr.RUN} values (sha256 ")
    assert trace[-1] == "chance below(2) = 1"

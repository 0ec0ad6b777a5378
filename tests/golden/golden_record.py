"""Golden playthroughs: readable traces of seeded games and digests of many games' result rows.

They pin today's behaviour before the games are refactored onto one decision-point protocol
(issue 15): the refactored code must reproduce every file here byte for byte.

- **Traces** (``<game>/<config>.txt``): a few games of the pure-Python reference, one line per
  event in the order it happens: every draw from the chance stream (``chance``) and from a
  seat's decision stream (``seat S draws``), every decision point (``seat S DP-k``, the options
  in the spec's canonical order, ``->`` the choice; forced ones included), and the final record
  row.  Decision kinds are the spec's §5 numbers (``DP-1`` ...).
- **Digests** (``digests.json``): per configuration, the SHA-256 of every result column of the
  kernel's first ``N`` games (values as Python ``repr``, one per line), for two prefixes: the
  few hundred games the test suite replays, and the whole recorded run.  A digest per column lets
  a deliberate rename be mapped explicitly instead of invalidating everything.  The derived columns
  (``first_seat``: ``toolkit.core.results.DERIVED_COLUMNS``) are not digested: each is a function of
  recorded columns whose digests are here (``first_seat`` of ``start_seat``, ``first_dealer``, ...), so
  its digest would pin nothing more; ``tests/conformance/test_first_seat.py`` checks the derivation.

Configurations: every game, preset and player count, with the line-ups all-``random``,
all-``greedy`` and all-``lookahead``.

Run ``python tests/golden/golden_record.py`` to (re)write them (only on purpose: a change of result must be
a reviewed decision), ``--check`` to compare without writing.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for path in (ROOT, HERE.parent):  # the package, and tests/game_data.py
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from game_data import game_configs  # noqa: E402

SEED = 20261201
LINEUPS = ("random", "greedy", "lookahead")
TRACE_GAMES = {"random": 2, "greedy": 2, "lookahead": 1}  # seeded games per trace file
DIGEST_GAMES = 10_000
QUICK_GAMES = 200  # the prefix whose digests the test suite checks every run
# A line-up a game's configs list in ``GOLDEN_SLOW`` is slow (the card games' lookahead: Herrlof's kernel
# plays about 20 games a second, Attila's 5-player about 4; their reference about 15-190 s a game): its
# digests cover fewer games, and its traces are checked by ``make golden`` (this script with --check), not by
# every ``make test``.
SLOW_DIGEST_GAMES, SLOW_QUICK_GAMES = 500, 20


def slow(name, lineup) -> bool:
    return lineup in getattr(game_configs(name), "GOLDEN_SLOW", ())


def configs():
    """``(game, preset, players or None, lineup)`` for every golden configuration."""
    import toolkit
    from toolkit.games import GAMES

    out = []
    for name, spec in GAMES.items():
        for preset in spec.Rules.PRESETS:
            rules = toolkit.rules(name, preset)
            field = type(rules).__dataclass_fields__.get("num_players")
            counts = [None]
            if field is not None:
                kind = field.metadata["param"].kind
                counts = list(range(kind.low, kind.high + 1))
            for players in counts:
                for lineup in LINEUPS:
                    out.append((name, preset, players, lineup))
    return out


def label(name, preset, players, lineup) -> str:
    return f"{preset}{'' if players is None else f'-{players}p'}-{lineup}"


def make_rules(name, preset, players):
    import toolkit

    return toolkit.rules(name, preset) if players is None else toolkit.rules(name, preset, num_players=players)


def digest_games(name, lineup) -> tuple:
    """(games in the quick prefix, games in the whole recorded run)."""
    return (SLOW_QUICK_GAMES, SLOW_DIGEST_GAMES) if slow(name, lineup) else (QUICK_GAMES, DIGEST_GAMES)


# ----------------------------------------------------------------------------- traces


def _text(value) -> str:
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        inner = ", ".join(_text(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"
    return repr(value)


RUN = 6  # this many or more consecutive draws from one decision stream are summarised on one line


class Trace(list):
    """The lines of a trace.  Draws from a seat's decision stream are held back: a run of ``RUN`` or
    more of them (a lookahead sampling its worlds) becomes one line with their count and digest."""

    def __init__(self):
        super().__init__()
        self.run: list = []  # (who, text) of the pending decision-stream draws

    def draw(self, who: str, text: str) -> None:
        if who == "chance":
            self.append(f"chance {text}")
            return
        if self.run and self.run[0][0] != who:
            self.flush()
        self.run.append((who, text))

    def append(self, line: str) -> None:
        self.flush()
        super().append(line)

    def decision(self, seat, kind, options, choice, info=None, text=None) -> None:
        """A decision point's line: ``seat S DP-k (info) [options] -> choice``."""
        text = text or _text
        extra = "" if info is None or info == -1 else f" ({info if isinstance(info, str) else _text(info)})"
        self.append(f"seat {seat} DP-{kind}{extra} [{', '.join(map(text, options))}] -> {text(choice)}")

    text = staticmethod(_text)

    def flush(self) -> None:
        run, self.run = self.run, []
        if len(run) >= RUN:
            values = hashlib.sha256("\n".join(text for _, text in run).encode()).hexdigest()[:16]
            super().append(f"{run[0][0]} {len(run)} values (sha256 {values})")
        else:
            super().extend(f"{who} {text}" for who, text in run)


@contextlib.contextmanager
def recording(module, lines: Trace):
    """Within the block, every ``Stream(seed, game, stream)`` that ``module`` (or ``core.policy``, which
    makes the players) creates logs its draws.

    Streams built from a raw state (a policy's private copies) and copies of a recorded stream
    do not log: only the game's own draws are part of the trace."""
    from toolkit.core.rng import CHANCE, Stream

    class Recorded(Stream):
        __slots__ = ("who",)

        def __init__(self, seed=0, game=0, stream=CHANCE, *, state=None):
            super().__init__(seed, game, stream, state=state)
            self.who = None if state is not None else ("chance" if stream == CHANCE else f"seat {stream - 1} draws")

        def below(self, n):
            value = super().below(n)
            if self.who is not None:
                lines.draw(self.who, f"below({n}) = {value}")
            return value

        def uniform(self):
            value = super().uniform()
            if self.who is not None:
                lines.draw(self.who, f"uniform = {value!r}")
            return value

        def __copy__(self):
            return Stream(state=self.state)

        def __deepcopy__(self, memo):
            return Stream(state=self.state)

    from toolkit.core import policy

    # the reference makes the chance stream; core.policy.players makes the seats' decision streams
    patched = [(m, m.Stream) for m in (module, policy)]
    for m, _ in patched:
        m.Stream = Recorded
    try:
        yield
    finally:
        for m, original in patched:
            m.Stream = original


def protocol_trace(reference, lines, rules, seed, game_index, policies) -> None:
    """A game played through its reference's protocol (``new_game``, ``advance``, ``choose``, ``apply``),
    one line per decision point (its ``info``, where the decision has one); a game's configs may define
    its own ``trace`` with the same arguments."""
    game = reference.new_game(rules, seed, game_index, policies)
    game.start()
    while (d := game.advance()) is not None:
        choice = game.choose(d)
        lines.decision(d.seat, d.kind, d.options, choice, getattr(d, "info", None))
        game.apply(d, choice)


def trace_game(name, rules, policies, seed, game_index) -> list:
    """The trace lines of one reference game (see the module docstring)."""
    import importlib

    from toolkit.games import GAMES

    reference = importlib.import_module(f"{GAMES[name].package}.reference")
    trace = getattr(game_configs(name), "trace", protocol_trace)
    lines = Trace()
    with recording(reference, lines):
        trace(reference, lines, rules, seed, game_index, policies)
    row = GAMES[name].play_reference(rules, seed, game_index, policies)  # the record, untraced
    for column, value in row.items():
        lines.append(f"record {column} = {_text(value)}")
    return list(lines)


def trace_text(name, preset, players, lineup) -> str:
    from toolkit.games import GAMES

    rules = make_rules(name, preset, players)
    policies = (lineup,) * GAMES[name].seats(rules)
    out = [f"# {name}, preset {preset}" + ("" if players is None else f", {players} players")
           + f", policies {','.join(policies)}, seed {SEED}"]
    for game_index in range(TRACE_GAMES[lineup]):
        out.append(f"## game {game_index}")
        out.extend(trace_game(name, rules, policies, SEED, game_index))
    return "\n".join(out) + "\n"


def trace_path(name, preset, players, lineup) -> Path:
    return HERE / name / f"{label(name, preset, players, lineup)}.txt"


# ----------------------------------------------------------------------------- digests


def recorded_columns(frame) -> list:
    """The columns the digests cover: every column of the frame but the derived ones (module docstring)."""
    from toolkit.core.results import DERIVED_COLUMNS

    return [c for c in frame.columns if c not in DERIVED_COLUMNS]


def column_digests(frame) -> dict:
    """SHA-256 of each recorded column's values (``repr`` per value, one per line)."""
    out = {}
    for column in recorded_columns(frame):
        values = frame[column].astype(object).tolist()
        out[column] = hashlib.sha256("\n".join(map(repr, values)).encode()).hexdigest()
    return out


def run_frame(name, preset, players, lineup, n_games):
    import toolkit

    rules = make_rules(name, preset, players)
    return toolkit.simulate(name, n_games=n_games, seed=SEED, rules=rules, policies=lineup, progress=False)


def digest_entry(name, preset, players, lineup, quick_only: bool = False) -> dict:
    """The digests of a configuration (``quick_only``: the prefix alone, which is all a test run plays)."""
    quick, full = digest_games(name, lineup)
    frame = run_frame(name, preset, players, lineup, quick if quick_only else full)
    entry = {"columns": recorded_columns(frame),
             "quick": {"games": quick, "sha256": column_digests(frame.iloc[:quick])}}
    if not quick_only:
        entry["full"] = {"games": full, "sha256": column_digests(frame)}
    return entry


def digest_key(name, preset, players, lineup) -> str:
    return f"{name}/{label(name, preset, players, lineup)}"


DIGESTS = HERE / "digests.json"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the files instead of writing them")
    parser.add_argument("--only", default="", help="comma-separated games")
    parser.add_argument("--skip-traces", action="store_true")
    parser.add_argument("--skip-digests", action="store_true")
    args = parser.parse_args(argv)
    only = {g for g in args.only.split(",") if g}
    digests = json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}
    differ = []
    for config in configs():
        name = config[0]
        if only and name not in only:
            continue
        start = time.monotonic()
        if not args.skip_traces:
            text, path = trace_text(*config), trace_path(*config)
            if args.check:
                if not path.exists() or path.read_text() != text:
                    differ.append(str(path.relative_to(ROOT)))
            else:
                path.parent.mkdir(exist_ok=True)
                path.write_text(text)
        if not args.skip_digests:
            entry, key = digest_entry(*config), digest_key(*config)
            if args.check:
                if digests.get(key) != entry:
                    differ.append(f"digest {key}")
            else:
                digests[key] = entry
        print(f"{digest_key(*config)}: {time.monotonic() - start:.1f} s", flush=True)
    if not args.check and not args.skip_digests:
        DIGESTS.write_text(json.dumps(dict(sorted(digests.items())), indent=1) + "\n")
    if differ:
        print("differ:", *differ, sep="\n  ")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

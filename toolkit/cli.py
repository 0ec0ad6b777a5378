"""The ``toolkit`` command: a thin shell over the Python API.

Every subcommand parses its arguments, calls the same function a notebook
would (:func:`toolkit.simulate`, :func:`toolkit.analysis.tournament.compare`,
:func:`toolkit.report.report`, ``spec.odds``, ``Rules.describe``) and prints
the result.  A bad value anywhere — rules, names, files — surfaces as the
``ValueError`` the API raises, printed as one line ``toolkit: error: …`` on
stderr with exit code 2 (the code argparse uses for usage errors).

::

    toolkit list
    toolkit rules valhalla [--preset alternative]
    toolkit simulate valhalla -n 1000000 --seed 1 --preset alternative \\
        --set extra_throw_enabled=false --policies greedy,random -o out.csv --summary
    toolkit simulate valhalla -n 10000000 -o out.parquet --scheduler tcp://host:8786
    toolkit odds valhalla [--preset P] [--set NAME=VALUE ...]
    toolkit compare valhalla --policies random,greedy,lookahead -n 100000 [-o table.csv]
    toolkit rules herrlof --preset publisher
    toolkit simulate herrlof -n 100000 --policies greedy,random --set hand_size=12
    toolkit odds herrlof --set special_indicator_means=redraw
    toolkit compare herrlof --policies random,greedy,lookahead:8 -n 1000
    toolkit rules halali
    toolkit simulate halali -n 100000 --policies greedy,random --set points=tree:4 \\
        --set capture_matrix=bear:fox/hunter --set exit_squares=d7:N,g4:E --set match_games=2
    toolkit odds halali
    toolkit compare halali --policies random,greedy,lookahead -n 1000
    toolkit rules attila --players 3
    toolkit simulate attila --players 3 -n 10000 --policies greedy,random,random
    toolkit simulate attila -n 100000 --set two_player_second_place_gap=none --players 2 -o attila2.csv
    toolkit odds attila --players 2
    toolkit compare attila --players 5 --policies random,greedy -n 2000
    toolkit rules walhalla --players 3
    toolkit simulate walhalla --players 3 -n 100000 --set peninsula_tiles=5,6,7
    toolkit simulate walhalla -n 10000 --preset variable --policies lookahead,greedy,greedy,greedy
    toolkit odds walhalla --preset variable
    toolkit compare walhalla --policies random,greedy -n 2000
    toolkit metrics valhalla -n 100000 --skill lookahead
    toolkit ladder valhalla -n 100 --plot ladder.png   # ratings and the design metrics, random .. mcts:1000
    toolkit ladder attila --players 3 --policies random,greedy,mcts:100 -n 50
    toolkit decisions valhalla -n 1000 --judge mcts:200:0:flat   # which decisions matter (forced, trivial, impact)
    toolkit paired pig --set second_player_bonus=2 -n 20000   # a change beside the standard rules, same seeds
    toolkit paired pig --set second_player_bonus=1 --until-settled --max-games 400000 [--tolerance 0.005]
    toolkit sweep valhalla --vary zero_runes_value=4,5,6 --vary extra_throw_enabled=true,false -n 100000
    toolkit sweep attila --players 2 --vary two_player_second_place_gap=none,0,2,4 -n 20000 --scheduler tcp://host:8786
    toolkit tune valhalla --preset alternative --target first_player_win_rate=0.5 \\
        --vary stick_rune_up_probability=0.2..0.8 --trials 40 -n 20000 -o best.json
    toolkit tune herrlof --policies lookahead --target skill_gap=max --vary effect_1 --vary effect_6 --trials 30 -n 2000
    toolkit report [GAME ...] [-n N] [--seed S] [--out DIR] [--html DIR]
    toolkit app [GAME] [--port 8866] [--no-browser] [-n N] [--pool 1]   # the dashboard (toolkit.viz.dashboard), Voila

Every command takes any registered game (``toolkit list``).  A policy name
may carry an argument (Herrlof's ``lookahead:16`` = 16 samples); the game
checks it (``spec.check_policy_name``).  A mapping rule is written
``KEY:VALUE,...`` and a set value inside it ``A/B`` (Halali's
``--set capture_matrix=bear:fox/hunter``); keys left out keep their defaults.

``--players N`` is ``--set num_players=N`` for a game played by a varying
number of players (Attila, 2..5; Walhalla, 3..4); a game for a fixed number
of players refuses it.  With three or more seats, ``compare`` seats each
tested policy in every seat in turn against a field of the other policy (see
:func:`toolkit.analysis.tournament.compare`).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from toolkit.core import jobs

PROG = "toolkit"


# --------------------------------------------------------------------- output helpers


def _print_table(df: pd.DataFrame, index: bool = False) -> None:
    """A plain-text table: text columns left-aligned, numbers right-aligned."""
    if index:
        df = df.reset_index()
    cells = [[str(c) for c in df.columns]]
    numeric = [pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c]) for c in df.columns]
    for row in df.itertuples(index=False):
        cells.append([_cell(v) for v in row])
    widths = [max(len(r[i]) for r in cells) for i in range(len(df.columns))]
    for k, row in enumerate(cells):
        parts = [v.rjust(w) if num and k else v.ljust(w) for v, w, num in zip(row, widths, numeric)]
        print("  ".join(parts).rstrip())


def _cell(value) -> str:
    if isinstance(value, (float, np.floating)):
        return "nan" if np.isnan(value) else f"{value:.4f}"
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    return str(value)


def _rate(rate, low, high) -> str:
    return f"{rate:.4f} [{low:.4f}, {high:.4f}]"


def _check_output(path: str | None, suffixes=(".csv", ".parquet"), name: str = "output") -> Path | None:
    """The output file ``path`` (None without one), refused before any game is played if it cannot be
    written: the suffix names the format, and the folder must exist (``toolkit.core.results.check_path``).
    Every command checks its files here, the same way."""
    from toolkit.core.results import check_path

    return None if path is None else check_path(path, suffixes, name)


def _player_count(spec, args) -> dict:
    """``{"num_players": N}`` from ``--players N`` (``{}`` without it), checked against the
    game and against a ``--set num_players=...`` given too."""
    from toolkit.core.params import params_of

    players = getattr(args, "players", None)
    if players is None:
        return {}
    fields = params_of(spec.Rules)
    if "num_players" not in fields:
        fixed = spec.seats(spec.Rules.preset("standard"))
        raise ValueError(f"--players {players} is not allowed: {spec.name} is for a fixed number of players "
                         f"({fixed})")
    kind = fields["num_players"].kind
    try:
        kind.check("num_players", players)
    except ValueError:
        raise ValueError(f"--players {players} is not allowed: {kind.allowed()}") from None
    for text in getattr(args, "set", None) or []:
        name, sep, raw = text.partition("=")
        if sep and name.strip() == "num_players" and kind.parse("num_players", raw) != players:
            raise ValueError(f"--players {players} is not allowed with --set {text.strip()}: "
                             f"give the number of players once")
    return {"num_players": players}


def _rules(spec, args):
    """The rules the options name: ``--preset`` (or a variant file, ``--rules FILE``) with ``--set`` and
    ``--players`` on top."""
    path = getattr(args, "rules", None)
    if path is None:
        return spec.Rules.from_assignments(args.set or [], preset=args.preset or "standard",
                                           **_player_count(spec, args))
    from toolkit.core import variants

    if args.preset:
        raise ValueError(f"--preset {args.preset} is not allowed with --rules {path}: the variant file names the "
                         f"preset it starts from")
    base = variants.load_rules(path, spec.name)
    changes = {**spec.Rules.parse_assignments(args.set or []), **_player_count(spec, args)}
    return base.replace(**changes) if changes else base


def _progress(args):
    return False if args.no_progress else None


def _rules_label(spec, rules, args) -> str:
    """The preset name, or the preset and the ``--set`` overrides that changed it; and the
    number of players for a game where it varies (``preset standard, 3 players``)."""
    name = rules.preset_name()
    varying = len(spec.seat_counts()) > 1
    path = getattr(args, "rules", None)
    if path is not None:
        from toolkit.core import variants

        shown = [a for a in args.set or [] if not (varying and a.partition("=")[0].strip() == "num_players")]
        label = f"variant {variants.read(path).name!r} ({path})" + (f" with {' '.join(shown)}" if shown else "")
    elif name:
        label = f"preset {name}"
    else:
        # the player count is shown on its own below
        shown = [a for a in args.set or [] if not (varying and a.partition("=")[0].strip() == "num_players")]
        label = f"preset {args.preset or 'standard'} with {' '.join(shown)}".rstrip()
    return f"{label}, {spec.seats(rules)} players" if varying else label


def _print_run_summary(spec, data, label: str) -> None:
    """Win rate per seat (Wilson 95%) and game length, from a DataFrame or a ``Summary``."""
    from toolkit.analysis.tournament import outcome_counts
    from toolkit.core import stats

    if isinstance(data, pd.DataFrame):
        attrs, n = data.attrs, len(data)
        rates = stats.win_rates(data)
        mean, se = stats.mean_se(data["turns"])
        # quantiles as the streaming summary computes them, so -o and no -o print the same numbers
        length = {"mean": mean, "se": se,
                  **stats.quantiles_from_histogram(np.bincount(data["turns"].to_numpy(np.int64)))}
    else:
        attrs, n = data.attrs, data.n_games
        rates = data.win_rates()
        length = data.length("turns")
    print(f"{spec.name}: {n:,} games, seed {attrs['seed']}, {label}, "
          f"policies {','.join(attrs['policies'])}")
    table = pd.DataFrame({
        "seat": rates["seat"],
        "policy": attrs["policies"],
        "wins": rates["wins"],
        "win rate [95% CI]": [_rate(r.win_rate, r.ci_low, r.ci_high) for r in rates.itertuples()],
    })
    print()
    _print_table(table)
    # draws (Herrlof's R-6.3) and games stopped at a turn limit: the seats' win rates leave them out;
    # a shared win (Attila's A-7) counts as a win for each tied seat
    no_winner, shared = outcome_counts(data)
    print(f"no winner: {no_winner:,} games, {_rate(*stats.wilson(no_winner, n))}")
    if shared or spec.shared_wins:
        print(f"shared wins: {shared:,} games, {_rate(*stats.wilson(shared, n))} (a win for each tied seat)")
    _print_places(spec, data)
    print()
    print(f"game length in turns (a turn is {spec.turn_word}):")
    # quantiles of integer data are integers
    _print_table(pd.DataFrame([{k: float(v) if k in ("mean", "se") else int(v) for k, v in length.items()}]))


def _ordinal(k: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ... for ``k >= 1``."""
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def _print_places(spec, data) -> None:
    """Win rate by place in the turn order (1st = the seat that moved first, then the seats after it in
    seat order), Wilson 95%, and the mean of the places: the fair share, less the games nobody won, more the
    shared wins.  The seat numbers hide a first player's edge when the start player is drawn at random."""
    from toolkit.analysis.metrics import seat_advantage

    if spec.first_mover is None:
        return
    places = seat_advantage(data).query("by == 'place'")
    print()
    print("win rate by place in the turn order (1st = the seat that moved first):")
    _print_table(pd.DataFrame({
        "place": [_ordinal(k + 1) for k in places["index"]],
        "wins": places["wins"],
        "win rate [95% CI]": [_rate(r.win_rate, r.ci_low, r.ci_high) for r in places.itertuples()],
    }))
    seats = len(places)
    print(f"mean of the places: {places['win_rate'].mean():.4f} (the fair share 1/{seats} = {1 / seats:.4f}, "
          f"less the games nobody won, more the shared wins)")


# --------------------------------------------------------------------- subcommands


def _players_text(spec) -> str:
    """``2`` for a fixed number of players, ``2-5`` for a varying one (``--players``)."""
    counts = spec.seat_counts()
    return str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"


def _report_games_text() -> str:
    """``default 200,000; Attila 50,000, Walhalla 50,000``: each game's ``report_games``."""
    from toolkit.core.game import DEFAULT_REPORT_GAMES
    from toolkit.games import GAMES

    fewer = [f"{spec.title} {spec.presentation.report_games:,}" for spec in GAMES.values()
             if spec.presentation.report_games != DEFAULT_REPORT_GAMES]
    return f"default {DEFAULT_REPORT_GAMES:,}" + (f"; {', '.join(fewer)}" if fewer else "")


def cmd_list(args) -> int:
    from toolkit.core.checklist import MODULES
    from toolkit.games import GAMES

    broken = GAMES.unavailable(parts=tuple(MODULES))
    rows = []
    for name in GAMES:
        if name in broken:
            continue
        spec = GAMES[name]
        rules = spec.Rules.preset("standard")
        rows.append({"game": name, "title": spec.title + (" (tutorial)" if spec.tutorial else ""),
                     "players": _players_text(spec),
                     "policies": ",".join(spec.policies),
                     "default policies": ",".join(spec.default_policies(rules)),
                     "description": spec.description})
    _print_table(pd.DataFrame(rows))
    tutorial = [row["game"] for row in rows if row["title"].endswith("(tutorial)")]
    if tutorial:
        print(f"\nThe tutorial game, {', '.join(tutorial)}, is the one to read first when adding a game "
              "(docs/adding-a-game.md).")
    for error in broken.values():
        print(f"\n{error}: its commands fail until it is mended (the other games are unaffected)",
              file=sys.stderr)
    return 1 if broken else 0


def cmd_check(args) -> int:
    from toolkit.core import checklist
    from toolkit.core.game import GameUnavailable
    from toolkit.games import GAMES

    names = args.games or list(GAMES)
    for name in names:
        if name not in GAMES:
            raise ValueError(f"game {name!r} is not registered: one of {', '.join(GAMES)}")
    failed = 0
    files = "" if checklist.checkout() else " (its files outside the package not checked: no repository checkout)"
    for name in names:
        try:
            found = checklist.problems(GAMES[name])
        except GameUnavailable as error:
            found = [str(error)]
        failed += bool(found)
        print(f"{name}: " + (f"everything a game supplies is there{files}" if not found else
                             f"{len(found)} missing (docs/adding-a-game.md)\n" + "\n".join(f"  - {p}" for p in found)))
    return 1 if failed else 0


def cmd_warm(args) -> int:
    from toolkit.core import ahead
    from toolkit.core.jit import CACHE_DIR
    from toolkit.games import GAMES

    for name in args.games:
        if name not in GAMES:
            raise ValueError(f"game {name!r} is not registered: one of {', '.join(GAMES)}")
    if args.jobs is not None and args.jobs < 1:
        raise ValueError(f"--jobs {args.jobs} is not allowed: an integer >= 1")
    games = args.games or list(GAMES)
    start = time.perf_counter()
    done = ahead.warm_up(games, search=args.search, jobs=args.jobs, progress=not args.no_progress)
    for game, copy, seconds in done:
        print(f"{game:<10} {copy:<9} {seconds:6.1f} s")
    copies = ("random, plain and searching copies (and lookahead ones where a game has them)" if args.search
              else "random and plain copies")
    print(f"{len(games)} games' {copies} ready in {CACHE_DIR} ({len(done)} compiled or loaded, "
          f"{time.perf_counter() - start:.0f} s)")
    return 0


def cmd_rules(args) -> int:
    from toolkit.core.params import params_of
    from toolkit.core.runner import get_spec

    spec = get_spec(args.game)
    Rules = spec.Rules
    players = _player_count(spec, args)
    if args.save is not None:
        return _save_variant(spec, args)
    if args.name is not None or args.note is not None:
        raise ValueError("--name and --note are not allowed without --save FILE: they are written into the file")
    table = pd.DataFrame(Rules.describe())[["name", "type", "default", "allowed", "doc"]]
    if args.preset or players or args.set or args.rules:
        # a column of the values these rules take: a preset's, a variant's, or the defaults for a player count
        chosen = _rules(spec, args)
        kinds = params_of(Rules)
        header = ", ".join(([args.preset] if args.preset else []) + ([args.rules] if args.rules else [])
                           + (["--set"] if args.set else []) + ([f"{args.players} players"] if players else []))
        table.insert(3, header, [kinds[n].kind.format(getattr(chosen, n)) for n in table["name"]])
    print(f"{spec.title} rules (rules_version {Rules.RULES_VERSION}):")
    print()
    _print_table(table)
    print()
    print("presets:")
    for name, settings in Rules.PRESETS.items():
        if args.preset and name != args.preset:
            continue
        shown = " ".join(f"{k}={params_of(Rules)[k].kind.format(params_of(Rules)[k].kind.check(k, v))}"
                         for k, v in settings.items())
        print(f"  {name}: {shown or '(the defaults)'}")
    return 0


def _save_variant(spec, args) -> int:
    """``toolkit rules GAME [--preset P | --rules FILE] [--set ...] --save OUT.toml``: the rules as a variant
    file (``toolkit.core.variants``), read back before it is said written."""
    from toolkit.core import variants

    rules = _rules(spec, args)
    start = args.preset or (variants.read(args.rules).preset if args.rules else None)
    out = variants.save(rules, args.save, args.name, args.note or "", start)  # refuses a bad name or folder
    variant = variants.read(out, spec.name)
    if variant.rules != rules:  # a file that does not give these rules back is never left said written
        raise RuntimeError(f"{out} does not read back as the rules saved: a defect, please report it")
    changes = " ".join(f"{k}={v}" for k, v in variant.changes().items()) or "(none)"
    print(f"wrote {out}: {spec.name} variant {variant.name!r}, preset {variant.preset}, changes {changes}")
    return 0


def _game_rules(args):
    """``(spec, rules)``: the game a command names and its rules (``_rules``: the preset, ``--rules FILE``,
    ``--set``, ``--players``)."""
    from toolkit.core.runner import get_spec

    spec = get_spec(args.game)
    return spec, _rules(spec, args)


def cmd_simulate(args) -> int:
    from toolkit.core.runner import simulate

    spec, rules = _game_rules(args)
    output = _check_output(args.output)
    if not args.scheduler:  # a long run says how long before it starts (the players' shipped speed, no probe)
        from toolkit.core import costs, runner

        policies = spec.check_policies(args.policies, rules)
        guess = runner.estimate(spec, rules, policies, args.n_games, threads=args.threads, probe=False)
        if guess.seconds > costs.ASK_ABOVE:
            print(f"{args.n_games:,} games of {','.join(policies)}: {guess.words()}; Ctrl-C stops it",
                  file=sys.stderr, flush=True)
    # the rows stream to the file chunk by chunk; the summary also counts shared wins (Attila)
    summary = simulate(spec, rules, args.n_games, seed=args.seed, policies=args.policies,
                       threads=args.threads, keep="summary", output=output, progress=_progress(args),
                       backend="dask" if args.scheduler else "local", scheduler=args.scheduler)
    if output:
        print(f"wrote {', '.join(summary.attrs['output'])}")
    if args.summary or not output:
        _print_run_summary(spec, summary, _rules_label(spec, rules, args))
    return 0


def _odds_frame(table) -> pd.DataFrame:
    """An extra odds table as a frame: a DataFrame as is, a ``{value: probability}`` dict as
    value / exact probability / float; exact fractions are shown as text (``1/16``)."""
    if isinstance(table, dict):
        return pd.DataFrame({"value": list(table), "probability": [str(p) for p in table.values()],
                             "p": [float(p) for p in table.values()]})
    frame = table.copy()
    for column in frame.columns:
        if frame[column].dtype == object:
            frame[column] = frame[column].map(str)
    return frame


def cmd_odds(args) -> int:
    spec, rules = _game_rules(args)
    print(f"{spec.title}: exact odds, {_rules_label(spec, rules, args)}")
    for title in spec.extra_odds:  # the game's per-outcome tables first (Valhalla's throws)
        print()
        print(f"{title}:")
        _print_table(_odds_frame(spec.extra_table(title)(rules)))
    print()
    _print_table(spec.odds(rules))
    return 0


def cmd_compare(args) -> int:
    from toolkit.analysis import tournament
    from toolkit.core import results

    spec, rules = _game_rules(args)
    output = _check_output(args.output)
    with jobs.bar(f"compare {spec.name}", enabled=not args.no_progress):  # one bar over every pairing
        table = tournament.compare(spec, args.policies, args.n_games, seed=args.seed, rules=rules,
                                   threads=args.threads, progress=_progress(args))
    if "tested_policy" in table.columns:
        _print_field_comparison(spec, table, args, _rules_label(spec, rules, args))
    else:
        _print_pair_comparison(spec, table, args, _rules_label(spec, rules, args))
    if len(set(table.iloc[:, 0])) > 1:
        _print_ratings(table)
    else:  # issue 51: one policy is self-play, which the tables above do not say on their own
        (alone,) = set(table.iloc[:, 0])
        other = next(p for p in spec.policies if p != alone)
        print(f"\none policy: {alone} against itself in every seat (self-play: the seats' edge, no comparison); "
              f"give two or more to compare them, e.g. --policies {alone},{other}")
    if output:
        written = results.save(table, output)
        print(f"\nwrote {', '.join(str(p) for p in written)}")
    return 0


def _matrix_cells(table) -> pd.DataFrame:
    from toolkit.analysis import tournament

    m = tournament.matrix(table)
    return pd.DataFrame({b: [_rate(m["win_rate"].loc[a, b], m["ci_low"].loc[a, b], m["ci_high"].loc[a, b])
                             for a in m.index] for b in m["win_rate"].columns}, index=m.index)


def _print_pair_comparison(spec, table, args, label) -> None:
    """A 2-seat comparison: every ordered pair, then the matrix pooled over both seatings."""
    print(f"{spec.name}: {args.n_games:,} games per ordered pair, seed {args.seed} for every pair, {label}")
    print()
    shown = pd.DataFrame({
        "seat 0": table["seat0_policy"],
        "seat 1": table["seat1_policy"],
        "games": table["games"],
        "seat 0 wins [95% CI]": [_rate(r.win_rate_0, r.ci_low_0, r.ci_high_0) for r in table.itertuples()],
        "seat 1 wins [95% CI]": [_rate(r.win_rate_1, r.ci_low_1, r.ci_high_1) for r in table.itertuples()],
        "no winner": table["no_winner"],
        "mean turns": table["mean_turns"],
    })
    if "shared_wins" in table.columns:  # a game where seats can share a win (2-player Attila)
        shown.insert(len(shown.columns) - 1, "shared wins", table["shared_wins"])
    _print_table(shown)
    print()
    print("row policy's win rate against the column policy, both seatings pooled [95% CI]:")
    _print_table(_matrix_cells(table), index=True)
    undecided = int(table["no_winner"].sum() + table.get("shared_wins", pd.Series(0)).sum())
    if undecided:
        # what an optional move is worth between equals: the share of the games someone won outright
        print()
        print(f"row policy's share of the decided games (a sole winner) against the column policy, both seatings "
              f"pooled [95% CI]; the {undecided:,} games without a sole winner left out:")
        _print_table(_decided_cells(table), index=True)


def _decided_cells(table) -> pd.DataFrame:
    """A's sole wins against B over the games of both seatings that had a sole winner, as matrix cells.
    In two seats a shared win is a win of both seats, so a seat's sole wins are its wins less the shared."""
    from toolkit.core import stats

    by_pair = table.set_index(["seat0_policy", "seat1_policy"])
    shared = by_pair["shared_wins"] if "shared_wins" in by_pair.columns else pd.Series(0, index=by_pair.index)
    decided = by_pair["games"] - by_pair["no_winner"] - shared
    names = list(dict.fromkeys(table["seat0_policy"]))
    cells = {}
    for b in names:
        column = []
        for a in names:
            # A in seat 0 against B, and A in seat 1 against B
            wins = by_pair.loc[(a, b), "wins_0"] - shared[(a, b)] + by_pair.loc[(b, a), "wins_1"] - shared[(b, a)]
            games = decided[(a, b)] + decided[(b, a)]
            column.append(_rate(*stats.wilson(int(wins), int(games))) if games else "nan")
        cells[b] = column
    return pd.DataFrame(cells, index=pd.Index(names, name="policy"))


def _print_field_comparison(spec, table, args, label) -> None:
    """Three or more seats: the tested policy in each seat in turn against a field of another."""
    seats = int(table["seats"].iloc[0])
    print(f"{spec.name}: {args.n_games:,} games per seating, {seats} seatings per ordered pair, "
          f"seed {args.seed} for every seating, {label}")
    print(f"the tested policy sits in seat 0..{seats - 1} in turn, the field policy in every other seat; "
          f"a fair share is 1/{seats} = {1 / seats:.4f}")
    print()
    shown = pd.DataFrame({"tested": table["tested_policy"], "field": table["field_policy"],
                          "games": table["games"] * table["seats"]})
    for seat in range(seats):
        shown[f"seat {seat} [95% CI]"] = [_rate(r[f"win_rate_{seat}"], r[f"ci_low_{seat}"], r[f"ci_high_{seat}"])
                                          for _, r in table.iterrows()]
    shown["all seats [95% CI]"] = [_rate(r.win_rate, r.ci_low, r.ci_high) for r in table.itertuples()]
    shown["no winner"] = table["no_winner"]
    shown["shared wins"] = table["shared_wins"]
    shown["mean turns"] = table["mean_turns"]
    _print_table(shown)
    print()
    print("the tested (row) policy's win rate against a field of the column policy, all seats pooled [95% CI]:")
    _print_table(_matrix_cells(table), index=True)


def _print_ratings(table) -> None:
    from toolkit.analysis.ratings import ratings

    r = ratings(table)
    print()
    if r.attrs["rating"] == "elo":
        print("Elo ratings (maximum likelihood over every pairing, mean 1500) [95% CI]:")
        shown = pd.DataFrame({"Elo [95% CI]": [f"{x.elo:.0f} [{x.ci_low:.0f}, {x.ci_high:.0f}]"
                                               for x in r.itertuples()],
                              "games": r["games"], "score": r["score"].map("{:.3f}".format)}, index=r.index)
    else:
        print("OpenSkill ratings (Plackett-Luce, every game of every seating) mu [mu -/+ 1.96 sigma]:")
        shown = pd.DataFrame({"mu [95% CI]": [f"{x.mu:.2f} [{x.ci_low:.2f}, {x.ci_high:.2f}]" for x in r.itertuples()],
                              "sigma": r["sigma"].map("{:.3f}".format), "ordinal": r["ordinal"].map("{:.2f}".format),
                              "games": r["games"]}, index=r.index)
    _print_table(shown, index=True)
    from toolkit.analysis.ratings import in_words

    print(in_words(r))


def cmd_ladder(args) -> int:
    from toolkit.analysis import strength

    spec, rules = _game_rules(args)
    output = _check_output(args.output)
    plot = _check_output(args.plot, (".png", ".svg", ".pdf"), "plot")
    with jobs.bar(f"ladder {spec.name}", enabled=not args.no_progress):  # one bar over every run
        table = strength.ladder(spec, rules, policies=args.policies, n_games=args.n_games,
                                selfplay_games=args.selfplay_games, seed=args.seed, threads=args.threads,
                                progress=_progress(args))
    kind = "Elo" if table.attrs["rating"] == "elo" else "OpenSkill mu"
    print(f"{spec.name}: strength ladder, {args.n_games:,} games per pairing for the ratings, "
          f"{table.attrs['selfplay_games']:,} self-play games per policy, seed {args.seed}, "
          f"{_rules_label(spec, rules, args)}; a turn is {spec.turn_word}")
    print()
    digits = {"rating": 0, "duration_turns": 1, "lead_changes": 2}
    shown = pd.DataFrame(index=table.index)
    for column, label in ((("rating", f"{kind} [95% CI]"),) + tuple((c, f"{t} [95% CI]") for c, t in strength.PLAY_METRICS)
                          + (("skill_gap", "skill gap vs random [95% CI]"),)):
        if column in table.columns and not table[column].isna().all():
            d = digits.get(column, 3)
            shown[label] = [f"{r[column]:.{d}f} [{r[column + '_low']:.{d}f}, {r[column + '_high']:.{d}f}]"
                            for _, r in table.iterrows()]
    _print_table(shown.T, index=True)
    print()
    print(table.attrs["answer"])
    if output:
        print(f"\nwrote {_save_table(table, output)}")
    if plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from toolkit.viz.plots import ladder_plot

        axes = ladder_plot(table)
        axes[0].figure.suptitle(f"{spec.title}: the design metrics by strength")
        axes[0].figure.tight_layout()
        plot.parent.mkdir(parents=True, exist_ok=True)
        axes[0].figure.savefig(plot, dpi=100)
        plt.close(axes[0].figure)
        print(f"wrote {plot}")
    return 0


def cmd_decisions(args) -> int:
    from toolkit.analysis import decisions

    spec, rules = _game_rules(args)
    output = _check_output(args.output)
    with jobs.bar(f"decisions {spec.name}", enabled=not args.no_progress):  # "games judged", the job's time left
        table = decisions.decisions(spec.name, rules, n_games=args.n_games, seed=args.seed, policies=args.policies,
                                    judge=args.judge, epsilon=args.epsilon, per_kind=args.per_kind,
                                    threads=args.threads, progress=False)
    print(f"{spec.name}: which decisions matter, {args.n_games:,} games played by {table.attrs['policies']}, "
          f"seed {args.seed}, {_rules_label(spec, rules, args)}; options rated by {args.judge} (two independent "
          f"searches a decision, up to {args.per_kind} decisions of each kind judged per game)")
    print()
    _print_table(decisions.shown(table, missing="-"), index=True)
    print()
    print(decisions.answer(table))
    if output:
        print(f"\nwrote {_save_table(table, output)}")
    return 0


def _metric_cell(value, low, high) -> str:
    if float(value).is_integer() and abs(value) >= 1000:
        return f"{int(value):,}"
    if not np.isfinite(low):
        return f"{value:.4g}"
    return f"{value:.4g} [{low:.4g}, {high:.4g}]"


def cmd_paired(args) -> int:
    """A change beside a baseline on common seeds: ``-n`` games, or batches until settled."""
    from toolkit.analysis import paired as pairing
    from toolkit.analysis import settle as settling
    from toolkit.core import results
    from toolkit.core.runner import simulate

    spec, rules = _game_rules(args)
    # the baseline plays the change's number of players unless its own rules name one (as settle() does)
    named = {a.partition("=")[0].strip() for a in args.baseline_set or []}
    players = {"num_players": rules.num_players} if hasattr(rules, "num_players") and "num_players" not in named \
        else {}
    baseline = spec.Rules.from_assignments(args.baseline_set or [], preset=args.baseline_preset or "standard",
                                           **players)
    baseline_policies = args.baseline_policies or args.policies
    baseline_seed = args.seed if args.baseline_seed is None else args.baseline_seed
    output = _check_output(args.output)
    if not args.until_settled:
        for name in ("tolerance", "max_games", "first_batch", "quantity"):
            if getattr(args, name) is not None:
                raise ValueError(f"--{name.replace('_', '-')} is for --until-settled: without it, -n games are "
                                 f"played and read once")
    changed = f" with {' '.join(args.baseline_set)}" if args.baseline_set else ""
    what = (f"{spec.name}: {_rules_label(spec, rules, args)}"
            f"{', policies ' + args.policies if args.policies else ''} against the baseline "
            f"(preset {args.baseline_preset or 'standard'}{changed}"
            f"{', policies ' + baseline_policies if baseline_policies else ''}), "
            + (f"seed {args.seed} for both: paired games" if baseline_seed == args.seed
               else f"seeds {args.seed} and {baseline_seed}: independent games"))
    if args.until_settled:
        quantities = "all" if args.quantity == ["all"] else args.quantity
        shown = []

        def on_look(table) -> None:  # what is compared, once its arguments have been accepted
            if not shown:
                print(what)
                shown.append(what)
            _print_look(table)

        with jobs.bar(f"paired {spec.name}", enabled=not args.no_progress):
            table = settling.settle(spec, rules, baseline, policies=args.policies,
                                    baseline_policies=baseline_policies, seed=args.seed, baseline_seed=baseline_seed,
                                    quantities=quantities, tolerance=_settle_tolerance(args.tolerance),
                                    max_games=settling.MAX_GAMES if args.max_games is None else args.max_games,
                                    first_batch=settling.FIRST_BATCH if args.first_batch is None else args.first_batch,
                                    threads=args.threads, progress=False,
                                    on_look=on_look)
        _print_sentences(table)
        print(f"{'settled' if table.attrs['settled'] else 'not settled'} after {table.attrs['games']:,} games a "
              f"side (looks at {', '.join(f'{n:,}' for n in table.attrs['looks'])})")
    else:
        with jobs.bar(f"paired {spec.name}", enabled=not args.no_progress):
            before = simulate(spec, baseline, args.n_games, seed=baseline_seed, policies=baseline_policies,
                              threads=args.threads, progress=_progress(args))
            now = simulate(spec, rules, args.n_games, seed=args.seed, policies=args.policies,
                           threads=args.threads, progress=_progress(args))
        table = pairing.before_after(before, now)
        print(what)
        _print_sentences(table)
        print(f"one look at {args.n_games:,} games a side, intervals {pairing.verdicts.level(table.attrs['together'])} "
              f"({'paired' if table.attrs['paired'] else 'unpaired'}); --until-settled plays on until each is "
              f"settled")
    if output:
        written = results.save(table, output)
        print(f"\nwrote {', '.join(str(p) for p in written)}")
    return 0


def _print_sentences(table) -> None:
    print()
    for sentence in table["sentence"]:
        print(sentence)
    print()


def _settle_tolerance(texts):
    """``--tolerance`` of ``paired``: ``None``, one bare number (every rate's), or ``NAME=T`` entries."""
    if not texts:
        return None
    named = [t for t in texts if "=" in t]
    if named and len(named) < len(texts) or not named and len(texts) > 1:
        raise ValueError(f"--tolerance {' '.join(texts)} is not allowed: one bare number (every rate's) or "
                         f"NAME=T entries, not both")
    out = _tolerances(texts) if named else None
    if out is None:
        try:
            return float(texts[0])
        except ValueError:
            raise ValueError(f"--tolerance {texts[0]!r} is not allowed: a number, or NAME=T") from None
    return out


def _print_look(table) -> None:
    """One look of ``--until-settled``: each quantity's difference, interval and verdict so far."""
    games = int(table["games"].max())
    parts = [f"{row.key} {row.difference:+.4f} [{row.ci_low:+.4f}, {row.ci_high:+.4f}] {row.verdict}"
             for row in table.itertuples()]
    print(f"  after {games:,} games a side: " + "; ".join(parts), flush=True)


def cmd_metrics(args) -> int:
    from toolkit.analysis import metrics
    from toolkit.core.runner import simulate

    spec, rules = _game_rules(args)
    policies = spec.check_policies(args.policies, rules)
    output = _check_output(args.output)
    summary = simulate(spec, rules, args.n_games, seed=args.seed, policies=policies, threads=args.threads,
                       keep="summary", progress=_progress(args))
    table = metrics.design_metrics(summary)
    print(f"{spec.name}: {args.n_games:,} games, seed {args.seed}, policies {','.join(policies)}, "
          f"{_rules_label(spec, rules, args)}; a turn is {spec.turn_word}")
    print()
    if args.skill:
        found = metrics.luck(spec, rules, args.skill_games, seed=args.seed, policies=(args.skill, "random"),
                             threads=args.threads, progress=_progress(args))
        gap = found  # the same runs give the skill gap
        table.loc["skill_gap"] = [gap["skill_gap"], gap["skill_gap_low"], gap["skill_gap_high"],
                                  f"{args.skill}'s win rate against random, each seat in turn, "
                                  f"minus the fair share 1/{gap['seats']}"]
        table.loc["luck"] = [found["luck"], found["luck_low"], found["luck_high"],
                             "share of games the same seat won when the policies were swapped"]
        table.loc["skill"] = [found["skill"], found["skill_low"], found["skill_high"],
                              "share of games the same policy won when the policies were swapped"]
    shown = pd.DataFrame({"value [95% CI]": [_metric_cell(r.value, r.ci_low, r.ci_high) for r in table.itertuples()],
                          "meaning": table["description"]}, index=table.index)
    _print_table(shown, index=True)
    if output:
        print(f"\nwrote {_save_table(table.rename_axis(table.index.name or 'metric'), output)}")
    return 0


def _save_table(table, path) -> str:
    """``table`` with its index as the first column, in the format ``path``'s suffix names (+ its JSON sidecar)."""
    from toolkit.core import results

    return ", ".join(str(p) for p in results.save(table.reset_index(), path))


def cmd_sweep(args) -> int:
    from toolkit.analysis import sweep

    spec, rules = _game_rules(args)
    vary = sweep.parse_vary(args.vary)
    output = _check_output(args.output)
    start = time.perf_counter()
    # one bar over every variant's games, its time left by their work (a Dask run keeps the sweep's own bar)
    with jobs.bar(f"sweep {spec.name}", enabled=not args.no_progress and not args.scheduler):
        table = sweep.sweep(spec, vary, args.n_games, seed=args.seed, rules=rules, policies=args.policies,
                            backend="dask" if args.scheduler else "local", scheduler=args.scheduler,
                            threads=args.threads, progress=False if not args.scheduler else _progress(args))
    seconds = time.perf_counter() - start
    print(f"{spec.name}: {len(table)} variants x {args.n_games:,} games, seed {args.seed} for every variant, "
          f"policies {table.attrs['policies']}, base {_rules_label(spec, rules, args)}, "
          f"{'dask at ' + args.scheduler if args.scheduler else 'local'} ({seconds:.1f} s)")
    print()
    shown = table[list(vary)].copy()
    seats = sum(1 for c in table.columns if c.startswith("win_rate_") and c.count("_") == 2)
    for seat in range(seats):
        shown[f"seat {seat} wins [95% CI]"] = [_rate(r[f"win_rate_{seat}"], r[f"win_rate_{seat}_low"],
                                                     r[f"win_rate_{seat}_high"]) for _, r in table.iterrows()]
    for name in ("first_player_advantage", "drawishness", "duration_turns", "branching_factor", "lead_changes",
                 "decisiveness"):
        if name in table.columns:
            shown[name] = [_metric_cell(r[name], r[f"{name}_low"], r[f"{name}_high"]) for _, r in table.iterrows()]
    _print_table(shown)
    if output:
        from toolkit.core import results

        written = results.save(table, output)
        print(f"\nwrote {', '.join(str(p) for p in written)}")
    return 0


def cmd_tune(args) -> int:
    from toolkit.analysis import tuning

    spec, rules = _game_rules(args)
    targets, weights = tuning.parse_targets(args.target)
    vary = tuning.parse_vary(args.vary)
    output = _check_output(args.output, (".json",))
    if args.until_settled:  # a target the games cannot settle is refused before the tuning's work
        from toolkit.analysis import settle as settling

        try:
            settling.check_quantities(spec, rules, list(targets))
        except ValueError as error:
            raise ValueError(f"--until-settled is not allowed with these targets: the check settles what each "
                             f"game holds, and {error}") from None
        for name, value in (("max_games", args.max_games), ("first_batch", args.first_batch)):
            if value is not None:
                settling._check_int(name, value, 2)
    else:
        for name in ("max_games", "first_batch"):
            if getattr(args, name) is not None:
                raise ValueError(f"--{name.replace('_', '-')} is for --until-settled: the check of the answer "
                                 f"played until settled")
    start = time.perf_counter()
    with jobs.bar(f"tune {spec.name}", enabled=not args.no_progress):  # one bar over every trial's games
        found = tuning.tune(spec, targets, vary, args.trials, args.n_games, seed=args.seed, weights=weights,
                            rules=rules, policies=args.policies, finalists=args.finalists,
                            final_games=args.final_games, final_seed=args.final_seed,
                            check_seed=args.check_seed, tolerances=_tolerances(args.tolerance),
                            skilled=args.skilled,
                            unskilled=args.unskilled, batch=args.batch, scheduler=args.scheduler,
                            threads=args.threads, progress=_progress(args))
    seconds = time.perf_counter() - start
    s = found.settings
    print(f"{spec.name}: {s['trials']} trials x {s['n_games']:,} games on seed {s['seed']} ({s['sampler']}, "
          f"batches of {s['batch']}), policies {s['policies']}, base {_rules_label(spec, rules, args)}, "
          f"{'dask at ' + args.scheduler if args.scheduler else 'local'} ({seconds:.1f} s)")
    print(f"searched: {'; '.join(d.describe() for d in found.dimensions)}")
    print(f"targets: {', '.join(t.describe() for t in found.targets)}"
          + (f" (skill gap: {s['skill'][0]} against {s['skill'][1]})" if s["skill"] else ""))
    complete = found.trials[found.trials["state"] == "complete"]
    refused = len(found.trials) - len(complete)
    repeats = int((complete["note"] == "repeated").sum())
    print(f"trials: {len(found.trials)}: {len(complete) - repeats} candidates played, {repeats} repeated an earlier "
          f"candidate (not played again), {refused} refused by the rules")
    print(f"\nthe {len(found.finalists)} best candidates played again: {s['final_games']:,} games on the fresh seed "
          f"{s['final_seed']}, nearest first")
    shown = found.finalists[["trial"] + [d.name for d in found.dimensions] + ["distance"]].copy()
    for t in found.targets:
        shown[f"{t.metric} [95% CI]"] = [_metric_cell(r[t.metric], r[f"{t.metric}_low"], r[f"{t.metric}_high"])
                                         for _, r in found.finalists.iterrows()]
    _print_table(shown)
    table = found.table()
    print(f"\nbase rules against the {'tuned' if found.proposed else 'nearest'} ones (the nearest finalist and the "
          f"base rules on seed {s['check_seed']}, which chose nothing)")
    _print_table(pd.DataFrame({
        "metric": table.index, "target": [f"{v:g}" if not isinstance(v, str) else v for v in table["target"]],
        "base [95% CI]": [_metric_cell(r.base, r.base_low, r.base_high) for r in table.itertuples()],
        "tuned [95% CI]": [_metric_cell(r.tuned, r.tuned_low, r.tuned_high) for r in table.itertuples()]}))
    importance = found.importance()
    if len(importance) > 1:
        print("\nparameter importance (each rule's share of how much the distance to the target varied over the "
              "trials: which rule moves the metric most over the ranges searched, not which one reaches the "
              "target): " + ", ".join(f"{k} {v:.2f}" for k, v in importance.items()))
    print(f"\n{found.answer()}")
    if output:
        import json

        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(json.dumps(found.to_json(), indent=1) + "\n")
        print(f"\nwrote {output}")
    base_flags = [f"--preset {args.preset}"] if args.preset else []
    base_flags += [f"--rules {args.rules}"] if args.rules else []
    base_flags += [f"--players {args.players}"] if args.players else []
    base_flags += [f"--policies {found.settings['policies']}"]  # the players the tuning ran with
    varied = {d.name for d in found.dimensions}
    base_flags += [f"--set {a}" for a in args.set or [] if a.partition("=")[0].strip() not in varied]
    if found.proposed:
        print(f"\nthe tuned rules: {PROG} simulate {spec.name} {' '.join(base_flags + found.set_flags())}")
    else:
        print(f"\nno change proposed; the base rules: {PROG} simulate {spec.name} {' '.join(base_flags)}")
    if args.until_settled:
        print(f"\nchecked until settled: the {'tuned' if found.proposed else 'nearest'} rules against the base rules "
              f"on seed {s['check_seed']}, paired games, each target's band the largest difference that counts as "
              f"none")
        with jobs.bar(f"tune {spec.name}: the check", enabled=not args.no_progress):
            table = found.check_until_settled(max_games=args.max_games, first_batch=args.first_batch,
                                              threads=args.threads, progress=False, on_look=_print_look)
        _print_sentences(table)
        print(f"{'settled' if table.attrs['settled'] else 'not settled'} after {table.attrs['games']:,} games a "
              f"side (looks at {', '.join(f'{n:,}' for n in table.attrs['looks'])})")
    return 0


def _tolerances(texts) -> dict:
    """``["METRIC=T", ...]`` (``tune --tolerance``) -> ``{metric: T}``."""
    out = {}
    for text in texts or []:
        metric, sep, raw = text.partition("=")
        try:
            value = float(raw)
        except ValueError:
            value = None
        if not sep or not metric.strip() or value is None:
            raise ValueError(f"--tolerance {text!r} is not allowed: write METRIC=T, a number > 0 in the metric's "
                             f"unit")
        out[metric.strip()] = value
    return out


def cmd_report(args) -> int:
    from toolkit.report import report

    from toolkit.core.results import check_folder

    check_folder(args.out, "out")
    if args.html:
        check_folder(args.html, "html", made=args.out)
    start = time.perf_counter()
    if args.baseline is not None and not args.rules:
        raise ValueError(f"--baseline {args.baseline} is not allowed without --rules FILE: the baseline is what each "
                         f"variant is set against")
    table = report(args.games or None, n_games=args.n_games, seed=args.seed, out_dir=args.out,
                   threads=args.threads, progress=_progress(args), html_dir=args.html, variants=args.rules or (),
                   baseline=args.baseline)
    shown = pd.DataFrame({"games": table["games"], "policies": table["policies"]}, index=table.index)
    for seat in range(sum(1 for c in table.columns if c.startswith("win_rate_"))):
        # a game with fewer seats than the widest one leaves its last cells empty
        shown[f"seat {seat} wins [95% CI]"] = [
            "" if pd.isna(r[f"win_rate_{seat}"]) else _rate(r[f"win_rate_{seat}"], r[f"ci_low_{seat}"],
                                                           r[f"ci_high_{seat}"]) for _, r in table.iterrows()]
    shown["no winner"] = table["no_winner"]
    if table["shared_wins"].any():
        shown["shared wins"] = table["shared_wins"]
    shown["mean turns"] = [f"{r.mean_turns:.1f} ± {r.se_turns:.1f}" for r in table.itertuples()]
    shown["median turns"] = table["median_turns"].map("{:g}".format)
    shown["seconds"] = table["seconds"].map("{:.1f}".format)
    _print_table(shown, index=True)
    print(f"\nwrote {args.out}/ ({time.perf_counter() - start:.1f} s)")
    return 0


# --------------------------------------------------------------------- parser


APP_PORT = 8866
APP_KERNEL = "toolkit-app"  # the kernel spec toolkit app writes: this interpreter, whatever else is registered
APP_MAX_GAMES = 100_000_000  # the games box's maximum (toolkit.viz.widgets)


def app_notebook(game: str, n_games: int | None = None, threads: int | None = None,
                 variants: str | None = None) -> "nbformat.NotebookNode":
    """The one-cell notebook ``toolkit app`` serves: :func:`toolkit.viz.dashboard.dashboard` for ``game``, its
    variants' folder ``variants`` (the server's notebook runs in a folder of its own, removed at the end)."""
    import nbformat

    options = "".join(f", {k}={v!r}" for k, v in (("n_games", n_games), ("threads", threads), ("variants", variants))
                      if v is not None)
    source = f"from toolkit.viz.dashboard import dashboard\n\ndashboard({game!r}{options})"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    notebook.metadata["kernelspec"] = {"name": APP_KERNEL, "display_name": "toolkit", "language": "python"}
    return notebook


def _check_port_free(port: int) -> None:
    import socket

    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as error:
            raise ValueError(f"--port {port} is not allowed: it is in use (another toolkit app?) or reserved "
                             f"({error.strerror}); choose another, e.g. --port {port + 1 if port < 65535 else 8866}"
                             ) from None


def _write_app_files(folder: Path, spec, args) -> Path:
    """The notebook and its kernel spec (``APP_KERNEL``: ``sys.executable``) in ``folder``."""
    import json

    import nbformat

    kernel = folder / "kernels" / APP_KERNEL
    kernel.mkdir(parents=True)
    (kernel / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "toolkit", "language": "python"}))
    notebook = folder / f"{spec.name}.ipynb"  # Voila shows the file name as the page title
    nbformat.write(app_notebook(spec.name, args.n_games, args.threads, str(Path(args.variants).resolve())), notebook)
    return notebook


def cmd_app(args) -> int:
    """Serve the dashboard with Voila until Ctrl-C (exit 0), SIGTERM or SIGHUP; Voila stops with it."""
    import os
    import secrets
    import shutil
    import signal
    import subprocess
    import tempfile

    from toolkit.core.runner import get_spec
    from toolkit.games import GAMES
    from toolkit.viz import serve

    spec = get_spec(args.game if args.game is not None else next(iter(GAMES)))
    if args.n_games is not None and not 1 <= args.n_games <= APP_MAX_GAMES:
        raise ValueError(f"-n {args.n_games} is not allowed: the games per run are 1..{APP_MAX_GAMES:,}")
    if args.threads is not None and args.threads < 1:
        raise ValueError(f"--threads {args.threads} is not allowed: at least 1")
    if not 1 <= args.port <= 65535:
        raise ValueError(f"--port {args.port} is not allowed: a port is 1..65535")
    if not Path(args.variants).is_dir():
        raise ValueError(f"--variants {args.variants} is not allowed: the folder does not exist (make it first)")
    if args.cull_disconnected < 1:
        raise ValueError(f"--cull-disconnected {args.cull_disconnected} is not allowed: at least 1 second")
    if args.cull_idle < 0:
        raise ValueError(f"--cull-idle {args.cull_idle} is not allowed: 0 (never) or more seconds")
    if not 0 <= args.pool <= 8:
        raise ValueError(f"--pool {args.pool} is not allowed: 0..8 preheated kernels (each holds about 400 MB)")
    try:
        import nbformat  # noqa: F401
        import voila  # noqa: F401
    except ImportError:
        raise ValueError("toolkit app needs Voila: pip install 'toolkit[app]' (make app installs it)") from None
    _check_port_free(args.port)
    token = secrets.token_urlsafe(16)  # other local users and other sites' pages cannot drive the kernel
    folder = Path(tempfile.mkdtemp(prefix="toolkit-app-"))
    voila = None

    def stop(signum, frame):  # SIGTERM/SIGHUP would end Python without `finally`: leave Voila and the folder
        raise KeyboardInterrupt

    # SIGINT too: a shell's background job starts with it ignored, and Ctrl-C must still stop the server
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        notebook = _write_app_files(folder, spec, args)
        argv = [sys.executable, "-m", "toolkit.viz.serve", str(notebook), f"--port={args.port}",
                "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", f"--Voila.token={token}", "--strip_sources=True",
                "--theme=light", *serve.voila_options(disconnected=args.cull_disconnected, idle=args.cull_idle,
                                                      pool=args.pool)]
        if args.no_browser:
            argv.append("--no-browser")
        env = {**os.environ, serve.FOLDER_VARIABLE: str(folder),
               "JUPYTER_PATH": os.pathsep.join(filter(None, [str(folder), os.environ.get("JUPYTER_PATH")]))}
        print(f"{PROG} app: {spec.title} at http://127.0.0.1:{args.port}/?token={token} (Ctrl-C stops it)",
              flush=True)
        # a session of its own: Ctrl-C in the terminal reaches toolkit app only, which stops Voila cleanly
        voila = subprocess.Popen(argv, cwd=folder, env=env, start_new_session=True)
        return voila.wait()
    except KeyboardInterrupt:
        return 0
    finally:
        for sig in previous:  # a second SIGTERM must not cut the clean-up short
            signal.signal(sig, signal.SIG_IGN)
        if voila is not None and voila.poll() is None:
            voila.terminate()  # Voila stops its loop and shuts its kernels down on SIGTERM
            try:
                voila.wait(timeout=15)
            except subprocess.TimeoutExpired:
                voila.kill()
                voila.wait()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        shutil.rmtree(folder, ignore_errors=True)


def _add_run_options(p, *, n_default):
    p.add_argument("-n", "--n-games", type=int, default=n_default, help=f"number of games (default {n_default:,})")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--threads", type=int, default=None, help="Numba threads (default: all)")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")


def _add_rules_options(p):
    p.add_argument("--preset", default=None, help="rule preset (default standard; see `toolkit rules GAME`)")
    p.add_argument("--rules", default=None, metavar="FILE",
                   help="the rules of a variant file (FILE.toml, written by `toolkit rules GAME ... --save FILE` or "
                        "the dashboard), or of a run's sidecar (X.csv.json, or the X.csv / X.parquet it describes); "
                        "--set and --players apply on top")
    p.add_argument("--set", action="append", metavar="NAME=VALUE",
                   help="override one rule parameter (repeatable), e.g. --set safe_squares=1,2,3,29, "
                        "--set consolation_range=3..5 or --set capture_matrix=bear:fox/hunter")
    _add_players_option(p)


def _add_players_option(p):
    p.add_argument("--players", type=int, default=None, metavar="N",
                   help="number of players, for a game where it varies (Attila: 2..5, Walhalla: 3..4); "
                        "the same as --set num_players=N")


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line, like every other error (``toolkit: error: …``, exit 2)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {PROG} --help)\n")


def _add_play_options(p, n_default: int) -> None:
    """The run's options, the rules' and the line-up (``--policies``, random in every seat by default)."""
    _add_run_options(p, n_default=n_default)
    _add_rules_options(p)
    p.add_argument("--policies", default=None, help="one policy per seat (default random in every seat)")


def _add_table_output(p, what: str = "") -> None:
    """``-o/--output FILE``: where a command writes its table, CSV or Parquet, with its sidecar."""
    table = f"the {what} table" if what else "the table"
    p.add_argument("-o", "--output", default=None,
                   help=f"write {table} to FILE.csv or FILE.parquet (+ its sidecar FILE.csv.json or FILE.parquet.json)")


def _game_command(sub, name: str, func, help: str) -> argparse.ArgumentParser:
    """The subcommand ``toolkit NAME GAME ...``, run by ``func``."""
    p = sub.add_parser(name, help=help)
    p.add_argument("game")
    p.set_defaults(func=func)
    return p


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Odds and rule-fairness simulators for board games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("list", help="registered games")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("check", help="check that a game supplies everything docs/adding-a-game.md lists")
    p.add_argument("games", nargs="*", metavar="GAME", help="games to check (default: every registered game)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("warm", help="compile the games' kernels into the cache ahead of their first use, "
                                    "games in parallel processes")
    p.add_argument("games", nargs="*", metavar="GAME", help="games (default: all)")
    p.add_argument("--search", action="store_true",
                   help="also the copies that play mcts seats (and a game's own lookahead, where it has one)")
    p.add_argument("--jobs", type=int, default=None, help="processes at once (default: one a core)")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.set_defaults(func=cmd_warm)

    p = _game_command(sub, "rules", cmd_rules, "a game's rule parameters and presets; with --save, write the rules "
                                               "as a variant file")
    _add_rules_options(p)
    p.add_argument("--save", default=None, metavar="FILE.toml",
                   help="write these rules (--preset or --rules, with --set and --players) as a variant file that "
                        "every command reads with --rules FILE")
    p.add_argument("--name", default=None, help="the variant's name in the file (default: the file's name)")
    p.add_argument("--note", default=None, help="a note kept in the file")

    p = _game_command(sub, "simulate", cmd_simulate, "simulate games; print a summary or write one row per game")
    _add_run_options(p, n_default=10_000)
    _add_rules_options(p)
    p.add_argument("--policies", default=None,
                   help="one policy per seat, comma-separated (one name fills all), e.g. greedy,lookahead:16")
    p.add_argument("-o", "--output", default=None,
                   help="write per-game rows to FILE.csv or FILE.parquet (+ its sidecar FILE.csv.json or FILE.parquet.json), streamed chunk by chunk")
    p.add_argument("--summary", action="store_true", help="print the summary also when writing -o")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run the games as tasks on this Dask scheduler (tcp://host:8786) instead of locally; "
                        "the same seed gives the same games")

    p = _game_command(sub, "odds", cmd_odds, "exact odds tables")
    _add_rules_options(p)

    p = _game_command(sub, "compare", cmd_compare, "every ordered pair of policies on common seeds (3+ seats: "
                                                   "each tested policy in every seat against a field of another)")
    p.add_argument("--policies", required=True, help="comma-separated policy names, e.g. random,greedy,lookahead:8")
    _add_run_options(p, n_default=10_000)
    _add_rules_options(p)
    _add_table_output(p, "pair")

    p = _game_command(sub, "metrics", cmd_metrics, "design metrics of one run: balance, completion, duration, "
                                                   "branching, lead changes, decisiveness (and with --skill: skill "
                                                   "gap and luck)")
    _add_play_options(p, n_default=100_000)
    p.add_argument("--skill", default=None, metavar="POLICY",
                   help="also measure the skill gap and luck of POLICY (e.g. lookahead) against random")
    p.add_argument("--skill-games", type=int, default=2_000, help="games per seating for --skill (default 2,000)")
    _add_table_output(p, "metrics")

    from toolkit.analysis.strength import LADDER

    p = _game_command(sub, "ladder", cmd_ladder, "the strength ladder: ratings of policies from weak to strong, "
                                                 "and the design metrics that depend on play (first-player edge, "
                                                 "duration, ...) at each")
    p.add_argument("--policies", default=",".join(LADDER),
                   help=f"the rungs, weakest first, comma-separated (default {','.join(LADDER)})")
    _add_run_options(p, n_default=100)
    p.add_argument("--selfplay-games", type=int, default=None,
                   help="games of each policy in every seat for the metrics (default: -n)")
    _add_rules_options(p)
    _add_table_output(p, "ladder")
    p.add_argument("--plot", default=None, metavar="FILE.png", help="draw the metrics against the rating")

    from toolkit.analysis.decisions import EPSILON, JUDGE, PER_KIND

    p = _game_command(sub, "decisions", cmd_decisions, "which decisions matter: per decision kind, how often it is "
                                                         "forced, how often trivial, and what a good choice gains over "
                                                         "a random one (judged by a tree search)")
    _add_run_options(p, n_default=1_000)
    _add_rules_options(p)
    p.add_argument("--policies", default=None, help="one policy per seat (default: the game's report line-up)")
    p.add_argument("--judge", default=JUDGE, help=f"the tree search that rates the options, its rollouts played to "
                                                  f"the end so that it rates in win probability: mcts:N:0[:flat] (default "
                                                  f"{JUDGE})")
    p.add_argument("--epsilon", type=float, default=EPSILON,
                   help=f"options within this win probability of the best are as good as it (default {EPSILON})")
    p.add_argument("--per-kind", type=int, default=PER_KIND,
                   help=f"decisions of each kind judged per game, a seeded sample (default {PER_KIND})")
    _add_table_output(p)

    p = _game_command(sub, "paired", cmd_paired, "a rule change or a line-up beside a baseline on common seeds: "
                                                 "the headline quantities' differences, from -n games or played "
                                                 "on until settled")
    _add_play_options(p, n_default=20_000)  # the change's games, rules and line-up
    p.add_argument("--baseline-preset", default=None, help="the baseline's preset (default standard)")
    p.add_argument("--baseline-set", action="append", metavar="NAME=VALUE",
                   help="a rule of the baseline (repeatable); the baseline is the standard preset without these")
    p.add_argument("--baseline-policies", default=None, help="the baseline's line-up (default: --policies)")
    p.add_argument("--baseline-seed", type=int, default=None,
                   help="the baseline's seed (default --seed: common seeds, paired games)")
    p.add_argument("--until-settled", action="store_true",
                   help="play batches on common seeds until each quantity's always-valid interval excludes 0 or "
                        "lies within the tolerance, or --max-games is spent; -n is then not used")
    p.add_argument("--tolerance", action="append", default=None, metavar="T|NAME=T",
                   help="with --until-settled: the largest change that counts as none: a number for every rate "
                        "(default 0.01), or NAME=T for one quantity in its unit (repeatable; a game length's "
                        "default is 1%% of the baseline's)")
    p.add_argument("--max-games", type=int, default=None,
                   help="with --until-settled: the budget, games a side (default 1,000,000)")
    p.add_argument("--first-batch", type=int, default=None,
                   help="with --until-settled: games a side at the first look (default 2,000); each later "
                        "batch is half the games so far")
    p.add_argument("--quantity", action="append", default=None, metavar="NAME",
                   help="with --until-settled: what to settle (repeatable): first_player_win_rate (default), "
                        "win_rate_0, ..., no_winner_share, duration_turns, a column of the games, or all")
    _add_table_output(p)

    p = _game_command(sub, "sweep", cmd_sweep, "a grid of rule variants, each simulated on the same seed, "
                                               "one row of metrics per variant")
    p.add_argument("--vary", action="append", required=True, metavar="NAME=V1,V2,...",
                   help="a rule parameter and its values (repeatable: the grid is every combination); "
                        "separate values with ; when a value holds commas")
    _add_play_options(p, n_default=100_000)
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run the variants on this Dask scheduler (tcp://host:8786) instead of locally")
    _add_table_output(p)

    p = _game_command(sub, "tune", cmd_tune, "search rule values for a design target (Optuna), then check the "
                                             "best on a fresh seed: the tuned rules with 95%% intervals beside the "
                                             "base rules")
    p.add_argument("--target", action="append", required=True, metavar="METRIC=VALUE[:WEIGHT]",
                   help="a design metric and its target, a number, max or min (repeatable: a weighted distance), "
                        "e.g. first_player_win_rate=0.5, duration_turns=45:2, skill_gap=max")
    p.add_argument("--vary", action="append", required=True, metavar="NAME=LOW..HIGH|V1,V2,...|NAME",
                   help="a rule parameter and its range or values (repeatable); NAME alone: its whole declared "
                        "domain (a boolean, a choice, a bounded number, a subset of choices); separate values with "
                        "; when a value holds commas")
    p.add_argument("--trials", type=int, default=40, help="trials of the search (default 40)")
    _add_play_options(p, n_default=20_000)
    p.add_argument("--finalists", type=int, default=3,
                   help="the best distinct candidates played again on a fresh seed (default 3)")
    p.add_argument("--final-games", type=int, default=None, help="their games (default 2.5 x -n)")
    p.add_argument("--final-seed", type=int, default=None, help="the finalists' fresh seed (default --seed + 1)")
    p.add_argument("--check-seed", type=int, default=None,
                   help="the seed the winner and the base rules are reported on (default --final-seed + 1)")
    p.add_argument("--tolerance", action="append", metavar="METRIC=T",
                   help="how near the base rules' whole interval must lie to a number target to meet it "
                        "(repeatable; default 0.01 for a share or a rate, 1%% of the target otherwise)")
    p.add_argument("--skilled", default="lookahead",
                   help="the skilled policy of a skill_gap target (default lookahead)")
    p.add_argument("--unskilled", default="random", help="its opponents (default random)")
    p.add_argument("--batch", type=int, default=None,
                   help="trials asked and told at a time (default 1 locally, 8 on Dask); the trials depend on "
                        "--seed and --batch only")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="play the trials on this Dask scheduler (tcp://host:8786), a batch side by side")
    p.add_argument("-o", "--output", default=None, metavar="best.json",
                   help="write the tuned rules, their metrics with intervals and every trial to FILE.json")
    p.add_argument("--until-settled", action="store_true",
                   help="then check the answer: the tuned rules against the base rules on the check seed, played "
                        "in batches until each target's difference is shown, or shown smaller than its band "
                        "(--tolerance), or --max-games is spent (always-valid 95%% intervals)")
    p.add_argument("--max-games", type=int, default=None,
                   help="with --until-settled: the check's budget, games a side (default 1,000,000)")
    p.add_argument("--first-batch", type=int, default=None,
                   help="with --until-settled: the check's games a side at its first look (default 2,000)")

    from toolkit.viz.serve import CULL_DISCONNECTED, CULL_IDLE, POOL

    p = sub.add_parser("app", help="the rule-tweaking dashboard in the browser (Voila, on 127.0.0.1)")
    p.add_argument("game", nargs="?", default=None,
                   help="the game it opens with (default: the first game toolkit list shows)")
    p.add_argument("--port", type=int, default=APP_PORT, help=f"port on 127.0.0.1 (default {APP_PORT})")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser; print the address only")
    p.add_argument("-n", "--n-games", type=int, default=None,
                   help="games per run (default: about a second of simulation with the default players, "
                        "e.g. 20,000 for Valhalla)")
    p.add_argument("--threads", type=int, default=None, help="Numba threads (default: all)")
    p.add_argument("--variants", default=".", metavar="DIR",
                   help="the folder the page saves rule variants in and opens them from (default: the current "
                        "folder)")
    p.add_argument("--cull-disconnected", type=int, default=CULL_DISCONNECTED, metavar="SECONDS",
                   help=f"a page's kernel ends this long after the page is closed or lost (default "
                        f"{CULL_DISCONNECTED})")
    p.add_argument("--cull-idle", type=int, default=CULL_IDLE, metavar="SECONDS",
                   help=f"an open page's kernel ends after this long without use; 0: never (default {CULL_IDLE})")
    p.add_argument("--pool", type=int, default=POOL,
                   help=f"kernels kept ready with the dashboard drawn, so that a page opens at once (default {POOL})")
    p.set_defaults(func=cmd_app)

    p = sub.add_parser("report", help="the main job: every game with its defaults -> CSV and PNG; with --rules, "
                                      "rule variants beside a baseline")
    p.add_argument("games", nargs="*", metavar="GAME", help="games (default: all, or none with --rules)")
    p.add_argument("--rules", action="append", default=None, metavar="FILE",
                   help="a rule variant file to report (repeatable): its page holds every section of a game's, "
                        "for its rules, and its headline quantities beside the baseline's on the same seed")
    p.add_argument("--baseline", default=None, metavar="PRESET|FILE",
                   help="what each --rules variant is set against: a preset of its game (default standard) or a "
                        "variant file of the same game")
    p.add_argument("-n", "--n-games", type=int, default=None, help=f"games per game ({_report_games_text()})")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--out", default="data/results", help="output directory (default data/results)")
    p.add_argument("--html", default=None, metavar="DIR",
                   help="also write one self-contained HTML designer report per game into DIR, "
                        "with its tables as CSV beside it")
    p.add_argument("--threads", type=int, default=None, help="Numba threads (default: all)")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.set_defaults(func=cmd_report)
    return parser


def main(argv=None) -> int:
    """Run the ``toolkit`` command; return the exit code (0 ok, 2 bad usage or value)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse already printed usage and the message
        return exit_.code if isinstance(exit_.code, int) else 2
    import signal

    from toolkit.core import results
    from toolkit.core.game import GameUnavailable

    def stopped(signum, frame):  # SIGTERM (kill, a job scheduler): stop as Ctrl-C stops, cleaning up
        raise KeyboardInterrupt

    previous = None
    if args.func is not cmd_app:  # the app has its own (it stops its server's children)
        try:
            previous = signal.signal(signal.SIGTERM, stopped)
        except ValueError:  # not the main thread: a signal cannot be caught there
            pass
    removed = len(results.REMOVED)
    try:
        return args.func(args)
    except BrokenPipeError:  # e.g. `toolkit rules valhalla | head`: the reader left, nothing to report
        sys.stderr.close()
        return 0
    except GameUnavailable as error:  # a broken game folder: its own commands fail, saying why
        print(f"{PROG}: error: {error} (`{PROG} check {error.game}` lists what it lacks)", file=sys.stderr)
        return 1
    except (ValueError, OSError) as error:
        # one line, no traceback: the message already names the parameter, value and what is allowed
        message = " ".join(str(error).split())
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        parts = results.REMOVED[removed:]
        said = f"; removed the unfinished {', '.join(map(str, parts))}" if parts else ""
        print(f"{PROG}: interrupted{said}", file=sys.stderr)
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())

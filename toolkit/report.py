"""The main job (``make run`` = ``toolkit report``): every game, default rules, default policies.

For each named game (default: all of ``toolkit.GAMES``: Valhalla, Herrlof,
Halali, Attila and Walhalla) :func:`report` simulates the standard preset with
the game's default policies (``spec.default_policies``: ``greedy`` in every
seat for all of them; Attila's and Walhalla's standard presets have 4 players)
and writes, under ``out_dir``:

``<game>.csv`` + ``<game>.csv.json``
    one row per game and its provenance sidecar (:func:`toolkit.core.results.save`);
``<game>_odds.csv``
    the game's exact odds table (``spec.odds(rules)``);
``<game>_win_rates.png``, ``<game>_length.png``
    win rate per seat with 95% Wilson intervals, and the distribution of the
    game length (turns) with its mean ± 1.96 SE and median
    (:mod:`toolkit.viz.plots`);
``summary.csv``
    the returned table: one row per game (a game with fewer seats than the
    widest one leaves the other seats' columns empty).

With ``html_dir=`` (``toolkit report --html DIR``) each game also gets a designer
report, written by :func:`designer_report` under ``html_dir``:

``<game>.html``
    one self-contained page (:mod:`toolkit.viz.report_html`): provenance, the
    rules, the design metrics of the default run with skill gap and luck, a
    tournament of ``random``, ``greedy`` and ``lookahead`` with its matrix and
    ratings, the strength ladder (``toolkit.analysis.ladder``), which decisions matter
    (``toolkit.analysis.decisions``), seat advantage, length and score distributions, exact odds;
``<game>_metrics.csv``, ``_tournament.csv``, ``_matrix.csv``, ``_ratings.csv``, ``_seat_advantage.csv``, ``_odds.csv``, ``_ladder.csv``, ``_decisions.csv``
    its tables (the matrix in long form: one row per policy and opponent).

The number of games is each game's ``GameSpec.presentation.report_games`` (200,000 unless
the game declares fewer: Attila's and Walhalla's greedy players are slow, see
their declarations); ``n_games=`` sets one number for every game.  The page's
own runs (tournament, skill gap, luck, ladder, decisions) use the smaller numbers of the game's
``GameSpec.presentation.page_runs``, capped at ``n_games`` when it is given.

Examples
--------
>>> import tempfile
>>> with tempfile.TemporaryDirectory() as out:
...     table = report(["valhalla"], n_games=1000, seed=1, out_dir=out, progress=False)
>>> table.index.tolist()
['valhalla']

Herrlof (a turn is one trick, so the lengths are multiples of ``hand_size``):

>>> with tempfile.TemporaryDirectory() as out:
...     table = report(["herrlof"], n_games=200, seed=1, out_dir=out, progress=False)
>>> table.loc["herrlof", "policies"], int(table.loc["herrlof", "games"])
('greedy,greedy', 200)

Halali (a turn is one action: a reveal, a move or an end-phase pass):

>>> with tempfile.TemporaryDirectory() as out:
...     table = report(["halali"], n_games=200, seed=1, out_dir=out, progress=False)
>>> table.loc["halali", "policies"], int(table.loc["halali", "games"])
('greedy,greedy', 200)

Attila (4 players; several seats can share a win, A-7):

>>> with tempfile.TemporaryDirectory() as out:
...     table = report(["attila"], n_games=200, seed=1, out_dir=out, progress=False)
>>> table.loc["attila", "policies"], int(table.loc["attila", "games"])
('greedy,greedy,greedy,greedy', 200)

Walhalla (4 players; a turn is one dragon drawn, at most 3 raids x 12 dragons):

>>> with tempfile.TemporaryDirectory() as out:
...     table = report(["walhalla"], n_games=200, seed=1, out_dir=out, progress=False)
>>> table.loc["walhalla", "policies"], int(table.loc["walhalla", "games"])
('greedy,greedy,greedy,greedy', 200)
>>> bool(table.loc["walhalla", "median_turns"] <= 36)
True
"""

from __future__ import annotations

import datetime
import platform
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from toolkit.analysis.tournament import outcome_counts
from toolkit.core import results, stats
from toolkit.core.game import DEFAULT_REPORT_GAMES
from toolkit.core.runner import get_spec, resolve_rules, simulate

DEFAULT_GAMES = DEFAULT_REPORT_GAMES  # a game that declares no ``report_games``
DEFAULT_PRESET = "standard"
# The designer pages' own runs: each game declares their sizes (``GameSpec.presentation.page_runs``, with its
# measured costs beside it).  The target is about as much time again as the default runs: under 3
# minutes for the whole `toolkit report --html` on the 2-core machine.  Lookahead dominates: a 4-player
# tournament of random, greedy and lookahead plays 9 lineups (lookahead in 1, 3 or 4 seats) x 4
# seatings, 36 lookahead seats per game per seating; a 2-player one 6.  A first choice (Valhalla 5,000,
# Herrlof 500, Halali 3,000, Attila 60 and skill 100, Walhalla 150) made the whole report take 312 s
# with the machine at load 4.2 (the job got 0.74 of a core; the default runs took 92 s there against
# 45 s on a free machine).  The sizes now declared cut the extra work by a quarter: the whole report
# took 213 s at load 4.0 (the job got 0.93 of a core): default runs 84 s, the pages' runs 119 s
# (Attila 44 + 8 s, Walhalla 26 + 6 s, Herrlof 10 + 8 s, Valhalla 7 + 3 s, Halali 6 + 2 s), plots and
# files 10 s; about 2 minutes on two free cores.  (These timings ran skill_gap and luck separately;
# luck's runs now give the skill gap too, which halves the skill/luck part.)
HTML_POLICIES = ("random", "greedy")  # + the game's page_runs.lookahead


def _save_figure(ax, path: Path) -> Path:
    import matplotlib.pyplot as plt

    from toolkit.viz.report_html import fit_titles

    fig = ax.figure
    fit_titles(fig)  # as the HTML pages: a long title is wrapped, never cut at the figure's edge
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path


def _policies_text(policies) -> str:
    """``greedy,random`` as such; one policy in three or more seats as ``greedy in all 4 seats``
    (four names do not fit in a plot title)."""
    if len(policies) > 2 and len(set(policies)) == 1:
        return f"{policies[0]} in all {len(policies)} seats"
    return ",".join(policies)


def _plots(df: pd.DataFrame, spec, out: Path) -> list[Path]:
    """Win rates per seat and the game-length histogram, as PNG files."""
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window (also safe on a headless runner)
    import matplotlib.pyplot as plt

    from toolkit.viz import plots

    policies = _policies_text(df.attrs.get("policies", []))
    written = []
    _, ax = plt.subplots(figsize=(5, 3.5))
    rates = stats.win_rates(df)
    plots.win_rates_bar(rates, ax=ax, fair=1 / len(rates),  # a shared win counts for each tied seat
                        title=f"{spec.title}: win rate per seat\n({len(df):,} games, {policies})")
    written.append(_save_figure(ax, out / f"{spec.name}_win_rates.png"))
    _, ax = plt.subplots(figsize=(6, 3.5))
    plots.length_histogram(df, "turns", ax=ax, title=f"{spec.title}: game length ({len(df):,} games, {policies})")
    ax.set_xlabel(f"turns (a turn is {spec.turn_word})")
    written.append(_save_figure(ax, out / f"{spec.name}_length.png"))
    return written


def _summary_row(df: pd.DataFrame, spec, seconds: float) -> dict:
    row = {"game": spec.name, "preset": df.attrs.get("preset"), "policies": ",".join(df.attrs["policies"]),
           "games": len(df)}
    for r in stats.win_rates(df).itertuples():
        row[f"win_rate_{r.seat}"] = r.win_rate
        row[f"ci_low_{r.seat}"] = r.ci_low
        row[f"ci_high_{r.seat}"] = r.ci_high
    # draws (Herrlof, Halali H-6.3) and unfinished games (Halali's aborted ones, H-7); a shared
    # win (Attila A-7, winner -1 too) counts as a win for each tied seat and is counted on its own
    row["no_winner"], row["shared_wins"] = outcome_counts(df)
    row["mean_turns"], row["se_turns"] = stats.mean_se(df["turns"])
    row["median_turns"] = float(np.median(df["turns"]))
    row["seconds"] = seconds
    return row


def html_sizes(game: str, n_games: int | None = None) -> dict:
    """The designer page's run sizes for ``game`` (its ``GameSpec.presentation.page_runs``), each capped at ``n_games``
    if given.

    >>> html_sizes("attila", n_games=60)["tournament"], html_sizes("attila")["ladder_policies"]
    (50, ('random', 'greedy', 'mcts:100'))
    """
    runs = get_spec(game).presentation.page_runs
    sizes = {"tournament": runs.tournament, "skill": runs.skill, "lookahead": runs.lookahead, "ladder": runs.ladder,
             "ladder_policies": tuple(runs.lookahead if p == "lookahead" else p for p in runs.ladder_policies),
             "decisions": runs.decisions}
    if n_games is not None:
        for key in ("tournament", "skill", "ladder", "decisions"):
            sizes[key] = min(sizes[key], int(n_games))
        sizes["decisions"] = max(2, sizes["decisions"])  # its intervals are counted over games: 2 at least
    return sizes


def _skill_and_luck_rows(gap: dict, chance: dict, n_games: int) -> pd.DataFrame:
    """Rows ``skill_gap``, ``luck`` and ``skill`` in the layout of ``design_metrics`` (plus ``run``)."""
    look, seats = gap["skilled"], gap["seats"]
    opponents = "random" if seats == 2 else f"a field of {seats - 1} random"
    decided_by_play = (f"{look} won in every seating" if seats > 2 else "the same policy won in both seatings")
    rows = {
        "skill_gap": (gap["skill_gap"], gap["skill_gap_low"], gap["skill_gap_high"],
                      f"win rate of {look} against {opponents} over every seating ({gap['win_rate']:.3f} in "
                      f"{gap['games'] * seats:,} games) minus the fair share 1/{seats} (0: play does not matter; "
                      f"at most {1 - 1 / seats:.3f})", "skill gap"),
        "luck": (chance["luck"], chance["luck_low"], chance["luck_high"],
                 f"share of the games with a sole winner in every seating ({chance['decided']:,} of "
                 f"{chance['games']:,}) that the same seat won in every seating, whichever policy sat there "
                 f"(decided by the chance stream)", "luck"),
        "skill": (chance["skill"], chance["skill_low"], chance["skill_high"],
                  f"share of those games decided by the policy, not the seat: {decided_by_play}", "luck"),
    }
    out = pd.DataFrame.from_dict(rows, orient="index", columns=["value", "ci_low", "ci_high", "description", "run"])
    out["run"] = [f"{name}: {look} vs random, {n_games:,} games per seating" for name in out["run"]]
    out.index.name = "metric"
    return out


def designer_report(spec, rules, df: pd.DataFrame, html_dir, *, n_games: int | None = None, seed: int = 0,
                    threads: int | None = None, progress: bool | None = None,
                    seconds: float | None = None, name: str | None = None, variant=None, versus=None,
                    baseline: str | None = None) -> Path:
    """Write the designer page ``html_dir/<name>.html`` (``name`` the game's by default) and its CSV tables.

    A variant's page (``variant``, a :class:`toolkit.core.variants.Variant`) says which variant it is, and
    ``versus`` (:func:`toolkit.analysis.paired.before_after` of the ``baseline``'s run and ``df``, on the same
    seed) becomes its section "Against the baseline"; its tuning starts from the variant's rules.

    Parameters
    ----------
    spec : GameSpec
    rules : Rules
        The rules of the default run (also used by the tournament, skill gap and luck runs).
    df : DataFrame
        The default run (one row per game, with its ``attrs``): design metrics, seat advantage and the
        length and score distributions come from it.
    html_dir : path
        Output directory (created if missing).
    n_games : int, optional
        Caps the page's own runs (``html_sizes``); default the game's ``page_runs``.
    seed, threads, progress
        As in :func:`report`; the tournament, skill gap and luck runs all use ``seed``.
    seconds : float, optional
        The default run's wall time, shown on the page.

    Returns
    -------
    Path
        The page.
    """
    import matplotlib
    import numba

    from toolkit import __version__
    from toolkit.analysis.decisions import decisions
    from toolkit.analysis.metrics import design_metrics, luck, seat_advantage
    from toolkit.analysis.ratings import ratings
    from toolkit.analysis.strength import ladder
    from toolkit.analysis.tournament import compare, matrix
    from toolkit.viz import report_html

    out = Path(html_dir)
    out.mkdir(parents=True, exist_ok=True)
    sizes = html_sizes(spec.name, n_games)
    look = sizes["lookahead"]
    seats = spec.seats(rules)
    field = seats > 2

    start = time.perf_counter()
    table = compare(spec, (*HTML_POLICIES, look), sizes["tournament"], seed=seed, rules=rules, threads=threads,
                    progress=progress)
    pairs, rated = matrix(table), ratings(table)
    tournament_seconds = time.perf_counter() - start
    start = time.perf_counter()
    chance = luck(spec, rules, sizes["skill"], seed=seed, policies=(look, "random"), threads=threads,
                  progress=progress)
    gap = {**chance, "skilled": look}  # luck's runs are skill_gap's runs: it reports the gap too
    skill_seconds = time.perf_counter() - start
    start = time.perf_counter()
    strength = ladder(spec, rules, policies=sizes["ladder_policies"], n_games=sizes["ladder"], seed=seed,
                      threads=threads, progress=progress)
    ladder_seconds = time.perf_counter() - start
    start = time.perf_counter()
    tuned = tune_question(spec, n_games=n_games, seed=seed, threads=threads, progress=progress,
                          rules=rules if variant is not None else None)
    tuning_seconds = time.perf_counter() - start
    start = time.perf_counter()
    judged = decisions(spec.name, rules, n_games=sizes["decisions"], seed=seed, policies=list(df.attrs["policies"]),
                       threads=threads, progress=progress)
    decisions_seconds = time.perf_counter() - start

    default_policies = _policies_text(list(df.attrs["policies"]))
    metrics = design_metrics(df)
    metrics["run"] = f"default: {default_policies}, {len(df):,} games"
    extra = _skill_and_luck_rows(gap, chance, sizes["skill"])
    metrics = pd.concat([metrics, extra[metrics.columns]])
    seat_table = seat_advantage(df)
    odds = spec.odds(rules)

    # the matrix in long form (one row per policy and opponent): one header row, unlike its column MultiIndex
    long_matrix = pairs.stack("opponent", future_stack=True).reset_index()
    files = {"metrics": metrics.reset_index(), "tournament": table,
             "matrix": long_matrix[["policy", "opponent", "win_rate", "ci_low", "ci_high", "wins", "games"]],
             "ratings": rated.reset_index(), "seat_advantage": seat_table, "odds": odds,
             "ladder": strength.reset_index(), "decisions": judged.reset_index()}
    if tuned is not None:
        files["tuning"] = tuned.trials
    if versus is not None:
        files["baseline"] = versus
    page_name = name or spec.name
    names = []
    for key, frame in files.items():
        file = f"{page_name}_{key}.csv"
        frame.to_csv(out / file, index=False)
        names.append(file)

    fmt = "ordered pair" if not field else "seating"
    provenance = {
        "game": f"{spec.title} ({spec.name}), {seats} seats",
        "generated": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "toolkit version": __version__,
        "rules version": str(type(rules).RULES_VERSION),
        "preset": str(rules.preset_name() or "custom"),
        **({"variant": f"{variant.name}: {variant.path or 'no file'}, the {variant.preset} preset with "
                       + (", ".join(f"{k}={x}" for k, x in variant.changes().items()) or "no change"),
            "baseline": baseline or "the standard preset"} if variant is not None else {}),
        "seed": str(seed),
        "default run": f"{default_policies}: {len(df):,} games"
                       + (f" in {seconds:.1f} s" if seconds is not None else ""),
        "tournament": f"{', '.join((*HTML_POLICIES, look))}: {sizes['tournament']:,} games per {fmt}"
                      + (f" ({seats} seatings per pairing, the tested policy in each seat against a field)"
                         if field else " (both seatings of every pairing)")
                      + f", in {tournament_seconds:.1f} s",
        "skill gap and luck": f"{look} against random: {sizes['skill']:,} games per seating, {seats} seatings, "
                              f"both from the same runs ({skill_seconds:.1f} s for both)",
        "strength ladder": f"{', '.join(sizes['ladder_policies'])}: {sizes['ladder']:,} games per {fmt} and of each "
                           f"policy's self-play, in {ladder_seconds:.1f} s",
        "which decisions matter": f"{default_policies}: {sizes['decisions']:,} games, options rated by "
                                  f"{judged.attrs['judge']}, in {decisions_seconds:.1f} s",
        "lookahead setting": _lookahead_note(spec, look),
        **({"tuning": f"the game's question: {tuned.settings['trials']} trials of {tuned.settings['n_games']:,} games, "
                      f"{len(tuned.finalists)} finalists played again on {tuned.settings['final_games']:,} games, "
                      f"in {tuning_seconds:.1f} s"} if tuned is not None else {}),
        "software": f"Python {platform.python_version()}, NumPy {np.__version__}, pandas {pd.__version__}, "
                    f"Numba {numba.__version__}, matplotlib {matplotlib.__version__}",
    }
    notes = {"metrics": f"Default run: {default_policies}, {len(df):,} games. Skill gap and luck: {look} against "
                        f"random, {sizes['skill']:,} games per seating, on seed {seed}.",
             "tournament": f"{sizes['tournament']:,} games per {fmt}, seed {seed}; lookahead plays as {look}.",
             "ladder": f"{sizes['ladder']:,} games per {fmt} for the ratings and {sizes['ladder']:,} self-play games "
                       f"per policy, seed {seed}: few, so the intervals are wide (toolkit ladder {spec.name} -n N "
                       f"plays more, up to mcts:1000).",
             "decisions": f"{sizes['decisions']:,} games played by {default_policies} (the default run's players), "
                          f"seed {seed}; in each game up to {judged.attrs['per_kind']} decisions of each kind with a "
                          f"choice, drawn at random, have their options rated twice by the judge "
                          f"({judged.attrs['judge']}), on independent streams (toolkit decisions {spec.name} -n N "
                          f"plays more)."}
    data = report_html.DesignerData(spec=spec, rules=rules, frame=df, metrics=metrics, tournament=table,
                                    matrix=pairs, ratings=rated, seat_advantage=seat_table, odds=odds,
                                    provenance=provenance, files=names, notes=notes, ladder=strength,
                                    tuning=tuned, tune_command=tune_command(spec, tuned, variant.path if variant is not None else None)
                                    if tuned else None,
                                    decisions=judged, variant=variant, versus=versus, baseline=baseline)
    page = out / f"{page_name}.html"
    page.write_text(report_html.render(data), encoding="utf-8")
    return page


def tune_question(spec, *, n_games: int | None = None, seed: int = 0, threads: int | None = None,
                  progress: bool | None = None, rules=None):
    """The game's own tuning question (``Presentation.tune_question``) answered as the overview notebook answers
    it at full size: its trials and games per trial (capped at ``n_games``), its players, from its preset (or
    from ``rules``, a variant's), on ``seed``; None for a game without a question."""
    from toolkit.analysis.tuning import tune

    q = spec.presentation.tune_question
    if q is None:
        return None
    games = q.n_games if n_games is None else min(q.n_games, int(n_games))
    start = {"rules": rules} if rules is not None else {"preset": q.preset}
    return tune(spec, q.targets, q.vary, trials=q.trials, n_games=games, seed=seed, policies=q.policies,
                skilled=q.skilled, unskilled=q.unskilled, threads=threads, progress=progress, **start)


def tune_command(spec, found, rules_file=None) -> str:
    """The ``toolkit tune`` command that plays the same search as ``found`` (:func:`tune_question`), from a
    variant file's rules where it started from them (``rules_file``)."""
    q, s = spec.presentation.tune_question, found.settings
    start = ["--rules", str(rules_file)] if rules_file is not None else (["--preset", q.preset] if q.preset else [])
    parts = ["toolkit", "tune", spec.name] + start
    parts += ["--policies", s["policies"]]
    for metric, goal in q.targets.items():
        parts += ["--target", f"{metric}={goal}"]
    if s.get("skill"):
        parts += ["--skilled", s["skill"][0], "--unskilled", s["skill"][1]]
    for name, values in q.vary.items():
        parts += ["--vary", name if values is None else f"{name}={values}"]
    parts += ["--trials", str(s["trials"]), "-n", str(s["n_games"]), "--seed", str(s["seed"])]
    return " ".join(parts)


def _lookahead_note(spec, look: str) -> str:
    """What the page's lookahead setting is, beside the policy's default number of samples."""
    if ":" not in look:
        return f"{look} (the policy takes no argument)"
    try:
        parsed = spec.policy_parser("lookahead") if spec.policy_parser is not None else None
    except ValueError:
        parsed = None
    default = parsed[1] if isinstance(parsed, tuple) and len(parsed) > 1 and isinstance(parsed[1], int) else None
    return (f"{look}: {look.split(':')[1]} samples per decision"
            + (f" (the policy's default is {default})" if default is not None else "")
            + ", fewer so that the page's runs stay short; the tournament rates this setting")


def _baseline_of(variant, baseline) -> tuple:
    """``(rules, label)`` a variant is set against: a preset at its number of players (default standard), or a
    variant file of the same game."""
    from toolkit.core import variants as variant_files

    spec = get_spec(variant.game)
    players = {"num_players": variant.rules.num_players} if hasattr(variant.rules, "num_players") else {}
    if baseline is None or (isinstance(baseline, str) and baseline in spec.Rules.PRESETS):
        preset = baseline or DEFAULT_PRESET
        return spec.Rules.preset(preset, **players), f"the {preset} preset"
    if isinstance(baseline, str) and not baseline.endswith(variant_files.SUFFIX) and not Path(baseline).exists():
        raise ValueError(f"baseline={baseline!r} is not allowed: a preset of {spec.name} "
                         f"({', '.join(spec.Rules.PRESETS)}) or a variant file")
    other = variant_files.read(baseline, variant.game)
    return other.rules, f"the variant {other.name} ({baseline})"


def report(games=None, n_games: int | None = None, seed: int = 0, out_dir="data/results",
           threads: int | None = None, progress: bool | None = None, html_dir=None, variants=(),
           baseline=None) -> pd.DataFrame:
    """Simulate every named game with its defaults, and every variant, and write CSV, odds and PNG files.

    Parameters
    ----------
    games : str or sequence of str, optional
        Game names (default: every registered game, or none when ``variants`` are given).
    variants : sequence of paths
        Rule variant files (:mod:`toolkit.core.variants`): each is reported as a game is, under the name
        ``<game>--<file's stem>``, with its default run beside the ``baseline``'s on the same seed and players
        (:func:`toolkit.analysis.paired.before_after`; on its page, "Against the baseline").
    baseline : str or path, optional
        What each variant is set against: a preset's name (default ``standard``) at the variant's number of
        players, or a variant file of the same game.
    n_games : int, optional
        Games per game (default each game's ``GameSpec.presentation.report_games``).
    seed : int
        Run seed.
    out_dir : path
        Output directory (created if missing).
    threads, progress
        Passed to :func:`~toolkit.core.runner.simulate`.
    html_dir : path, optional
        Also write one designer page per game there (:func:`designer_report`).

    Returns
    -------
    DataFrame
        Indexed by game: ``preset``, ``policies``, ``games``, ``win_rate_<seat>``
        with ``ci_low_<seat>`` / ``ci_high_<seat>`` (Wilson 95%; NaN for the
        seats a game does not have), ``no_winner`` (games without a winner:
        draws, games stopped at a limit), ``shared_wins`` (games won by several
        tied seats), ``mean_turns``, ``se_turns``, ``median_turns`` and
        ``seconds`` (simulation wall time).
        Also written to ``out_dir/summary.csv``.
    """
    from toolkit.analysis import paired
    from toolkit.core import variants as variant_files
    from toolkit.games import GAMES

    if isinstance(variants, (str, Path)):
        variants = [variants]
    if games is None:  # every game that loads: a broken one is left out, said on stderr (its own commands fail)
        broken = {} if variants else GAMES.unavailable()
        for error in broken.values():
            print(f"report: {error}; left out", file=sys.stderr)
        games = [] if variants else [g for g in GAMES if g not in broken]
    elif isinstance(games, str):
        games = [games]
    # every name, file and setting is checked before the first (long) run starts
    specs = [get_spec(g) for g in games]
    chosen = [variant_files.read(path) for path in variants]
    against = [_baseline_of(v, baseline) for v in chosen]
    names = [f"{v.game}--{Path(v.path).stem}" for v in chosen]
    if len(set(names)) < len(names):
        raise ValueError(f"variants={[str(v.path) for v in chosen]} is not allowed: two files of one game share a "
                         f"name ({', '.join(sorted({n for n in names if names.count(n) > 1}))})")
    if n_games is not None and (isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer))
                                or n_games < 1):
        raise ValueError(f"n_games={n_games!r} is not allowed: an integer >= 1")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if html_dir is not None:
        for spec in [*specs, *(get_spec(v.game) for v in chosen)]:  # the page's lookahead, before the runs
            spec.check_policy_name(html_sizes(spec.name, n_games)["lookahead"])
        Path(html_dir).mkdir(parents=True, exist_ok=True)

    rows, pages = [], []
    for spec in specs:
        rules = resolve_rules(spec, None, DEFAULT_PRESET)
        policies = spec.default_policies(rules)
        start = time.perf_counter()
        games = n_games if n_games is not None else spec.presentation.report_games
        df = simulate(spec, rules, games, seed=seed, policies=policies, threads=threads, keep="games",
                      progress=progress)
        seconds = time.perf_counter() - start
        results.save(df, out / f"{spec.name}.csv")
        spec.odds(rules).to_csv(out / f"{spec.name}_odds.csv", index=False)
        _plots(df, spec, out)
        rows.append(_summary_row(df, spec, seconds))
        if html_dir is not None:
            designer_report(spec, rules, df, html_dir, n_games=n_games, seed=seed, threads=threads,
                            progress=progress, seconds=seconds)
            pages.append((spec.title, f"{spec.name}.html", f"{spec.description}; the {DEFAULT_PRESET} preset, "
                                                           f"{_policies_text(policies)}, {len(df):,} games"))
    for variant, (base_rules, base_label), name in zip(chosen, against, names):
        spec = get_spec(variant.game)
        policies = spec.default_policies(variant.rules)
        games = n_games if n_games is not None else spec.presentation.report_games
        start = time.perf_counter()
        df = simulate(spec, variant.rules, games, seed=seed, policies=policies, threads=threads, keep="games",
                      progress=progress)
        seconds = time.perf_counter() - start
        base = simulate(spec, base_rules, games, seed=seed, policies=policies, threads=threads, keep="games",
                        progress=progress)
        versus = paired.before_after(base, df)
        results.save(df, out / f"{name}.csv")
        spec.odds(variant.rules).to_csv(out / f"{name}_odds.csv", index=False)
        rows.append({**_summary_row(df, spec, seconds), "game": name})
        if html_dir is not None:
            designer_report(spec, variant.rules, df, html_dir, n_games=n_games, seed=seed, threads=threads,
                            progress=progress, seconds=seconds, name=name, variant=variant, versus=versus,
                            baseline=base_label)
            moved = [r.quantity for r in versus.itertuples() if r.measurable]
            pages.append((f"{spec.title}: {variant.name}", f"{name}.html",
                          f"the variant {variant.path}, against {base_label}: "
                          + (f"moved {', '.join(moved)}" if moved else "no headline quantity moved measurably")
                          + f" ({len(df):,} games each)"))
    if html_dir is not None:
        from toolkit.viz import report_html

        written = {file for _, file, _ in pages}
        earlier = [entry for entry in report_html.index_entries(Path(html_dir)) if entry[1] not in written]
        (Path(html_dir) / "index.html").write_text(report_html.index_page(pages + earlier), encoding="utf-8")
    table = pd.DataFrame(rows).set_index("game")
    # a wider game's seat columns go beside the others' (the rows' first seen order would put them last)
    seats = max([spec.seats(resolve_rules(spec, None, DEFAULT_PRESET)) for spec in specs]
                + [get_spec(v.game).seats(v.rules) for v in chosen])
    seat_columns = [f"{stat}_{s}" for s in range(seats) for stat in ("win_rate", "ci_low", "ci_high")]
    first = ["preset", "policies", "games"]
    table = table[first + seat_columns + [c for c in table.columns if c not in first + seat_columns]]
    table.to_csv(out / "summary.csv")
    return table

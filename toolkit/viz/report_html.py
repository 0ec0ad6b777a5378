"""The designer report: one self-contained HTML page per game (``toolkit report --html DIR``).

:func:`toolkit.report.designer_report` runs the simulations and builds the
tables; this module only turns them into a page.  The page needs nothing but
itself: the CSS is inline, every plot is a PNG embedded as a base64
``data:`` URI, there is no script, no web font and no external link, so it
can be mailed, archived or opened offline.  Its sections:

1. provenance (date, toolkit and rules versions, seed, games, policies, run times);
2. the rules used: every parameter with its value, default, allowed values and basis;
3. the design metrics of the default run with 95% intervals, plus skill gap and luck;
4. the tournament of ``random``, ``greedy`` and ``lookahead``: its table, the
   "A against B" matrix (table and heat map) and the ratings;
5. the strength ladder: ratings of random .. mcts:100 and the play-dependent metrics at each strength;
6. seat advantage by seat number and by place in the turn order (table and plot);
7. the distributions of the game length and of each seat's final score;
8. the exact odds table.

Numbers are written with 3 decimals (ratings with 1) and an estimate with its
95% interval as ``0.512 [0.507, 0.517]``.

Examples
--------
>>> interval(0.5123, 0.5071, 0.5174)
'0.512 [0.507, 0.517]'
>>> interval(3.0, float("nan"), float("nan"))
'3.000'
"""

from __future__ import annotations

import base64
import dataclasses
import html
import io
import re
import textwrap
import urllib.parse

import numpy as np
import pandas as pd

from toolkit.analysis.ratings import in_words
from toolkit.analysis.strength import not_played
from toolkit.core.params import Bool, ByPlayers, Choice, params_of

CSS = """
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #222; margin: 0 auto;
       max-width: 1100px; padding: 1.5em 2em 3em; line-height: 1.45; }
h1 { margin-bottom: 0.1em; }
h2 { border-bottom: 2px solid #9ecae1; padding-bottom: 0.15em; margin-top: 2em; }
h3 { margin-top: 1.4em; }
p.lead { font-size: 1.1em; color: #555; margin-top: 0; }
nav ol { columns: 2; font-size: 0.95em; }
a { color: #2171b5; }
table { border-collapse: collapse; margin: 0.6em 0 1em; font-size: 0.88em;
        font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #d9d9d9; padding: 0.25em 0.6em; vertical-align: top; }
div.table { overflow-x: auto; max-width: 100%; }
td { overflow-wrap: normal; }
td.ci { white-space: nowrap; overflow-wrap: normal; }
th { background: #f0f4f8; text-align: left; }
tbody tr:nth-child(even) { background: #fafafa; }
figure { margin: 0.8em 0 1.2em; }
figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { font-size: 0.88em; color: #555; max-width: 60em; }
.note { font-size: 0.9em; color: #555; max-width: 60em; }
code { background: #f4f4f4; padding: 0 0.2em; }
"""

SECTIONS = (
    ("provenance", "Provenance"),
    ("rules", "Rules"),
    ("baseline", "Against the baseline"),  # a variant's page only (toolkit report --rules FILE)
    ("metrics", "Design metrics"),
    ("tournament", "Tournament"),
    ("ladder", "Strength ladder"),
    ("decisions", "Which decisions matter"),
    ("tuning", "Tuning: which rules fix it"),
    ("seats", "Seat advantage"),
    ("distributions", "Game length and scores"),
    ("odds", "Exact odds"),
)


@dataclasses.dataclass
class DesignerData:
    """Everything one page shows (built by :func:`toolkit.report.designer_report`)."""

    spec: object  # GameSpec
    rules: object  # the game's Rules instance
    frame: pd.DataFrame  # the default run, one row per game
    metrics: pd.DataFrame  # design metrics + skill gap and luck rows: value, ci_low, ci_high, description, run
    tournament: pd.DataFrame  # toolkit.analysis.tournament.compare
    matrix: pd.DataFrame  # toolkit.analysis.tournament.matrix
    ratings: pd.DataFrame  # toolkit.analysis.ratings.ratings
    seat_advantage: pd.DataFrame  # toolkit.analysis.metrics.seat_advantage
    odds: pd.DataFrame  # spec.odds(rules)
    provenance: dict  # label -> text, in page order
    files: list  # names of the CSV files written beside the page
    notes: dict = dataclasses.field(default_factory=dict)  # section id -> extra sentence
    ladder: pd.DataFrame | None = None  # toolkit.analysis.ladder
    tuning: object = None  # toolkit.analysis.tuning.Tuning of the game's question (toolkit.report.tune_question)
    tune_command: str | None = None  # the toolkit tune command that plays the same search
    decisions: pd.DataFrame | None = None  # toolkit.analysis.decisions.decisions of the default run's players
    variant: object = None  # toolkit.core.variants.Variant: a variant's page (toolkit report --rules FILE)
    versus: pd.DataFrame | None = None  # toolkit.analysis.paired.before_after(baseline run, default run)
    baseline: str | None = None  # what the variant is set against, in words


# ---------------------------------------------------------------------------------------- formatting


def _finite(x) -> bool:
    try:
        return bool(np.isfinite(float(x)))
    except (TypeError, ValueError):
        return False


def number(value, digits: int = 3) -> str:
    """``value`` with ``digits`` decimals; an en dash for a missing value."""
    return f"{float(value):.{digits}f}" if _finite(value) else "–"


def interval(value, low, high, digits: int = 3) -> str:
    """``0.512 [0.507, 0.517]``, or the value alone when no interval is defined."""
    if not _finite(value):
        return "–"
    if _finite(low) and _finite(high):
        return f"{float(value):.{digits}f} [{float(low):.{digits}f}, {float(high):.{digits}f}]"
    return number(value, digits)


def count(value) -> str:
    return f"{int(value):,}" if _finite(value) else "–"


_INTERVAL_CELL = re.compile(r"<td>([−+\-]?[\d,.]+%? \[[^<\]]*\])</td>")
_LONG_CELL = re.compile(r"<td>([^<]{30,})</td>")  # a long value: it may wrap after its commas too


def _table(frame: pd.DataFrame, index: bool = False) -> str:
    """A frame of formatted strings as an HTML table in a box of the column's width: a cell that is a value
    with its interval (``0.512 [0.507, 0.517]``) is kept on one line (class ``ci``), text wraps between
    words, never inside one (a name "random" was shown "rando m"), and a table still wider than the column
    scrolls inside its box (the CSS, tests/browser/test_report_layout.py)."""
    text = frame.to_html(index=index, escape=True, border=0, na_rep="–")
    text = _LONG_CELL.sub(lambda m: "<td>" + m.group(1).replace(",", ",<wbr>") + "</td>", text)
    return '<div class="table">' + _INTERVAL_CELL.sub(r'<td class="ci">\1</td>', text) + "</div>"


def _constrained(fig) -> bool:
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    return isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine)


def _lay_out(fig) -> None:
    """``tight_layout``, unless the figure has a layout engine of its own (``comparison_matrix``'s
    constrained layout), which runs only at a draw.  Without a draw a title's extent is still right
    across: its x is its Axes' centre (only its height waits for the draw)."""
    if _constrained(fig):
        fig.draw_without_rendering()
    else:
        fig.tight_layout()


def fit_titles(fig, pad: float = 0.05) -> None:
    """Lay ``fig`` out and wrap every Axes title that sticks out of it, until each lies inside.

    A title is centred on its Axes, not on the figure, so a long one (``Valhalla: win rate by seat and by
    place (200 games)`` over a 5-inch plot) is cut at the figure's edge; ``tight_layout`` makes room
    above it but not beside it.  ``pad`` is the margin kept free, in inches.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(figsize=(3, 2))
    >>> _ = ax.set_title("a title much too long for a figure only three inches wide")
    >>> fit_titles(fig)
    >>> ax.get_title().count("\\n") > 0
    True
    """
    _lay_out(fig)
    margin = pad * fig.dpi
    for _ in range(5):  # the width per character is estimated, so a line may need a second cut
        figure = fig.bbox
        wrapped = False
        for title in (ax.title for ax in fig.axes):
            box = title.get_window_extent()
            text = title.get_text()
            if not text or (box.x0 >= figure.x0 + margin and box.x1 <= figure.x1 - margin):
                continue
            centre = (box.x0 + box.x1) / 2
            room = 2 * (min(centre - figure.x0, figure.x1 - centre) - margin)
            lines = text.split("\n")
            longest = max(len(line) for line in lines)
            fits = int(longest * room / box.width)  # characters per line that fit
            parts = int(np.ceil(box.width / max(room, 1.0)))  # lines the longest one needs
            even = int(np.ceil(longest / parts)) + 2  # about as many characters on each of them
            shorter = "\n".join(textwrap.fill(line, max(8, min(fits, even))) for line in lines)
            if shorter != text:
                title.set_text(shorter)
                wrapped = True
        if not wrapped:
            return
        _lay_out(fig)


def figure_uri(fig) -> str:
    """A matplotlib figure as a ``data:image/png;base64,…`` URI (the figure is closed).

    The titles are wrapped to fit the figure (:func:`fit_titles`), and the image is cut to what is drawn
    (``bbox_inches="tight"``), so no legend or label beside the Axes is clipped either."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fit_titles(fig)
    if _constrained(fig):
        fig.savefig(buffer, format="png", dpi=100, bbox_inches="tight", pad_inches=0.1)
    else:  # the same box as "tight", but without the extra draw savefig makes to measure it
        box = fig.get_tightbbox(fig.canvas.get_renderer()).padded(0.1)
        fig.set_layout_engine(None)  # tight_layout leaves a placeholder engine, for which savefig draws once more
        fig.savefig(buffer, format="png", dpi=100, bbox_inches=box)
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _figure(uri: str, alt: str, caption: str) -> str:
    return (f'<figure><img alt="{html.escape(alt)}" src="{uri}">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")


def _p(text: str, cls: str = "note") -> str:
    return f'<p class="{cls}">{html.escape(text)}</p>'


# ---------------------------------------------------------------------------------------- tables


def rules_table(rules) -> pd.DataFrame:
    """One row per rule, in words: the rule (its declared meaning), the value these rules use and the default
    (a choice's declared words, yes or no), what is allowed, the basis, and the ``--set`` text that sets
    the value (the rule's name stays there, where a command line needs it)."""
    rows = []
    for name, param in params_of(type(rules)).items():
        kind, value, default = param.kind, getattr(rules, name), param.default
        rows.append({"rule": param.doc, "value": "none" if value is None else kind.word(value),
                     "default": ("; ".join(f"{k} players: {kind.word(v)}" for k, v in default.by_count.items())
                                 if isinstance(default, ByPlayers) else
                                 "none" if default is None else kind.word(kind.check(name, default))),
                     "allowed": _allowed_words(kind), "basis": param.basis,
                     "set with": f"{name}={'none' if value is None else kind.format(value)}"})
    return pd.DataFrame(rows)


def _allowed_words(kind) -> str:
    """What a rule allows, a choice's in its declared words."""
    if isinstance(kind, Bool):
        return "yes or no"
    words = getattr(kind, "words", ())
    if not words:
        return kind.allowed()
    return ("one of " if isinstance(kind, Choice) else "any of ") + ", ".join(words)


def digits_for(value) -> int:
    """Decimals for a metric: 3 for rates and small numbers, fewer for long means (1,624.2 turns)."""
    size = abs(float(value)) if _finite(value) else 0.0
    return 1 if size >= 100 else 2 if size >= 10 else 3


def metrics_table(metrics: pd.DataFrame) -> pd.DataFrame:
    """One row per metric, in words (:func:`toolkit.analysis.metrics.label`; the CSV keeps the names): its
    value with the 95% interval, the run it comes from, what it means."""
    from toolkit.analysis.metrics import label

    rows = []
    for name, r in metrics.iterrows():
        value = (count(r["value"]) if name == "games" else
                 interval(r["value"], r["ci_low"], r["ci_high"], digits_for(r["value"])))
        rows.append({"metric": label(name), "value [95% interval]": value, "run": str(r.get("run", "")).split(":")[0],
                     "description": r["description"]})
    return pd.DataFrame(rows)


def _turns(row) -> str:
    mean, se = float(row["mean_turns"]), float(row["se_turns"])
    return interval(mean, mean - 1.96 * se, mean + 1.96 * se, 1)


def tournament_table(table: pd.DataFrame) -> pd.DataFrame:
    """The compare table with each rate and its interval in one cell."""
    rows = []
    if "tested_policy" in table.columns:  # three or more seats: a tested policy against a field
        seats = int(table["seats"].iloc[0])
        for _, r in table.iterrows():
            row = {"tested": r["tested_policy"], "field": r["field_policy"], "games per seating": count(r["games"])}
            for s in range(seats):
                row[f"win rate in seat {s}"] = interval(r[f"win_rate_{s}"], r[f"ci_low_{s}"], r[f"ci_high_{s}"])
            row["win rate, all seatings"] = interval(r["win_rate"], r["ci_low"], r["ci_high"])
            row["no winner"] = count(r["no_winner"])
            row["shared wins"] = count(r["shared_wins"])
            row["mean turns"] = _turns(r)
            rows.append(row)
    else:
        for _, r in table.iterrows():
            row = {"seat 0": r["seat0_policy"], "seat 1": r["seat1_policy"], "games": count(r["games"])}
            for s in (0, 1):
                row[f"seat {s} win rate"] = interval(r[f"win_rate_{s}"], r[f"ci_low_{s}"], r[f"ci_high_{s}"])
            row["no winner"] = count(r["no_winner"])
            if "shared_wins" in table.columns:
                row["shared wins"] = count(r["shared_wins"])
            row["mean turns"] = _turns(r)
            rows.append(row)
    return pd.DataFrame(rows)


def matrix_table(m: pd.DataFrame) -> pd.DataFrame:
    """Row policy's win rate against the column policy, ``rate [low, high]`` per cell."""
    rates, low, high = m["win_rate"], m["ci_low"], m["ci_high"]
    cells = pd.DataFrame({b: [interval(rates.loc[a, b], low.loc[a, b], high.loc[a, b]) for a in rates.index]
                          for b in rates.columns}, index=rates.index)
    cells.index.name = "policy (row) against →"
    return cells


def ratings_table(r: pd.DataFrame) -> pd.DataFrame:
    out = pd.DataFrame({"policy": r.index})
    if r.attrs.get("rating") == "openskill" or "mu" in r.columns:
        out["mu [mu ± 1.96 sigma]"] = [interval(a, b, c, 1) for a, b, c in zip(r["mu"], r["ci_low"], r["ci_high"])]
        out["sigma"] = [number(x, 2) for x in r["sigma"]]
        out["ordinal (mu − 3 sigma)"] = [number(x, 1) for x in r["ordinal"]]
    else:
        out["Elo [95% interval]"] = [interval(a, b, c, 1) for a, b, c in zip(r["elo"], r["ci_low"], r["ci_high"])]
        out["se"] = [number(x, 1) for x in r["se"]]
        out["score"] = [number(x) for x in r["score"]]
    out["games"] = [count(x) for x in r["games"]]
    return out


def ladder_table(t: pd.DataFrame) -> pd.DataFrame:
    """The strength ladder, one column per policy (weakest first), one row per measure."""
    from toolkit.analysis.strength import PLAY_METRICS

    kind = "Elo rating" if t.attrs.get("rating", "elo") == "elo" else "skill μ (OpenSkill)"
    rows = {}
    for column, label in ((("rating", kind),) + PLAY_METRICS + (("skill_gap", "skill gap vs random"),)):
        if column in t.columns and not t[column].isna().all():
            digits = {"rating": 0, "duration_turns": 1, "lead_changes": 2}.get(column, 3)
            rows[label] = [interval(a, b, c, digits) for a, b, c in
                           zip(t[column], t[column + "_low"], t[column + "_high"])]
    out = pd.DataFrame.from_dict(rows, orient="index", columns=list(t.index))
    out.index.name = "measure [95% interval]"
    return out


def tuning_table(t) -> pd.DataFrame:
    """The targeted metrics (in words) under the base and the tuned rules on the fresh seed, ``value [low,
    high]``."""
    from toolkit.analysis.metrics import label

    table = t.table()
    out = pd.DataFrame({"target": [v if isinstance(v, str) else f"{v:g}" for v in table["target"]],
                        "base rules [95% interval]": [interval(*v, 4) for v in
                                                      zip(table["base"], table["base_low"], table["base_high"])],
                        "tuned rules [95% interval]": [interval(*v, 4) for v in
                                                       zip(table["tuned"], table["tuned_low"], table["tuned_high"])]},
                       index=[label(m) for m in table.index])  # in words; the CSV keeps the names
    out.index.name = "metric"
    return out


def seat_table(sa: pd.DataFrame, seat_names=None) -> pd.DataFrame:
    """Wins by seat and by place; a seat the game names (Halali's Blue) shows its name: "seat 0 (Blue)"."""
    def label(by, k):
        if by == "seat":
            name = seat_names[k] if seat_names is not None and k < len(seat_names) else f"seat {k}"
            return f"seat {k}" + ("" if name == f"seat {k}" else f" ({name})")
        return f"place {k}" + (" (moved first)" if k == 0 else "")

    return pd.DataFrame({"by": sa["by"], "seat / place": [label(b, k) for b, k in zip(sa["by"], sa["index"])],
                         "wins": [count(x) for x in sa["wins"]], "games": [count(x) for x in sa["games"]],
                         "win rate [95% interval]": [interval(*v) for v in
                                                     zip(sa["win_rate"], sa["ci_low"], sa["ci_high"])],
                         "fair share": [number(x) for x in sa["fair"]]})


def odds_table(odds: pd.DataFrame) -> pd.DataFrame:
    """The exact odds as text: every number to six decimals, one format down the column (``.6g`` wrote
    Herrlof's small probabilities as ``5.8e-05`` beside ``0.142857``)."""
    out = odds.copy()
    for column in out.columns:
        if pd.api.types.is_float_dtype(out[column]):
            out[column] = [f"{x:.6f}" if _finite(x) else "–" for x in out[column]]
        else:
            out[column] = out[column].astype(str)
    return out


# ---------------------------------------------------------------------------------------- plots


def _plots(d: DesignerData) -> dict:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from toolkit.viz import plots

    spec = d.spec
    seats = spec.seats(d.rules)
    n = len(d.frame)
    names = [spec.seat_name(d.rules, s) for s in range(seats)]
    uris = {}

    # the matrix makes its own figure, grown until every cell holds its value and interval at 9 points;
    # with 3+ seats white is the fair share 1 / seats, so "as good as the field" reads as neutral
    ax = plots.comparison_matrix(d.matrix, xlabel="opponent (column)" if seats == 2 else "field policy (column)",
                                 ylabel="policy (row)" if seats == 2 else "tested policy (row)",
                                 title=f"{spec.title}: row policy's win rate" + ("" if seats == 2 else
                                                                                   f" (fair share 1/{seats})"),
                                 centre=0.5 if seats == 2 else 1.0 / seats)
    uris["matrix"] = figure_uri(ax.figure)

    fig, ax = plt.subplots(figsize=(max(5.0, 1.3 * seats + 2.5), 3.6))
    plots.seat_advantage_bar(d.seat_advantage, ax=ax,
                             title=f"{spec.title}: win rate by seat and by place ({n:,} games)", seat_names=names)
    uris["seats"] = figure_uri(fig)

    fig, ax = plt.subplots(figsize=(7, 3.6))
    plots.length_histogram(d.frame, "turns", ax=ax, title=f"{spec.title}: game length ({n:,} games)")
    ax.set_xlabel(f"turns (a turn is {spec.turn_word})")
    uris["length"] = figure_uri(fig)

    fig, ax = plt.subplots(figsize=(7, 3.6))
    plots.score_distribution(d.frame, ax=ax, title=f"{spec.title}: final score per seat ({n:,} games)",
                             seat_names=names)
    uris["scores"] = figure_uri(fig)

    if d.ladder is not None:
        axes = plots.ladder_plot(d.ladder)
        axes[0].figure.suptitle(f"{spec.title}: the design metrics by strength")
        uris["ladder"] = figure_uri(axes[0].figure)
    if d.tuning is not None:
        uris["tuning"] = figure_uri(plots.tuning_figure(d.tuning, title=f"{spec.title}: the tuning question"))
    if d.decisions is not None:
        rated = decisions_rated(d.decisions)
        if len(rated):
            fig, ax = plt.subplots(figsize=(7, 1.2 + 0.55 * len(rated)))
            plots.interval_plot(rated, ax=ax, label="label", value="impact", low="impact_low", high="impact_high",
                                xlabel="impact: win probability of the judge's pick minus a random choice's",
                                ylabel="decision kind", digits=3,
                                title=f"{spec.title}: what choosing well is worth ({d.decisions.attrs['n_games']:,} "
                                      f"games)")
            uris["decisions"] = figure_uri(fig)
    return uris


def decisions_rated(table: pd.DataFrame) -> pd.DataFrame:
    """The kinds of a decisions table that came up with a choice, labelled for the impact plot (the kinds
    too rare for the sentences to judge marked with their number of games)."""
    from toolkit.analysis.decisions import MIN_GAMES

    rated = table[(table["with_choice"] > 0) & table["impact"].notna()].reset_index()
    rated["label"] = [f"{r.kind} (in {r.games} games: too few)" if r.games < MIN_GAMES else r.kind
                      for r in rated.itertuples()]
    return rated


# ---------------------------------------------------------------------------------------- the page


def versus_parts(versus: pd.DataFrame, baseline: str | None) -> list:
    """The variant against its baseline: what was played, each headline quantity's sentence
    (:func:`toolkit.analysis.paired.before_after`: a change stated only where its interval, held together
    with the others', excludes zero) and the table of both values and the paired difference."""
    m = len(versus)
    level = "95%" if m == 1 else f"95%, {m} together"
    how = ("on the same seeds (game g of both runs starts from the same deal and throws), paired"
           if versus.attrs.get("paired") else "on different seeds, unpaired")
    shown = pd.DataFrame({
        "quantity": versus["quantity"],
        "baseline": [number(x) for x in versus["baseline"]],
        "this variant": [number(x) for x in versus["now"]],
        f"difference [{level}]": [f"{r.difference:+.3f} [{r.ci_low:+.3f}, {r.ci_high:+.3f}]"
                                  for r in versus.itertuples()]})
    return [_p(f"The variant's default run beside the baseline's, {baseline or 'the standard preset'}: the same "
               f"players and {versus.attrs.get('games', 0):,} games each, {how}. The intervals of the "
               f"{m} quantities hold together at 95%, so each change stated is a claim of its own."),
            "<ul>" + "".join(f"<li>{html.escape(x)}</li>" for x in versus["sentence"]) + "</ul>",
            _table(shown)]


def index_entries(folder) -> list:
    """The pages an earlier report left in ``folder`` (``(name, file, what)``, by file name): each page's title
    and its first lead sentence, so that the index of a later run into the same folder still links them."""
    from pathlib import Path

    entries = []
    for path in sorted(Path(folder).glob("*.html")):
        if path.name == "index.html":
            continue
        text = path.read_text(encoding="utf-8")
        title = re.search(r"<title>(.*?)</title>", text, flags=re.S)
        lead = re.search(r'<p class="lead">(.*?)</p>', text, flags=re.S)
        entries.append((html.unescape(title.group(1)) if title else path.stem, path.name,
                        html.unescape(lead.group(1)) if lead else ""))
    return entries


def index_page(entries: list, title: str = "Designer reports") -> str:
    """One page linking every page of a report: ``entries`` of ``(name, file, what)``, a row each."""
    rows = "".join(f'<tr><td><a href="{urllib.parse.quote(file)}">{html.escape(name)}</a></td>'
                   f"<td>{html.escape(what)}</td></tr>" for name, file, what in entries)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
            f"<h1>{html.escape(title)}</h1>\n<table><thead><tr><th>page</th><th>what it holds</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>\n</body>\n</html>\n")


def render(d: DesignerData) -> str:
    """The whole page as one HTML string."""
    spec = d.spec
    seats = spec.seats(d.rules)
    uris = _plots(d)
    v = d.variant
    title = f"{spec.title}: designer report" + (f" of the variant {v.name}" if v is not None else "")
    body = [f"<h1>{html.escape(title)}</h1>", _p(spec.description, "lead")]
    if v is not None:
        changes = ", ".join(f"{k}={x}" for k, x in v.changes().items()) or "none"
        body.append(_p(f"The variant {v.name} ({v.path.name if v.path else 'no file'}): the {v.preset} preset with "
                       f"{changes}." + (f" Its note: {v.note}" if v.note else ""), "lead"))
    shown_sections = [(k, n) for k, n in SECTIONS if k != "baseline" or d.versus is not None]
    body.append("<nav><strong>Contents</strong><ol>" + "".join(
        f'<li><a href="#{key}">{html.escape(name)}</a></li>' for key, name in shown_sections) + "</ol></nav>")

    def section(key, *parts):
        name = dict(SECTIONS)[key]
        number_ = [k for k, _ in shown_sections].index(key) + 1
        note = _p(d.notes[key]) if key in d.notes else ""  # the run sizes, first under the heading
        body.append(f'<section id="{key}"><h2>{number_}. {html.escape(name)}</h2>{note}' + "".join(parts)
                    + "</section>")

    prov = pd.DataFrame({"item": list(d.provenance), "value": [str(v) for v in d.provenance.values()]})
    section("provenance", '<table class="kv">' + "".join(
        f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in zip(prov["item"], prov["value"]))
        + "</table>")

    changed = d.rules.changed()
    section("rules",
            _p("Every parameter of these rules: the value used, the declared default, what is allowed, and its "
               "basis ([seed]: stated in the seed summary; [src:ID]: stated in a public source, listed in the "
               "game's spec; [inf]: an inference from sourced facts; [design]: our own design choice)."
               + (f" Changed from the defaults: {', '.join(changed)}." if changed else
                  " All values are the defaults.")),
            _table(rules_table(d.rules)))

    if d.versus is not None:
        section("baseline", *versus_parts(d.versus, d.baseline))

    section("metrics",
            _p("Design metrics of the default run (its policies in every seat), then the skill gap and the "
               "luck measure from runs of their own. Each estimate with its 95% interval (Wilson for shares, "
               "mean ± 1.96 standard errors for means, the delta method for the branching factor); a metric "
               "without an interval is a derived number."),
            _table(metrics_table(d.metrics)))

    if seats == 2:
        about = ("Every ordered pair of policies on one seed (common random numbers: game g of every pairing "
                 "sees the same throws, deals and draws). The matrix pools both seatings of a pairing: the row "
                 "policy's wins against the column policy over both; with one winner in every game a cell and its "
                 "mirror sum to 1 and the diagonal is 0.5.")
        rating = "Elo ratings (Bradley–Terry, maximum likelihood over every pairing; mean 1500)."
    else:
        about = (f"The {seats}-player field format: the tested policy sits in each seat in turn while the field "
                 f"policy fills the other {seats - 1} seats, every seating on one seed (common random numbers). "
                 f"The matrix gives the tested policy's (row) win rate over all seatings against a field of the "
                 f"column policy; the fair share is 1/{seats} = {1 / seats:.3f}, and a shared win counts for every "
                 f"tied seat.")
        rating = ("OpenSkill ratings (Plackett–Luce; each game rated as a free-for-all of one player per seat, "
                  "ranked by the ordinal mu − 3 sigma).")
    section("tournament", _p(about),
            "<h3>Matrix: row policy against column policy</h3>",
            _table(matrix_table(d.matrix), index=True),
            _figure(uris["matrix"], "tournament heat map",
                    "Win rate of the row policy against the column policy, with its 95% Wilson interval."
                    + ("" if seats == 2 else f" White is the fair share 1/{seats}.")),
            "<h3>Ratings</h3>", _p(rating, "note"),
            _p(in_words(d.ratings), "lead"),
            _table(ratings_table(d.ratings)),
            "<h3>Every pairing</h3>",
            _table(tournament_table(d.tournament)))

    if d.ladder is not None:
        section("ladder",
                _p("The policies from weak to strong: their rating from one tournament of every pairing, and the "
                   "design metrics that depend on play, each from a run of the policy in every seat (self-play), "
                   "with 95% intervals. The skill gap is the policy's win rate against random over every seating "
                   "minus the fair share. Does the first player's edge grow as players improve?"),
                _p(d.ladder.attrs.get("answer", ""), "lead"),
                _p(not_played(d.ladder.index, spec.name), "note"),
                _table(ladder_table(d.ladder), index=True),
                _figure(uris["ladder"], "strength ladder",
                        "Each metric against the rating (Elo with two seats, OpenSkill μ with more); whiskers: "
                        "95% intervals both ways."))

    if d.decisions is not None:
        from toolkit.analysis.decisions import answer, shown

        epsilon = d.decisions.attrs.get("epsilon")
        section("decisions",
                _p(f"For each decision kind of the spec's §5: how often it is forced (one option), how often it is "
                   f"trivial (every option's estimated win probability within {epsilon} of the best's), and its "
                   f"impact: the win probability of the option the judge picks minus the mean over all options, "
                   f"which is what a uniformly random choice gets, a decision and summed over a game's decisions of "
                   f"the kind (a sum of gains, not a probability: it can exceed 1; a designer is told a kind could "
                   f"be cut only when this sum is surely small, and that it may be busywork when it is small by the "
                   f"estimate alone). The estimates are tree searches' for the deciding seat; 95% intervals are "
                   f"counted over games, not decisions (a game's decisions are not independent), except that a "
                   f"share's interval is never narrower than the pooled decisions' Wilson interval."),
                _p(answer(d.decisions), "lead"),
                _table(shown(d.decisions), index=True),
                _figure(uris["decisions"], "decision impact",
                        "Each kind's impact with its 95% interval; dashed: no gain over a random choice.")
                if "decisions" in uris else "")

    question = spec.presentation.tune_question
    if d.tuning is None:
        section("tuning", _p(f"{spec.title} declares no tuning question (GameSpec.presentation.tune_question); "
                             f"toolkit tune {spec.name} searches any rules for any target."))
    else:
        t = d.tuning
        s = t.settings
        start = ([f"--rules {d.variant.path}"] if d.variant is not None and d.variant.path is not None
                 else [f"--preset {question.preset}"] if question.preset else [])
        flags = start + [f"--policies {s['policies']}"]
        simulate = f"toolkit simulate {spec.name} {' '.join(flags + (t.set_flags() if t.proposed else []))}"
        section("tuning",
                _p("The designer's question this game declares, answered by toolkit tune: Optuna's TPE sampler "
                   "searches the rules named, every trial on the same seed (common random numbers); the three "
                   "nearest candidates are played again on a fresh seed, the nearest of them and the base rules on "
                   "a third (the seed that chose the winner would flatter it), and a change is proposed only where "
                   "it moves the metric beyond the base rules' 95% interval; the base rules meet a target only when "
                   "their whole interval lies within its tolerance."),
                f'<p class="lead">{html.escape(question.question)}</p>',
                _p(f"Found ({s['trials']} trials of {s['n_games']:,} games): {t.answer()}", "lead"),
                "<p>" + ("The tuned rules" if t.proposed else "The base rules") + ": <code>"
                + html.escape(simulate) + "</code>. The search again: <code>" + html.escape(d.tune_command or "")
                + "</code>.</p>",
                _table(tuning_table(t), index=True),
                _figure(uris["tuning"], "the tuning",
                        "Left: each trial's distance to the target and the best so far (the finalists ringed); "
                        "middle: each rule's share of how much that distance varied over the trials (which rule "
                        "moves the metric most, not which one reaches the target); right: the targeted metric "
                        "under the base and the tuned rules on the third seed, with 95% intervals."))

    fair = 1.0 / seats
    section("seats",
            _p(f"Win rates of the default run by seat number and by place in the turn order (place 0 moved "
               f"first), with 95% Wilson intervals. The fair share is 1/{seats} = {fair:.3f}; draws lower the "
               f"rates' sum below 1, shared wins raise it."),
            _table(seat_table(d.seat_advantage, [spec.seat_name(d.rules, s) for s in range(seats)])),
            _figure(uris["seats"], "seat advantage", f"Bars: win rate; whiskers: 95% interval; dashed line: the "
                                                     f"fair share {fair:.3f}."))

    section("distributions",
            "<h3>Game length</h3>",
            _figure(uris["length"], "game length distribution",
                    f"Share of games per number of turns (a turn is {spec.turn_word}); the shaded band is the "
                    f"mean's 95% interval, the dotted line the median."),
            "<h3>Final scores</h3>",
            _figure(uris["scores"], "score distribution",
                    "Share of games per final score (score_<seat>), one bar or outline per seat; dashed: each "
                    "seat's mean."))

    section("odds", _p("Exact numbers for these rules, by enumeration (no simulation)."),
            _table(odds_table(d.odds)))

    body.append("<footer>" + '<p class="note">Tables beside this page, as CSV: ' + ", ".join(
        f'<a href="{urllib.parse.quote(name)}">{html.escape(name)}</a>' for name in d.files) + ".</p></footer>")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
            + "\n".join(body) + "\n</body>\n</html>\n")

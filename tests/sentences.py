"""Reading the toolkit's sentences back against the numbers beside them (issue 50, point 2): one checker per
kind of sentence, shared by the runs of ``tests/analysis/test_sentences_agree.py`` (every game and player
count), the report's pages (``tests/test_effect_report_tables.py``) and the dashboard's jobs
(``tests/test_effect_dashboard_tables.py``).

Each checker takes the frame a page shows (those tests prove the page's tables are these frames, cell by cell)
and the sentence shown beside it, and fails on a clause of a shape it does not know, on a number that is not
the frame's, and on a verdict its intervals do not support: a difference stated only where the interval,
corrected for the comparisons made, excludes zero; "no change", "meets" and "could cut" only where the whole
interval lies within the tolerance.  Each returns what it read (clauses, or the shapes met), so a test can
ask that a run reached the shapes it means to check.
"""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

from toolkit.analysis import metrics, strength, verdicts
from toolkit.core import stats
from toolkit.core.params import params_of

NUMBER = r"[+−-]?\d[\d,]*(?:\.\d+)?"


def number(text: str) -> float:
    return float(text.replace("−", "-").replace(",", ""))


def clauses(sentence: str) -> list[str]:
    """A sentence's clauses: split at "; " outside parentheses and brackets, the final stop dropped."""
    out, depth, start = [], 0, 0
    body = sentence.rstrip(".")
    for i, ch in enumerate(body):
        depth += ch in "(["
        depth -= ch in ")]"
        if depth == 0 and body.startswith("; ", i):
            out.append(body[start:i])
            start = i + 2
    out.append(body[start:])
    return out


def paragraphs(page: str) -> list[str]:
    """The text of every ``<p>`` and ``<li>`` of an HTML page or fragment, tags dropped, entities read,
    whitespace collapsed."""
    found = re.findall(r"<(p|li)\b[^>]*>(.*?)</\1>", page, flags=re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", "", body)).split()) for _, body in found]


def paragraph(page: str, pattern: str) -> str:
    """The one paragraph of ``page`` in which the regular expression ``pattern`` is found."""
    found = [p for p in paragraphs(page) if re.search(pattern, p)]
    assert len(found) == 1, (pattern, paragraphs(page))
    return found[0]


# -- the tournament ---------------------------------------------------------------------------------------------

ELO_ABOVE = re.compile(rf"^(\S+) is about ({NUMBER}) Elo \((95%(?: for the (\d+) together)?): ({NUMBER}) to "
                       rf"({NUMBER})\) above (\S+)$")
ELO_TIED = re.compile(rf"^(\S+) and (\S+) cannot be told apart: \1 is ({NUMBER}) Elo \((95%(?: for the (\d+) "
                      rf"together)?): ({NUMBER}) to ({NUMBER})\) above$")
WINS = re.compile(r"^it wins about (\d+)% of their games$")
FIELD = (rf"(\S+) wins ({NUMBER}) \[({NUMBER}), ({NUMBER})\] of its games against a field of (\S+), \S+ wins "
         rf"({NUMBER}) \[({NUMBER}), ({NUMBER})\] against a field of \S+")
FIELD_STRONGER = re.compile(rf"^(\S+) is stronger than (\S+): {FIELD}$")
FIELD_TIED = re.compile(rf"^(\S+) and (\S+) cannot be told apart at these games: {FIELD}$")
FIELD_BOTH = re.compile(rf"^(\S+) and (\S+) each do better than the fair share against a field of the other: "
                        rf"{FIELD}$")
FIELD_TAIL = re.compile(rf" \(the fair share ({NUMBER}); 95% intervals for the (\d+) together\)\.?$")


def check_elo(rated, sentence: str) -> set:
    """Every clause of a two-seat ratings sentence against the printed ratings (``elo``, ``se``): each pair of
    neighbours by Elo once, the intervals held together for the ``k - 1`` pairs; returns the shapes read
    ("above", "tied")."""
    order = list(rated.sort_values("elo", ascending=False).index)
    pairs = len(rated) - 1
    z = verdicts.together(pairs)
    read, shapes = [], set()
    for clause in clauses(sentence):
        if WINS.match(clause):
            continue
        above, tied = ELO_ABOVE.match(clause), ELO_TIED.match(clause)
        assert above or tied, f"a clause of an unknown shape: {clause!r}"
        if above:
            a, d, lvl, m, lo, hi, b = above.groups()
        else:
            a, b, d, lvl, m, lo, hi = tied.groups()
        assert int(m or 1) == pairs and lvl == verdicts.level(pairs), clause
        diff = rated.loc[a, "elo"] - rated.loc[b, "elo"]
        half = z * np.hypot(rated.loc[a, "se"], rated.loc[b, "se"])
        assert (number(d), number(lo), number(hi)) == (round(diff), round(diff - half), round(diff + half)), clause
        assert (diff - half > 0) == bool(above), clause  # a difference stated exactly where its interval is off 0
        read.append((a, b))
        shapes.add("above" if above else "tied")
    assert read == list(zip(order, order[1:])), (read, order)  # every neighbour pair, in order, once
    return shapes


def check_field(rated, sentence: str, seats: int) -> set:
    """Every clause of a 3+ seat ratings sentence against the tournament's counts (``rated.attrs["field"]``:
    wins and games of a policy against a field of another); returns the shapes read."""
    tail = FIELD_TAIL.search(sentence)
    assert tail, sentence
    fair, m = number(tail.group(1)), int(tail.group(2))
    assert fair == pytest.approx(1 / seats, abs=5e-4)
    z = verdicts.together(m)
    field = rated.attrs["field"]
    read, shapes = 0, set()
    for clause in clauses(sentence[:tail.start()]):
        found = [(kind, p.match(clause)) for kind, p in (("stronger", FIELD_STRONGER), ("tied", FIELD_TIED),
                                                          ("both", FIELD_BOTH))]
        kind, match = next(((k, f) for k, f in found if f), (None, None))
        assert match, f"a clause of an unknown shape: {clause!r}"
        x, y, x2, r, lo, hi, y2, r2, lo2, hi2 = match.groups()
        assert x2 == x and y2 == y, clause
        xy = stats.wilson(*field[(x, y)], z=z)
        yx = stats.wilson(*field[(y, x)], z=z)
        printed = [number(v) for v in (r, lo, hi, r2, lo2, hi2)]
        assert printed == pytest.approx([*xy, *yx], abs=5e-4), clause
        x_up = xy[1] > 1 / seats or yx[2] < 1 / seats
        y_up = yx[1] > 1 / seats or xy[2] < 1 / seats
        assert {"stronger": x_up and not y_up, "tied": not x_up and not y_up, "both": x_up and y_up}[kind], clause
        read += 1
        shapes.add(kind)
    assert read * 2 == m, (read, m)
    return shapes


def check_ratings(rated, sentence: str, seats: int) -> set:
    """:func:`check_elo` with two seats, :func:`check_field` with more."""
    return check_elo(rated, sentence) if seats == 2 else check_field(rated, sentence, seats)


# -- before/after -----------------------------------------------------------------------------------------------

BEFORE_AFTER = re.compile(rf"^(?:your change moved (.+) from ({NUMBER}) to ({NUMBER}) \(|(.+): no measurable change "
                          rf"at ([\d,]+) games \(({NUMBER}) → ({NUMBER}), )({NUMBER}) \[({NUMBER}), ({NUMBER})\]"
                          rf"(?:, (95% for the (\d+) together))?\)$")


def check_before_after(table, sentences=None) -> set:
    """Each row of :func:`toolkit.analysis.paired.before_after` against its sentence (``sentences``: those a
    page shows, one a row in order; default the rows' own): its quantity, ``d [lo, hi]`` to the digits
    printed, "moved" exactly where the interval excludes zero, and the level naming the quantities held
    together.  Returns the shapes read ("moved", "no change")."""
    m, shapes = len(table), set()
    sentences = list(table["sentence"]) if sentences is None else list(sentences)
    assert len(sentences) == m, (sentences, m)
    for row, sentence in zip(table.itertuples(), sentences):
        match = BEFORE_AFTER.match(sentence)
        assert match, f"a sentence of an unknown shape: {sentence!r}"
        moved = match.group(1) is not None
        label = match.group(1) or match.group(4)
        digits = 2 if "turns" in label else 3
        d, lo, hi = (number(match.group(i)) for i in (8, 9, 10))
        assert label == row.quantity and moved == row.measurable
        assert (d, lo, hi) == tuple(round(v, digits) + 0.0 for v in (row.difference, row.ci_low, row.ci_high))
        assert moved == (row.ci_low > 0 or row.ci_high < 0)
        assert (match.group(12) and int(match.group(12))) == (m if m > 1 else None)
        shapes.add("moved" if moved else "no change")
    return shapes


# -- the ladder's trend -----------------------------------------------------------------------------------------

TREND = re.compile(rf"(\S+)'s is (higher|lower) than (\S+)'s by ({NUMBER}) \[({NUMBER}), ({NUMBER})\]")
RUNG = re.compile(rf"({NUMBER}) \[({NUMBER}), ({NUMBER})\] for ([^\s;)]+)")
METRIC = "first_player_advantage"


def check_trend(table, said: str) -> str:
    """The ladder's trend sentence (:func:`toolkit.analysis.strength.edge_trend`) against its rungs: every
    rung's edge as printed; every stated difference the rungs', with its interval at the corrected z and off
    zero; "does not change measurably" only when every pair's whole interval lies within the resolution, at
    the bound it prints; otherwise "not enough games".  Returns the shape read."""
    if METRIC not in table.columns or table[METRIC].isna().all():
        assert said == "The first player's edge is not defined for this game (no first mover)."
        return "undefined"
    played = table.attrs.get("selfplay_games")
    if played is not None and played < strength.MIN_SELFPLAY:
        assert said.startswith("Too few games to read the first player's edge") and "[" not in said, said
        return "too few"
    rungs = table[np.isfinite(table[METRIC]) & np.isfinite(table[METRIC + "_low"])].sort_values("rating",
                                                                                               kind="stable")
    for value, low, high, policy in RUNG.findall(said):
        r = table.loc[policy]
        assert [number(value), number(low), number(high)] == pytest.approx(
            [r[METRIC], r[METRIC + "_low"], r[METRIC + "_high"]], abs=5e-4), policy
    names = list(rungs.index)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    z = verdicts.together(len(pairs))
    se = (rungs[METRIC + "_high"] - rungs[METRIC + "_low"]) / (2 * verdicts.Z95)
    ends = {(a, b): (rungs.loc[b, METRIC] - rungs.loc[a, METRIC], z * np.hypot(se[a], se[b])) for a, b in pairs}
    stated = TREND.findall(said)
    for b, way, a, d, lo, hi in stated:
        diff, half = ends[(a, b)]
        assert [number(d), number(lo), number(hi)] == pytest.approx([diff, diff - half, diff + half], abs=5e-4)
        assert (way == "higher") == (diff > 0) and (diff - half > 0 or diff + half < 0), said
    bound = max(abs(diff) + half for diff, half in ends.values())
    if said.startswith("The first player's edge does not change measurably"):
        assert not stated and all(abs(diff) + half <= strength.RESOLUTION for diff, half in ends.values())
        assert number(re.search(rf"within ±({NUMBER})", said).group(1)) == pytest.approx(bound, abs=5e-4)
        return "no change"
    if stated:
        return "stated"
    assert said.startswith("Not enough games to tell whether") and bound > strength.RESOLUTION, said
    assert number(re.search(rf"up to ±({NUMBER}) could hide", said).group(1)) == pytest.approx(bound, abs=5e-4)
    return "not enough games"


# -- play until settled -----------------------------------------------------------------------------------------

SETTLED = re.compile(
    rf"^(?:the change moved (.+) from ({NUMBER}) to ({NUMBER}) \(|the change moves (.+) by less than ({NUMBER}) either "
    rf"way \(|not settled after ([\d,]+) games a side \(the budget was ([\d,]+)\): (.+) moved by between ({NUMBER}) "
    rf"and ({NUMBER}), so neither a change nor one smaller than ({NUMBER}) is shown \()({NUMBER}) \[({NUMBER}), "
    rf"({NUMBER})\]; (an always-valid 95% interval|always-valid intervals, 95% for the (\d+) quantities together)\)"
    rf"(?:, settled after ([\d,]+) games a side)?$")


def check_settled(table, sentences=None) -> set:
    """Each row of :func:`toolkit.analysis.settle.settle` against its sentence: its verdict, interval,
    tolerance and games; "moved" only off zero, "by less than" only within the tolerance, and the level
    naming the quantities held together.  Returns the verdicts read."""
    m, shapes = len(table), set()
    sentences = list(table["sentence"]) if sentences is None else list(sentences)
    assert len(sentences) == m, (sentences, m)
    for row, sentence in zip(table.itertuples(), sentences):
        match = SETTLED.match(sentence)
        assert match, f"a sentence of an unknown shape: {sentence!r}"
        g = match.groups()
        kind = "moved" if g[0] else "within tolerance" if g[3] else "not settled"
        assert kind == row.verdict and (g[0] or g[3] or g[7]) == row.quantity
        digits = 2 if "turns" in row.quantity else 3
        d, lo, hi = (number(v) for v in g[11:14])
        assert (d, lo, hi) == tuple(round(v, digits) + 0.0 for v in (row.difference, row.ci_low, row.ci_high))
        assert (int(g[15]) if g[15] else 1) == m
        assert number(g[16] or g[5]) == row.games  # the games a side of the look that settled it, or of the last
        if kind == "moved":
            assert row.ci_low > 0 or row.ci_high < 0
        elif kind == "within tolerance":
            assert -row.tolerance <= row.ci_low and row.ci_high <= row.tolerance
            assert number(g[4]) == round(row.tolerance, digits)
        else:
            assert row.ci_low <= 0 <= row.ci_high and not (-row.tolerance <= row.ci_low and row.ci_high <= row.tolerance)
        shapes.add(kind)
    return shapes


# -- which decisions matter -------------------------------------------------------------------------------------

SIGNED = r"[+−-]\d+\.\d+"
PCT = r"\d+(?:\.\d+)?%"
DECISION_SENTENCES = {
    "forced": re.compile(rf"^In (.+), over ([\d,]+) games, ({PCT}) of decisions are forced \[95% CI ({PCT}), "
                         rf"({PCT})\]\.$"),
    "gains": re.compile(rf"^Choosing well at an? (.+) decision gains ({SIGNED}) win probability over a random choice "
                        rf"\[({SIGNED}), ({SIGNED})\] \((\S+) judging\)\.$"),
    "most": re.compile(rf"^The choice at an? (.+) decision matters most(?: of the kinds judged)?: ({SIGNED}) win "
                       rf"probability over a random choice \[({SIGNED}), ({SIGNED})\] \((\S+) judging\)\.$"),
    "largest": re.compile(rf"^The (.+) decision has the largest estimated impact(?: of the kinds judged)? \(({SIGNED}) "
                          rf"\[({SIGNED}), ({SIGNED})\]\), but ([\d,]+) games are not enough to tell it from (.+); "
                          rf"(?:about [\d,]+ games would tell|more games would not tell them apart if they are "
                          rf"equal)\.$"),
    "cut": re.compile(rf"^Choosing well at every (.+) decision of a game gains at most ({SIGNED}) win probability "
                      rf"over random choices, in all \((\S+) judging; 95% upper bound(?:, corrected for the (\d+) "
                      rf"kinds judged)?\): a designer could cut it or make it automatic, unless a stronger player "
                      rf"finds more in it\.$"),
    "worse": re.compile(rf"^At the (.+) decision the (\S+) judge's picks do worse than random choices: ({SIGNED}) "
                        rf"summed over a game, at most ({SIGNED}) \(95% upper bound(?:, corrected for the (\d+) kinds "
                        rf"judged)?\); a judge this weak cannot rate it: judge with more iterations\.$"),
    "busywork": re.compile(rf"^The (.+) decision may be busywork: its gains summed over a game are estimated at "
                           rf"({SIGNED}), at most ({SIGNED}) \(95% upper bound(?:, corrected for the (\d+) kinds "
                           rf"judged)?\); ([\d,]+) games cannot show they are below 0\.01, about [\d,]+ would if the "
                           rf"estimate holds\.$"),
    "single": re.compile(r"^Every (.+) decision in these games had a single option: it asks the player nothing\.$"),
    "rare": re.compile(r"^(?:[\d,]+ games are too few to judge the (.+) decision|An? (.+) decision with a choice came "
                       r"up in only (\d+) of [\d,]+ games, too few to judge) \(judging takes 50 games with a choice\)\.$"),
    "never": re.compile(r"^No (.+) decision came up in these games \(rules and line-up as run\)\.$"),
}


def signed3(value: float) -> float:
    return round(float(value), 3) + 0.0


def check_decisions(table, said: str) -> set:
    """Every sentence of :func:`toolkit.analysis.decisions.answer` against the table beside it
    (``decisions.shown``'s numbers): a kind said to matter most clears every other judged kind by the
    corrected intervals; one that cannot be told apart overlaps those it names; "could cut" only where the
    corrected upper bound of its gains over a game is below 0.01; "single option" only for a kind never with
    a choice; "too few" only below 50 games.  Returns the shapes read."""
    from toolkit.analysis import decisions as judged

    n = table.attrs["n_games"]
    came = table[(table["with_choice"] > 0) & table["impact"].notna()]
    rated = came[came["games"] >= judged.MIN_GAMES]
    m = len(rated)
    widen = {k: judged.t_quantile(int(rated.loc[k, "games"]), m) / judged.t95(int(rated.loc[k, "games"]))
             for k in rated.index}
    half = {k: (rated.loc[k, "impact_high"] - rated.loc[k, "impact_low"]) / 2 * widen[k] for k in rated.index}
    upper = {k: rated.loc[k, "game_impact"] + (rated.loc[k, "game_impact_high"] - rated.loc[k, "game_impact"])
             * (judged.t_quantile(n, m) / judged.t95(n)) for k in rated.index}
    kinds, about = set(), {}  # the shapes read, and the kinds each shape names
    for sentence in re.split(r"(?<=\.) (?=[A-Z0-9])", said):
        kind, match = next(((k, p.match(sentence)) for k, p in DECISION_SENTENCES.items() if p.match(sentence)),
                           (None, None))
        assert match, f"a sentence of an unknown shape: {sentence!r}"
        kinds.add(kind)
        g = match.groups()
        if kind in ("most", "cut", "worse", "busywork", "single", "rare"):
            about.setdefault(kind, set()).add(g[0] or g[1])
        if kind == "forced":
            assert (g[2], g[3], g[4]) == judged._percent(*table.attrs["forced_all"]) and number(g[1]) == n
        elif kind in ("gains", "most", "largest"):
            r = table.loc[g[0]]
            assert [number(v) for v in g[1:4]] == [signed3(r["impact"]), signed3(r["impact_low"]),
                                                   signed3(r["impact_high"])], sentence
            top = g[0]
            others = [k for k in rated.index if k != top]
            if kind == "gains":
                assert m == 1 and g[4] == table.attrs["judge"]
            elif kind == "most":  # clears every other kind by the corrected intervals
                assert all(rated.loc[k, "impact"] + half[k] < rated.loc[top, "impact"] - half[top] for k in others)
            else:
                named = re.findall(rf"(?:^|, )([^,(]+?) \(({SIGNED})\)", g[5])
                assert named and all(number(v) == signed3(rated.loc[k, "impact"]) for k, v in named), sentence
                assert all(rated.loc[k, "impact"] + half[k] >= rated.loc[top, "impact"] - half[top] for k, _ in named)
                assert rated.loc[top, "impact"] == rated["impact"].max()
        elif kind == "cut":  # a gain below zero is the judge's failing ("worse"), not a decision to cut
            assert number(g[1]) == signed3(upper[g[0]]) and 0 <= upper[g[0]] < judged.MEANINGLESS, sentence
            assert int(g[3] or 1) == m
        elif kind == "worse":
            k = g[0]
            assert number(g[2]) == signed3(rated.loc[k, "game_impact"]) and number(g[3]) == signed3(upper[k])
            assert upper[k] < 0 and g[1] == table.attrs["judge"] and int(g[4] or 1) == m, sentence
        elif kind == "busywork":
            k = g[0]
            assert number(g[1]) == signed3(rated.loc[k, "game_impact"]) and number(g[2]) == signed3(upper[k])
            assert upper[k] >= judged.MEANINGLESS and rated.loc[k, "game_impact"] < judged.MEANINGLESS / 2
        elif kind == "single":
            assert table.loc[g[0], "with_choice"] == 0 and table.loc[g[0], "decisions"] > 0
        elif kind == "rare":
            k = g[0] or g[1]
            assert table.loc[k, "games"] < judged.MIN_GAMES
        else:
            assert all(table.loc[k.strip(), "decisions"] == 0 for k in g[0].split(","))
    assert "forced" in kinds
    # and nothing left unsaid: every kind whose numbers call for a sentence has it
    expected = {"worse": {k for k in rated.index if upper[k] < 0},
                "cut": {k for k in rated.index if 0 <= upper[k] < judged.MEANINGLESS},
                "single": set(table.index[(table["decisions"] > 0) & (table["with_choice"] == 0)]),
                "rare": set(came.index[came["games"] < judged.MIN_GAMES])}
    expected["busywork"] = {k for k in rated.index if upper[k] >= judged.MEANINGLESS
                            and rated.loc[k, "game_impact"] < judged.MEANINGLESS / 2} - about.get("most", set())
    for kind, names in expected.items():
        assert about.get(kind, set()) == names, (kind, about.get(kind), names, said)
    return kinds


# -- tuning -----------------------------------------------------------------------------------------------------

G4 = r"-?\d[\d.e+-]*"  # a number as ``{:.4g}`` prints it
CELL = rf"({G4}) \[({G4}), ({G4})\]"
TUNE_MET = re.compile(r"^The base rules already meet the target: (.+), on ([\d,]+) fresh games \(seed (\d+)\); no change "
                      r"proposed \((players .+)\)\.$")
TUNE_MET_CLAUSE = re.compile(rf"^(.+?) {CELL} lies within the target ({G4}) ± ({G4})$")
TUNE_OPEN = re.compile(r"^No candidate moves the metric measurably toward the target: the nearest, (.+?), gives (.+), on "
                       r"([\d,]+) fresh games \(seed (\d+)\); the intervals are not apart, so no change is proposed "
                       r"\((players .+?)\)\.(.*)$")
TUNE_MOVED = re.compile(r"^(.+?): (\S+ .+), on ([\d,]+) fresh games \(seed (\d+)\) \((players .+?)\)\.(.*)$")
TUNE_MEASURED = re.compile(rf"^(.+?) {CELL} \(target ([^)]+)\), {CELL} under the base rules$")
TUNE_TELL = re.compile(rf"The base rules' (.+?) interval holds ({G4}) but is wider than ± ({G4}), so it does not show "
                       rf"them meeting it: at about ([\d,]+) fresh games it would be ± ({G4}) wide, enough to tell if "
                       rf"their value lies within ({G4}) of it\.")
TUNE_EDGE = re.compile(rf"The (tuned|nearest) (.+?) = (\S+) is at the edge of the range searched \(({G4})\.\.({G4})\): "
                       rf"widen it\.")


def _g4(value) -> float:
    return float(f"{float(value):.4g}")


def _cell(row, metric, groups) -> None:
    printed = [float(v) for v in groups]
    assert printed == [_g4(row[f"{metric}{s}"]) for s in ("", "_low", "_high")], (metric, printed)


def check_tuning(found, said: str) -> str:
    """The tuning's answer (:meth:`toolkit.analysis.tuning.Tuning.answer`) against the rows it reports (the
    base rules' and the winner's, on the seed that checks them): every number to the 4 digits printed; "meet
    the target" only where every target's whole base interval lies within the target ± its band; a change
    proposed only where every targeted metric's two intervals are apart and the winner is nearer; the
    "more games would tell" clause exactly for the targets whose base interval holds the target but is wider
    than the band; "widen it" exactly for the varied numbers at an end of their range (unless the base rules
    meet the target: nothing is proposed or searched further then).  Returns the
    verdict read ("met", "moved" or "not moved")."""
    seed = found.settings.get("check_seed", found.settings["final_seed"])
    targets = {t.metric: t for t in found.targets}
    named = {metrics.label(m): m for m in targets}  # the answer names each metric in words
    labels = params_of(type(found.base_rules))
    base, best = found.base, found.best

    def holds(t):
        return not isinstance(t.value, str) and verdicts.within(base[f"{t.metric}_low"], base[f"{t.metric}_high"],
                                                                 t.band(), reference=t.value)

    def apart(t):
        m = t.metric
        off = best[f"{m}_low"] > base[f"{m}_high"] or best[f"{m}_high"] < base[f"{m}_low"]
        return off and t.distance(best[m]) < t.distance(base[m])

    met, moved, opened = TUNE_MET.match(said), TUNE_MOVED.match(said), TUNE_OPEN.match(said)
    if met:
        kind, games, at = "met", met.group(2), met.group(3)
        read = []
        for clause in met.group(1).split("; "):
            c = TUNE_MET_CLAUSE.match(clause)
            assert c, f"a clause of an unknown shape: {clause!r}"
            metric = named[c.group(1)]
            _cell(base, metric, c.groups()[1:4])
            assert float(c.group(5)) == _g4(targets[metric].value) and float(c.group(6)) == _g4(targets[metric].band())
            read.append(metric)
        assert read == list(targets) and all(holds(t) for t in targets.values()), said
        rest = ""
    else:
        match = opened or moved
        assert match, f"an answer of an unknown shape: {said!r}"
        kind = "not moved" if opened else "moved"
        changed, measured, games, at, _, rest = match.groups()
        assert changed == "; ".join(_rule(labels[d.name], found.best_values[d.name]) for d in found.dimensions), said
        read = []
        for clause in measured.split("; "):
            c = TUNE_MEASURED.match(clause)
            assert c, f"a clause of an unknown shape: {clause!r}"
            metric = named[c.group(1)]
            _cell(best, metric, c.groups()[1:4])
            _cell(base, metric, c.groups()[5:8])
            assert c.group(5) == targets[metric].describe().split("=")[1], clause
            read.append(metric)
        assert read == list(targets), said
        assert not all(holds(t) for t in targets.values()), said  # met is said first, whenever it holds
        assert (kind == "moved") == all(apart(t) for t in targets.values()), said
        assert kind == found.verdict and found.proposed == (kind == "moved")
    assert number(games) == found.settings["final_games"] and int(at) == seed
    tells = TUNE_TELL.findall(rest)
    expected = [m for m, t in targets.items() if kind == "not moved" and not isinstance(t.value, str) and not holds(t)
                and base[f"{m}_low"] <= t.value <= base[f"{m}_high"]]
    assert [named[m] for m, *_ in tells] == expected, said
    for m, value, band, n, narrow, within in tells:
        t = targets[named[m]]
        assert (float(value), float(band), float(narrow), float(within)) == (
            _g4(t.value), _g4(t.band()), _g4(t.band() / 2), _g4(t.band() / 2)), said
        half = (base[f"{named[m]}_high"] - base[f"{named[m]}_low"]) / 2
        assert number(n) == verdicts.games_to_tell(found.settings["final_games"], half, t.band() / 2), said
    edges = TUNE_EDGE.findall(rest)
    at_edge = [(d.name, found.best_values[d.name], d.low, d.high) for d in found.dimensions
               if kind != "met" and d.kind in ("int", "float") and not (d.low < found.best_values[d.name] < d.high)]
    assert [label for _, label, *_ in edges] == [labels[name].label for name, *_ in at_edge], said
    for (who, name, value, low, high), (_, v, lo, hi) in zip(edges, at_edge):
        assert who == ("tuned" if kind == "moved" else "nearest")
        assert (value, float(low), float(high)) == (_value(v), _g4(lo), _g4(hi)), said
    leftover = TUNE_EDGE.sub("", TUNE_TELL.sub("", rest)).strip()
    assert not leftover, f"a clause of an unknown shape: {leftover!r}"
    return kind


def _rule(param, value) -> str:
    """A rule and its value as the answer names them: the declared label, then the value (a number as
    :func:`_value`, yes or no, a choice's declared words)."""
    if isinstance(value, bool):
        shown = "yes" if value else "no"
    elif isinstance(value, (int, float)):
        shown = _value(value)
    else:
        shown = param.kind.word(value)
    return f"{param.label} = {shown}"


def _value(value) -> str:
    """A rule value as the answer writes it (``tuning._text(value, short=True)``)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (tuple, list, frozenset)):
        return ",".join(map(str, sorted(value) if isinstance(value, frozenset) else value))
    return f"{value:.4g}" if isinstance(value, float) else str(value)

"""Every sentence agrees with the numbers printed beside it, in every game and player count (issue 50, point 2).

For each game and each number of seats it can be played with, small seeded runs of the features whose words
once contradicted their tables, each sentence read back clause by clause:

- **the tournament's ratings in words** (:func:`toolkit.analysis.ratings.in_words`): with two seats every
  "a is about D Elo (95% ...: L to H) above b" is recomputed from the printed ratings (the two ``elo`` and
  ``se`` columns, the intervals held together for the neighbours compared) and states a difference only where
  L > 0; with three or more, every "a is stronger than b: a wins r [lo, hi] ... b wins r2 [lo2, hi2]" holds the
  win rates of the tournament's own counts (a field of b, a field of a) and states strength only where an
  interval lies off the fair share, and "cannot be told apart" only where both hold it;
- **before/after** (:func:`toolkit.analysis.paired.before_after`): each sentence's ``d [lo, hi]`` is its
  row's, "moved" exactly where the interval excludes zero, and the level names the quantities held together;
- **play until settled** (:func:`toolkit.analysis.settle.settle`): each sentence's verdict, interval, tolerance
  and games are its row's, "moved" only off zero, "by less than" only within the tolerance;
- **which decisions matter** (:func:`toolkit.analysis.decisions.answer`): every number is the table's, a kind
  "matters most" only when it clears every other judged kind by the corrected intervals, "cannot tell it
  from" only those it overlaps, "could cut" and "may be busywork" by the corrected upper bound of the gains
  over a game, the rare and single-option kinds as the table counts them (these runs reach every shape but
  "matters most" and "could cut", which ``tests/analysis/test_verdicts.py`` reaches on hand-built tables);
- **the ladder's trend** (:func:`toolkit.analysis.strength.edge_trend`): every "b's is higher / lower than
  a's by d [lo, hi]" is the difference of the printed rungs with an interval off zero, and "does not change
  measurably" only when every interval lies within the resolution; below the self-play games a rung it
  needs, it says too few games, nothing else.

The parsers are strict (a clause of a shape they do not know fails the test), so a new sentence shape must be
taught here.  These runs reach the stated differences (every tournament pair, some ladders at 3,000 self-play
games a rung), the equivalences (most ladders at 3,000) and "more games would tell" (the ladders at 400); the
ties of the tournament's words are reached on hand-built intervals in ``tests/analysis/test_verdicts.py``.
Breaks seen red (each made in a scratch copy): ``field_words`` printing intervals at 1.96 each
(``z = verdicts.together(1)``) while it says "95% intervals for the 2 together"; ``before_after`` with
``z = verdicts.together(1)``; ``edge_trend`` stating a difference where ``abs(diff) > half / 2``; ``settle.in_words`` naming one interval's
level whatever the count; ``decisions.answer`` reading the upper bound of a game's gains uncorrected for the
kinds judged.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import toolkit
from toolkit.analysis import paired, ratings, strength, tournament, verdicts
from toolkit.core import stats

NUMBER = r"[+−-]?\d[\d,]*(?:\.\d+)?"


def number(text: str) -> float:
    return float(text.replace("−", "-").replace(",", ""))


def cases():
    for name in ("pig", "valhalla", "herrlof", "halali", "attila", "walhalla"):
        counts = toolkit.GAMES[name].seat_counts()
        for seats in counts:
            yield name, (seats if len(counts) > 1 else None)


CASES = list(cases())
IDS = [f"{name}-{seats or 2}" for name, seats in CASES]


def rules_of(name, seats):
    return toolkit.rules(name, **({"num_players": seats} if seats else {}))


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


def check_elo(rated, sentence: str) -> int:
    """Every clause of a two-seat ratings sentence against the printed ratings; returns the clauses read."""
    pairs = len(rated) - 1
    z = verdicts.together(pairs)
    read = 0
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
        read += 1
    return read


def check_field(rated, sentence: str, seats: int) -> int:
    """Every clause of a 3+ seat ratings sentence against the tournament's counts; returns the clauses read."""
    tail = FIELD_TAIL.search(sentence)
    assert tail, sentence
    fair, m = number(tail.group(1)), int(tail.group(2))
    assert fair == pytest.approx(1 / seats, abs=5e-4)
    z = verdicts.together(m)
    field = rated.attrs["field"]
    read = 0
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
    assert read * 2 == m, (read, m)
    return read


@pytest.mark.parametrize("name, seats", CASES, ids=IDS)
def test_the_tournaments_words_agree_with_its_numbers(name, seats):
    rules = rules_of(name, seats)
    table = tournament.compare(name, ["random", "greedy"], 60, seed=3, rules=rules, threads=1, progress=False)
    rated = ratings.ratings(table)
    sentence = ratings.in_words(rated)
    count = rules.num_players if hasattr(rules, "num_players") else 2
    read = check_elo(rated, sentence) if count == 2 else check_field(rated, sentence, count)
    assert read == 1  # random and greedy: one pair, one verdict


# -- before/after -----------------------------------------------------------------------------------------------

BEFORE_AFTER = re.compile(rf"^(?:your change moved (.+) from ({NUMBER}) to ({NUMBER}) \(|(.+): no measurable change "
                          rf"at ([\d,]+) games \(({NUMBER}) → ({NUMBER}), )({NUMBER}) \[({NUMBER}), ({NUMBER})\]"
                          rf"(?:, (95% for the (\d+) together))?\)$")


@pytest.mark.parametrize("name, seats", CASES, ids=IDS)
def test_before_after_words_agree_with_its_rows(name, seats):
    rules = rules_of(name, seats)
    before = toolkit.simulate(name, rules, 400, seed=5, policies="greedy", threads=1, progress=False)
    now = toolkit.simulate(name, rules, 400, seed=5, threads=1, progress=False)  # random: something moves
    table = paired.before_after(before, now)
    pairs = paired.headline_pairs(before, now)
    m = len(table)
    for row in table.itertuples():
        match = BEFORE_AFTER.match(row.sentence)
        assert match, f"a sentence of an unknown shape: {row.sentence!r}"
        moved = match.group(1) is not None
        label = match.group(1) or match.group(4)
        digits = 2 if "turns" in label else 3
        d, lo, hi = (number(match.group(i)) for i in (8, 9, 10))
        assert label == row.quantity and moved == row.measurable
        assert (d, lo, hi) == tuple(round(v, digits) + 0.0 for v in (row.difference, row.ci_low, row.ci_high))
        assert moved == (row.ci_low > 0 or row.ci_high < 0)
        assert (match.group(12) and int(match.group(12))) == (m if m > 1 else None)
        a, b = pairs[row.quantity]  # the games' own values: the half-width is the corrected z's
        d_games = np.asarray(b, float) - np.asarray(a, float)
        se = d_games.std(ddof=1) / np.sqrt(d_games.size)
        assert row.ci_high - row.difference == pytest.approx(verdicts.together(m) * se, rel=1e-9)
    assert table["measurable"].any()  # random against greedy moves something in every game


# -- the ladder's trend -----------------------------------------------------------------------------------------

TREND = re.compile(rf"(\S+)'s is (higher|lower) than (\S+)'s by ({NUMBER}) \[({NUMBER}), ({NUMBER})\]")
RUNG = re.compile(rf"({NUMBER}) \[({NUMBER}), ({NUMBER})\] for ([^\s;)]+)")


@pytest.mark.parametrize("name, seats", CASES, ids=IDS)
@pytest.mark.parametrize("selfplay", [40, 400, 3000])
def test_the_ladders_trend_agrees_with_its_rungs(name, seats, selfplay):
    table = strength.ladder(name, rules_of(name, seats), policies=["random", "greedy"], n_games=20,
                            selfplay_games=selfplay, seed=2, threads=1, progress=False)
    said = strength.edge_trend(table)
    metric = "first_player_advantage"
    if metric not in table.columns or table[metric].isna().all():
        assert said == "The first player's edge is not defined for this game (no first mover)."
        return
    if selfplay < strength.MIN_SELFPLAY:
        assert said.startswith("Too few games to read the first player's edge") and "[" not in said, said
        return
    for value, low, high, policy in RUNG.findall(said):
        r = table.loc[policy]
        assert [number(value), number(low), number(high)] == pytest.approx(
            [r[metric], r[metric + "_low"], r[metric + "_high"]], abs=5e-4), policy
    stated = TREND.findall(said)
    for b, way, a, d, lo, hi in stated:
        diff = table.loc[b, metric] - table.loc[a, metric]
        assert number(d) == pytest.approx(diff, abs=5e-4) and (way == "higher") == (diff > 0)
        assert number(lo) > 0 or number(hi) < 0, said  # stated only where the interval is off zero
    if said.startswith("The first player's edge does not change measurably"):
        widest = number(re.search(rf"within ±({NUMBER})", said).group(1))
        assert widest <= strength.RESOLUTION and not stated
    elif not stated:
        assert said.startswith("Not enough games to tell whether") and "self-play games a rung would tell" in said


# -- play until settled -----------------------------------------------------------------------------------------

SETTLED = re.compile(
    rf"^(?:the change moved (.+) from ({NUMBER}) to ({NUMBER}) \(|the change moves (.+) by less than ({NUMBER}) either "
    rf"way \(|not settled after ([\d,]+) games a side \(the budget was ([\d,]+)\): (.+) moved by between ({NUMBER}) "
    rf"and ({NUMBER}), so neither a change nor one smaller than ({NUMBER}) is shown \()({NUMBER}) \[({NUMBER}), "
    rf"({NUMBER})\]; (an always-valid 95% interval|always-valid intervals, 95% for the (\d+) quantities together)\)"
    rf"(?:, settled after ([\d,]+) games a side)?$")


@pytest.mark.parametrize("name, seats", CASES, ids=IDS)
def test_settled_words_agree_with_their_rows(name, seats):
    """Greedy against random, every headline quantity, looks at 1,000 and 2,000 games a side: each sentence's
    verdict is its row's, its interval is the row's, "moved" only off zero, "by less than" only within the
    tolerance, and the level names the quantities held together."""
    from toolkit.analysis import settle

    table = settle.settle(name, rules_of(name, seats), policies="greedy", baseline_policies="random",
                          quantities="all", max_games=2000, first_batch=1000, threads=1, progress=False)
    m = len(table)
    for row in table.itertuples():
        match = SETTLED.match(row.sentence)
        assert match, f"a sentence of an unknown shape: {row.sentence!r}"
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
    assert (table["verdict"] == "moved").any()  # greedy against random moves something in every game


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


@pytest.mark.parametrize("name, seats", CASES, ids=IDS)
def test_which_decisions_matter_words_agree_with_the_table(name, seats):
    """Every sentence of ``decisions.answer`` against the table beside it (``decisions.shown``'s numbers):
    a kind said to matter most clears every other judged kind by the corrected intervals; one that cannot be
    told apart overlaps those it names; "could cut" only where the corrected upper bound of its gains over a
    game is below 0.01; "single option" only for a kind never with a choice; "too few" only below 50 games."""
    from toolkit.analysis import decisions as judged

    table = judged.decisions(name, rules_of(name, seats), n_games=60, seed=4, judge="mcts:8:0:flat", per_kind=1, threads=1,
                             progress=False)
    said = judged.answer(table)
    n = table.attrs["n_games"]
    came = table[(table["with_choice"] > 0) & table["impact"].notna()]
    rated = came[came["games"] >= judged.MIN_GAMES]
    m = len(rated)
    widen = {k: judged.t_quantile(int(rated.loc[k, "games"]), m) / judged.t95(int(rated.loc[k, "games"]))
             for k in rated.index}
    half = {k: (rated.loc[k, "impact_high"] - rated.loc[k, "impact_low"]) / 2 * widen[k] for k in rated.index}
    upper = {k: rated.loc[k, "game_impact"] + (rated.loc[k, "game_impact_high"] - rated.loc[k, "game_impact"])
             * (judged.t_quantile(n, m) / judged.t95(n)) for k in rated.index}
    kinds = set()
    for sentence in re.split(r"(?<=\.) (?=[A-Z0-9])", said):
        kind, match = next(((k, p.match(sentence)) for k, p in DECISION_SENTENCES.items() if p.match(sentence)),
                           (None, None))
        assert match, f"a sentence of an unknown shape: {sentence!r}"
        kinds.add(kind)
        g = match.groups()
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
        elif kind == "cut":
            assert number(g[1]) == signed3(upper[g[0]]) and upper[g[0]] < judged.MEANINGLESS, sentence
            assert int(g[3] or 1) == m
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
    assert "forced" in kinds and kinds & {"gains", "most", "largest"}

"""Attila policies (pure Python; the kernel has the same ones in Numba).

Every policy gets a view of what its seat may know (its own hand, the public
board, tracks, supplies, peace stacks and unused tiles; the other hands only
by size) and the decision point.

``random``
    §5 exactly: a uniform choice among the options.

``greedy``
    Values a position by ``gain``: the VP the seat would get if a scoring
    happened now (:func:`~toolkit.games.attila.reference.scoring_gains`).

    - DP-4 play: the (tribe, province) that maximises ``10 * gain`` after the
      figure and the century's influence, minus 5 if the figure starts a war;
    - DP-6 bonus: influence or a second figure, whichever gives the most gain;
    - DP-7 support: all its layable cards of the tribes at war that it leads
      (most influence, > 0), nothing else;
    - DP-1 tiles: ``plus_two`` when some split raises its gain, else
      ``double_turn`` from century VI on, else ``exchange`` when no card in
      hand can be placed, else proceed; DP-2 the split with the most gain;
      DP-3 the cards that cannot be placed (or the first option);
    - DP-5 forced discard: the tribe it has least influence in.

    Ties go to the first option in canonical order.  It draws nothing.
"""

from __future__ import annotations

from toolkit.games.attila import reference as ref

POLICIES = ("random", "greedy", "lookahead")
DEFAULT_SAMPLES = 8
MAX_SAMPLES = 1024


def parse_policy(name: str) -> tuple[str, int]:
    """``"lookahead:16"`` -> ("lookahead", 16); other names take no argument."""
    base, colon, arg = name.partition(":")
    if base == "lookahead":
        if not colon:
            return base, DEFAULT_SAMPLES
        if arg.isdigit() and 1 <= int(arg) <= MAX_SAMPLES:
            return base, int(arg)
        raise ValueError(f"policy={name!r} is not allowed: lookahead:S needs S samples in 1..{MAX_SAMPLES}")
    if arg or base not in POLICIES:
        raise ValueError(f"policy={name!r} is not allowed: one of random, greedy, lookahead, lookahead:S")
    return base, 0


class RandomPolicy:
    """A uniform choice among the options of every decision point (§5)."""

    def __init__(self, rules, stream):
        self.stream = stream

    def choose(self, view, decision):
        options = decision.options
        if len(options) == 1:
            return options[0]
        return options[self.stream.below(len(options))]


def _gain(view, influence=None, figures=None) -> int:
    rules = view["rules"]
    influence = view["influence"] if influence is None else influence
    figures = view["figures"] if figures is None else figures
    return ref.scoring_gains(rules, influence, figures, rules.num_players)[view["seat"]]


def _with_influence(view, changes):
    influence = [list(r) for r in view["influence"]]
    cap = view["rules"].influence_track_max
    for t, amount in changes:
        influence[view["seat"]][t] = min(cap, influence[view["seat"]][t] + amount)
    return influence


def _with_figure(view, t, x):
    figures = [list(r) for r in view["figures"]]
    figures[x][t] += 1
    return figures


def _first_max(options, values):
    best = 0
    for i in range(1, len(options)):
        if values[i] > values[best]:
            best = i
    return options[best]


def greedy_choice(view, d):
    options = d.options
    if len(options) == 1:
        return options[0]
    rules, me = view["rules"], view["seat"]
    rate = rules.influence_rate_per_century[view["century"]]
    if d.kind == ref.DP_TILE:
        usable = options[:-1]
        if "plus_two" in usable:
            base = _gain(view)
            if max(_gain(view, _with_influence(view, _split(o))) for o in ref.plus_two_options()) > base:
                return "plus_two"
        if "double_turn" in usable and view["century"] >= 2:
            return "double_turn"
        if "exchange" in usable and not any(view["hand"][t] > 0 and view["legal"](t) for t in range(6)):
            return "exchange"
        return ref.PROCEED
    if d.kind == ref.DP_PLUS_TWO:
        return _first_max(options, [_gain(view, _with_influence(view, _split(o))) for o in options])
    if d.kind == ref.DP_EXCHANGE:
        unplayable = tuple(view["hand"][t] if not view["legal"](t) else 0 for t in range(6))
        return unplayable if any(unplayable) else options[0]
    if d.kind == ref.DP_PLAY:
        values = []
        for t, x in options:
            figures = _with_figure(view, t, x)
            value = 10 * _gain(view, _with_influence(view, [(t, rate)]), figures)
            if sum(figures[x]) == rules.war_threshold:
                value -= 5
            values.append(value)
        return _first_max(options, values)
    if d.kind == ref.DP_DISCARD:
        best = options[0]
        for t in options[1:]:
            if view["influence"][me][t] < view["influence"][me][best]:
                best = t
        return best
    if d.kind == ref.DP_BONUS:
        t = d.info
        values = [_gain(view, _with_influence(view, [(t, rate)]))]
        values += [_gain(view, None, _with_figure(view, t, x)) for x in options[1:]]
        return _first_max(options, values)
    # DP-7 support: every layable card of the involved tribes it leads
    x = d.info
    limits = [max(o[t] for o in options) for t in range(6)]
    influence = view["influence"]
    leads = [view["figures"][x][t] > 0 and influence[me][t] > 0 and influence[me][t] == max(r[t] for r in influence)
             for t in range(6)]
    return tuple(limits[t] if leads[t] else 0 for t in range(6))


def _split(option):
    return [(option[0], 2)] if len(option) == 1 else [(option[0], 1), (option[1], 1)]


class GreedyPolicy:
    def __init__(self, rules, stream):
        pass

    def choose(self, view, decision):
        return greedy_choice(view, decision)


def make_policy(name: str, rules, stream):
    if name == "random":
        return RandomPolicy(rules, stream)
    if name == "greedy":
        return GreedyPolicy(rules, stream)
    raise ValueError(f"policy={name!r} is not allowed: one of {', '.join(POLICIES)}")

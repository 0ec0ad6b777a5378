"""A rule declared to matter only under a condition (``param(..., applies=When(...))``) really does not
matter when the condition is false: the rules panel greys its control out then, so a greyed control that
still changed the games would mislead the designer.

For every game and every such rule, generically (nothing here knows a game): the controlling field is
put at a value that makes the condition false, the rule is changed, and the same seeded games are
played under both rules, by random and by each game's default players: every column of every game must
be equal.  The positive control: with the condition true, the same change of the rule changes some game
(so the games played can see the rule at all).
"""

from __future__ import annotations

import pytest

import toolkit
from toolkit.core.params import Bool, Choice, ChoiceSet, Int, IntSet, Mapping_, Optional, When, params_of

N_GAMES = 400
SEED = 11


def candidates(kind, value):
    """Values of ``kind`` to try, other than ``value``: every choice, the bounds, 0..2 and a few integers near
    ``value``, every subset with one element fewer or the empty set, a mapping with one key at 0."""
    if isinstance(kind, Bool):
        found = [not value]
    elif isinstance(kind, Choice):
        found = list(kind.choices)
    elif isinstance(kind, Int):
        found = [kind.low, kind.high, 0, 1, 2, *(value + d for d in (1, -1, 2, -2) if isinstance(value, int))]
        found = [v for v in found if v is not None and (kind.low is None or v >= kind.low)
                 and (kind.high is None or v <= kind.high)]
    elif isinstance(kind, Optional):
        found = [None, *candidates(kind.inner, value if value is not None else kind.inner.low)]
    elif isinstance(kind, (IntSet, ChoiceSet)):
        found = [frozenset(), *(tuple(v for v in value if v != drop) for drop in value)]
        if isinstance(kind, ChoiceSet):
            found = [tuple(v) for v in found]
    elif isinstance(kind, Mapping_):
        found = [{**dict(value), key: 0} for key in value]
    else:
        found = []
    return [v for v in found if v != value]


def rules_with(spec, base, **changes):
    try:
        return base.replace(**changes)
    except ValueError:
        return None


def condition_cases():
    for name, spec in toolkit.GAMES.items():
        for rule, declared in params_of(spec.Rules).items():
            if declared.applies is not None:
                yield pytest.param(name, rule, id=f"{name}-{rule}")


CASES = list(condition_cases())


def find_case(spec, rule):
    """(rules with the condition false, the same with ``rule`` changed, rules with the condition true,
    the same with ``rule`` changed the same way), from the standard rules of each player count."""
    declared = params_of(spec.Rules)
    when = declared[rule].applies
    for count in spec.seat_counts():
        base = spec.Rules.preset("standard", **({"num_players": count} if "num_players" in declared else {}))
        field_values = [getattr(base, when.field), *candidates(declared[when.field].kind, getattr(base, when.field))]
        on = next((r for v in field_values if (r := rules_with(spec, base, **{when.field: v})) is not None
                   and when.holds(getattr(r, when.field))), None)
        off = next((r for v in field_values if (r := rules_with(spec, base, **{when.field: v})) is not None
                    and not when.holds(getattr(r, when.field))), None)
        if on is None or off is None:
            continue
        for value in candidates(declared[rule].kind, getattr(off, rule)):
            changed_off = rules_with(spec, off, **{rule: value})
            changed_on = rules_with(spec, on, **{rule: value})
            if changed_off is not None and changed_on is not None and changed_on != on:
                return off, changed_off, on, changed_on
    pytest.fail(f"{spec.name}: no value of {when.field} makes {rule}'s condition false and true, "
                f"with {rule} changed, under rules that are allowed")


def play(spec, rules, policies):
    frame = toolkit.simulate(spec.name, rules, N_GAMES, seed=SEED, policies=policies, progress=False)
    return frame.reset_index(drop=True)


def lineups(spec, rules):
    return ["random", spec.default_policies(rules)]


def test_the_conditions_name_fields_of_their_rules():
    assert CASES, "no rule declares a condition"
    for name, spec in toolkit.GAMES.items():
        declared = params_of(spec.Rules)
        for rule, param in declared.items():
            if param.applies is not None:
                assert isinstance(param.applies, When)
                assert param.applies.field in declared and param.applies.field != rule, (name, rule)
                assert param.applies.words().startswith("while "), (name, rule)


@pytest.mark.parametrize("game,rule", CASES)
def test_a_rule_greyed_out_changes_no_game(game, rule):
    spec = toolkit.GAMES[game]
    off, changed_off, on, changed_on = find_case(spec, rule)
    for policies in lineups(spec, off):
        before, after = play(spec, off, policies), play(spec, changed_off, policies)
        assert before.columns.tolist() == after.columns.tolist()
        differ = [c for c in before.columns if not before[c].equals(after[c])]
        assert not differ, (f"{game}: {rule} changed from {getattr(off, rule)!r} to {getattr(changed_off, rule)!r} "
                            f"while {off.changed()} ({policies}) changed {differ}")
    # the control: with the condition true the same change is seen by some game of some line-up
    seen = False
    for policies in lineups(spec, on):
        before, after = play(spec, on, policies), play(spec, changed_on, policies)
        if not before.equals(after):
            seen = True
            break
    assert seen, (f"{game}: {rule} changed from {getattr(on, rule)!r} to {getattr(changed_on, rule)!r} under "
                  f"{on.changed()} changed no game of {N_GAMES}: the check cannot see the rule")

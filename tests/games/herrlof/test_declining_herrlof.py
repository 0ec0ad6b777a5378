"""Players that decline an optional effect (``greedy:no_steal``, ``lookahead:S:no_trade:no_swap``; issue 17).

Declining DP-3 (trade), DP-5 (steal) or DP-6 (swap) is a legal strategy under
``optional`` (spec ``docs/rules/herrlof.md`` §5), so the suffix is a policy,
not a rule: set against the plain player it prices an effect between
otherwise evenly matched players.  Here: the declining seat never executes
the effect while the plain seat in the same games does (the negative
control); where the effect is ``mandatory`` there is no decision and the
suffix changes no game (while under ``optional`` it does); bad names are
refused in one line.  The reference plays the same games as the kernel
(``herrlof_configs.EQUALITY`` holds declining line-ups).
"""

from __future__ import annotations

import pytest

import toolkit
from toolkit.games.herrlof import SPEC
from toolkit.games.herrlof.policies import DECLINABLE, parse_policy
from toolkit.games.herrlof.rules import Rules

COLUMN = {"trade": "trades", "steal": "steals", "swap": "swaps"}


def play(policies, n=150, seed=5, **rules):
    return toolkit.simulate("herrlof", Rules(max_rounds=3, **rules), n, seed=seed, policies=policies, threads=1,
                            progress=False)


@pytest.mark.parametrize("base", ["greedy", "lookahead:2"])
@pytest.mark.parametrize("option", list(DECLINABLE))
def test_a_declining_seat_never_uses_the_effect_and_its_opponent_does(base, option):
    n = 150 if base == "greedy" else 30
    column = COLUMN[option]
    plain = play((base, base), n)
    assert plain[f"{column}_0"].sum() > 0 and plain[f"{column}_1"].sum() > 0  # the effect does fire for both
    for seat in (0, 1):
        lineup = [base, base]
        lineup[seat] = f"{base}:no_{option}"
        frame = play(tuple(lineup), n)
        assert frame[f"{column}_{seat}"].sum() == 0
        assert frame[f"{column}_{1 - seat}"].sum() > 0
        # the other effects are still used by the declining seat
        for other in DECLINABLE:
            if other != option and other != "steal":  # greedy steals only while it needs tricks: not always
                assert frame[f"{COLUMN[other]}_{seat}"].sum() > 0


def test_declining_several_effects_declines_each():
    frame = play(("greedy:no_trade:no_steal:no_swap", "greedy"), 150)
    assert frame[["trades_0", "steals_0", "swaps_0"]].to_numpy().sum() == 0
    assert (frame[["trades_1", "steals_1", "swaps_1"]].sum() > 0).all()


@pytest.mark.parametrize("option,rule", [("steal", "effect_1"), ("trade", "effect_3"), ("swap", "effect_6")])
def test_a_mandatory_effect_leaves_nothing_to_decline(option, rule):
    lineup = ("greedy", f"greedy:no_{option}")
    same = play(lineup, **{rule: "mandatory"})
    plain = play(("greedy", "greedy"), **{rule: "mandatory"})
    assert same.equals(plain)
    # negative control: where the effect is optional, declining it changes games
    assert not play(lineup).equals(play(("greedy", "greedy")))


def test_the_parsed_name():
    assert parse_policy("greedy") == ("greedy", 0, frozenset())
    assert parse_policy("lookahead:16:no_swap:no_steal") == ("lookahead", 16, frozenset({"swap", "steal"}))
    assert parse_policy("lookahead:no_trade") == ("lookahead", 32, frozenset({"trade"}))
    assert parse_policy("greedy:no_steal") == ("greedy", 0, frozenset({"steal"}))


@pytest.mark.parametrize("name", ["random:no_steal", "greedy:no_foo", "greedy:steal", "greedy:no_steal:no_steal",
                                  "greedy:", "lookahead:0:no_steal", "lookahead:no_steal:8", "greedy:8",
                                  "mcts:10:no_steal", "no_steal", "greedy-nosteal"])
def test_bad_names_are_refused_in_one_line(name):
    with pytest.raises(ValueError) as error:
        SPEC.check_policy_name(name)
    message = str(error.value)
    assert "\n" not in message and repr(name) in message

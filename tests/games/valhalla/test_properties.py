"""Property tests over random valid Valhalla ``Rules`` (hypothesis, derandomized).

For any valid rule values (every parameter of spec §9.2 drawn from its
allowed values; combinations ``Rules.validate`` refuses are skipped with
``assume``):

- the kernel plays 50 games with its §7 checks on (``check=True``);
- every game ends: a win, or an abort by one of the two V-8 safety caps
  (``max_turns`` turns, or 1,000 throws in one turn) - never anything else;
- the record is consistent (§6) and turns alternate (§7.9, see
  ``test_invariants.py`` for the derivation);
- the pure-Python reference plays the first games identically.

And any invalid value raises ``ValueError`` naming the parameter.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import toolkit
from toolkit.games.valhalla import SPEC
from toolkit.games.valhalla.rules import EXTRA_THROW_CLASSES, Rules

N_GAMES = 50
N_REFERENCE = 3

PROPERTY_SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                             suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

squares = st.integers(1, 35)
rule_values = st.fixed_dictionaries({
    "throw_mode": st.sampled_from(["runes", "simplified"]),
    # (0, 1) is allowed; very skewed sticks make natural ones (the start rule) and games very slow
    "stick_rune_up_probability": st.floats(0.1, 0.9),
    "zero_runes_value": st.integers(1, 6),
    "hagalaz_alone_value": st.sampled_from([0, -1]),
    "ships_per_player": st.integers(1, 6),
    "setup": st.sampled_from(["empty_board", "alternating_blocks"]),
    "start_player_rule": st.sampled_from(["first_natural_one", "random", "seat0"]),
    "safe_squares": st.frozensets(squares, max_size=12),
    "rock_square": st.integers(2, 35),
    "dock_square": st.integers(1, 34),
    "dock_release": st.sampled_from(["natural_one", "any_one"]),
    "repairing_ship_protected": st.booleans(),
    "blockade_zone": st.tuples(squares, squares).map(lambda t: (min(t), max(t))),
    "protected_run_lengths": st.frozensets(st.integers(1, 35), max_size=5),
    "blockade_blocks_passage": st.booleans(),
    "backward_rule": st.sampled_from(["full_throw", "one_square", "none"]),
    "backward_attacks_allowed": st.booleans(),
    "blocked_entry_forfeits_turn": st.booleans(),
    "valhalla_entry": st.sampled_from(["exact_or_over", "exact", "direct_off"]),
    "bear_off_gate": st.sampled_from(["every_bear_off", "first_only", "none"]),
    "unentered_count_as_row1": st.booleans(),
    "extra_throw_enabled": st.booleans(),
    "extra_throw_values": st.frozensets(st.sampled_from(EXTRA_THROW_CLASSES)).map(
        lambda s: tuple(c for c in EXTRA_THROW_CLASSES if c in s)),
    "extra_throw_optional": st.booleans(),
    "max_turns": st.one_of(st.integers(1, 30), st.integers(300, 3_000), st.just(10_000)),
})
policy_pairs = st.tuples(st.sampled_from(["random", "greedy", "lookahead"]),
                         st.sampled_from(["random", "greedy"]))


def build(values) -> Rules:
    try:
        return Rules(**values)
    except ValueError:
        assume(False)
        raise  # unreachable


@PROPERTY_SETTINGS
@given(values=rule_values, policies=policy_pairs, seed=st.integers(0, 2**63 - 1))
def test_random_rules_play_correctly(values, policies, seed):
    rules = build(values)
    df = toolkit.simulate("valhalla", rules=rules, n_games=N_GAMES, seed=seed, policies=policies, check=True,
                          progress=False)
    n = rules.ships_per_player
    won = (df["result"] == "win").to_numpy()
    # every game ends: a win, or one of the V-8 caps
    capped_turns = df["turns"].to_numpy() == rules.max_turns
    capped_throws = df[["throws_0", "throws_1"]].max(axis=1).to_numpy() >= 1_000
    assert (won | capped_turns | capped_throws).all(), df.loc[~(won | capped_turns | capped_throws)].head()
    if rules.max_turns >= 10_000 and not rules.blocked_entry_forfeits_turn:
        # with the default cap only a voided entry (V-5.6) can lock a game: once squares 1..5 are full and
        # both seats still have ships at home, every throw of 1..5 is void for both.  Anything else ends.
        assert won.all(), f"{(~won).sum()} of {N_GAMES} games aborted: {df.loc[~won, ['turns', 'throws_0']].head()}"
    event(f"won {won.mean():.0%}".replace("%", " pct"))
    event("some games hit the 1,000-throw cap" if capped_throws.any() else "no throw cap")
    assert (df["turns"] <= rules.max_turns).all()
    # §6 consistency
    assert (won == (df["winner"] >= 0).to_numpy()).all()
    for s in (0, 1):
        assert (df.loc[df["winner"] == s, f"score_{s}"] == n).all()
        assert df[f"score_{s}"].between(0, n).all()
    # §7.9: throws = turns played - throwless opening + extra throws taken, per seat
    start = df["start_seat"].to_numpy()
    turns = df["turns"].to_numpy()
    throwless = rules.setup == "alternating_blocks" and rules.start_player_rule != "first_natural_one"
    for s in (0, 1):
        played = np.where(start == s, (turns + 1) // 2, turns // 2)
        expected = played - ((start == s) & throwless) + df[f"extra_throws_{s}"].to_numpy()
        assert (df[f"throws_{s}"].to_numpy() == expected).all(), s
    if not rules.extra_throw_enabled:
        assert (df["extra_throws_0"] + df["extra_throws_1"] == 0).all()
    # reference == kernel on the first games (skipping very long ones: the reference is pure Python)
    short = [g for g in range(N_GAMES) if df.at[g, "turns"] <= 2_000][:N_REFERENCE]
    assert short or rules.max_turns > 2_000
    for g in short:
        ref = SPEC.play_reference(rules, seed, g, policies)
        row = df.iloc[g]
        ker = {c: (int(row[c]) if c != "result" else int(row[c] == "aborted")) for c in SPEC.columns}
        diff = {c: (ref[c], ker[c]) for c in SPEC.columns if ref[c] != ker[c]}
        assert not diff, f"game {g}: (reference, kernel) differ in {diff}"


# ---------------------------------------------------------------- invalid values


INVALID = [
    ("throw_mode", "dice"), ("throw_mode", None),
    ("stick_rune_up_probability", 0.0), ("stick_rune_up_probability", 1.0),
    ("stick_rune_up_probability", -0.2), ("stick_rune_up_probability", 1.5),
    ("stick_rune_up_probability", math.nan), ("stick_rune_up_probability", math.inf),
    ("stick_rune_up_probability", "half"), ("stick_rune_up_probability", True),
    ("zero_runes_value", 0), ("zero_runes_value", 7), ("zero_runes_value", 2.5), ("zero_runes_value", True),
    ("hagalaz_alone_value", 1), ("hagalaz_alone_value", -2),
    ("ships_per_player", 0), ("ships_per_player", 7), ("ships_per_player", "six"),
    ("setup", "full_board"),
    ("start_player_rule", "youngest"),
    ("safe_squares", {0, 1}), ("safe_squares", {36}), ("safe_squares", "a,b"), ("safe_squares", 5),
    ("rock_square", 1), ("rock_square", 36), ("rock_square", 0),
    ("dock_square", 0), ("dock_square", 35),
    ("dock_release", "two"),
    ("repairing_ship_protected", "maybe"), ("repairing_ship_protected", 2),
    ("blockade_zone", (0, 35)), ("blockade_zone", (25, 36)), ("blockade_zone", (25,)),
    ("blockade_zone", (25, 30, 35)), ("blockade_zone", (30, 25)),
    ("protected_run_lengths", {0}), ("protected_run_lengths", {36}), ("protected_run_lengths", {"x"}),
    ("blockade_blocks_passage", "sometimes"),
    ("backward_rule", "two_squares"),
    ("backward_attacks_allowed", 3),
    ("blocked_entry_forfeits_turn", "yes please"),
    ("valhalla_entry", "over"),
    ("bear_off_gate", "always"),
    ("unentered_count_as_row1", -1),
    ("extra_throw_enabled", "on and off"),
    ("extra_throw_values", ("natural_one", "7")), ("extra_throw_values", ("0",)), ("extra_throw_values", 5),
    ("extra_throw_optional", None),
    ("max_turns", 0), ("max_turns", 1_000_001), ("max_turns", -5),
]


@pytest.mark.parametrize("name,value", INVALID, ids=[f"{n}={v!r}" for n, v in INVALID])
def test_invalid_value_names_parameter(name, value):
    with pytest.raises(ValueError, match=name):
        Rules(**{name: value})


@pytest.mark.parametrize("values,names", [
    (dict(rock_square=19, dock_square=19), ("rock_square", "dock_square")),
    (dict(setup="alternating_blocks", ships_per_player=5), ("ships_per_player", "alternating_blocks")),
    (dict(setup="alternating_blocks", rock_square=13), ("rock_square", "alternating_blocks")),
    (dict(blockade_zone=(30, 25)), ("blockade_zone",)),
])
def test_invalid_combination_names_parameters(values, names):
    with pytest.raises(ValueError) as info:
        Rules(**values)
    for name in names:
        assert name in str(info.value)


def test_unknown_parameter_is_named():
    with pytest.raises(ValueError, match="tempo"):
        Rules.preset("standard", tempo=3)
    with pytest.raises(TypeError):
        Rules(tempo=3)  # the dataclass itself refuses unknown fields


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(name=st.sampled_from(["zero_runes_value", "ships_per_player", "rock_square", "dock_square", "max_turns"]),
       offset=st.integers(1, 10**6), below=st.booleans())
def test_out_of_range_ints_name_parameter(name, offset, below):
    bounds = {"zero_runes_value": (1, 6), "ships_per_player": (1, 6), "rock_square": (2, 35),
              "dock_square": (1, 34), "max_turns": (1, 1_000_000)}
    low, high = bounds[name]
    value = low - offset if below else high + offset
    with pytest.raises(ValueError, match=name):
        Rules(**{name: value})


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(name=st.sampled_from(["throw_mode", "setup", "start_player_rule", "dock_release", "backward_rule",
                             "valhalla_entry", "bear_off_gate"]),
       text=st.text(min_size=1, max_size=12))
def test_unknown_choices_name_parameter(name, text):
    allowed = {"runes", "simplified", "empty_board", "alternating_blocks", "first_natural_one", "random",
               "seat0", "natural_one", "any_one", "full_throw", "one_square", "none", "exact_or_over",
               "exact", "direct_off", "every_bear_off", "first_only"}
    assume(text.strip() not in allowed)
    with pytest.raises(ValueError, match=name):
        Rules(**{name: text})

"""Property tests over random valid Halali ``Rules`` (hypothesis, derandomized).

For any valid rule values (every parameter of spec §9.2 drawn from its
allowed values; tile counts that do not sum to 48 are refused and skipped):

- the kernel plays 30 games with its §7 checks on (``check=True``);
- every game ends (H-7): within the bound the loop guard gives, or by the
  10,000-action cap with ``progress_limit = 0`` (``aborted``);
- the record is consistent (§6);
- the pure-Python reference plays the first game identically.

And any invalid value raises ``ValueError`` naming the parameter.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolkit
from toolkit.games.halali import SPEC
from toolkit.games.halali.rules import EXIT_CHOICES, KINDS, Rules

N_GAMES = 30

PROPERTY_SETTINGS = settings(max_examples=100, deadline=None, derandomize=True, database=None,
                             suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@st.composite
def tile_counts(draw):
    """Seven non-negative counts summing to 48."""
    cuts = sorted(draw(st.lists(st.integers(0, 48), min_size=6, max_size=6)))
    bounds = [0, *cuts, 48]
    return {k: bounds[i + 1] - bounds[i] for i, k in enumerate(KINDS)}


rule_values = st.fixed_dictionaries({
    "tile_counts": tile_counts(),
    "points": st.fixed_dictionaries({k: st.integers(-5, 12) for k in KINDS}),
    "ranges": st.fixed_dictionaries({k: st.integers(0, 7) for k in KINDS}),
    "capture_matrix": st.fixed_dictionaries({k: st.frozensets(st.sampled_from(KINDS), max_size=4).map(
        lambda s: tuple(v for v in KINDS if v in s)) for k in KINDS}),
    "hunter_direction_restricted_capture": st.booleans(),
    "hunter_free_movement_direction": st.booleans(),
    "first_player": st.sampled_from(["blue", "brown", "random"]),
    "no_return_rule": st.booleans(),
    "no_return_applies_to_neutrals": st.booleans(),
    "neutral_lock": st.sampled_from(["reveal_or_move", "reveal_only", "off"]),
    "locked_neutral_capturable": st.booleans(),
    "forced_capture": st.booleans(),
    "end_phase_moves": st.integers(1, 12),
    "exit_squares": st.frozensets(st.sampled_from(EXIT_CHOICES), max_size=8).map(
        lambda s: tuple(c for c in EXIT_CHOICES if c in s)),
    "exits_only_in_end_phase": st.booleans(),
    "rescue_neutrals": st.booleans(),
    "early_end_no_own_tiles": st.booleans(),
    "tiebreak": st.sampled_from(["most_tiles_then_draw", "draw"]),
    "match_games": st.sampled_from([1, 2]),
    "progress_limit": st.one_of(st.just(0), st.integers(1, 80)),
})
policy_pairs = st.tuples(st.sampled_from(["random", "greedy", "lookahead"]), st.sampled_from(["random", "greedy"]))


@PROPERTY_SETTINGS
@given(values=rule_values, policies=policy_pairs, seed=st.integers(0, 2**63 - 1))
def test_random_rules_play_correctly(values, policies, seed):
    rules = Rules(**values)
    df = toolkit.simulate("halali", rules, N_GAMES, seed=seed, policies=policies, check=True, progress=False)
    games = rules.match_games
    assert (df["turns"] == df["main_turns"] + df["end_turns"]).all()
    assert (df["end_turns"] <= 2 * rules.end_phase_moves * games).all()
    if rules.progress_limit > 0:
        assert (df["result"] != "aborted").all()
        # H-7: at most 48 reveals and 48 captures or exits (progress), each followed by at most
        # progress_limit other actions, then the end phase
        bound = (48 + 48 + 1) * (rules.progress_limit + 1) + 2 * rules.end_phase_moves
        assert (df["turns"] <= games * bound).all()
    else:
        assert (df["turns"] <= games * 10_000).all()
        first_aborted = df["end_reason"] == "aborted"
        if games == 1:
            assert ((df["result"] == "aborted") == first_aborted).all()
        else:
            assert (df.loc[first_aborted, "result"] == "aborted").all()
    for seat in (0, 1):
        points = sum(rules.points[k] * (df[f"captures_{k}_{seat}"] + df[f"rescues_{k}_{seat}"]) for k in KINDS)
        assert (points == df[f"score_{seat}"]).all()
    long_games = rules.progress_limit == 0 or policies[0] == "lookahead"
    if not long_games or df["turns"].iloc[0] < 2_000:
        expected = SPEC.play_reference(rules, seed, 0, policies)
        got = df.iloc[0].to_dict()
        for column, labels in SPEC.categories.items():
            got[column] = list(labels).index(got[column])
        assert {c: int(got[c]) for c in SPEC.columns} == expected


@pytest.mark.parametrize("values,words", [
    ({"tile_counts": {"bear": 3}}, "tile_counts="),
    ({"points": {"bear": 1000}}, "points"),
    ({"ranges": {"fox": 8}}, "ranges"),
    ({"capture_matrix": {"bear": ("wolf",)}}, "capture_matrix"),
    ({"exit_squares": ("d4:N",)}, "exit_squares"),
    ({"match_games": 3}, "match_games=3"),
    ({"neutral_lock": "sometimes"}, "neutral_lock='sometimes'"),
    ({"progress_limit": -1}, "progress_limit=-1"),
])
def test_invalid_values_name_the_parameter(values, words):
    with pytest.raises(ValueError, match=words):
        Rules(**values)

"""``lookahead:N`` really plays with N samples, in the reference and in the kernel (issue 15, point 6).

The kernel and the reference read the sample count through the same parser
(``parse_samples`` for Walhalla, Herrlof's and Attila's own ``parse_policy``),
so their game-by-game equality cannot see a parser that loses N: forcing
every ``lookahead:N`` to one sample left the equality tests green.  Here,
for the three games whose lookahead takes a sample count:

- the parsed count, the kernel's policy vector and the reference policy
  object carry the N written in the name (the numbers are written here, not
  taken from the parser);
- the reference lookahead draws exactly N worlds (``determinize`` calls) at
  every decision it is asked, counted by wrapping the reference functions;
- the kernel's games with those policies equal the counted reference games,
  and differ from the reference's when the kernel is given the other seat's
  count, so the equality would fail if one side used a different N;
- in the kernel alone, 1, 2, 3 and 8 samples give four different sets of games.

The games are kept short (one Herrlof round, one Walhalla raid, a few Attila
turns): Attila's reference rollouts cost about 0.13 s per world.
"""

from __future__ import annotations

import dataclasses
import itertools

import pandas as pd
import pytest

import toolkit
from toolkit.games import attila, herrlof, walhalla
from toolkit.games.attila import kernel as attila_kernel
from toolkit.games.attila import policies as attila_policies
from toolkit.games.herrlof import kernel as herrlof_kernel
from toolkit.games.herrlof import policies as herrlof_policies
from toolkit.games.walhalla import kernel as walhalla_kernel
from toolkit.games.walhalla import policies as walhalla_policies


def _herrlof_decision(args):
    view, d = args[0], args[1]
    return view.seat, len(d.options)


def _dict_view_decision(args):
    view, options = args[0], args[1]
    return view["seat"], len(options)


@dataclasses.dataclass(frozen=True)
class Case:
    game: str
    spec: object
    policies: object  # the game's policies module (reference)
    kernel: object
    lookahead: str  # the reference function that draws the worlds of one decision
    decision: object  # its arguments -> (seat, number of options)
    rules: object  # short games
    lineup: tuple  # "{0}" / "{1}": the two lookahead seats' names
    sample_slot: object  # seat -> index of its sample count in kernel.policy_ids
    default: int  # samples of a bare "lookahead", as the policy docstring says
    most: int
    n_reference: int  # reference games per equality test


# sample slots of kernel.policy_ids: Herrlof [id_0, id_1, samples_0, samples_1]; Walhalla ids of
# seats 0..3, then their samples; Attila ids of seats 0..4, their samples, their unused-tile masks
CASES = {
    "herrlof": Case("herrlof", herrlof.SPEC, herrlof_policies, herrlof_kernel, "lookahead_choice", _herrlof_decision,
                    herrlof.SPEC.Rules(max_rounds=1), ("{0}", "{1}"), lambda seat: 2 + seat, 32, 4096, 3),
    "walhalla": Case("walhalla", walhalla.SPEC, walhalla_policies, walhalla_kernel, "lookahead_fjord",
                     _dict_view_decision, walhalla.SPEC.Rules(num_players=3, raids=1), ("{0}", "greedy", "{1}"),
                     lambda seat: 4 + seat, 8, 1024, 2),
    "attila": Case("attila", attila.SPEC, attila_policies, attila_kernel, "lookahead_play", _dict_view_decision,
                   attila.SPEC.Rules(num_players=2, max_turns=4), ("{0}", "{1}"), lambda seat: 5 + seat, 8, 1024, 2),
}
GAMES = sorted(CASES)


def lineup(case, first: int, second: int) -> tuple:
    return tuple(name.format(f"lookahead:{first}", f"lookahead:{second}") for name in case.lineup)


def lookahead_seats(case) -> tuple:
    return tuple(seat for seat, name in enumerate(case.lineup) if name.startswith("{"))


def samples_of(case, name: str) -> int:
    parsed = case.policies.parse_policy(name)
    base, samples = parsed[0], parsed[1]
    assert base == name.split(":")[0]
    return samples


# ---------------------------------------------------------------------- the count, as parsed


@pytest.mark.parametrize("game", GAMES)
def test_the_parsed_sample_count_is_the_number_written(game):
    case = CASES[game]
    assert samples_of(case, "lookahead") == case.default
    for n in (1, 2, 3, 5, 17, 100, case.most):
        assert samples_of(case, f"lookahead:{n}") == n
        assert case.policies.make_policy(f"lookahead:{n}", case.rules, None).samples == n
    for bad in (0, case.most + 1):
        with pytest.raises(ValueError):
            case.policies.parse_policy(f"lookahead:{bad}")


def decode(kernel, code) -> tuple:
    """(policy id, samples) of a seat's policy code, as each kernel packs it."""
    code = int(code)
    if hasattr(kernel, "POLICY_BASE"):  # Attila: id | unused-tile mask << 2 | samples << 5
        return code & kernel.POLICY_BASE, code >> kernel.POLICY_SAMPLES_SHIFT
    shift = getattr(kernel, "SAMPLES_SHIFT", None) or kernel.POLICY_BITS  # Herrlof, Walhalla: id | samples << 8
    return code & ((1 << shift) - 1), code >> shift


@pytest.mark.parametrize("game", GAMES)
def test_the_kernel_gets_each_seat_its_own_count(game):
    case = CASES[game]
    first, second = lookahead_seats(case)
    for n, m in ((1, 3), (3, 1), (2, 17), (case.most, 5)):
        ids = case.kernel.policy_ids(lineup(case, n, m))
        assert ids[case.sample_slot(first)] == n and ids[case.sample_slot(second)] == m, ids
        # the seat's own slot is its policy code, all the protocol's choose gets: the id and the count
        assert decode(case.kernel, ids[first]) == (case.kernel.POLICY_ID["lookahead"], n), ids
        assert decode(case.kernel, ids[second]) == (case.kernel.POLICY_ID["lookahead"], m), ids


# ---------------------------------------------------------------------- the reference draws N worlds


@pytest.fixture
def worlds_drawn(monkeypatch):
    """``worlds_drawn(case)`` -> a list filled with (seat, options, worlds) for every reference lookahead decision."""

    def install(case):
        module = case.policies
        seen, count = [], [0]
        real_determinize, real_lookahead = module.determinize, getattr(module, case.lookahead)

        def determinize(*args, **kwargs):
            count[0] += 1
            return real_determinize(*args, **kwargs)

        def lookahead(*args, **kwargs):
            before = count[0]
            choice = real_lookahead(*args, **kwargs)
            seen.append((*case.decision(args), count[0] - before))
            return choice

        monkeypatch.setattr(module, "determinize", determinize)
        monkeypatch.setattr(module, case.lookahead, lookahead)
        return seen

    return install


def reference_rows(case, policies, seed, n_games):
    return [case.spec.play_reference(case.rules, seed, g, policies) for g in range(n_games)]


def kernel_rows(case, policies, seed, n_games):
    df = toolkit.simulate(case.game, rules=case.rules, n_games=n_games, seed=seed, policies=policies,
                          check=True, progress=False)
    for c in df.columns:
        if isinstance(df[c].dtype, pd.CategoricalDtype):  # the reference gives the codes
            df[c] = df[c].cat.codes
    columns = list(toolkit.GAMES[case.game].result_columns(case.rules))  # the kernel's, not the derived ones
    return [{c: int(v) for c, v in zip(columns, row)} for row in df[columns].itertuples(index=False)]


def same_columns(kernel, reference):
    return [{c: r[c] for c in k} for k, r in zip(kernel, reference)]


@pytest.mark.parametrize("n,m", [(1, 3), (3, 1)])
@pytest.mark.parametrize("game", GAMES)
def test_kernel_equals_the_reference_that_drew_n_worlds(game, n, m, worlds_drawn):
    """The lookahead seats play ``lookahead:n`` and ``lookahead:m``: each reference decision of a
    seat draws its own count of worlds; the kernel plays the same games; the kernel with the two
    counts swapped does not (so the equality depends on the count each side uses)."""
    case = CASES[game]
    seen = worlds_drawn(case)
    policies = lineup(case, n, m)
    reference = reference_rows(case, policies, seed=11, n_games=case.n_reference)
    first, second = lookahead_seats(case)
    wanted = {first: n, second: m}
    assert {seat for seat, options, _ in seen if options > 1} == {first, second}, seen
    for seat, options, worlds in seen:
        assert worlds == (wanted[seat] if options > 1 else 0), (seat, options, worlds, wanted)
    kernel = kernel_rows(case, policies, seed=11, n_games=case.n_reference)
    assert kernel == same_columns(kernel, reference)
    swapped = kernel_rows(case, lineup(case, m, n), seed=11, n_games=case.n_reference)
    assert swapped != same_columns(swapped, reference)


# ---------------------------------------------------------------------- the kernel's count changes its games


@pytest.mark.parametrize("game", GAMES)
def test_more_samples_change_the_kernels_games(game):
    case = CASES[game]
    frames = {}
    for n in (1, 2, 3, 8):
        rows = kernel_rows(case, lineup(case, n, n), seed=5, n_games=40)
        frames[n] = rows
    for a, b in itertools.combinations(frames, 2):
        differ = sum(x != y for x, y in zip(frames[a], frames[b]))
        assert differ > 0, f"{game}: lookahead:{a} and lookahead:{b} play the same 40 games"

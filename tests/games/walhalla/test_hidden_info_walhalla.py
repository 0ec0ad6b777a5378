"""Hidden information (spec ``docs/rules/walhalla.md`` W-1, W-7.2, §5): the policies decide only on what their seat may know.

What a seat cannot see: the other players' hands (their sizes are public,
W-1), the order of the action deck, the order of the dragon deck (the set of
dragons still to come is public: every dragon drawn was revealed), and in the
card phase the cards the earlier players laid face down (W-7.2: their number
shows, their kind does not until the reveal).

Seeded games are played with every seat wrapped.  Before each decision point
(DP-1..DP-9) a fresh copy of the policy under test is asked, with a fresh
copy of the seat's decision stream (``Stream(state=...)``, so greedy breaks
ties and the lookahead draws its determinizations the same way), on the true
position and then on positions where what the deciding seat cannot see is
permuted **in the real Game object**, and ``game.view(seat)`` is rebuilt
after the permutation.  The view holds plain values only, but a policy could
still reach the game some other way (the call stack, a global); permuting the
game itself, not a copy of the view, is what lets the harness catch that.
The permutations (``MODES``):

- ``redeal``: the other hands, the action deck and, in a card phase, the
  cards the earlier players laid, as one pool, re-dealt keeping every hand
  size, the deck size and each earlier player's laid count; and the dragon
  deck shuffled.  Cards dealt to a laid slot leave the game object: the true
  laid cards live only inside ``Game.card_phase`` and are never touched, so
  the permuted world is one where the earlier players laid other cards (of
  the same number);
- ``swap``: the same among the other hands (and laid cards) only;
- ``deck``: the action deck order only;
- ``dragons``: the dragon deck order only (the dragon being played was
  drawn and revealed before any decision of its turn: it is not in the deck).

The view must be the same, the policy must leave the game unchanged, and it
must make the same choice.  For the "*" seats the harness also checks that
its fresh copy reproduces the seat's real play.  The negative controls are
policies that peek at the game through the call stack, one per hidden part,
and a view that leaks the dragons' order: the same harness catches them.
"""

from __future__ import annotations

import collections
import random
import sys

import pytest

from toolkit.core.rng import Stream
from toolkit.games.walhalla import policies
from toolkit.games.walhalla import reference as ref
from toolkit.games.walhalla.data import AXE, CARD_TYPES, HORN, PLUNDER, SHIELD, WALHALLA_CARD
from toolkit.games.walhalla.policies import greedy_choice, make_policy
from toolkit.games.walhalla.rules import Rules

from walhalla_configs import CONFIGS  # the shared rule configurations, beside this file

N_CARD_TYPES = len(CARD_TYPES)
KIND = {ref.DP_BOARD: "dp1_board", ref.DP_COLOUR_SEAT: "dp2_colour_seat", ref.DP_FJORD: "dp3_fjord",
        ref.DP_LANDING: "dp4_landing", ref.DP_AXE: "dp5_axe", ref.DP_SHIELD: "dp6_shield",
        ref.DP_OUTCOME: "dp7_outcome", ref.DP_RAID_CARDS: "dp8_raid_cards", ref.DP_SELL: "dp9_sell"}
# Everything Game.view gives; a new key must be reviewed here (could it carry a hidden card or the dragon order?).
VIEW_KEYS = frozenset({"seat", "rules", "raid", "start", "hand", "hand_sizes", "vp", "midgard", "asgard", "walhalla",
                       "lengths", "field_type", "field_value", "occupant", "inner_tip", "outer_tip", "moored",
                       "dragons_left", "discard", "deck_size", "aboard", "dragon", "fjord", "dragon_colour",
                       "dragon_seat"})
MODES = ("redeal", "swap", "deck", "dragons")

# (rules, seed, game index, seat policies); "*" is the policy under test, so the harness also checks it
# reproduces that seat's real play.  Random seats bring every option of every decision point to the table.
CASES = [
    (CONFIGS["standard_4p"], 11, 0, ("*", "random", "greedy", "random")),
    (CONFIGS["standard_3p"], 12, 1, ("random", "*", "greedy")),
    (CONFIGS["variable_4p"], 13, 2, ("greedy", "*", "random", "*")),
    (CONFIGS["variable_3p"], 14, 3, ("*", "random", "random")),
    (CONFIGS["cards_4p"], 15, 0, ("*", "random", "greedy", "random")),
    (CONFIGS["cards_3p"], 16, 1, ("random", "greedy", "*")),
    (CONFIGS["standard_4p"], 17, 4, ("random", "*", "random", "*")),
    (CONFIGS["standard_3p"], 18, 5, ("*", "random", "random")),
    (CONFIGS["variable_4p"], 19, 6, ("random", "random", "*", "greedy")),
    (CONFIGS["cards_4p"], 20, 7, ("random", "*", "random", "greedy")),
    (CONFIGS["cards_4p"], 21, 8, ("*", "*", "*", "*")),
    (CONFIGS["cards_3p"], 22, 9, ("*", "random", "greedy")),
]
# The lookahead costs 0.05-0.2 s per DP-3 decision with two or more fjords in pure Python (measured; most
# early in a raid, with many dragons to roll out): such a DP-3 is checked at every ``stride``-th point, at
# most ``most`` times per game, on the permutations of ``LOOKAHEAD_DP3_MODES`` ("redeal" moves every hidden
# part at once); its other decisions (and a DP-3 with one fjord) are greedy's, checked at every point on
# every permutation.  (rules, seed, game index, seat policies, (stride, most))
LOOKAHEAD_CASES = [
    (CONFIGS["standard_4p"], 21, 0, ("*", "greedy", "random", "greedy"), (8, 4)),
    (CONFIGS["standard_3p"], 22, 1, ("random", "*", "greedy"), (10, 3)),
    (CONFIGS["variable_4p"], 23, 2, ("random", "greedy", "greedy", "random"), (12, 3)),
    (CONFIGS["cards_3p"], 24, 0, ("greedy", "random", "greedy"), (10, 3)),
]
LOOKAHEAD_DP3_MODES = ("redeal", "dragons")


# ---------------------------------------------------------------------- the hidden parts


def cards(counts) -> list:
    return [c for c in range(N_CARD_TYPES) for _ in range(counts[c])]


def counts(cards_) -> list:
    out = [0] * N_CARD_TYPES
    for c in cards_:
        out[c] += 1
    return out


def laid_cards(vector) -> list:
    """The cards of a DP-8 choice (h0, h1, h2, w, pl)."""
    h0, h1, h2, w, pl = vector
    return [HORN] * (h0 + h1 + h2) + [WALHALLA_CARD] * w + [PLUNDER] * pl


def permute_hidden(game, seat, laid, rnd: random.Random, mode: str):
    """Permute, in place, what ``seat`` cannot see (see the module docstring for ``mode``).

    ``laid`` maps each earlier player of the card phase in progress to its DP-8 choice.
    Returns (what :func:`restore` needs, whether a hand, the deck or the dragon deck changed)."""
    saved = ([list(h) for h in game.hands], list(game.deck), list(game.dragons))
    pool, slots = [], []
    if mode in ("redeal", "swap"):
        for p in range(game.n):
            if p != seat:
                pool += cards(game.hands[p])
                slots.append(("hand", p, sum(game.hands[p])))
        for p, vector in sorted(laid.items()):
            pool += laid_cards(vector)
            slots.append(("laid", p, sum(vector)))
    if mode in ("redeal", "deck"):
        pool += game.deck
        slots.append(("deck", None, len(game.deck)))
    before = collections.Counter(pool)
    rnd.shuffle(pool)
    i = 0
    for where, p, size in slots:
        part, i = pool[i:i + size], i + size
        if where == "hand":
            game.hands[p][:] = counts(part)
        elif where == "deck":
            game.deck[:] = part
    if mode in ("redeal", "dragons"):
        rnd.shuffle(game.dragons)
    assert i == len(pool) and collections.Counter(pool) == before
    assert [sum(h) for h in game.hands] == [sum(h) for h in saved[0]] and len(game.deck) == len(saved[1])
    assert game.hands[seat] == saved[0][seat] and sorted(game.dragons) == sorted(saved[2])
    changed = game.hands != saved[0] or game.deck != saved[1] or game.dragons != saved[2]
    return saved, changed


def restore(game, saved) -> None:
    hands, deck, dragons = saved
    for p, hand in enumerate(hands):
        game.hands[p][:] = hand
    game.deck[:] = deck
    game.dragons[:] = dragons


def snapshot(game):
    return repr((game.hands, game.deck, game.dragons, game.discard, game.vp, game.midgard, game.asgard,
                 game.walhalla, game.occupant, game.moored, game.aboard, game.dragon, game.fjord, game.raid,
                 game.start, game.plies, game.turns, game.combats, game.axes, game.shields, game.cards_sold,
                 game.chance.state))


# ---------------------------------------------------------------------- the harness


class Seat:
    """Wraps a seat's own policy: ``before`` runs ahead of each of its decisions (with the state of the
    seat's decision stream at that moment), ``after`` sees the choice."""

    def __init__(self, game, seat, inner, stream, before, after):
        self.game, self.seat, self.inner, self.stream = game, seat, inner, stream
        self.before, self.after = before, after

    def choose(self, view, d):
        reference = self.before(self.game, self.seat, d, self.stream.state)
        choice = self.inner.choose(view, d)
        if reference is not None:
            assert choice == reference, "the harness does not reproduce the seat's own play"
        self.after(self.game, self.seat, d, choice)
        return choice


def play_wrapped(rules, seed, game_index, seat_policies, before, after):
    game = ref.Game(rules, seed, game_index, seat_policies)
    for s, inner in enumerate(game.players):
        game.players[s] = Seat(game, s, inner, inner.stream, before, after)
    return game.play_out()


def check_game(rules, seed, game_index, seat_policies, name, factory, rnd, dp3_checks=(1, None), dp3_modes=MODES):
    """Play one game; at each decision point compare the choice of ``factory(rules, stream)`` on the true
    position and on the permuted ones (every mode of ``MODES``; a DP-3 with two or more fjords on
    ``dp3_modes``, at every ``dp3_checks[0]``-th point, at most ``dp3_checks[1]`` times).  Returns counts
    (see the keys below)."""
    stride, most = dp3_checks
    out = collections.Counter()
    laid_in_phase = collections.defaultdict(dict)  # raid -> {seat: its DP-8 choice}, in the card phase

    def before(game, seat, d, state):
        kind = KIND[d.kind]
        real_dp3 = d.kind == ref.DP_FJORD and len(d.options) > 1
        if real_dp3:
            out["dp3_seen"] += 1
            if (out["dp3_seen"] - 1) % stride or (most is not None and out["choice_dp3_fjord"] >= most):
                return None
        laid = laid_in_phase[game.raid] if d.kind == ref.DP_RAID_CARDS else {}
        state_before = snapshot(game)
        view = game.view(seat)
        base = factory(game.rules, Stream(state=state)).choose(game.view(seat), d)
        assert base in d.options
        assert snapshot(game) == state_before, "the policy changed the game"
        any_change = False
        for mode in dp3_modes if real_dp3 else MODES:
            saved, changed = permute_hidden(game, seat, laid, rnd, mode)
            try:
                other = game.view(seat)
                assert set(other) == VIEW_KEYS
                assert other == view, f"{kind}: the view changes with the hidden cards ({mode})"
                choice = factory(game.rules, Stream(state=state)).choose(other, d)
            finally:
                restore(game, saved)
            assert snapshot(game) == state_before, "the policy or the harness changed the game"
            any_change |= changed
            if choice != base:
                out["mismatches"] += 1
                out[f"mismatch_{kind}"] += 1
                out[f"mismatch_{mode}"] += 1
        out["checks"] += 1
        out[kind] += 1
        out[f"choice_{kind}"] += len(d.options) > 1
        out["changed"] += any_change
        out["laid_in_pool"] += any(sum(v) > 0 for v in laid.values())
        return base if seat_policies[seat] == name else None

    def after(game, seat, d, choice):
        if d.kind == ref.DP_RAID_CARDS:
            laid_in_phase[game.raid][seat] = choice

    play_wrapped(rules, seed, game_index, seat_policies, before, after)
    return out


def run_cases(cases, name, factory, star=None, **kw) -> collections.Counter:
    """:func:`check_game` over ``cases``; the "*" seats play ``star`` (default: ``name``)."""
    rnd = random.Random(2024)
    total = collections.Counter()
    for rules, seed, game_index, seats, *dp3_checks in cases:
        seats = tuple((star or name) if s == "*" else s for s in seats)
        total.update(check_game(rules, seed, game_index, seats, name, factory, rnd, *dp3_checks, **kw))
    return total


def policy_factory(name):
    return lambda rules, stream: make_policy(name, rules, stream)


def assert_every_kind_checked(total, minimum):
    for kind in KIND.values():
        assert total[kind] >= minimum.get(kind, 20), (kind, dict(total))
        assert total[f"choice_{kind}"] > 0, (f"no {kind} with a real choice", dict(total))


# ---------------------------------------------------------------------- the tests


def test_greedy_decisions_ignore_hidden_information():
    total = run_cases(CASES, "greedy", policy_factory("greedy"))
    assert total["mismatches"] == 0, {k: v for k, v in total.items() if k.startswith("mismatch")}
    assert total["checks"] >= 2000, dict(total)
    assert total["changed"] >= 0.97 * total["checks"], dict(total)  # the permutations really moved cards
    assert total["laid_in_pool"] >= 30, dict(total)  # DP-8 after earlier players laid cards face down
    assert_every_kind_checked(total, {"dp5_axe": 60, "dp6_shield": 30, "dp8_raid_cards": 60, "dp9_sell": 25})


def test_lookahead_decisions_ignore_hidden_information():
    """DP-3 by determinized rollouts: the guesses come from the view and the seat's stream only."""
    name = "lookahead:2"
    total = run_cases(LOOKAHEAD_CASES, name, policy_factory(name), dp3_modes=LOOKAHEAD_DP3_MODES)
    assert total["mismatches"] == 0, {k: v for k, v in total.items() if k.startswith("mismatch")}
    assert total["choice_dp3_fjord"] >= 12, dict(total)  # rollouts really compared, for 3 and 4 players
    assert total["changed"] >= 0.97 * total["checks"], dict(total)
    assert_every_kind_checked(total, {"dp3_fjord": 12, "dp5_axe": 5, "dp6_shield": 1, "dp8_raid_cards": 10,
                                      "dp9_sell": 5})


def _game_on_stack():
    return sys._getframe(2).f_locals["game"]  # choose <- the harness's ``before``, which holds the game


class PeekHands:
    """Negative control: greedy, except that at DP-5 it plays its Axe only if the defender holds no
    Shield, and at DP-3 it picks the fjord by the number of Axes the next seat holds."""

    def __init__(self, rules, stream):
        self.stream = stream

    def choose(self, view, d):
        game = _game_on_stack()
        if d.kind == ref.DP_AXE:
            k, j = d.info
            return ref.PLAY_AXE if game.hands[game.occupant[k][j]][SHIELD] == 0 else ref.DECLINE
        if d.kind == ref.DP_FJORD:
            return d.options[game.hands[(view["seat"] + 1) % game.n][AXE] % len(d.options)]
        return greedy_choice(view, d, self.stream)


class PeekDeck:
    """Negative control: greedy, except that at DP-3 it picks the fjord by the top card of the action deck
    (the card its next cult place would draw)."""

    def __init__(self, rules, stream):
        self.stream = stream

    def choose(self, view, d):
        deck = _game_on_stack().deck
        if d.kind == ref.DP_FJORD and deck:
            return d.options[deck[0] % len(d.options)]
        return greedy_choice(view, d, self.stream)


class PeekDragons:
    """Negative control: greedy, except that at DP-1 it boards nobody when the next dragon has its colour
    (saving Vikings for it), and at DP-3 it picks the fjord by the next dragon."""

    def __init__(self, rules, stream):
        self.stream = stream

    def choose(self, view, d):
        game = _game_on_stack()
        if d.kind == ref.DP_BOARD and game.dragons and game.dragon_colour[game.dragons[0]] == view["seat"]:
            return d.options[0]
        if d.kind == ref.DP_FJORD and game.dragons:
            return d.options[game.dragons[0] % len(d.options)]
        return greedy_choice(view, d, self.stream)


@pytest.mark.parametrize("peeker, kinds, modes", [
    (PeekHands, ("dp3_fjord", "dp5_axe"), ("redeal", "swap")),
    (PeekDeck, ("dp3_fjord",), ("redeal", "deck")),
    (PeekDragons, ("dp1_board", "dp3_fjord"), ("redeal", "dragons")),
], ids=["hands", "deck", "dragons"])
def test_negative_control_a_peeking_policy_is_caught(peeker, kinds, modes):
    total = run_cases(CASES[3:5], "peeker", peeker, star="greedy")
    assert total["checks"] > 0
    for kind in kinds:
        assert total[f"mismatch_{kind}"] >= 3, dict(total)
    for mode in modes:
        assert total[f"mismatch_{mode}"] >= 3, dict(total)
    for mode in set(MODES) - set(modes):  # what it does not read does not move its choice
        assert total[f"mismatch_{mode}"] == 0, dict(total)


class PeekRollouts:
    """Negative control: ``lookahead:2`` whose rollouts play out the true hands, action deck and dragon order
    (read from the game) instead of guesses drawn from the view."""

    def __init__(self, rules, stream):
        self.inner = make_policy("lookahead:2", rules, stream)

    def choose(self, view, d):
        game = _game_on_stack()
        guess = policies.determinize
        policies.determinize = lambda view, stream: ([list(h) for h in game.hands], list(game.deck),
                                                     list(game.dragons))
        try:
            return self.inner.choose(view, d)
        finally:
            policies.determinize = guess


def test_negative_control_a_lookahead_rolling_out_the_true_game_is_caught():
    case = (CONFIGS["standard_4p"], 25, 0, ("greedy", "random", "greedy", "random"), (4, 6))
    total = run_cases([case], "peeker", PeekRollouts, dp3_modes=LOOKAHEAD_DP3_MODES)
    assert total["choice_dp3_fjord"] == 6, dict(total)
    assert total["mismatch_dp3_fjord"] >= 4, dict(total)  # of 12 comparisons
    assert total["mismatches"] == total["mismatch_dp3_fjord"], dict(total)  # greedy elsewhere: no peeking


def test_negative_control_a_leaky_view_is_caught(monkeypatch):
    """The view comparison catches a view that shows the dragons to come in deck order, not as a set."""
    view = ref.Game.view
    monkeypatch.setattr(ref.Game, "view", lambda self, seat: {**view(self, seat), "dragons_left": list(self.dragons)})
    with pytest.raises(AssertionError, match="the view changes with the hidden cards"):
        run_cases(CASES[:1], "greedy", policy_factory("greedy"))


def test_w1_the_view_is_plain_data_and_shows_only_what_the_seat_may_know():
    """The view is plain data (no callable, no object with the game's state behind it), a copy (changing
    it leaves the game alone), and holds the seat's own hand, the other hands' sizes, the deck's size and
    the dragons to come as a sorted set."""
    rules = Rules(num_players=3, initial_action_cards=3)
    game = ref.Game(rules, 3, 0, ("greedy",) * 3)
    game.raid = 0
    game.turn(game.start)  # a position inside the game: a dragon drawn, sailed and disembarked
    for seat in range(3):
        view = game.view(seat)
        assert set(view) == VIEW_KEYS
        assert not any(callable(v) for v in view.values())
        assert {type(v).__name__ for v in view.values()} <= {"int", "list", "tuple", "Rules"}
        assert all(type(x).__name__ == "int" for key in ("dragon_colour", "dragon_seat") for x in view[key])
        assert view["hand"] == game.hands[seat] and view["hand_sizes"] == [sum(h) for h in game.hands]
        assert view["deck_size"] == len(game.deck) and view["dragons_left"] == sorted(game.dragons)
        assert view["discard"] == game.discard and view["rules"] is rules
        before = snapshot(game)
        for value in view.values():  # every list in the view is the view's own
            if isinstance(value, list):
                for i, x in enumerate(value):
                    if isinstance(x, list):
                        x[:] = [-9] * len(x)
                    else:
                        value[i] = -9
        assert snapshot(game) == before


def test_w7_2_dp8_view_shows_only_the_number_of_cards_laid():
    """W-7.2: cards are laid face down, one player after another, and revealed together.  A later player's
    DP-8 view is the one it had when the card phase began, except that each earlier player's hand size is
    smaller by the number of cards it laid; the cards laid are in no part of it (not in the discard pile,
    which gets them only at the reveal)."""
    out = collections.Counter()
    phases = {}  # raid -> (every seat's view at the phase's first DP-8, laid so far)

    def before(game, seat, d, state):
        if d.kind != ref.DP_RAID_CARDS:
            return None
        if game.raid not in phases:
            phases[game.raid] = ({p: game.view(p) for p in range(game.n)}, {})
        start, laid = phases[game.raid]
        now, then = game.view(seat), start[seat]
        assert now["hand_sizes"] == [then["hand_sizes"][p] - sum(laid.get(p, ())) for p in range(game.n)]
        assert now["discard"] == then["discard"] and now["vp"] == then["vp"]  # nothing revealed yet
        assert {k: v for k, v in now.items() if k != "hand_sizes"} == \
            {k: v for k, v in then.items() if k != "hand_sizes"}
        out["dp8"] += 1
        out["after_laid"] += any(sum(v) > 0 for v in laid.values())
        return None

    def after(game, seat, d, choice):
        if d.kind == ref.DP_RAID_CARDS:
            phases[game.raid][1][seat] = choice

    for rules, seed, game_index, seats in CASES:
        phases.clear()
        play_wrapped(rules, seed, game_index, tuple("random" if s == "*" else s for s in seats), before, after)
    assert out["dp8"] >= 60 and out["after_laid"] >= 20, dict(out)

"""Hidden information (spec ``docs/rules/attila.md`` §3, A-4.2, §5): the policies decide only on what their seat may know.

Hands are private (§3: only their sizes are public) and support cards are laid
face down, one player after another, and revealed together (A-4.2, A-4.3).

Seeded games are played with every seat wrapped.  Before each decision point
(DP-1..DP-7) a fresh copy of the policy under test is asked, with a fresh copy
of the seat's decision stream (``Stream(state=...)``, so the lookahead draws
the same determinizations), on the true position and then on positions where
the cards the deciding seat cannot see are permuted **in the real Game
object**, and ``game.view(seat)`` is rebuilt after the permutation.  The view
holds plain values only, but a policy could still reach the game some other
way (the call stack, a global); permuting the game itself, not a copy of the
view, is what lets the harness catch that.  The permutations:

- ``redeal``: the other hands, the deck and, during a war, the cards the
  earlier players laid face down, as one pool, re-dealt keeping every hand
  size, the deck size and each earlier player's laid count.  Cards dealt to a
  laid slot leave the game object: the true laid cards live only inside
  ``Game.war`` and are never touched, so the permuted world is one where the
  earlier players laid other cards (of the same number);
- ``swap``: the same among the other hands (and laid cards) only, the deck
  kept: who holds what changes, the multiset of the other hands does not;
- ``deck``: the deck order only.

The view must be the same, the policy must leave the game unchanged, and it
must make the same choice.  The negative controls are policies that peek at
the game through the call stack: the same harness catches them.  A separate test checks what a DP-7 view holds
while a war is in progress: the earlier players' support shows only as smaller
hand sizes.
"""

from __future__ import annotations

import collections
import random
import sys

import pytest

from toolkit.core.rng import Stream
from toolkit.games.attila import reference as ref
from toolkit.games.attila.policies import greedy_choice, make_policy
from toolkit.games.attila.rules import Rules

N_TRIBES = ref.N_TRIBES
KIND = {ref.DP_TILE: "dp1_tile", ref.DP_PLUS_TWO: "dp2_plus_two", ref.DP_EXCHANGE: "dp3_exchange",
        ref.DP_PLAY: "dp4_play", ref.DP_DISCARD: "dp5_discard", ref.DP_BONUS: "dp6_bonus",
        ref.DP_SUPPORT: "dp7_support"}
# Everything Game.view gives; a new key must be reviewed here (could it carry hidden cards?).
VIEW_KEYS = frozenset({"seat", "hand", "hand_sizes", "influence", "figures", "pacified", "supply", "vp", "peace",
                       "tiles", "rules", "century", "legal", "discard", "deck_size", "end_triggered", "turns",
                       "pending", "plays_left", "start_player"})
MODES = ("redeal", "swap", "deck")

# A short game with small supplies and hands: stalls, forced discards (DP-5) and many wars.
SHORT = Rules(num_players=4, influence_track_max=8, war_threshold=3, figures_per_tribe=4,
              peace_tiles_per_century=(3, 3, 3, 3), hand_size=4, cards_per_tribe=3)
STRICT = Rules(num_players=3, support_any_tribe=False, second_figure_option=True, max_tiles_per_turn=1,
               figures_per_tribe=6, war_threshold=4)
# (rules, seed, game index, seat policies); "*" is the policy under test, so the harness also checks it
# reproduces that seat's real play.  Random seats bring exchanges (DP-3) and mixed support to the table.
CASES = [
    (Rules(num_players=2), 11, 0, ("*", "random")),
    (Rules(num_players=3), 12, 1, ("random", "*", "greedy")),
    (Rules(num_players=4), 13, 2, ("*", "random", "greedy", "random")),
    (Rules(num_players=5), 14, 3, ("random", "greedy", "random", "random", "*")),
    (SHORT, 15, 0, ("*", "random", "random", "greedy")),
    (SHORT, 16, 1, ("random", "*", "greedy", "random")),
    (SHORT, 18, 2, ("*", "greedy", "random", "*")),
    (STRICT, 17, 0, ("random", "*", "random")),
]
# The lookahead costs 0.05 (2 players) to 1 s (5 players) per DP-4 decision: its own seat plays only in
# the 2-player game, DP-4 is checked at every ``stride``-th point up to ``most`` per game, with two
# permutations; its other decisions are greedy's, checked at every point.
# (rules, seed, game index, seat policies, (stride, most))
LOOKAHEAD_CASES = [
    (Rules(num_players=2, peace_tiles_per_century=(1, 1, 2, 2)), 21, 0, ("*", "random"), (2, 8)),
    (Rules(num_players=3), 22, 1, ("random", "greedy", "greedy"), (6, 4)),
    (Rules(num_players=4), 23, 2, ("greedy", "random", "greedy", "random"), (9, 2)),
    (Rules(num_players=5), 24, 3, ("random", "greedy", "random", "random", "greedy"), (20, 1)),
    (SHORT, 28, 0, ("greedy", "random", "random", "greedy"), (7, 2)),
    (SHORT, 30, 2, ("random", "greedy", "random", "greedy"), (7, 1)),
    (SHORT, 31, 3, ("greedy", "greedy", "random", "random"), (7, 1)),
]


# ---------------------------------------------------------------------- the hidden cards


def cards(counts) -> list:
    return [t for t in range(N_TRIBES) for _ in range(counts[t])]


def counts(cards_) -> list:
    out = [0] * N_TRIBES
    for t in cards_:
        out[t] += 1
    return out


def permute_hidden(game, seat, laid, rnd: random.Random, mode: str):
    """Permute, in place, the cards ``seat`` cannot see (see the module docstring for ``mode``).

    ``laid`` maps each earlier player of the war in progress to the count vector it laid.
    Returns (what :func:`restore` needs, whether a hand or the deck changed)."""
    saved = ([list(h) for h in game.hands], list(game.deck))
    pool, slots = [], []
    if mode in ("redeal", "swap"):
        for p in range(game.n):
            if p != seat:
                pool += cards(game.hands[p])
                slots.append(("hand", p, sum(game.hands[p])))
        for p, k in sorted(laid.items()):
            pool += cards(k)
            slots.append(("laid", p, sum(k)))
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
    assert i == len(pool) and collections.Counter(pool) == before
    assert [sum(h) for h in game.hands] == [sum(h) for h in saved[0]] and len(game.deck) == len(saved[1])
    assert game.hands[seat] == saved[0][seat]
    changed = game.hands != saved[0] or game.deck != saved[1]
    return saved, changed


def restore(game, saved) -> None:
    hands, deck = saved
    for p, hand in enumerate(hands):
        game.hands[p][:] = hand
    game.deck[:] = deck


def snapshot(game):
    return repr((game.hands, game.deck, game.discard, game.figures, game.influence, game.supply, game.vp,
                 game.peace, [sorted(s) for s in game.tiles], game.pacified, game.pending, game.plays_left,
                 game.end_triggered, game.turns, game.plies))


def public(view) -> dict:
    """The view as a comparable dict (it holds plain values only)."""
    return dict(view)


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
        stream = getattr(inner, "stream", None) or Stream(seed, game_index, 1 + s)
        game.players[s] = Seat(game, s, inner, stream, before, after)
    return game.play_out()


def check_game(rules, seed, game_index, seat_policies, name, factory, rnd, play_checks=(1, None), play_modes=MODES):
    """Play one game; at each decision point compare the choice of ``factory(rules, seat, stream)`` on the true
    position and on permuted ones (``MODES``; ``play_modes`` at DP-4, which is checked at every
    ``play_checks[0]``-th point, at most ``play_checks[1]`` times).  Returns counts (see the keys below)."""
    stride, most = play_checks
    out = collections.Counter()
    laid_in_war = collections.defaultdict(dict)  # (wars resolved, province) -> {seat: laid vector}

    def before(game, seat, d, state):
        kind = KIND[d.kind]
        out["dp4_seen"] += d.kind == ref.DP_PLAY
        if d.kind == ref.DP_PLAY and ((out["dp4_seen"] - 1) % stride or (most is not None and out["dp4_play"] >= most)):
            return None
        laid = laid_in_war[(game.wars, d.info)] if d.kind == ref.DP_SUPPORT else {}
        state_before = snapshot(game)
        view = public(game.view(seat))
        base = factory(game.rules, seat, Stream(state=state)).choose(game.view(seat), d)
        assert base in d.options
        any_change = False
        modes = list(play_modes if d.kind == ref.DP_PLAY else MODES)
        if "swap" in modes and game.n == 2 and not laid:  # one other hand, nothing laid: "swap" is the identity
            modes[modes.index("swap")] = "redeal"
        for mode in modes:
            saved, changed = permute_hidden(game, seat, laid, rnd, mode)
            try:
                other = game.view(seat)
                assert set(other) == VIEW_KEYS
                assert public(other) == view, f"{kind}: the view changes with the hidden cards ({mode})"
                choice = factory(game.rules, seat, Stream(state=state)).choose(other, d)
            finally:
                restore(game, saved)
            assert snapshot(game) == state_before, "the policy or the harness changed the game"
            any_change |= changed
            if choice != base:
                out["mismatches"] += 1
                out[f"mismatch_{kind}"] += 1
        out["checks"] += 1
        out[kind] += 1
        out[f"choice_{kind}"] += len(d.options) > 1
        out["changed"] += any_change
        out["laid_in_pool"] += any(sum(k) > 0 for k in laid.values())
        return base if seat_policies[seat] == name else None

    def after(game, seat, d, choice):
        if d.kind == ref.DP_SUPPORT:
            laid_in_war[(game.wars, d.info)][seat] = choice

    play_wrapped(rules, seed, game_index, seat_policies, before, after)
    return out


def run_cases(cases, name, factory, star=None, **kw) -> collections.Counter:
    """:func:`check_game` over ``cases``; the "*" seats play ``star`` (default: ``name``)."""
    rnd = random.Random(2024)
    total = collections.Counter()
    for rules, seed, game_index, seats, *play_checks in cases:
        seats = tuple((star or name) if s == "*" else s for s in seats)
        if play_checks:
            kw["play_checks"] = play_checks[0]
        total.update(check_game(rules, seed, game_index, seats, name, factory, rnd, **kw))
    return total


def policy_factory(name):
    return lambda rules, seat, stream: make_policy(name, rules, stream)


def assert_every_kind_checked(total, minimum):
    for kind in KIND.values():
        assert total[kind] >= minimum.get(kind, 20), (kind, dict(total))
        assert total[f"choice_{kind}"] > 0, (f"no {kind} with a real choice", dict(total))


# ---------------------------------------------------------------------- the tests


@pytest.mark.parametrize("name", ["greedy", "greedy:no_plus_two"])
def test_greedy_decisions_ignore_hidden_cards(name):
    total = run_cases(CASES, name, policy_factory(name))
    assert total["mismatches"] == 0, {k: v for k, v in total.items() if k.startswith("mismatch")}
    assert total["checks"] >= 800
    assert total["changed"] >= 0.97 * total["checks"], dict(total)  # the permutations really moved cards
    assert total["laid_in_pool"] >= 80, dict(total)  # DP-7 after earlier players laid cards face down
    assert_every_kind_checked(total, {"dp2_plus_two": 10, "dp3_exchange": 10, "dp5_discard": 5})


def test_lookahead_decisions_ignore_hidden_cards():
    name = "lookahead:2"
    total = run_cases(LOOKAHEAD_CASES, name, policy_factory(name), play_modes=("redeal", "swap"))
    assert total["mismatches"] == 0, {k: v for k, v in total.items() if k.startswith("mismatch")}
    assert total["choice_dp4_play"] >= 15, dict(total)  # rollouts really compared, for 2..5 players
    assert total["changed"] >= 0.97 * total["checks"], dict(total)
    assert total["laid_in_pool"] >= 60, dict(total)
    assert_every_kind_checked(total, {"dp2_plus_two": 10, "dp3_exchange": 5, "dp4_play": 15, "dp5_discard": 5})


class PeekHands:
    """Negative control: greedy, except that at DP-4 it plays the tribe the next seat holds most of and
    at DP-7 it lays the cards of the tribe the next seat holds most of, read from the real game found
    on the call stack (the harness's frame)."""

    def __init__(self, rules, seat, stream):
        self.stream = stream

    def choose(self, view, d):
        game = sys._getframe(1).f_locals["game"]
        held = game.hands[(view["seat"] + 1) % game.n]
        if d.kind == ref.DP_PLAY:
            return max(d.options, key=lambda o: held[o[0]])
        if d.kind == ref.DP_SUPPORT:
            t = max(range(N_TRIBES), key=lambda u: held[u])
            return tuple(max(o[u] for o in d.options) if u == t else 0 for u in range(N_TRIBES))
        return greedy_choice(view, d, self.stream)


class PeekDeck:
    """Negative control: greedy, except that at DP-4 it plays the tribe on top of the deck, if it can."""

    def __init__(self, rules, seat, stream):
        self.stream = stream

    def choose(self, view, d):
        deck = sys._getframe(1).f_locals["game"].deck
        if d.kind == ref.DP_PLAY and deck:
            for o in d.options:
                if o[0] == deck[0]:
                    return o
        return greedy_choice(view, d, self.stream)


@pytest.mark.parametrize("peeker, kinds", [(PeekHands, ("dp4_play", "dp7_support")), (PeekDeck, ("dp4_play",))])
def test_negative_control_a_peeking_policy_is_caught(peeker, kinds):
    total = run_cases(CASES[1:3], "peeker", peeker, star="greedy")
    assert total["checks"] > 0
    for kind in kinds:
        assert total[f"mismatch_{kind}"] >= 3, dict(total)


def test_negative_control_a_leaky_view_is_caught(monkeypatch):
    """The view comparison catches a view that carries a hidden card (here: the top of the deck)."""
    view = ref.Game.view
    monkeypatch.setattr(ref.Game, "view", lambda self, seat: {**view(self, seat), "deck_size": self.deck[:1]})
    with pytest.raises(AssertionError, match="the view changes with the hidden cards"):
        run_cases(CASES[:1], "greedy", policy_factory("greedy"))


def test_the_view_holds_no_way_back_to_the_game():
    """The view is plain data: no callable, no object with the game's state behind it."""
    game = ref.Game(Rules(num_players=3), 1, 0, ("greedy",) * 3)
    view = game.view(0)
    assert not any(callable(v) for v in view.values())
    assert view["legal"] == tuple(game.legal_provinces(t) for t in range(N_TRIBES))
    assert {type(v).__name__ for v in view.values()} <= {"int", "bool", "list", "tuple", "Rules"}


def test_dp7_view_shows_only_the_number_of_cards_laid():
    """A-4.2: support is laid face down, one player after another.  A later player's DP-7 view holds
    what it held when the war began, except that each earlier player's hand size is smaller by the
    number of cards it laid; the cards laid are in no part of it (not in the discard pile, which gets
    them only at the reveal, A-4.5)."""
    out = collections.Counter()
    wars = {}  # (wars resolved, province) -> (every seat's view at the war's first DP-7, laid so far); per game

    def before(game, seat, d, state):
        if d.kind != ref.DP_SUPPORT:
            return None
        key = (game.wars, d.info)
        if key not in wars:
            wars[key] = ({p: public(game.view(p)) for p in range(game.n)}, {})
        start, laid = wars[key]
        view = game.view(seat)
        assert set(view) == VIEW_KEYS
        now, then = public(view), start[seat]
        assert now["hand_sizes"] == [then["hand_sizes"][p] - sum(laid.get(p, ())) for p in range(game.n)]
        assert now["discard"] == then["discard"]  # the laid cards are not revealed yet
        assert {k: v for k, v in now.items() if k != "hand_sizes"} == \
            {k: v for k, v in then.items() if k != "hand_sizes"}
        out["dp7"] += 1
        out["after_support"] += any(sum(k) > 0 for k in laid.values())
        return None

    def after(game, seat, d, choice):
        if d.kind == ref.DP_SUPPORT:
            wars[(game.wars, d.info)][1][seat] = choice

    for rules, seed, game_index, seats in CASES:
        wars.clear()
        play_wrapped(rules, seed, game_index, tuple("random" if s == "*" else s for s in seats), before, after)
    assert out["after_support"] >= 100, dict(out)
    # the laid cards go to the discard pile when revealed, and only then
    game = ref.Game(Rules(num_players=3, start_player="seat0"), 5, 0, ("random",) * 3)
    discard = list(game.discard)
    x = 0
    game.figures[x] = [3, 2, 0, 0, 0, 0]
    hands = [list(h) for h in game.hands]
    game.war(0, x)
    assert sum(game.support_cards) > 0
    assert sum(game.discard) - sum(discard) == sum(game.support_cards)
    assert [sum(h) for h in game.hands] == [sum(h) - game.support_cards[p] for p, h in enumerate(hands)]

"""Walhalla policies (pure Python; the kernel has the same ones in Numba).

Every policy gets a view of what its seat may know (its own hand; the board,
the supplies and Walhalla; the other hands only by size; the dragons still
to come as a set) and the decision point.

``random``
    §5 exactly: a uniform choice among the options.

``greedy``
    Values a position for a player by :func:`worth`: the VP a peninsula
    scoring would give it now (majorities, villages included, no horns),
    plus its wheat, plus the final field points in the last raid.  The
    *gain* of landing on a field is the change in worth plus the field's
    immediate effect (forest VP; a cult place counts 1 per card drawn); a
    field held by another colour is worth its gain only with an Axe in hand
    (else 0: the defender would keep it).

    - DP-1 board: the seat set with the largest total, over the legal fjords,
      of (best landing gain - 1) per Viking boarded (a Viking that finds no
      field returns to Midgard and counts 0);
    - DP-2 colour seat: board iff the landing gain - 1 summed over the legal
      fjords is positive;
    - DP-3 fjord: the largest total landing gain of its Vikings aboard;
    - DP-4 landing: the candidate of largest gain (``stay`` only if every
      gain is negative);
    - DP-5 Axe: play it iff the field's gain is at least 2;
    - DP-6 Shield and DP-7 outcome: defend (play the Shield; choose
      ``defender_wins``) iff the defender's worth would drop by at least 2
      without the field (the value at stake);
    - DP-8 raid cards: every Plunder and Walhalla card, and all Horns on the
      peninsula where they raise its worth most (none if nowhere);
    - DP-9 sell: nothing.  (Its DP-8 has just laid every Walhalla card it
      held, and it keeps Axes, Shields, Horns and Plunder for their use.)

    Ties among the best options are broken uniformly (:func:`best`: one
    ``below(k)`` from the seat's decision stream each time the k-th option
    of the best value so far is met; ``toolkit.core.policy.best``).  It draws
    nothing else.

``lookahead`` (``lookahead:S``, S samples, default 8)
    ``greedy`` at every decision point but DP-3 (the fjord), where each legal
    fjord is scored by determinized rollouts over the remaining dragons
    (:func:`lookahead_fjord`): S guesses of the hidden cards and of the
    dragon order (:func:`determinize`); in each, the dragon sails into the
    candidate fjord and the rest of the raid, its card phase and its scoring
    are played out by ``greedy`` for every seat.  The value is its VP minus
    the best opponent's after that scoring.  In a rollout the decks reshuffle
    from a copy of the seat's decision stream state after the sample's
    draws, and seat p's greedy breaks ties from a stream whose state is
    ``mix64(that state + 1 + p)``: every candidate sees the same streams.

Knowledge model: a policy sees its own hand, the board, supplies and
Walhalla, the hand sizes, the deck size, the discard pile (face up: cards
reach it by being played face up, revealed, or sold in the open) and the
dragons still to come as a set, not their order.
"""

from __future__ import annotations

from toolkit.core import policy as core_policy
from toolkit.core.policy import best, deal_unseen, parse_samples
from toolkit.core.rng import Stream, mix64
from toolkit.games.walhalla import reference as ref
from toolkit.games.walhalla.data import AXE, CARD_TYPES, CULT, FOREST, HORN, PLUNDER, VILLAGE, WALHALLA_CARD, WHEAT

POLICIES = ("random", "greedy", "lookahead")
# offered by name in a seat beside POLICIES and mcts:N (GameSpec.named_players)
NAMED_PLAYERS = ("lookahead:32",)
DEFAULT_SAMPLES = 8
MAX_SAMPLES = 1024


def worth(view, occupant, p, horns=(0, 0, 0)) -> int:
    """What a scoring now would give ``p``: majorities (with ``horns`` added to p's strength on
    each peninsula), wheat, and the final field points in the last raid."""
    rules = view["rules"]
    n = rules.num_players
    total = 0
    fields = 0
    for k in range(3):
        vikings = [0] * n
        strength = [0] * n
        for j, o in enumerate(occupant[k]):
            if o >= 0:
                vikings[o] += 1
                strength[o] += 1 + (rules.village_bonus if view["field_type"][k][j] == VILLAGE else 0)
                if o == p:
                    fields += 1
                    if view["field_type"][k][j] == WHEAT:
                        total += view["field_value"][k][j]
        strength[p] += horns[k]
        eligible = [v >= rules.peninsula_eligibility_min_vikings for v in vikings]
        total += ref.majority_gains(strength, eligible, view["outer_tip"][k], view["inner_tip"][k],
                                    rules.tie_rounding == "up")[p]
    if view["raid"] == rules.raids - 1:
        total += rules.final_vp_per_occupied_field * fields
    return total


def land_gain(view, p, k, j) -> int:
    """The gain of p taking field (k, j): the change in worth plus the immediate effect."""
    rules = view["rules"]
    occupant = view["occupant"]
    before = worth(view, occupant, p)
    old = occupant[k][j]
    occupant[k][j] = p
    after = worth(view, occupant, p)
    occupant[k][j] = old
    kind = view["field_type"][k][j]
    return after - before + (rules.forest_vp if kind == FOREST else 0) + (rules.cult_cards if kind == CULT else 0)


def option_value(view, p, k, j) -> int:
    """DP-4's value of a candidate: its gain, or 0 for a defended field without an Axe in hand."""
    if view["occupant"][k][j] >= 0 and view["hand"][AXE] == 0:
        return 0
    return land_gain(view, p, k, j)


def candidates(view, p, f, q) -> list:
    return [(k, j) for k, j in fields_at(view["lengths"], f, q) if view["occupant"][k][j] != p]


def fields_at(lengths, f, q) -> list:
    """reference.Game.fields_at from the public lengths."""
    out = []
    if f >= 1 and q <= 2 * lengths[f - 1]:
        out.append((f - 1, q - 1))
    if f <= 2 and q <= 2 * lengths[f]:
        out.append((f, q - 1))
    return out


def legal_fjords(view) -> list:
    lengths, moored = view["lengths"], view["moored"]
    return [f for f in range(4)
            if 3 * moored[f] + 1 <= max(2 * lengths[k] for k in (f - 1, f) if 0 <= k <= 2)]


def seat_net(view, p, f, j) -> int:
    """A Viking of p at seat j of a dragon sailing into fjord f: best landing value - 1 (0 if it
    would find no field and go back to Midgard)."""
    cands = candidates(view, p, f, 3 * view["moored"][f] + 1 + j)
    if not cands:
        return 0
    return max(option_value(view, p, k, jj) for k, jj in cands) - 1


def stake(view, defender, k, j) -> int:
    """What the defender's worth loses without field (k, j)."""
    occupant = view["occupant"]
    with_it = worth(view, occupant, defender)
    occupant[k][j] = -1
    without = worth(view, occupant, defender)
    occupant[k][j] = defender
    return with_it - without


def greedy_choice(view, d, stream):
    options = d.options
    if len(options) == 1:
        return options[0]
    me, rules = view["seat"], view["rules"]
    if d.kind == ref.DP_BOARD:
        legal = legal_fjords(view)
        nets = [[seat_net(view, me, f, j) for j in range(3)] for f in legal]
        values = [max(sum(row[j] for j in range(3) if mask >> j & 1) for row in nets) for mask in options]
        return best(options, values, stream)
    if d.kind == ref.DP_COLOUR_SEAT:
        cseat = view["dragon_seat"][view["dragon"]]
        total = sum(seat_net(view, me, f, cseat) for f in legal_fjords(view))
        return ref.BOARD if total > 0 else ref.DECLINE
    if d.kind == ref.DP_FJORD:
        values = []
        for f in options:
            values.append(sum(seat_net(view, me, f, j) + 1 for j in range(3) if view["aboard"][j] == me))
        return best(options, values, stream)
    if d.kind == ref.DP_LANDING:
        values = [-1 if o == ref.STAY else option_value(view, me, *o) for o in options]
        if ref.STAY in options and max(values) >= 0:
            values[options.index(ref.STAY)] = -2  # land unless every field would lose worth
        return best(options, values, stream)
    k, j = d.info if d.kind in (ref.DP_AXE, ref.DP_SHIELD, ref.DP_OUTCOME) else (0, 0)
    if d.kind == ref.DP_AXE:
        return ref.PLAY_AXE if land_gain(view, me, k, j) >= 2 else ref.DECLINE
    if d.kind == ref.DP_SHIELD:
        return ref.PLAY_SHIELD if stake(view, me, k, j) >= 2 else ref.DECLINE
    if d.kind == ref.DP_OUTCOME:
        return ref.DEFENDER_WINS if stake(view, me, k, j) >= 2 else ref.ATTACKER_WINS
    hand = view["hand"]
    if d.kind == ref.DP_RAID_CARDS:
        last = view["raid"] == rules.raids - 1
        horns = hand[HORN]
        base = worth(view, view["occupant"], me)
        gains = []
        for k in range(3):
            boost = [0, 0, 0]
            boost[k] = rules.horn_strength * horns
            gains.append(worth(view, view["occupant"], me, boost) - base)
        place = [0, 0, 0]
        if horns and max(gains) > 0:
            place[best(list(range(3)), gains, stream)] = horns
        return (place[0], place[1], place[2], 0 if last else hand[WALHALLA_CARD], hand[PLUNDER])
    # DP-9 sell: nothing (see the module docstring)
    return (0, 0, 0, 0, 0)


class GreedyPolicy:
    needs_view = True

    def __init__(self, rules, stream):
        self.stream = stream

    def choose(self, view, decision):
        return greedy_choice(view, decision, self.stream)


# ---------------------------------------------------------------------- lookahead


def determinize(view, stream):
    """A guess at what ``view["seat"]`` cannot see: the unseen action cards (all - own hand -
    discard) in canonical order, shuffled (Fisher-Yates on the seat's decision stream) and dealt
    to the other seats in seat order (each its public hand size), the rest being the deck; then
    the dragons still to come, in canonical order, shuffled the same way."""
    rules, me = view["rules"], view["seat"]
    pool = [c for c, name in enumerate(CARD_TYPES)
            for _ in range(rules.action_deck[name] - view["hand"][c] - view["discard"][c])]
    stream.shuffle(pool)
    hands, deck = deal_unseen(pool, view["hand"], view["hand_sizes"], me)
    assert len(deck) == view["deck_size"], "the unseen cards are the other hands and the deck"
    dragons = list(view["dragons_left"])
    stream.shuffle(dragons)
    return hands, deck, dragons


def lookahead_fjord(view, options, samples, stream):
    """DP-3: the fjord with the best total rollout value over ``samples`` worlds."""
    me, n = view["seat"], view["rules"].num_players
    totals = [0] * len(options)
    for _ in range(samples):
        hands, deck, dragons = determinize(view, stream)
        state = stream.state
        for i, f in enumerate(options):
            players = [GreedyPolicy(None, Stream(state=mix64(state + 1 + p))) for p in range(n)]
            world = ref.Game.world(view, hands, deck, dragons, Stream(state=state), players)
            world.sail(f)
            world.run_turns((me + 1) % n)
            world.score_raid()
            totals[i] += world.vp[me] - max(world.vp[p] for p in range(n) if p != me)
    return best(options, totals, stream)


class LookaheadPolicy:
    """``greedy`` everywhere but DP-3, where every legal fjord is scored by rollouts."""

    needs_view = True

    def __init__(self, rules, stream, samples=DEFAULT_SAMPLES):
        self.stream, self.samples = stream, samples

    def choose(self, view, decision):
        if decision.kind == ref.DP_FJORD and len(decision.options) > 1:
            return lookahead_fjord(view, decision.options, self.samples, self.stream)
        return greedy_choice(view, decision, self.stream)


def parse_policy(name: str) -> tuple[str, int]:
    """``"lookahead:16"`` -> ("lookahead", 16); other names take no argument."""
    return parse_samples(name, POLICIES, "lookahead", DEFAULT_SAMPLES, MAX_SAMPLES)


def make_policy(name: str, rules, stream):
    return core_policy.make_player(name, rules, stream, parse_policy, GreedyPolicy, LookaheadPolicy)


# the reference asks core.policy for its players (it does not import this module); the lambda looks
# make_policy up at each call, so a test may replace it
core_policy.register_players("walhalla", lambda name, rules, stream: make_policy(name, rules, stream))

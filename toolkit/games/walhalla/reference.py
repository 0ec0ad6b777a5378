"""Walhalla, the readable pure-Python reference (spec ``docs/rules/walhalla.md``).

Written to be read beside the spec: :class:`Game` holds the state of W-1 and
runs setup (W-2), raids of turns (W-3, W-4), disembarking (W-5), combat
(W-6), the end of a raid (W-7), the scorings (W-8, W-9), reinforcement
(W-10) and the heroes leaving Walhalla (W-11).  Every decision point of §5
is ``choice = yield from self.ask(kind, seat, options)``, its options in
canonical order: the rules are generators (``turn_steps``, ``combat_steps``,
...; :meth:`Game.steps` is the whole game after the setup) that stop at each
decision point and are sent the option chosen.  Two things drive them:

- the players, through :meth:`Game.settle` and :meth:`Game.decide` (which
  shows every decision to ``observer(game, decision, choice)``): the plain
  methods ``turn``, ``sail``, ``combat``, ``card_phase``, ``preparation``,
  ..., :meth:`Game.play_out` and :func:`play_game`, as the tests, the
  replay, the golden traces and the lookahead's worlds use them;
- the decision-point protocol, :func:`new_game` (a :class:`SteppedGame`:
  ``start``, ``advance``, ``choose``, ``apply``, ``row``) with
  :func:`option_code`, the kernel's code of an option; the conformance test
  steps it beside the kernel.

The Numba kernel is checked against it game for game.

Order of random draws on the chance stream (0), in the order of W-2:

1. ``peninsula_tiles = draw_18``: ``below(3)`` picks {5,5,8}, {5,6,7} or
   {6,6,6} (in that order); its values, ascending, are then permuted by a
   Fisher-Yates pass (``for i = 2 .. 1: j = below(i + 1)``) and given to
   P0, P1, P2.
2. The tiles: a Fisher-Yates pass over the 18 tile indices (data order);
   P0 takes the first tiles from the coast outward, then P1, then P2.  Then
   one ``below(2)`` per laid tile in that order: 1 turns the tile, so its
   second field is nearer the coast.
3. The tips: a Fisher-Yates pass over (3, 4, 5), giving P0..P2 their inner
   tips, then one over (6, 7, 8) for the outer tips.
4. The action deck: the canonical deck (axes, shields, horns, Walhalla
   cards, plunders) shuffled by Fisher-Yates; cards are drawn from the
   front; each player in seat order draws ``initial_action_cards``.  A
   reshuffle lays the discard pile (kept as counts) out in canonical order
   and shuffles it the same way.
5. The dragons: a Fisher-Yates pass over the 12 dragon indices (data
   order); again at every preparation (W-7.3.2).
6. ``start_player = random``: ``below(num_players)``.

Every Fisher-Yates pass is ``for i = len - 1 .. 1: j = below(i + 1); swap``.

The decision stream of seat ``s`` (1 + s): ``random`` draws one ``below(n)``
per decision point with ``n >= 2`` options and nothing for a single option.

Choices the spec leaves open, decided here:

- Field j of a peninsula (1-based, from the coast) is ``fields[k][j - 1]``.
- The card phase (DP-8) and selling (DP-9) options are count vectors listed
  lexicographically ascending; the card-phase vector is (h0, h1, h2, w, pl).
- Cards laid in the card phase and in combat are "in play" until resolved,
  then go to the discard pile; cards sold go to the discard pile at once.
- A seat's Vikings aboard a dragon that cannot land anywhere return to
  Midgard one by one as their seat comes up (W-5.2).

Design metrics
--------------
Four columns of the record follow ``plies`` (the kernel counts them the same way):

- ``decisions``: the decision points of §5 presented in the game, all seats.
  §5 says a DP "is presented exactly when its trigger holds, and counts as
  one ply even with a single option", so every call of :meth:`Game.ask`
  counts, one with a single option included (DP-3 with one legal fjord
  left, DP-4 with one candidate field; the other DPs always offer two or
  more: DP-1 the empty set and a neutral seat at least, DP-8 and DP-9 the
  all-zero vector and one card at least).  What §4 makes automatic
  presents nothing and does not count: the draw of the dragon, a Viking
  without a candidate (W-5.2), a combat's outcome decided by an
  uncancelled Axe (no DP-7), DP-1 with an empty Midgard, DP-5 without an
  Axe, DP-6 without a Shield, DP-8 without Horn, Plunder or (not in the
  last raid) Walhalla card, DP-9 with an empty hand or Asgard.  So
  ``decisions`` equals ``plies``.  The lookahead's rollouts play in a
  world of their own (:meth:`Game.world`), whose decision points stay in
  that world.
- ``options``: the number of options of each of those decision points
  (the list :meth:`Game.ask` offers, the random policy's, in §5's
  canonical order), summed; ``options / decisions`` is the branching factor.
- ``lead_changes`` and ``decisive_turn`` (``toolkit.core.lead``): after each
  turn of §6 (one dragon drawn), the last one of the game included, every
  seat's :func:`lead_measure`: its VP so far.  VP are public (W-1: the VP
  track; every view shows all of them) and are what W-9.4 ranks.  Hands,
  which hold Plunder and Horns, are hidden, and a majority not yet scored
  is not a VP, so the measure adds neither.  "The lead after turn t" is
  taken once everything turn t triggered is resolved, i.e. just before the
  next turn begins or at the end of the game (:meth:`Game.measure_lead`):
  most VP arrive at the raid scorings (W-8, W-9) that follow a raid's last
  turn, so the turn that ends a raid is measured after that scoring and
  the preparation (W-7.3) after it.  Still exactly one update per turn
  counted in ``turns``.  The last update thus sees the final VP: a sole
  winner leads after it unless it won on W-9.4's tie-break, and only then
  is ``decisive_turn = turns`` with the winner not leading.
"""

from __future__ import annotations

import dataclasses
import itertools

from toolkit.core import cards
from toolkit.core.lead import LeadTracker
from toolkit.core.policy import players as core_players
from toolkit.core.rng import CHANCE, Stream

from toolkit.games.walhalla.data import (
    AXE, CARD_TYPES, CULT, FOREST, HORN, PLUNDER, SHIELD, VILLAGE, WALHALLA_CARD, WHEAT,
)
from toolkit.games.walhalla.layout import MAX_FIELDS, MAX_SEATS, N_CARDS, VP_SOURCES
from toolkit.games.walhalla.rules import DRAW_18, DRAW_18_COMBINATIONS

N_CARD_TYPES = len(CARD_TYPES)
(DP_BOARD, DP_COLOUR_SEAT, DP_FJORD, DP_LANDING, DP_AXE, DP_SHIELD, DP_OUTCOME, DP_RAID_CARDS,
 DP_SELL) = range(1, 10)
BOARD, DECLINE = "board", "decline"
PLAY_AXE, PLAY_SHIELD = "play_axe", "play_shield"
DEFENDER_WINS, ATTACKER_WINS = "defender_wins", "attacker_wins"
STAY = "stay"


@dataclasses.dataclass
class Decision:
    kind: int
    seat: int
    options: list
    info: object = None  # DP-4: the position q; DP-5..7: the field (k, j)


def count_vectors(limits, total=None) -> list:
    """Count vectors ``0 <= v_i <= limits[i]`` (and ``sum(v) <= total``), lexicographically ascending."""
    out = [tuple(v) for v in itertools.product(*(range(c + 1) for c in limits))]
    return out if total is None else [v for v in out if sum(v) <= total]


def raid_card_options(hand, last_raid: bool) -> list:
    """DP-8: (h0, h1, h2, w, pl) with h0 + h1 + h2 <= Horns held, ascending; all-zero included."""
    horns, walhalla, plunder = hand[HORN], 0 if last_raid else hand[WALHALLA_CARD], hand[PLUNDER]
    return [v for v in count_vectors((horns, horns, horns, walhalla, plunder)) if v[0] + v[1] + v[2] <= horns]


def share(total: int, k: int, up: bool) -> int:
    """round(total / k) by ``tie_rounding``: the ceiling (up) or the floor (down)."""
    return -(-total // k) if up else total // k


def majority_gains(strength, eligible, first: int, second: int, up: bool) -> list:
    """W-8.3 / W-9.3: the tied first place splits first + second; a sole first gets ``first``
    and the tied second place splits ``second``.  Returns the VP per player."""
    gains = [0] * len(strength)
    players = [p for p in range(len(strength)) if eligible[p]]
    if not players:
        return gains
    top = max(strength[p] for p in players)
    t1 = [p for p in players if strength[p] == top]
    if len(t1) >= 2:
        for p in t1:
            gains[p] = share(first + second, len(t1), up)
        return gains
    gains[t1[0]] = first
    rest = [p for p in players if p != t1[0]]
    if rest:
        runner = max(strength[p] for p in rest)
        t2 = [p for p in rest if strength[p] == runner]
        for p in t2:
            gains[p] = share(second, len(t2), up)
    return gains


class Game:
    """One game: the state of W-1 and the rules of §4."""

    def __init__(self, rules, seed: int, game_index: int, policies, observer=None, set_up: bool = True):
        from toolkit.games.walhalla import data

        self.rules = rules
        self.n = rules.num_players
        self.chance = Stream(seed, game_index, CHANCE)
        self.players = core_players("walhalla", policies, rules, seed, game_index)
        self.observer = observer
        tiles, dragons = data.load_tiles(), data.load_dragons()
        self.tile_types, self.tile_values = tiles.types, tiles.values
        self.dragon_colour = tuple(int(c) for c in dragons.dragon_colour)
        self.dragon_seat = tuple(int(j) for j in dragons.dragon_seat)
        n = self.n
        # §6 tallies
        self.turns = 0
        self.turns_per_raid = [0] * rules.raids
        self.plies = 0
        self.options = 0  # options offered, summed over the decision points (plies)
        self.lead = LeadTracker()  # the lead measure after every turn (module docstring)
        self.raids_played = 0
        self.combats = 0
        self.combats_per_raid = [0] * rules.raids
        self.attacker_wins = 0
        self.defender_choices = 0  # DP-7 presented
        self.defender_chose_win = 0
        self.axes = [0] * n
        self.shields = [0] * n
        self.to_walhalla = [0] * n
        self.heroes_lost = [0] * n
        self.landings = [0] * n
        self.cards_sold = [0] * n
        self.vp_from = {key: [0] * n for key in VP_SOURCES}
        self.aboard = [-1, -1, -1]  # the current dragon's seats (bow, middle, stern): a colour or -1
        self.dragon = -1  # the current dragon, -1 between turns
        self.fjord = -1  # where it moored, -1 before it sails
        if set_up:  # new_game's games set up at start() (the protocol)
            self._setup()

    # -- W-2 setup ----------------------------------------------------------------

    def _setup(self) -> None:
        rules, n = self.rules, self.n
        # 1. peninsula lengths
        if rules.peninsula_tiles == DRAW_18:
            lengths = list(DRAW_18_COMBINATIONS[self.chance.below(3)])
            self.chance.shuffle(lengths)
        else:
            lengths = list(rules.peninsula_tiles)
        self.lengths = lengths
        # 2. the tiles, laid from the coast outward, each turned at random
        order = list(range(len(self.tile_types)))
        self.chance.shuffle(order)
        self.field_type, self.field_value = [], []
        k_tiles = iter(order)
        laid = [[next(k_tiles) for _ in range(lengths[k])] for k in range(3)]
        for k in range(3):
            types, values = [], []
            for tile in laid[k]:
                a, b = (1, 0) if self.chance.below(2) == 1 else (0, 1)
                types += [self.tile_types[tile][a], self.tile_types[tile][b]]
                values += [self.tile_values[tile][a], self.tile_values[tile][b]]
            self.field_type.append(types)
            self.field_value.append(values)
        self.occupant = [[-1] * (2 * lengths[k]) for k in range(3)]
        # 3. the tips
        inner, outer = [3, 4, 5], [6, 7, 8]
        self.chance.shuffle(inner)
        self.chance.shuffle(outer)
        self.inner_tip, self.outer_tip = inner, outer
        # 5. Vikings (per colour in play)
        self.vp = [0] * n
        self.midgard = [rules.start_midgard] * n
        self.walhalla = [1] * n
        asgard = rules.vikings_per_colour - rules.start_midgard - 1
        if rules.initial_walhalla_source == "midgard":
            self.midgard = [rules.start_midgard - 1] * n
            asgard += 1
        self.asgard = [asgard] * n
        # 6. action cards
        self.deck, self.discard, self.hands = cards.deal(self.card_counts, n, rules.initial_action_cards, self.chance)
        # 7. dragons
        self.dragons = list(range(len(self.dragon_colour)))
        self.chance.shuffle(self.dragons)
        self.moored = [0, 0, 0, 0]  # dragons moored per fjord this raid
        # 8. start player
        self.first_player = self.chance.below(n) if rules.start_player == "random" else 0
        self.start = self.first_player
        self.raid = 0

    @property
    def card_counts(self) -> list:
        return [self.rules.action_deck[name] for name in CARD_TYPES]

    # -- cards ------------------------------------------------------------------------

    def draw_card(self, seat: int) -> bool:
        """W-5.6: an empty deck is rebuilt from the discard pile; with both empty nothing is drawn."""
        return cards.draw_card(self.deck, self.discard, self.hands[seat], self.chance)

    # -- geometry (§3) ------------------------------------------------------------------

    def fields_at(self, f: int, q: int) -> list:
        """The fields (peninsula, index) that position q (1-based) of fjord f touches: left first."""
        out = []
        if f >= 1 and q <= 2 * self.lengths[f - 1]:
            out.append((f - 1, q - 1))
        if f <= 2 and q <= 2 * self.lengths[f]:
            out.append((f, q - 1))
        return out

    def legal_fjords(self) -> list:
        """§3.4: fjord f takes a dragon iff its bow position 3s + 1 touches a field."""
        out = []
        for f in range(4):
            reach = max(2 * self.lengths[k] for k in (f - 1, f) if 0 <= k <= 2)
            if 3 * self.moored[f] + 1 <= reach:
                out.append(f)
        return out

    # -- decisions ------------------------------------------------------------------------

    def ask(self, kind: int, seat: int, options: list, info=None):
        """Present a decision point (one ply): yield it, and return the option sent back.

        Every decision point of the rules below is ``choice = yield from self.ask(...)``: the rules
        are generators (the ``*_steps`` methods) that stop at each decision point.  Whoever drives
        them answers: :meth:`settle` (the players, through :meth:`decide`) or the protocol
        (:class:`SteppedGame`, whose caller applies an option)."""
        self.plies += 1
        self.options += len(options)
        return (yield Decision(kind, seat, options, info))

    def settle(self, steps):
        """Run the generator ``steps`` to its end, each decision point it presents answered by
        :meth:`decide`; its return value."""
        try:
            d = next(steps)
            while True:
                d = steps.send(self.decide(d.kind, d.seat, d.options, d.info))
        except StopIteration as end:
            return end.value

    def decide(self, kind: int, seat: int, options: list, info=None):
        """The option the seat's player picks at a decision point, shown to the observer."""
        d = Decision(kind, seat, options, info)
        choice = self.choose(d)
        if self.observer is not None:
            self.observer(self, d, choice)
        return choice

    def choose(self, d: Decision):
        """Ask ``d.seat``'s player (even with a single option: its policy decides what to draw)."""
        player = self.players[d.seat]
        return player.choose(self.view(d.seat) if getattr(player, "needs_view", True) else None, d)

    def view(self, seat: int) -> dict:
        """What ``seat`` may know: everything but the other hands (sizes public) and the order
        of the two decks (the dragons still to come are public as a set).  Plain values only."""
        return {"seat": seat, "rules": self.rules, "raid": self.raid, "start": self.start,
                "hand": list(self.hands[seat]), "hand_sizes": [sum(h) for h in self.hands],
                "vp": list(self.vp), "midgard": list(self.midgard), "asgard": list(self.asgard),
                "walhalla": list(self.walhalla), "lengths": list(self.lengths),
                "field_type": [list(r) for r in self.field_type], "field_value": [list(r) for r in self.field_value],
                "occupant": [list(r) for r in self.occupant], "inner_tip": list(self.inner_tip),
                "outer_tip": list(self.outer_tip), "moored": list(self.moored),
                "dragons_left": sorted(self.dragons), "discard": list(self.discard), "deck_size": len(self.deck),
                "aboard": list(self.aboard), "dragon": self.dragon, "fjord": self.fjord,
                "dragon_colour": self.dragon_colour, "dragon_seat": self.dragon_seat}

    # -- W-4 the turn -----------------------------------------------------------------------

    def turn(self, active: int) -> None:
        """W-4, one turn of ``active``, its decision points answered by the players."""
        self.settle(self.turn_steps(active))

    def turn_steps(self, active: int):
        self.turns += 1
        self.turns_per_raid[self.raid] += 1
        d = self.dragons.pop(0)  # 1. draw
        self.dragon, self.fjord = d, -1
        colour, cseat = self.dragon_colour[d], self.dragon_seat[d]
        self.aboard = [-1, -1, -1]
        # 2. A boards: the neutral seats, and the coloured seat if it is A's colour
        fillable = [j for j in range(3) if j != cseat or colour == active]
        if self.midgard[active] >= 1:
            options = []
            for mask in range(8):
                seats = [j for j in range(3) if mask >> j & 1]
                if all(j in fillable for j in seats) and len(seats) <= self.midgard[active]:
                    options.append(mask)
            mask = yield from self.ask(DP_BOARD, active, options)
            for j in range(3):
                if mask >> j & 1:
                    self.aboard[j] = active
                    self.midgard[active] -= 1
        # 3. the coloured seat's owner
        if colour != active and colour < self.n and self.midgard[colour] >= 1:
            if (yield from self.ask(DP_COLOUR_SEAT, colour, [BOARD, DECLINE])) == BOARD:
                self.aboard[cseat] = colour
                self.midgard[colour] -= 1
        # 4. sail
        legal = self.legal_fjords()
        if not legal:  # cannot happen with lengths 5..8 (§3.4)
            for j in range(3):
                if self.aboard[j] >= 0:
                    self.midgard[self.aboard[j]] += 1
            self.aboard = [-1, -1, -1]
            return
        f = yield from self.ask(DP_FJORD, active, legal)
        yield from self.sail_steps(f)

    def sail(self, f: int) -> None:
        """W-4.4-5 after the DP-3 choice: moor in fjord f, then disembark bow, middle, stern."""
        self.settle(self.sail_steps(f))

    def sail_steps(self, f: int):
        self.fjord = f
        base = 3 * self.moored[f]
        self.moored[f] += 1
        for j in range(3):
            p = self.aboard[j]
            if p >= 0:
                yield from self.disembark_steps(p, f, base + 1 + j)
                self.aboard[j] = -1

    # -- W-5 disembarking and W-6 combat -------------------------------------------------------

    def disembark(self, p: int, f: int, q: int) -> None:
        """W-5: a Viking of p at position q of fjord f lands, stays aboard or fights."""
        self.settle(self.disembark_steps(p, f, q))

    def disembark_steps(self, p: int, f: int, q: int):
        candidates = [(k, j) for k, j in self.fields_at(f, q) if self.occupant[k][j] != p]
        if not candidates:
            self.midgard[p] += 1
            return
        options = candidates + ([] if self.rules.landing_mandatory else [STAY])
        choice = yield from self.ask(DP_LANDING, p, options, info=q)
        if choice == STAY:
            self.midgard[p] += 1
            return
        k, j = choice
        if self.occupant[k][j] < 0:
            self.occupy(p, k, j)
        else:
            yield from self.combat_steps(p, k, j)

    def occupy(self, p: int, k: int, j: int) -> None:
        """A Viking of p takes field (k, j) and applies its immediate effect (W-5.4)."""
        rules = self.rules
        self.occupant[k][j] = p
        self.landings[p] += 1
        kind = self.field_type[k][j]
        if kind == FOREST:
            self.vp[p] += rules.forest_vp
            self.vp_from["forest"][p] += rules.forest_vp
        elif kind == CULT:
            for _ in range(rules.cult_cards):
                self.draw_card(p)

    def combat(self, attacker: int, k: int, j: int) -> None:
        """W-6: ``attacker`` fights for field (k, j)."""
        self.settle(self.combat_steps(attacker, k, j))

    def combat_steps(self, attacker: int, k: int, j: int):
        defender = self.occupant[k][j]
        in_play = [0] * N_CARD_TYPES
        axe = False
        if self.hands[attacker][AXE] >= 1:  # 1. the attacker's Axe
            if (yield from self.ask(DP_AXE, attacker, [PLAY_AXE, DECLINE], info=(k, j))) == PLAY_AXE:
                axe = True
                self.hands[attacker][AXE] -= 1
                in_play[AXE] += 1
                self.axes[attacker] += 1
        if axe and self.hands[defender][SHIELD] >= 1:  # 2. the defender's Shield
            if (yield from self.ask(DP_SHIELD, defender, [PLAY_SHIELD, DECLINE], info=(k, j))) == PLAY_SHIELD:
                axe = False
                self.hands[defender][SHIELD] -= 1
                in_play[SHIELD] += 1
                self.shields[defender] += 1
        if axe:  # 3. an uncancelled Axe wins, else the defender decides
            attacker_won = True
        else:
            self.defender_choices += 1
            attacker_won = (yield from self.ask(DP_OUTCOME, defender, [DEFENDER_WINS, ATTACKER_WINS],
                                                info=(k, j))) == ATTACKER_WINS
            self.defender_chose_win += not attacker_won
        winner, loser = (attacker, defender) if attacker_won else (defender, attacker)
        self.walhalla[loser] += 1  # 4. the loser's Viking goes to Walhalla
        self.to_walhalla[loser] += 1
        if self.rules.winner_loses_hero and self.walhalla[winner] >= 1:  # 5.
            self.walhalla[winner] -= 1
            self.asgard[winner] += 1
            self.heroes_lost[winner] += 1
        self.combats += 1
        self.combats_per_raid[self.raid] += 1
        if attacker_won:  # 6.
            self.attacker_wins += 1
            self.occupant[k][j] = -1
            self.occupy(attacker, k, j)
        for c in range(N_CARD_TYPES):  # 7.
            self.discard[c] += in_play[c]

    # -- W-7 end of a raid ---------------------------------------------------------------------

    def raid_over(self) -> bool:
        return not self.dragons or all(m == 0 for m in self.midgard)

    def card_phase(self, last: bool):
        """W-7.2: returns (horn strength per player and peninsula, Walhalla cards per player)."""
        return self.settle(self.card_phase_steps(last))

    def card_phase_steps(self, last: bool):
        rules, n = self.rules, self.n
        laid = [(0, 0, 0, 0, 0)] * n
        for i in range(n):
            p = (self.start + i) % n
            hand = self.hands[p]
            if hand[HORN] + hand[PLUNDER] + (0 if last else hand[WALHALLA_CARD]) == 0:
                continue
            v = yield from self.ask(DP_RAID_CARDS, p, raid_card_options(hand, last))
            hand[HORN] -= v[0] + v[1] + v[2]
            hand[WALHALLA_CARD] -= v[3]
            hand[PLUNDER] -= v[4]
            laid[p] = v
        horns = [[rules.horn_strength * laid[p][k] for k in range(3)] for p in range(n)]
        for p in range(n):  # revealed together
            gain = rules.plunder_vp * laid[p][4]
            self.vp[p] += gain
            self.vp_from["plunder"][p] += gain
            self.discard[HORN] += laid[p][0] + laid[p][1] + laid[p][2]
            self.discard[WALHALLA_CARD] += laid[p][3]
            self.discard[PLUNDER] += laid[p][4]
        return horns, [laid[p][3] for p in range(n)]

    def peninsula_scoring(self, horns) -> None:
        """W-8: majorities on each peninsula, then wheat."""
        rules, n = self.rules, self.n
        up = rules.tie_rounding == "up"
        for k in range(3):
            vikings = [sum(1 for o in self.occupant[k] if o == p) for p in range(n)]
            villages = [sum(1 for j, o in enumerate(self.occupant[k]) if o == p and self.field_type[k][j] == VILLAGE)
                        for p in range(n)]
            strength = [vikings[p] + rules.village_bonus * villages[p] + horns[p][k] for p in range(n)]
            eligible = [vikings[p] >= rules.peninsula_eligibility_min_vikings for p in range(n)]
            gains = majority_gains(strength, eligible, self.outer_tip[k], self.inner_tip[k], up)
            for p in range(n):
                self.vp[p] += gains[p]
                self.vp_from["peninsula"][p] += gains[p]
        for k in range(3):
            for j, o in enumerate(self.occupant[k]):
                if o >= 0 and self.field_type[k][j] == WHEAT:
                    self.vp[o] += self.field_value[k][j]
                    self.vp_from["wheat"][o] += self.field_value[k][j]

    def final_scoring(self, horns) -> None:
        """W-9: peninsulas, occupied fields, the Walhalla majority."""
        rules, n = self.rules, self.n
        self.peninsula_scoring(horns)
        for p in range(n):
            fields = sum(1 for k in range(3) for o in self.occupant[k] if o == p)
            self.vp[p] += rules.final_vp_per_occupied_field * fields
            self.vp_from["fields"][p] += rules.final_vp_per_occupied_field * fields
        first, second = rules.walhalla_final_vp
        gains = majority_gains(self.walhalla, [w >= 1 for w in self.walhalla], first, second,
                               rules.tie_rounding == "up")
        for p in range(n):
            self.vp[p] += gains[p]
            self.vp_from["walhalla"][p] += gains[p]

    def preparation(self, walhalla_cards) -> None:
        """W-7.3, between raids."""
        self.settle(self.preparation_steps(walhalla_cards))

    def preparation_steps(self, walhalla_cards):
        rules, n = self.rules, self.n
        for k in range(3):  # 1. cleanup: all but the wheat fields
            for j, o in enumerate(self.occupant[k]):
                if o >= 0 and self.field_type[k][j] != WHEAT:
                    self.asgard[o] += 1
                    self.occupant[k][j] = -1
        self.dragons = list(range(len(self.dragon_colour)))  # 2.
        self.chance.shuffle(self.dragons)
        self.moored = [0, 0, 0, 0]
        self.start = (self.start + 1) % n  # 3.
        # 4. reinforcement (W-10)
        w = [self.walhalla[p] + rules.walhalla_card_bonus * walhalla_cards[p] for p in range(n)]
        for p in range(n):
            rank = sum(1 for q in range(n) if w[q] > w[p])
            moved = min(rules.reinforcement_table[rank], self.asgard[p])
            self.asgard[p] -= moved
            self.midgard[p] += moved
        # 5. selling (W-10.4)
        if rules.sell_cards_for_vikings:
            for i in range(n):
                p = (self.start + i) % n
                if sum(self.hands[p]) == 0 or self.asgard[p] == 0:
                    continue
                v = yield from self.ask(DP_SELL, p, count_vectors(self.hands[p], self.asgard[p]))
                for c in range(N_CARD_TYPES):
                    self.hands[p][c] -= v[c]
                    self.discard[c] += v[c]
                self.asgard[p] -= sum(v)
                self.midgard[p] += sum(v)
                self.cards_sold[p] += sum(v)
        # 6. heroes leave (W-11)
        m = min(self.walhalla)
        for p in range(n):
            self.walhalla[p] -= m
            self.asgard[p] += m
            self.heroes_lost[p] += m

    # -- the game --------------------------------------------------------------------------

    def steps(self):
        """W-3 after the setup, the whole game as a generator: it yields every decision point
        (a :class:`Decision`) and is sent the option chosen (the protocol, :class:`SteppedGame`)."""
        for r in range(self.rules.raids):
            self.raid = r
            yield from self.run_turns_steps(self.start)
            walhalla_cards = yield from self.score_raid_steps()
            if r < self.rules.raids - 1:
                yield from self.preparation_steps(walhalla_cards)
        self.measure_lead()  # the last turn's, after the final scoring (W-9)

    def run_turns_steps(self, active: int):
        """W-3: turns from ``active`` on, clockwise, until the raid ends (W-7.1)."""
        while not self.raid_over():
            self.measure_lead()
            yield from self.turn_steps(active)
            active = (active + 1) % self.n
        self.dragon, self.fjord = -1, -1

    def score_raid_steps(self):
        """W-7.2 and the raid's scoring (W-8, or W-9 after the last raid); returns the
        Walhalla cards each player laid (for the reinforcement ranking)."""
        self.raids_played += 1
        last = self.raid == self.rules.raids - 1
        horns, walhalla_cards = yield from self.card_phase_steps(last)
        if last:
            self.final_scoring(horns)
        else:
            self.peninsula_scoring(horns)
        return walhalla_cards

    # The same three, played through by the players.  They call the methods one level down by name,
    # not their generators, so what a subclass or a test puts in place of ``turn``, ``card_phase``,
    # ``score_raid`` or ``preparation`` (the replay's positions, the invariant checks, the traces) is
    # what ``play_out`` runs; :meth:`steps` and these must stay the same sequence (the golden traces
    # follow ``play_out``, the lock step against the kernel follows ``steps``, and
    # tests/games/walhalla/test_reference_stepped_walhalla.py checks that both play the same game).

    def play_out(self) -> "Game":
        for r in range(self.rules.raids):
            self.raid = r
            self.run_turns(self.start)
            walhalla_cards = self.score_raid()
            if r < self.rules.raids - 1:
                self.preparation(walhalla_cards)
        self.measure_lead()  # the last turn's, after the final scoring (W-9)
        return self

    def run_turns(self, active: int) -> None:
        while not self.raid_over():
            self.measure_lead()
            self.turn(active)
            active = (active + 1) % self.n
        self.dragon, self.fjord = -1, -1

    def score_raid(self) -> list:
        self.raids_played += 1
        last = self.raid == self.rules.raids - 1
        horns, walhalla_cards = self.card_phase(last)
        if last:
            self.final_scoring(horns)
        else:
            self.peninsula_scoring(horns)
        return walhalla_cards

    def measure_lead(self) -> None:
        """The lead after the last turn played, if not yet measured: called just before a turn
        begins and at the end of the game, so everything the turn triggered (a raid's scoring and
        the preparation after its last turn) is resolved.  One update per turn; the rollouts'
        worlds (``lead`` None) measure nothing."""
        if self.lead is not None and self.lead.turn < self.turns:
            self.lead.update(lead_measure(self))

    @classmethod
    def world(cls, view, hands, deck, dragons, chance, players) -> "Game":
        """A game rebuilt from a view at DP-3, with guessed ``hands``, action ``deck`` and dragon
        order (the lookahead's determinized world): the public state is copied, tallies start at 0."""
        game = cls.__new__(cls)
        rules = view["rules"]
        game.rules, game.n = rules, rules.num_players
        game.chance, game.players, game.observer = chance, players, None
        game.dragon_colour, game.dragon_seat = view["dragon_colour"], view["dragon_seat"]
        for name in ("vp", "midgard", "asgard", "walhalla", "lengths", "inner_tip", "outer_tip", "moored",
                     "discard", "aboard"):
            setattr(game, name, list(view[name]))
        for name in ("field_type", "field_value", "occupant"):
            setattr(game, name, [list(r) for r in view[name]])
        game.raid, game.start, game.dragon, game.fjord = view["raid"], view["start"], view["dragon"], view["fjord"]
        game.hands, game.deck, game.dragons = [list(h) for h in hands], list(deck), list(dragons)
        n = game.n
        game.turns, game.turns_per_raid, game.plies, game.raids_played = 0, [0] * rules.raids, 0, 0
        game.options, game.lead = 0, None
        game.combats, game.combats_per_raid, game.attacker_wins = 0, [0] * rules.raids, 0
        game.defender_choices = game.defender_chose_win = 0
        for name in ("axes", "shields", "to_walhalla", "heroes_lost", "landings", "cards_sold"):
            setattr(game, name, [0] * n)
        game.vp_from = {key: [0] * n for key in VP_SOURCES}
        game.first_player = 0
        return game

    def winners(self) -> list:
        """W-9.4: the top VP; ``walhalla_then_fields`` breaks ties by Walhalla, then fields."""
        best = max(self.vp)
        top = [p for p in range(self.n) if self.vp[p] == best]
        if len(top) > 1 and self.rules.tiebreak == "walhalla_then_fields":
            for key in (lambda p: self.walhalla[p],
                        lambda p: sum(1 for k in range(3) for o in self.occupant[k] if o == p)):
                most = max(key(p) for p in top)
                top = [p for p in top if key(p) == most]
        return top


def lead_measure(game: Game) -> list:
    """Each seat's lead measure after a turn (module docstring, "Design metrics"): its VP so far."""
    return list(game.vp)


def play_game(rules, seed: int, game_index: int, policies=None, observer=None) -> Game:
    """Play one game; ``observer(game, decision, choice)`` sees every decision point."""
    policies = policies or ("random",) * rules.num_players
    return Game(rules, seed, game_index, policies, observer).play_out()


class SteppedGame:
    """A :class:`Game` on the decision-point protocol (``docs/architecture.md``, "The reference side").

    :meth:`start` sets up (W-2) and makes the generator :meth:`Game.steps`; :meth:`advance` runs
    the automatic steps up to the next decision point, sending it the option last applied, and
    returns that :class:`Decision` (None once the game is over); :meth:`choose` asks the seat's
    player, as :meth:`Game.decide` does; :meth:`apply` hands an option of the decision over (the
    game's observer, if any, sees it); :meth:`row` is the §6 record.  ``chance`` and ``players``
    are the game's.  The game itself (its state, tallies and views) is ``game``; its attribute
    ``start`` is the raid's start player, hence this separate object."""

    def __init__(self, game: Game):
        self.game = game
        self.chance, self.players = game.chance, game.players
        self._steps = None
        self._pending = None  # the decision presented and not yet applied
        self._answer = None  # the option applied to it, sent to the generator by the next advance
        self._over = False

    def start(self) -> None:
        self.game._setup()
        self._steps = self.game.steps()

    def advance(self) -> Decision | None:
        if self._pending is not None:
            return self._pending
        if self._over:
            return None
        try:
            d = next(self._steps) if self._answer is None else self._steps.send(self._answer)
        except StopIteration:
            self._over, d = True, None
        self._pending, self._answer = d, None
        return d

    def choose(self, decision: Decision):
        return self.game.choose(decision)

    def apply(self, decision: Decision, option) -> None:
        if decision is not self._pending or option not in decision.options:
            raise ValueError(f"apply: {option!r} is not an option of the decision presented")
        if self.game.observer is not None:
            self.game.observer(self.game, decision, option)
        self._pending, self._answer = None, option

    def row(self) -> dict:
        return record_row(self.game)


def new_game(rules, seed: int, game_index: int, policies=None, observer=None) -> SteppedGame:
    """Game ``game_index`` of a run seeded ``seed`` on the protocol, not yet started (same streams as the
    kernel)."""
    policies = policies or ("random",) * rules.num_players
    return SteppedGame(Game(rules, seed, game_index, policies, observer, set_up=False))


OUTCOME_CODES = {BOARD: 0, PLAY_AXE: 0, PLAY_SHIELD: 0, DEFENDER_WINS: 0, DECLINE: 1, ATTACKER_WINS: 1}


def option_code(decision: Decision, option) -> int:
    """The kernel's code of ``option`` (``layout.py``, "Decision points and option codes"): DP-1 the
    bitmask of dragon seats, DP-2/5/6/7 0 (board, play, defender wins) or 1 (decline, attacker wins),
    DP-3 the fjord, DP-4 the peninsula or 3 to stay, DP-8/9 the count vector, entry c in bits 8c.."""
    kind = decision.kind
    if kind in (DP_BOARD, DP_FJORD):
        return option
    if kind == DP_LANDING:
        return 3 if option == STAY else option[0]
    if kind in (DP_RAID_CARDS, DP_SELL):
        return sum(count << (8 * c) for c, count in enumerate(option))
    return OUTCOME_CODES[option]


def record_row(game: Game) -> dict:
    """The outcome record (§6) as one flat row, with the columns of every seat and raid up to the most the
    rules allow (4 players, 5 raids); an absent seat or raid is all 0."""
    from toolkit.core.params import params_of

    declared = params_of(type(game.rules))
    most_seats, most_raids = declared["num_players"].kind.high, declared["raids"].kind.high
    winners = game.winners()
    winner = winners[0] if len(winners) == 1 else -1
    lead_changes, decisive_turn = game.lead.result(winner)
    row = {"winner": winner, "n_winners": len(winners),
           "result": 0 if len(winners) == 1 else 1, "start_player": game.first_player, "turns": game.turns,
           "plies": game.plies, "decisions": game.plies, "options": game.options,
           "lead_changes": lead_changes, "decisive_turn": decisive_turn, "raids": game.raids_played,
           "combats": game.combats, "attacker_wins": game.attacker_wins, "defender_choices": game.defender_choices,
           "defender_chose_win": game.defender_chose_win}
    for k in range(3):
        row[f"length_{k}"] = game.lengths[k]
    for r in range(game.rules.raids):
        row[f"turns_raid_{r}"] = game.turns_per_raid[r]
        row[f"combats_raid_{r}"] = game.combats_per_raid[r]
    for p in range(game.n):
        row.update({f"score_{p}": game.vp[p], f"win_{p}": int(p in winners), f"axes_{p}": game.axes[p],
                    f"shields_{p}": game.shields[p], f"to_walhalla_{p}": game.to_walhalla[p],
                    f"heroes_lost_{p}": game.heroes_lost[p], f"landings_{p}": game.landings[p],
                    f"cards_sold_{p}": game.cards_sold[p], f"walhalla_end_{p}": game.walhalla[p],
                    f"fields_end_{p}": sum(1 for k in range(3) for o in game.occupant[k] if o == p)})
        for source in VP_SOURCES:
            row[f"vp_{source}_{p}"] = game.vp_from[source][p]
    for name in ("turns", "combats"):
        for r in range(most_raids):  # a raid the rules do not play is 0
            row.setdefault(f"{name}_raid_{r}", 0)
    for field in ("score", "win", "axes", "shields", "to_walhalla", "heroes_lost", "landings", "cards_sold",
                  *(f"vp_{source}" for source in VP_SOURCES), "walhalla_end", "fields_end"):
        for p in range(most_seats):  # every column of an absent seat is 0
            row.setdefault(f"{field}_{p}", 0)
    return row


def kernel_state(stepped: SteppedGame) -> dict:
    """The position in the kernel's state layout (``layout.STATE``), as the kernel codes it (absent seats zero,
    fields past a peninsula's end -1): the victory points, the Vikings in Midgard, Asgard and Walhalla, the hands
    and the discard pile (counts per card type), the dragons moored per fjord, the seats of the dragon sailing
    (a colour or -1) and the fields' occupants; the lock
    step of the conformance suite compares it with the kernel's state at every decision point
    (``tests/conformance/lockstep.py``)."""
    game = stepped.game

    def seats(values):
        return [values[p] if p < game.n else 0 for p in range(MAX_SEATS)]

    return {"vp": seats(game.vp), "midgard": seats(game.midgard), "asgard": seats(game.asgard),
            "walhalla": seats(game.walhalla),
            "hand": [c for p in range(MAX_SEATS) for c in (game.hands[p] if p < game.n else [0] * N_CARDS)],
            "discard": game.discard, "moored": game.moored, "aboard": game.aboard,
            "occ": [row[j] if j < len(row) else -1 for row in game.occupant for j in range(MAX_FIELDS)]}

"""Walhalla reference: the §7 invariants at every decision point of seeded games, §7.6-7.8 around every
preparation, for 3 and 4 players, both presets and a variant with every switch flipped; negative controls
show the checker catches corrupted states.

Where a Viking is at each decision point (read from ``Game.turn``, ``disembark`` and ``combat``):

- DP-1: the active player's Vikings are all still in Midgard; ``aboard`` is empty.
- DP-2, DP-3: a boarded Viking has left Midgard and sits in ``aboard[j]`` (Midgard drops at boarding).
- DP-4 for seat j: that Viking is still in ``aboard[j]``; the seats before it are already empty (landed,
  back in Midgard, or in Walhalla).
- DP-5..DP-7 (combat): the attacker's Viking is still in ``aboard[j]`` and the defender's on its field.
  ``aboard[j]`` is cleared only after ``disembark`` returns, and no decision point lies between the loser's
  move to Walhalla (or the attacker's occupation) and that clearing, so "aboard or fighting" of §7.1 is
  exactly ``aboard`` at every decision point: nobody is counted twice or missed.
- DP-8, DP-9: ``aboard`` is empty (every seat is cleared before the turn ends).

Cards in play (off-hand, not yet discarded) at each decision point; the observer runs after the choice is
made and before it is applied:

- DP-5: none; DP-6: the attacker's Axe; DP-7: the Axe and the Shield if both were played in this combat,
  else none (a combat is always preceded by its DP-4, so an earlier combat's cards never carry over);
- DP-8: the cards laid by the earlier players of this card phase;
- every other decision point (and DP-9: sold cards go straight to the discard pile): none.

§7.6-7.8 are checked by wrapping the game's ``preparation`` (an instance attribute shadowing the method,
so ``play_out`` calls the wrapper): the state before is compared with the state after.  Walhalla changes
inside the preparation only in W-11, and nothing lands there, so "right after the cleanup" and "right after
the heroes leave" can be read at the end of the preparation.
"""

from __future__ import annotations

from collections import Counter

import pytest

from toolkit.games.walhalla import reference as ref
from toolkit.games.walhalla.data import AXE, CARD_TYPES, HORN, PLUNDER, SHIELD, WALHALLA_CARD, WHEAT
from toolkit.games.walhalla.rules import DRAW_18, Rules

VARIANTS = {
    "standard": ("standard", {}),
    "variable": ("variable", {}),
    "flipped": ("standard", {"landing_mandatory": False, "winner_loses_hero": False, "sell_cards_for_vikings": False,
                             "tie_rounding": "down", "initial_walhalla_source": "midgard",
                             "tiebreak": "walhalla_then_fields", "start_player": "seat0"}),
    # few Vikings: raids end early on empty Midgards, and players with an empty Midgard take turns
    # (under the defaults random games almost never get there: 1 such turn in 14,400 of 400 games)
    "starved": ("standard", {"start_midgard": 2, "reinforcement_table": "one each"}),
}
GAMES = 30
NO_CARDS = [0] * len(CARD_TYPES)


def capacity(lengths, f):
    """§7.3: ceil(max(F_left, F_right) / 3)."""
    return -(-max(2 * lengths[k] for k in (f - 1, f) if 0 <= k <= 2) // 3)


def attacker_of(game, k, j):
    """The colour aboard the current dragon at the position that touches field (k, j), or -1."""
    f = game.fjord
    if f < 0 or not (k == f - 1 or k == f):
        return -1
    seat = j + 1 - (3 * (game.moored[f] - 1) + 1)
    return game.aboard[seat] if 0 <= seat <= 2 else -1


def raid_is_over(game):
    """W-7.1: the dragon deck is empty, or no player has a Viking in Midgard."""
    return not game.dragons or all(m == 0 for m in game.midgard)


class Checker:
    """§7 at every decision point; :meth:`attach` adds §7.6-7.8 around each preparation."""

    def __init__(self, rules):
        self.rules = rules
        self.violations = []
        self.vp = None
        self.last = None  # (kind, info, raid) of the previous decision point
        self.in_play = list(NO_CARDS)
        self.preparations = 0
        self.ledger = None  # (asgard, walhalla, to_walhalla, heroes_lost) at the previous check in this raid
        self.kinds = Counter()
        self.choices = Counter()
        self.empty_midgard_turns = 0

    def flag(self, code):
        self.violations.append(code)

    def attach(self, game):
        game.observer = self
        original = game.preparation

        def preparation(walhalla_cards):
            before = self.snapshot(game)
            self.ledger = None  # the preparation moves Vikings between Asgard, Midgard and Walhalla
            original(walhalla_cards)
            self.check_preparation(game, before, walhalla_cards)
            self.check_ledger(game)
        game.preparation = preparation
        return game

    # -- at every decision point ------------------------------------------------------

    def __call__(self, game, d, choice):
        self.kinds[d.kind] += 1
        if isinstance(choice, str):
            self.choices[(d.kind, choice)] += 1
        if choice not in d.options:
            self.flag("§5 choice")
        prev = self.last
        same_combat = d.kind in (ref.DP_SHIELD, ref.DP_OUTCOME) and prev is not None \
            and prev[0] in (ref.DP_AXE, ref.DP_SHIELD) and prev[1] == d.info
        same_card_phase = d.kind == ref.DP_RAID_CARDS and prev is not None \
            and prev[0] == ref.DP_RAID_CARDS and prev[2] == game.raid
        if not (same_combat or same_card_phase):
            self.in_play = list(NO_CARDS)
        self.check_state(game, self.in_play)
        self.check_decision(game, d)
        if d.kind == ref.DP_SELL:  # inside the preparation
            self.ledger = None
        else:
            self.check_ledger(game)
        # what this choice takes off the hands, from the next decision point on
        if d.kind == ref.DP_AXE and choice == ref.PLAY_AXE:
            self.in_play[AXE] += 1
        elif d.kind == ref.DP_SHIELD and choice == ref.PLAY_SHIELD:
            self.in_play[SHIELD] += 1
        elif d.kind == ref.DP_RAID_CARDS:
            h0, h1, h2, w, pl = choice
            self.in_play[HORN] += h0 + h1 + h2
            self.in_play[WALHALLA_CARD] += w
            self.in_play[PLUNDER] += pl
        self.last = (d.kind, d.info, game.raid)

    def check_state(self, game, in_play):
        rules, n = self.rules, game.n
        # §7.1 Vikings per colour in play; none of the counts negative
        for c in range(n):
            on_fields = sum(1 for row in game.occupant for o in row if o == c)
            total = game.midgard[c] + game.asgard[c] + game.walhalla[c] + on_fields + game.aboard.count(c)
            if total != rules.vikings_per_colour or min(game.midgard[c], game.asgard[c], game.walhalla[c]) < 0:
                self.flag("7.1")
        # §7.2 one Viking (a colour in play) per field, and only on real fields
        if [len(row) for row in game.occupant] != [2 * x for x in game.lengths] or any(
                o < -1 or o >= n for row in game.occupant for o in row) or any(a < -1 or a >= n for a in game.aboard):
            self.flag("7.2")
        # §7.3 fjord capacity; at most 12 turns per raid
        if any(game.moored[f] > capacity(game.lengths, f) for f in range(4)):
            self.flag("7.3")
        if any(t > 12 for t in game.turns_per_raid) or sum(game.turns_per_raid) != game.turns:
            self.flag("7.3")
        # §7.4 cards, per type: deck + discard + hands + in play = action_deck
        deck = Counter(game.deck)
        for c, name in enumerate(CARD_TYPES):
            held = sum(h[c] for h in game.hands)
            if min(held, game.discard[c]) < 0 or min(h[c] for h in game.hands) < 0 or \
                    deck[c] + game.discard[c] + held + in_play[c] != rules.action_deck[name]:
                self.flag("7.4")
        # §7.5 VP never decrease
        if self.vp is not None and any(a < b for a, b in zip(game.vp, self.vp)):
            self.flag("7.5")
        self.vp = list(game.vp)
        # §7.9 lengths
        if not all(5 <= x <= 8 for x in game.lengths) or sum(game.lengths) > 18 or len(game.lengths) != 3:
            self.flag("7.9")
        if rules.peninsula_tiles == DRAW_18 and sum(game.lengths) != 18:
            self.flag("7.9")
        if rules.peninsula_tiles != DRAW_18 and tuple(game.lengths) != tuple(rules.peninsula_tiles):
            self.flag("7.9")

    def check_ledger(self, game):
        """Within a raid, Asgard grows only by the heroes combat winners lose (W-6.5) and Walhalla only by
        the losers (W-6.4) less those heroes; with ``winner_loses_hero`` off no hero leaves at all."""
        now = (list(game.asgard), list(game.walhalla), list(game.to_walhalla), list(game.heroes_lost))
        if self.ledger is not None:
            asgard, walhalla, losers, heroes = self.ledger
            for p in range(game.n):
                lost, sent = now[3][p] - heroes[p], now[2][p] - losers[p]
                if now[0][p] - asgard[p] != lost or now[1][p] - walhalla[p] != sent - lost or min(lost, sent) < 0:
                    self.flag("W-6 ledger")
                if lost and not self.rules.winner_loses_hero:
                    self.flag("W-6.5")
        self.ledger = now

    def check_decision(self, game, d):
        """Where the Vikings are (module docstring), and the options of the decision points."""
        kind, n = d.kind, game.n
        in_turn = kind in (ref.DP_BOARD, ref.DP_COLOUR_SEAT, ref.DP_FJORD, ref.DP_LANDING, ref.DP_AXE,
                           ref.DP_SHIELD, ref.DP_OUTCOME)
        if kind in (ref.DP_BOARD, ref.DP_COLOUR_SEAT, ref.DP_FJORD):  # W-7.1: the raid was on when the turn began
            if all(game.midgard[c] + game.aboard.count(c) == 0 for c in range(n)):
                self.flag("W-7.1")
        elif kind == ref.DP_RAID_CARDS and not raid_is_over(game):
            self.flag("W-7.1")
        if in_turn:
            sailed = game.turns_per_raid[game.raid] - (kind in (ref.DP_BOARD, ref.DP_COLOUR_SEAT, ref.DP_FJORD))
            if sum(game.moored) != sailed or len(game.dragons) + game.turns_per_raid[game.raid] != 12:
                self.flag("7.3 moorings")
        elif game.aboard != [-1, -1, -1]:
            self.flag("7.1 aboard")
        if kind == ref.DP_BOARD:
            colour, cseat = game.dragon_colour[game.dragon], game.dragon_seat[game.dragon]
            fillable = {j for j in range(3) if j != cseat or colour == d.seat}
            options = [m for m in range(8) if {j for j in range(3) if m >> j & 1} <= fillable
                       and bin(m).count("1") <= game.midgard[d.seat]]
            if game.midgard[d.seat] < 1 or d.options != options or game.aboard != [-1, -1, -1]:
                self.flag("DP-1")
        elif kind == ref.DP_COLOUR_SEAT:
            cseat = game.dragon_seat[game.dragon]
            if game.dragon_colour[game.dragon] != d.seat or d.seat >= n or game.midgard[d.seat] < 1 \
                    or game.aboard[cseat] != -1 or d.options != [ref.BOARD, ref.DECLINE]:
                self.flag("DP-2")
        elif kind == ref.DP_FJORD:
            self.empty_midgard_turns += game.midgard[d.seat] == 0 and d.seat not in game.aboard
            reach = [max(2 * game.lengths[k] for k in (f - 1, f) if 0 <= k <= 2) for f in range(4)]
            legal = [f for f in range(4) if 3 * game.moored[f] + 1 <= reach[f]]
            if d.options != legal or not legal:
                self.flag("DP-3")
        elif kind == ref.DP_LANDING:
            q, f = d.info, game.fjord
            base = 3 * (game.moored[f] - 1)
            if not base < q <= base + 3 or game.aboard[q - base - 1] != d.seat:
                self.flag("7.1 aboard")
            fields = [(k, q - 1) for k in (f - 1, f) if 0 <= k <= 2 and q <= 2 * game.lengths[k]]
            candidates = [x for x in fields if game.occupant[x[0]][x[1]] != d.seat]
            if d.options != candidates + ([] if self.rules.landing_mandatory else [ref.STAY]) or not candidates:
                self.flag("7.2")  # an own-occupied field offered, or the candidates wrong
        elif kind in (ref.DP_AXE, ref.DP_SHIELD, ref.DP_OUTCOME):
            k, j = d.info
            defender, attacker = game.occupant[k][j], attacker_of(game, k, j)
            if defender < 0 or attacker < 0 or attacker == defender:
                self.flag("7.2")
            if d.seat != (attacker if kind == ref.DP_AXE else defender):
                self.flag("W-6 seat")
            if kind == ref.DP_SHIELD and self.in_play[AXE] != 1:
                self.flag("W-6 shield without axe")
        elif kind == ref.DP_RAID_CARDS:
            hand = game.hands[d.seat]
            horn, wal, plunder = hand[HORN], hand[WALHALLA_CARD], hand[PLUNDER]
            wal = 0 if game.raid == self.rules.raids - 1 else wal
            options = [(h0, h1, h2, w, pl) for h0 in range(horn + 1) for h1 in range(horn + 1)
                       for h2 in range(horn + 1) for w in range(wal + 1) for pl in range(plunder + 1)
                       if h0 + h1 + h2 <= horn]
            if d.options != options or horn + wal + plunder == 0:
                self.flag("DP-8")
        elif kind == ref.DP_SELL:
            hand, asgard = game.hands[d.seat], game.asgard[d.seat]
            if asgard < 1 or not any(hand) or any(
                    any(v[c] > hand[c] for c in range(5)) or sum(v) > asgard for v in d.options):
                self.flag("7.8")
            if sorted(game.dragons) != list(range(12)) or game.moored != [0, 0, 0, 0]:
                self.flag("W-7.3.2")

    # -- around each preparation ---------------------------------------------------------

    @staticmethod
    def snapshot(game):
        return {"occupant": [list(r) for r in game.occupant], "asgard": list(game.asgard),
                "midgard": list(game.midgard), "walhalla": list(game.walhalla), "vp": list(game.vp),
                "sold": list(game.cards_sold), "start": game.start, "raid over": raid_is_over(game)}

    def check_preparation(self, game, before, walhalla_cards):
        rules, n = self.rules, game.n
        self.preparations += 1
        if not before["raid over"]:
            self.flag("W-7.1")
        # §7.6 after the cleanup only wheat is occupied, and the wheat occupants stayed
        for k in range(3):
            for j, o in enumerate(game.occupant[k]):
                wheat = game.field_type[k][j] == WHEAT
                if (o >= 0 and not wheat) or (wheat and o != before["occupant"][k][j]):
                    self.flag("7.6")
        # §7.7 every Walhalla dropped by the same m, and the minimum is now 0
        drops = {before["walhalla"][p] - game.walhalla[p] for p in range(n)}
        if len(drops) != 1 or min(drops) < 0 or min(game.walhalla) != 0:
            self.flag("7.7")
        # §7.8 at most table[rank] (+ cards sold) moved, Asgard never negative; W-10.3 exactly
        w = [before["walhalla"][p] + rules.walhalla_card_bonus * walhalla_cards[p] for p in range(n)]
        for p in range(n):
            rank = sum(1 for q in range(n) if w[q] > w[p])
            sold = game.cards_sold[p] - before["sold"][p]
            gain = game.midgard[p] - before["midgard"][p]
            if gain > rules.reinforcement_table[rank] + sold or game.asgard[p] < 0 or sold < 0:
                self.flag("7.8")
            cleaned = sum(1 for k in range(3) for j, o in enumerate(before["occupant"][k])
                          if o == p and game.field_type[k][j] != WHEAT)
            if gain != min(rules.reinforcement_table[rank], before["asgard"][p] + cleaned) + sold:
                self.flag("W-10.3")
        # W-7.3.2, W-7.3.3; nothing scores in the preparation
        if sorted(game.dragons) != list(range(12)) or game.moored != [0, 0, 0, 0]:
            self.flag("W-7.3.2")
        if game.start != (before["start"] + 1) % n:
            self.flag("W-7.3.3")
        if game.vp != before["vp"]:
            self.flag("7.5")
        self.check_state(game, NO_CARDS)

    def check_end(self, game):
        self.check_state(game, NO_CARDS)
        if not raid_is_over(game):
            self.flag("W-7.1")
        self.check_ledger(game)
        if game.raids_played != self.rules.raids or self.preparations != self.rules.raids - 1:
            self.flag("W-3")
        winners = game.winners()
        if not winners or any(game.vp[p] != max(game.vp) for p in winners):
            self.flag("W-9.4")
        if self.rules.tiebreak == "walhalla_then_fields":
            key = [(game.walhalla[p], sum(1 for row in game.occupant for o in row if o == p)) for p in range(game.n)]
            tied = [p for p in range(game.n) if game.vp[p] == max(game.vp)]
            if winners != [p for p in tied if key[p] == max(key[q] for q in tied)]:
                self.flag("W-9.4")


def play(rules, seed, g, game_class=ref.Game):
    checker = Checker(rules)
    game = checker.attach(game_class(rules, seed, g, ("random",) * rules.num_players))
    game.play_out()
    checker.check_end(game)
    return game, checker


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [3, 4])
def test_reference_games_keep_the_invariants(variant, players):
    preset, overrides = VARIANTS[variant]
    if overrides.get("reinforcement_table") == "one each":
        overrides = {**overrides, "reinforcement_table": (1,) * players}
    rules = Rules.preset(preset, num_players=players, **overrides)
    kinds, choices, lengths, short_raids, empty_turns = Counter(), Counter(), set(), 0, 0
    for g in range(GAMES):
        game, checker = play(rules, 23, g)
        assert checker.violations == [], f"game {g}: {sorted(set(checker.violations))}"
        kinds += checker.kinds
        choices += checker.choices
        lengths.add(tuple(game.lengths))
        short_raids += sum(t < 12 for t in game.turns_per_raid)
        empty_turns += checker.empty_midgard_turns
        if rules.start_player == "seat0":
            assert game.first_player == 0
    # the checker saw every decision point the variant can present
    expected = set(range(ref.DP_BOARD, ref.DP_SELL + 1)) - ({ref.DP_SELL} if variant == "flipped" else set())
    assert set(kinds) == expected
    if variant != "starved":  # few Vikings, few fights
        assert choices[(ref.DP_AXE, ref.PLAY_AXE)] and choices[(ref.DP_SHIELD, ref.PLAY_SHIELD)]
        assert choices[(ref.DP_OUTCOME, ref.ATTACKER_WINS)] and choices[(ref.DP_OUTCOME, ref.DEFENDER_WINS)]
    assert (choices[(ref.DP_LANDING, ref.STAY)] > 0) == (variant == "flipped")
    assert (len(lengths) > 1) == (variant == "variable")
    assert (short_raids > 0 and empty_turns > 0) == (variant == "starved")


# ---------------------------------------------------------------- negative controls


class Stop(Exception):
    pass


def run_corrupted(corrupt, at=40, rules=None):
    """Check a real game, corrupt its state after the ``at``-th decision point, stop after the next one."""
    rules = rules or Rules(num_players=4)
    checker = Checker(rules)
    count = 0

    def observer(game, d, choice):
        nonlocal count
        checker(game, d, choice)
        count += 1
        if count == at:
            corrupt(game)
        elif count == at + 1:
            raise Stop
    game = checker.attach(ref.Game(rules, 5, 0, ("random",) * rules.num_players))
    game.observer = observer
    with pytest.raises(Stop):
        game.play_out()
    return checker.violations


def _lose_viking(g):
    g.asgard[1] -= 1


def _move_viking_to_walhalla_twice(g):
    g.walhalla[2] += 1


def _lose_card(g):
    if g.deck:
        g.deck.pop()
    else:
        g.discard[g.discard.index(max(g.discard))] -= 1


def _swap_card_type(g):  # same total, wrong type: only the per-type count sees it
    p = next(p for p in range(g.n) if sum(g.hands[p]))
    c = next(c for c in range(5) if g.hands[p][c])
    g.hands[p][c] -= 1
    g.hands[p][(c + 1) % 5] += 1


def _overfill_fjord(g):
    g.moored[0] = 5


def _thirteen_turns(g):
    g.turns_per_raid[g.raid] = 13


def _vp_falls(g):
    g.vp[2] -= 1


def _two_colours_on_one_field(g):
    g.occupant[0][0] = 4  # a colour not in the game


CONTROLS = {"viking lost": (_lose_viking, "7.1"), "viking doubled": (_move_viking_to_walhalla_twice, "7.1"),
            "card lost": (_lose_card, "7.4"), "card type changed": (_swap_card_type, "7.4"),
            "fjord over capacity": (_overfill_fjord, "7.3"), "thirteen turns": (_thirteen_turns, "7.3"),
            "vp falls": (_vp_falls, "7.5"), "stranger on a field": (_two_colours_on_one_field, "7.2")}


def test_the_uncorrupted_control_run_passes():
    assert run_corrupted(lambda g: None) == []


@pytest.mark.parametrize("name", sorted(CONTROLS))
def test_checker_catches_a_corrupted_state(name):
    corrupt, code = CONTROLS[name]
    assert code in run_corrupted(corrupt)


@pytest.mark.parametrize("preset,lengths,flagged", [
    ("standard", [6, 6, 6], False), ("standard", [9, 6, 6], True), ("standard", [4, 6, 6], True),
    ("standard", [6, 6, 7], True),  # not the rules' lengths
    ("variable", [5, 6, 7], False), ("variable", [5, 6, 6], True), ("variable", [8, 8, 2], True)])
def test_checker_catches_wrong_lengths(preset, lengths, flagged):
    rules = Rules.preset(preset)
    g = ref.Game(rules, 1, 0, ("random",) * 4)
    g.lengths = lengths
    g.occupant = [[-1] * (2 * x) for x in lengths]
    checker = Checker(rules)
    checker.check_state(g, NO_CARDS)
    assert set(checker.violations) == ({"7.9"} if flagged else set())


def _landing_position(own):
    """A 4-player game at a DP-4: seat 0's Viking aboard the bow of a dragon moored first in F0."""
    rules = Rules()
    g = ref.Game(rules, 1, 0, ("random",) * 4)
    g.dragons.pop(0)
    g.turns_per_raid[0] = g.turns = 1
    g.fjord, g.moored = 0, [1, 0, 0, 0]
    g.aboard = [0, -1, -1]
    g.midgard[0] -= 1
    if own:
        g.occupant[0][0] = 0
        g.midgard[0] -= 1
    return rules, g


@pytest.mark.parametrize("own", [False, True])
def test_checker_catches_a_landing_offered_on_an_own_field(own):
    rules, g = _landing_position(own)
    checker = Checker(rules)
    checker(g, ref.Decision(ref.DP_LANDING, 0, [(0, 0)], 1), (0, 0))
    assert checker.violations == (["7.2"] if own else [])


def test_checker_catches_a_combat_against_the_own_colour():
    rules, g = _landing_position(True)
    checker = Checker(rules)
    checker(g, ref.Decision(ref.DP_OUTCOME, 0, [ref.DEFENDER_WINS, ref.ATTACKER_WINS], (0, 0)), ref.DEFENDER_WINS)
    assert "7.2" in checker.violations


def test_checker_counts_the_axe_in_play_at_dp6():
    rules, g = _landing_position(False)
    g.occupant[0][0] = 1
    g.midgard[1] -= 1
    hand = g.hands[0]
    hand[AXE] += 1
    g.deck.remove(AXE)
    checker = Checker(rules)
    checker(g, ref.Decision(ref.DP_LANDING, 0, [(0, 0)], 1), (0, 0))
    checker(g, ref.Decision(ref.DP_AXE, 0, [ref.PLAY_AXE, ref.DECLINE], (0, 0)), ref.PLAY_AXE)
    hand[AXE] -= 1  # what combat() does after the decision
    checker(g, ref.Decision(ref.DP_SHIELD, 1, [ref.PLAY_SHIELD, ref.DECLINE], (0, 0)), ref.DECLINE)
    assert checker.violations == []
    g.discard[AXE] += 1  # an Axe both in play and in the discard pile: one card too many
    checker(g, ref.Decision(ref.DP_SHIELD, 1, [ref.PLAY_SHIELD, ref.DECLINE], (0, 0)), ref.DECLINE)
    assert checker.violations == ["7.4"]


class LeavesAVillage(ref.Game):
    def preparation(self, walhalla_cards):
        super().preparation(walhalla_cards)
        p = max(range(self.n), key=lambda p: self.asgard[p])
        k, j = next((k, j) for k in range(3) for j in range(len(self.occupant[k]))
                    if self.occupant[k][j] < 0 and self.field_type[k][j] != WHEAT)
        self.asgard[p] -= 1
        self.occupant[k][j] = p


class UnevenHeroes(ref.Game):
    def preparation(self, walhalla_cards):
        super().preparation(walhalla_cards)
        self.asgard[0] -= 1
        self.walhalla[0] += 1


class OverReinforces(ref.Game):
    def preparation(self, walhalla_cards):
        super().preparation(walhalla_cards)
        extra = self.rules.reinforcement_table[0] + 1
        self.asgard[1] -= extra
        self.midgard[1] += extra


class SkipsTheCleanup(ref.Game):
    def preparation(self, walhalla_cards):
        kept = [list(r) for r in self.occupant]
        super().preparation(walhalla_cards)
        for k in range(3):
            for j, o in enumerate(kept[k]):
                if o >= 0 and self.occupant[k][j] < 0:
                    self.occupant[k][j] = o
                    self.asgard[o] -= 1


@pytest.mark.parametrize("game_class,code", [(LeavesAVillage, "7.6"), (SkipsTheCleanup, "7.6"),
                                             (UnevenHeroes, "7.7"), (OverReinforces, "7.8")])
def test_checker_catches_a_broken_preparation(game_class, code):
    rules = Rules(num_players=4)
    _, checker = play(rules, 23, 0, game_class)
    assert code in checker.violations
    _, intact = play(rules, 23, 0)
    assert intact.violations == []


def test_checker_sees_every_preparation():
    rules = Rules(num_players=3, raids=5)
    game, checker = play(rules, 2, 0)
    assert checker.preparations == 4 and checker.violations == [] and game.raids_played == 5

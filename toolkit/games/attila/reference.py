"""Attila, the readable pure-Python reference (spec ``docs/rules/attila.md``).

This module is written to be read beside the spec: :func:`play_game` runs the
turns of A-3, wars (A-4), scorings (A-5) and action tiles (A-6), and every
decision point of §5 goes through one function, :meth:`Game.decide`, with its
options in canonical order.  The Numba kernel is checked against it game for
game, and decision point by decision point (``tests/conformance/test_protocol.py``).
Of the kernel's modules it imports only ``layout.py``: the decision points'
numbers and the end reasons.

The rules are generators (the ``*_steps`` methods): ``choice = yield from
self.decide(...)`` hands the :class:`Decision` out and gets the option back,
and ``yield from`` carries it through the call chain.  Two ways drive them:
the decision-point protocol (``docs/architecture.md``, "The reference side":
:func:`new_game`, ``start``, ``advance``, ``choose``, ``apply``, ``row`` and
:func:`option_code`, the kernel's code of an option), which :meth:`Game.play_out`
uses, and :meth:`Game.run`, which plays one piece of the rules with the seats'
players (``turn``, ``war``, ``play``, ``tile_window``, ``finish_turn``,
``apply_play``: the scenario tests and the lookahead's rollouts in
:meth:`Game.world`).  Both show every decision and its choice to the
``observer(game, decision, choice)`` before carrying it out.

Order of random draws:

- chance stream (0): ``start_player = random`` -> one ``below(num_players)``;
  then the shuffle, a Fisher-Yates pass over the canonical deck (tribe 0's
  cards first; ``for i = D-1 .. 1: j = below(i + 1)``).  Cards are drawn from
  the front of the deck; the deal gives ``hand_size`` cards to seat 0, then to
  seat 1, and so on.  A reshuffle puts the discard pile in canonical order
  (it is kept as counts per tribe) and shuffles it the same way.
- decision stream of seat ``s`` (1 + s): ``random`` draws one ``below(n)`` per
  decision point with ``n >= 2`` options, and nothing for a single option;
  ``greedy`` draws nothing; ``lookahead`` draws its determinizations
  (``policies.determinize``), and its rollouts reshuffle from a copy of that
  stream's state (``policies.lookahead_play``).

Count-vector options (§5) are listed lexicographically ascending, ``k_0``
first; :func:`count_vectors` builds them.

Choices the spec leaves open, decided here:

- The start player is drawn before the shuffle.
- "Triggered a war" (``initiator_skips_refill_after_war``) means the active
  player's placements brought a province to ``war_threshold`` this turn.
- The deal: ``hand_size`` cards to each seat in turn from the front of the
  deck (blocks, not one card round the table).
- DP-3 (exchange) and DP-5 (forced discard) put cards on the discard pile
  face up; the policies' knowledge model treats the whole pile as public.

Design metrics (the columns right after ``plies``; the kernel counts the same):

- ``decisions``: the §5 decision points presented, DP-1 to DP-7, each one even
  with a single option -- every call of :meth:`Game.decide`, whatever the
  policy.  By §6 this is ``plies``.  Not decision points: the influence taken
  automatically with ``second_figure_option`` off, a play with an empty hand
  (no DP-5), a support turn with no layable card (no DP-7).  The lookahead's
  rollouts play in their own :meth:`Game.world`, so their points are not
  counted in the real game.
- ``options``: the sum over those points of ``len(options)``, the list
  ``random`` chooses from (DP-3 without the all-zero vector, DP-7 with it).
- ``lead_changes`` / ``decisive_turn`` (``toolkit.core.lead.LeadTracker``):
  the lead measure (:func:`lead_measure`) is each seat's VP so far on the
  score track, taken after every turn counted in ``turns``.  VP are public
  and are what A-7 ranks, so the leader is the seat that would win if the
  game stopped now; the influence tracks are public too, but their worth
  depends on figures still to come, and a "scoring now" estimate is a
  policy's guess (greedy's), not the score.  VP move only at scorings (at
  most four), so nobody leads before the first century ends and the lead can
  change only at a scoring; a winner by ``tiebreak = influence_sum`` does not
  lead on VP, so its decisive turn is the last one.
"""

from __future__ import annotations

import dataclasses
import itertools

from toolkit.core import cards
from toolkit.core.lead import LeadTracker
from toolkit.core.policy import players as core_players
from toolkit.core.protocol import play_out
from toolkit.core.rng import CHANCE, Stream
# the decision points' numbers (§5) and the end reasons, shared with the kernel
from toolkit.games.attila.layout import (
    DP_BONUS, DP_DISCARD, DP_EXCHANGE, DP_PLAY, DP_SPLIT as DP_PLUS_TWO, DP_SUPPORT, DP_TILE, END_REASONS,
    MAX_PROVINCES, MAX_SEATS,
)
from toolkit.games.attila.rules import TILES, TRIBES

N_TRIBES = len(TRIBES)
PROCEED = "proceed"
INFLUENCE = "influence"


def count_vectors(limits) -> list:
    """All count vectors ``k`` with ``0 <= k_t <= limits[t]``, lexicographically ascending."""
    return [tuple(v) for v in itertools.product(*(range(c + 1) for c in limits))]


def plus_two_options() -> list:
    """DP-2: "+2 on t" for t = 0..5, then "+1 on t, +1 on u" for t < u (21 options)."""
    return [(t,) for t in range(N_TRIBES)] + [(t, u) for t in range(N_TRIBES) for u in range(t + 1, N_TRIBES)]


def lead_measure(game) -> list:
    """The lead measure (module docstring, "Design metrics"): each seat's VP so far."""
    return list(game.vp)


@dataclasses.dataclass
class Decision:
    kind: int
    seat: int
    options: list
    info: int = -1  # DP-6: the tribe just placed; DP-7: the war province


def scoring_gains(rules, influence, figures, n_players) -> list:
    """A-5: the VP each player gains from a scoring of this position (one definition, used by
    the game and by the greedy policy)."""
    up = rules.tie_rounding == "up"
    gains = [0] * n_players

    def share(total, k):
        return -(-total // k) if up else total // k

    # a tribe's figures in each province, and each player's influence on it (greedy calls this for every option)
    for t, column in enumerate(zip(*figures)):
        held = [row[t] for row in influence]
        top = max(held)
        if top <= 0:  # nobody is eligible
            continue
        n_fig = sum(column)
        n_prov = len(column) - column.count(0)  # provinces holding the tribe (counts are never negative)
        first = [p for p in range(n_players) if held[p] == top]
        if len(first) >= 2:
            for p in first:
                gains[p] += share(n_fig + n_prov, len(first))
            continue
        gains[first[0]] += n_fig
        below = [v for v in held if 0 < v < top]  # the other eligible players
        if not below:
            continue
        second_value = max(below)
        second = [p for p in range(n_players) if held[p] == second_value]
        gap = rules.two_player_second_place_gap
        if n_players == 2 and gap is not None and top - second_value > gap:
            continue
        for p in second:
            gains[p] += share(n_prov, len(second))
    return gains


class Game:
    """One game: the state of §3 and the rules of §4."""

    def __init__(self, rules, seed: int, game_index: int, policies, observer=None):
        self.rules = rules
        self.board = rules.board
        self.n = rules.num_players
        self.chance = Stream(seed, game_index, CHANCE)
        self.players = core_players("attila", policies, rules, seed, game_index)
        self.observer = observer
        n, board = self.n, self.board
        self.vp = [0] * n
        self.influence = [[0] * N_TRIBES for _ in range(n)]
        self.figures = [[0] * N_TRIBES for _ in range(board.n)]
        self.pacified = [False] * board.n
        self.supply = [rules.figures_per_tribe] * N_TRIBES
        self.peace = list(rules.peace_tiles_per_century)
        self.tiles = [set(TILES) for _ in range(n)]
        self.tiles_used = [[] for _ in range(n)]
        self.end_triggered = False
        self.game_over = False
        self.pending = []  # provinces that reached war_threshold this turn, in order
        self.plays_left = 0  # plays still to come this turn after the current one
        self.end_reason = ""
        # §6 tallies
        self.turns = 0
        self.plies = 0
        self.options = 0  # options offered at the decision points so far
        self.lead = LeadTracker()  # after every real turn (play_out)
        self.wars = 0
        self.century_scorings = 0
        self.century_end_turn = [0] * 4  # the 1-based turn in which each peace stack ran out
        self.figures_placed = [0] * n
        self.figures_removed = 0
        self.support_cards = [0] * n
        #
        self.start_player = self.chance.below(n) if rules.start_player == "random" else 0
        for k in range(n):  # the variant later_seat_vp (rules.py; 0 in the spec)
            self.vp[(self.start_player + k) % n] = k * rules.later_seat_vp
        self.deck, self.discard, self.hands = cards.deal([rules.cards_per_tribe] * N_TRIBES, n, rules.hand_size,
                                                         self.chance)

    # -- cards ------------------------------------------------------------------

    def draw(self, seat: int) -> bool:
        """Draw one card (A-3.5): an empty deck is rebuilt from the whole discard pile first."""
        return cards.draw_card(self.deck, self.discard, self.hands[seat], self.chance)

    # -- derived values ------------------------------------------------------------

    @property
    def century(self) -> int:
        """The first position whose peace stack is non-empty (0..3 = IV..VII)."""
        for c, left in enumerate(self.peace):
            if left > 0:
                return c
        return 3

    def legal(self, t: int, x: int) -> bool:
        """A-2: may a figure of tribe t go to province x?"""
        rules, board = self.rules, self.board
        if self.pacified[x] or sum(self.figures[x]) >= rules.war_threshold or self.supply[t] <= 0:
            return False
        if x in board.start or self.figures[x][t] > 0:
            return True
        return any(self.figures[y][t] > 0 for y in board.neighbours[x])

    def legal_provinces(self, t: int) -> list:
        return [x for x in range(self.board.n) if self.legal(t, x)]

    # -- decisions -------------------------------------------------------------------

    def decide(self, kind: int, seat: int, options: list, info: int = -1):
        """Present a decision point (one ply): ``choice = yield from self.decide(...)`` yields the
        :class:`Decision` and returns the option chosen (the rules are generators, see :meth:`run`)."""
        self.plies += 1
        self.options += len(options)
        return (yield Decision(kind, seat, options, info))

    def choose(self, decision: Decision):
        """The option ``players[decision.seat]`` picks (every policy answers a single option without drawing)."""
        player = self.players[decision.seat]
        return player.choose(self.view(decision.seat) if getattr(player, "needs_view", True) else None, decision)

    def run(self, steps):
        """Play the generator ``steps`` (one of the ``*_steps`` rules below) to its end, every decision
        point answered by its seat's player and shown to the observer; returns its value."""
        try:
            decision = next(steps)
            while True:
                choice = self.choose(decision)
                if self.observer is not None:
                    self.observer(self, decision, choice)
                decision = steps.send(choice)
        except StopIteration as stop:
            return stop.value

    # -- the protocol (docs/architecture.md, "The reference side") -------------------------

    def start(self) -> None:
        """Begin the game (set up already, in ``__init__``): run it up to its first decision point."""
        self._steps = self.game_steps()
        self._resume(lambda: next(self._steps))

    def _resume(self, step) -> None:
        try:
            self._pending = step()
        except StopIteration:
            self._pending, self._steps = None, None

    def advance(self) -> Decision | None:
        """The current decision point; None once the game is over."""
        return self._pending

    def apply(self, decision: Decision, option) -> None:
        """Carry out ``option`` of ``decision`` (the current one), then every automatic step up to the next
        decision point."""
        assert decision is self._pending and option in decision.options, (decision, option)
        if self.observer is not None:
            self.observer(self, decision, option)
        self._resume(lambda: self._steps.send(option))

    def row(self) -> dict:
        """The §6 row of the finished game."""
        return record_row(self)

    def view(self, seat: int):
        """What ``seat`` may know: everything but the other hands (their sizes are public) and the
        deck order.  Plain values only (``legal[t]``: the provinces open to tribe t), so no
        policy can reach the game through it."""
        return {"seat": seat, "hand": list(self.hands[seat]), "hand_sizes": [sum(h) for h in self.hands],
                "influence": [list(r) for r in self.influence], "figures": [list(r) for r in self.figures],
                "pacified": list(self.pacified), "supply": list(self.supply), "vp": list(self.vp),
                "peace": list(self.peace), "tiles": [set(s) for s in self.tiles], "rules": self.rules,
                "century": self.century, "legal": tuple(self.legal_provinces(t) for t in range(N_TRIBES)),
                "discard": list(self.discard),
                "deck_size": len(self.deck), "end_triggered": self.end_triggered, "turns": self.turns,
                "pending": list(self.pending), "plays_left": self.plays_left, "start_player": self.start_player}

    @classmethod
    def world(cls, view, hands, deck, chance, players) -> "Game":
        """A game rebuilt from a view, with guessed ``hands`` and ``deck`` (the lookahead's
        determinized world): the public state is copied, the tallies start at 0."""
        game = cls.__new__(cls)
        rules = view["rules"]
        game.rules, game.board, game.n = rules, rules.board, rules.num_players
        game.chance, game.players, game.observer = chance, players, None
        game.vp = list(view["vp"])
        game.influence = [list(r) for r in view["influence"]]
        game.figures = [list(r) for r in view["figures"]]
        game.pacified = list(view["pacified"])
        game.supply = list(view["supply"])
        game.peace = list(view["peace"])
        game.tiles = [set(s) for s in view["tiles"]]
        game.tiles_used = [[] for _ in range(game.n)]
        game.end_triggered, game.game_over, game.end_reason = view["end_triggered"], False, ""
        game.pending, game.plays_left = list(view["pending"]), view["plays_left"]
        game.turns, game.plies, game.wars, game.century_scorings = view["turns"], 0, 0, 0
        game.options, game.lead = 0, LeadTracker()
        game.century_end_turn = [0] * 4
        game.figures_placed, game.figures_removed, game.support_cards = [0] * game.n, 0, [0] * game.n
        game.start_player = view["start_player"]
        game.deck, game.discard = list(deck), list(view["discard"])
        game.hands = [list(h) for h in hands]
        return game

    # -- A-5 scoring -----------------------------------------------------------------

    def scoring(self) -> None:
        for p, gain in enumerate(scoring_gains(self.rules, self.influence, self.figures, self.n)):
            self.vp[p] += gain
        self.century_scorings += 1

    # -- A-3 helpers -------------------------------------------------------------------

    def gain_influence(self, seat: int, t: int, amount: int) -> None:
        cap = self.rules.influence_track_max
        self.influence[seat][t] = min(cap, self.influence[seat][t] + amount)
        if self.rules.end_on_track_max and self.influence[seat][t] >= cap:
            self.end_triggered = True

    def place(self, seat: int, t: int, x: int) -> None:
        self.figures[x][t] += 1
        self.supply[t] -= 1
        self.figures_placed[seat] += 1
        if sum(self.figures[x]) == self.rules.war_threshold:
            self.pending.append(x)

    def usable_tiles(self, seat: int) -> list:
        tiles = self.tiles[seat]
        out = [t for t in ("double_turn", "plus_two") if t in tiles]
        if "exchange" in tiles and sum(self.hands[seat]) > 0:
            out.append("exchange")
        return out

    def tile_window(self, seat: int) -> int:
        return self.run(self.tile_window_steps(seat))

    def tile_window_steps(self, seat: int):
        """A-3.1 / DP-1..3: returns the number of plays this turn (2 after Double turn)."""
        plays, used = 1, 0
        while used < self.rules.max_tiles_per_turn:
            usable = self.usable_tiles(seat)
            if not usable:
                break
            choice = yield from self.decide(DP_TILE, seat, usable + [PROCEED])
            if choice == PROCEED:
                break
            used += 1
            self.tiles[seat].discard(choice)
            self.tiles_used[seat].append((choice, self.turns + 1))
            if choice == "double_turn":
                plays = 2
            elif choice == "plus_two":
                option = yield from self.decide(DP_PLUS_TWO, seat, plus_two_options())
                if len(option) == 1:
                    self.gain_influence(seat, option[0], 2)
                else:
                    self.gain_influence(seat, option[0], 1)
                    self.gain_influence(seat, option[1], 1)
            else:  # exchange: discard >= 1 cards, draw as many
                vectors = count_vectors(self.hands[seat])[1:]
                k = yield from self.decide(DP_EXCHANGE, seat, vectors)
                for t in range(N_TRIBES):
                    self.hands[seat][t] -= k[t]
                    self.discard[t] += k[t]
                for _ in range(sum(k)):
                    self.draw(seat)
        return plays

    def play(self, seat: int) -> None:
        self.run(self.play_steps(seat))

    def play_steps(self, seat: int):
        """A-3.2: card and figure, then influence or a second figure."""
        pairs = [(t, x) for t in range(N_TRIBES) if self.hands[seat][t] > 0 for x in self.legal_provinces(t)]
        if not pairs:
            if sum(self.hands[seat]) > 0:  # DP-5
                t = yield from self.decide(DP_DISCARD, seat, [t for t in range(N_TRIBES) if self.hands[seat][t] > 0])
                self.hands[seat][t] -= 1
                self.discard[t] += 1
            return
        t, x = yield from self.decide(DP_PLAY, seat, pairs)
        yield from self.apply_play_steps(seat, t, x)

    def apply_play(self, seat: int, t: int, x: int) -> None:
        self.run(self.apply_play_steps(seat, t, x))

    def apply_play_steps(self, seat: int, t: int, x: int):
        """A-3.2 after the DP-4 choice: the card, the figure, then influence or a second figure."""
        rules = self.rules
        self.hands[seat][t] -= 1
        self.discard[t] += 1
        self.place(seat, t, x)
        rate = rules.influence_rate_per_century[self.century]
        if not rules.second_figure_option:
            self.gain_influence(seat, t, rate)
            return
        choice = yield from self.decide(DP_BONUS, seat, [INFLUENCE] + self.legal_provinces(t), info=t)
        if choice == INFLUENCE:
            self.gain_influence(seat, t, rate)
        else:
            self.place(seat, t, choice)

    # -- A-4 war ------------------------------------------------------------------------

    def war(self, active: int, x: int) -> bool:
        return self.run(self.war_steps(active, x))

    def war_steps(self, active: int, x: int):
        """Resolve the war in ``x``; returns True if a century scoring took place."""
        rules = self.rules
        involved = [t for t in range(N_TRIBES) if self.figures[x][t] > 0]
        laid = [0] * N_TRIBES
        for i in range(self.n):  # from the active player clockwise, once each
            seat = (active + i) % self.n
            hand = self.hands[seat]
            limits = [hand[t] if (rules.support_any_tribe or t in involved) else 0 for t in range(N_TRIBES)]
            if sum(limits) == 0:
                continue
            k = yield from self.decide(DP_SUPPORT, seat, count_vectors(limits), info=x)
            for t in range(N_TRIBES):
                hand[t] -= k[t]
                laid[t] += k[t]
            self.support_cards[seat] += sum(k)
        strength = {t: self.figures[x][t] + laid[t] for t in involved}
        weakest = min(strength.values())
        losers = [t for t in involved if strength[t] == weakest]
        remove = True
        if len(involved) == 1 and not rules.single_tribe_war_removes:
            remove = False
        if len(losers) >= 2 and not rules.war_tie_removes_all_weakest:
            remove = False
        if remove:
            for t in losers:
                self.supply[t] += self.figures[x][t]
                self.figures_removed += self.figures[x][t]
                self.figures[x][t] = 0
        c = self.century
        self.peace[c] -= 1
        self.pacified[x] = True
        for t in range(N_TRIBES):
            self.discard[t] += laid[t]
        self.wars += 1
        if self.peace[c] == 0:
            self.century_end_turn[c] = self.turns + 1
            if sum(self.peace) == 0 and rules.finish_round:
                return False  # the last century is scored when the round ends (finish_turn_steps)
            self.scoring()
            if sum(self.peace) == 0:
                self.game_over = True
                self.end_reason = "tenth_war"
            return True
        return False

    # -- the turn and the game ----------------------------------------------------------------

    def any_placement_possible(self) -> bool:
        return any(self.supply[t] > 0 and self.legal_provinces(t) for t in range(N_TRIBES))

    def turn(self, seat: int) -> None:
        self.run(self.turn_steps(seat))

    def turn_steps(self, seat: int):
        """A-3: one turn of ``seat``."""
        self.pending = []
        self.plays_left = yield from self.tile_window_steps(seat)
        yield from self.finish_turn_steps(seat)

    def finish_turn(self, seat: int) -> None:
        self.run(self.finish_turn_steps(seat))

    def finish_turn_steps(self, seat: int):
        """The rest of A-3 from the plays on (the lookahead's rollouts start here, mid-turn)."""
        rules = self.rules
        while self.plays_left > 0:
            self.plays_left -= 1
            yield from self.play_steps(seat)
        triggered = bool(self.pending)
        scored = False
        for x in self.pending:
            if self.game_over or sum(self.peace) == 0:  # no peace tile left: the war is dropped
                break
            scored |= (yield from self.war_steps(seat, x))
        if rules.finish_round:  # the variant: the end waits for the last turn of the round
            out = sum(self.peace) == 0
            if (out or self.end_triggered) and not self.game_over and (seat + 1) % self.n == self.start_player:
                if out or not scored:
                    self.scoring()
                self.game_over = True
                self.end_reason = "tenth_war" if out else "track_end"
        elif self.end_triggered and not self.game_over:
            if not scored:
                self.scoring()
            self.game_over = True
            self.end_reason = "track_end"
        if not (rules.initiator_skips_refill_after_war and triggered):
            while sum(self.hands[seat]) < rules.hand_size and self.draw(seat):
                pass
        self.turns += 1
        if not self.game_over and not self.any_placement_possible():
            self.scoring()
            self.game_over = True
            self.end_reason = "stall"
        if not self.game_over and self.turns >= rules.max_turns:
            self.game_over = True
            self.end_reason = "aborted"

    def game_steps(self):
        """The game from the start player's first turn to its end (A-3 turn after turn)."""
        seat = self.start_player
        while not self.game_over:
            yield from self.turn_steps(seat)
            self.lead.update(lead_measure(self))
            seat = (seat + 1) % self.n

    def play_out(self) -> "Game":
        """Play the whole game with the seats' players (through the protocol)."""
        return play_out(self)

    def winners(self) -> list:
        """A-7: the winning seats (all tied at the top with ``shared``), none if aborted."""
        if self.end_reason == "aborted":
            return []
        best = max(self.vp)
        top = [p for p in range(self.n) if self.vp[p] == best]
        if len(top) > 1 and self.rules.tiebreak == "influence_sum":
            sums = {p: sum(self.influence[p]) for p in top}
            most = max(sums.values())
            top = [p for p in top if sums[p] == most]
        return top


def play_game(rules, seed: int, game_index: int, policies=None, observer=None) -> Game:
    """Play one game; ``observer(game, decision, choice)`` sees every decision point."""
    policies = policies or ("random",) * rules.num_players
    return new_game(rules, seed, game_index, policies, observer).play_out()


TILE_CODE = {"double_turn": 1, "plus_two": 2, "exchange": 4, PROCEED: 0}


def vector_index(vector, limits) -> int:
    """The lexicographic index of the count vector among all ``0 <= k_t <= limits[t]`` (``k_0`` first)."""
    index = 0
    for k, limit in zip(vector, limits):
        index = index * (limit + 1) + k
    return index


def option_code(decision: Decision, option) -> int:
    """The kernel's code of ``option`` (``layout.py``, "The decision points and their option codes")."""
    kind = decision.kind
    if kind == DP_TILE:
        return TILE_CODE[option]
    if kind == DP_PLUS_TWO:
        return plus_two_options().index(option)
    if kind in (DP_EXCHANGE, DP_SUPPORT):  # the limits: every vector up to them is listed (DP-3 but all-zero)
        limits = [max(o[t] for o in decision.options) for t in range(N_TRIBES)]
        return vector_index(option, limits)
    if kind == DP_PLAY:
        tribe, province = option
        return tribe << 6 | province
    if kind == DP_DISCARD:
        return option
    return 0 if option == INFLUENCE else 1 + option  # DP_BONUS


def new_game(rules, seed: int, game_index: int, policies=None, observer=None) -> Game:
    """Game ``game_index`` of a run seeded ``seed``, set up (A-1) and not yet started (same streams as the kernel)."""
    return Game(rules, seed, game_index, policies or ("random",) * rules.num_players, observer)


def record_row(game: Game) -> dict:
    """The outcome record (§6) as one flat row, with the columns of every seat up to the most players the
    rules allow (A-1: 5); a seat beyond the player count is all 0."""
    from toolkit.core.params import params_of

    most = params_of(type(game.rules))["num_players"].kind.high
    winners = game.winners()
    winner = winners[0] if len(winners) == 1 else -1
    lead_changes, decisive_turn = game.lead.result(winner)
    row = {"winner": winner, "n_winners": len(winners),
           "result": 2 if game.end_reason == "aborted" else (0 if len(winners) == 1 else 1),
           "start_player": game.start_player, "turns": game.turns, "plies": game.plies,
           "decisions": game.plies, "options": game.options, "lead_changes": lead_changes,
           "decisive_turn": decisive_turn, "wars": game.wars,
           "century_scorings": game.century_scorings, "end_reason": END_REASONS.index(game.end_reason),
           "figures_removed": game.figures_removed}
    for c in range(4):
        row[f"century_end_turn_{c}"] = game.century_end_turn[c]
    for p in range(game.n):
        row[f"score_{p}"] = game.vp[p]
        row[f"win_{p}"] = int(p in winners)
        row[f"figures_placed_{p}"] = game.figures_placed[p]
        row[f"support_cards_{p}"] = game.support_cards[p]
        for tile, turn in game.tiles_used[p]:
            row[f"{tile}_used_{p}"] = turn
        for t in range(N_TRIBES):
            row[f"influence_{p}_{t}"] = game.influence[p][t]
    for field in ("score", "win", "figures_placed", "support_cards", *(f"{tile}_used" for tile in TILES)):
        for p in range(most):  # a tile never played, and every column of an absent seat, is 0
            row.setdefault(f"{field}_{p}", 0)
    for p in range(most):
        for t in range(N_TRIBES):
            row.setdefault(f"influence_{p}_{t}", 0)
    return row


def kernel_state(game: Game) -> dict:
    """The position in the kernel's state layout (``layout.STATE``), as the kernel codes it (rows of absent seats
    and provinces zero): the victory points, influence, hands and discard pile (counts per tribe), the supply and
    the figures in each province; the lock step of the conformance suite compares it with the kernel's state at
    every decision point (``tests/conformance/lockstep.py``)."""
    seats = [*range(game.n)]
    pad = [0] * N_TRIBES

    def rows(per, total):  # per[i] for i < len(per), zero rows after, flattened
        return [v for i in range(total) for v in (per[i] if i < len(per) else pad)]

    return {"vp": [game.vp[s] if s < game.n else 0 for s in range(MAX_SEATS)],
            "inf": rows([game.influence[s] for s in seats], MAX_SEATS),
            "hand": rows([game.hands[s] for s in seats], MAX_SEATS),
            "supply": game.supply, "discard": game.discard, "fig": rows(game.figures, MAX_PROVINCES)}

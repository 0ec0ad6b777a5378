"""Walhalla in words and pictures (issue 38): ``view.describe``, ``view.position`` and ``viz.draw``."""

from __future__ import annotations

import copy

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

import toolkit  # noqa: E402
from toolkit.games.walhalla import reference as ref  # noqa: E402
from toolkit.games.walhalla import view  # noqa: E402
from toolkit.games.walhalla.data import VILLAGE, WHEAT, load_dragons  # noqa: E402
from toolkit.games.walhalla.viz import MooringLog, draw, parts  # noqa: E402

DRAGONS = load_dragons()
# fuller hands than the default deck, so DP-5, DP-6, DP-8 and DP-9 come up often
CARDS = dict(action_deck={"axe": 12, "shield": 12, "horn": 8, "walhalla": 6, "plunder": 6}, cult_cards=2,
             initial_action_cards=2)


@pytest.fixture(autouse=True)
def no_figures_left():
    yield
    plt.close("all")  # a safety net: every test closes its own figures


def decisions(rules, seed, game_index=0, log=None):
    """Step one game with random players: yield (game, decision) before each option is applied, then
    apply the player's choice; the game's final position is the last thing yielded, (game, None)."""
    game = ref.new_game(rules, seed, game_index, ("random",) * rules.num_players, observer=log)
    game.start()
    while (decision := game.advance()) is not None:
        yield game, decision
        game.apply(decision, game.choose(decision))
    yield game, None


def board_game(num_players=4, **rules):
    """A set-up reference game to hand-build a decision on: seat 0 red, 1 blue, 2 green, 3 yellow."""
    return ref.Game(toolkit.rules("walhalla", num_players=num_players, **rules), 1, 0, ("random",) * num_players)


def dragon(name: str) -> int:
    return DRAGONS.ids.index(name)


# ---------------------------------------------------------------------------- describe


def test_decisions_are_the_spec_s5_names():
    assert view.DECISIONS == {1: "board", 2: "colour seat", 3: "fjord", 4: "landing", 5: "axe", 6: "shield",
                              7: "fight outcome", 8: "raid cards", 9: "sell"}


def test_describe_dp1_board_and_dp2_colour_seat():
    game = board_game()
    game.dragon = dragon("D_0_2")  # red's coloured seat is the stern
    board = ref.Decision(ref.DP_BOARD, 0, list(range(8)))
    assert view.describe(game, board, 0) == "board nobody"
    assert view.describe(game, board, 1) == "board 1 Viking: bow"
    assert view.describe(game, board, 5) == "board 2 Vikings: bow and stern (my colour)"
    assert view.describe(game, board, 7) == "board 3 Vikings: bow, middle and stern (my colour)"
    blue = ref.Decision(ref.DP_BOARD, 1, [0, 1, 2, 3])  # blue drew it: the stern is red's, not blue's
    assert view.describe(game, blue, 3) == "board 2 Vikings: bow and middle"
    game.dragon = dragon("D_1_0")  # red drew blue's bow dragon: blue may board its bow (W-4.3)
    seat = ref.Decision(ref.DP_COLOUR_SEAT, 1, [ref.BOARD, ref.DECLINE])
    assert view.describe(game, seat, ref.BOARD) == "board my coloured seat (bow)"
    assert view.describe(game, seat, ref.DECLINE) == "leave my coloured seat (bow) empty"


def test_describe_dp3_fjord():
    game = board_game()
    game.moored = [0, 2, 0, 1]
    fjord = ref.Decision(ref.DP_FJORD, 2, [0, 1, 2, 3])
    assert view.describe(game, fjord, 0) == "sail to F0 (left of P0), positions 1-3"
    assert view.describe(game, fjord, 1) == "sail to F1 (between P0 and P1), positions 7-9"
    assert view.describe(game, fjord, 3) == "sail to F3 (right of P2), positions 4-6"


def fight_game(**rules):
    """Red's dragon D_0_1 moored second in F1 (positions 4-6), red on its middle seat (position 5) facing
    P0 field 5, an empty wheat 3, and P1 field 5, a village held by blue."""
    game = board_game(**rules)
    game.dragon, game.fjord, game.moored, game.aboard = dragon("D_0_1"), 1, [0, 2, 0, 0], [-1, 0, -1]
    game.field_type[0][4], game.field_value[0][4], game.occupant[0][4] = WHEAT, 3, -1
    game.field_type[1][4], game.field_value[1][4], game.occupant[1][4] = VILLAGE, 0, 1
    return game


def test_describe_dp4_landing():
    game = fight_game()
    landing = ref.Decision(ref.DP_LANDING, 0, [(0, 4), (1, 4)], info=5)
    assert view.describe(game, landing, (0, 4)) == "land on P0 field 5 (wheat 3)"
    assert view.describe(game, landing, (1, 4)) == "attack blue on P1 field 5 (village)"
    game = fight_game(landing_mandatory=False)
    landing = ref.Decision(ref.DP_LANDING, 0, [(0, 4), (1, 4), ref.STAY], info=5)
    assert view.describe(game, landing, ref.STAY) == "stay aboard (back to Midgard)"


def test_describe_dp5_to_dp7_combat():
    game = fight_game()
    axe = ref.Decision(ref.DP_AXE, 0, [ref.PLAY_AXE, ref.DECLINE], info=(1, 4))
    assert view.describe(game, axe, ref.PLAY_AXE) == "play an Axe against blue on P1 field 5 (village)"
    assert view.describe(game, axe, ref.DECLINE) == "fight blue for P1 field 5 (village) without an Axe"
    shield = ref.Decision(ref.DP_SHIELD, 1, [ref.PLAY_SHIELD, ref.DECLINE], info=(1, 4))
    assert view.describe(game, shield, ref.PLAY_SHIELD) == "play a Shield against red's Axe on P1 field 5 (village)"
    assert view.describe(game, shield, ref.DECLINE) == "let red's Axe win P1 field 5 (village)"
    outcome = ref.Decision(ref.DP_OUTCOME, 1, [ref.DEFENDER_WINS, ref.ATTACKER_WINS], info=(1, 4))
    assert (view.describe(game, outcome, ref.DEFENDER_WINS)
            == "win the fight for P1 field 5 (village): red's Viking goes to Walhalla")
    assert (view.describe(game, outcome, ref.ATTACKER_WINS)
            == "let red win P1 field 5 (village): my Viking goes to Walhalla")


def test_describe_dp8_raid_cards_and_dp9_sell():
    game = board_game()
    game.hands[0] = [1, 1, 2, 1, 1]  # axe, shield, horn, walhalla, plunder
    cards = ref.Decision(ref.DP_RAID_CARDS, 0, ref.raid_card_options(game.hands[0], last_raid=False))
    assert view.describe(game, cards, (0, 0, 0, 0, 0)) == "lay nothing"
    assert view.describe(game, cards, (2, 0, 0, 0, 0)) == "lay 2 Battle Horns on P0"
    assert (view.describe(game, cards, (1, 0, 1, 1, 1))
            == "lay 1 Battle Horn on P0, 1 Battle Horn on P2, 1 Walhalla card and 1 Plunder card")
    sell = ref.Decision(ref.DP_SELL, 0, ref.count_vectors(game.hands[0], 4))
    assert view.describe(game, sell, (0, 0, 0, 0, 0)) == "sell nothing"
    assert view.describe(game, sell, (0, 1, 0, 0, 0)) == "sell 1 Shield for 1 Viking"
    assert view.describe(game, sell, (1, 0, 2, 0, 0)) == "sell 1 Axe and 2 Battle Horns for 3 Vikings"


@pytest.mark.parametrize("preset", ["standard", "variable"])
@pytest.mark.parametrize("num_players", [3, 4])
def test_describe_options_of_one_decision_differ(preset, num_players):
    """Over seeded games of every preset and player count (and the stay option of W-5.3), no two options
    of one decision read alike, and every text is short plain words."""
    rules = toolkit.rules("walhalla", preset, num_players=num_players, landing_mandatory=num_players == 3, **CARDS)
    kinds = set()
    for seed in range(3):
        for game, decision in decisions(rules, seed):
            if decision is None:
                continue
            texts = [view.describe(game, decision, option) for option in decision.options]
            assert len(set(texts)) == len(texts), (decision, texts)
            assert all(0 < len(t) <= 110 and "\n" not in t for t in texts)
            kinds.add(decision.kind)
    assert kinds == set(view.DECISIONS)  # each decision kind of §5 came up


def test_describe_never_reveals_what_the_seat_cannot_see():
    """The words stay the same whatever the hidden cards are: the other hands (their sizes kept, as those
    are public), the action deck and the dragon deck's order (W-1; ``Game.view``)."""
    checked = set()
    for num_players, seed in [(4, 0), (4, 1), (3, 2), (3, 3)]:
        for game, decision in decisions(toolkit.rules("walhalla", num_players=num_players, **CARDS), seed):
            if decision is None:
                continue
            g = game.game
            texts = [view.describe(game, decision, o) for o in decision.options]
            # changed in place and put back in place: the rules' generators hold on to these lists
            hands, deck, dragons = copy.deepcopy(g.hands), list(g.deck), list(g.dragons)
            for card in range(5):  # every other hand made of one card type only
                for p in range(g.n):
                    if p != decision.seat:
                        g.hands[p][:] = [sum(hands[p]) if c == card else 0 for c in range(5)]
                g.deck[:] = [card] * len(deck)
                g.dragons[:] = dragons[::-1]
                assert [view.describe(game, decision, o) for o in decision.options] == texts, decision
            for p in range(g.n):
                g.hands[p][:] = hands[p]
            g.deck[:], g.dragons[:] = deck, dragons
            checked.add(decision.kind)
    assert {ref.DP_AXE, ref.DP_SHIELD, ref.DP_OUTCOME, ref.DP_RAID_CARDS, ref.DP_SELL} <= checked


# ---------------------------------------------------------------------------- position


def test_position_copies_the_game_and_names_the_decision():
    rules = toolkit.rules("walhalla", num_players=3)
    for game, decision in decisions(rules, 4):
        g, p = game.game, view.position(game, decision)
        assert p.occupant == tuple(tuple(row) for row in g.occupant) and p.vp == tuple(g.vp)
        assert p.hands == tuple(tuple(h) for h in g.hands) and p.hand_sizes == tuple(sum(h) for h in g.hands)
        assert p.deck == tuple(g.deck) and p.dragons_left == tuple(g.dragons) and p.dragon == g.dragon
        if decision is None:
            assert p.over and p.winners == tuple(g.winners()) and p.kind == 0 and "the end" in p.caption()
            continue
        assert (p.seat, p.kind, p.decision, p.options) == (decision.seat, decision.kind,
                                                           view.DECISIONS[decision.kind], len(decision.options))
        assert not p.over and f"decides DP-{decision.kind} {p.decision}" in p.caption()
        if decision.kind in (ref.DP_BOARD, ref.DP_FJORD):  # the active player decides these (W-4)
            assert p.active == decision.seat
        if decision.kind >= ref.DP_LANDING and g.fjord >= 0:  # the turn's dragon is named where it moored
            mine = [m for m in p.moorings if m.fjord == g.fjord][-1]
            assert (mine.dragon, mine.slot) == (g.dragon, g.moored[g.fjord] - 1)


def test_position_with_a_log_names_every_dragon():
    log = MooringLog()
    for game, decision in decisions(toolkit.rules("walhalla"), 2, log=log):
        if decision is not None and decision.kind == ref.DP_LANDING:
            p = view.position(game, decision, log=log)
            assert len(p.moorings) == sum(game.game.moored) and all(m.dragon >= 0 for m in p.moorings)


def test_position_is_a_snapshot():
    """A position does not change when the game moves on: it is a frozen copy of plain values."""
    steps = decisions(toolkit.rules("walhalla", **CARDS), 1)
    for _ in range(40):
        game, decision = next(steps)
    snapshot = view.position(game, decision)
    before = repr(snapshot)
    hash(snapshot)  # only tuples, ints, strings and bools inside
    for game, decision in steps:
        pass
    assert repr(snapshot) == before
    assert view.position(game, None) != snapshot


# ---------------------------------------------------------------------------- draw


def drawn_hands(ax) -> dict:
    """seat -> the card counts drawn face up (type order), or the face-down text."""
    hands = {}
    for (p, c), text in parts(ax, "card"):
        hands.setdefault(p, [0] * 5)[c] = int(text.get_text())
    for (p,), text in parts(ax, "back"):
        assert p not in hands, "a hand drawn both face up and face down"
        hands[p] = text.get_text()
    return {p: tuple(h) if isinstance(h, list) else h for p, h in hands.items()}


def check_drawing(ax, p, seat):
    """The values drawn, read back from the gids, are the position's."""
    vikings = sorted(key for key, _ in parts(ax, "viking"))
    assert vikings == sorted((k, i, o) for k in range(3) for i, o in enumerate(p.occupant[k]) if o >= 0)
    panel = {key: a.get_text() for key, a in parts(ax, "panel")}
    assert [panel[(s, "vp")] for s in range(p.num_players)] == [str(v) for v in p.vp]
    hands = drawn_hands(ax)
    assert set(hands) == set(range(p.num_players))
    for s in range(p.num_players):
        if seat is None or s == seat:
            assert hands[s] == p.hands[s]
        else:  # what the seat may not see: only the hand's size
            assert hands[s] == f"{p.hand_sizes[s]} card{'s' * (p.hand_sizes[s] != 1)} face down"
    drawn = parts(ax, "drawn")
    if p.dragon >= 0:
        assert [key for key, _ in drawn] == [(p.dragon, DRAGONS.colours[p.dragon], DRAGONS.seats[p.dragon])]
        assert sorted(key for key, _ in parts(ax, "aboard")) == [(j, c) for j, c in enumerate(p.aboard)]
    else:
        assert not drawn and not parts(ax, "aboard")
    assert len(parts(ax, "current")) == (p.dragon >= 0 and p.fjord >= 0)
    hulls = sorted(key for key, _ in parts(ax, "dragon"))
    assert hulls == sorted((m.fjord, m.slot) for m in p.moorings)
    title = ax.get_title()
    assert ("open cards: every hand shown" in title) == (seat is None)
    assert p.caption() in title


def test_draw_every_decision_of_one_game():
    """Seat by seat as the deciding seat sees it; seat 0 and the open view now and then.  A short game
    (two raids, three players, two Vikings in Midgard, fuller hands) reaches every decision kind in 65
    decisions (DP-9 comes between raids)."""
    rules = toolkit.rules("walhalla", num_players=3, raids=2, start_midgard=2, **CARDS)
    kinds = set()
    for i, (game, decision) in enumerate(decisions(rules, 13)):
        p = view.position(game, decision)
        for seat in [-1 if decision is None else decision.seat] + ([None, 0] if i % 25 == 0 else []):
            ax = draw(p, seat=None if seat == -1 else seat)
            check_drawing(ax, p, None if seat == -1 else seat)
            plt.close(ax.figure)
        kinds.add(0 if decision is None else decision.kind)
    assert kinds == {0, *view.DECISIONS}


def test_draw_hides_the_other_hands():
    """With ``seat=s`` no card of another seat is drawn face up, in any artist; seat=None shows them all."""
    rules = toolkit.rules("walhalla", num_players=4, **CARDS)
    for game, decision in decisions(rules, 3):
        if decision is not None and decision.kind == ref.DP_RAID_CARDS:
            break
    p = view.position(game, decision)
    assert sum(sum(h) for s, h in enumerate(p.hands) if s != decision.seat) > 0
    for seat in range(4):
        ax = draw(p, seat=seat)
        assert {key[0] for key, _ in parts(ax, "card")} == {seat}
        assert "open cards" not in ax.get_title() and f"seen by seat {seat}" in ax.get_title()
        plt.close(ax.figure)
    ax = draw(p)
    assert {key[0] for key, _ in parts(ax, "card")} == {0, 1, 2, 3} and not parts(ax, "back")
    assert ax.get_title().endswith("open cards: every hand shown")
    plt.close(ax.figure)


def test_draw_takes_an_axes_and_returns_it():
    game, decision = next(decisions(toolkit.rules("walhalla"), 7))
    fig, ax = plt.subplots()
    assert draw(view.position(game, decision), seat=decision.seat, ax=ax) is ax
    assert len(plt.get_fignums()) == 1
    plt.close(fig)

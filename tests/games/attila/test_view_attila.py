"""Attila seen and played (issue 38): the words of every §5 decision point (``view.describe``), the snapshot
of a position (``view.position``) and its picture (``viz.draw``), checked on hand-built positions and on
seeded reference games stepped through the protocol."""

from __future__ import annotations

import random
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

import toolkit  # noqa: E402
from toolkit.games.attila import reference as ref  # noqa: E402
from toolkit.games.attila import view  # noqa: E402
from toolkit.games.attila.rules import TRIBES, Rules  # noqa: E402
from toolkit.games.attila.viz import draw  # noqa: E402

SPEC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "attila.md"
GIN, GSU, RAE, NOR, PAN, DAC = range(6)
FRANKS, GOTHS, SAXONS, VANDALS, TEUTONS, HUNS = range(6)
ZERO = (0, 0, 0, 0, 0, 0)


def blank(n=3, **overrides):
    """A new game (seat 0 starts) on an empty board; hands are set by the test."""
    game = ref.new_game(toolkit.rules("attila", num_players=n, start_player="seat0", **overrides), 1, 0)
    game.hands = [[0] * 6 for _ in range(n)]
    return game


def words(game, decision):
    return [view.describe(game, decision, option) for option in decision.options]


def walk(rules, seed, game_index):
    """Every decision point of a random reference game: yields ``(game, decision)`` before it is applied."""
    game = ref.new_game(rules, seed, game_index, ("random",) * rules.num_players)
    game.start()
    while (decision := game.advance()) is not None:
        yield game, decision
        game.apply(decision, game.choose(decision))


def every_rules():
    return [toolkit.rules("attila", preset, num_players=n) for preset in Rules.PRESETS for n in (2, 3, 4, 5)]


# ---------------------------------------------------------------------------- describe: the §5 names and words


def test_decisions_are_the_spec_section_5_names():
    table = dict(re.findall(r"^\| DP-(\d) ([a-z -]+?) \|", SPEC.read_text(encoding="utf-8"), re.M))
    assert len(table) == 7
    assert view.DECISIONS == {int(k): name for k, name in table.items()}


def test_dp1_tile_window_words_and_proceed_after_double_turn():
    game = blank()
    game.hands[0] = [1, 0, 0, 0, 0, 0]
    steps = game.tile_window_steps(0)
    decision = next(steps)
    assert words(game, decision) == ["use the Double turn tile", "use the +2 Influence tile",
                                     "use the Card exchange tile", "proceed to the play"]
    decision = steps.send("double_turn")
    assert words(game, decision) == ["use the +2 Influence tile", "use the Card exchange tile",
                                     "proceed to the two plays"]


def test_dp2_plus_two_split_words_with_the_track_values():
    game = blank()
    game.influence[0][GOTHS] = 5
    game.influence[0][TEUTONS] = 21
    steps = game.tile_window_steps(0)
    next(steps)
    decision = steps.send("plus_two")
    assert decision.kind == ref.DP_PLUS_TWO
    say = dict(zip(decision.options, words(game, decision)))
    assert say[(GOTHS,)] == "+2 influence on the Goths (to 7)"
    assert say[(TEUTONS,)] == "+2 influence on the Teutons (to 22, the last space)"
    assert say[(FRANKS, HUNS)] == "+1 influence on the Franks (to 1) and +1 on the Huns (to 1)"


def test_dp3_exchange_set_words_name_only_the_cards_that_go():
    game = blank()
    game.hands[0] = [2, 0, 0, 0, 0, 1]
    steps = game.tile_window_steps(0)
    next(steps)
    decision = steps.send("exchange")
    assert decision.kind == ref.DP_EXCHANGE
    say = dict(zip(decision.options, words(game, decision)))
    assert say[(2, 0, 0, 0, 0, 1)] == "exchange 3 cards: 2 Franks, 1 Huns"
    assert say[(0, 0, 0, 0, 0, 1)] == "exchange 1 card: 1 Huns"
    assert len(say) == 5


def test_dp4_play_words_and_the_figure_that_starts_a_war():
    game = blank()
    game.hands[0] = [0, 1, 0, 0, 0, 0]
    game.figures[PAN][GOTHS], game.figures[PAN][HUNS] = 2, 2  # 4 of 5: the next figure starts a war
    decision = next(game.play_steps(0))
    assert decision.kind == ref.DP_PLAY
    say = dict(zip(decision.options, words(game, decision)))
    assert say[(GOTHS, PAN)] == "play a Goths card: a figure to Pannonia (PAN), its 5th figure: war"
    assert say[(GOTHS, NOR)] == "play a Goths card: a figure to Noricum (NOR)"


def test_dp5_forced_discard_words():
    game = blank()
    game.hands[0] = [0, 0, 0, 0, 0, 2]
    game.supply[HUNS] = 0  # no Huns figure left: no legal play
    decision = next(game.play_steps(0))
    assert decision.kind == ref.DP_DISCARD
    assert words(game, decision) == ["discard a Huns card (no legal play)"]


def test_dp6_bonus_words_influence_at_the_century_rate_and_a_second_figure():
    game = blank()
    game.peace[0] = 0  # century V: 2 influence a play
    game.influence[0][GOTHS] = 5
    game.hands[0] = [0, 1, 0, 0, 0, 0]
    game.figures[PAN][HUNS] = 3
    decision = next(game.apply_play_steps(0, GOTHS, PAN))  # PAN now holds 4
    assert decision.kind == ref.DP_BONUS and decision.info == GOTHS
    say = dict(zip(decision.options, words(game, decision)))
    assert say[ref.INFLUENCE] == "take 2 influence on the Goths (to 7)"
    assert say[PAN] == "a second Goths figure to Pannonia (PAN), its 5th figure: war"
    assert say[NOR] == "a second Goths figure to Noricum (NOR)"


def test_dp7_support_words_and_cards_of_a_tribe_not_in_the_war():
    game = blank()
    game.figures[PAN][GOTHS], game.figures[PAN][HUNS] = 2, 3
    game.hands[0] = [1, 1, 0, 0, 0, 1]
    decision = next(game.war_steps(0, PAN))
    assert (decision.kind, decision.seat, decision.info) == (ref.DP_SUPPORT, 0, PAN)
    say = dict(zip(decision.options, words(game, decision)))
    assert say[ZERO] == "lay no card"
    assert say[(0, 1, 0, 0, 0, 1)] == "lay 2 cards: 1 Goths, 1 Huns"
    assert say[(1, 1, 0, 0, 0, 0)] == "lay 2 cards: 1 Franks, 1 Goths (the Franks count for nothing here)"


def test_every_option_of_a_decision_has_its_own_words():
    kinds = set()
    for rules in every_rules():
        for game_index in range(3):
            for game, decision in walk(rules, 38, game_index):
                said = words(game, decision)
                assert all(isinstance(s, str) and s for s in said)
                assert len(set(said)) == len(said), (rules.num_players, game_index, decision, said)
                kinds.add(decision.kind)
    assert kinds >= {1, 2, 3, 4, 6, 7}  # DP-5 is rare in play: test_dp5_forced_discard_words


def test_words_do_not_depend_on_the_cards_the_seat_cannot_see():
    """The other hands and the deck are dealt anew (same sizes, the same cards in all): no text changes."""
    shuffle = random.Random(5)
    checked = 0
    for game, decision in walk(toolkit.rules("attila", num_players=4), 7, 1):
        said = words(game, decision)
        hands, deck = [list(h) for h in game.hands], list(game.deck)
        others = [p for p in range(game.n) if p != decision.seat]
        pool = list(deck) + [t for p in others for t in range(6) for _ in range(hands[p][t])]
        shuffle.shuffle(pool)
        for p in others:
            size = sum(hands[p])
            game.hands[p] = [pool[:size].count(t) for t in range(6)]
            del pool[:size]
        game.deck = pool
        try:
            assert words(game, decision) == said, decision
        finally:
            game.hands, game.deck = hands, deck
        checked += 1
    assert checked > 50


# ---------------------------------------------------------------------------- position


def test_position_is_a_copy_that_later_moves_do_not_change():
    steps = walk(toolkit.rules("attila", num_players=3), 38, 0)
    for _ in range(40):
        game, decision = next(steps)
    snapshot = view.position(game, decision)
    hash(snapshot)  # tuples and ints all through
    before = repr(snapshot)
    assert snapshot.hands == tuple(tuple(h) for h in game.hands) and snapshot.figures[0] == tuple(game.figures[0])
    for _ in range(40):
        next(steps)
    assert repr(snapshot) == before
    assert view.position(game) != snapshot


def test_position_whose_turn_and_the_support_laid_face_down():
    for n in (2, 5):
        laid, war = [0] * 6, -1
        game = ref.new_game(toolkit.rules("attila", num_players=n), 38, 2, ("random",) * n)
        game.start()
        while (decision := game.advance()) is not None:
            pos = view.position(game, decision)
            option = game.choose(decision)
            assert (pos.seat, pos.kind, pos.options) == (decision.seat, decision.kind, len(decision.options))
            if decision.kind == ref.DP_SUPPORT:
                if decision.info != war:
                    laid, war = [0] * 6, decision.info
                assert pos.war == war and pos.laid == tuple(laid)
                laid = [a + b for a, b in zip(laid, option)]
            else:
                assert pos.active == decision.seat and pos.war == -1 and pos.laid == ZERO
                assert pos.tribe == (decision.info if decision.kind == ref.DP_BONUS else -1)
            game.apply(decision, option)
        final = view.position(game)
        assert final.game_over and final.active == -1 and final.winners == tuple(game.winners())
        assert final.vp == tuple(game.vp) and final.end_reason == game.end_reason


# ---------------------------------------------------------------------------- draw


def drawn(ax, prefix):
    """``{gid: [artists]}`` of the artists of ``ax`` whose gid starts with ``prefix``."""
    found = {}
    for artist in [*ax.patches, *ax.collections, *ax.texts]:
        gid = artist.get_gid() or ""
        if gid.startswith(prefix):
            found.setdefault(gid, []).append(artist)
    return found


def text_of(ax, gid):
    (artist,) = drawn(ax, gid)[gid]
    return artist.get_text()


def check_picture(ax, pos, seat):
    """Every value read back from the artists equals the position's; a hidden card is never face up."""
    n = pos.num_players
    assert [int(text_of(ax, f"vp-{p}")) for p in range(n)] == list(pos.vp)
    assert [[int(text_of(ax, f"influence-{p}-{t}")) for t in range(6)] for p in range(n)] == \
        [list(row) for row in pos.influence]
    figures = {(int(g.split("-")[1]), int(g.split("-")[2])): len(a[0].get_paths())
               for g, a in drawn(ax, "figures-").items()}
    assert figures == {(x, t): k for x, row in enumerate(pos.figures) for t, k in enumerate(row) if k}
    assert sorted(int(g.split("-")[1]) for g in drawn(ax, "pacified-")) == \
        [x for x, flag in enumerate(pos.pacified) if flag]
    cards = {g: len(a[0].get_paths()) for g, a in drawn(ax, "card-").items()}
    backs = {g: len(a[0].get_paths()) for g, a in drawn(ax, "back-").items()}
    for p in range(n):
        if seat is None or seat == p:
            assert [cards.get(f"card-{p}-{t}", 0) for t in range(6)] == list(pos.hands[p])
            assert f"back-{p}" not in backs
        else:
            assert not any(g.startswith(f"card-{p}-") for g in cards)
            assert backs.get(f"back-{p}", 0) == sum(pos.hands[p])
    assert text_of(ax, "peace").endswith(", ".join(f"{c} {k}" for c, k in zip(view.CENTURIES, pos.peace)))
    assert text_of(ax, "deck") == f"deck: {len(pos.deck)} cards"
    title = ax.get_title()
    assert ("open cards: every hand shown" in title) == (seat is None)
    if pos.war >= 0:
        laid = text_of(ax, "laid")
        named = [name for name in view.TRIBE_NAMES if name in laid]
        assert named == ([] if seat is not None or not sum(pos.laid) else
                         [view.TRIBE_NAMES[t] for t in range(6) if pos.laid[t]])
        assert f"{sum(pos.laid)} card" in laid


def test_draw_every_decision_of_a_seeded_game_reads_back_the_position():
    seen = set()
    for step, (game, decision) in enumerate(walk(toolkit.rules("attila", num_players=2), 38, 2)):
        pos = view.position(game, decision)
        for seat in (decision.seat, None) if step % 8 == 0 else (decision.seat,):
            ax = draw(pos, seat=seat)
            check_picture(ax, pos, seat)
            plt.close(ax.figure)
        seen.add(decision.kind)
    final = view.position(game)
    ax = draw(final)
    check_picture(ax, final, None)
    assert "the end" in ax.get_title()
    plt.close(ax.figure)
    assert seen == set(view.DECISIONS)  # this game has every kind, a forced discard too


def test_draw_a_war_hides_other_hands_and_the_face_down_support_from_a_seat():
    for game, decision in walk(toolkit.rules("attila", num_players=4), 7, 1):
        pos = view.position(game, decision)
        if pos.war >= 0 and sum(pos.laid) >= 2:
            break
    else:
        pytest.fail("no war with support laid in this game")
    for seat in range(4):
        ax = draw(pos, seat=seat)
        check_picture(ax, pos, seat)
        assert f"as seat {seat} sees it" in ax.get_title()
        assert drawn(ax, f"war-{pos.war}")
        plt.close(ax.figure)
    ax = draw(pos)
    assert any(name in text_of(ax, "laid") for name in view.TRIBE_NAMES)
    plt.close(ax.figure)


def test_draw_on_a_given_axes_and_a_bad_seat():
    pos = view.position(ref.play_game(toolkit.rules("attila", num_players=2), 3, 0))
    fig, ax = plt.subplots()
    assert draw(pos, seat=1, ax=ax) is ax and len(fig.axes) == 1  # no colour bar axes added
    plt.close(fig)
    with pytest.raises(ValueError, match="seat=2 is not allowed"):
        draw(pos, seat=2)
    plt.close("all")


def test_tribe_names_follow_the_rules():
    assert [name.lower() for name in view.TRIBE_NAMES] == list(TRIBES)

"""Herrlof in words and pictures (issue 38): ``view.describe``, ``view.position`` and ``viz.draw``.

Hand-built positions pin the exact words of every decision point of §5
(``docs/rules/herrlof.md``); seeded games of both presets check that no two
options of a decision read alike and that the words name no card the deciding
seat cannot see.  The drawing is read back through the ``gid`` of its artists.
Cards in the hand-built positions are written ``"7a"`` (rank 7 of suit a),
``"V"`` (Valknut) and ``"N"`` (Hagalaz), as in the scenario tests.
"""

from __future__ import annotations

import collections
import copy
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

import toolkit  # noqa: E402
from toolkit.core.rng import CHANCE, Stream  # noqa: E402
from toolkit.games.herrlof import reference as ref  # noqa: E402
from toolkit.games.herrlof import view, viz  # noqa: E402

SPEC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "herrlof.md"
STD = toolkit.rules("herrlof")
C = ref.Cards(STD)
CARD_WORDS = re.compile(r"the (\d+) of suit ([a-d])")  # a suited card named in describe's words
CARD_NAME = re.compile(r"\b(\d+)([a-d])\b")  # a suited card on the picture ("7a")


def f(text: str) -> int:
    return C.parse(text)


def cards(text: str) -> list:
    return [C.parse(t) for t in text.split()]


def hand_built(hands, stock="", indicator="5d", leader=0, won=((), ()), rules=STD):
    """A reference ``Game`` whose round is the given position, bids made, at the lead; every card not
    placed goes to the discard (card conservation, §7.1)."""
    game = ref.new_game(rules, 0, 0)
    st = ref.new_round_state(rules, C.deck(), 1 - leader)
    st.hands = [sorted(cards(h)) for h in hands]
    st.stock, st.indicator = cards(stock), f(indicator)
    st.trump = C.suit(st.indicator)
    st.won = [[tuple(cards(t)) for t in pile] for pile in won]
    used = collections.Counter(st.hands[0] + st.hands[1] + st.stock + [st.indicator]
                               + [x for pile in st.won for t in pile for x in t])
    st.discard = sorted((collections.Counter(C.deck()) - used).elements())
    st.trick, st.buried = [], [[], []]
    st.bids, st.bid_turn, st.phase, st.leader = [2, 3], 2, "lead", leader
    st.tricks_played = rules.hand_size - len(st.hands[0])
    game.state = st
    return game


def step(game, rs, option=None):
    """The next decision of ``game`` (its texts in option order); apply ``option`` if given."""
    d = ref.next_decision(game.state, rs)
    texts = [view.describe(game, d, o) for o in d.options]
    if option is not None:
        ref.apply_decision(game.state, d, option, rs)
    return d, texts


def seeded_decisions(preset, game_index, seed=2024):
    """Every (game, decision) of one seeded random game, the game standing at the decision; then
    (game, None) at its end."""
    game = ref.new_game(toolkit.rules("herrlof", preset), seed, game_index)
    game.start()
    while (d := game.advance()) is not None:
        yield game, d
        game.apply(d, game.choose(d))
    yield game, None


# ------------------------------------------------------------------ DECISIONS


def test_decisions_are_the_names_of_the_s5_table():
    table = dict(re.findall(r"^\| DP-(\d) ([a-z ]+?) \|", SPEC.read_text(encoding="utf-8"), re.M))
    assert view.DECISIONS == {int(k): name for k, name in table.items()}
    assert view.DECISIONS == {1: "bid", 2: "card", 3: "trade", 4: "trade discard", 5: "steal", 6: "swap",
                              7: "give"}


# ------------------------------------------------------------------ describe, on hand-built positions


def test_dp1_bid_words():
    game = ref.new_game(STD, 7, 0)
    game.start()
    d = game.advance()
    assert d.kind == ref.DP_BID
    assert [view.describe(game, d, o) for o in d.options] == [f"bid {n}" for n in range(16)]


def test_dp2_lead_names_the_card_and_marks_trump():
    game = hand_built(("7a 9b V N", "2a 3a 4a 5a"), indicator="5b")  # trump is suit b
    d, texts = step(game, Stream(0, 0, CHANCE))
    assert (d.kind, d.seat) == (ref.DP_CARD, 0)
    assert texts == ["lead the 7 of suit a", "lead the 9 of suit b (trump)", "lead a Valknut, destroying the trick",
                     "lead a Hagalaz"]


def test_dp2_follow_says_how_the_trick_ends():
    """R-3.2 the legal faces, R-3.3 their outcome: the follower sees the led 5a."""
    rs = Stream(0, 0, CHANCE)
    game = hand_built(("5a 8c 8d V N", "2a 7a 9b V N"), indicator="5b")
    step(game, rs, f("5a"))
    d, texts = step(game, rs)
    assert d.seat == 1
    assert texts == ["play the 2 of suit a, losing the trick", "play the 7 of suit a, winning the trick",
                     "play a Valknut, destroying the trick", "play a Hagalaz, losing the trick"]
    void = hand_built(("5a 8c", "9b 4c"), indicator="5b")  # void in a: trump or any card
    step(void, rs, f("5a"))
    assert step(void, rs)[1] == ["play the 9 of suit b (trump), winning the trick",
                                 "play the 4 of suit c, losing the trick"]


def test_dp3_dp4_trade_and_discard():
    """R-4.1: the leader's 3 trades with the stock (top 8d); the discard names the seat's own hand."""
    rs = Stream(0, 0, CHANCE)
    game = hand_built(("3a 2c", "4a 5c"), stock="8d 9d")
    step(game, rs, f("3a"))
    step(game, rs, f("4a"))
    d, texts = step(game, rs, ref.YES)
    assert (d.kind, d.seat) == (ref.DP_TRADE, 0)
    assert texts == ["trade: draw the top stock card, then discard one", "decline the trade"]
    d, texts = step(game, rs)
    assert (d.kind, d.seat) == (ref.DP_TRADE_DISCARD, 0)
    assert texts == ["discard the 2 of suit c", "discard the 8 of suit d"]


def test_dp5_steal_names_the_opponent_s_last_trick():
    """R-4.2: a trick won with a 1; the stolen trick is the opponent's most recent one (9c, 2c)."""
    rs = Stream(0, 0, CHANCE)
    game = hand_built(("1a 2d", "5b 6b"), indicator="5d", won=((), ("4c 7c", "9c 2c")))
    step(game, rs, f("1a"))
    step(game, rs, f("5b"))  # void in a, not trump: the 1 wins
    d, texts = step(game, rs)
    assert (d.kind, d.seat) == (ref.DP_STEAL, 0)
    assert texts == ["steal the opponent's last trick (the 9 of suit c and the 2 of suit c)", "decline the steal"]


def test_dp6_dp7_swap_and_give_back():
    """R-4.3: won with the 6a; the opponent's one card (9d) is taken, so the take is certain."""
    rs = Stream(0, 0, CHANCE)
    game = hand_built(("6a 2c", "4a 9d"))
    step(game, rs, f("6a"))
    step(game, rs, f("4a"))
    d, texts = step(game, rs, ref.YES)
    assert (d.kind, d.seat) == (ref.DP_SWAP, 0)
    assert texts == ["swap: take a random card from the opponent's hand, then give one of yours", "decline the swap"]
    d, texts = step(game, rs)
    assert (d.kind, d.seat) == (ref.DP_GIVE, 0)
    assert texts == ["give the 2 of suit c", "give back the 9 of suit d just taken"]


# ------------------------------------------------------------------ describe, over seeded games


def visible_suited(st, seat) -> set:
    """The suited faces ``seat`` may see: its hand, the table, the tricks taken, the face-up discard, the
    indicator, its own 3-discards."""
    faces = set(st.hands[seat]) | set(st.trick) | set(st.discard) | set(st.buried[seat]) | {st.indicator}
    faces |= {x for pile in st.won for t in pile for x in t}
    return {x for x in faces if x < C.suited}


def hidden_shuffled(game, seat, seed):
    """A copy of ``game`` whose hidden cards (the opponent's hand and 3-discards, the stock) are dealt
    anew among the same places, and whose opponent's bid is changed: what ``seat`` cannot tell apart."""
    other = copy.copy(game)
    st = other.state = game.state.copy()
    opp = 1 - seat
    pool = st.hands[opp] + st.stock + st.buried[opp]
    Stream(seed, 0, CHANCE).shuffle(pool)
    n, m = len(st.hands[opp]), len(st.stock)
    st.hands[opp], st.stock, st.buried[opp] = sorted(pool[:n]), pool[n:n + m], pool[n + m:]
    if st.bids[opp] is not None:
        st.bids[opp] = (st.bids[opp] + 1) % (STD.hand_size + 1)
    return other


@pytest.mark.parametrize("preset", ["standard", "publisher"])
def test_options_read_differently_and_name_only_what_the_seat_sees(preset):
    kinds = collections.Counter()
    for game_index in range(3):
        for k, (game, d) in enumerate(seeded_decisions(preset, game_index)):
            if d is None:
                break
            texts = [view.describe(game, d, o) for o in d.options]
            kinds[d.kind] += 1
            assert len(set(texts)) == len(texts), (d, texts)
            named = [m for text in texts for m in CARD_WORDS.findall(text)]
            named = {C.card("abcd".index(suit), int(rank)) for rank, suit in named}
            assert named <= visible_suited(game.state, d.seat), (d, texts)
            if d.kind == ref.DP_GIVE:  # "give back ... just taken": the taker saw the card
                assert game.state.taken in game.state.hands[d.seat]
            # the words do not change when what the seat cannot see is dealt otherwise
            other = hidden_shuffled(game, d.seat, seed=k)
            assert [view.describe(other, d, o) for o in d.options] == texts, d
    assert set(kinds) == set(view.DECISIONS), kinds  # every decision point of §5 was described


# ------------------------------------------------------------------ position


def test_position_copies_the_game_and_does_not_change_later():
    game = ref.new_game(STD, 2024, 1)
    game.start()
    snapshots, k = [], 0
    while (d := game.advance()) is not None:
        pos = view.position(game, d)
        st = game.state
        assert pos.hands == tuple(tuple(h) for h in st.hands) and pos.stock == tuple(st.stock)
        assert (pos.seat, pos.kind, pos.decision) == (d.seat, d.kind, view.DECISIONS[d.kind])
        assert pos.scores == tuple(st.scores) and pos.trick == tuple(st.trick)
        if k % 7 == 0:
            snapshots.append((pos, copy.deepcopy(pos)))
        game.apply(d, game.choose(d))
        k += 1
    final = view.position(game)
    assert final.over and final.seat == -1 and final.winner == game.result().winner
    assert final.scores == tuple(game.result().score)
    assert len(snapshots) > 20
    for pos, saved in snapshots:
        assert pos == saved  # the game moved on; the snapshot did not
        hash(pos)  # only immutable parts


def test_position_at_a_swap_records_the_chance_taken_card():
    rs = Stream(0, 0, CHANCE)
    game = hand_built(("6a 2c", "4a 9d"))
    step(game, rs, f("6a"))
    step(game, rs, f("4a"))
    step(game, rs, ref.YES)
    d = ref.next_decision(game.state, rs)
    pos = view.position(game, d)
    assert (pos.taken, pos.trick, pos.trick_leader, pos.trick_winner) == (f("9d"), (f("6a"), f("4a")), 0, 0)
    assert pos.hands == ((f("2c"), f("9d")), ())


# ------------------------------------------------------------------ draw


def redraw(ax, pos, seat=None):
    """Draw ``pos`` on ``ax`` after taking the last drawing's artists off (ax.clear() would take twice as
    long as the drawing)."""
    for artist in list(ax.patches) + list(ax.texts):
        artist.remove()
    return viz.draw(pos, seat=seat, ax=ax)


def set_of(ax) -> list:
    """The gids of the cards (patches) and texts drawn, one per artist."""
    return [p.get_gid() for p in ax.patches if p.get_gid()] + [t.get_gid() for t in ax.texts if t.get_gid()]


@pytest.fixture(scope="module")
def one_game():
    """Every position of one seeded game, each decision's, then the end; every DP of §5 occurs."""
    out = [view.position(game, d) for game, d in seeded_decisions("standard", 0, seed=11)]
    assert {pos.kind for pos in out} == {0} | set(view.DECISIONS)
    return out


def readback(ax, pos, seat):
    """Each value drawn, read back from the gids, equals the position's."""
    got = set_of(ax)
    for s in (0, 1):
        if seat is None or seat == s:
            hand = sorted(int(g.split("-")[2]) for g in got if g.startswith(f"card-{s}-"))
            assert hand == sorted(pos.hands[s]) and f"back-{s}" not in got
        else:
            assert got.count(f"back-{s}") == len(pos.hands[s]) and not any(g.startswith(f"card-{s}-") for g in got)
        assert f"score-{s}-{pos.scores[s]}" in got and f"tricks-{s}-{len(pos.won[s])}" in got
        assert f"exact-{s}-{pos.exact_bids[s]}" in got
        shown_bid = seat is None or seat == s or pos.over
        bid = "none" if pos.bids[s] < 0 else (pos.bids[s] if shown_bid else "secret")
        assert f"bid-{s}-{bid}" in got
    table = sorted((int(m[1]), int(m[2])) for g in got if (m := re.fullmatch(r"trick-(\d)-(\d+)", g)))
    leader = pos.trick_leader
    assert table == sorted((leader if i == 0 else 1 - leader, x) for i, x in enumerate(pos.trick))
    assert f"indicator-{pos.indicator}" in got and f"trump-{pos.trump}" in got
    assert f"stock-{len(pos.stock)}" in got and f"discard-{len(pos.discard)}" in got
    assert [g for g in got if g.startswith("turn-")] == ([] if pos.seat < 0 else [f"turn-{pos.seat}"])


def test_draw_every_decision_of_a_game_open_and_read_back(one_game):
    fig, ax = plt.subplots(figsize=(10, 5.6))
    for pos in one_game:
        assert redraw(ax, pos) is ax
        readback(ax, pos, None)
        assert "open cards: every hand shown" in ax.get_title()
    plt.close(fig)


def test_draw_with_a_seat_shows_nothing_that_seat_cannot_see(one_game):
    fig, ax = plt.subplots(figsize=(10, 5.6))
    for k, pos in enumerate(one_game):
        seat = k % 2
        redraw(ax, pos, seat)
        readback(ax, pos, seat)
        assert f"seat {seat}'s view" in ax.get_title() and "open" not in ax.get_title()
        opp = 1 - seat
        hidden = (set(pos.hands[opp]) | set(pos.stock) | set(pos.buried[opp])) - {pos.taken}
        named = [m for t in ax.texts for m in CARD_NAME.findall(t.get_text())]
        shown = {C.card("abcd".index(suit), int(rank)) for rank, suit in named}
        assert not shown & {x for x in hidden if x < C.suited}, (pos, shown & hidden)
    plt.close(fig)


def test_draw_a_swap_and_the_end_of_the_game(one_game):
    rs = Stream(0, 0, CHANCE)
    game = hand_built(("6a 2c", "4a 9d"))
    step(game, rs, f("6a"))
    step(game, rs, f("4a"))
    step(game, rs, ref.YES)
    pos = view.position(game, ref.next_decision(game.state, rs))
    ax = viz.draw(pos, seat=1)  # a new figure; the loser knows the card it lost
    got = set_of(ax)
    assert {f"taken-{f('9d')}", "trick-0-" + str(f("6a")), "trick-1-" + str(f("4a")), "trick-result-0",
            "turn-0", "bid-0-secret", "bid-1-3"} <= set(got)
    assert got.count("back-0") == 2 and sorted(g for g in got if g.startswith("card-1-")) == []
    plt.close(ax.figure)
    final = one_game[-1]
    ax = viz.draw(final, seat=0)
    outcome = "a draw" if final.winner < 0 else f"seat {final.winner} wins"
    assert f"game over after round {final.round_no}: {outcome}" in ax.get_title()
    assert f"bid-1-{final.bids[1]}" in set_of(ax)  # bids are revealed at scoring
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="seat"):
        viz.draw(final, seat=2)

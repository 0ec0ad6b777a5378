"""Property tests over random valid Attila ``Rules`` (hypothesis, derandomized).

For any valid rule values (every parameter of spec §9.2 drawn from its
allowed values, ``cards_per_tribe`` drawn so that the deal of A-1.3 is
possible, sometimes a small ``max_turns`` and sometimes a generated map),
with ``random`` and ``greedy`` seats mixed:

- the kernel plays ``N_GAMES`` games with its §7 checks on (``check=True``), every
  column kept (the unused seats' too);
- every game ends (A-7) and its record is consistent (§6): winners against
  VP, ``result`` and ``tiebreak``; wars against the peace tiles and the
  century end turns; scorings (§7.10, A-3.4, A-3.6); the end reason against
  wars, influence and ``max_turns``; influence in ``0..influence_track_max``;
  figures placed against figures removed and the board's capacity;
- the pure-Python reference plays the first games identically, with the §7
  checker of ``test_reference_attila`` watching every decision, and its final
  state is checked again (figures and cards conserved, §7.3, a stall really
  leaves no legal placement);
- a ``max_turns`` cap only cuts games short (A-3.7): the capped run equals the
  uncapped one for every game that ended in time, and is its prefix for the
  others.

And any invalid value raises ``ValueError`` naming the parameter.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit.games.attila import kernel as K
from toolkit.games.attila import reference as ref
from toolkit.games.attila.board import DEFAULT_MAP
from toolkit.games.attila.rules import TILES, Rules

from test_reference_attila import Checker  # the §7 checker driven by the observer, beside this file

N_GAMES = 30
N_REFERENCE = 3  # reference games per example with random seats only
N_REFERENCE_GREEDY = 2  # ... and with a greedy seat (pure Python greedy is slow)
LONG_GAME = 150  # turns: above this, a reference game with a greedy seat is skipped (pure Python is slow)

PROPERTY_SETTINGS = settings(max_examples=75, deadline=None, derandomize=True, database=None,
                             suppress_health_check=[HealthCheck.too_slow])


@st.composite
def maps(draw):
    """A connected map of 1..62 provinces (§2.1 keys): a random spanning tree plus extra links."""
    n = draw(st.integers(1, 62))
    ids = [f"P{i:02d}" for i in range(n)]
    edges = {frozenset((i, draw(st.integers(0, i - 1)))) for i in range(1, n)}
    extra = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=n))
    edges |= {frozenset(e) for e in extra if e[0] != e[1]}
    edges = sorted(tuple(sorted(e)) for e in edges)
    sea = draw(st.sets(st.sampled_from(edges), max_size=len(edges))) if edges else set()
    start = draw(st.sets(st.integers(0, n - 1), min_size=1, max_size=min(n, 8)))
    return {"provinces": [{"id": p, "name": p} for p in ids],
            "start_provinces": [ids[x] for x in sorted(start)],
            "land_borders": [[ids[a], ids[b]] for a, b in edges if (a, b) not in sea],
            "sea_links": [[ids[a], ids[b]] for a, b in edges if (a, b) in sea]}


@st.composite
def rule_values(draw):
    """Every §9.2 parameter; ``cards_per_tribe`` respects ``validate()`` (6 c >= players x hand)."""
    players = draw(st.integers(2, 5))
    hand = draw(st.integers(3, 10))
    four = st.lists(st.integers(1, 20), min_size=4, max_size=4).map(tuple)
    return {
        "num_players": players,
        "hand_size": hand,
        "cards_per_tribe": draw(st.integers(-(-players * hand // 6), 30)),
        "figures_per_tribe": draw(st.one_of(st.integers(1, 8), st.integers(1, 60))),
        "war_threshold": draw(st.integers(3, 8)),
        "peace_tiles_per_century": draw(st.one_of(st.lists(st.integers(1, 4), min_size=4, max_size=4).map(tuple),
                                                  four)),
        "influence_rate_per_century": draw(st.lists(st.integers(0, 22), min_size=4, max_size=4).map(tuple)),
        "influence_track_max": draw(st.one_of(st.integers(1, 30), st.integers(1, 100))),
        "end_on_track_max": draw(st.booleans()),
        "second_figure_option": draw(st.booleans()),
        "support_any_tribe": draw(st.booleans()),
        "war_tie_removes_all_weakest": draw(st.booleans()),
        "single_tribe_war_removes": draw(st.booleans()),
        "max_tiles_per_turn": draw(st.integers(1, 3)),
        "tie_rounding": draw(st.sampled_from(["down", "up"])),
        "two_player_second_place_gap": draw(st.one_of(st.none(), st.integers(0, 5), st.integers(0, 100))),
        "initiator_skips_refill_after_war": draw(st.booleans()),
        "start_player": draw(st.sampled_from(["random", "seat0"])),
        "tiebreak": draw(st.sampled_from(["shared", "influence_sum"])),
        "max_turns": draw(st.one_of(st.just(10_000), st.integers(1, 40))),
        "map": draw(st.one_of(st.just(DEFAULT_MAP), st.just(DEFAULT_MAP), maps())),
    }


@pytest.fixture(scope="module")
def map_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("attila_maps")


def build(values, map_dir) -> Rules:
    """``Rules`` from drawn values; a generated map is written to a file named by its content."""
    values = dict(values)
    if isinstance(values["map"], dict):
        text = json.dumps(values["map"], sort_keys=True)
        path = map_dir / f"map_{hashlib.sha1(text.encode()).hexdigest()[:16]}.json"
        path.write_text(text)
        values["map"] = str(path)
    return Rules(**values)  # must not raise: the strategy only draws valid values


def kernel_rows(rules, seed, policies, n_games=N_GAMES):
    """The kernel's rows (every column, unused seats included) with its §7 checks on."""
    out = np.zeros((n_games, K.N_COLUMNS), np.int32)
    violations = np.zeros(n_games, np.int32)
    K.play_many(K.to_kernel(rules), K.policy_ids(policies), seed, 0, out, violations, True)
    bad = np.flatnonzero(violations)
    assert bad.size == 0, (f"kernel check §7.{violations[bad[0]]} failed in game {bad[0]} "
                           f"(seed {seed}, {policies}, {rules})")
    return [dict(zip(K.COLUMNS, r)) for r in out.tolist()]


def check_record(rules, row):
    """§6 consistency of one kernel row; returns the problems found (empty when consistent)."""
    n, problems = rules.num_players, []
    peace = rules.peace_tiles_per_century
    total_peace = sum(peace)
    reason = ref.END_REASONS[row["end_reason"]]
    vp = [row[f"score_{p}"] for p in range(n)]
    wins = [row[f"win_{p}"] for p in range(n)]
    winners = [p for p in range(n) if wins[p]]
    influence = [[row[f"influence_{p}_{t}"] for t in range(6)] for p in range(n)]
    placed = [row[f"figures_placed_{p}"] for p in range(n)]

    def expect(ok, what):
        if not ok:
            problems.append(what)

    # seats beyond the player count stay 0
    expect(all(row[f"{f}_{s}"] == 0 for f in K.SEAT_FIELDS for s in range(n, K.MAX_SEATS)), "unused seat columns")
    expect(all(row[f"influence_{s}_{t}"] == 0 for s in range(n, K.MAX_SEATS) for t in range(6)), "unused influence")
    # A-7 winners, result, tiebreak
    expect(set(wins) <= {0, 1} and row["n_winners"] == len(winners), "n_winners = sum of win_p")
    expect(row["winner"] == (winners[0] if len(winners) == 1 else -1), "winner column")
    if reason == "aborted":
        expect(row["result"] == 2 and not winners, "aborted: result aborted, no winner")
    else:
        expect(winners and row["result"] == (0 if len(winners) == 1 else 1), "result against the winners")
        top = [p for p in range(n) if vp[p] == max(vp)]
        if rules.tiebreak == "shared":
            expect(winners == top, "shared: the winners are every seat with the most VP")
        else:
            best = max(sum(influence[p]) for p in top)
            expect(winners == [p for p in top if sum(influence[p]) == best], "influence_sum tiebreak")
    expect(min(vp) >= 0, "VP >= 0")
    #
    expect(0 <= row["start_player"] < n and (rules.start_player == "random" or row["start_player"] == 0),
           "start player")
    expect(1 <= row["turns"] <= rules.max_turns, "1 <= turns <= max_turns")
    expect((reason == "aborted") <= (row["turns"] == rules.max_turns), "aborted only at the cap")
    # §7.4: wars, peace stacks and the century end turns
    board_n = rules.board.n
    expect(0 <= row["wars"] <= min(total_peace, board_n), "wars <= peace tiles and provinces")
    expect((reason == "tenth_war") == (row["wars"] == total_peace), "tenth_war iff the last peace tile was used")
    ends = [row[f"century_end_turn_{c}"] for c in range(4)]
    emptied = [sum(peace[:c + 1]) <= row["wars"] for c in range(4)]
    expect(all((ends[c] > 0) == emptied[c] for c in range(4)), "century end turn set iff its stack is empty")
    expect(all(e <= row["turns"] for e in ends), "century end turns <= turns")
    done = [e for e in ends if e > 0]
    expect(done == sorted(done), "centuries end in order")
    # §7.10, A-3.4, A-3.6: scorings
    extra = 0
    if reason == "stall":
        extra = 1
    elif reason == "track_end":
        extra = 0 if row["turns"] in done else 1
    expect(row["century_scorings"] == sum(emptied) + extra, "scorings = emptied stacks + track end/stall")
    expect(row["century_scorings"] <= 4, "§7.10 at most 4 scorings")
    # §7.5, A-3.4: influence and the track end
    flat = [v for r in influence for v in r]
    expect(min(flat) >= 0 and max(flat) <= rules.influence_track_max, "influence in 0..influence_track_max")
    reached = max(flat) == rules.influence_track_max
    if reason == "track_end":
        expect(rules.end_on_track_max and reached, "track_end needs a track at its last space")
    if rules.end_on_track_max and reached:
        expect(reason in ("track_end", "tenth_war"), "a track at its last space ends the game that turn")
    # figures: board = placed - removed, within supply and the provinces' capacity; one ply per placement
    on_board = sum(placed) - row["figures_removed"]
    expect(0 <= on_board <= min(6 * rules.figures_per_tribe, board_n * rules.war_threshold),
           "0 <= placed - removed <= capacity")
    expect(sum(placed) <= row["plies"], "every figure is placed at a DP-4 or DP-6 ply")
    # support cards: at most the whole deck per war
    expect(sum(row[f"support_cards_{p}"] for p in range(n)) <= row["wars"] * 6 * rules.cards_per_tribe,
           "support cards <= wars x deck")
    # §7.7: tile turns lie in 1..turns (0 = never used)
    expect(all(0 <= row[f"{tile}_used_{p}"] <= row["turns"] for tile in TILES for p in range(n)), "tile turns")
    return problems


def placement_possible(game) -> bool:
    """A-2 written out again from the spec: is any figure placeable anywhere?"""
    board, rules = game.board, game.rules
    for t in range(6):
        if game.supply[t] <= 0:
            continue
        for x in range(board.n):
            if game.pacified[x] or sum(game.figures[x]) >= rules.war_threshold:
                continue
            if (x in board.start or game.figures[x][t] > 0
                    or any(game.figures[y][t] > 0 for y in board.neighbours[x])):
                return True
    return False


def check_final_state(rules, game):
    """The reference's final state (§7.1, §7.2, §7.3, §7.6, A-3.6); returns the problems found."""
    problems = []
    board = game.board
    if not game.game_over or game.end_reason not in ref.END_REASONS:
        problems.append("the game did not end")
    on_board = [sum(game.figures[x][t] for x in range(board.n)) for t in range(6)]
    if any(on_board[t] + game.supply[t] != rules.figures_per_tribe for t in range(6)):
        problems.append("§7.1 figures")
    if sum(on_board) != sum(game.figures_placed) - game.figures_removed:
        problems.append("board = placed - removed")
    if len(game.deck) + sum(game.discard) + sum(map(sum, game.hands)) != 6 * rules.cards_per_tribe:
        problems.append("§7.2 cards")
    if any(sum(h) > rules.hand_size for h in game.hands):
        problems.append("§7.6 hand size")
    for x in range(board.n):
        total = sum(game.figures[x])
        if total > rules.war_threshold:
            problems.append(f"§7.3 province {x} holds {total}")
        # a full unpacified province is only a war dropped at the end
        if total >= rules.war_threshold and not game.pacified[x] and game.end_reason != "tenth_war":
            problems.append(f"§7.3 province {x} left at war_threshold")
    if game.end_reason == "stall" and placement_possible(game):
        problems.append("A-3.6 stall with a legal placement left")
    return problems


@PROPERTY_SETTINGS
@given(values=rule_values(), seats=st.lists(st.sampled_from(["random", "greedy"]), min_size=5, max_size=5),
       seed=st.integers(0, 2**63 - 1))
def test_random_rules_play_correctly(values, seats, seed, map_dir):
    rules = build(values, map_dir)
    policies = tuple(seats[:rules.num_players])
    rows = kernel_rows(rules, seed, policies)
    for g, row in enumerate(rows):
        problems = check_record(rules, row)
        assert not problems, f"game {g} (seed {seed}, {policies}, {rules}): {problems}"
    # reference <=> kernel, game by game, with the §7 checker on every decision
    n_ref = N_REFERENCE if set(policies) == {"random"} else N_REFERENCE_GREEDY
    for g in range(n_ref):
        if "greedy" in policies and rows[g]["turns"] > LONG_GAME:
            break
        checker = Checker(rules)
        game = ref.play_game(rules, seed, g, policies, observer=checker)
        assert checker.violations == [], f"game {g} (seed {seed}, {policies}): {sorted(set(checker.violations))}"
        problems = check_final_state(rules, game)
        assert not problems, f"game {g} (seed {seed}, {policies}, {rules}): {problems}"
        expected = ref.record_row(game)
        if rows[g] != expected:
            diff = {c: (expected[c], rows[g][c]) for c in K.COLUMNS if expected[c] != rows[g][c]}
            raise AssertionError(f"game {g} (seed {seed}, {policies}, {rules}) differs (reference, kernel): {diff}")
    # the cap only cuts games short
    if rules.max_turns < 10_000:
        cap = rules.max_turns
        for g, (capped, full) in enumerate(zip(rows, kernel_rows(rules.replace(max_turns=10_000), seed, policies))):
            if full["turns"] <= cap:
                assert capped == full, f"game {g} (seed {seed}): ended in turn {full['turns']} <= cap {cap}"
                continue
            assert capped["end_reason"] == ref.END_REASONS.index("aborted") and capped["turns"] == cap, g
            assert capped["start_player"] == full["start_player"], g
            # what happened up to the cap is the same: tiles used and centuries ended by then
            stamped = [c for c in K.COLUMNS if c.startswith(("century_end_turn_", "double_turn_used_",
                                                             "plus_two_used_", "exchange_used_"))]
            assert all(capped[c] == (full[c] if full[c] <= cap else 0) for c in stamped), \
                f"game {g} (seed {seed}): {[c for c in stamped if capped[c] != (full[c] if full[c] <= cap else 0)]}"
            monotone = ["plies", "wars", "century_scorings", "figures_removed"] + [
                c for c in K.COLUMNS if c.startswith(("score_", "figures_placed_", "support_cards_", "influence_"))]
            assert all(capped[c] <= full[c] for c in monotone), \
                f"game {g} (seed {seed}): {[c for c in monotone if capped[c] > full[c]]} fell after the cap"


@pytest.mark.parametrize("values,words", [
    ({"num_players": 6}, "num_players=6"),
    ({"hand_size": 2}, "hand_size=2"),
    ({"num_players": 5, "hand_size": 10, "cards_per_tribe": 8}, "cards_per_tribe=8"),
    ({"war_threshold": 9}, "war_threshold=9"),
    ({"peace_tiles_per_century": (1, 2, 3)}, "peace_tiles_per_century"),
    ({"peace_tiles_per_century": (0, 2, 3, 4)}, "peace_tiles_per_century"),
    ({"max_tiles_per_turn": 0}, "max_tiles_per_turn=0"),
    ({"tie_rounding": "nearest"}, "tie_rounding='nearest'"),
    ({"two_player_second_place_gap": -1}, "two_player_second_place_gap=-1"),
    ({"start_player": "seat1"}, "start_player='seat1'"),
    ({"map": "no_such_map.json"}, "map='no_such_map.json'"),
    ({"max_turns": 0}, "max_turns=0"),
])
def test_invalid_values_name_the_parameter(values, words):
    with pytest.raises(ValueError, match=words):
        Rules(**values)


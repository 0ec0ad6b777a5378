"""The toolkit's two Attila variants (``rules.py``, ``docs/rules/attila_variants.md``; issue 17), one
hand-built scenario each on the reference, and the kernel's start and ends against them: ``finish_round``
(the end waits for the last turn of the round) and ``later_seat_vp`` (VP by place at the start).  Off,
they change nothing: the spec's scenarios (``test_scenarios_attila.py``) and the golden games run with
the defaults.  The kernel agrees with the reference game for game with both on
(``attila_configs.EQUALITY``: ``variants_4p``, ``variants_short_3p``)."""

from __future__ import annotations

import numpy as np
import pytest

import toolkit
from test_scenarios_attila import DAC, GIN, blank, kinds, put
from toolkit.core.protocol import KernelGame
from toolkit.games.attila import kernel as K
from toolkit.games.attila import reference as ref
from toolkit.games.attila.rules import Rules


@pytest.mark.parametrize("game", range(6))
def test_later_seats_start_with_vp_by_place(game):
    rules = Rules(num_players=4, later_seat_vp=3)
    g = ref.Game(rules, 5, game, ("random",) * 4)
    places = [(g.start_player + k) % 4 for k in range(4)]
    assert [g.vp[p] for p in places] == [0, 3, 6, 9]
    kernel_side = KernelGame(K, rules, ("random",) * 4, 5, game)
    assert kernel_side.st[K.S_START] == g.start_player  # the same chance stream
    assert kernel_side.st[K.S_VP:K.S_VP + 4].tolist() == g.vp
    plain = KernelGame(K, Rules(num_players=4), ("random",) * 4, 5, game)
    assert plain.st[K.S_VP:K.S_VP + 4].tolist() == [0, 0, 0, 0]


def last_tile_position(finish_round):
    """Seat 0 (the start player) of 4 fills GIN and takes the last peace tile; seat 1 then fills DAC with
    its tribe-5 card; seats 2 and 3 have nothing to play."""
    plan = {0: {ref.DP_PLAY: [(0, GIN)]}, 1: {ref.DP_PLAY: [(5, DAC)]}}
    g, log = blank(plans=plan, finish_round=finish_round)
    g.peace = [0, 0, 0, 1]
    put(g, GIN, 1, 4)
    put(g, DAC, 2, 4)
    g.influence[1][5] = 1  # seat 1 leads tribe 5 (huns): its figure in DAC scores only if placed in time
    g.hands[0] = [1, 0, 0, 0, 0, 0]
    g.hands[1] = [0, 0, 0, 0, 0, 1]
    return g, log


def test_finish_round_defers_the_last_scoring_to_the_end_of_the_round():
    spec_game, _ = last_tile_position(False)
    spec_game.turn(0)
    assert spec_game.game_over and spec_game.century_scorings == 1 and spec_game.vp[1] == 0

    g, log = last_tile_position(True)
    g.turn(0)
    assert g.peace == [0, 0, 0, 0] and g.wars == 1 and not g.game_over and g.century_scorings == 0
    g.turn(1)  # DAC reaches the threshold: no tile left, the war is dropped, the figures stay
    assert not g.pacified[DAC] and sum(g.figures[DAC]) == 5 and not g.game_over
    assert {d.info for d in kinds(log, ref.DP_SUPPORT)} <= {GIN}
    g.turn(2)
    assert not g.game_over
    g.turn(3)  # the seat before the start player: the round is over
    assert g.game_over and g.end_reason == "tenth_war" and g.century_scorings == 1
    assert g.vp[1] == 1  # seat 1's single huns figure, placed after the last tile, scored


def track_position(finish_round, trigger_seat):
    g, _ = blank(finish_round=finish_round)
    g.influence[trigger_seat][0] = 21
    g.hands[trigger_seat] = [1, 0, 0, 0, 0, 0]
    return g


@pytest.mark.parametrize("finish_round", [False, True])
def test_finish_round_lets_the_track_end_wait_for_the_last_seat(finish_round):
    g = track_position(finish_round, 1)
    g.turn(1)
    assert g.end_triggered and g.game_over is not finish_round
    if finish_round:
        g.turn(2)
        assert not g.game_over
        g.turn(3)
    assert g.game_over and g.end_reason == "track_end" and g.century_scorings == 1
    # the last seat of the round ends it at once, as in the spec
    last = track_position(True, 3)
    last.turn(3)
    assert last.game_over and last.end_reason == "track_end" and last.century_scorings == 1


def test_finish_round_keeps_no_extra_scoring_after_a_century_scoring_in_the_last_turn():
    g, _ = blank(plans={3: {ref.DP_PLAY: [(5, DAC)]}}, finish_round=True)
    g.influence[1][0] = 21
    g.hands[1] = [1, 0, 0, 0, 0, 0]
    g.turn(1)
    put(g, DAC, 2, 4)
    g.hands[3] = [0, 0, 0, 0, 0, 1]
    g.peace = [1, 2, 3, 4]  # seat 3's war empties century IV's stack: scored there, not again
    scorings = g.century_scorings
    g.turn(2)
    g.turn(3)
    assert g.wars == 1 and g.peace[0] == 0
    assert g.game_over and g.end_reason == "track_end" and g.century_scorings == scorings + 1


def test_kernel_games_with_finish_round_end_on_whole_rounds():
    for players in (2, 3, 5):
        rules = Rules(num_players=players, finish_round=True)
        df = toolkit.simulate("attila", rules=rules, n_games=300, seed=21, progress=False, check=True)
        ended = df[df["end_reason"].astype(str).isin(("tenth_war", "track_end"))]
        assert len(ended) > 250
        assert (ended["turns"] % players == 0).all(), players
        plain = toolkit.simulate("attila", rules=Rules(num_players=players), n_games=300, seed=21, progress=False)
        assert (plain["turns"] % players != 0).any()  # the negative control: the spec's end is mid-round


def test_later_seat_vp_shifts_the_final_scores_by_place():
    n = 4
    base = toolkit.simulate("attila", rules=Rules(num_players=n), n_games=200, seed=22, progress=False)
    with_vp = toolkit.simulate("attila", rules=Rules(num_players=n, later_seat_vp=5), n_games=200, seed=22,
                               progress=False)
    # the same games (the start VP change no decision of random players): each score shifted by 5 per place
    place = (np.arange(n)[None, :] - base["start_player"].to_numpy()[:, None]) % n
    scores = [f"score_{p}" for p in range(n)]
    assert np.array_equal(with_vp[scores].to_numpy() - base[scores].to_numpy(), 5 * place)

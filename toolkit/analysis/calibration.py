"""Are the judge's win probabilities win probabilities?  A reliability check on played-out positions (issue 50).

The judge of ``toolkit decisions``, the viewer's "what mcts thinks" and its "jump to" swings is a flat Monte
Carlo search whose rollouts are played to the end of the game (``mcts:N:0:flat``:
:data:`toolkit.analysis.decisions.JUDGE`): every option is played in turn on the same worlds, nothing is
grown below the root, so an option's value is the mean result of the games played out after it: the
deciding seat's chance to be among the winners if, after the option, every seat plays as the rollouts play
(the game's ``MCTS_ROLLOUT``: ``greedy`` in Valhalla, Attila, Halali and Herrlof, ``random`` in Walhalla and
Pig; a shared win counts as a win, as the game's ``returns`` count it), in the worlds the seat can see.  (A
search that grows a tree, ``mcts:N:0``, is still played out, but its values mix the tree's own choices below
the root, which improve with its budget, into that play: Pig's lowest bin at ``mcts:200:0``, 0.26 predicted
against 0.18 observed with random play after the option.)  A search cut off after ``D`` plies (the ``mcts`` players' own setting in
Valhalla, 48; Attila and Halali, 16) scores its leaves with the game's heuristic instead: a *score*, not a
win probability (``benchmarks/calibration.py`` measures by how much: Halali's leaves that say 1 win 0.80).

:func:`positions` measures it.  For each of ``n`` positions (a decision with a choice, drawn uniformly from a
game the rollout policy plays against itself, from a stream of its own):

- two searches of the judge at the position on independent streams, as ``decisions`` runs them: the first
  (*binning*) puts the position in a bin, the second (*predicted*) gives the value of one option, drawn
  uniformly among the options it played (from the position's own stream);
- the option is played and the game played on to its end, every seat by the rollout policy, on fresh
  streams (the game's own, mixed anew), in the real game or (``world``) in a world the seat can see, drawn
  from the fresh streams: the *observed* result (1 among the winners, else 0).  A world drawn from the
  seat's own stream would be the searches' first world, and Halali's results, which its hidden tiles all
  but decide, would follow the bins (0 of 200 won in the lowest bin, 200 of 200 in the highest).  Not on the
  game's own streams: the position was drawn from the decisions of the game those streams played, so their
  future is not independent of the draw (a seat makes more decisions in some futures than others: played
  on its own streams, Valhalla's positions were won 0.40 of the time against 0.50 predicted and 0.50 on
  fresh streams, 300 positions).

Binned by the first search and read from the second, the predictions' noise is not what sorts them into
bins, so in every bin a calibrated judge's mean prediction is the bin's expected result (binned by the
prediction itself, noise alone would push the outer bins' observed rates toward the middle: regression to
the mean, not miscalibration).  :func:`reliability` turns the positions into the table: per bin, the mean
prediction, the observed rate with its Wilson 95% interval, the positions, and whether the prediction lies
inside.  A cut-off search fails the same check (the tests' negative control).

Measured (``benchmarks/notes/calibration.md``, 2,400 positions a game in ten bins): in the seat's worlds
every bin of every game is within its interval (the ten held together at 95%); in the real game too, but in
Attila, whose real hands are what greedy players kept rather than cards dealt uniformly: 0.234 observed
against 0.190 predicted, two bins of ten outside.
"""

from __future__ import annotations

import numpy as np

from toolkit.analysis import decisions
from toolkit.core import mcts, rng
from toolkit.core.protocol import KernelGame
from toolkit.core.runner import get_spec, resolve_rules
from toolkit.core.stats import wilson

FUTURE = np.uint64(0x9E3779B97F4A7C15)  # the streams of the game played on after the option


def rollout_policy(kernel, judge: str) -> str:
    """The policy the search ``judge`` plays its rollouts with in ``kernel``'s game (``greedy`` or ``random``)."""
    return mcts.parse(judge, **mcts.game_defaults(kernel))[2]


def positions(game: str, n: int, judge: str, seed: int = 0, rules=None, world: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(binning, predicted, observed)`` over ``n`` positions of ``game`` (module docstring): the first
    search's value of the position for the deciding seat (its mean reward over every iteration), the
    second's value of the drawn option, and the seat's result when the game is played on after it."""
    spec = get_spec(game)
    rules = resolve_rules(spec, rules)
    lineup = (rollout_policy(spec.kernel, judge),) * spec.seats(rules)
    binning, predicted, observed = [], [], []
    index = 0
    while len(observed) < n:
        pick = np.random.default_rng((seed, index))
        chances = 0
        length = KernelGame(spec.kernel, rules, lineup, seed, index)
        while length.advance() >= 0:
            chances += len(length.options()) > 1
            length.apply(length.options()[length.choose()])
        game_ = KernelGame(spec.kernel, rules, lineup, seed, index)
        index += 1
        if chances == 0:
            continue
        target = int(pick.integers(0, chances))
        while True:  # the same game up to its target-th decision with a choice
            game_.advance()
            if len(game_.options()) > 1:
                if target == 0:
                    break
                target -= 1
            game_.apply(game_.options()[game_.choose()])
        seat = game_.seat
        first = game_.root_statistics(judge)
        second = decisions.rater_of(game_).root_statistics(judge)  # on independent streams, as decisions rates
        played = [i for i, v in enumerate(second.visits) if v > 0]
        option = played[int(pick.integers(0, len(played)))]
        binning.append(sum(first.wins) / sum(first.visits))
        predicted.append(second.wins[option] / second.visits[option])
        for k in range(game_.rs.size):  # fresh streams: the game's own future chose the position
            game_.rs[k] = rng.mix64_nb(np.uint64(game_.rs[k]) ^ FUTURE)
        if world:  # drawn from the fresh stream: the searches drew their worlds from the seat's own
            game_.st[:] = game_.determinize(seat)
        game_.apply(second.codes[option])
        while game_.advance() >= 0:
            game_.apply(game_.options()[game_.choose()])
        observed.append(float(game_.returns()[seat]))
    return np.array(binning), np.array(predicted), np.array(observed)


def reliability(binning: np.ndarray, predicted: np.ndarray, observed: np.ndarray, bins: int = 5,
                z: float = 1.959963984540054) -> list[tuple[float, float, float, float, int, bool]]:
    """Rows ``(mean prediction, observed rate, low, high, positions, inside)``, one per bin: the positions
    sorted by ``binning`` and cut into ``bins`` of equal size (within one; ties in the order given), the
    observed rate's Wilson interval at ``z``."""
    rows = []
    for members in np.array_split(np.argsort(binning, kind="stable"), bins):
        rate, low, high = (float(x) for x in wilson(observed[members].sum(), members.size, z=z))
        mean = float(predicted[members].mean())
        rows.append((mean, rate, low, high, int(members.size), low <= mean <= high))
    return rows

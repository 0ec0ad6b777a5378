"""No text of a game's picture lies on another (issue 52, point 5): Herrlof's "seat 1, dealer: 13 cards" ran
into "▶ to decide: card".

Every game's picture (its ``draw`` hook, on the figure it makes for itself, as the viewer shows it) of
about 30 positions of one played game, open and as seat 0 sees it: the drawn boxes of its texts are read
from the renderer, and no two may share more than 4 square pixels.
"""

from __future__ import annotations

import itertools

import matplotlib
import matplotlib.pyplot as plt
import pytest

import toolkit
from toolkit.core.session import playthrough

POSITIONS = 30
SHARED_PX2 = 4  # square pixels two texts' boxes may share (antialiasing at a touching edge)


def overlapping_texts(figure) -> list[tuple[str, str, float]]:
    """Pairs of visible texts of ``figure`` whose drawn boxes share more than :data:`SHARED_PX2`, with the
    area they share."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in figure.findobj(matplotlib.text.Text)
             if t.get_visible() and t.get_text().strip()]
    found = []
    for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2):
        shared = (max(0.0, min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0))
                  * max(0.0, min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)))
        if shared > SHARED_PX2:
            found.append((a, b, shared))
    return found


def test_the_checker_finds_two_texts_on_each_other():
    """The control: a text drawn over another is found; the same texts apart are not."""
    figure, ax = plt.subplots(figsize=(4, 2))
    try:
        ax.text(0.1, 0.5, "seat 1, dealer: 13 cards", fontweight="bold")
        ax.text(0.3, 0.5, "▶ to decide: card")
        assert [(a, b) for a, b, _ in overlapping_texts(figure)] == [("seat 1, dealer: 13 cards",
                                                                      "▶ to decide: card")]
        ax.texts[1].set_position((0.3, 0.1))
        assert overlapping_texts(figure) == []
    finally:
        plt.close(figure)


@pytest.mark.parametrize("game", sorted(toolkit.GAMES))
def test_no_text_of_a_games_picture_lies_on_another(game):
    spec = toolkit.GAMES[game]
    steps = playthrough(spec, toolkit.rules(game), None, 1, 0).steps
    found = {}
    for step in steps[:: max(1, len(steps) // POSITIONS)]:
        for seat in (None, 0):
            figure = spec.hook("draw")(step.position, seat=seat).figure
            try:
                for a, b, shared in overlapping_texts(figure):
                    found.setdefault((a, b), (step.index, seat, round(shared)))
            finally:
                plt.close(figure)
    assert found == {}, found

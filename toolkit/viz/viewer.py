"""Seeing and playing a game in a notebook (issue 38): :func:`viewer` steps through one seeded game, decision by
decision, with the picture, the options in words, the one chosen and what the tree search thinks of each;
:func:`play` lets a person take a seat against any players.

Both are written once over :mod:`toolkit.core.session` (a game in lock step through the kernel and the
reference) and each game's ``view`` and ``draw`` hooks, so every registered game has them.  The game is the
one ``simulate`` plays for the same rules, seed and line-up (row ``game_index``), so what a run counts can be
looked at move by move; a person's game shows its seed, so it can be replayed and looked at afterwards.

>>> from toolkit.viz.viewer import viewer
>>> v = viewer("pig", seed=1, policies=("greedy", "random"))
>>> v.index, len(v.steps) > 10
(0, True)
>>> v.next(); v.index
1
"""

from __future__ import annotations

import html
import io

import ipywidgets as w

from toolkit.core.runner import get_spec, resolve_rules
from toolkit.core.session import YOU, Session, playthrough

JUDGE = "mcts:1000:0:flat"  # the search whose win probabilities the viewer shows beside the options (flat, played out)
DPI = 72  # the picture's resolution: a step redraws in well under 0.3 s
SWING_JUDGE = "mcts:200:0:flat"  # the search that rates each decision of a game for "jump to" (flat, played out)
FIND_SWINGS = "find the decisions that swung the game"  # the "jump to" entry that finds them
_CHOOSE = "choose …"  # the "jump to" placeholder before they are found
_NOTHING, _FIND = -1, -2  # the values of the placeholder and of the finding entry (a decision's is its index)
OPEN = -1  # "seen by": everything shown


def picture(spec, position, seat=None) -> bytes:
    """``position`` drawn by the game's ``draw`` as ``seat`` sees it (None: open), as PNG bytes: on the
    figure the game's drawing makes for itself (its size and margins fit its layout; a figure of ours
    cropped by ``bbox_inches="tight"`` crowded Herrlof's labels and drew every picture twice)."""
    import matplotlib.pyplot as plt

    figure = spec.hook("draw")(position, seat=seat).figure
    try:
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=DPI)
    finally:
        plt.close(figure)  # made by pyplot: closed at once, so a notebook never shows it a second time
    return buffer.getvalue()


def options_html(step, stats=None, you: bool = False) -> str:
    """The step's options in words, the chosen one marked; with ``stats`` (the search's root statistics) each
    option's estimated win probability for the deciding seat (its score, where the search was cut off:
    ``stats.unit``), with its 95% interval and visits."""
    if step.seat < 0:
        return "<p><b>The game is over.</b></p>"
    rows = []
    estimates = stats.estimates() if stats is not None else None
    for i, text in enumerate(step.options):
        chosen = step.chosen == i
        cells = [("&#9654; " if chosen else "") + html.escape(text)]
        if estimates is not None:
            mean, low, high = (float(a[i]) for a in estimates)
            cells.append("not played" if stats.visits[i] == 0 else
                         f"{mean:.2f} [{low:.2f}, {high:.2f}] ({stats.visits[i]:,} visits)")
            if i == stats.choice:
                cells[-1] += " &#8592; the search's pick"
        style = " style='font-weight:bold;background:#fff3c4'" if chosen else ""
        rows.append(f"<tr{style}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    head = "<th>option</th>" + (f"<th>{stats.unit} for seat {step.seat}, {html.escape(stats.policy)} "
                                "[95% CI]</th>" if stats is not None else "")
    who = {None: "", YOU: " (you)"}.get(step.by, f" ({html.escape(step.by)})")
    caption = (f"Decision {step.index + 1}: seat {step.seat}, {html.escape(step.kind_name)}"
               + (f"; chose{who}: {html.escape(step.options[step.chosen])}" if step.chosen is not None else "")
               + (" (forced: one option)" if step.forced else ""))
    return (f"<p>{caption}</p><table class='toolkit-options'><tr>{head}</tr>" + "".join(rows) + "</table>")


class Viewer:
    """A widget over the steps of one game (:func:`viewer`): back and forward, a slider, whose eyes it is
    drawn for (a game with hidden information only: elsewhere every seat sees the same picture), the
    search's estimates, and a jump to the decisions that swung the game.

    "jump to" starts at a placeholder, so choosing any entry is a change the widget hears (issue 49: a list
    whose only entry was already selected fired nothing when a person chose it): first "find the decisions
    that swung the game" (:meth:`find_swings`), then each of them; it shows the decision on screen when that
    is one of them, else the placeholder, so the same decision can be chosen again after stepping away."""

    def __init__(self, spec, steps, *, title: str, judge: str = JUDGE, seat=None, swings=None,
                 swing_judge: str = SWING_JUDGE):
        self.spec, self.steps, self.judge, self.index = spec, list(steps), judge, 0
        self._swings, self.swing_judge = swings, swing_judge
        self._jumps = ()  # the step indices of the decisions that swung the game, once found
        seats = sorted({s.seat for s in self.steps if s.seat >= 0})
        self.title = w.HTML(f"<h3>{html.escape(title)}</h3>")
        self.image = w.Image(format="png", layout=w.Layout(max_width="100%"))
        self.options = w.HTML()
        self.back = w.Button(description="◀ back", layout=w.Layout(width="90px"))
        self.forward = w.Button(description="forward ▶", layout=w.Layout(width="90px"))
        # numbered from 1, as the caption's "Decision N" (the index shown is the slider's value less 1)
        self.slider = w.IntSlider(1, 1, len(self.steps), description="decision", continuous_update=False)
        # "open" is -1, not None: a value of None selects no entry, and the browser showed an empty list
        self.eyes = w.Dropdown(options=[("open (everything)", OPEN)] + [(f"seat {s}", s) for s in seats],
                               value=OPEN if seat is None else seat, description="seen by")
        self.search = w.Checkbox(value=False, description=f"what {judge} thinks", indent=False)
        self.jump = w.Dropdown(options=[(_CHOOSE, _NOTHING), (FIND_SWINGS, _FIND)], index=0, description="jump to",
                               layout=w.Layout(width="420px"))
        self.back.on_click(lambda _: self.show(self.index - 1))
        self.forward.on_click(lambda _: self.show(self.index + 1))
        self.slider.observe(lambda change: self.show(change["new"] - 1), names="value")
        self.eyes.observe(lambda _: self.show(self.index), names="value")
        self.search.observe(lambda _: self.show(self.index), names="value")
        self.jump.observe(self._on_jump, names="value")
        stepping = [self.back, self.forward, self.slider] + ([self.eyes] if spec.hidden_information else [])
        self.widget = w.VBox([self.title, w.HBox(stepping),
                              w.HBox([self.search] + ([self.jump] if swings is not None else [])),
                              self.image, self.options])
        self.widget.add_class("toolkit-viewer")  # what a page (and its browser test) finds the viewer by
        self.show(0)

    def show(self, index: int) -> None:
        """Show step ``index`` (clipped to the game)."""
        index = max(0, min(int(index), len(self.steps) - 1))
        self.index = index
        if self.slider.value != index + 1:
            self.slider.value = index + 1  # observed: calls show again with the same index, a no-op below
            return
        step = self.steps[index]
        self.image.value = picture(self.spec, step.position, self.seen_by)
        stats = step.root_statistics(self.judge) if self.search.value and step.seat >= 0 and not step.forced else None
        self.options.value = options_html(step, stats)
        self.jump.value = index if index in self._jumps else _NOTHING  # heard by _on_jump: the index shown, a no-op

    @property
    def seen_by(self):
        """The seat the picture is drawn for, None when open."""
        return None if self.eyes.value == OPEN else self.eyes.value

    def next(self) -> None:
        self.show(self.index + 1)

    def previous(self) -> None:
        self.show(self.index - 1)

    def find_swings(self) -> list[tuple[int, float, float]]:
        """Fill "jump to" with the decisions where the eventual winner's estimated chance moved most (a
        search rates every decision of the game: seconds) and return them, ``(step index, before, after)``
        (:meth:`toolkit.core.session.Playthrough.swings`)."""
        initial = self.jump.options
        self._entries([(f"finding them with {self.swing_judge} …", _NOTHING)])
        self.jump.disabled = True
        try:
            moves = self._swings()
        except BaseException:
            self._entries(initial)
            raise
        finally:
            self.jump.disabled = False
        self._jumps = tuple(i for i, _, _ in moves)
        first = (f"choose one of the {len(moves)} decisions that swung the game" if moves else
                 "none: nobody won the game alone")
        self._entries([(first, _NOTHING)] + [
            (f"decision {i + 1}: the winner's chance {before:.2f} → {after:.2f}", i) for i, before, after in moves])
        return moves

    def _entries(self, options) -> None:
        """New "jump to" entries, the first shown (new options alone leave the list on no entry)."""
        self.jump.options = options
        self.jump.index = 0

    def _on_jump(self, change) -> None:
        if change["new"] == _FIND:
            self.find_swings()
        elif change["new"] is not None and change["new"] >= 0 and change["new"] != self.index:
            self.show(change["new"])

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def viewer(game, rules=None, policies=None, seed: int = 0, game_index: int = 0, *, judge: str = JUDGE,
           seat=None, swing_judge: str = SWING_JUDGE) -> Viewer:
    """A viewer of game ``game_index`` of a run of ``game`` seeded ``seed`` (the game ``simulate`` plays as row
    ``game_index`` with the same rules and ``policies``, default the game's); ``judge`` is the search whose
    estimates "what ... thinks" shows, ``swing_judge`` the one that rates every decision for "jump to"."""
    spec = get_spec(game)
    rules = resolve_rules(spec, rules)
    played = playthrough(spec, rules, policies, seed, game_index)
    title = (f"{spec.title}: seed {seed}, game {game_index}, players {', '.join(played.policies)}; "
             f"winner: {'seat ' + str(played.row['winner']) if played.row['winner'] >= 0 else 'none'}")
    return Viewer(spec, played.steps, title=title, judge=judge, seat=seat,
                  swings=lambda: played.swings(swing_judge), swing_judge=swing_judge)


class Play:
    """A seat for a person (:func:`play`): the picture as that seat sees it, its options as buttons, the other
    seats played by their policies between its decisions."""

    def __init__(self, spec, rules, policies, seed: int, game_index: int, seat: int, forced: bool = True):
        self.spec, self.seat = spec, seat
        self.session = Session(spec, rules, policies, seed, game_index, humans=(seat,))
        players = [YOU if s == seat else p for s, p in enumerate(self.session.policies)]
        self.title = w.HTML(f"<h3>{html.escape(spec.title)}: you play seat {seat}; seed {seed}, game {game_index} "
                            f"(players {html.escape(', '.join(players))})</h3>")
        self.image = w.Image(format="png", layout=w.Layout(max_width="100%"))
        self.last = w.HTML()
        self.buttons = w.VBox()
        self.forced = w.Checkbox(value=forced, indent=False, description="play my forced moves for me (a decision "
                                                                          "with one option)")
        self.forced.observe(lambda _: self._render(), names="value")
        self.played_for_you: list = []  # the forced decisions played for you, in order
        self.widget = w.VBox([self.title, self.forced, self.image, self.last, self.buttons])
        self.widget.add_class("toolkit-play")
        self.buttons.add_class("toolkit-play-options")
        self._render()

    def choose(self, index: int) -> None:
        """Play option ``index`` for you (what a click on its button does)."""
        self.session.play(index)
        self._render()

    def _play_forced(self) -> list:
        """Your decisions with a single option, played for you while the toggle is on; what was played."""
        played = []
        while self.forced.value and not self.session.over and self.session.step.forced:
            step = self.session.step
            self.session.play(0)
            played.append(step)
        self.played_for_you += played
        return played

    def _render(self) -> None:
        session = self.session
        played = self._play_forced()
        step = session.step
        self.image.value = picture(self.spec, step.position, self.seat)
        others = [s for s in session.history if s.seat != self.seat][-5:]
        lines = [f"seat {s.seat} ({html.escape(s.by)}): {html.escape(s.options[s.chosen])}" for s in others]
        lines += [f"your only option, played for you (decision {s.index + 1}): {html.escape(s.options[0])}"
                  for s in played]
        if session.over:
            row = session.row()
            won = "you won" if row[f"win_{self.seat}"] else ("nobody won" if row["winner"] < 0 else
                                                              f"seat {row['winner']} won")
            lines.append(f"<b>The game is over: {won}.</b> It was seed {session.seed}, game {session.game_index}, "
                         f"you in seat {self.seat}: the same seed and game number start the same game again.")
            self.buttons.children = ()
        else:
            lines.append(f"<b>Your decision (decision {step.index + 1} of the game): {html.escape(step.kind_name)}</b>")
            buttons = []
            for i, text in enumerate(step.options):
                button = w.Button(description=text, tooltip=text, layout=w.Layout(width="auto"))
                button.on_click(lambda _, i=i: self.choose(i))
                buttons.append(button)
            self.buttons.children = tuple(buttons)
        self.last.value = "<br>".join(lines)

    def _ipython_display_(self):
        from IPython.display import display

        display(self.widget)


def play(game, rules=None, policies=None, seed: int = 0, game_index: int = 0, *, seat: int = 0,
         forced: bool = True) -> Play:
    """A game of ``game`` where you play seat ``seat`` (its policy in ``policies`` is ignored) against the
    other seats' ``policies`` (default the game's), under ``rules`` (tweaked ones too); what you cannot see
    stays hidden from you.  ``forced``: your decisions with a single option are played for you, and said so
    (a toggle on the widget)."""
    spec = get_spec(game)
    rules = resolve_rules(spec, rules)
    return Play(spec, rules, policies, seed, game_index, seat, forced)

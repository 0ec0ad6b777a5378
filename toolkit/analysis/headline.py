"""The headline quantities of a run, game by game, shared by the before/after table
(:func:`toolkit.analysis.paired.before_after`) and playing on until settled (:mod:`toolkit.analysis.settle`):
each seat's win rate, the first player's, the share of games with no single winner and the game's length,
named as the game names its seats."""

from __future__ import annotations

import numpy as np
import pandas as pd

from toolkit.core.runner import get_spec


def seat_names(frame: pd.DataFrame, seats: int) -> list[str]:
    """The seats of a run's frame as its game names them under the frame's rules (Halali's "Blue"), from
    its ``attrs`` (``game``, ``rules``); "seat 0", "seat 1", ... without them."""
    try:
        spec = get_spec(frame.attrs["game"])
        rules = spec.Rules.from_json(frame.attrs["rules"])
    except (KeyError, ValueError, TypeError):
        return [f"seat {s}" for s in range(seats)]
    return [spec.seat_name(rules, s) for s in range(seats)]


def per_game(frame: pd.DataFrame, seats: int, names: list[str]) -> dict:
    """The headline quantities of each game of a run (one row per game): label -> values."""
    out = {}
    for seat in range(seats):
        out[f"{names[seat]}'s win rate"] = frame[f"win_{seat}"].to_numpy(dtype=float)
    if "first_seat" in frame:
        first = frame["first_seat"].to_numpy(dtype=np.int64)
        wins = frame[[f"win_{s}" for s in range(seats)]].to_numpy(dtype=float)
        out["the first player's win rate"] = wins[np.arange(len(frame)), first]
    out["share of games with no single winner"] = (frame["winner"].to_numpy() < 0).astype(float) \
        if "winner" in frame else None
    out["game length (turns)"] = frame["turns"].to_numpy(dtype=float)
    return {label: values for label, values in out.items() if values is not None}


def headline_pairs(baseline: pd.DataFrame, now: pd.DataFrame) -> dict:
    """The headline quantities both runs have, game by game: label -> (baseline's values, now's values),
    over the seats both have, named as :func:`toolkit.analysis.paired.before_after` names them (equal-length frames)."""
    seats = min(seats_of(baseline), seats_of(now))
    names = seat_names(now, seats)
    if seat_names(baseline, seats) != names:  # the seats' names changed with the rules (a Halali match)
        names = [f"seat {s}" for s in range(seats)]
    before = per_game(baseline, seats, names)
    after = per_game(now, seats, names)
    return {label: (before[label], after[label]) for label in before if label in after}


def seats_of(frame: pd.DataFrame) -> int:
    return sum(1 for c in frame.columns if c.startswith("win_"))


def number(value: float, label: str) -> str:
    return f"{value:.2f}" if "turns" in label else f"{value:.3f}"

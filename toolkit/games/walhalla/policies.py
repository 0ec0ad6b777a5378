"""Walhalla policies (pure Python; the kernel has the same ones in Numba).

Every policy gets a view of what its seat may know (its own hand; the board,
the supplies and Walhalla; the other hands only by size; the dragons still
to come as a set) and the decision point.

``random``
    §5 exactly: a uniform choice among the options.
"""

from __future__ import annotations

POLICIES = ("random",)


class RandomPolicy:
    """A uniform choice among the options of every decision point (§5)."""

    def __init__(self, rules, stream):
        self.stream = stream

    def choose(self, view, decision):
        options = decision.options
        if len(options) == 1:
            return options[0]
        return options[self.stream.below(len(options))]


def parse_policy(name: str) -> tuple[str, int]:
    if name not in POLICIES:
        raise ValueError(f"policy={name!r} is not allowed: one of {', '.join(POLICIES)}")
    return name, 0


def make_policy(name: str, rules, stream):
    base, _ = parse_policy(name)
    return RandomPolicy(rules, stream)

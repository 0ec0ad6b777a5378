"""Attila policies.  Work in progress: ``random`` (§5 exactly) is here; ``greedy`` and
``lookahead`` (issue 5) come with the kernel."""

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


def make_policy(name: str, rules, stream):
    if name != "random":
        raise ValueError(f"policy={name!r} is not allowed: one of {', '.join(POLICIES)}")
    return RandomPolicy(rules, stream)

"""Attila: a 2-5 player area-majority card game (spec ``attila.md``). Work in progress: not yet registered."""

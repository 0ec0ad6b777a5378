"""Halali: a 2-player hunt on a 7x7 board of face-down tiles (spec ``halali.md``)."""

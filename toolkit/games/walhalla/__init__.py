"""Walhalla: a 3-4 player Viking area-majority game (spec ``walhalla.md``)."""

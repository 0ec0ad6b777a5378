"""Mutants for valhalla (one-line bugs in the reference and its policies)."""

REF = "toolkit/games/valhalla/reference.py"
POL = "toolkit/games/valhalla/policies.py"

MUTANTS = [
    # §3.2 throws: the Hagalaz-alone clamp also catches S+H and T+H (value 0)
    (REF,
     "    if value < 0:  # only Hagalaz alone",
     "    if value <= 0:  # only Hagalaz alone",
     "§3.2 S+H and T+H (value 0) are also given hagalaz_alone_value (only matters with hagalaz_alone_value = -1)"),
    # V-3.2 random/seat0 + alternating_blocks: after the throwless 12->13 opening the start player moves again
    (REF,
     "            apply_move(rules, state, start, Move(12, 13))\n"
     "            self._observe(\"opening\")\n"
     "            self._turn_ended()\n"
     "            return 1 - start",
     "            apply_move(rules, state, start, Move(12, 13))\n"
     "            self._observe(\"opening\")\n"
     "            self._turn_ended()\n"
     "            return start",
     "V-3.2 (random/seat0 with alternating_blocks) the turn does not pass after the throwless 12->13 opening"),
    # V-4.5 extra throw: a forfeited qualifying throw grants no extra throw
    (REF,
     "            record.forfeits[seat] += 1\n"
     "            self._after_throw(throw)",
     "            record.forfeits[seat] += 1\n"
     "            self._end_turn()",
     "V-4.5 a forfeited throw of an extra-throw class ends the turn (no extra throw / DP-2); extra throws on only"),
    # V-5.2 overshoot: a throw ending on 37 (one past Valhalla) bears off directly
    (REF,
     "        if target > VALHALLA:\n"
     "            if rules.valhalla_entry == \"exact_or_over\":",
     "        if target > OFF:\n"
     "            if rules.valhalla_entry == \"exact_or_over\":",
     "V-5.2 an overshoot by exactly one square (t = 37) is not stopped on 36: the ship bears off at once (gate permitting)"),
    # V-5.3 dock release: any 1 releases, the natural-one condition dropped
    (REF,
     '        release = throw.natural_one if rules.dock_release == "natural_one" else v == 1',
     "        release = v == 1",
     "V-5.3 an unnatural one (S+T+H; Hagalaz alone in simplified mode) also releases a repairing ship"),
    # V-5.5 backward: a repairing ship may be moved backward
    (REF,
     "    if origin in (HOME, VALHALLA, OFF) or state.repairing[seat][ship]:",
     "    if origin in (HOME, VALHALLA, OFF):",
     "V-5.5 a repairing ship on the dock may be forced backward (and so leaves the dock)"),
    # V-5.6 blocked entry forfeit: a 5 on an occupied square 5 does not forfeit
    (REF,
     "            and 1 <= v <= 5 and state.owner(v) is not None)",
     "            and 1 <= v < 5 and state.owner(v) is not None)",
     "V-5.6 (blocked_entry_forfeits_turn on) a throw of 5 with square 5 occupied is not forfeited"),
    # V-6.4c blockade run: the run is never extended down onto the zone's first square
    (REF,
     "    while low - 1 >= first and state.owner(low - 1) == owner:",
     "    while low - 1 > first and state.owner(low - 1) == owner:",
     "V-6.4c a run that starts on the zone's first square (25) is measured one short from its other ships"),
    # V-6.3 rock: a ship sent to the dock is not marked repairing
    (REF,
     "        state.pos[seat][ship] = rules.dock_square\n"
     "        state.repairing[seat][ship] = True",
     "        state.pos[seat][ship] = rules.dock_square",
     "V-6.3 a rock hit sends the ship to the dock without repairing = true (it moves on freely)"),
    # V-7 gate: square 12 is not counted as first row
    (REF,
     "FIRST_ROW = range(1, 13)",
     "FIRST_ROW = range(1, 12)",
     "V-7 the gate ignores a ship on square 12 (first row taken as 1..11)"),
    # §6 captures: a backward attack is not counted
    (REF,
     "        record.captures[seat] += events.attack",
     "        record.captures[seat] += events.attack and not option.backward",
     "§6 captures: an attack made by a backward move (V-5.5/V-5.7) is not counted"),
    # policies: greedy's exposure misses an attacker standing exactly `reach` squares behind
    (POL,
     "        if pos not in (OFF, VALHALLA) and not repairing and 1 <= target - pos <= reach(rules):",
     "        if pos not in (OFF, VALHALLA) and not repairing and 1 <= target - pos < reach(rules):",
     "greedy EXPOSED: an opponent exactly reach (5) squares behind is not seen as a threat"),
    # policies: lookahead declines an extra throw when the expectation equals the current value
    (POL,
     "        return total >= now",
     "        return total > now",
     "lookahead DP-2 (V-4.5): declines the extra throw on an exact tie (expected == now)"),
    # §5 DP-2 option order in the random policy
    (POL,
     "        return self.choose(None, [THROW_AGAIN, DECLINE]) == THROW_AGAIN",
     "        return self.choose(None, [DECLINE, THROW_AGAIN]) == THROW_AGAIN",
     "§5 DP-2 random policy lists decline before throw_again (wrong option order; same odds, other games)"),
]

"""One-line bugs planted in the Halali reference (toolkit/games/halali/reference.py) and its players: tests/power/power.py."""

REF = "toolkit/games/halali/reference.py"
POL = "toolkit/games/halali/policies.py"

MUTANTS = [
    # --- H-1 setup
    (REF,
     "    for s in range(49):\n        if grid[s] is not None and grid[s].kind == HUNTER:\n",
     "    for s in range(48):\n        if grid[s] is not None and grid[s].kind == HUNTER:\n",
     "H-1.2 off-by-one: a hunter dealt to g7 (square 48) gets no gun direction (dir -1), so it can never "
     "capture (and the chance stream is one draw short for a match's second game)"),
    # --- H-2 forced reveal / forced capture
    (REF,
     "return st.phase == \"main\" and limit > 0 and st.since_progress >= limit",
     "return st.phase == \"main\" and limit > 0 and st.since_progress > limit",
     "H-2 forced reveal off-by-one: reveals are forced only after progress_limit + 1 non-progress actions"),
    (REF,
     "    if st.rules.forced_capture and captures:\n",
     "    if st.rules.forced_capture and captures and st.phase == \"main\":\n",
     "H-2 forced_capture (variant on): in the end phase a legal capture no longer excludes exits/plain moves"),
    # --- H-3.5 no return
    (REF,
     "if _can_capture(rules, tile, d, victim, st.lock) and not _no_return_bans(st, seat, origin, tile, target):",
     "if _can_capture(rules, tile, d, victim, st.lock):",
     "H-3.5 no-return ban not applied to captures: an own tile may capture back onto the square it just left"),
    (REF,
     "    return rules.no_return_applies_to_neutrals and origin == went_to\n",
     "    return rules.no_return_applies_to_neutrals\n",
     "H-3.5 (no_return_applies_to_neutrals on): the ban on a neutral applies even when the opponent moved it "
     "away meanwhile (the 'still where he put it' condition is dropped)"),
    # --- H-3.6 neutral lock
    (REF,
     "    st.lock = -1\n    st.passes[seat] += 1\n",
     "    st.passes[seat] += 1\n",
     "H-3.6 an automatic end-phase pass does not clear the neutral lock, so the lock survives into the "
     "locker's own next turn"),
    (REF,
     "        if COLOUR_OF_KIND[tile.kind] == -1 and lock_mode != \"off\":\n",
     "        if COLOUR_OF_KIND[tile.kind] == -1 and lock_mode == \"reveal_or_move\":\n",
     "H-3.6 neutral_lock = reveal_only: a revealed duck/pheasant is not locked (only reveal_or_move locks reveals)"),
    # --- H-3.7 exits
    (REF,
     "if exits_open and may_exit and plain_dir_ok[d] and exits.get((edge, d)):",
     "if exits_open and may_exit and exits.get((edge, d)):",
     "H-3.3/H-3.7 (hunter_free_movement_direction off): a hunter may exit against its gun direction "
     "(exits should count as plain moves)"),
    # --- H-4 end phase
    (REF,
     "if st.phase == \"end\" and st.end_left[0] == 0 and st.end_left[1] == 0:",
     "if st.phase == \"end\" and (st.end_left[0] == 0 or st.end_left[1] == 0):",
     "H-4.5 the game ends when the FIRST player has used his 5 end-phase actions; the last revealer loses "
     "his 5th action (common rule)"),
    # --- H-5 early end
    (REF,
     "    if st.face_down == 0 and rules.early_end_no_own_tiles and",
     "    if st.face_down == 0 and not revealed_last and rules.early_end_no_own_tiles and",
     "H-5 order: the early-end test is skipped on the reveal of the last tile, so the end phase starts and "
     "one more action is played before the early end"),
    (REF,
     "not (_own_tiles_left(st, 0) and _own_tiles_left(st, 1)):",
     "not (_own_tiles_left(st, 0) or _own_tiles_left(st, 1)):",
     "H-5 early end only when BOTH players have no own-colour tile left (should be either)"),
    # --- H-6 scoring tie-break
    (REF,
     "    if scores[0] == scores[1] and rules.tiebreak == \"most_tiles_then_draw\":\n",
     "    if scores[0] == scores[1]:\n",
     "H-6.3 tiebreak = draw ignored: a points tie is still decided on tiles"),
    # --- §6 record
    (REF,
     "                    if forced_reveal(st):\n                        st.forced_reveal_turns += 1\n",
     "                    if forced_reveal(st) and len(options) > 1:\n                        st.forced_reveal_turns += 1\n",
     "§6 forced_reveal_turns not counted when the forced reveal has a single option (one face-down tile left)"),
    # --- policies
    (POL,
     "    if plain and view.phase == \"main\":\n        value -= 1\n",
     "    if plain:\n        value -= 1\n",
     "greedy: the -1 for a plain move also applies in the end phase (prefers exits/captures of 0 net on ties)"),
    (POL,
     "            if kind == HUNTER and restricted and d != gun:\n",
     "            if kind == HUNTER and d != gun:\n",
     "greedy/lookahead threat(): hunters threaten only along the gun even with "
     "hunter_direction_restricted_capture off"),
    (POL,
     "                total -= count * 10 * _threat(tables, grid, opponent)\n",
     "                total -= count * 4 * 10 * _threat(tables, grid, opponent)\n",
     "lookahead: a face-down hunter's four gun directions are each weighted 4 instead of 1 (hunter threat "
     "over-counted x4 in a reveal's expectation)"),
]

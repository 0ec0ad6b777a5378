"""Mutants for herrlof (one-line bugs in the reference and its policies)."""

REF = "toolkit/games/herrlof/reference.py"
POL = "toolkit/games/herrlof/policies.py"

MUTANTS = [
    # redraw: only one redraw, a second special indicator stays (no trump)
    (REF,
     "        while indicator >= cards.suited:",
     "        if indicator >= cards.suited:",
     "R-2.2 (special_indicator_means = redraw) only one redraw: two specials in a row leave a special indicator"),
    # follow rule: only the Valknut is always playable, not the Hagalaz
    (REF,
     "        elif f >= c.suited and rules.specials_always_playable:",
     "        elif f == c.V and rules.specials_always_playable:",
     "R-3.2 a follower who can follow suit may not play an N (only V treated as always playable)"),
    # two N: the winner is swapped
    (REF,
     '        return 0 if st.rules.double_hagalaz_winner == "first_played" else 1',
     '        return 1 if st.rules.double_hagalaz_winner == "first_played" else 0',
     "R-3.3.2 two N in a trick: the second played wins under first_played (and vice versa)"),
    # trigger 'played': a 3 in a destroyed trick does not trade
    (REF,
     "            if c.rank(face) != 3:\n"
     "                continue",
     "            if c.rank(face) != 3 or st.trick_winner == DESTROYED:\n"
     "                continue",
     "R-4.1 a 3 played to a destroyed (Valknut) trick does not trigger the trade"),
    # R-4.2 steal: reads the 6's setting (copy-paste)
    (REF,
     '            if _effect_due(st, 1, rules.effect_1, st.won, "one_decide"):',
     '            if _effect_due(st, 1, rules.effect_6, st.won, "one_decide"):',
     "R-4.2 the 1-steal follows effect_6 instead of effect_1 (differs only when the two settings differ)"),
    # R-4.3.2 / DP-7 give: the card just taken cannot be given back
    (REF,
     "            return Decision(DP_GIVE, w, sorted(set(st.hands[w])))",
     "            return Decision(DP_GIVE, w, [f for f in sorted(set(st.hands[w])) "
     "if f != st.taken or st.hands[w].count(f) > 1])",
     "R-4.3.2 DP-7 the taken card is missing from the give options (unless another card of that face is held)"),
    # valknut_player: the wrong seat leads
    (REF,
     "            return leader if lead == c.V else 1 - leader",
     "            return leader if follow == c.V else 1 - leader",
     "R-4.4.1 (destroyed_trick_next_leader = valknut_player) the player of the other card leads when one V was played"),
    # R-5 consolation: the range hard-coded to the standard 3..5
    (REF,
     "    in_range = won in rules.consolation_range",
     "    in_range = 3 <= won <= 5",
     "R-5 consolation range hard-coded to 3..5 (the publisher preset's {3,4} pays +5 for 5 tricks)"),
    # end: a score of exactly target_score does not end the game
    (REF,
     "    return max(st.scores) >= st.rules.target_score or",
     "    return max(st.scores) > st.rules.target_score or",
     "R-6.2 the game goes on when the best score is exactly target_score (needs > 50)"),
    # §5 DP-5 option order
    (REF,
     "            return Decision(DP_STEAL, st.trick_winner, [YES, DECLINE])",
     "            return Decision(DP_STEAL, st.trick_winner, [DECLINE, YES])",
     "§5 DP-5 steal options listed decline first (wrong canonical order)"),
    # §6 trump_changes: a replacement turning up a special is not counted
    (REF,
     "    st.trump_changes += 1",
     "    st.trump_changes += st.trump != NO_TRUMP",
     "§6 trump_changes: a double-Valknut replacement that turns up V/N (no trump) is not counted"),
    # policies: greedy steals with a 1 even when it has already met its bid
    (POL,
     "        return ref.YES if need(view) > 0 else ref.DECLINE",
     "        return ref.YES if need(view) >= 0 else ref.DECLINE",
     "greedy DP-5: steals also when it holds exactly its bid (need = 0)"),
    # policies: greedy, with enough tricks, prefers to throw V over N when both lose
    (POL,
     "lambda f: power(view, f) if f < c.suited else (0 if f == c.N else -1))",
     "lambda f: power(view, f) if f < c.suited else (-1 if f == c.N else 0))",
     "greedy DP-2 follow without need: between N and V as the only losing cards, it plays V instead of N"),
    # policies: lookahead breaks ties towards the last candidate
    (POL,
     "        if totals[i] > totals[best]:",
     "        if totals[i] >= totals[best]:",
     "lookahead: ties go to the last candidate instead of the first in canonical order"),
]

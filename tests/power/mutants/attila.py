"""Mutants of the attila reference (toolkit/games/attila/reference.py) and policies."""

REF = "toolkit/games/attila/reference.py"
POL = "toolkit/games/attila/policies.py"

MUTANTS = [
    # --- A-2 placement legality
    (REF,
     "        return any(self.figures[y][t] > 0 for y in board.neighbours[x])\n",
     "        return any(self.figures[y][t] > 0 and not self.pacified[y] for y in board.neighbours[x])\n",
     "A-2.4 figures in pacified provinces no longer count for adjacency (spec: they do, [design, fixed])"),
    (REF,
     "if self.pacified[x] or sum(self.figures[x]) >= rules.war_threshold or self.supply[t] <= 0:",
     "if self.pacified[x] or sum(self.figures[x]) > rules.war_threshold or self.supply[t] <= 0:",
     "A-2.2 off-by-one: a province already at war_threshold (war pending this turn) still accepts a figure "
     "(second figure / double turn)"),
    (REF,
     "if self.pacified[x] or sum(self.figures[x]) >= rules.war_threshold or self.supply[t] <= 0:",
     "if self.pacified[x] or sum(self.figures[x]) >= rules.war_threshold or self.supply[t] < 0:",
     "A-2.3 supply check off-by-one: a tribe with an empty supply can still be placed (supply goes negative)"),
    # --- A-3 turn
    (REF,
     "        while used < self.rules.max_tiles_per_turn:\n",
     "        while used <= self.rules.max_tiles_per_turn:\n",
     "A-3.1 max_tiles_per_turn off-by-one (only matters with max_tiles_per_turn 1 or 2)"),
    (REF,
     "        elif self.end_triggered and not self.game_over:  # A-3.4\n            if not scored:\n"
     "                self.scoring()\n",
     "        elif self.end_triggered and not self.game_over:  # A-3.4\n"
     "            self.scoring()\n",
     "A-3.4 track end scores again even when a century scoring took place in this turn's wars (double scoring)"),
    (REF,
     "        if not self.game_over and not self.any_placement_possible():  # A-3.6\n"
     "            self.scoring()\n            self.game_over = True\n",
     "        if not self.game_over and not self.any_placement_possible():  # A-3.6\n"
     "            self.game_over = True\n",
     "A-3.6 a stall ends the game without its scoring"),
    # --- A-4 war
    (REF,
     "            for t in losers:\n",
     "            for t in losers[:1]:\n",
     "A-4.4 on a tie for weakest only the lowest-id tied tribe leaves (spec: all tied tribes are removed)"),
    # --- A-5 scoring
    (REF,
     "                gains[p] += share(n_fig + n_prov, len(first))\n",
     "                gains[p] += share(n_fig, len(first))\n",
     "A-5.3 tie for first: the tied players split N_fig only instead of N_fig + N_prov"),
    (REF,
     "if n_players == 2 and gap is not None and top - second_value > gap:",
     "if n_players == 2 and gap is not None and top - second_value >= gap:",
     "A-5.3 2-player rule off-by-one: second place scores nothing already when exactly `gap` (2) behind"),
    # --- A-6 action tiles / influence cap
    (REF,
     "        self.influence[seat][t] = min(cap, self.influence[seat][t] + amount)\n",
     "        self.influence[seat][t] = self.influence[seat][t] + amount\n",
     "A-3.2/A-6 influence not capped at influence_track_max (an overshoot past 22 counts in later majorities)"),
    # --- §5 option order
    (REF,
     "t = yield from self.decide(DP_DISCARD, seat, [t for t in range(N_TRIBES) if self.hands[seat][t] > 0])",
     "t = yield from self.decide(DP_DISCARD, seat, [t for t in range(N_TRIBES - 1, -1, -1) if self.hands[seat][t] > 0])",
     "§5 DP-5 forced discard options listed in descending tribe order (spec: ascending)"),
    # --- A-7 tiebreak
    (REF,
     "            most = max(sums.values())\n",
     "            most = min(sums.values())\n",
     "A-7 tiebreak = influence_sum: the tied player with the LOWEST influence total wins"),
    # --- §6 record
    (REF,
     "            self.support_cards[seat] += sum(k)\n",
     "            self.support_cards[seat] += sum(k[t] for t in involved)\n",
     "§6 support_cards counts only cards of tribes involved in the war (cards of other tribes, legal with "
     "support_any_tribe, are left out)"),
    # --- policies
    (POL,
     "        if \"double_turn\" in usable and view[\"century\"] >= 2:\n",
     "        if \"double_turn\" in usable and view[\"century\"] > 2:\n",
     "greedy DP-1: Double turn only from century VII (rule of thumb says from VI)"),
    (POL,
     "        return best(options, [-view[\"influence\"][me][t] for t in options], stream)\n",
     "        return best(options, [view[\"influence\"][me][t] for t in options], stream)\n",
     "greedy DP-5 forced discard: discards the tribe it has MOST influence in"),
    (POL,
     "    leads = [view[\"figures\"][x][t] > 0 and influence[me][t] > 0",
     "    leads = [influence[me][t] > 0",
     "greedy DP-7 support: also lays cards of tribes it leads that are not in the war (they count nothing)"),
]

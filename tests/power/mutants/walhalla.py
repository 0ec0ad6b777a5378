"""Mutants of the walhalla reference (toolkit/games/walhalla/reference.py) and policies."""

REF = "toolkit/games/walhalla/reference.py"
POL = "toolkit/games/walhalla/policies.py"

MUTANTS = [
    # --- W-2 setup
    (REF,
     "            self.midgard = [rules.start_midgard - 1] * n\n            asgard += 1\n",
     "            self.midgard = [rules.start_midgard - 1] * n\n",
     "W-2.5 initial_walhalla_source = midgard: Asgard is not given back its Viking (one Viking per colour "
     "lost; bites when reinforcement or selling is limited by Asgard)"),
    (REF,
     "        fillable = [j for j in range(3) if j != cseat or colour == active]\n",
     "        fillable = [j for j in range(3) if j != cseat or colour == active or colour >= self.n]\n",
     "W-2.4 / W-4.2 3 players: the absent 4th colour's coloured seat is treated as neutral and may be filled "
     "by the active player (spec: it stays empty)"),
    # --- W-4 turn
    (REF,
     "if all(j in fillable for j in seats) and len(seats) <= self.midgard[active]:",
     "if all(j in fillable for j in seats) and len(seats) < self.midgard[active]:",
     "W-4.2 boarding cap off-by-one: A may not board all of his last 1-3 Midgard Vikings"),
    (REF,
     "            if 3 * self.moored[f] + 1 <= reach:\n",
     "            if 3 * self.moored[f] + 3 <= reach:\n",
     "§3.4 mooring: a fjord is legal only if the STERN position touches a field (spec: the bow); differs "
     "only for peninsulas of 5 or 7 tiles (variable preset / custom lengths)"),
    # --- W-5 disembarking
    (REF,
     "        options = candidates + ([] if self.rules.landing_mandatory else [STAY])\n",
     "        options = ([] if self.rules.landing_mandatory else [STAY]) + candidates\n",
     "§5 DP-4 option order with landing_mandatory off: `stay` listed before the candidate fields"),
    # --- W-6 combat
    (REF,
     "        if self.rules.winner_loses_hero and self.walhalla[winner] >= 1:  # 5.\n",
     "        if self.rules.winner_loses_hero and self.walhalla[winner] > 1:  # 5.\n",
     "W-6.5 off-by-one: a combat winner with exactly 1 Viking in Walhalla keeps it"),
    (REF,
     "            self.occupant[k][j] = -1\n            self.occupy(attacker, k, j)\n",
     "            self.occupant[k][j] = attacker\n",
     "W-6.6 a winning attacker takes the field without its immediate effect (no forest VP, no cult card) "
     "and is not counted in §6 landings"),
    (REF,
     "        if attacker_won:  # 6.\n            self.attacker_wins += 1\n            self.occupant[k][j] = -1\n"
     "            self.occupy(attacker, k, j)\n        for c in range(N_CARD_TYPES):  # 7.\n"
     "            self.discard[c] += in_play[c]\n",
     "        for c in range(N_CARD_TYPES):  # 7.\n            self.discard[c] += in_play[c]\n"
     "        if attacker_won:  # 6.\n            self.attacker_wins += 1\n            self.occupant[k][j] = -1\n"
     "            self.occupy(attacker, k, j)\n",
     "W-6.7 order: combat cards go to the discard pile BEFORE the winner's cult draw, so a reshuffle of an "
     "empty deck can return the Axe/Shield just played (rare)"),
    # --- W-7 end of raid
    (REF,
     "            if hand[HORN] + hand[PLUNDER] + (0 if last else hand[WALHALLA_CARD]) == 0:\n",
     "            if hand[HORN] + hand[PLUNDER] + hand[WALHALLA_CARD] == 0:\n",
     "W-7.2 / §5 DP-8 trigger: in the last raid a player holding only Walhalla cards is still presented DP-8 "
     "(a single all-zero option; plies/options counts change)"),
    # --- W-8 peninsula scoring
    (REF,
     "            eligible = [vikings[p] >= rules.peninsula_eligibility_min_vikings for p in range(n)]\n",
     "            eligible = [strength[p] >= rules.peninsula_eligibility_min_vikings for p in range(n)]\n",
     "W-8.2 eligibility by strength instead of Vikings: a player with Horns but no Viking on a peninsula "
     "can score it"),
    (REF,
     "            gains[p] = share(first + second, len(t1), up)\n",
     "            gains[p] = share(first, len(t1), up)\n",
     "W-8.3 / W-9.3 tie for first: the tied players split only the first-place value (not first + second)"),
    # --- W-9 final scoring
    (REF,
     "gains = majority_gains(self.walhalla, [w >= 1 for w in self.walhalla], first, second,",
     "gains = majority_gains(self.walhalla, [w >= 0 for w in self.walhalla], first, second,",
     "W-9.3 Walhalla majority: players with 0 Vikings in Walhalla are eligible (they share second place)"),
    # --- W-10 reinforcement
    (REF,
     "        w = [self.walhalla[p] + rules.walhalla_card_bonus * walhalla_cards[p] for p in range(n)]\n",
     "        w = [self.walhalla[p] for p in range(n)]\n",
     "W-10.1 Walhalla cards played in the card phase are ignored in the reinforcement ranking"),
    (REF,
     "v = yield from self.ask(DP_SELL, p, count_vectors(self.hands[p], self.asgard[p]))",
     "v = yield from self.ask(DP_SELL, p, count_vectors(self.hands[p]))",
     "W-10.4 / DP-9 the number of cards sold is not capped by the Vikings in Asgard (Asgard can go negative)"),
    # --- §6 record
    (REF,
     "            self.asgard[winner] += 1\n            self.heroes_lost[winner] += 1\n",
     "            self.asgard[winner] += 1\n",
     "§6 heroes_lost: a hero lost by a combat winner (W-6.5) is not counted (only W-11 losses are)"),
    # --- policies
    (POL,
     "        return ref.PLAY_AXE if land_gain(view, me, k, j) >= 2 else ref.DECLINE\n",
     "        return ref.PLAY_AXE if land_gain(view, me, k, j) > 2 else ref.DECLINE\n",
     "greedy DP-5: plays the Axe only for a gain of 3 or more (rule of thumb: at least 2)"),
    (POL,
     "        if horns and max(gains) > 0:\n",
     "        if horns and max(gains) >= 0:\n",
     "greedy DP-8: lays its Horns even where they raise its worth nowhere (gain 0)"),
    (POL,
     "        return ref.DEFENDER_WINS if stake(view, me, k, j) >= 2 else ref.ATTACKER_WINS\n",
     "        return ref.DEFENDER_WINS if stake(view, me, k, j) >= 1 else ref.ATTACKER_WINS\n",
     "greedy DP-7: the defender keeps the field already when 1 point is at stake (rule of thumb: 2)"),
]

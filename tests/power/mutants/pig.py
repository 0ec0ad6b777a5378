"""Mutants for pig (one-line bugs in the reference and its policies)."""

REF = "toolkit/games/pig/reference.py"
POL = "toolkit/games/pig/policies.py"

MUTANTS = [
    # P-1.2 set-up: the head start always goes to seat 1, not to the seat that moves second
    (REF,
     "        self.score[1 - first] = self.rules.second_player_bonus",
     "        self.score[1] = self.rules.second_player_bonus",
     "P-1.2 second_player_bonus given to seat 1 even when seat 1 moves first (only with bonus > 0)"),
    # P-2 start player: seat0 option starts seat 1
    (REF,
     'first = self.chance.below(2) if self.rules.start_player == "random" else 0',
     'first = self.chance.below(2) if self.rules.start_player == "random" else 1',
     "P-2 start_player = seat0 lets seat 1 start (only the seat0 option)"),
    # P-5.1 end: reaching the target exactly does not win
    (REF,
     "        if self.score[self.seat] >= self.rules.target:",
     "        if self.score[self.seat] > self.rules.target:",
     "P-5.1 a hold that reaches the target exactly does not win (needs > target)"),
    # §6 busts: a bust on the first roll of a turn is not counted
    (REF,
     '            self.counts["busts"][self.seat] += 1',
     '            self.counts["busts"][self.seat] += self.turn_total > 0',
     "§6 busts: a bust on a turn's first roll (turn total 0) is not counted"),
    # policies: greedy's 'hold when holding wins' misses the exact target
    (POL,
     "    if total >= HOLD_AT or game.score[decision.seat] + total >= game.rules.target:",
     "    if total >= HOLD_AT or game.score[decision.seat] + total > game.rules.target:",
     "greedy (P-5.1 rule of thumb): does not hold when the hold would reach the target exactly"),
    # policies: lookahead's tie goes to the last option instead of the first
    (POL,
     "        return decision.options[totals.index(max(totals))]",
     "        return decision.options[len(totals) - 1 - totals[::-1].index(max(totals))]",
     "lookahead tie-break: the last option (hold) on equal totals instead of the first (roll)"),
]

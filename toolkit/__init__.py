"""toolkit: odds and rule-fairness simulators."""

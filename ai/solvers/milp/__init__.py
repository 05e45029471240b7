"""0-1 MILP solver: the path-flow and time-expanded formulations, the product model for the LP relaxation."""

"""Reverse Life AI: predecessors (CP-SAT), approximate starts, backbone hints, rule learning."""

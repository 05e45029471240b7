"""Reverse Life: boards, rules over the 3x3 neighbourhood, the torus step, puzzles (no pygame, no AI)."""

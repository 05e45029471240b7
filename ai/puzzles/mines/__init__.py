"""Minesweeper AI: exact probabilities (analysis), moves (policy), games and the bench (play)."""

"""game/cli/puzzles"""

"""game/core/puzzles"""

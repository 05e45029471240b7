"""ai/puzzles"""

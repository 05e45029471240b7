"""game/app/puzzles"""

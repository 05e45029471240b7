"""Lemming Bricks: the pure core (:mod:`game.core`), the pygame app (:mod:`game.app`) and the command line
(:mod:`game.cli`), in that order of layers: each imports only the ones before it (and :mod:`ai` its facade).
"""

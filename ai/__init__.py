"""The AI of Lemming Bricks: exact solvers that prove their answers, a gradient method, a learner of rules,
the services built on them (hints, analysis, rating, generation) and each side puzzle's AI.

Layers, low to high: :mod:`ai.kernel` (context, results, child processes), :mod:`ai.solvers` and
:mod:`ai.learning`, :mod:`ai.services` and :mod:`ai.puzzles`, and :mod:`ai.facade`, the one module the app and
the command line call.  The AI imports the game's pure core (:mod:`game.core`) only, never pygame.
"""

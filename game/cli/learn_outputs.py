"""The outputs of ``learn`` (``--out``, ``--curve``) and the checks that keep them off its inputs; which learner
runs, and how many games the physics learner plays by default.

Shared by the parser module (:mod:`game.cli.learn`, which checks before learning) and the learning run
(:mod:`game.cli.learn_run`, which checks again just before writing).
"""

from __future__ import annotations

import argparse

from game.cli.outputs import FileKind, Input, guard_output
from game.cli.physics_arg import physics_file

#: Games the physics learner (``learn`` without the decision-tree learner's options) plays when ``--games`` is
#: not given: ordinary random games of ``--physics``.
PHYSICS_GAMES = 1
#: Seeds of ``learn --curve`` unless ``--seeds`` says otherwise.
CURVE_SEEDS = 8


def uses_tree_learner(args: argparse.Namespace) -> bool:
    """The decision-tree learner runs when one of its own options is given."""
    return bool(args.model or args.regime or args.mirror or args.curve or args.queries is not None)


def _inputs(args: argparse.Namespace) -> list[Input]:
    """The files ``learn`` reads: the observed games and the engine's physics file."""
    return [("--observations", args.observations), ("--physics", physics_file(args.physics))]


def guard_outputs(args: argparse.Namespace) -> None:
    """Refuse (:class:`~game.core.errors.GameError`) an ``--out`` or ``--curve`` that is an input, a file of
    another kind, or an existing file of the same kind without ``--force`` (:func:`guard_output`); called
    before learning and again just before writing."""
    if args.out is not None:  # --out "" too: refused as an empty path
        kind = FileKind.RULES if uses_tree_learner(args) else FileKind.PHYSICS
        guard_output(args.out, kind, what="--out", inputs=_inputs(args), force=args.force)
    if args.curve is not None:
        guard_output(args.curve, FileKind.PNG, what="--curve", inputs=_inputs(args), force=args.force)


__all__ = ["guard_outputs", "uses_tree_learner"]

"""The work of ``python main.py learn`` (its parser and argument checks are in :mod:`game.cli.learn`).

:func:`physics` learns a physics from observed games, :func:`tree` runs the decision-tree learner of the
classic rule and :func:`curve` plots its learning curves.  Each prints its report and returns the exit code.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from typing import Any

import matplotlib
import numpy as np

matplotlib.use("Agg")  # no window: the curves go to a file
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

from ai import facade
from game.cli.args import output_errors
from game.cli.context import command_context
from game.cli.input_kinds import named_kind
from game.cli.physics_arg import physics_option
from game.cli.learn_outputs import CURVE_SEEDS, PHYSICS_GAMES, guard_outputs
from game.core.file_kinds import FileKind
from game.core.physics import Physics
from game.core.writing import atomic_write_bytes, atomic_write_text


def curve(args: argparse.Namespace) -> int:
    """``learn --curve OUT.png``: wrong configurations against games, plotted."""
    seeds = range(args.seeds if args.seeds is not None else CURVE_SEEDS)
    checkpoints = tuple(g for g in (1, 2, 3, 5, 8, 13, 20, 30) if g <= max(1, args.games or 20))
    top = max(checkpoints)
    with command_context(args.time_limit, solver="learn") as ctx:
        try:
            curves = facade.learning_curves(seeds, checkpoints,
                                            many_checkpoints=tuple(g for g in (1, 2, 3) if g <= top),
                                            active_checkpoints=tuple(g for g in (1, 2, 3, 4) if g <= top + 1),
                                            ctx=ctx)
        except facade.SolveStopped as stop:
            print(f"learning curves stopped ({stop.reason.value}): nothing plotted", file=sys.stderr)
            return 1
    guard_outputs(args)  # again: the curves may have taken a while
    plot_curves(curves, args.curve)
    for name in curves.errors:
        cells = ", ".join(f"{g}: {med:,.0f} [{lo:,}-{hi:,}]" for g, med, lo, hi in curves.median_range(name))
        print(f"{name:>8}: {cells}")
    print(f"curve saved to {args.curve}")
    return 0


def _stopped(args: argparse.Namespace, stop: facade.SolveStopped) -> int:
    """A learning the limit stopped: the reason on stderr (and, with ``--json``, as one JSON object); exit 1."""
    print(f"learning stopped ({stop.reason.value}): nothing learned", file=sys.stderr)
    if args.json:
        print(json.dumps({"status": "stopped", "stop_reason": stop.reason.value}))
    return 1


def _games(args: argparse.Namespace, ctx: facade.SolveContext) -> tuple[list[facade.Game], Physics | None]:
    """The games to learn from, and the physics that played them (``None`` for a file of observations);
    read or played under the command's context (its limit counts from the first byte read)."""
    if args.observations:
        with named_kind(args.observations, FileKind.OBSERVATIONS.value):
            return facade.load_observations(args.observations, ctx), None
    truth = physics_option(args.physics)
    count = PHYSICS_GAMES if args.games is None else args.games
    return facade.ordinary_games(np.random.default_rng(args.seed), truth, count, ctx), truth


def physics(args: argparse.Namespace) -> int:
    """Learn a physics of the class from observed games (a file, or games played by an engine)."""
    with command_context(args.time_limit, solver="learn") as ctx:
        try:
            games, truth = _games(args, ctx)
            if args.positions_only:
                games = [g.with_start_directions() if args.starts else g.without_directions() for g in games]
            if args.active and truth is not None:
                result = facade.learn_by_asking(facade.engine_for(truth), games, seed=args.seed, ctx=ctx)
            else:
                result = facade.learn_physics(games, ctx=ctx)
        except facade.SolveStopped as stop:
            return _stopped(args, stop)
        data = result.to_json()
        exact: bool | None = None
        if truth is not None:  # the check against the engine runs within the same limit
            try:
                agree = facade.agreement(result.physics, truth, ctx=ctx)
            except facade.SolveStopped as stop:
                print(f"checking against the {truth.name} engine stopped ({stop.reason.value}): "
                      "the rules are learned but not checked", file=sys.stderr)
                data["verification"] = {"engine": truth.name, "stopped": stop.reason.value}
                exact = False
            else:
                exact = agree.proved
                data["verification"] = {"engine": truth.name, "table_exact": agree.table_exact,
                                        "exact": agree.proved, "same_names": agree.same_names,
                                        "lemmings_alike": agree.alike,
                                        "lemmings": agree.lemmings}
    if args.out:
        guard_outputs(args)  # again: the learning may have taken a while
        atomic_write_text(args.out, json.dumps(result.physics.to_json(), indent=1) + "\n")
    if args.json:
        if args.out:
            data["saved_to"] = args.out
        print(json.dumps(data))
    else:
        source = args.observations or f"{len(games)} game(s) of the {truth.name if truth else ''} physics"
        _print_physics(args, result, data, source, exact)
    return 0 if exact is not False else 1


def _print_physics(args: argparse.Namespace, result: facade.LearnedPhysics, data: dict[str, Any], source: str,
                   exact: bool | None) -> None:
    """The readable report of a learned physics."""
    print(f"learned from {source}: {result.examples:,} steps"
          + (f", {result.queries} questions to the engine" if result.queries else ""))
    print(result.physics.to_text())
    for line in result.physics.describe():
        print("  " + line)
    for note in result.notes:
        print("note: " + note)
    if result.unseen_count:
        print("never seen (3x3, # solid, @ the lemming facing right): "
              + ", ".join(data["unseen"]) + (" ..." if result.unseen_count > 8 else ""))
    if exact is not None and "stopped" in data["verification"]:
        print(f"checked against the engine: not finished ({data['verification']['stopped']})")
    elif exact is not None:
        v = data["verification"]
        print(f"checked against the engine: {'EXACT' if exact else 'NOT exact'} "
              f"({'every lemming moves alike from any start on any map' if exact else 'some lemmings go elsewhere'}"
              f"{', same table' if v['table_exact'] else ''}"
              f"{'' if v['same_names'] or not exact else ', with left and right named the other way round'}; "
              f"{v['lemmings_alike']:,} of {v['lemmings']:,} "
              "lemmings on unseen maps move alike)")
    if args.out:
        print(f"rules saved to {args.out}")


def tree(args: argparse.Namespace) -> int:
    """The decision-tree learner of the classic rule: learn, verify, print and save the rules."""
    model = args.model or "tree"
    with command_context(args.time_limit, solver="learn") as ctx:
        try:
            if args.positions_only:
                report = facade.learn_positions(games=args.games, seed=args.seed, regime=args.regime or "many",
                                                ctx=ctx)
            else:
                report = facade.learn_rules(games=args.games, seed=args.seed, model=model, active=args.active,
                                            regime=args.regime or "random", mirror=args.mirror,
                                            queries=args.queries, context=ctx)
        except facade.SolveStopped as stop:
            return _stopped(args, stop)
    if args.out:
        guard_outputs(args)  # again: the learning may have taken a while
        with output_errors(args.out):
            report.rules.save(args.out)
    if args.json:
        data = report.to_json()
        if args.out:
            data["saved_to"] = args.out
        print(json.dumps(data))
    else:
        print(report.summary())
        print()
        print(report.rules.render(), end="")
        if args.out:
            print(f"rules saved to {args.out}")
    ver = report.rules.verification
    return 0 if ver is not None and ver.exact else 1


def plot_curves(curves: facade.Curves, out: str) -> None:
    """Two panels (regimes with trees; models on random games), median line and min-max band,
    log scale (0 drawn at 0.5, labelled "exact")."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    panels = ((axes[0], facade.REGIME_CURVES, "regimes (decision tree)"), (axes[1], facade.MODEL_CURVES, "models (random games)"))
    floor = 0.5
    shift = {"many": 0.96, "mirrored": 1.0, "active": 1.04}  # keep overlapping curves visible
    marker = {"many": "s", "mirrored": "^", "active": "D"}
    for ax, names, title in panels:
        for name in names:
            rows = curves.median_range(name)
            if not rows:
                continue
            g = [r[0] * shift.get(name, 1.0) for r in rows]
            med = [max(r[1], floor) for r in rows]
            lo = [max(r[2], floor) for r in rows]
            hi = [max(r[3], floor) for r in rows]
            label = {"active": "active (1 many-lemming game + queries)", "many": "many lemmings per map",
                     "mirrored": "many + mirror prior", "random": "random games",
                     "logreg": "logistic regression (pairs)", "mlp": "MLP (24 hidden)", "tree": "decision tree"}[name]
            ax.plot(g, med, marker=marker.get(name, "o"), label=label)
            ax.fill_between(g, lo, hi, alpha=0.15)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.axhline(floor, color="grey", lw=0.5, ls=":")
        ax.set_xlabel("games (log scale)")
        ax.set_title(title)
        ax.legend(fontsize=8)
    axes[0].set_ylabel(f"wrong configurations (of 2 x 255,879; {floor} = exact)")
    fig.suptitle(f"Learning the rules: median and range over seeds {min(curves.seeds)}-{max(curves.seeds)}")
    fig.tight_layout()
    image = io.BytesIO()
    fig.savefig(image, format="png", dpi=110)
    plt.close(fig)
    atomic_write_bytes(out, image.getvalue())  # never half a file: a temporary file renamed into place

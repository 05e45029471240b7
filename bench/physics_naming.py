"""Positions-only learning: is the learned physics named left and right the right way round?

Positions alone cannot tell a physics from its mirror image, so "right" is the naming of
:mod:`ai.learning.naming` (a lemming on open flat floor walks ahead): the learned physics moves every
lemming like ``named_ahead(truth)`` from any start on any map (``moves_alike``, no direction reversed).
"Decided" = the games decide the physics up to naming (it moves alike with the truth either way round);
"truth's names" = it moves alike with the truth as the truth names the directions (which positions alone
cannot show for a physics that walks back on open flat floor; with the start markers they can).

Sets: ``--random N`` random physics (``random_physics`` with seed SEED_BASE + k), learned from 3 games of
the usual setting (16x24, walls ~30 %, targets ~8 %, 30 lemmings, 40 frames, data seed 7); the hand-made
physics below (not drawn by ``random_physics``), each from 3 fresh games per seed 0..S-1.

Run: ``python3 -m bench.physics_naming [--random 40] [--seed-base 1000] [--hand-seeds 10] [--names a,b]
[--starts]``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from ai.learning.naming import ahead_sign, named_ahead
from ai.learning.observations import Game, random_game
from ai.learning.physics_learner import learn_physics
from game.core.physics import Physics, random_physics
from game.core.physics_views import moves_alike


def _physics(name: str, rules: list[Any]) -> Physics:
    """A physics of the JSON form's ``rules``, targets stopping lemmings."""
    return Physics.from_json({"name": name, "targets_stop": True, "rules": rules})


FALL: dict[str, Any] = {"when": {"1,0": "free"}, "move": [1, 0]}
WALK: dict[str, Any] = {"when": {"0,1": "free"}, "move": [0, 1]}
TURN: dict[str, Any] = {"when": {}, "move": [0, 0], "turn": True}
#: Physics made by hand for this benchmark: each walks ahead on open flat floor and steps back often.
HAND_MADE: dict[str, Physics] = {
    # at a wall it steps back and turns: in a 2-cell pocket it goes back at every step
    "bouncer": _physics("bouncer", [FALL, WALK, {"when": {"0,-1": "free"}, "move": [0, -1], "turn": True}, TURN]),
    # at a wall it steps back without turning, then walks up to the wall again
    "hesitant": _physics("hesitant", [FALL, WALK, {"when": {"0,-1": "free"}, "move": [0, -1]}, TURN]),
    # falls diagonally backwards where it can
    "backdrift": _physics("backdrift", [{"when": {"1,0": "free", "0,-1": "free", "1,-1": "free"}, "move": [1, -1]},
                                        FALL, WALK, TURN]),
    # at a wall it hops up and back, turning
    "wallhopper": _physics("wallhopper", [FALL, WALK, {"when": {"-1,0": "free", "-1,-1": "free"}, "move": [-1, -1],
                                                       "turn": True}, TURN]),
    # walks ahead and turns at every step: it shuttles between two cells on any floor
    "shuttle": _physics("shuttle", [FALL, {"when": {"0,1": "free"}, "move": [0, 1], "turn": True}, TURN]),
}


def judge(truth: Physics, games: list[Game]) -> dict[str, bool | float]:
    """Learn from ``games`` with positions only (and, separately, with the start markers) and compare."""
    start = time.perf_counter()
    learned = learn_physics([g.without_directions() for g in games]).physics
    seconds = time.perf_counter() - start
    return {"decided": moves_alike(truth, learned) or moves_alike(truth, learned, opposite=True),
            "right": moves_alike(named_ahead(truth), learned), "truth_names": moves_alike(truth, learned),
            "seconds": seconds}


def judge_starts(truth: Physics, games: list[Game]) -> bool:
    """Learned from positions and each lemming's start marker: named as the truth names the directions."""
    return moves_alike(truth, learn_physics([g.with_start_directions() for g in games]).physics)


def random_set(args: argparse.Namespace) -> None:
    """One row per random physics, then the counts."""
    print("| physics | walks ahead on open floor | decided | right naming | truth's names |"
          + (" with start markers: truth's names |" if args.starts else ""))
    print("|---|---|---|---|---|" + ("---|" if args.starts else ""))
    counts = {"decided": 0, "right": 0, "truth_names": 0, "starts": 0, "right_decided": 0}
    for k in range(args.random):
        truth = random_physics(np.random.default_rng(args.seed_base + k))
        rng = np.random.default_rng(7)
        games = [random_game(rng, truth) for _ in range(3)]
        row = judge(truth, games)
        for key in ("decided", "right", "truth_names"):
            counts[key] += bool(row[key])
        counts["right_decided"] += bool(row["right"] and row["decided"])
        sign = {1: "yes", -1: "no (mirror image does)", 0: "either"}[ahead_sign(truth)]
        cells = [sign, *("yes" if row[key] else "no" for key in ("decided", "right", "truth_names"))]
        if args.starts:
            starts = judge_starts(truth, games)
            counts["starts"] += starts
            cells.append("yes" if starts else "no")
        print(f"| random-{args.seed_base + k} | " + " | ".join(cells) + f" | {row['seconds']:.1f} s", flush=True)
    n = args.random
    print(f"\nright naming {counts['right']}/{n}; decided {counts['decided']}/{n}, right among decided "
          f"{counts['right_decided']}/{counts['decided']}; truth's names {counts['truth_names']}/{n}"
          + (f"; with start markers, truth's names {counts['starts']}/{n}" if args.starts else ""))


def hand_set(args: argparse.Namespace) -> None:
    """One row per hand-made physics: over fresh game seeds, how often each naming came out."""
    print("| physics | seeds | decided | right naming | with start markers: truth's names |")
    print("|---|---|---|---|---|")
    for name in args.names.split(","):
        truth = HAND_MADE[name]
        seeds = args.bouncer_seeds if name == "bouncer" else args.hand_seeds
        decided = right = starts = 0
        for seed in range(seeds):
            rng = np.random.default_rng(seed)
            games = [random_game(rng, truth) for _ in range(3)]
            row = judge(truth, games)
            decided += bool(row["decided"])
            right += bool(row["right"])
            starts += judge_starts(truth, games) if args.starts else 0
        print(f"| {name} | 0-{seeds - 1} | {decided}/{seeds} | {right}/{seeds} | "
              + (f"{starts}/{seeds} |" if args.starts else "- |"), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--random", type=int, default=40)
    parser.add_argument("--seed-base", type=int, default=1000)
    parser.add_argument("--hand-seeds", type=int, default=10)
    parser.add_argument("--bouncer-seeds", type=int, default=20)
    parser.add_argument("--only", choices=["all", "random", "hand"], default="all")
    parser.add_argument("--names", default=",".join(HAND_MADE), help="hand-made physics, separated by commas")
    parser.add_argument("--starts", action="store_true", help="also learn with each lemming's start marker")
    args = parser.parse_args()
    if args.only in ("all", "random"):
        random_set(args)
    if args.only in ("all", "hand"):
        hand_set(args)


if __name__ == "__main__":
    main()

"""The AI's one door: everything the app and the command line may call, typed, in one place.

The app (:mod:`game.app`) and the command line (:mod:`game.cli`) import the AI only through this module
(an import-linter contract in ``pyproject.toml`` says so).  Every entry takes a
:class:`~ai.kernel.context.SolveContext` (or makes one at an entry point from a limit and a cancel event):
the one way a piece of AI work learns its deadline, its cancel request and where to report.

* **The lemming game**: :func:`solve` (any registered solver; every answer replayed by the reference
  simulator), :func:`compute_hint`, the plan the game's hint and solution share (:func:`player_plan`,
  :func:`plan_result`), :func:`analyse_level` (with the reasons a level has no solution;
  the quick check :func:`stuck_lemmings`, the check before saving :func:`why_no_solution`), the rule difference a mystery level turns on
  (:func:`rule_difference`), :func:`rate_level`, :func:`generate_run`, the
  learning entries (:func:`learn_physics`, :func:`learn_rules`, the player's :func:`knowledge`).
* **Reverse Life**: :func:`life_reverse`, :func:`life_hint`, :func:`life_backbone`, :func:`life_learn_rule`.
* **Peg solitaire**: :func:`pegs_solve`, :func:`pegs_hint`, how far back a lost game can still finish
  (:func:`pegs_undo_to_finish`), :func:`pegs_learn`, :func:`pegs_table`.
* **Minesweeper**: :func:`mines_advise` (the analysis and the moves), :func:`mines_bench`.
* **Running work in a child process**: :func:`run_in_child` (the app's job runner uses it).

>>> from game.core.level import Level
>>> level = Level.load("levels/007_the_original.txt")
>>> solve(level, solver="search", mode="all").describe().split(",")[0]
'optimal: 3 bricks'
"""

from __future__ import annotations

from ai.kernel.base import (
    RelaxedSolution,
    SolveMode,
    SolveResult,
    SolveStatus,
    Solver,
    WrongSolutionError,
)
from ai.kernel.context import Progress, ProgressCallback, SolveContext, SolveStopped, StopReason
from ai.kernel.process import JobCancelled, JobFailed, fork_available, run_in_child
from ai.learning.curves import MODEL_CURVES, REGIME_CURVES, Curves, learning_curves
from ai.learning.learn import learn_positions, learn_rules
from ai.learning.observations import ordinary_games
from ai.learning.observations_file import load_observations
from ai.learning.physics_agreement import agreement
from ai.learning.physics_asking import engine_for, learn_by_asking
from ai.learning.physics_learner import learn_physics
from ai.learning.player import Knowledge, RulePicture, knowledge, offered_solvers, physics_key, record_run
from ai.puzzles.life.hint import HintKind as LifeHintKind
from ai.puzzles.life.hint import LifeHint
from ai.puzzles.life.hint import hint as life_hint
from ai.puzzles.life.learn import disagreements as life_disagreements
from ai.puzzles.life.learn import learn_rule as life_learn_rule
from ai.puzzles.life.reverse import ReverseStatus as LifeReverseStatus
from ai.puzzles.life.backbone import backbone as life_backbone
from ai.puzzles.life.reverse import reverse as life_reverse
from ai.puzzles.mines.analysis import AnalysisStatus as MinesAnalysisStatus
from ai.puzzles.mines.analysis import MinesAnalysis
from ai.puzzles.mines.play import BenchTally as MinesBenchTally
from ai.puzzles.mines.play import bench as mines_bench
from ai.puzzles.mines.policy import Advice as MinesAdvice
from ai.puzzles.mines.policy import MoveKind as MinesMoveKind
from ai.puzzles.mines.policy import Moves as MinesMoves
from ai.puzzles.mines.policy import advise as mines_advise
from ai.puzzles.mines.policy import first_click as mines_first_click
from ai.puzzles.mines.policy import WrongAnswerError as MinesWrongAnswerError
from ai.puzzles.mines.policy import check_against_board as mines_check_against_board
from ai.puzzles.mines.policy import check_against_view as mines_check_against_view
from ai.puzzles.pegs import PegsStatus
from ai.puzzles.pegs.back import FinishBack as PegsFinishBack
from ai.puzzles.pegs.back import undo_to_finish as pegs_undo_to_finish
from ai.puzzles.pegs import hint as pegs_hint
from ai.puzzles.pegs import solve as pegs_solve
from ai.puzzles.pegs.learn import learn as pegs_learn
from ai.puzzles.pegs.learn import parse_games as pegs_parse_games
from ai.puzzles.pegs.learn import random_games as pegs_random_games
from ai.puzzles.pegs.learn import verify as pegs_verify
from ai.puzzles.pegs.vacancies import table as pegs_table
from ai.services.analysis import (Analysis, AnalysisStatus, analyse_level, bricks_over_budget, last_arrival_frame,
                                  why_no_solution)
from ai.services.benchmark import run_bench
from ai.services.unsolvable import stuck_lemmings
from ai.services.generation.compartments import GRIDS as COMPARTMENT_GRIDS
from ai.services.generation.endless import difficulty_spec, rated_level
from ai.services.generation.generator import pick_certifier
from ai.services.generation.layout import MIN_SIDE as GENERATION_MIN_SIDE
from ai.services.generation.parallel import ProgressBar, RunProgress, RunSpec, default_jobs, generate_run
from ai.services.hint_plan import plan_result, player_plan
from ai.services.hints import Hint, HintAction, compute_hint
from ai.services.learned_hint import learned_hint
from ai.services.rating import Rating, player_label, rate_level
from ai.services.rule_difference import rule_difference
from ai.solvers.learned import read_rules
from ai.solvers.registry import SOLVERS, get_solver, solve

# the command line's types
from ai.learning.observations import Game
from ai.learning.physics_learner import LearnedPhysics
from ai.services.generation.generator import GeneratedLevel

__all__ = [
    "COMPARTMENT_GRIDS", "MODEL_CURVES", "REGIME_CURVES", "Curves", "GENERATION_MIN_SIDE", "SOLVERS",
    "Analysis", "AnalysisStatus", "Hint", "HintAction", "JobCancelled", "JobFailed", "Knowledge", "LifeHint", "LifeHintKind",
    "LifeReverseStatus",
    "MinesAdvice", "MinesAnalysis", "MinesAnalysisStatus", "MinesMoveKind", "MinesMoves", "MinesWrongAnswerError", "PegsFinishBack", "PegsStatus", "Progress",
    "ProgressBar", "ProgressCallback", "Rating", "RelaxedSolution", "RulePicture", "RunProgress", "RunSpec", "SolveContext",
    "SolveMode", "SolveResult", "SolveStatus", "SolveStopped", "Solver", "StopReason", "WrongSolutionError",
    "agreement", "analyse_level", "bricks_over_budget", "compute_hint", "default_jobs", "difficulty_spec",
    "engine_for", "fork_available", "generate_run", "get_solver", "knowledge", "last_arrival_frame",
    "learn_by_asking", "learn_physics", "learn_positions", "learn_rules", "learned_hint", "learning_curves",
    "life_backbone", "life_disagreements", "life_hint", "life_learn_rule", "life_reverse", "load_observations",
    "mines_advise", "MinesBenchTally", "mines_bench", "mines_first_click", "mines_check_against_board",
    "mines_check_against_view",
    "offered_solvers", "ordinary_games", "pegs_hint", "pegs_learn", "pegs_parse_games", "pegs_random_games",
    "pegs_solve", "pegs_table", "pegs_undo_to_finish", "pegs_verify", "physics_key", "pick_certifier", "plan_result", "player_label",
    "player_plan", "rate_level", "rated_level", "read_rules", "record_run", "rule_difference", "run_bench",
    "run_in_child", "solve", "stuck_lemmings", "why_no_solution",
    "Game", "GeneratedLevel", "LearnedPhysics",  # the command line's types
]

"""Names vulture cannot see used: read by a library, looked up by a string, or called only by tests and benchmarks.

Passed to vulture after the code (``python3 -m vulture game ai main.py tests/vulture_whitelist.py``); each line
"uses" one name.  Importing this module does nothing (``_`` answers every attribute with itself).
"""

from __future__ import annotations


class _Uses:
    """Any attribute of it is itself."""

    def __getattr__(self, name: str) -> _Uses:
        return self


_ = _Uses()

# OR-Tools CP-SAT parameters and hooks: set by us, read by the solver library.
_.num_workers  # CpSolver.parameters
_.num_search_workers  # CpSolver.parameters
_.max_time_in_seconds  # CpSolver.parameters
_.max_deterministic_time  # CpSolver.parameters
_.cp_model_presolve  # CpSolver.parameters
_.cp_model_probing_level  # CpSolver.parameters
_.symmetry_level  # CpSolver.parameters
_.use_sat_inprocessing  # CpSolver.parameters
_.random_seed  # CpSolver.parameters
_.enumerate_all_solutions  # CpSolver.parameters
_.catch_sigint_signal  # CpSolver.parameters
_.on_solution_callback  # CpSolverSolutionCallback hook, called by the solver

# numpy and pygame attributes: setting them is the effect.
_.writeable  # ndarray.flags.writeable = False makes a read-only array
_.midbottom  # pygame.Rect position
_.midtop  # pygame.Rect position
_.minimum_size  # pygame.Window.minimum_size

# Called by the runtime or through a protocol.
_._join_racers  # registered with atexit
_.framerate  # parameter of the Clock protocol (pygame.time.Clock.tick's signature)

# Looked up by "module:Class" strings (ai.SOLVER_REGISTRY, game.app.router, game.app.puzzles_registry).
_.BruteForceSolver  # solver "brute"
_.GradientSolver  # solver "gradient"
_.MinesScene  # puzzle "Minesweeper"
_.EndlessScene  # scene "endless"
_.PauseScene  # scene "pause"
_.HelpScene  # scene "help"
_.SettingsScene  # scene "settings"

# Enum members chosen by value (Difficulty("expert")).
_.INTERMEDIATE  # game.core.puzzles.mines.Difficulty
_.EXPERT  # game.core.puzzles.mines.Difficulty

# Fields of result records, filled in for whoever reads the record (tests, benchmarks, the progress bar).
_.solutions_found  # ai.kernel.context.Progress
_.example  # ai.puzzles.life.reverse.Backbone
_.components  # ai.puzzles.mines.analysis.MinesAnalysis
_.guesses  # ai.puzzles.mines.play.GameRecord (bench/mines.py)
_.rooms_done  # ai.services.generation.parallel.RunProgress
_.export_path  # game.app.assistant.state.AssistantState
_.last_frame_ms  # game.app.app.App (bench/ui_assistant.py)

# Public functions and methods called by the tests or the benchmarks only.
_.non_monotone  # ai.learning.curves (bench/learning_and_gradient.py)
_.random_games_datasets  # ai.learning.dataset (bench/learning_and_gradient.py)
_.reference_relevant  # ai.learning.features (tests/ai/learning/test_learning.py)
_.verified_exact  # ai.learning.rules.LearnedRules (tests)
_.load_default_rules  # ai.learning.rules (tests, doctests)
_.within_budget  # ai.services.analysis.Analysis (tests)
_.rejection_rate  # ai.services.generation.generator.GenerationStats (bench/generation.py)
_.small_level  # ai.services.generation.random_levels (tests, benchmarks)
_.large_level  # ai.services.generation.random_levels (tests, benchmarks)
_.side_by_side  # ai.services.generation.random_levels (bench/hints_speed.py)
_.minimise_bricks  # ai.solvers.cpsat_model.CpSatModel (tests/ai/solvers/test_cpsat.py)
_.select_solver  # game.app.assistant.controller.Assistant (UI tests)
_.relaxed_frames  # game.app.export_relaxed (tests/game/app/test_export.py)
_.cell_center  # game.app.render.BoardLayout (UI tests)
_.board_claimed  # game.app.scenes.play.PlayScene (UI tests)
_.erase  # game.core.editor_model.EditorModel (tests)
_.mass_on_targets  # game.core.occupancy (tests)
_.shared_cells  # game.core.outcome (tests)
_.open_worlds  # game.core.pack (tests)
_.original_level_path  # game.core.pack (tests/conftest.py)
_.renamed  # game.core.physics.Physics (tests)
_.random_physics  # game.core.physics (tests, benchmarks)
_.in_memory  # the progress, resume and settings stores (tests, benchmarks)
_.outer_totalistic  # game.core.puzzles.life.rules.Rule (tests)
_.with_mines  # game.core.puzzles.mines.MinesBoard (tests, doctests)
_.format  # game.core.puzzles.pegs.Board (tests)
_.parse_settings  # game.core.settings (tests)
_.last_hint  # game.app.puzzles.life.LifeScene: the AI's last hint (tests read what it said)
_.writelines  # game.cli.stdout_guard.GuardedStdout: a stream method (print and libraries call it)
_.digest  # game.core.store_aside.UnreadEntry: part of the entry's equality (an edited entry is a new one)

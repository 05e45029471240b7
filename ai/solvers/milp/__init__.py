"""The 0-1 MILP solver, one idea per module.

* :mod:`~ai.solvers.milp.model`: the sparse model and the builder every formulation extends;
* formulations: :mod:`~ai.solvers.milp.flow` (``path``, ``flow``), :mod:`~ai.solvers.milp.product`,
  chosen by name in :mod:`~ai.solvers.milp.formulations`;
* :mod:`~ai.solvers.milp.backends`: HiGHS (through SciPy), CBC / SCIP / GLOP / CLP (through pywraplp), under a
  context;
* :mod:`~ai.solvers.milp.relaxation`: the LP relaxation and its densities;
* :mod:`~ai.solvers.milp.solver`: :class:`~ai.solvers.milp.solver.MilpSolver` (minimum, enumeration).
"""

"""The solvers: each implements :class:`ai.base.Solver`; look them up through :func:`ai.get_solver`."""

"""The solvers: each implements :class:`ai.kernel.base.Solver`; look them up through :func:`ai.get_solver`."""

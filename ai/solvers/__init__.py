"""The solvers: each implements :class:`ai.kernel.base.Solver`; look them up through :func:`ai.solvers.registry.get_solver`."""

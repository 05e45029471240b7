"""The learned-rule solver (:mod:`ai.solvers.learned.solver`) and its two CP-SAT encodings.

* :mod:`ai.solvers.learned.path_model` - the compact *path* encoding over learned moves;
* :mod:`ai.solvers.learned.encoding` - the clause-per-tree-path *time* encoding;
* :mod:`ai.solvers.learned.solver` - :class:`LearnedRuleSolver` (trust, modes, replay).

The moves themselves are read off the learned rules in :mod:`ai.learning.derive`.
"""

from ai.solvers.learned.encoding import ClauseModel, Encoding, encode, encode_sparse
from ai.solvers.learned.path_model import PathModel
from ai.solvers.learned.solver import LearnedRuleSolver, default_rules

__all__ = ["ClauseModel", "Encoding", "LearnedRuleSolver", "PathModel", "default_rules", "encode", "encode_sparse"]

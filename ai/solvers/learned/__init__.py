"""The learned-rule solver (:mod:`ai.solvers.learned.solver`) and its two CP-SAT encodings.

* :mod:`ai.solvers.learned.path_model` - the compact *path* encoding over learned moves;
* :mod:`ai.solvers.learned.encoding` - the clause-per-tree-path *time* encoding;
* :mod:`ai.solvers.learned.solver` - :class:`LearnedRuleSolver` (trust, modes, replay).

The moves themselves are read off the learned rules in :mod:`ai.learning.derive`.
"""

from pathlib import Path

from ai.learning.rules import MAX_RULES_BYTES, LearnedRules, RulesFileError
from ai.solvers.base import SolverBase
from ai.solvers.learned.encoding import ClauseModel, Encoding, encode, encode_sparse
from ai.solvers.learned.path_model import PathModel
from ai.solvers.learned.physics_rules import PhysicsRulesSolver
from ai.solvers.learned.solver import LearnedRuleSolver, default_rules
from game.core.physics import Physics
from game.core.physics_catalog import is_physics_json
from game.core.storage import UserFileError, load_json_file


def read_rules(path: str | Path) -> object:
    """A rules file: a physics of the JSON form (``learn --out``), or decision-tree rules of the older
    learner; read through the bounded loader, any problem is one :class:`game.core.errors.GameError` naming
    the file."""
    try:
        data = load_json_file(path, what="rules file", max_bytes=MAX_RULES_BYTES)
    except UserFileError as exc:
        raise RulesFileError(str(exc)) from None
    if is_physics_json(data):
        return Physics.from_json(data, where=f"rules file {path}")
    rules = LearnedRules.load(path)
    if not rules.is_tree and rules.model.kind != "positions":
        raise RulesFileError(f"rules file {path}: the learned solver needs decision-tree rules, "
                             f"not a {rules.model.kind} model (learn them with --model tree)")
    return rules


def learned_solver(*, rules: object = None, **options: object) -> SolverBase:
    """The learned solver for ``rules``: a learned :class:`~game.core.physics.Physics` (or none: learn the
    level's physics by watching the engine) solves with :class:`PhysicsRulesSolver`; decision-tree rules
    files of the older learner with :class:`LearnedRuleSolver`."""
    if isinstance(rules, (str, Path)):
        rules = read_rules(rules)
    if rules is None or isinstance(rules, Physics):
        return PhysicsRulesSolver(physics=rules, **options)  # type: ignore[arg-type]
    return LearnedRuleSolver(rules=rules, **options)  # type: ignore[arg-type]


__all__ = ["ClauseModel", "Encoding", "LearnedRuleSolver", "PathModel", "PhysicsRulesSolver", "default_rules",
           "encode", "encode_sparse", "learned_solver", "read_rules"]

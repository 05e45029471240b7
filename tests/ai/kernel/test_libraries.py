"""The heavy libraries load on first use: importing the facade loads none of them; using one loads it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HEAVY = ("ortools", "pandas", "sklearn", "scipy")


def loaded_after(code: str) -> set[str]:
    """The heavy top-level packages in ``sys.modules`` after running ``code`` in a fresh interpreter."""
    probe = f"{code}\nimport sys\nprint(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(out.stdout.split()) & set(HEAVY)


def test_importing_the_facade_and_the_app_loads_no_heavy_library() -> None:
    assert loaded_after("import ai.facade") == set()


def test_a_library_loads_when_first_used() -> None:
    assert loaded_after("from ai.kernel.libraries import cp_model\ncp_model.CpModel()") >= {"ortools"}
    assert loaded_after("from ai.kernel.libraries import sklearn_tree\nsklearn_tree.DecisionTreeClassifier") \
        >= {"sklearn"}


def test_each_solver_still_solves_through_the_facade_with_its_libraries_loaded_on_use() -> None:
    code = ("from ai.facade import solve\nfrom game.core.level import Level\n"
            "level = Level.from_text('6\\n1\\n>  T\\nX XX\\nXXXX\\n')\n"
            "print(*(solve(level, solver=s).status.name for s in ('cpsat', 'milp', 'gradient')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split()[:2] == ["OPTIMAL", "OPTIMAL"] and out.stdout.split()[2] in {"OPTIMAL", "FEASIBLE"}

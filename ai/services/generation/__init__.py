"""Level generation: designed layouts, planted solutions, cheap filters, exact certification.

* :func:`generate_levels` (``generator.py``): ``count`` levels whose minimum brick count is
  exactly ``K``, one at a time, with a cancel event; used by ``main.py generate``;
* :func:`rated_level` (``endless.py``): the Endless mode's next level, rated and rising by
  measure (:func:`endless_levels` / :func:`next_level`: the unrated ladder);
* :func:`generate_run` (``parallel.py``): many levels, rooms made in child processes, big levels cut
  into sealed rooms certified one by one (``compartments.py``), an optional difficulty band;
* ``layout.py`` (maps), ``candidates.py`` (lemmings, planted bricks, targets),
  ``filters.py`` (cheap rejection), ``readset.py`` (the batched read-set search),
  ``commands.py`` (the CLI).
"""

from __future__ import annotations

from ai.services.generation.endless import DifficultySpec, difficulty_spec, endless_levels, next_level, rated_level, target_score
from ai.services.generation.generator import GeneratedLevel, GenerationStats, default_frames, generate_levels
from ai.services.generation.parallel import RunSpec, generate_run

__all__ = [
    "DifficultySpec",
    "GeneratedLevel",
    "GenerationStats",
    "default_frames",
    "difficulty_spec",
    "endless_levels",
    "generate_levels",
    "generate_run",
    "RunSpec",
    "next_level",
    "rated_level",
    "target_score",
]

"""Old home of ``Stage`` and ``register_stage`` (now ``systems.pipeline``), kept for imports."""

from .pipeline import STAGES, Pipeline, Stage, register_stage

__all__ = ["STAGES", "Pipeline", "Stage", "register_stage"]

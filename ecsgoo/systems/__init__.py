"""The pipeline stages, in their usual order, and the base class for a game's own.

integrate → project → collide run per substep; break → analyze → merge → render
run once per frame. See ``pipeline.Stage`` and ``pipeline.Pipeline.step``. ``Render``
and ``Look`` are re-exported from ``ecsgoo.render`` and ``ecsgoo.look``; no stage here
imports them.
"""

from ..look import Look
from .analyze import Analyze, StructureReport
from .break_ import Break
from .collide import Collide
from .integrate import Integrate
from .merge import FruitsMerged, Merge, Score
from .pipeline import STAGES, Pipeline, Stage, register_stage
from .project import Project
from .render import Render  # re-exported from ecsgoo.render: the old path keeps working

#: The solver pipeline every game starts from, in order.
SOLVER = (Integrate, Project, Collide, Break)

__all__ = ["STAGES", "SOLVER", "Pipeline", "Stage", "register_stage", "Integrate", "Project",
           "Collide", "Break"]
__all__ += ["Analyze", "StructureReport", "Merge", "Score", "FruitsMerged"]
__all__ += ["Render", "Look"]

"""The physics step: its context, its phases and the state it owns.

``step.substeps`` runs the prepare phase and hands each substep its
``StepContext``; the solver stages (``systems.Integrate``, ``Project``,
``Collide``) are the phases, each owning what its name says for particles and
bodies alike. Derived columns (inverse masses, ``resting``) are computed by
``ecsgoo.derived``; sleeping is ``ecsgoo.sleeping``.
"""

from .step import StepContext, substeps

__all__ = ["StepContext", "substeps"]

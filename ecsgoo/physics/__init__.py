"""The physics step: its context and the state it owns.

``Pipeline.step`` (``systems.pipeline``) runs the frame and hands each substep's
solver stages a ``StepContext``; the solver stages (``systems.Integrate``,
``Project``, ``Collide``) are its phases, each owning what its name says for
particles and bodies alike. The world data they share: the broad phase
(``broadphase.BroadPhase``, ``World.broadphase``) and the contact graph
(``contacts.ContactGraph``, ``World.contacts``). Derived columns (inverse masses,
``resting``) are ``ecsgoo.derived``; sleeping is ``ecsgoo.sleeping``.
"""

from .step import StepContext

__all__ = ["StepContext"]

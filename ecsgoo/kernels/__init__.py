"""Pure ``@njit(cache=True)`` kernels over packed arrays: no esper, no arcade.

Glossary: ``h`` substep time, ``w`` inverse mass, ``C`` constraint error,
``alpha`` = compliance / h², ``lam`` Lagrange multiplier, ``n`` rows in use.
"""

"""The level editor: ``Editor`` (its operations, headless), ``Piece``/``Field``/``Kit``
(what it places, and what a game adds), and ``ecsgoo edit`` (``ecsgoo.editor.window``).

    from ecsgoo.editor import Editor
    ed = Editor("rope")                       # a new, empty rope level
    candy = ed.place("rope_candy", x=220, y=430)
    ed.place("rope_rope", x=400, y=520)       # a rope from its pin to the candy
    ed.move(10, 0); ed.undo(); ed.save()      # <data dir>/levels/rope/level-1.toml
"""

from .build import Built
from .core import Editor
from .levels import emptied, kit_of, user_levels, user_levels_dir
from .pieces import FRAMEWORK, Field, Kit, Piece

__all__ = ["Editor", "Built", "Piece", "Field", "Kit", "FRAMEWORK", "kit_of", "emptied",
           "user_levels", "user_levels_dir"]

"""The layers: physics imports no rendering and no arcade; rendering imports no app.

Checked on the source (every import statement, inside functions too, relative ones
resolved), so that a lazy ``import arcade`` deep in a stage fails here as well,
and once at run time: stepping a world loads no arcade.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "ecsgoo"

#: The physics: stages, kernels, the world and its store, components, saving, and the
#: pure helpers. ``systems/__init__`` and ``systems/render`` only re-export Render and
#: Look for old import paths; no stage imports them.
PHYSICS = sorted(
    {*PACKAGE.glob("systems/*.py"), *PACKAGE.glob("kernels/*.py"), *PACKAGE.glob("saving/*.py"),
     *(PACKAGE / f"{name}.py" for name in (
         "world", "store", "table", "components", "bodies", "level", "fruit", "errors",
         "analysis", "geometry", "trajectory", "look"))}
    - {PACKAGE / "systems/__init__.py", PACKAGE / "systems/render.py"})
ABOVE_PHYSICS = ("arcade", "pyglet", "ecsgoo.render", "ecsgoo.app", "ecsgoo.systems.render",
                 "games")
RENDER = sorted(PACKAGE.glob("render/*.py"))
ABOVE_RENDER = ("ecsgoo.app", "ecsgoo.cli", "games")


def imported(source: str, package: str) -> set[str]:
    """Every module name ``source`` (a file of ``package``) imports, made absolute.

    ``from x import y`` counts as importing both ``x`` and ``x.y`` (``y`` may be a module).
    """
    here = package.split(".")
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            start = ".".join(base + ([node.module] if node.module else []))
            names.add(start)
            names.update(f"{start}.{alias.name}" for alias in node.names)
    return names


def _offences(path: Path, above: tuple[str, ...]) -> list[str]:
    """The modules of ``above`` (or inside them) that the file ``path`` imports."""
    package = ".".join(path.parent.relative_to(ROOT).parts)
    names = imported(path.read_text(encoding="utf-8"), package)
    return sorted(n for n in names if any(n == a or n.startswith(a + ".") for a in above))


def test_the_check_sees_relative_and_lazy_imports():
    source = "from ..render import scene\ndef f():\n    import arcade.gl\n"
    names = imported(source, "ecsgoo.systems")
    assert {"ecsgoo.render", "ecsgoo.render.scene", "arcade.gl"} <= names
    assert "ecsgoo.look" in imported("from .. import look", "ecsgoo.saving")


@pytest.mark.parametrize("path", PHYSICS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_physics_imports_no_rendering_and_no_arcade(path):
    assert _offences(path, ABOVE_PHYSICS) == []


@pytest.mark.parametrize("path", RENDER, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_rendering_imports_nothing_from_the_app(path):
    assert _offences(path, ABOVE_RENDER) == []


def test_stepping_a_world_loads_no_arcade():
    code = ("import sys, ecsgoo\n"
            "from ecsgoo import Particle, World, systems\n"
            "w = World().use(*(s() for s in systems.SOLVER), systems.Render())\n"
            "w.create_entity(Particle(10, 10)); w.step(2); ecsgoo.loads(ecsgoo.dumps(w))\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('arcade', 'pyglet')))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"

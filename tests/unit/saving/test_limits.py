"""One source of limits: the API and the loader accept and refuse exactly the same values.

Every checked field is tried at and around the edges of its ``limits.FIELDS``
range (and NaN, ±inf, huge ints) three ways: through the API (constructor,
setter, World setting, stage setting), in a world file, and — for particles and
springs — in a file's column form. The answers must agree, a refusal must name
the field, and whatever the API accepts must save and load back.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import ecsgoo
from ecsgoo import World, WorldError, WorldFileError, limits, systems
from ecsgoo.components import Anchor, AreaConstraint, Fruit, Particle, ShapeMatch, Spring
from ecsgoo.limits import FIELDS, Range
from ecsgoo.rigid import Joint, RigidBody


def _edges(rng: Range) -> list[Any]:
    """Values at and just past both ends of ``rng``, and the usual troublemakers."""
    if rng.integer:
        low, high = int(rng.low), int(rng.high)
        return [low - 1, low, low + 1, high - 1, high, high + 1, 2**63, -(2**63), 10**23, 0]
    out = [rng.low, math.nextafter(rng.low, -math.inf), math.nextafter(rng.low, math.inf),
           0.0, -0.0, 1.0, 0.5, math.inf, -math.inf, math.nan, 1e300, -1e300, 5e-324]
    if math.isfinite(rng.high):
        out += [rng.high, math.nextafter(rng.high, math.inf), math.nextafter(rng.high, 0.0)]
    return out


def _toml(v: Any) -> str:
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return repr(v)


def _world() -> World:
    w = World()
    for x in (10.0, 50.0, 30.0):
        w.create_entity(Particle(x, 10.0))  # entities 1, 2, 3
    return w


BASE = """format_version = 1
[world]
{world}
[[pipeline]]
stage = "integrate"
{pipeline}
[[entity]]
id = 1
particle = {{ {p1} }}
{extra1}
[[entity]]
id = 2
particle = {{ x = 50.0, y = 10.0 }}
[[entity]]
id = 3
particle = {{ x = 30.0, y = 10.0 }}
{extra}
"""


def _file(world: str = "", pipeline: str = "", p1: str = "x = 10.0, y = 10.0",
          extra1: str = "", extra: str = "") -> str:
    return BASE.format(world=world, pipeline=pipeline, p1=p1, extra1=extra1, extra=extra)


def _columns(key: str, value: str) -> str:
    cols = {"x": "[10.0, 50.0, 30.0]", "y": "10.0", key: value}
    return ("format_version = 1\n[particles]\nentity = [1, 2, 3]\n"
            + "".join(f"{k} = {v}\n" for k, v in cols.items()))


def _spring_columns(key: str, value: str) -> str:
    return ("format_version = 1\n[particles]\nentity = [1, 2]\nx = [0.0, 10.0]\ny = 0.0\n"
            f"[springs]\nentity = [3]\na = [1]\nb = [2]\n{key} = {value}\n")


def _particle_field(key: str) -> tuple[Callable[[Any], World], list[Callable[[str], str]]]:
    def api(v: Any) -> World:
        w = _world()
        if key in ("fx", "fy"):
            w.apply_force(1, *((v, 0.0) if key == "fx" else (0.0, v)))
        else:
            args = {"x": 10.0, "y": 10.0, key: v}
            w.create_entity(Particle(args.pop("x"), args.pop("y"), **args))
        return w

    def entity(v: str) -> str:
        fields = {"x": "10.0", "y": "10.0", key: v}
        return _file(p1=", ".join(f"{k} = {t}" for k, t in fields.items()))

    return api, [entity, lambda v: _columns(key, v)]


def _spring_field(key: str) -> tuple[Callable[[Any], World], list[Callable[[str], str]]]:
    def api(v: Any) -> World:
        w = _world()
        if key in ("stretch", "over"):
            setattr(w.component(w.create_entity(Spring(1, 2)), Spring), key, v)
        else:
            w.create_entity(Spring(1, 2, **{key: v}))
        return w

    def entity(v: str) -> str:
        return _file(extra=f"[[entity]]\nid = 4\nspring = {{ a = 1, b = 2, {key} = {v} }}")

    return api, [entity, lambda v: _spring_columns(key, v)]


def _body(cls: type, name: str, members: str, key: str):
    def api(v: Any) -> World:
        w = _world()
        ids = [1, 2, 3] if cls is AreaConstraint else [1, 2]
        if key == "rest":
            w.create_entity(cls(ids, rest=[[v, 0.0], [0.0, 0.0]]))
        else:
            w.create_entity(cls(ids, **{key: v}))
        return w

    def entity(v: str) -> str:
        value = f"[[{v}, 0.0], [0.0, 0.0]]" if key == "rest" else v
        return _file(extra=f"[[entity]]\nid = 4\n{name} = {{ particles = {members}, "
                           f"{key} = {value} }}")

    return api, [entity]


def _rider(key: str):
    def api(v: Any) -> World:
        w = _world()
        w.add_component(1, Fruit(v) if key == "kind" else Anchor(**{"x": 10.0, "y": 10.0,
                                                                    key: v}))
        return w

    def entity(v: str) -> str:
        if key == "kind":
            return _file(extra1=f"fruit = {{ kind = {v} }}")
        fields = {"x": "10.0", "y": "10.0", key: v}
        return _file(extra1="anchor = { " + ", ".join(f"{k} = {t}" for k, t in fields.items())
                     + " }")

    return api, [entity]


_SIZES = {"width": ("box", "[{v}, 10.0]"), "height": ("box", "[10.0, {v}]"),
          "radius": ("circle", "[{v}]"),
          "points": ("polygon", "[[0.0, 0.0], [10.0, 0.0], [{v}, 10.0]]")}


def _rigid_field(key: str):
    def api(v: Any) -> World:
        w = _world()
        if key in _SIZES:
            shape = _SIZES[key][0]
            make = {"width": lambda: RigidBody.box(10.0, 10.0, v, 10.0),
                    "height": lambda: RigidBody.box(10.0, 10.0, 10.0, v),
                    "radius": lambda: RigidBody.circle(10.0, 10.0, v),
                    "points": lambda: RigidBody.polygon(10.0, 10.0,
                                                        [[0.0, 0.0], [10.0, 0.0], [v, 10.0]])}
            w.create_entity(make[key]())
            assert w.component(4, RigidBody).shape == shape
        elif key in ("x", "y", "angle", "mass", "friction", "restitution", "group", "layer",
                     "mask"):
            args = {"x": 10.0, "y": 10.0, key: v}
            w.create_entity(RigidBody.box(args.pop("x"), args.pop("y"), 10.0, 10.0, **args))
        elif key in ("fx", "fy"):
            e = w.create_entity(RigidBody.box(10.0, 10.0, 10.0, 10.0))
            w.apply_force(e, *((v, 0.0) if key == "fx" else (0.0, v)))
        else:  # vx, vy, omega: live writes
            e = w.create_entity(RigidBody.box(10.0, 10.0, 10.0, 10.0))
            setattr(w.component(e, RigidBody), key, v)
        return w

    def entity(v: str) -> str:
        shape, size = _SIZES.get(key, ("box", "[10.0, 10.0]"))
        fields = {"shape": f'"{shape}"', "size": size.format(v=v), "x": "10.0", "y": "10.0"}
        if key not in _SIZES:
            fields[key] = v
        return _file(extra="[[entity]]\nid = 4\nbody = { "
                           + ", ".join(f"{k} = {t}" for k, t in fields.items()) + " }")

    return api, [entity]


def _joint_field(key: str):
    def api(v: Any) -> World:
        w = _world()
        args = {"x": 10.0, "y": 10.0, key: v}
        w.create_entity(Joint(1, 2, args.pop("x"), args.pop("y"), **args))
        return w

    def entity(v: str) -> str:
        fields = {"a": "1", "b": "2", "x": "10.0", "y": "10.0", key: v}
        return _file(extra="[[entity]]\nid = 4\njoint = { "
                           + ", ".join(f"{k} = {t}" for k, t in fields.items()) + " }")

    return api, [entity]


def _turning_joint_field(key: str):
    """A hinge between particle 1 and a rigid body (entity 4): limits and a motor need one."""
    def api(v: Any) -> World:
        w = _world()
        w.create_entity(RigidBody.box(30.0, 10.0, 10.0, 10.0))
        w.create_entity(Joint(1, 4, 10.0, 10.0, **{key: v}))
        return w

    def entity(v: str) -> str:
        return _file(extra='[[entity]]\nid = 4\nbody = { shape = "box", x = 30.0, y = 10.0, '
                           'size = [10.0, 10.0] }\n[[entity]]\nid = 5\njoint = { a = 1, b = 4, '
                           f"x = 10.0, y = 10.0, {key} = {v} }}")

    return api, [entity]


def _setting(key: str):
    def api(v: Any) -> World:
        if key == "grab":
            w = _world()
            w.grab(1, v, 10.0)
            return w
        value = {"gravity": (v, -980.0), "bounds": (v, 0.0, 1e9, 600.0)}.get(key, v)
        return World(**{key: value})

    def entity(v: str) -> str:
        line = {"gravity": f"gravity = [{v}, -980.0]",
                "bounds": f"bounds = [{v}, 0.0, 1000000000.0, 600.0]",
                "grab": f"grab = {{ entity = 1, x = {v}, y = 10.0 }}"}.get(key, f"{key} = {v}")
        return _file(world=line)

    return api, [entity]


def _stage(cls: type, key: str):
    def api(v: Any) -> World:
        return _world().use(cls(**{key: v}))

    def entity(v: str) -> str:
        return _file(pipeline=f'[[pipeline]]\nstage = "{cls.name}"\n{key} = {v}')

    return api, [entity]


CASES: dict[tuple[str, str], Any] = {}
for _key in FIELDS["Particle"]:
    if _key not in ("px", "py", "vx", "vy", "still", "nap"):  # px/py/still/nap: file only
        CASES["Particle", _key] = _particle_field(_key)
CASES["Particle", "vx"] = _particle_field("vx")
CASES["Particle", "vy"] = _particle_field("vy")
for _key in ("rest", "stiffness", "compliance", "max_stretch", "stretch", "over"):
    CASES["Spring", _key] = _spring_field(_key)
for _key in ("pressure", "stiffness", "rest_area"):
    CASES["AreaConstraint", _key] = _body(AreaConstraint, "area", "[1, 2, 3]", _key)
for _key in ("alpha", "rest", "scale"):
    CASES["ShapeMatch", _key] = _body(ShapeMatch, "shape", "[1, 2]", _key)
for _key in ("x", "y"):
    CASES["Anchor", _key] = _rider(_key)
for _key in FIELDS["RigidBody"]:
    if _key not in ("px", "py", "pangle", "still", "nap"):
        CASES["RigidBody", _key] = _rigid_field(_key)
for _key in ("x", "y", "max_force"):
    CASES["Joint", _key] = _joint_field(_key)
for _key in ("lower", "upper", "motor_speed", "motor_torque"):
    CASES["Joint", _key] = _turning_joint_field(_key)
CASES["Fruit", "kind"] = _rider("kind")
for _key in ("gravity", "dt", "substeps", "iterations", "damping", "bounds", "contact_slop",
             "grab", "threads"):
    CASES["World", _key] = _setting(_key)
CASES["Break", "break_frames"] = _stage(systems.Break, "break_frames")
CASES["Project", "iterations"] = _stage(systems.Project, "iterations")
for _key in ("bounce_speed", "push_speed", "hold_speed"):
    CASES["Collide", _key] = _stage(systems.Collide, _key)

#: Fields only a world file holds (no API sets them directly), or that the World's
#: entity handling owns: checked by the loader only.
FILE_ONLY = {("Particle", "px"), ("Particle", "py"), ("Spring", "a"), ("Spring", "b"),
             ("AreaConstraint", "particles"), ("ShapeMatch", "particles"),
             ("World", "frame"), ("World", "next_entity"),
             ("RigidBody", "px"), ("RigidBody", "py"), ("RigidBody", "pangle"),
             ("Joint", "a"), ("Joint", "b"), ("Joint", "ax"), ("Joint", "ay"), ("Joint", "bx"),
             ("Joint", "by"), ("Joint", "rest_angle"), ("Joint", "force"),
             ("Spring", "ax"), ("Spring", "ay"), ("Spring", "bx"), ("Spring", "by"),
             ("Joint", "ix"), ("Joint", "iy"), ("Joint", "spin"), ("Joint", "motor_impulse"),
             ("Joint", "lower_impulse"), ("Joint", "upper_impulse"), ("Particle", "still"),
             ("RigidBody", "still"), ("Joint", "ux"), ("Joint", "uy"), ("Particle", "nap"),
             ("RigidBody", "nap")}


def test_every_limit_has_a_parity_case():
    fields = {(owner, key) for owner, ranges in FIELDS.items() for key in ranges}
    assert fields - FILE_ONLY == set(CASES)


def _api(make: Callable[[Any], World], value: Any) -> World | WorldError:
    try:
        return make(value)
    except WorldError as exc:
        return exc


def _load(text: str) -> World | WorldFileError:
    try:
        return ecsgoo.loads(text)
    except WorldFileError as exc:
        return exc


#: Known gaps the parity test found (left for the owners of the module that has them).
KNOWN: dict[tuple[str, str], str] = {}


@pytest.mark.parametrize("owner, key", [
    pytest.param(*case, marks=pytest.mark.xfail(reason=KNOWN[case], strict=True))
    if case in KNOWN else case for case in sorted(CASES)], ids=lambda v: str(v))
def test_api_and_loader_accept_and_refuse_the_same_values(owner, key):
    make, files = CASES[owner, key]
    for value in _edges(FIELDS[owner][key]):
        made = _api(make, value)
        for form in files:
            loaded = _load(form(_toml(value)))
            where = f"{owner}.{key} = {value!r} ({form.__name__})"
            assert isinstance(made, World) == isinstance(loaded, World), (where, made, loaded)
            if isinstance(made, WorldError):
                assert f"field {key}" in str(made), (where, made)
                assert "field" in str(loaded) and key in str(loaded), (where, loaded)
        if isinstance(made, World):  # what the API accepts saves and loads back
            text = ecsgoo.dumps(made)
            assert ecsgoo.dumps(ecsgoo.loads(text)) == text, where


@pytest.mark.parametrize("make", [
    lambda: World(substeps=5000), lambda: World(iterations=0), lambda: World(dt=2),
    lambda: Particle(0, 0, friction=-1), lambda: Particle(0, 0, restitution=1.5),
    lambda: Particle(0, 0, radius=-1), lambda: Particle(0, 0, mass=1e-9),
    lambda: Particle(2e9, 0), lambda: Spring(1, 2, rest=1e-9), lambda: Spring(1, 2, rest=-5),
    lambda: Spring(1, 2, compliance=1e7), lambda: AreaConstraint([1, 2, 3], pressure=150),
    lambda: Anchor(1e300, 0), lambda: systems.Break(break_frames=99999999999999999999999),
    lambda: Fruit(math.nan), lambda: World(gravity=(math.nan, 0)),
    lambda: ShapeMatch([1, 2], rest=[[math.inf, 0], [0, 0]]),
])
def test_values_a_world_file_would_refuse_are_refused_by_the_api(make):
    with pytest.raises(WorldError, match="field"):
        make()


def test_live_setters_and_world_settings_are_checked():
    w = _world()
    p = w.component(1, Particle)
    s = w.component(w.create_entity(Spring(1, 2)), Spring)
    for obj, key, value in [(p, "friction", -0.5), (p, "x", 2e9), (p, "mass", 0.0),
                            (p, "group", 2**63), (s, "rest", 1e-9), (s, "stiffness", 0.0),
                            (s, "over", -1), (w, "substeps", 2000), (w, "dt", 2.0),
                            (w, "damping", math.nan), (w, "bounds", (0, 0, math.inf, 1)),
                            (w, "gravity", (0, math.inf)), (w, "iterations", 0)]:
        before = getattr(obj, key)
        with pytest.raises(WorldError, match=f"field {key}"):
            setattr(obj, key, value)
        assert getattr(obj, key) == before  # a refused write changes nothing


def test_a_pending_force_stays_in_range():
    w = _world()
    w.apply_force(1, limits.MAX_FORCE, 0.0)
    with pytest.raises(WorldError, match="field fx"):
        w.apply_force(1, limits.MAX_FORCE, 0.0)
    assert w.store.particles.force[0, 0] == limits.MAX_FORCE


def test_huge_break_frames_in_a_file_is_refused_at_load_not_at_the_first_step():
    text = _file(pipeline='[[pipeline]]\nstage = "break"\nbreak_frames = '
                          '99999999999999999999999')
    with pytest.raises(WorldFileError, match="break_frames"):
        ecsgoo.loads(text)


def test_infinite_hold_speed_saves_and_loads():
    w = _world().use(systems.Collide(hold_speed=math.inf))
    text = ecsgoo.dumps(w)
    assert "hold_speed = inf" in text
    assert ecsgoo.loads(text).pipeline[0].hold_speed == math.inf


def test_stiffness_and_compliance_map_both_ways():
    assert limits.compliance_of(1.0) == 0.0
    assert limits.compliance_of(0.5) == limits.STIFFNESS_SCALE
    assert limits.stiffness_of(limits.compliance_of(0.25)) == pytest.approx(0.25)
    assert limits.compliance_of(limits.MIN_STIFFNESS) <= limits.MAX_COMPLIANCE
    assert np.allclose(limits.stiffness_of(np.array([0.0, 1e-3])), [1.0, 0.5])
    assert Spring(1, 2, stiffness=0.5).compliance == limits.STIFFNESS_SCALE


def test_a_measured_rest_too_short_to_divide_by_is_zero():
    w = World()
    a = w.create_entity(Particle(0.0, 0.0))
    b = w.create_entity(Particle(1e-8, 0.0))
    s = w.create_entity(Spring(a, b))
    assert w.component(s, Spring).rest == 0.0
    assert ecsgoo.dumps(ecsgoo.loads(ecsgoo.dumps(w))) == ecsgoo.dumps(w)


def test_range_describes_itself():
    assert FIELDS["World"]["substeps"].describe() == "in 1..1000"
    assert FIELDS["AreaConstraint"]["stiffness"].describe() == "in (0, 1]"
    assert FIELDS["Particle"]["x"].describe() == "within ±1e+09"
    assert FIELDS["Spring"]["rest"].describe() == "0 or in 1e-06..3e+09"
    assert FIELDS["Particle"]["mass"].describe() == "in 1e-06..1e+12 or inf"
    assert FIELDS["Collide"]["hold_speed"].describe() == ">= 0"


# -- any world the API accepts saves and loads back bit for bit ---------------------------------

def _within(rng: Range, cap: float = 1e6) -> st.SearchStrategy:
    """Values the API accepts for a field: its edges more often than chance would give."""
    if rng.integer:
        low, high = int(rng.low), int(min(rng.high, 2**62))
        return st.one_of(st.sampled_from([low, high]), st.integers(low, high))
    high = rng.high if math.isfinite(rng.high) else cap
    edges = [v for v in _edges(rng) if rng.contains(v)]
    return st.one_of(st.sampled_from(edges),
                     st.floats(rng.low, high, exclude_min=rng.open_low, allow_nan=False))


def _field(owner: str, key: str, **kw: Any) -> st.SearchStrategy:
    return _within(FIELDS[owner][key], **kw)


@st.composite
def _settings(draw: Any) -> dict[str, Any]:
    bounds = draw(st.one_of(st.none(), st.tuples(*[_field("World", "bounds")] * 4)))
    return {"gravity": draw(st.tuples(*[_field("World", "gravity")] * 2)),
            "dt": draw(_field("World", "dt")), "bounds": bounds,
            "substeps": draw(st.sampled_from([1, 2, 6, 1000])),
            "iterations": draw(st.sampled_from([1, 3, 1000])),
            "threads": draw(st.sampled_from([1, 2, 256])),
            "damping": draw(_field("World", "damping")),
            "contact_slop": draw(_field("World", "contact_slop"))}


@st.composite
def _particle(draw: Any) -> list[Any]:
    keys = ("mass", "radius", "group", "friction", "restitution", "vx", "vy")
    args = {k: draw(_field("Particle", k)) for k in keys if draw(st.booleans())}
    comps: list[Any] = [Particle(draw(_field("Particle", "x")), draw(_field("Particle", "y")),
                                 **args)]
    rider = draw(st.sampled_from(["none", "anchor", "anchor at", "fruit"]))
    if rider == "anchor":
        comps.append(Anchor())
    elif rider == "anchor at":
        comps.append(Anchor(draw(_field("Anchor", "x")), draw(_field("Anchor", "y"))))
    elif rider == "fruit":
        comps.append(Fruit(draw(_field("Fruit", "kind"))))
    return comps


@st.composite
def _rigid(draw: Any) -> list[Any]:
    keys = ("angle", "mass", "friction", "restitution", "group", "layer", "mask")
    args = {k: draw(_field("RigidBody", k)) for k in keys if draw(st.booleans())}
    x, y = draw(_field("RigidBody", "x")), draw(_field("RigidBody", "y"))
    size = st.floats(1e-3, 1e3)  # (tiny sizes: see KNOWN)
    shape = draw(st.sampled_from(["box", "circle", "polygon"]))
    if shape == "box":
        body = RigidBody.box(x, y, draw(size), draw(size), **args)
    elif shape == "circle":
        body = RigidBody.circle(x, y, draw(size), **args)
    else:
        wd, ht = draw(size), draw(size)
        body = RigidBody.polygon(x, y, [[0.0, 0.0], [wd, 0.0], [wd, ht], [wd / 3, ht],
                                        [wd / 3, 2 * ht], [0.0, 2 * ht]], **args)
    return [body, Anchor()] if draw(st.booleans()) else [body]


@st.composite
def _spring(draw: Any, ends: tuple[int, int]) -> Spring:
    args: dict[str, Any] = {}
    if draw(st.booleans()):
        args["rest"] = draw(_field("Spring", "rest"))
    stiff = draw(st.sampled_from(["default", "stiffness", "compliance"]))
    if stiff != "default":
        args[stiff] = draw(_field("Spring", stiff))
    if draw(st.booleans()):
        args["max_stretch"] = draw(st.one_of(st.none(), _field("Spring", "max_stretch")))
    return Spring(*ends, **args)


@st.composite
def _stages(draw: Any) -> list[Any]:
    out = [systems.Integrate(),
           systems.Project(iterations=draw(st.one_of(st.none(), st.sampled_from([1, 2])))),
           systems.Collide(**{k: draw(_field("Collide", k)) for k in
                              ("bounce_speed", "push_speed", "hold_speed")
                              if draw(st.booleans())}),
           systems.Break(break_frames=draw(_field("Break", "break_frames")))]
    return [s for s in out if draw(st.booleans())] + [systems.Analyze(), systems.Merge()]


def _build(draw: Any) -> World:
    w = World(**draw(_settings()))
    ids = [w.create_entity(*draw(_particle())) for _ in range(draw(st.integers(1, 4)))]
    pairs = [(a, b) for a in ids for b in ids if a < b]
    for ends in draw(st.lists(st.sampled_from(pairs), max_size=3)) if pairs else []:
        s = w.component(w.create_entity(draw(_spring(ends))), Spring)
        s.stretch, s.over = draw(_field("Spring", "stretch")), draw(_field("Spring", "over"))
        s.broken = draw(st.booleans())
    if len(ids) >= 3 and draw(st.booleans()):
        w.create_entity(AreaConstraint(ids[:3], pressure=draw(_field("AreaConstraint",
                                                                     "pressure"))))
    if len(ids) >= 2 and draw(st.booleans()):
        w.create_entity(ShapeMatch(ids[-2:], alpha=draw(_field("ShapeMatch", "alpha"))))
    if draw(st.booleans()):  # a rigid body, maybe static, maybe jointed to a particle
        ids.append(w.create_entity(*draw(_rigid())))
        if draw(st.booleans()):  # a live mass write: the inertia follows it
            w.component(ids[-1], RigidBody).mass = draw(_field("RigidBody", "mass"))
        if draw(st.booleans()):
            w.create_entity(Joint(ids[-1], ids[0], draw(_field("Joint", "x")),
                                  draw(_field("Joint", "y")),
                                  max_force=draw(st.one_of(st.none(),
                                                           _field("Joint", "max_force")))))
        ids.pop()
    for e in draw(st.lists(st.sampled_from(ids), max_size=2)):  # live writes, then a retime
        key = draw(st.sampled_from(["x", "y", "vx", "vy", "mass", "radius", "group"]))
        setattr(w.component(e, Particle), key, draw(_field("Particle", key)))
    if draw(st.booleans()):
        w.dt = draw(_field("World", "dt"))
    if draw(st.booleans()):
        w.apply_force(ids[0], draw(_field("Particle", "fx")), draw(_field("Particle", "fy")))
    if draw(st.booleans()):
        w.grab(ids[-1], draw(_field("World", "grab")), draw(_field("World", "grab")))
    return w.use(*draw(_stages()))


@st.composite
def _worlds(draw: Any) -> World:
    try:
        return _build(draw)
    except WorldError:  # the API refused a combination (bounds the wrong way round, …)
        assume(False)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(w=_worlds(), compact=st.booleans())
def test_any_world_the_api_accepts_saves_and_loads_back_bit_for_bit(w, compact):
    text = ecsgoo.dumps(w, compact=compact)
    loaded = ecsgoo.loads(text)
    assert ecsgoo.dumps(loaded, compact=compact) == text
    rounds = w.substeps * max(w.iterations, 3)
    frames = 2 if rounds <= 3000 else 0  # keep the suite fast: a step of 1000² rounds is slow
    try:
        w.step(frames)
    except WorldError as error:  # sent out of the representable range: the copy too
        with pytest.raises(WorldError) as same:
            loaded.step(frames)
        assert str(same.value) == str(error)
        return
    loaded.step(frames)
    assert loaded.state_hash() == w.state_hash()


def test_a_speed_at_the_limit_far_out_saves_though_it_reads_back_an_ulp_past_it():
    """Found by the property test: vy = −1e9 at y = −1e9 with a tiny substep is stored
    as two positions whose difference reads −1.0000000000000001e9: the file refused it."""
    w = World(bounds=None, dt=1e-6, substeps=1000)
    w.create_entity(Particle(-1e9, -1e9, vy=-1e9, radius=4.0))
    assert ecsgoo.dumps(ecsgoo.loads(ecsgoo.dumps(w))) == ecsgoo.dumps(w)


def test_a_merge_past_the_limits_makes_its_fruit_at_their_edge():
    """Found by the property test: Merge built a Particle the API refuses, at a step."""
    w = World(bounds=None, gravity=(0.0, 0.0)).use(systems.Integrate(), systems.Merge())
    for x in (-1e9, -1e9 + 30.0):
        w.create_entity(Particle(x, 0.0, vx=-1e9), Fruit(0))
    merged = []
    w.set_handler("fruits_merged", lambda world, event: merged.append(event.entity))
    w.step()
    p = w.component(merged[0], Particle)
    assert p.x == -limits.MAX_COORD and -limits.MAX_SPEED <= p.vx < 0
    assert ecsgoo.dumps(ecsgoo.loads(ecsgoo.dumps(w))) == ecsgoo.dumps(w)


def test_a_particle_placed_by_writing_its_position_spawns_there():
    """Found by the property test: Merge took a moved fruit's creation point as its spawn
    point (the store's pin), which a file does not hold: the loaded world did not merge."""
    w = World(bounds=None, gravity=(0.0, 0.0)).use(systems.Merge())
    w.create_entity(Particle(0.0, 0.0), Fruit(0))
    moved = w.create_entity(Particle(10.0, 0.0), Fruit(0))
    w.component(moved, Particle).x = 500.0
    loaded = ecsgoo.loads(ecsgoo.dumps(w))
    w.step()
    loaded.step()
    assert len(w.entities()) == len(loaded.entities()) == 2
    assert loaded.state_hash() == w.state_hash()

"""Each field is declared once, by its column: the store, the components, the loader and
``limits.FIELDS`` all read the column spec (``ecsgoo.columns``)."""

from __future__ import annotations

import numpy as np
import pytest

from ecsgoo import limits
from ecsgoo.columns import AREAS, BODIES, JOINTS, PARTICLES, RINGS, SHAPES, SPRINGS, TETHERS
from ecsgoo.components import AreaConstraint, Fruit, Particle, ShapeMatch, Spring, _Field
from ecsgoo.rigid import Joint, RigidBody

SPECS = (PARTICLES, SPRINGS, AREAS, SHAPES, BODIES, JOINTS, TETHERS)
CLASSES = (Particle, Spring, AreaConstraint, ShapeMatch, RigidBody, Joint)


def test_the_old_name_of_the_area_table_is_the_same_spec() -> None:
    assert RINGS is AREAS and AREAS.component == "AreaConstraint"


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.add)
def test_every_saved_number_has_its_range_on_its_column(spec) -> None:
    for col in (*spec.fields, *spec.columns):
        if col.saved and np.dtype(col.dtype) != np.bool_:
            assert col.range is not None, f"{spec.component}.{col.name} has no range"
        if col.rate:
            assert col.rate_range is not None


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.add)
def test_limits_fields_hold_exactly_what_the_columns_declare(spec) -> None:
    fields = limits.FIELDS[spec.component]
    for key, rng in spec.ranges.items():
        assert fields[key] is rng
        assert spec.limit(key) is rng


def test_a_component_table_declares_no_range_of_its_own_in_limits() -> None:
    declared = {}
    for spec in SPECS:
        declared.setdefault(spec.component, set()).update(spec.ranges)
    for owner, keys in declared.items():
        assert set(limits.FIELDS[owner]) == keys


@pytest.mark.parametrize("cls", (*CLASSES, Fruit), ids=lambda c: c.__name__)
def test_every_field_view_takes_its_type_and_range_from_its_column(cls) -> None:
    views = {name: v for name, v in vars(cls).items() if isinstance(v, _Field)}
    assert views
    casts = {np.dtype(np.float64): float, np.dtype(np.int64): int, np.dtype(np.bool_): bool}
    for name, view in views.items():
        col = cls._spec[view.col]
        assert view.cast is casts[np.dtype(col.dtype)]
        assert view.range is limits.FIELDS.get(cls.__name__, {}).get(name)


def test_two_ranges_for_one_key_are_refused() -> None:
    with pytest.raises(ValueError, match="two ranges"):
        limits.declare("Particle", {"x": limits.UNIT})
    assert limits.FIELDS["Particle"]["x"] is limits.COORD


def test_a_write_through_a_view_is_checked_against_its_columns_range() -> None:
    from ecsgoo import World, WorldError
    w = World()
    e = w.create_entity(Particle(0, 0))
    p = w.component(e, Particle)
    p.group = 3.0  # cast by the column's dtype
    assert p.group == 3 and type(p.group) is int
    with pytest.raises(WorldError, match="friction"):
        p.friction = PARTICLES["friction"].range.high * 2

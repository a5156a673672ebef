"""One player's sheets (garden + play) as an immutable map of field id -> value.

The state is exactly what paper can show: no history. Values are kept as the strings a
field map carries, so a sheet holding a wrong value (a fruit in a vegetable cell) can
still be loaded and reported by ``validate.check`` instead of refused.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from companion.errors import UnknownNameError
from companion.games.delicious.garden import HONEY_FIELD, Container, Garden, choice_id, garden
from companion.games.delicious.symbols import (
    CHOICE_CIRCLES_PER_OPTION,
    Area,
    ContainerKind,
    Fruit,
    Mark,
    PlantChoice,
    Vegetable,
)

_VEGETABLES = {v.value: v for v in Vegetable}
_FRUITS = {f.value: f for f in Fruit}


@dataclass(frozen=True, eq=False)
class SheetState:
    """A player's sheet; ``with_values`` returns a changed copy, never mutates."""

    variant: str
    _values: Mapping[str, str] = field(repr=False)

    def __post_init__(self) -> None:
        garden(self.variant)  # raises for an unknown variant
        object.__setattr__(self, "_values", MappingProxyType(dict(self._values)))

    # ---- construction ------------------------------------------------------------
    @classmethod
    def empty(cls, variant: str = "A") -> SheetState:
        return cls(variant, {})

    @classmethod
    def from_field_map(cls, fields: Mapping[str, str], variant: str) -> SheetState:
        """Build from a field map; unknown field ids are refused, odd values kept."""
        known = garden(variant).field_kinds()
        for fid, value in fields.items():
            if fid not in known:
                raise UnknownNameError(f"unknown field id {fid!r} for garden {variant}")
            if not isinstance(value, str):
                raise UnknownNameError(f"field {fid!r} holds {value!r}, not a name")
        return cls(variant, {k: v for k, v in fields.items() if v})

    def to_field_map(self) -> dict[str, str]:
        return dict(sorted(self._values.items()))

    def with_values(self, updates: Mapping[str, str | None]) -> SheetState:
        """A copy with fields set (``None`` or ``""`` empties a field)."""
        new = dict(self._values)
        for fid, value in updates.items():
            if value:
                new[fid] = value
            else:
                new.pop(fid, None)
        return SheetState(self.variant, new)

    # ---- value access ------------------------------------------------------------
    @property
    def garden(self) -> Garden:
        return garden(self.variant)

    def get(self, field_id: str) -> str | None:
        return self._values.get(field_id)

    def items(self) -> Iterator[tuple[str, str]]:
        return iter(self._values.items())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SheetState):
            return NotImplemented
        return self.variant == other.variant and dict(self._values) == dict(other._values)

    def __hash__(self) -> int:
        return hash((self.variant, frozenset(self._values.items())))

    def vegetable(self, field_id: str) -> Vegetable | None:
        value = self._values.get(field_id)
        return _VEGETABLES.get(value) if value else None

    def fruit(self, field_id: str) -> Fruit | None:
        value = self._values.get(field_id)
        return _FRUITS.get(value) if value else None

    def is_empty(self, field_id: str) -> bool:
        return field_id not in self._values

    # ---- derived facts -----------------------------------------------------------
    def container_vegetables(self, container: Container) -> list[Vegetable]:
        return [v for c in container.cells if (v := self.vegetable(c)) is not None]

    def row_full(self, container: Container, row: int) -> bool:
        return all(c in self._values for c in container.rows[row].cells)

    def is_full(self, container: Container) -> bool:
        return all(c in self._values for c in container.cells)

    def area_full(self, area: Area) -> bool:
        return all(self.is_full(c) for c in self.garden.area(area))

    def full_rows(self, container: Container) -> int:
        """How many rows from the bottom are completely filled."""
        n = 0
        for row in container.rows:
            if not all(c in self._values for c in row.cells):
                break
            n += 1
        return n

    def open_row(self, container: Container) -> int | None:
        """The one row bottom-up filling allows now, or None when full."""
        n = self.full_rows(container)
        return n if n < len(container.rows) else None

    def circles_marked(self, choice: PlantChoice) -> int:
        return sum(
            1 for i in range(CHOICE_CIRCLES_PER_OPTION) if choice_id(choice, i) in self._values
        )

    def circles_left(self, choice: PlantChoice) -> int:
        return CHOICE_CIRCLES_PER_OPTION - self.circles_marked(choice)

    def next_circle(self, choice: PlantChoice) -> str | None:
        for i in range(CHOICE_CIRCLES_PER_OPTION):
            if choice_id(choice, i) not in self._values:
                return choice_id(choice, i)
        return None

    @property
    def honey(self) -> bool:
        return self._values.get(HONEY_FIELD) == Mark.CIRCLED

    def first_potter(self, container: Container) -> str | None:
        return self._values.get(container.first_potter)

    def fits_kind(self, container: Container, cell: str, veg: Vegetable) -> str | None:
        """Why ``veg`` may not go into ``cell`` by the container's kind, or None."""
        others = [(c, v) for c in container.cells if c != cell and (v := self.vegetable(c))]
        if container.kind is ContainerKind.SAME:
            if any(v is not veg for _, v in others):
                return f"the {container.id} holds only one vegetable ({others[0][1]})"
        elif container.kind is ContainerKind.DIFFERENT:
            if any(v is veg for _, v in others):
                return f"the {container.id} already holds a {veg}; every vegetable must differ"
        else:
            partner = next(b if a == cell else a for a, b in container.pairs if cell in (a, b))
            mate = self.vegetable(partner)
            if mate is not None and mate is not veg:
                return f"its linked space holds {mate}; a pair is two of one vegetable"
            if mate is None and any(v is veg for c, v in others if c != partner):
                return f"another pair in the {container.id} already holds {veg}"
        return None

"""Game values of Delicious: plants, garden icons, tools, plant choices."""

from __future__ import annotations

from enum import StrEnum


class Vegetable(StrEnum):
    BROCCOLI = "broccoli"
    CARROT = "carrot"
    LETTUCE = "lettuce"
    MUSHROOM = "mushroom"
    ONION = "onion"
    PEPPER = "pepper"

    @property
    def letter(self) -> str:
        return VEGETABLE_LETTERS[self]


class Fruit(StrEnum):
    BLUEBERRY = "blueberry"
    FIG = "fig"
    GOLDEN_RASPBERRY = "golden-raspberry"
    STRAWBERRY = "strawberry"
    WATERMELON = "watermelon"

    @property
    def letter(self) -> str:
        return FRUIT_LETTERS[self]


class Shape(StrEnum):
    """Garden icon on a card, and the shape of a planter space."""

    HEXAGON = "hexagon"
    OVAL = "oval"
    STAR = "star"


class Tool(StrEnum):
    TROWEL = "trowel"
    RAKE = "rake"
    SHEARS = "shears"
    HOE = "hoe"
    GLOVES = "gloves"
    SPADE = "spade"


class Area(StrEnum):
    TOP = "top"
    BOTTOM = "bottom"

    @property
    def other(self) -> Area:
        return Area.BOTTOM if self is Area.TOP else Area.TOP


class ContainerKind(StrEnum):
    SAME = "same"
    DIFFERENT = "different"
    PAIRS = "pairs"


class Mark(StrEnum):
    """What a player puts on a mark field (a field map's value there)."""

    CHECK = "check"  # First Potter: first to complete the container
    CROSS = "cross"  # First Potter crossed out; a tool used
    MARKED = "marked"  # a Plant Choice circle used
    CIRCLED = "circled"  # the Jar of Honey claimed


class PlantChoice(StrEnum):
    ONE_AS_IS = "1-as-is"
    ONE_REVERSE = "1-reverse"
    TWO_AS_IS = "2-as-is"
    TWO_ANYWHERE = "2-anywhere"


# Letters printed on the Play sheet legend for players who don't sketch (docs/rules-readings.md).
VEGETABLE_LETTERS: dict[Vegetable, str] = {
    Vegetable.BROCCOLI: "B",
    Vegetable.CARROT: "C",
    Vegetable.LETTUCE: "L",
    Vegetable.MUSHROOM: "M",
    Vegetable.ONION: "O",
    Vegetable.PEPPER: "P",
}
FRUIT_LETTERS: dict[Fruit, str] = {
    Fruit.BLUEBERRY: "B",
    Fruit.FIG: "F",
    Fruit.GOLDEN_RASPBERRY: "G",
    Fruit.STRAWBERRY: "S",
    Fruit.WATERMELON: "W",
}
# What a vegetable or fruit field may hold, as written in field maps.
VEGETABLE_NAMES: tuple[str, ...] = tuple(v.value for v in Vegetable)
FRUIT_NAMES: tuple[str, ...] = tuple(f.value for f in Fruit)
CHOICE_CIRCLES_PER_OPTION = 3
ROUNDS = 12

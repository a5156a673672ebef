"""Deli Duel's cards as data: the deck composition and the crook-card naming.

The rulebook's component list and its card explanations name two crook cards
differently. We read each pair as one card and keep one canonical name, named for what
the card does; the list name and the other spellings are accepted as aliases:

* "Swap Ingredients" (list, 4 copies) is the card explained as "Steal Ingredient".
  Canonical: ``steal-ingredient``. (Not to be confused with the Swap *action*.)
* "Steal Point" (list, 3 copies) is the card explained as "Food Critic".
  Canonical: ``food-critic``.
* "Kitchen Mix-up" (list) is explained as "Mix-up". Canonical: ``mix-up``.

The list counts 16 crook cards including 2 Health Inspectors; the rulebook then says the
game ships with only 1, so the current deck has 15 crook cards (``DEMO_PACK`` keeps 2).
"""

from __future__ import annotations

from enum import StrEnum
from types import MappingProxyType

from companion.errors import UnknownNameError


class Ingredient(StrEnum):
    WHITE_BREAD = "white-bread"
    RYE_BREAD = "rye-bread"
    GRAIN_BREAD = "grain-bread"
    CHEESE = "cheese"
    LETTUCE = "lettuce"
    TOMATO = "tomato"
    HAM = "ham"
    CHICKEN = "chicken"
    MAYO = "mayo"
    PICKLES = "pickles"
    BUTTER = "butter"
    SPRINKLES = "sprinkles"

    @property
    def is_bread(self) -> bool:
        return self in BREADS


class Crook(StrEnum):
    WILD = "wild"
    STEAL_INGREDIENT = "steal-ingredient"
    FOOD_CRITIC = "food-critic"
    MIX_UP = "mix-up"
    HEALTH_INSPECTOR = "health-inspector"


BREADS = frozenset({Ingredient.WHITE_BREAD, Ingredient.RYE_BREAD, Ingredient.GRAIN_BREAD})
FAIRY_BREAD = (Ingredient.WHITE_BREAD, Ingredient.BUTTER, Ingredient.SPRINKLES)

INGREDIENT_COUNTS = MappingProxyType(
    {
        Ingredient.WHITE_BREAD: 8,
        Ingredient.RYE_BREAD: 8,
        Ingredient.GRAIN_BREAD: 8,
        Ingredient.CHEESE: 8,
        Ingredient.LETTUCE: 7,
        Ingredient.TOMATO: 7,
        Ingredient.HAM: 6,
        Ingredient.CHICKEN: 6,
        Ingredient.MAYO: 3,
        Ingredient.PICKLES: 3,
        Ingredient.BUTTER: 1,
        Ingredient.SPRINKLES: 1,
    }
)

CROOK_COUNTS = MappingProxyType(
    {
        Crook.WILD: 5,
        Crook.STEAL_INGREDIENT: 4,
        Crook.FOOD_CRITIC: 3,
        Crook.MIX_UP: 2,
        Crook.HEALTH_INSPECTOR: 1,
    }
)
DEMO_PACK_HEALTH_INSPECTORS = 2  # early demo packs had a second one; set it aside

# Names printed in the component list, for documentation and reports.
LIST_NAMES = MappingProxyType(
    {
        Crook.WILD: "Wild Cards",
        Crook.STEAL_INGREDIENT: "Swap Ingredients",
        Crook.FOOD_CRITIC: "Steal Point",
        Crook.MIX_UP: "Kitchen Mix-up",
        Crook.HEALTH_INSPECTOR: "Health Inspector",
    }
)

CROOK_ALIASES = MappingProxyType(
    {
        "wild-card": Crook.WILD,
        "swap-ingredient": Crook.STEAL_INGREDIENT,
        "swap-ingredients": Crook.STEAL_INGREDIENT,
        "steal-point": Crook.FOOD_CRITIC,
        "steal-points": Crook.FOOD_CRITIC,
        "kitchen-mix-up": Crook.MIX_UP,
        "kitchen-mixup": Crook.MIX_UP,
        "mixup": Crook.MIX_UP,
    }
)

INGREDIENT_NAMES = frozenset(i.value for i in Ingredient)
REGULAR_ORDER_CARDS = 21
ORDER_CARDS = REGULAR_ORDER_CARDS + 1  # plus the Fairy Bread order
HAND_SIZE = 7


def _key(name: str) -> str:
    return name.strip().lower().replace(" ", "-").replace("_", "-")


def ingredient(name: str) -> Ingredient:
    try:
        return Ingredient(_key(name))
    except ValueError:
        raise UnknownNameError(
            f"unknown ingredient {name!r}; use one of {', '.join(Ingredient)}"
        ) from None


def crook(name: str) -> Crook:
    key = _key(name)
    if key in CROOK_ALIASES:
        return CROOK_ALIASES[key]
    try:
        return Crook(key)
    except ValueError:
        raise UnknownNameError(
            f"unknown crook card {name!r}; use one of {', '.join(Crook)}"
        ) from None


def card(name: str) -> Ingredient | Crook:
    """An ingredient or a crook card, by canonical name or alias."""
    key = _key(name)
    if key in INGREDIENT_NAMES:
        return Ingredient(key)
    return crook(name)


def crook_counts(demo_pack: bool = False) -> dict[Crook, int]:
    counts = dict(CROOK_COUNTS)
    if demo_pack:
        counts[Crook.HEALTH_INSPECTOR] = DEMO_PACK_HEALTH_INSPECTORS
    return counts


def deck_size(demo_pack: bool = False) -> int:
    """Ingredient plus crook cards shuffled into the draw deck."""
    return sum(INGREDIENT_COUNTS.values()) + sum(crook_counts(demo_pack).values())

"""Hand-drawn blocks for the Diced Veggies tests (imported by the other dice tests).

A drawing is rows of tokens separated by spaces: a digit is a die showing that many pips,
``.`` an empty cell. Ingredients cycle through the five by position unless a token
carries a letter prefix (``c2`` carrot 2, ``m3``, ``o4``, ``p5``, ``t6``).
"""

from __future__ import annotations

from companion.games.diced_veggies.model import Block, Die, Ingredient

LETTERS = {"c": Ingredient.CARROT, "m": Ingredient.MUSHROOM, "o": Ingredient.ONION,
           "p": Ingredient.PEPPER, "t": Ingredient.TOMATO}


def drawn(text: str, *, require_connected: bool = True) -> Block:
    dice = []
    kinds = list(Ingredient)
    for r, line in enumerate(line for line in text.strip().splitlines() if line.strip()):
        for c, token in enumerate(line.split()):
            if token == ".":
                continue
            if token[0] in LETTERS:
                ingredient, value = LETTERS[token[0]], int(token[1:])
            else:
                ingredient, value = kinds[(r * 7 + c) % 5], int(token)
            dice.append(Die(r, c, ingredient, value))
    return Block.of(dice, require_connected=require_connected)


def test_drawing_helper():
    block = drawn("""
    c2 .
    t6 3
    """)
    assert [(d.cell, d.ingredient, d.value) for d in block.dice] == [
        ((0, 0), Ingredient.CARROT, 2),
        ((1, 0), Ingredient.TOMATO, 6),
        ((1, 1), list(Ingredient)[(7 + 1) % 5], 3),
    ]

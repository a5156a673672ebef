"""The Diced Veggies reader: the dice block on its mat, each die's ingredient and pips."""

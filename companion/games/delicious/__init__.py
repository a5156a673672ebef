"""The Delicious rules engine (pure Python).

garden/symbols: the sheets and every field id; state: one player's sheet; fieldmap:
loading field maps; moves/game: round-by-round play; validate/table: what final sheets
can show to be wrong; scoring: points and ranking; deck/simulate: simulated games.
"""

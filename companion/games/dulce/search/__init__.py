"""The exact search for the best scoring phase (``Evaluator``) and its parts: kitchen
tables, live cafés and parts, point and value ceilings, and the flow networks behind
the point ceilings."""

from companion.games.dulce.search.evaluator import ANY, Evaluator, collector_paused

__all__ = ["ANY", "Evaluator", "collector_paused"]

"""Printable sheets, photo readers and score-assist engines for food-themed tabletop games."""

__version__ = "0.1.0"

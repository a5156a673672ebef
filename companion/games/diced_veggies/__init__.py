"""Diced Veggies: the block of dice, cleaver cuts, turn rules and final scoring.

Pure rules (no OpenCV, ReportLab or click). Start from ``model.Block``.
"""

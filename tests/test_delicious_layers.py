"""The Delicious engine stays pure: no OpenCV, ReportLab, click or PIL, no file writes."""

from __future__ import annotations

import ast
from pathlib import Path

import companion.games.delicious as pkg

FORBIDDEN = {"cv2", "reportlab", "click", "PIL", "numpy"}


def test_engine_imports_no_io_libraries():
    for path in Path(pkg.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"

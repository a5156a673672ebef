"""Where the shipped model files live: package data of ``companion.assets``.

pyproject maps that package to the repository's top-level ``assets/`` folder, so an
editable install reads the checkout's files and a wheel carries its own copies; both are
found the same way, through importlib.resources.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from companion.errors import MissingToolError

PACKAGE = "companion.assets"


def assets_folder() -> Path:
    """The folder of the shipped models, on disk (onnxruntime and OpenCV open paths)."""
    try:
        folder = resources.files(PACKAGE)
    except ModuleNotFoundError as exc:  # a bare checkout on PYTHONPATH, never installed
        raise MissingToolError(f"the model files ({PACKAGE}) are not installed: "
                               "run `make setup` or `pip install .`") from exc
    if not isinstance(folder, Path):  # a zipped install; pip always unpacks a wheel
        raise MissingToolError(f"the model files ({PACKAGE}) are not a folder: {folder}")
    return folder


def asset_path(name: str) -> Path:
    """The path of a shipped file; it may be missing, so a missing-model error names the
    place a developer would look."""
    return assets_folder() / name

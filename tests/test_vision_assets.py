"""The shipped model files are found in a checkout and shipped by a regular install."""

from __future__ import annotations

import tomllib
from pathlib import Path

from companion.vision.assets import CHECKOUT_ASSETS, asset_path

ROOT = Path(__file__).resolve().parents[1]


def test_checkout_copy_is_found_first() -> None:
    assert asset_path("letters.onnx") == CHECKOUT_ASSETS / "letters.onnx"
    assert asset_path("letters.onnx").is_file()


def test_missing_file_names_the_checkout_path() -> None:
    assert asset_path("no-such-model.onnx") == CHECKOUT_ASSETS / "no-such-model.onnx"


def test_every_asset_is_installed_by_pyproject() -> None:
    """A model added to assets/ but not to data-files would be missing from a wheel."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    shipped = {Path(p).name for files in config["tool"]["setuptools"]["data-files"].values()
               for p in files}
    present = {p.name for p in (ROOT / "assets").iterdir() if p.suffix in (".onnx", ".json")}
    assert present == shipped

"""The shipped model files are found through importlib.resources, in the checkout's assets/."""

from __future__ import annotations

from pathlib import Path

from companion.vision.assets import asset_path

ROOT = Path(__file__).resolve().parents[1]


def test_the_editable_install_reads_the_checkouts_assets() -> None:
    assert asset_path("letters.onnx") == ROOT / "assets" / "letters.onnx"
    assert asset_path("letters.onnx").is_file()


def test_missing_file_names_the_checkout_path() -> None:
    assert asset_path("no-such-model.onnx") == ROOT / "assets" / "no-such-model.onnx"

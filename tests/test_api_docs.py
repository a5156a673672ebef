"""The Python API as docs/api.md shows it: its examples run, and ``import companion``
stays light; docs/web-api.md names the JSON endpoints."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
API_DOC = ROOT / "docs" / "api.md"
WEB_API_DOC = ROOT / "docs" / "web-api.md"
HEAVY = ("cv2", "numpy", "reportlab", "onnxruntime", "pypdfium2", "PIL")


def _examples() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", API_DOC.read_text(), re.M | re.S)


def test_import_companion_loads_no_vision_or_drawing_library() -> None:
    code = ("import sys, companion; "
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.split() == []


def test_the_readers_import_the_vision_stack_on_first_call() -> None:
    code = ("import sys, companion; companion.read_dice('examples/dice/photos/mat-full.jpg'); "
            "print('cv2' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "True"


def test_the_package_says_it_is_typed() -> None:
    assert (ROOT / "companion" / "py.typed").is_file()
    assert 'companion = ["py.typed"]' in (ROOT / "pyproject.toml").read_text()


def test_the_doc_has_examples_and_the_web_api_page_its_endpoints() -> None:
    assert len(_examples()) >= 5
    assert "(web-api.md)" in API_DOC.read_text()
    endpoints = WEB_API_DOC.read_text().split("## Endpoints", 1)[1]
    for endpoint in ("POST /api/delicious/read", "POST /api/dice/read", "POST /api/dice/cuts"):
        assert endpoint in endpoints, endpoint


@pytest.mark.slow
def test_every_example_in_the_api_doc_runs(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """The blocks run in order in one namespace, as a reader would type them."""
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {"__name__": "api_doc"}
    for i, block in enumerate(_examples()):
        try:
            exec(compile(block, f"{API_DOC.name} example {i + 1}", "exec"), namespace)
        except Exception as exc:  # name the example that failed
            raise AssertionError(f"example {i + 1} of {API_DOC.name} failed: {exc!r}\n"
                                 f"{block}") from exc
    assert capsys.readouterr().out  # the examples show their results


def test_something_that_is_not_a_photo_is_one_clear_error() -> None:
    import companion
    from companion.errors import InputError

    for reader in (companion.read_sheet, companion.read_dice):
        with pytest.raises(InputError, match="photo path or an image array"):
            reader(42)  # type: ignore[arg-type]

"""``pip install .`` installs what ``companion`` runs, and nothing else.

pyproject lists the packages by hand (``companion.assets`` is the top-level assets/ folder,
which discovery cannot map), so the fast tests check that list and the package data against
the folders; the slow one builds the wheel, installs it into a fresh venv outside the
checkout and reads the example photos there.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.conftest import invoke

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
PACKAGE_DIRS = {"companion.assets": "assets"}  # what pyproject's package-dir must say
PHOTOS = ROOT / "examples" / "delicious" / "photos"
DICE = ROOT / "examples" / "dice" / "photos"
# The reads compared between the checkout and the installed wheel.
DELICIOUS_READS = (
    sorted(PHOTOS.glob("combo-*.jpg")),
    [PHOTOS / "garden-player3.jpg", PHOTOS / "play-player3.jpg"],
)


def _untimed(out: str) -> str:
    """A read's JSON text with its timings (the one field that differs run to run) zeroed."""
    return re.sub(r'"seconds": [0-9.e+-]+', '"seconds": 0', out)


def _package_dir(package: str) -> Path:
    mapped = CONFIG.get("package-dir", {}).get(package)
    return ROOT / (mapped if mapped else package.replace(".", "/"))


def _code_packages() -> set[str]:
    """Every folder under companion/ and layouts/ that holds Python code, as a package."""
    return {
        ".".join(folder.relative_to(ROOT).parts)
        for top in ("companion", "layouts")
        for folder in [ROOT / top, *(ROOT / top).rglob("*")]
        if folder.is_dir() and folder.name != "__pycache__" and any(folder.glob("*.py"))
    }


def test_the_listed_packages_are_the_code_folders_and_the_assets() -> None:
    assert CONFIG.get("package-dir") == PACKAGE_DIRS
    assert set(CONFIG["packages"]) == _code_packages() | set(PACKAGE_DIRS)
    assert not [p for p in CONFIG["packages"] if p.split(".")[0] not in ("companion", "layouts")]


def test_every_data_file_is_package_data() -> None:
    """A template, script or model added but not matched by package-data would be missing
    from a wheel while the checkout still works."""
    data = CONFIG["package-data"]
    shipped = {
        path
        for package in CONFIG["packages"]
        for pattern in [*data.get("*", []), *data.get(package, [])]
        for path in _package_dir(package).glob(pattern)
    }
    present = {
        path
        for folder in ("companion", "layouts", "assets")
        for path in (ROOT / folder).rglob("*")
        if path.is_file() and path.suffix != ".py" and "__pycache__" not in path.parts
    }
    assert present - shipped == set()
    models = {p.name for p in shipped if p.parent == ROOT / "assets"}
    assert models >= {"letters.onnx", "letters.json", "marks.onnx", "marks.json"}


def _source_copy(dest: Path) -> Path:
    """The checkout's files as git sees them (tracked or new, not ignored): a stale build/
    or egg-info in the checkout must not reach the wheel."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        if (ROOT / name).is_file():  # a file deleted but not yet staged is still listed
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


def _run(*args: str | Path, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=900, check=False)


@pytest.mark.slow
def test_a_wheel_in_a_fresh_venv_reads_the_examples_as_the_checkout(tmp_path: Path) -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout to know which files to build from")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    source = _source_copy(tmp_path / "src")
    wheels = tmp_path / "wheels"
    built = _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", wheels,
                 source, cwd=tmp_path, env=env)
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("companion-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names} == {"companion", "layouts",
                                                 wheel.name.split("-py")[0] + ".dist-info"}
    assert not [n for n in names if "synth" in n.split("/") or n.startswith("tests/")]
    assets = {p.name for p in (ROOT / "assets").iterdir() if p.suffix in (".onnx", ".json")}
    assert {f"companion/assets/{a}" for a in assets} <= set(names)

    venv = tmp_path / "venv"
    made = _run(sys.executable, "-m", "venv", venv, cwd=tmp_path, env=env)
    assert made.returncode == 0, made.stderr
    # The libraries the checkout runs with, at the same versions: a reader's confidences
    # move with a new OpenCV release, and this test compares the package, not releases.
    frozen = _run(sys.executable, "-m", "pip", "freeze", "--exclude-editable", cwd=tmp_path,
                  env=env)
    assert frozen.returncode == 0, frozen.stderr
    pins = tmp_path / "constraints.txt"
    pins.write_text("\n".join(line for line in frozen.stdout.splitlines()
                              if "==" in line and not line.lower().startswith("companion")))
    installed = _run(venv / "bin" / "pip", "install", "-q", "--disable-pip-version-check",
                     "-c", pins, wheel, cwd=tmp_path, env=env)
    assert installed.returncode == 0, installed.stderr

    # Run from a folder outside the checkout, so nothing can be imported from it.
    here = tmp_path / "elsewhere"
    here.mkdir()
    for photos in DELICIOUS_READS:
        args = ["delicious", "read", "--json", *map(str, photos)]
        ours, theirs = invoke(*args), _run(venv / "bin" / "companion", *args, cwd=here, env=env)
        assert (theirs.returncode, theirs.stderr) == (ours.exit_code, ours.stderr), args
        assert '"seconds"' in ours.stdout and '"fields"' in ours.stdout, args
        assert _untimed(theirs.stdout) == _untimed(ours.stdout), args
    for photo in sorted(DICE.glob("*.jpg")):
        args = ["dice", "read", "--json", str(photo)]
        ours, theirs = invoke(*args), _run(venv / "bin" / "companion", *args, cwd=here, env=env)
        assert '"dice"' in ours.stdout, args
        assert ((theirs.returncode, _untimed(theirs.stdout))
                == (ours.exit_code, _untimed(ours.stdout))), args

    where = _run(venv / "bin" / "python", "-c",
                 "import companion.vision.assets as a; print(a.assets_folder())", cwd=here, env=env)
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stderr
    for dev_only in ("companion.synth", "tools", "tools.synth"):
        missing = _run(venv / "bin" / "python", "-c", f"import {dev_only}", cwd=here, env=env)
        assert missing.returncode != 0 and "ModuleNotFoundError" in missing.stderr, dev_only

"""The install: Kaisa's engine needs no pooltool; pooltool 0.6.0 (on PyPI's panda3d 1.10) is the development
reference, pinned by the lock file."""

import tomllib
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_pooltool_is_0_6_0_not_the_silent_fallback():
    assert version("pooltool-billiards") == "0.6.0"
    import pooltool

    assert pooltool.__version__.startswith("0.6.0")


def test_panda3d_is_pypis_1_10():
    assert version("panda3d").startswith("1.10.")


def test_lock_file_pins_the_engine_and_the_override():
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    versions = {p["name"]: p["version"] for p in lock["package"]}
    assert versions["pooltool-billiards"] == "0.6.0"
    assert versions["panda3d"].startswith("1.10.")
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["tool"]["uv"]["override-dependencies"] == ["panda3d>=1.10.13,<1.11"]
    assert "pooltool-billiards==0.6.0" in pyproject["dependency-groups"]["dev"]
    runtime = " ".join(pyproject["project"]["dependencies"])
    assert "pooltool" not in runtime
    assert "panda3d" not in runtime


def test_only_the_physics_reference_imports_pooltool():
    """DESIGN.md: pooltool is the engine's reference, imported by kaisa.physics.reference and .fast only."""
    src = ROOT / "src" / "kaisa"
    offenders = sorted(
        str(path.relative_to(src))
        for path in src.rglob("*.py")
        if str(path.relative_to(src)) not in ("physics/reference.py", "physics/fast.py")
        and any(
            line.lstrip().startswith(("import pooltool", "from pooltool")) for line in path.read_text().splitlines()
        )
    )
    assert offenders == []

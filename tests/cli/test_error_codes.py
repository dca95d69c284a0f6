"""Every error has its own stable code (issue 16: game and web errors answered the generic ``invalid-input``):
the codes are listed from the classes themselves, checked unique, worded in Finnish and English, and each is in
the README's table of codes."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import kaisa
from kaisa.errors import KaisaError

pytestmark = pytest.mark.slow  # imports every module of the package, pooltool and the web included

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def _subclasses(cls: type[KaisaError]) -> Iterator[type[KaisaError]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _every_error() -> list[type[KaisaError]]:
    """Every KaisaError subclass in the package (each module imported, the migrations aside)."""
    for module in pkgutil.walk_packages(kaisa.__path__, "kaisa."):
        if ".migrations." not in module.name:
            importlib.import_module(module.name)
    return sorted(set(_subclasses(KaisaError)), key=lambda c: (c.__module__, c.__name__))


def _sets_code_per_instance(cls: type[KaisaError]) -> bool:
    """A refusal whose instances carry finer codes of their own (the club's, the kaavio's, a marking's)."""
    init = cls.__dict__.get("__init__")
    return init is not None and "self.code =" in inspect.getsource(init)


def _class_codes() -> dict[str, type[KaisaError]]:
    codes: dict[str, type[KaisaError]] = {}
    for cls in _every_error():
        if _sets_code_per_instance(cls):
            continue
        assert "code" in cls.__dict__, f"{cls.__module__}.{cls.__name__} answers its parent's code {cls.code!r}"
        assert cls.code not in codes, f"{cls.__name__} and {codes[cls.code].__name__} share the code {cls.code!r}"
        codes[cls.code] = cls
    return codes


def test_every_error_class_has_its_own_unique_code() -> None:
    codes = _class_codes()
    assert "invalid-input" not in codes
    assert len(codes) >= 25
    for code in codes:
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", code), code


def test_every_error_says_its_kind_in_finnish_and_english() -> None:
    for code, cls in _class_codes().items():
        assert "kind" in cls.__dict__, f"{cls.__name__} ({code}) has no Finnish and English kind of its own"
        fi, en = cls.kind.fi, cls.kind.en
        assert fi != en, code
        assert fi.endswith("."), code
        assert en.endswith("."), code


def test_every_code_is_in_the_readmes_table() -> None:
    documented = set(re.findall(r"\| `([a-z-]+)` \|", README))
    missing = set(_class_codes()) - documented
    assert not missing, f"codes missing from the README's table: {sorted(missing)}"

"""Every ecosystem's range syntax becomes PEP 440, so 'does any release fit?' has one answer."""

from __future__ import annotations

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from depinfer.ci.constraints import to_pep440


@pytest.mark.parametrize(
    ("language", "constraint", "fits", "does_not_fit"),
    [
        ("python", ">=2.31", "2.32.0", "2.30"),
        ("python", "^1.2.3", "1.9", "2.0"),  # Poetry caret
        ("python", "^0.2.3", "0.2.9", "0.3.0"),
        ("python", "~1.2.3", "1.2.9", "1.3.0"),  # Poetry tilde
        ("rust", "1.0", "1.9.0", "2.0.0"),  # Cargo: bare version is a caret requirement
        ("rust", "0.2", "0.2.5", "0.3.0"),
        ("rust", "=1.2.3", "1.2.3", "1.2.4"),
        ("javascript", "^4.19.0", "4.21.0", "5.0.0"),
        ("javascript", "~1.2.3", "1.2.8", "1.3.0"),
        ("javascript", ">=1 <2", "1.5.0", "2.0.0"),
        ("javascript", "1.x", "1.4.0", "2.0.0"),
        ("javascript", "4.17.21", "4.17.21", "4.17.20"),  # npm: bare version is exact
        ("csharp", "13.0.3", "13.0.4", "13.0.2"),  # NuGet: bare version is a minimum
        ("csharp", "[1.0,2.0)", "1.5", "2.0"),
    ],
)
def test_translation_keeps_the_meaning(
    language: str, constraint: str, fits: str, does_not_fit: str
) -> None:
    specs = [SpecifierSet(s) for s in to_pep440(language, constraint)]
    assert any(s.contains(Version(fits), prereleases=True) for s in specs)
    assert not any(s.contains(Version(does_not_fit), prereleases=True) for s in specs)


def test_alternatives_any_may_match() -> None:
    assert to_pep440("javascript", "^1 || ^2") == [">=1,<2", ">=2,<3"]


@pytest.mark.parametrize(
    ("language", "constraint"),
    [
        ("javascript", "workspace:*"),
        ("javascript", "file:../x"),
        ("javascript", "github:o/r"),
        ("rust", "workspace"),
        ("csharp", "$(SerilogVersion)"),
    ],
)
def test_constraints_without_a_version_are_not_judged(language: str, constraint: str) -> None:
    assert to_pep440(language, constraint) is None


@pytest.mark.parametrize("constraint", ["*", "", "latest"])
def test_any_version(constraint: str) -> None:
    assert to_pep440("javascript", constraint) == [""]

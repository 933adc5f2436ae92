"""The house rules of DESIGN.md, checked on depinfer's own source (see tests/architecture.py).

The layer order itself is import-linter's contract in pyproject.toml, run by .ci/run.
"""

from dataclasses import fields

import architecture
import pytest

from depinfer.model import Candidate, ImportRef, Requirement


@pytest.mark.parametrize("check", sorted(architecture.CHECKS))
def test_house_rule_holds(check):
    found = architecture.CHECKS[check]()
    assert not found, f"{check}:\n" + "\n".join(found)


@pytest.mark.parametrize("kind", [ImportRef, Candidate, Requirement])
def test_stages_hand_typed_facts_not_untyped_dicts(kind):
    typed = {f.name: f.type for f in fields(kind)}
    assert "extra" not in typed
    assert not [name for name, t in typed.items() if "dict[str, Any]" in str(t)]

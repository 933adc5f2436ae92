"""The house rules of DESIGN.md, checked on depinfer's own source (see tests/architecture.py).

The layer order itself is import-linter's contract in pyproject.toml, run by .ci/run.
"""

import architecture
import pytest


@pytest.mark.xfail(reason="#21 under way: the refactor branches are being merged", strict=False)
@pytest.mark.parametrize("check", sorted(architecture.CHECKS))
def test_house_rule_holds(check):
    found = architecture.CHECKS[check]()
    assert not found, f"{check}:\n" + "\n".join(found)

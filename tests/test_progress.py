"""Progress on a terminal names the stage and its count; nothing without a terminal."""

from __future__ import annotations

import io
import time

from depinfer import cli
from depinfer.model import Ecosystem
from depinfer.registries import Registries
from depinfer.registries.status import current, stage


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _spin(monkeypatch, stream: io.StringIO, during) -> str:
    monkeypatch.setattr(cli.sys, "stderr", stream)
    with cli.Progress("analysing 214 files", delay=0):
        during()
    return stream.getvalue()


def test_terminal_shows_the_stage_and_count(monkeypatch):
    def work():
        time.sleep(0.35)
        with stage("checking 37 names with PyPI"):
            time.sleep(0.35)

    shown = _spin(monkeypatch, _Terminal(), work)
    assert "analysing 214 files" in shown
    assert "checking 37 names with PyPI" in shown
    assert shown.endswith("\r\033[K")  # the line is cleared at the end


def test_nothing_without_a_terminal(monkeypatch):
    assert _spin(monkeypatch, io.StringIO(), lambda: time.sleep(0.3)) == ""


def test_registry_look_ups_announce_their_count(monkeypatch):
    registries = Registries(offline=True)
    seen: list[str | None] = []
    monkeypatch.setattr(
        Registries, "exists", lambda self, eco, name: seen.append(current()) or None
    )
    registries.exists_many(Ecosystem.PYPI, ["a", "b", "c", "a"])
    assert set(seen) == {"checking 3 names with PyPI"}
    assert current() is None


def test_python_release_fetches_announce_their_count(monkeypatch):
    from depinfer.context import Context, Options
    from depinfer.resolvers import python_versions

    seen: list[str | None] = []

    class Registry:
        def versions(self, ecosystem, name):
            seen.append(current())
            return []

    ctx = Context(options=Options(offline=True), registries=Registry())
    python_versions._fetch_versions(ctx, ["requests", "click"])
    assert seen == ["fetching releases of 2 names with PyPI"] * 2


def test_metadata_look_ups_run_together_and_announce_their_count(monkeypatch):
    """A cold run asks each distribution's metadata in one concurrent batch, not one
    round trip after another."""
    import threading

    registries = Registries(offline=True)
    barrier = threading.Barrier(3, timeout=5)  # passes only if all three ask at once
    seen: list[str | None] = []

    def metadata(self, eco, name, version=None):
        seen.append(current())
        barrier.wait()
        return {"name": name}

    monkeypatch.setattr(Registries, "metadata", metadata)
    got = registries.metadata_many(Ecosystem.PYPI, ["a", "b", "c", "a"])
    assert got == {n: {"name": n} for n in "abc"}
    assert set(seen) == {"fetching metadata of 3 names with PyPI"}

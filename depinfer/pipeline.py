"""The one-direction pipeline: scan → analyze → map → infer implicit → resolve → (arbitrate)
→ write → (verify).

Each language plugs in by providing a module of the same name in each stage package:
`depinfer.analyzers.<lang>.analyze`, `depinfer.mapping.<lang>.map_imports`,
`depinfer.rules.<lang>.infer`, `depinfer.resolvers.<lang>.resolve`. A language whose modules
are not there yet is reported and skipped, never a crash. Verify, the last stage, runs the
project's own tests on a scratch copy and repairs from what they name (`depinfer.ci.repair`,
handed this module's stages: ci sits below the pipeline).
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import re
import stat
from collections import defaultdict
from collections.abc import Collection, Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from depinfer.config import apply_config, load_config
from depinfer.context import Context, Options
from depinfer.filecache import FileCache, content_key
from depinfer.manifests import ManifestError, NotWritable, render_manifest
from depinfer.model import (
    Candidate,
    Diagnostic,
    Ecosystem,
    ImportRef,
    Inference,
    ManifestEdit,
    Project,
    Requirement,
)
from depinfer.registries import Registries
from depinfer.scan import scan

if TYPE_CHECKING:  # verify and the LLM arbiter load only for runs that ask for them
    from depinfer.ci.repair import VerifiedInference, VerifyRequest

LANGUAGES = ("python", "javascript", "rust", "csharp")


def stage(package: str, language: str) -> ModuleType | None:
    """The language's module of one stage package (`stage("mapping", "rust")`), None when
    the language has none."""
    try:
        return importlib.import_module(f"depinfer.{package}.{language}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(f"depinfer.{package}"):
            return None
        raise


def make_context(options: Options) -> Context:
    return Context(
        options=options, registries=Registries(offline=options.offline, refresh=options.refresh)
    )


def infer(
    root: str | os.PathLike[str],
    options: Options | None = None,
    ctx: Context | None = None,
    project: Project | None = None,
    edits: bool = True,
    verify: VerifyRequest | None = None,
) -> Inference:
    """Run every stage up to the manifest edits (nothing is written here; `edits=False`
    stops before rendering them, for check mode). With `verify`, the last stage too: the
    edits are written into a scratch copy whose tests run and repair them; the answer is
    then a `VerifiedInference` that carries how that went."""
    options = options or Options()
    ctx = ctx or make_context(options)
    if verify is not None:
        return infer_and_verify(root, verify, ctx, project)
    project = project or scan(root)
    ctx.registries.use_project(project.root)
    result = Inference(project=project)
    ctx.diagnostics.extend(project.diagnostics)
    ctx.config = load_config(project.root, ctx.diagnostics)
    for language in project.languages:
        if options.languages and language not in options.languages:
            continue
        refs, candidates, requirements = run_language(project, language, ctx)
        result.candidates.extend(candidates)
        result.requirements.extend(requirements)
    if options.llm:
        from depinfer.hybrid import arbitrate  # lazy: only --llm runs need the arbiter

        result.requirements = arbitrate(project, result, ctx)
    if edits:
        result.edits = plan_edits(project, result.requirements, ctx)
    for message in ctx.registries.warnings:  # per registry: why, and which names
        ctx.warn(message)
    result.diagnostics = _dedupe(ctx.diagnostics)
    return result


def infer_and_verify(
    root: str | os.PathLike[str],
    request: VerifyRequest,
    ctx: Context,
    project: Project | None = None,
) -> VerifiedInference:
    """`infer(..., verify=request)`: the verify-and-repair loop over this pipeline's own
    stages. `project`: `root` as scanned already, if it was."""
    from depinfer.ci import repair  # lazy: only --verify runs need it
    from depinfer.ci.repair import PipelineSteps, VerifiedInference

    steps = PipelineSteps(infer, run_language, plan_edits, write_edits, stage)
    outcome, result = repair.verify(Path(root), request, ctx, steps, project)
    fields = {f.name: getattr(result, f.name) for f in dataclasses.fields(Inference)}
    return VerifiedInference(**fields, verification=outcome)


def run_language(
    project: Project, language: str, ctx: Context
) -> tuple[list[ImportRef], list[Candidate], list[Requirement]]:
    analyzer = stage("analyzers", language)
    mapper = stage("mapping", language)
    resolver = stage("resolvers", language)
    if analyzer is None or mapper is None or resolver is None:
        ctx.info(f"{language}: not supported yet, skipped")
        return [], [], []
    rules = stage("rules", language)
    refs = analyzer.analyze(project, ctx)
    candidates = apply_config(mapper.map_imports(project, refs, ctx), ctx.config)
    if rules is not None:
        candidates = rules.infer(project, refs, candidates, ctx)
    requirements = resolver.resolve(project, candidates, ctx)
    return refs, candidates, requirements


def plan_edits(
    project: Project, requirements: list[Requirement], ctx: Context
) -> list[ManifestEdit]:
    """The manifest edits that write `requirements`, after the resolve gates: what would
    not install is relaxed, marked or left out first (`requirements` is updated in place,
    so the decision record shows what is written)."""
    if ctx.options.versions and any(r.ecosystem == Ecosystem.PYPI for r in requirements):
        from depinfer.resolvers import python_gate  # lazy: only runs that write versions

        installs = JobInstalls(project, ctx.files)  # the CI is read only if a group asks
        requirements[:] = python_gate.gate(project, requirements, ctx, installs)
    by_manifest: dict[str, list[Requirement]] = defaultdict(list)
    for req in requirements:
        by_manifest[req.manifest].append(req)
    manifests = {m.path: m for m in project.manifests}
    edits: list[ManifestEdit] = []
    for path, reqs in by_manifest.items():
        manifest = manifests.get(path)
        if manifest is None:
            ctx.error("internal: requirement for an unknown manifest", path)
            continue
        try:
            old, new = render_manifest(project.root, manifest, reqs)
        except NotWritable as exc:  # what to add by hand: an error only when --write was asked
            (ctx.error if ctx.options.write else ctx.warn)(f"not edited: {exc}", path)
            continue
        except ManifestError as exc:
            ctx.error(f"not edited: {exc}", path)
            continue
        except OSError as exc:
            ctx.error(f"not edited: {exc.strerror}", path)
            continue
        edits.append(ManifestEdit(path, old, new, added=[r.name for r in reqs]))
    return edits


class JobInstalls(Collection[str]):
    """`test_job_installs(project)`, read on the first question (the gate asks only about
    a group or extra whose name does not already say it is for tests) and kept in the
    analysis cache by the CI files' content: reading the CI loads its YAML parser and
    planner, a tenth of a warm run."""

    def __init__(self, project: Project, files: FileCache | None = None) -> None:
        self.project = project
        self.files = files
        self._names: set[str] | None = None

    def names(self) -> set[str]:
        if self._names is None:
            key = self._key() if self.files is not None else None

            def read() -> set[str]:
                return test_job_installs(self.project)

            self._names = read() if key is None else self.files.memo("ci-installs", key, read)
        return self._names

    def _key(self) -> str | None:
        """A digest of the CI files (names and content); None when one cannot be read."""
        parts: list[bytes] = []
        for rel in self.project.ci_files:
            try:
                parts.append(rel.encode("utf-8", "surrogatepass") + b"\0")
                parts.append((Path(self.project.root) / rel).read_bytes() + b"\0")
            except OSError:
                return None
        return content_key("ci-installs", b"".join(parts))

    def __contains__(self, name: object) -> bool:
        return name in self.names()

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())


def test_job_installs(project: Project) -> set[str]:
    """The extras and dependency groups the project's CI test job installs (`uv sync
    --extra`, `poetry install --with`, `pip install -e .[test]`)."""
    if not project.ci_files:
        return set()
    # lazy: only runs that write versions read the CI (--check and --names-only do not)
    from depinfer.ci import pick_job
    from depinfer.ci.plan import job_installs, test_lines
    from depinfer.ci.workflow import read_workflows

    job = pick_job(read_workflows(project.root, project.ci_files, []), None)
    pip_args, extras, groups = job_installs(job)
    for args in [*pip_args, *test_lines(job)]:
        for inside in re.findall(r"\.\[([^\]]+)\]", args):
            extras.extend(x.strip() for x in inside.split(","))
    return set(extras) | set(groups)


def write_edits(root: Path, edits: list[ManifestEdit], ctx: Context) -> list[str]:
    """Atomically replace each changed manifest; returns the paths written.

    A manifest the user may not write (read-only by its mode, or owned by another user) is
    reported as an error and left alone: replacing it by rename would succeed in a writable
    folder and silently drop its mode and owner. Root (a CI container over a mounted
    checkout) may write another user's file, and the file keeps its owner. A symbolic link
    is written through, never replaced by a regular file."""
    written = []
    for edit in edits:
        if not edit.changed:
            continue
        target = Path(os.path.realpath(Path(root) / edit.path))
        try:
            refusal = write_refusal(target)
            if refusal:
                ctx.error(f"not written: {refusal}; left as it is", edit.path)
                continue
            _replace(target, edit.new_text)
        except OSError as exc:
            ctx.error(f"not written: {exc.strerror or exc}", edit.path)
            continue
        written.append(edit.path)
    return written


def write_refusal(target: Path) -> str | None:
    """Why `target` must not be rewritten by this user, or None when it may be."""
    st = target.stat()
    if hasattr(os, "geteuid"):
        if st.st_uid != os.geteuid() and os.geteuid() != 0:
            return f"owned by another user (uid {st.st_uid})"
        if not st.st_mode & stat.S_IWUSR:
            return f"read-only (mode {stat.S_IMODE(st.st_mode):04o})"
    if not os.access(target, os.W_OK):
        return "not writable by this user"
    return None


def _replace(target: Path, text: str) -> None:
    """Write `text` to a temporary file beside `target` with its mode and owner (the group
    where allowed; the user too when root), then rename it over `target`."""
    import tempfile  # lazy: only --write needs it

    st = target.stat()
    fd, tmp = tempfile.mkstemp(prefix=".depinfer-", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.chmod(tmp, stat.S_IMODE(st.st_mode))
        if hasattr(os, "chown"):
            try:
                os.chown(tmp, st.st_uid if os.geteuid() == 0 else -1, st.st_gid)
            except OSError:
                pass  # not a member of the file's group: keep ours
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen = set()
    out = []
    for d in diags:
        key = (d.message, d.file, d.level)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out

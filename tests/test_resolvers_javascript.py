"""npm resolution against a fake registry: versions by date, types, peers, placement."""

import json

import pytest
from conftest import FIXTURES, utc_date

from depinfer.context import Context, Options
from depinfer.model import Ecosystem, Section
from depinfer.pipeline import infer
from depinfer.registries import Registries
from depinfer.registries.base import VersionInfo
from depinfer.report import explain_report
from depinfer.resolvers.javascript import ships_types, types_package


def V(version, when, **kw):
    return VersionInfo(version, when, prerelease="-" in version, **kw)


PACKAGES = {
    "express": [
        V("4.18.2", utc_date(2022, 10)),
        V("5.0.0", utc_date(2024, 9)),
        V("5.1.0-beta.1", utc_date(2024, 10)),
    ],
    "nanoid": [V("3.3.7", utc_date(2023, 11), extra={"types": "index.d.ts"})],
    "supertest": [V("6.3.3", utc_date(2022, 12))],
    "@types/supertest": [V("2.0.12", utc_date(2022, 5))],
    "@types/express": [V("4.17.21", utc_date(2023, 11))],
    "react": [V("18.2.0", utc_date(2022, 6))],
    "zod": [V("3.22.4", utc_date(2023, 10), extra={"exports": {".": {"types": "./index.d.ts"}}})],
    "type-fest": [V("4.8.0", utc_date(2023, 11), extra={"types": "index.d.ts"})],
    "chalk": [V("5.3.0", utc_date(2023, 6), extra={"exports": "./source/index.js"})],
    # a DefinitelyTyped stub, not marked deprecated: only its description says chalk ships
    # its own types (as for @types/typescript)
    "@types/chalk": [V("2.2.0", utc_date(2017, 1))],
    "@scope/options": [V("1.0.0", utc_date(2023, 1), extra={"types": "x.d.ts"})],
    "@types-only/loader": [V("0.1.0", utc_date(2023, 1), deprecated=True)],
    "@types/node": [V("20.10.0", utc_date(2023, 11))],
    "vitest": [V("1.0.0", utc_date(2023, 12))],
    "react-dom": [V("18.2.0", utc_date(2022, 6), extra={"peerDependencies": {"react": "^18.2.0"}})],
    "tailwindcss": [V("3.4.0", utc_date(2023, 12))],
    "next": [
        V(
            "14.0.4",
            utc_date(2023, 12),
            extra={
                "types": "index.d.ts",
                "peerDependencies": {"react": "^18.2.0", "react-dom": "^18.2.0"},
            },
        )
    ],
    "@types/react-dom": [V("18.2.17", utc_date(2023, 11))],
    # a package whose newest major is ESM only (`type: module`, no `require` condition)
    "esm-later": [
        V("4.1.2", utc_date(2021, 6), extra={"main": "index.js"}),
        V("5.3.0", utc_date(2023, 6), extra={"type": "module", "exports": "./index.js"}),
    ],
}


class FakeNpm:
    ecosystem = Ecosystem.NPM

    def exists(self, name):
        return name in PACKAGES

    def versions(self, name):
        return PACKAGES.get(name, [])

    def metadata(self, name, version=None):
        if name == "@types/chalk":
            return {
                "summary": "Stub TypeScript definitions entry for chalk, which provides its own types definitions"
            }
        return {}


class FakeRegistries(Registries):
    def client(self, ecosystem):
        return FakeNpm() if ecosystem == Ecosystem.NPM else None


def run(name: str, as_of: str | None = None):
    options = Options(as_of=as_of)
    ctx = Context(options=options, registries=FakeRegistries())
    result = infer(FIXTURES / "javascript" / name, options, ctx=ctx)
    return {(r.manifest, r.name): r for r in result.requirements}, ctx


def names_of(root):
    """name → requirement, inferred for `root` against the fake registry."""
    options = Options()
    ctx = Context(options=options, registries=FakeRegistries())
    return {r.name: r for r in infer(root, options, ctx=ctx).requirements}


def test_newest_release_by_the_as_of_date_as_caret_range():
    reqs, _ = run("monorepo", as_of="2023-12-31")
    assert reqs[("packages/app/package.json", "express")].spec == "^4.18.2"
    reqs, _ = run("monorepo")
    assert reqs[("packages/app/package.json", "express")].spec == "^5.0.0"  # no pre-release


def test_workspace_members_use_the_workspace_protocol_under_pnpm():
    reqs, _ = run("monorepo")
    core = reqs[("packages/app/package.json", "@acme/core")]
    assert core.internal and core.spec == "workspace:*"


def test_peers_declared_by_a_sibling_are_left_to_the_host_and_not_duplicated():
    reqs, _ = run("monorepo")
    assert ("packages/app/package.json", "react") not in reqs  # @acme/core's peer
    assert ("packages/core/package.json", "react") not in reqs  # declared as its peer


def test_names_the_registry_does_not_know_are_never_written():
    reqs, ctx = run("esm-ts")
    assert not [k for k in reqs if k[1] not in PACKAGES]


def test_types_packages_only_when_the_chosen_version_ships_none():
    assert ships_types({"types": "a.d.ts"}) and ships_types({"exports": {".": {"types": "x"}}})
    assert not ships_types({"main": "index.js"})
    assert types_package("@babel/core") == "@types/babel__core"
    reqs, _ = run("esm-ts")
    assert reqs[("package.json", "@types/express")].section == Section.DEV
    assert ("package.json", "@types/chalk") not in reqs  # a stub
    assert ("package.json", "@types/zod") not in reqs  # zod ships its types
    reqs, _ = run("monorepo")
    assert ("packages/app/package.json", "@types/express") not in reqs  # no TS code there


def test_apps_declare_the_peers_of_what_they_use(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "app", "private": true}')
    (tmp_path / "main.js").write_text("import { render } from 'react-dom'\nrender()\n")
    reqs = names_of(tmp_path)
    assert reqs["react"].section == Section.RUNTIME  # react-dom's peer
    assert "peer of react-dom" in str(reqs["react"].evidence[0])


def test_a_peer_written_for_a_typescript_app_brings_its_types(tmp_path):
    # next renders with react-dom, which the app never imports: the peer is written, and
    # in TypeScript code its DefinitelyTyped package too, as for an imported package
    (tmp_path / "package.json").write_text(
        '{"name": "site", "private": true, "devDependencies": {"typescript": "^5"}}'
    )
    (tmp_path / "page.tsx").write_text("import Link from 'next/link'\nexport default Link\n")
    reqs = names_of(tmp_path)
    assert reqs["react-dom"].section == Section.RUNTIME
    assert reqs["@types/react-dom"].section == Section.DEV
    assert "react-dom@18.2.0 ships no types" in str(reqs["@types/react-dom"].evidence)
    assert "@types/next" not in reqs  # next ships its own


@pytest.mark.parametrize("offline_spec", ["*"])
def test_offline_versions_fall_back_to_star(offline_spec):
    options = Options(offline=True)
    ctx = Context(options=options, registries=Registries(offline=True))
    result = infer(FIXTURES / "javascript" / "cjs", options, ctx=ctx)
    lodash = next(r for r in result.requirements if r.name == "lodash")
    assert lodash.spec == offline_spec and lodash.verified is None


def test_engines_ranges_follow_npm_semantics():
    from depinfer.resolvers.javascript import satisfies

    node14 = (14, 999, 999)
    assert satisfies(node14, "^12.17.0 || ^14.13 || >=16.0.0")
    assert satisfies(node14, ">= 14.16") and satisfies(node14, "14 - 18")
    assert not satisfies(node14, ">=16") and not satisfies(node14, "~14.2")
    assert satisfies((0, 2, 5), "^0.2.3") and not satisfies((0, 3, 0), "^0.2.3")


def test_published_libraries_take_their_host_as_a_peer(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "eslint-plugin-x", "main": "index.js"}')
    (tmp_path / "index.js").write_text("require('eslint')\nrequire('react')\nrequire('zod')\n")
    options = Options(offline=True)
    ctx = Context(options=options, registries=Registries(offline=True))
    reqs = {r.name: r.section for r in infer(tmp_path, options, ctx=ctx).requirements}
    assert reqs == {"eslint": Section.PEER, "react": Section.PEER, "zod": Section.RUNTIME}


def test_a_library_whose_peers_leave_out_the_host_ships_the_host_itself(tmp_path):
    (tmp_path / "package.json").write_text(
        '{"name": "site-gen", "main": "index.js", "peerDependencies": {"postcss": "^8"}}'
    )
    (tmp_path / "index.js").write_text("require('vue')\nrequire('postcss')\n")
    options = Options(offline=True)
    ctx = Context(options=options, registries=Registries(offline=True))
    reqs = {r.name: r.section for r in infer(tmp_path, options, ctx=ctx).requirements}
    assert reqs == {"vue": Section.RUNTIME}


def test_a_library_shipping_types_of_a_bundled_dev_dependency_needs_its_declarations(tmp_path):
    (tmp_path / "package.json").write_text(
        '{"name": "lib", "main": "dist/index.js", "devDependencies": {"express": "^4.18.2"}}'
    )
    (tmp_path / "tsconfig.json").write_text("{}")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "index.ts").write_text(
        "import type { Request } from 'express'\nexport type R = Request\n"
    )
    options = Options()
    ctx = Context(options=options, registries=FakeRegistries())
    reqs = {r.name: r.section for r in infer(tmp_path, options, ctx=ctx).requirements}
    assert reqs == {"@types/express": Section.RUNTIME}
    (tmp_path / "src" / "index.ts").write_text("import express from 'express'\nexpress()\n")
    reqs = {r.name: r.section for r in infer(tmp_path, options, ctx=ctx).requirements}
    assert "@types/express" not in reqs or reqs["@types/express"] == Section.DEV


def test_required_packages_keep_the_last_commonjs_major(tmp_path):
    from depinfer.resolvers.javascript import esm_only

    assert esm_only({"type": "module", "exports": "./index.js"})
    assert not esm_only({"type": "module", "exports": {"import": "./a.js", "require": "./a.cjs"}})
    assert not esm_only({"main": "index.js"})
    PACKAGES["esm-pkg"] = [
        V("4.1.2", utc_date(2021, 6), extra={"main": "source/index.js"}),
        V("5.3.0", utc_date(2023, 6), extra={"type": "module", "exports": "./source/index.js"}),
    ]
    try:
        (tmp_path / "package.json").write_text('{"name": "cli", "main": "index.js"}')
        (tmp_path / "index.js").write_text("const c = require('esm-pkg')\n")
        (tmp_path / "mod.mjs").write_text("import c from 'esm-pkg'\n")
        options = Options()
        ctx = Context(options=options, registries=FakeRegistries())
        reqs = {r.name: r.spec for r in infer(tmp_path, options, ctx=ctx).requirements}
        assert reqs["esm-pkg"] == "^4.1.2"
        (tmp_path / "index.js").unlink()
        reqs = {r.name: r.spec for r in infer(tmp_path, options, ctx=ctx).requirements}
        assert reqs["esm-pkg"] == "^5.3.0"
    finally:
        del PACKAGES["esm-pkg"]


def test_deep_imports_keep_the_newest_release_whose_exports_still_list_them(tmp_path):
    from depinfer.resolvers.javascript_packages import exports_subpath

    assert exports_subpath({"main": "index.js"}, "lib/util")
    assert not exports_subpath({"exports": "./index.js"}, "lib/util")
    assert not exports_subpath({"exports": {"import": "./a.mjs"}}, "lib/util")
    assert exports_subpath({"exports": {".": "./a.js", "./lib/*": "./lib/*.js"}}, "lib/util")
    assert not exports_subpath(
        {"exports": {"./lib/*": "./lib/*.js", "./lib/util": None}}, "lib/util"
    )
    PACKAGES["deep-pkg"] = [
        V("1.4.0", utc_date(2021, 6), extra={"main": "index.js"}),
        V("2.0.0", utc_date(2023, 1), extra={"exports": {".": "./index.js"}}),
    ]
    try:
        (tmp_path / "package.json").write_text('{"name": "app", "private": true}')
        (tmp_path / "index.js").write_text("import u from 'deep-pkg/lib/util'\n")
        options = Options()
        ctx = Context(options=options, registries=FakeRegistries())
        reqs = {r.name: r.spec for r in infer(tmp_path, options, ctx=ctx).requirements}
        assert reqs["deep-pkg"] == "^1.4.0"  # 2.0.0 closes lib/util behind its exports map
        (tmp_path / "index.js").write_text("import u from 'deep-pkg'\n")
        reqs = {r.name: r.spec for r in infer(tmp_path, options, ctx=ctx).requirements}
        assert reqs["deep-pkg"] == "^2.0.0"
    finally:
        del PACKAGES["deep-pkg"]


def test_a_release_without_an_exports_record_is_judged_by_its_major_lines_map(tmp_path):
    # 2.0.0's record lacks `exports`; 2.0.1, same line, closes the old subpath: line 2 does
    PACKAGES["hash-pkg"] = [
        V("1.8.0", utc_date(2024, 6), extra={"exports": {".": "./i.js", "./sha256": "./s.js"}}),
        V("2.0.0", utc_date(2025, 8), extra={"main": "index.js"}),
        V("2.0.1", utc_date(2025, 9), extra={"exports": {".": "./i.js", "./sha2.js": "./s.js"}}),
    ]
    try:
        (tmp_path / "package.json").write_text('{"name": "app", "private": true}')
        (tmp_path / "index.js").write_text("import { sha256 } from 'hash-pkg/sha256'\n")
        options = Options()
        ctx = Context(options=options, registries=FakeRegistries())
        reqs = {r.name: r.spec for r in infer(tmp_path, options, ctx=ctx).requirements}
        assert reqs["hash-pkg"] == "^1.8.0"
    finally:
        del PACKAGES["hash-pkg"]


def test_versions_respect_the_peer_ranges_of_other_written_packages(tmp_path):
    PACKAGES["ui-kit"] = [
        V("2.0.0", utc_date(2024, 1), extra={"peerDependencies": {"react": "^18"}})
    ]
    PACKAGES["react"] = [V("18.2.0", utc_date(2022, 6)), V("19.0.0", utc_date(2024, 12))]
    try:
        (tmp_path / "package.json").write_text('{"name": "app", "private": true}')
        (tmp_path / "main.js").write_text("import 'ui-kit'\nimport React from 'react'\n")
        options = Options()
        ctx = Context(options=options, registries=FakeRegistries())
        reqs = {r.name: r for r in infer(tmp_path, options, ctx=ctx).requirements}
        assert reqs["react"].spec == "^18.2.0"
        assert "peer range ^18 of ui-kit@2.0.0" in str(reqs["react"].evidence[-1])
    finally:
        del PACKAGES["ui-kit"]
        PACKAGES["react"] = [V("18.2.0", utc_date(2022, 6))]


def test_optional_peer_ranges_bind_once_the_peer_is_written(tmp_path):
    # npm checks an optional peer when the package is installed: ERESOLVE otherwise
    PACKAGES["lint-config"] = [
        V(
            "20.0.0",
            utc_date(2024, 1),
            extra={
                "peerDependencies": {"react": "^18.0.0"},
                "peerDependenciesMeta": {"react": {"optional": True}},
            },
        )
    ]
    PACKAGES["react"] = [V("18.2.0", utc_date(2022, 6)), V("19.0.0", utc_date(2024, 12))]
    try:
        (tmp_path / "package.json").write_text('{"name": "app", "private": true}')
        (tmp_path / "main.js").write_text("import 'lint-config'\nimport React from 'react'\n")
        options = Options()
        ctx = Context(options=options, registries=FakeRegistries())
        reqs = {r.name: r for r in infer(tmp_path, options, ctx=ctx).requirements}
        assert reqs["react"].spec == "^18.2.0"
    finally:
        del PACKAGES["lint-config"]
        PACKAGES["react"] = [V("18.2.0", utc_date(2022, 6))]


def test_a_tool_implied_by_its_config_comes_with_the_framework_that_depends_on_it(tmp_path):
    PACKAGES["vitepress"] = [V("1.3.4", utc_date(2024, 9), extra={"dependencies": {"vite": "^5"}})]
    PACKAGES["vite"] = [V("5.4.8", utc_date(2024, 9))]
    try:
        (tmp_path / "package.json").write_text('{"name": "site", "private": true}')
        (tmp_path / "vite.config.js").write_text("export default {}\n")
        (tmp_path / "theme.js").write_text("import DefaultTheme from 'vitepress/theme'\n")
        options = Options()
        ctx = Context(options=options, registries=FakeRegistries())
        names = {r.name for r in infer(tmp_path, options, ctx=ctx).requirements}
        assert names == {"vitepress"}
    finally:
        del PACKAGES["vitepress"], PACKAGES["vite"]


def test_npm_workspaces_reference_members_by_version(tmp_path):
    (tmp_path / "package.json").write_text(
        '{"name": "root", "private": true, "workspaces": ["packages/*"]}'
    )
    for name, body in (("a", "import 'b'\n"), ("b", "")):
        d = tmp_path / "packages" / name
        d.mkdir(parents=True)
        (d / "package.json").write_text(f'{{"name": "{name}", "version": "2.3.4", "main": "i.js"}}')
        (d / "i.js").write_text(body)
    options = Options(offline=True)
    ctx = Context(options=options, registries=Registries(offline=True))
    reqs = {(r.manifest, r.name): r.spec for r in infer(tmp_path, options, ctx=ctx).requirements}
    assert reqs == {("packages/a/package.json", "b"): "^2.3.4"}


def test_a_package_outside_the_workspace_takes_its_sibling_by_path():
    # pnpm-workspace.yaml holds settings only: the example is no workspace package, and
    # `workspace:*` would not install there
    reqs, _ = run("example-outside-workspace")
    store = reqs[("examples/starter/package.json", "tinystore")]
    assert store.internal and store.spec == "file:../.."


def test_an_expo_apps_config_plugins_and_the_peer_its_cli_shares_are_runtime(tmp_path):
    PACKAGES["expo"] = [V("52.0.0", utc_date(2024, 11))]
    PACKAGES["expo-router"] = [
        V("4.0.0", utc_date(2024, 11), extra={"peerDependencies": {"expo": "*"}})
    ]
    PACKAGES["expo-splash-screen"] = [V("0.29.0", utc_date(2024, 11))]
    try:
        (tmp_path / "package.json").write_text(
            '{"name": "app", "private": true, "scripts": {"dev": "expo start"},'
            ' "devDependencies": {"typescript": "^5"}}'
        )
        (tmp_path / "app.json").write_text(
            '{"expo": {"name": "app", "plugins": ["expo-router", "./plugins/local",'
            ' ["expo-splash-screen", {"image": "./a.png"}]]}}'
        )
        (tmp_path / "index.js").write_text("import 'expo-router/entry'\n")
        options = Options()
        ctx = Context(options=options, registries=FakeRegistries())
        reqs = {r.name: r for r in infer(tmp_path, options, ctx=ctx).requirements}
        assert reqs["expo-splash-screen"].section == Section.RUNTIME  # a config plugin
        # the dev script runs the expo CLI, and expo-router, used at run time, peers expo
        assert reqs["expo"].section == Section.RUNTIME
        assert "peer of expo-router" in str(reqs["expo"].evidence)
    finally:
        for name in ("expo", "expo-router", "expo-splash-screen"):
            del PACKAGES[name]


def test_a_json_app_manifest_without_an_expo_section_names_no_plugins(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "app", "private": true}')
    (tmp_path / "app.json").write_text('{"name": "app", "plugins": ["tailwindcss"]}')
    reqs = names_of(tmp_path)
    assert "tailwindcss" not in reqs


def test_a_private_package_with_peers_of_its_own_leaves_its_uses_peers_to_the_host(tmp_path):
    (tmp_path / "package.json").write_text(
        '{"name": "@acme/ui", "private": true, "peerDependencies": {"zod": "*"}}'
    )
    (tmp_path / "main.js").write_text("import { render } from 'react-dom'\nrender()\n")
    reqs = names_of(tmp_path)
    assert "react-dom" in reqs
    assert "react" not in reqs  # react-dom's peer: the apps hosting the kit provide it


def test_a_package_only_a_tools_config_names_comes_with_the_framework_that_depends_on_it(
    tmp_path,
):
    PACKAGES["react-scripts"] = [
        V("5.0.1", utc_date(2022, 4), extra={"dependencies": {"eslint-config-react-app": "^7"}})
    ]
    PACKAGES["eslint-config-react-app"] = [V("7.0.1", utc_date(2022, 4))]
    try:
        (tmp_path / "package.json").write_text(
            '{"name": "app", "private": true, "scripts": {"start": "react-scripts start"},'
            ' "eslintConfig": {"extends": ["react-app", "react-app/jest"]}}'
        )
        (tmp_path / "index.js").write_text("import React from 'react'\n")
        options = Options()
        ctx = Context(options=options, registries=FakeRegistries())
        reqs = {r.name: r for r in infer(tmp_path, options, ctx=ctx).requirements}
        assert "react-scripts" in reqs
        assert "eslint-config-react-app" not in reqs  # react-scripts brings it
    finally:
        del PACKAGES["react-scripts"], PACKAGES["eslint-config-react-app"]


def test_a_package_used_only_for_types_whose_types_package_is_declared_is_not_written(
    tmp_path,
):
    PACKAGES["mdx"] = [V("0.3.1", utc_date(2016, 1))]
    PACKAGES["@types/mdx"] = [V("2.0.13", utc_date(2024, 1))]
    try:
        (tmp_path / "package.json").write_text(
            '{"name": "blog", "private": true, "devDependencies": {"@types/mdx": "^2.0.12"}}'
        )
        (tmp_path / "mdx.tsx").write_text(
            "import type { MDXComponents } from 'mdx/types'\n"
            "export const components: MDXComponents = {}\n"
        )
        options = Options()
        ctx = Context(options=options, registries=FakeRegistries())
        reqs = {r.name for r in infer(tmp_path, options, ctx=ctx).requirements}
        assert "mdx" not in reqs  # @types/mdx provides what the code imports
    finally:
        del PACKAGES["mdx"], PACKAGES["@types/mdx"]


def test_types_an_app_takes_from_a_package_its_framework_depends_on_are_not_written(tmp_path):
    deps = {"vite": "^6", "@astrojs/markdown-remark": "^6", "@shikijs/types": "^3"}
    PACKAGES["astro"] = [V("5.7.0", utc_date(2024, 9), extra={"dependencies": deps})]
    for name in deps:
        PACKAGES[name] = [V("6.0.0", utc_date(2024, 9))]
    try:
        (tmp_path / "package.json").write_text('{"name": "site", "private": true}')
        (tmp_path / "src").mkdir()
        (tmp_path / "src" / "env.d.ts").write_text('/// <reference types="vite/client" />\n')
        (tmp_path / "src" / "page.ts").write_text(
            "import { defineConfig } from 'astro/config'\n"
            "import type { RemarkPlugin } from '@astrojs/markdown-remark'\n"
            "import type { ThemeRegistration } from '@shikijs/types'\n"
            "export default defineConfig({})\n"
        )
        options = Options()
        ctx = Context(options=options, registries=FakeRegistries())
        names = {r.name for r in infer(tmp_path, options, ctx=ctx).requirements}
        # a package named for its types is installed for them; the rest come with astro
        assert names == {"astro", "@shikijs/types"}
    finally:
        for name in ("astro", *deps):
            del PACKAGES[name]


def _explained(name: str, package: str) -> list[str]:
    options = Options()
    ctx = Context(options=options, registries=FakeRegistries())
    return explain_report(
        infer(FIXTURES / "javascript" / name, options, ctx=ctx), package
    ).splitlines()


def test_explain_names_the_mapping_and_resolver_steps_that_wrote_a_requirement():
    lines = _explained("monorepo", "express")
    assert lines[0].startswith("express: written to packages/app/package.json [dependencies]")
    assert lines[1:3] == [
        "  decided by: mapping:package_name",
        "  decided by: resolve:registry_version",
    ]
    assert "  used in packages/app/src/index.js:3 (import: express)" in lines
    lines = _explained("monorepo", "@acme/core")
    assert "  decided by: mapping:sibling_package" in lines
    assert "  decided by: resolve:sibling_reference" in lines
    lines = _explained("esm-ts", "@types/express")
    assert lines[1] == "  decided by: registry express@5.0.0 ships no types"
    assert "  decided by: resolve:types_follow_up" in lines


def test_explain_names_the_step_that_left_a_candidate_out():
    lines = _explained("monorepo", "react")
    app = lines.index("react: not written to packages/app/package.json")
    core = lines.index("react: not written to packages/core/package.json")
    assert "(resolver step peer_left_to_host)" in lines[app + 1]  # @acme/core's peer
    assert lines[app + 2] == "  used in packages/app/src/index.js:2 (import: react)"
    assert "(resolver step already_declared)" in lines[core + 1]  # its own peer
    lines = _explained("esm-ts", "typescript")
    assert (
        lines[1] == "  because: the manifest declares it already (resolver step already_declared)"
    )


def test_a_registry_that_dates_no_release_by_the_as_of_date_still_chooses_one():
    # a mirror whose `time` holds when it copied each release dates them all after the code;
    # the newest is chosen (not "*"), so the types package and peers still follow the choice
    reqs, _ = run("monorepo", as_of="2010-01-01")
    assert reqs[("packages/app/package.json", "express")].spec == "^5.0.0"
    reqs, _ = run("esm-ts", as_of="2010-01-01")
    assert ("package.json", "@types/express") in reqs


def test_code_that_jest_runs_gets_the_newest_commonjs_release(tmp_path):
    # Jest runs modules as CommonJS and leaves node_modules alone: an ESM-only major of a
    # package the code imports cannot load there, whatever syntax the code is written in
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.js").write_text("import x from 'esm-later'\nexport default x\n")

    def spec(scripts: str) -> str:
        doc = {"name": "app", "private": True, "scripts": {"test": scripts}}
        (tmp_path / "package.json").write_text(json.dumps(doc))
        options = Options()
        ctx = Context(options=options, registries=FakeRegistries())
        result = infer(tmp_path, options, ctx=ctx)
        return next(r.spec for r in result.requirements if r.name == "esm-later")

    assert spec("jest --coverage") == "^4.1.2"
    assert spec("react-scripts test") == "^4.1.2"
    assert spec("NODE_OPTIONS=--experimental-vm-modules jest") == "^5.3.0"  # Jest's ESM mode
    assert spec("vitest run") == "^5.3.0"
    # a path resolved for Jest to load itself (a watch plugin) is not run as CommonJS
    (tmp_path / "src" / "a.js").write_text("module.exports = require.resolve('esm-later')\n")
    assert spec("jest") == "^5.3.0"


def test_a_scoped_package_rides_the_release_train_the_repository_declares(tmp_path):
    """`@ng/cli: ^2.0.0` kept in devDependencies, and the code imports `@ng/core`: the two
    are published in lockstep (the same majors), so core takes major 2, not the newest 3
    (npm refuses two majors of such a scope, whose packages peer each other exactly). A
    scope whose majors do not coincide constrains nothing."""
    train = {"1.0.0": utc_date(2021), "2.0.0": utc_date(2022), "2.4.1": utc_date(2022, 6)}
    train["3.0.0"] = utc_date(2023)
    for name in ("@ng/core", "@ng/cli"):
        PACKAGES[name] = [V(v, when) for v, when in train.items()]
    PACKAGES["@ng/icons"] = [V("7.0.0", utc_date(2023)), V("8.1.0", utc_date(2023, 6))]
    try:
        dev = '{"@ng/cli": "^2.0.0"}'
        (tmp_path / "package.json").write_text(
            '{"name": "app", "private": true, "devDependencies": ' + dev + "}"
        )
        (tmp_path / "main.js").write_text("import '@ng/core'\nimport '@ng/icons'\n")
        options = Options()
        ctx = Context(options=options, registries=FakeRegistries())
        reqs = {r.name: r for r in infer(tmp_path, options, ctx=ctx).requirements}
        assert reqs["@ng/core"].spec == "^2.4.1"
        assert reqs["@ng/icons"].spec == "^8.1.0"
    finally:
        for name in ("@ng/core", "@ng/cli", "@ng/icons"):
            del PACKAGES[name]

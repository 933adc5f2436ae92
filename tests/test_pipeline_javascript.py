"""End to end on the JS fixtures (offline): what would be written where."""

import json

from conftest import FIXTURES, copy_fixture, write_tree

from depinfer.context import Options
from depinfer.model import Section
from depinfer.pipeline import infer, make_context, write_edits


def run(root):
    options = Options(offline=True)
    ctx = make_context(options)
    return infer(root, options, ctx=ctx), ctx


def test_cjs_writes_runtime_and_dev_sections(tmp_path):
    root = copy_fixture("javascript", "cjs", tmp_path / "cjs")
    result, ctx = run(root)
    assert write_edits(root, result.edits, ctx) == ["package.json"]
    doc = json.loads((root / "package.json").read_text())
    # bin/cjs-lib has no extension: read because package.json `bin` names it
    assert list(doc["dependencies"]) == ["ajv", "debug", "lodash", "supports-color", "yargs"]
    assert set(doc["devDependencies"]) >= {"mocha", "chai", "eslint", "prettier", "rimraf"}
    assert doc["devDependencies"]["mocha"] == "^10.0.0"  # untouched
    assert "source-map-support" in doc["devDependencies"]  # .mocharc require


def test_vue_and_svelte_components():
    result, _ = run(FIXTURES / "javascript" / "vue")
    assert {r.name for r in result.requirements} == {"vue", "axios", "svelte", "dayjs"}


def test_unpublished_app_keeps_everything_in_dependencies():
    result, _ = run(FIXTURES / "javascript" / "vue")  # private, no devDependencies section
    assert all(r.section == Section.RUNTIME for r in result.requirements)


def test_create_react_app_keeps_its_template_layout():
    # a devDependencies section exists (prettier), yet the template's packages go where
    # Create React App puts them, and what react-scripts runs itself is not declared
    result, _ = run(FIXTURES / "javascript" / "cra-template")
    sections = {r.name: r.section for r in result.requirements}
    for name in ("react-scripts", "@testing-library/react", "@testing-library/jest-dom"):
        assert sections[name] == Section.RUNTIME
    assert "eslint-config-react-app" not in sections and "eslint" not in sections


def test_broken_manifest_is_reported_and_never_written():
    result, _ = run(FIXTURES / "javascript" / "broken")
    assert not result.edits
    assert any(d.file == "package.json" and d.level == "error" for d in result.diagnostics)


def test_workspace_member_gets_its_own_dependencies():
    result, _ = run(FIXTURES / "javascript" / "monorepo")
    by_manifest = {}
    for r in result.requirements:
        by_manifest.setdefault(r.manifest, set()).add(r.name)
    assert by_manifest["packages/app/package.json"] == {"@acme/core", "express", "supertest"}
    # tslib: the core's tsconfig extends the base one, which sets importHelpers
    assert by_manifest["packages/core/package.json"] == {"nanoid", "tslib"}
    assert "package.json" not in by_manifest


def test_component_files_need_their_framework_runtime(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "ui", "private": true}')
    (tmp_path / "Only.vue").write_text("<template><p>static</p></template>\n")
    result, _ = run(tmp_path)
    assert {r.name for r in result.requirements} == {"vue"}


def test_workspace_examples_list_their_own_runtime_and_angular_polyfills(tmp_path):
    write_tree(
        tmp_path,
        {
            "package.json": json.dumps(
                {
                    "name": "root",
                    "private": True,
                    "workspaces": ["examples/*", "playground"],
                    "devDependencies": {
                        "react": "^19.0.0",
                        "@angular/core": "^20.0.0",
                        "ts-node": "^10.9.2",
                    },
                }
            ),
            "examples/react-basic/package.json": json.dumps(
                {
                    "name": "ex-react",
                    "private": True,
                    "scripts": {"serve": "ts-node server.ts"},
                    "devDependencies": {"vite": "^6.0.0"},
                }
            ),
            "examples/react-basic/src/main.jsx": "import React from 'react'\n",
            "examples/ng/package.json": json.dumps(
                {"name": "ex-ng", "private": True, "devDependencies": {"typescript": "5.8.3"}}
            ),
            "examples/ng/angular.json": json.dumps(
                {
                    "projects": {
                        "app": {"architect": {"build": {"options": {"polyfills": ["zone.js"]}}}}
                    }
                }
            ),
            "examples/ng/src/main.ts": (
                "import { bootstrapApplication } from '@angular/platform-browser'\n"
                "import { Component } from '@angular/core'\n"
            ),
            "playground/package.json": json.dumps(
                {"name": "pg", "private": True, "devDependencies": {"vite": "^6.0.0"}}
            ),
            "playground/main.jsx": "import React from 'react'\n",
        },
    )
    result, _ = run(tmp_path)
    runtime = {}
    for r in result.requirements:
        if r.section == Section.RUNTIME:
            runtime.setdefault(r.manifest, set()).add(r.name)
    # an example is copied out and run on its own: it lists react itself
    assert runtime["examples/react-basic/package.json"] == {"react"}
    ng = runtime["examples/ng/package.json"]
    assert {"zone.js", "@angular/compiler", "@angular/platform-browser"} <= ng
    # nor does it run the root's tools
    assert any(
        r.name == "ts-node" and r.manifest == "examples/react-basic/package.json"
        for r in result.requirements
    )
    # a playground runs inside the workspace and uses the root's react
    assert "playground/package.json" not in runtime


def test_a_package_exporting_only_typescript_sources_is_internal_to_its_workspace():
    result, _ = run(FIXTURES / "javascript" / "source-workspace")
    by_manifest = {(r.manifest, r.name): r.section for r in result.requirements}
    # compiled from source by its siblings' bundler, never published: vue is its dependency
    assert by_manifest[("packages/stores/package.json", "vue")] == Section.RUNTIME
    # built to dist and published (publishConfig): the host framework is a peer
    assert by_manifest[("packages/kit/package.json", "vue")] == Section.PEER


def test_an_electron_app_is_an_app_whatever_its_entry_points(tmp_path):
    (tmp_path / "package.json").write_text(
        json.dumps(
            {
                "name": "desk",
                "main": "./dist/main.js",
                "build": {"appId": "org.example.desk", "files": ["dist"]},
                "devDependencies": {"electron": "^35.0.0", "@types/react": "^19.0.0"},
            }
        )
    )
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.ts").write_text("import path from 'node:path'\npath.join()\n")
    (tmp_path / "src" / "index.tsx").write_text(
        "import { createRoot } from 'react-dom/client'\ncreateRoot(null)\n"
    )
    result, _ = run(tmp_path)
    sections = {r.name: r.section for r in result.requirements}
    # electron-builder packages it as an installer: react-dom is its dependency, no host peer
    assert sections["react-dom"] == Section.RUNTIME
    # its devDependencies already hold the type packages: Node's types go there too
    assert sections["@types/node"] == Section.DEV


def test_a_workspaces_shareable_config_packages_depend_on_what_their_configs_name():
    result, _ = run(FIXTURES / "javascript" / "shared-configs")
    found = {(r.manifest, r.name): r.section for r in result.requirements}
    prettier = "tooling/prettier/package.json"
    # named as a Prettier shareable config: the plugins its entry names are its dependencies
    assert found[(prettier, "@ianvs/prettier-plugin-sort-imports")] == Section.RUNTIME
    assert found[(prettier, "prettier-plugin-tailwindcss")] == Section.RUNTIME
    # an exported postcss-config.js is a PostCSS config whatever the package is called
    assert found[("tooling/tailwind/package.json", "@tailwindcss/postcss")] == Section.RUNTIME
    # a private config package runs its tool for the workspace: it depends on the tool
    commitlint = "tooling/commitlint/package.json"
    assert found[(commitlint, "@commitlint/config-conventional")] == Section.RUNTIME
    assert found[(commitlint, "@commitlint/cli")] == Section.RUNTIME


def test_the_javascript_stages_hand_typed_facts_not_extra_dicts():
    from depinfer.facts.javascript import NpmFacts

    result, _ = run(FIXTURES / "javascript" / "monorepo")
    assert result.candidates and result.requirements
    for item in [*result.candidates, *result.requirements]:
        assert not hasattr(item, "extra"), item
        assert item.facts is None or isinstance(item.facts, NpmFacts)
    # the JSON decision record still serialises them
    assert json.dumps(result.to_json())

"""Specifier → package: names, builtins, internal references, sections by file role."""

from pathlib import Path

from conftest import FIXTURES, write_tree

from depinfer.analyzers.javascript import analyze
from depinfer.context import Options
from depinfer.facts.javascript import npm_facts
from depinfer.mapping.javascript import (
    glob_regex,
    is_builtin,
    map_imports,
    package_name,
    parse_jsonc,
)
from depinfer.model import Section
from depinfer.pipeline import make_context
from depinfer.scan import scan


def mapped(root: Path) -> list:
    """The candidates the mapping makes for the tree at `root` (offline)."""
    project = scan(root)
    ctx = make_context(Options(offline=True))
    return map_imports(project, analyze(project, ctx), ctx)


def _mapped_names(root: Path) -> set[str]:
    return {c.name for c in mapped(root)}


def candidates(name: str) -> dict[tuple[str, str], set[Section]]:
    out: dict[tuple[str, str], set[Section]] = {}
    for c in mapped(FIXTURES / "javascript" / name):
        out.setdefault((c.manifest, c.name), set()).add(c.section)
    return out


def test_package_names_from_specifiers():
    assert package_name("lodash/fp") == "lodash"
    assert package_name("@scope/pkg/sub/path") == "@scope/pkg"
    assert package_name("@scope") is None
    assert package_name("npm:@x/y@2") == "@x/y"
    assert package_name("$app/stores") is None


def test_node_builtins_with_and_without_prefix():
    assert is_builtin("fs") and is_builtin("fs/promises") and is_builtin("node:test")
    assert is_builtin("node:sqlite")
    assert not is_builtin("punycode/")  # the npm package of a builtin's name
    assert not is_builtin("lodash")


def test_jsonc_and_workspace_globs():
    assert parse_jsonc('{"a": "//x", /* c */ "b": [1,],} // end') == {"a": "//x", "b": [1]}
    assert glob_regex("packages/*").match("packages/a")
    assert not glob_regex("packages/*").match("packages/a/b")
    assert glob_regex("docs/**").match("docs/a/b")


def test_cjs_fixture_sections_and_skips():
    found = candidates("cjs")
    names = {n for _, n in found}
    assert {"lodash", "ajv", "debug", "supports-color", "chai"} <= names
    assert not names & {"commented-out", "in-a-string", "only-in-build-output", "fs"}
    assert found[("package.json", "lodash")] == {Section.RUNTIME}
    assert found[("package.json", "chai")] == {Section.DEV}


def test_ts_paths_base_url_and_package_imports_are_internal():
    names = {n for _, n in candidates("esm-ts")}
    assert {"zod", "type-fest", "chalk", "@scope/options"} <= names
    assert not names & {
        "utils",
        "settings",
        "@/utils",
        "#lib",
        "augmented-module",
        "inside-ambient",
    }


def test_workspace_members_are_internal_and_self_imports_skipped():
    cands = mapped(FIXTURES / "javascript" / "monorepo")
    core = [c for c in cands if c.name == "@acme/core"]
    assert core and all(c.internal and c.manifest == "packages/app/package.json" for c in core)
    assert core[0].path == "packages/core"


def test_jsx_runtime_follows_tsconfig_jsx_import_source():
    assert ("package.json", "preact") in candidates("jsx-preact")
    assert ("package.json", "react") in candidates("jsx")


def test_sections_by_role_relative_to_the_package():
    from depinfer.mapping.javascript import file_section
    from depinfer.model import Ecosystem, FileKind, Manifest

    lib = Manifest("package.json", Ecosystem.NPM, "package_json", data={"files": ["dist"]})
    assert file_section(lib, "src/a.js", FileKind.SOURCE) == Section.RUNTIME
    assert file_section(lib, "src/scripts/build/run.js", FileKind.SCRIPT) == Section.RUNTIME
    assert file_section(lib, "src/is.macro.js", FileKind.SOURCE) == Section.DEV
    assert file_section(lib, "other/ssr/index.js", FileKind.SOURCE) == Section.DEV
    assert file_section(lib, "jest.config.js", FileKind.CONFIG) == Section.DEV
    assert file_section(lib, "src/config/jest.config.js", FileKind.CONFIG) == Section.RUNTIME
    site = Manifest("docs/package.json", Ecosystem.NPM, "package_json", data={"private": True})
    assert file_section(site, "docs/demos/a.tsx", FileKind.EXAMPLE, True) == Section.RUNTIME
    assert file_section(site, "docs/next.config.js", FileKind.CONFIG, True) == Section.RUNTIME


def test_stories_dot_folders_and_config_folders_are_tooling():
    from depinfer.mapping.javascript import file_section
    from depinfer.model import Ecosystem, FileKind, Manifest

    lib = Manifest("package.json", Ecosystem.NPM, "package_json", data={"main": "index.js"})
    assert file_section(lib, "src/Button.stories.tsx", FileKind.SOURCE) == Section.DEV
    assert file_section(lib, ".storybook/main.ts", FileKind.SOURCE) == Section.DEV
    assert file_section(lib, "config/vitest.ts", FileKind.SOURCE) == Section.DEV


def test_jest_module_name_mapper_and_bundler_aliases():
    from depinfer.mapping.javascript_layout import _bundler_aliases

    text = (
        "module.exports = { moduleNameMapper: { '^@app/(.*)$': '<rootDir>/src/$1', "
        "'\\\\.(css)$': 'identity-obj-proxy' }, resolve: { alias: { '~': 'src', utils: 'u' } } }"
    )
    assert _bundler_aliases(text) == ["@app/", "~", "utils"]


def test_type_only_imports_of_specification_types_map_to_definitely_typed(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "x", "main": "a.ts"}')
    (tmp_path / "a.ts").write_text(
        "import type { Root } from 'hast'\nimport { visit } from 'unist'\nvisit()\n"
    )
    found = {c.name: c.section for c in mapped(tmp_path)}
    # a published library's shipped types reach its users: they need the declarations too
    assert found == {"@types/hast": Section.RUNTIME, "unist": Section.RUNTIME}
    (tmp_path / "package.json").write_text('{"name": "site", "private": true}')
    found = {c.name: c.section for c in mapped(tmp_path)}
    assert found == {"@types/hast": Section.DEV, "unist": Section.RUNTIME}


def test_jsdoc_type_imports_in_javascript():
    from depinfer.analyzers.javascript import parse_source

    src = "/**\n * @import {Nodes} from 'hast'\n * @param {import('unified').P} p\n */\n"
    uses = parse_source(src, "javascript")
    assert [(u.module, u.type_only) for u in uses] == [("hast", True), ("unified", True)]


def test_jsdoc_types_count_only_where_typescript_checks_the_javascript(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "x", "main": "index.js"}')
    (tmp_path / "index.js").write_text("/** @type {import('@jest/types').Config} */\n")
    assert mapped(tmp_path) == []
    (tmp_path / "tsconfig.json").write_text('{"compilerOptions": {"checkJs": true}}')
    names = _mapped_names(tmp_path)
    assert names == {"@jest/types"}


def test_mdx_imports_count_but_fenced_examples_do_not():
    names = {n for _, n in candidates("mdx-docs")}
    assert {"starlight-package-managers", "astro"} <= names
    assert not names & {"example-only", "prose"}


def test_jsx_in_a_vue_component_is_compiled_for_vue(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "admin", "private": true}')
    (tmp_path / "Item.vue").write_text(
        "<script>\nexport default {\n  render(h) { return (<div>{this.title}</div>) }\n}\n"
        "</script>\n"
    )
    names = _mapped_names(tmp_path)
    assert "react" not in names and "vue" in names


def test_paths_into_node_modules_and_stylesheets_under_base_url(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "blog", "private": true}')
    (tmp_path / "tsconfig.json").write_text(
        '{"compilerOptions": {"baseUrl": ".", "paths": {"@/css/*": ["css/*"],'
        ' "pliny/*": ["node_modules/pliny/*"]}}}'
    )
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "tailwind.css").write_text("@import 'tailwindcss';\n")
    (tmp_path / "app.tsx").write_text(
        "import 'css/tailwind.css'\n"
        "import { Comments } from 'pliny/comments'\n"
        "export default function App() { return <Comments /> }\n"
    )
    found = _mapped_names(tmp_path)
    # a path that only redirects into node_modules still needs the package installed
    assert "pliny" in found
    # a stylesheet under baseUrl is the repository's own file, not the `css` package
    assert "css" not in found


def test_source_compiled_into_a_files_listed_dist_folder_is_shipped():
    found = candidates("compiled-workspace")
    # `files: ["dist"]` names only build output: useClamp/index.ts is what the build ships
    assert found[("packages/math/package.json", "@acme/shared")] == {Section.RUNTIME}
    assert found[("packages/shared/package.json", "vue")] == {Section.RUNTIME}
    # a function's documentation demo beside it is never built into the package
    assert found[("packages/math/package.json", "yaml")] == {Section.DEV}


def test_bundler_aliases_to_a_package_file_and_to_sibling_source():
    found = candidates("compiled-workspace")
    # `vue: 'vue/dist/vue.esm-bundler.js'` in the root config picks a build of vue: still vue
    assert found[("playgrounds/vite/package.json", "vue")] == {Section.RUNTIME}
    # the playground (outside the workspace) aliases @acme/math to its source: nothing to add
    assert ("playgrounds/vite/package.json", "@acme/math") not in found


def test_the_vscode_module_comes_from_the_extension_host(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "extension.ts").write_text(
        "import * as vscode from 'vscode'\nimport semver from 'semver'\n"
    )
    (tmp_path / "package.json").write_text('{"name": "ext", "main": "./dist/extension.js"}')
    assert _mapped_names(tmp_path) == {"vscode", "semver"}  # not an extension: an npm package
    (tmp_path / "package.json").write_text(
        '{"name": "ext", "main": "./dist/extension.js", "engines": {"vscode": "^1.90.0"}}'
    )
    assert _mapped_names(tmp_path) == {"semver"}


def test_an_app_declaration_file_augmenting_a_framework_module_needs_nothing(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "admin", "private": true}')
    (tmp_path / "components.d.ts").write_text(
        "// generated by unplugin-vue-components\nimport '@vue/runtime-core'\nexport {}\n"
        "declare module '@vue/runtime-core' {\n  export interface GlobalComponents {}\n}\n"
    )
    assert _mapped_names(tmp_path) == set()
    # a workspace package that exports such a file hands the augmentation to its users
    (tmp_path / "package.json").write_text(
        '{"name": "@acme/types", "private": true, "exports": {"./global": '
        '{"types": "./components.d.ts"}}}'
    )
    assert _mapped_names(tmp_path) == {"@vue/runtime-core"}


def test_an_import_typescript_elides_counts_as_type_only(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "api", "private": true}')
    (tmp_path / "user.ts").write_text(
        "import { WriteError } from 'mongodb'\nexport const f = (e: WriteError) => e\n"
    )
    (tmp_path / "Page.vue").write_text(
        "<script setup lang=\"ts\">\nimport Card from 'ui-card'\n</script>\n"
        "<template><Card /></template>\n"
    )

    def type_only() -> dict[str, bool]:
        return {c.name: npm_facts(c).type_only for c in mapped(tmp_path) if c.name != "vue"}

    # the Vue template uses what its script imports
    assert type_only() == {"mongodb": True, "ui-card": False}
    (tmp_path / "tsconfig.json").write_text('{"compilerOptions": {"verbatimModuleSyntax": true}}')
    assert type_only() == {"mongodb": False, "ui-card": False}


def test_inline_module_scripts_of_an_app_entry_html_are_bundled_code(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "app", "private": true}')
    (tmp_path / "index.html").write_text(
        '<div id="app"></div>\n<script type="module">\n  import React from \'react\'\n'
        "  import ReactDOM from 'react-dom/client'\n</script>\n"
        '<script type="module" src="/src/main.jsx"></script>\n'
        "<script>import('not-a-module-script')</script>\n"
    )
    assert _mapped_names(tmp_path) == {"react", "react-dom"}
    # with an import map the page loads its names from URLs: nothing to install
    (tmp_path / "index.html").write_text(
        '<script type="importmap">{"imports": {"vue": "/vendor/vue.js"}}</script>\n'
        "<script type=\"module\">import { createApp } from 'vue'</script>\n"
    )
    assert _mapped_names(tmp_path) == set()


def test_each_candidate_names_the_mapping_step_that_named_its_package():
    named = {}
    for fixture in ("jsx", "monorepo", "esm-ts"):
        for c in mapped(FIXTURES / "javascript" / fixture):
            named.setdefault(c.name, set()).add(npm_facts(c).named_by)
    assert named["react"] >= {"jsx_runtime", "package_name"}  # JSX, and `import React`
    assert named["@acme/core"] == {"sibling_package"}
    assert named["@types/node"] == {"node_types"}
    assert named["express"] == {"package_name"}


def test_files_negations_leave_specs_out_of_the_packed_source():
    from depinfer.mapping.javascript import _in_files

    files = ["dist", "src", "!**/*.spec.{t,j}s", "!**/__tests__/*"]
    assert _in_files(files, "src/index.ts")
    assert not _in_files(files, "src/cheerio.spec.ts")
    assert not _in_files(files, "src/a.spec.js")
    assert not _in_files(files, "src/__tests__/a.ts")
    assert _in_files(["!src/x.js", "src"], "src/x.js")  # the last entry naming it decides


def test_docusaurus_client_api_modules_are_no_packages(tmp_path: Path):
    # `@docusaurus/Link` and friends are @docusaurus/core's bundler aliases (the registry
    # refuses those names); the scope's real packages stay external
    root = write_tree(
        tmp_path / "site",
        {
            "package.json": '{"name": "site", "private": true}',
            "src/pages/index.js": (
                "import Link from '@docusaurus/Link';\n"
                "import useDocusaurusContext from '@docusaurus/useDocusaurusContext';\n"
                "import Head from '@docusaurus/Head';\n"
                "import {useColorMode} from '@docusaurus/theme-common';\n"
                "export default () => Link && Head && useDocusaurusContext && useColorMode;\n"
            ),
        },
    )
    names = _mapped_names(root)
    assert names == {"@docusaurus/theme-common"}


def _sections(root: Path) -> dict[str, set[Section]]:
    out: dict[str, set[Section]] = {}
    for c in mapped(root):
        out.setdefault(c.name, set()).add(c.section)
    return out


NPMIGNORE_WHITELIST = "**/*\n!/lib/**\n!index.js\n!README.md\n"


def test_what_npmignore_leaves_out_of_a_package_published_as_written_is_tooling(tmp_path):
    # axios' shape: no `files`, an .npmignore that packs only lib/ and index.js; bin/ holds
    # the maintainers' release scripts, never published
    root = write_tree(
        tmp_path / "lib-pkg",
        {
            "package.json": '{"name": "lib-pkg", "main": "index.js"}',
            ".npmignore": NPMIGNORE_WHITELIST,
            "index.js": "module.exports = require('./lib/core');\n",
            "lib/core.js": "const ms = require('ms');\nmodule.exports = ms;\n",
            "bin/release.js": "const chalk = require('chalk');\n",
        },
    )
    found = _sections(root)
    assert found["ms"] == {Section.RUNTIME}
    assert found["chalk"] == {Section.DEV}


def test_npmignore_of_a_package_that_publishes_its_build_leaves_the_source_shipped(tmp_path):
    # the .npmignore keeps src/ out because the build (dist/, not in the repository) is what
    # is packed: src/ is what the build compiles, its imports are the package's own
    root = write_tree(
        tmp_path / "ts-pkg",
        {
            "package.json": '{"name": "ts-pkg", "main": "dist/index.js"}',
            ".npmignore": "src/\ntsconfig.json\n",
            "src/index.ts": "import ms from 'ms';\nexport default ms;\n",
        },
    )
    assert _sections(root)["ms"] == {Section.RUNTIME}

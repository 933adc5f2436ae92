"""The JS/TS analyzer: which specifiers count, and how each use is marked."""

from depinfer.analyzers.javascript import _embedded_scripts, parse_source


def mods(src: str, grammar: str = "typescript") -> dict[str, dict]:
    return {u.module: u for u in parse_source(src, grammar)}


def test_esm_imports_exports_and_side_effect_imports():
    found = mods("import a from 'a'\nimport 'side'\nexport * from 'b'\nexport { c } from 'c'\n")
    assert set(found) == {"a", "side", "b", "c"}
    assert found["side"].line == 2


def test_commonjs_require_resolve_and_dynamic_import():
    found = mods(
        "const x = require('x')\nrequire.resolve('y')\nawait import('z')\nrequire(`t`)\n",
        "javascript",
    )
    assert set(found) == {"x", "y", "z", "t"}
    assert all(found[m].dynamic for m in "xyzt")


def test_require_with_expression_or_substitution_is_ignored():
    assert mods("require(name)\nrequire(`a-${b}`)\n", "javascript") == {}


def test_a_template_whose_fixed_start_names_a_whole_package_loads_that_package():
    src = (
        "require.resolve(`@scope/wasms/out/tree-sitter-${lang}.wasm`)\n"
        "require(`lodash/${fn}`)\n"
        "import(`./locales/${l}.js`)\n"
        "import(`${base}/x.js`)\n"
        "require(`https://cdn/${x}`)\n"
    )
    found = mods(src, "javascript")
    assert set(found) == {"@scope/wasms", "lodash"}
    assert found["@scope/wasms"].dynamic


def test_strings_and_comments_that_look_like_imports_do_not_count():
    src = "// require('c1')\n/* import 'c2' */\nconst s = \"require('c3')\"\n"
    assert mods(src, "javascript") == {}


def test_type_only_forms_are_marked():
    found = mods(
        "import type { A } from 'a'\n"
        "import { type B } from 'b'\n"
        "import { type C, d } from 'cd'\n"
        "export type { E } from 'e'\n"
        "type T = typeof import('t')\n"
    )
    assert found["a"].type_only and found["b"].type_only and found["e"].type_only
    assert found["t"].type_only
    assert not found["cd"].type_only


def test_typescript_import_equals_require():
    assert "fs" in mods("import fs = require('fs')\n")


def test_ambient_module_declarations_are_not_imports():
    assert mods("declare module 'm' { import 'inside' }\n") == {}


def test_triple_slash_reference_types():
    found = mods('/// <reference types="node" />\nexport {}\n')
    assert found["node"].facts.types_reference and found["node"].type_only


def test_jsx_is_reported_once_with_pragma_source():
    uses = parse_source("const a = <div/>\nconst b = <><p/></>\n", "javascript")
    jsx = [u for u in uses if u.facts.jsx]
    assert len(jsx) == 1 and jsx[0].module == ""
    pragma = parse_source("/** @jsxImportSource preact */\nconst a = <div/>\n", "tsx")
    assert [u.module for u in pragma if u.facts.jsx] == ["preact"]


def test_loader_helpers_report_bare_package_names_as_heuristic():
    found = mods(
        "resolveBin('jest')\nimportFrom(cwd, '@scope/plugin')\nresolve(dir, 'payload-plugin')\n"
        "resolveBin('./local.js')\n",
        "javascript",
    )
    assert found["jest"].facts.heuristic and found["@scope/plugin"].facts.heuristic
    assert "payload-plugin" not in found  # path.resolve is not a package loader
    assert "./local.js" not in found


def test_loads_inside_try_are_optional():
    found = mods("try { require('opt') } catch {}\nrequire('req')\n", "javascript")
    assert found["opt"].optional and not found["req"].optional


def test_scoped_names_in_plain_strings_are_string_literals():
    found = mods('addNamed(path, "useSignals", "@preact/signals-react/runtime")\n')
    assert found["@preact/signals-react/runtime"].facts.string_literal
    assert found["@preact/signals-react/runtime"].facts.single_value
    listed = mods('const KNOWN = new Set(["@scope/a", "@scope/b"])\n')
    assert not listed["@scope/a"].facts.single_value  # one of a list of names to compare with


def test_vue_and_svelte_script_blocks_keep_their_line_numbers():
    vue = "<template><div/></template>\n\n<script setup lang=\"ts\">\nimport { ref } from 'vue'\n</script>\n"
    blocks = _embedded_scripts(vue, ".vue")
    assert blocks[0][1] == "typescript"
    uses = parse_source(blocks[0][0], blocks[0][1], blocks[0][2])
    assert uses[0].module == "vue" and uses[0].line == 4


def test_flow_annotated_javascript_is_read_again_with_the_tsx_grammar():
    src = "// @flow\nimport type { A } from 'a'\nconst x: Array<string> = require('y')\n"
    assert {u.module for u in parse_source(src, "javascript")} == {"a", "y"}


def test_minified_and_bundled_files_are_recognised():
    from depinfer.analyzers.javascript import looks_generated

    assert looks_generated("var a=require('x');" * 500)
    assert looks_generated("/******/ (function(modules) {\n" + "x\n" * 2000)
    assert not looks_generated("const x = require('x')\n" * 500)


def test_resolving_from_other_directories_names_no_dependency():
    found = mods(
        "require.resolve('a/package.json', { paths: [cwd] })\n"
        "require.resolve('b', opts)\n"
        "import.meta.resolve('c', pathToFileURL(cwd))\n"
        "import.meta.resolve('d', import.meta.url)\n"
        "require.resolve('e', { conditions: ['x'] })\n"
        "require.resolve('f')\n"
        "require.resolve(\n  '@scope/g/package.json',\n  { paths: [cwd] },\n)\n",
    )
    assert set(found) == {"d", "e", "f"}


def test_global_values_typed_as_a_package_export_are_runtime_uses():
    found = mods(
        "export {}\n"
        "declare global {\n"
        "  const ref: typeof import('vue')['ref']\n"
        "  type Ref = import('vue-types').Ref\n"
        "}\n"
        "declare module 'vue' {\n"
        "  interface GlobalComponents { C: typeof import('comp-lib')['C'] }\n"
        "}\n"
    )
    assert set(found) == {"vue"}
    assert found["vue"].type_only is False


def test_scoped_names_used_as_keys_or_compared_against_load_nothing():
    found = mods(
        "x = result.plugins['@scope/a'].strict\n"
        "const cfg = { '@scope/b': { preset: 'angular' } }\n"
        "if (name === '@scope/c') {}\n"
        "load('@scope/d')\n"
        "if (rule.params.includes('@scope/e')) {}\n"
        "seen.has('@scope/f')\n"
    )
    assert set(found) == {"@scope/d"}


def test_webpack_inline_loaders_name_each_loader_and_the_resource():
    found = mods(
        "require('script-loader!jsonlint')\n"
        "import '!!raw-loader?esModule=false!./notes.txt'\n"
        "import 'style-loader!css-loader!./a.css'\n",
        "javascript",
    )
    assert {"script-loader", "jsonlint", "raw-loader", "style-loader", "css-loader"} <= set(found)
    assert "./notes.txt" in found


def test_packages_reached_by_name_at_run_time_are_heuristic_uses():
    found = mods(
        "app.set('view engine', 'pug')\n"
        "const libs = [['/js/lib/chart.js', 'node_modules/chart.js/dist/chart.umd.js']]\n"
        "app.use(express.static(path.join(__dirname, 'node_modules/@popperjs/core/dist')))\n"
        "const excluded = ['node_modules/vue/', 'node_modules/@vueuse/core/']\n"
        "// node_modules/commented/index.js\n",
        "javascript",
    )
    assert set(found) == {"pug", "chart.js", "@popperjs/core"}
    assert all(u.facts.heuristic for u in found.values())


def test_a_view_engine_with_a_registered_renderer_names_no_package():
    src = "app.engine('.html', ejs.__express)\napp.set('view engine', 'html')\n"
    assert "html" not in mods(src, "javascript")
    assert "pug" in mods("app.engine('html', x)\napp.set('view engine', 'pug')\n", "javascript")


def test_pino_transport_targets_are_modules_loaded_by_name():
    found = mods(
        "const app = fastify({ logger: { transport: { target: 'pino-pretty' } } })\n"
        "pino.transport({ targets: [{ target: '@axiomhq/pino' }, { target: './own.js' }] })\n"
        "pino.transport({ target: 'pino/file' })\n"
        "options.logger.transport = { target: 'pino-loki' }\n"
        "const ts = { target: 'es2020' }\n"
        "export default { build: { target: 'esnext' } }\n",
    )
    heuristic = {m for m, u in found.items() if u.facts.heuristic}
    assert heuristic == {"pino-pretty", "@axiomhq/pino", "pino/file", "pino-loki"}


def test_a_bare_import_that_anchors_a_module_augmentation_is_marked():
    found = mods(
        "import '@vue/runtime-core'\nimport 'vue'\nexport {}\n"
        "declare module '@vue/runtime-core' {\n  export interface GlobalComponents {}\n}\n"
    )
    assert found["@vue/runtime-core"].facts.augmentation is True
    assert not found["vue"].facts.augmentation


def test_imports_whose_bindings_are_only_types_are_elidable():
    found = mods(
        "import { WriteError, Unused } from 'mongodb'\n"
        "import D from 'd'\nimport * as NS from 'ns'\nimport { Y as Z } from 'y'\n"
        "import E from 'e'\nimport { F } from 'f'\nimport G from 'g'\n"
        "let e: WriteError\nfunction f(a: D.T, b: NS.Q, c: Z) {}\n"
        "const q = { E }\nexport { F }\nnew G()\n"
    )
    elided = {m for m, u in found.items() if u.facts.elidable}
    assert elided == {"mongodb", "d", "ns", "y"}

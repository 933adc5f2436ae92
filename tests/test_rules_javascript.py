"""Implicit tooling dependencies: scripts, config files, naming conventions."""

from pathlib import Path

from conftest import FIXTURES, copy_fixture

from depinfer.analyzers.javascript import analyze
from depinfer.context import Options
from depinfer.facts.javascript import npm_facts
from depinfer.mapping.javascript import map_imports
from depinfer.model import Section
from depinfer.pipeline import make_context
from depinfer.rules.javascript import expand, infer, js_config_values, script_executables, tools
from depinfer.scan import scan


def implied(name: str) -> dict[str, set[Section]]:
    project = scan(FIXTURES / "javascript" / name)
    ctx = make_context(Options(offline=True))
    refs = analyze(project, ctx)
    out: dict[str, set[Section]] = {}
    for c in infer(project, refs, map_imports(project, refs, ctx), ctx):
        out.setdefault(c.name, set()).add(c.section)
    return out


def test_every_tool_unit_names_its_documentation():
    assert tools()
    assert all(t.docs.startswith("https://") for t in tools())


def test_babel_and_eslint_short_names():
    assert expand("@babel/env", "babel-preset") == "@babel/preset-env"
    assert expand("module-resolver", "babel-plugin") == "babel-plugin-module-resolver"
    assert expand("@scope", "babel-preset") == "@scope/babel-preset"
    assert expand("module:metro-react-native-babel-preset", "babel-preset") == (
        "metro-react-native-babel-preset"
    )
    assert expand("airbnb", "eslint-config") == "eslint-config-airbnb"
    # ESLint prefixes an unscoped short name that has a subpath; Babel does not
    assert expand("next/core-web-vitals", "eslint-config") == "eslint-config-next"
    assert expand("airbnb/hooks", "eslint-config") == "eslint-config-airbnb"
    assert expand("eslint-config-airbnb/hooks", "eslint-config") == "eslint-config-airbnb"
    assert expand("prettier/@typescript-eslint", "eslint-config") == "eslint-config-prettier"
    assert expand("foo/bar", "babel-plugin") == "foo"
    assert expand("plugin:react/recommended", "eslint-config") == "eslint-plugin-react"
    assert expand("plugin:@typescript-eslint/recommended", "eslint-config") == (
        "@typescript-eslint/eslint-plugin"
    )
    assert expand("eslint:recommended", "eslint-config") is None
    assert expand("@stylistic", "eslint-plugin") == "@stylistic/eslint-plugin"
    assert expand("jsdom", "jest-environment") == "jest-environment-jsdom"
    assert expand("node", "jest-environment") is None
    assert expand("vite/client", "types") == "vite"
    assert expand("jest", "types") == "@types/jest"


def test_script_commands_to_executables_and_preloads():
    exes, mods = script_executables(
        "cross-env NODE_ENV=test jest --coverage && npx eslint . ; node -r dotenv/config x.js"
    )
    assert exes == ["cross-env", "jest", "eslint", "node"]
    assert mods == ["dotenv/config"]
    assert script_executables("npm run build && yarn test")[0] == []
    assert script_executables("pnpm exec tsc -p .")[0] == ["tsc"]


def test_js_config_values_read_literals_without_running_code():
    text = (
        "module.exports = { presets: [[require.resolve('@babel/preset-env'), "
        "{ targets: { node: 'current' } }], 'x'], testEnvironment: pick(deps, 'jsdom', 'node') }"
    )
    found = js_config_values(text, ["presets", "testEnvironment"])
    assert found["presets"] == [[["@babel/preset-env", {"targets": {"node": "current"}}], "x"]]
    assert found["testEnvironment"] == [["jsdom", "node"]]


def test_config_only_fixture():
    found = implied("config-only")
    expected_dev = {
        "jest",
        "ts-jest",
        "jest-environment-jsdom",
        "@testing-library/jest-dom",
        "jest-svg-transformer",
        "jest-junit",
        "@babel/core",
        "@babel/preset-env",
        "@babel/preset-react",
        "babel-plugin-module-resolver",
        "eslint",
        "eslint-config-airbnb",
        "eslint-plugin-react",
        "@typescript-eslint/eslint-plugin",
        "@typescript-eslint/parser",
        "eslint-config-prettier",
        "eslint-plugin-import",
        "@stylistic/eslint-plugin",
        "tailwindcss",
        "autoprefixer",
        "prettier-plugin-tailwindcss",
        "cross-env",
        "@babel/cli",
        "typescript",
        "dotenv",
        "tsx",
    }
    assert expected_dev <= set(found)
    assert all(Section.DEV in found[n] for n in expected_dev)
    assert "current" not in found and "default" not in found
    assert "npm-run-all" not in found  # run-s comes from the declared npm-run-all2
    assert found["@babel/runtime"] == {Section.RUNTIME}  # transform-runtime's companion
    assert found["patch-package"] == {Section.RUNTIME}  # postinstall runs for users


def _jest_rule_requires(root: Path) -> dict[str, bool]:
    project = scan(root)
    ctx = make_context(Options(offline=True))
    refs = analyze(project, ctx)
    return {
        c.name: npm_facts(c).require
        for c in infer(project, refs, [], ctx)
        if c.evidence and c.evidence[0].rule == "rule:jest" and not npm_facts(c).implied
    }


def test_modules_jests_test_runtime_loads_need_commonjs_unless_tests_run_as_esm(tmp_path):

    found = _jest_rule_requires(FIXTURES / "javascript" / "config-only")
    # serializers and setup files are required inside the test runtime
    assert found["jest-snapshot-serializer-raw"] and found["@testing-library/jest-dom"]
    # transforms and reporters may be ESM (Jest loads them with import when they are)
    assert not found["jest-svg-transformer"] and not found["jest-junit"]
    root = copy_fixture("javascript", "config-only", tmp_path / "esm")
    pkg = root / "package.json"
    pkg.write_text(
        pkg.read_text().replace(
            '"cross-env NODE_ENV=test jest --coverage"',
            '"cross-env NODE_OPTIONS=--experimental-vm-modules jest"',
        )
    )
    assert not any(_jest_rule_requires(root).values())


def test_stylesheet_imports_and_types_node():
    assert "tailwindcss" in implied("jsx")
    assert Section.DEV in implied("esm-ts")["@types/node"]


def test_preload_flags_only_for_commands_that_preload():
    assert script_executables("conventional-changelog -i CHANGELOG.md -r 1")[1] == []
    assert script_executables("mocha --require ts-node/register")[1] == ["ts-node/register"]


def test_build_settings_that_make_the_output_import_helpers_are_dependencies():
    found = implied("build-helpers")
    assert found["@babel/runtime"] == {Section.RUNTIME}  # rollup babelHelpers: 'runtime'
    assert found["tslib"] == {Section.RUNTIME}  # tsconfig importHelpers
    assert found["rollup"] == {Section.DEV} and found["@rollup/plugin-babel"] == {Section.DEV}
    # a tsconfig template with the option commented out implies nothing
    project = scan(FIXTURES / "javascript" / "build-helpers")
    ctx = make_context(Options(offline=True))
    refs = analyze(project, ctx)
    tslib = [c.manifest for c in infer(project, refs, [], ctx) if c.name == "tslib"]
    assert tslib == ["package.json"]


def test_compiler_options_pass_down_through_extends():
    # importHelpers sits in the repository's tsconfig.base.json; the package's own
    # tsconfig extends it, so the package's compiled output imports tslib
    project = scan(FIXTURES / "javascript" / "monorepo")
    ctx = make_context(Options(offline=True))
    refs = analyze(project, ctx)
    tslib = {c.manifest for c in infer(project, refs, [], ctx) if c.name == "tslib"}
    assert "packages/core/package.json" in tslib


def test_a_companion_names_the_rule_that_found_it_after_its_evidence():
    for fixture, name, rule in (
        ("build-helpers", "tslib", "rule:option_companions tsconfig:importHelpers"),
        (
            "config-only",
            "@babel/runtime",
            "rule:package_companions @babel/plugin-transform-runtime",
        ),
    ):
        project = scan(FIXTURES / "javascript" / fixture)
        ctx = make_context(Options(offline=True))
        refs = analyze(project, ctx)
        found = infer(project, refs, map_imports(project, refs, ctx), ctx)
        evidence = [str(e) for c in found if c.name == name for e in c.evidence]
        assert evidence[0].endswith(("#importHelpers", "#installation"))  # the rule's docs
        assert evidence[-1] == rule  # for `--explain`


def test_material_ui_brings_its_default_style_engine(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "app", "private": true, "type": "module"}')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "App.jsx").write_text(
        "import Button from '@mui/material/Button';\n"
        "export const App = () => <Button>ok</Button>;\n"
    )
    project = scan(tmp_path)
    ctx = make_context(Options(offline=True))
    refs = analyze(project, ctx)
    names = {c.name for c in infer(project, refs, map_imports(project, refs, ctx), ctx)}
    assert {"@mui/material", "@emotion/react", "@emotion/styled"} <= names


def _implied_at(root: Path) -> dict[str, set[Section]]:
    project = scan(root)
    ctx = make_context(Options(offline=True))
    refs = analyze(project, ctx)
    out: dict[str, set[Section]] = {}
    for c in infer(project, refs, map_imports(project, refs, ctx), ctx):
        out.setdefault(c.name, set()).add(c.section)
    return out


def test_an_entry_point_that_wraps_an_optional_peer_brings_the_peer(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "theme", "main": "index.js"}')
    (tmp_path / "index.js").write_text(
        "import { useFocusTrap } from '@vueuse/integrations/useFocusTrap'\n"
    )
    (tmp_path / "test").mkdir()
    (tmp_path / "test" / "a.test.js").write_text(
        "import { useFuse } from '@vueuse/integrations/useFuse'\n"
    )
    found = _implied_at(tmp_path)
    assert found["focus-trap"] == {Section.RUNTIME}
    assert found["fuse.js"] == {Section.DEV}
    assert "axios" not in found


def test_a_process_manager_the_start_script_runs_is_a_runtime_dependency(tmp_path):
    (tmp_path / "package.json").write_text(
        '{"name": "api", "scripts": {"start": "pm2-runtime start ecosystem.config.json",'
        ' "dev": "cross-env NODE_ENV=development nodemon src/index.js",'
        ' "serve": "forever src/index.js"}}'
    )
    found = _implied_at(tmp_path)
    assert found["pm2"] == {Section.RUNTIME}
    assert found["forever"] == {Section.DEV}  # not the start script
    assert found["nodemon"] == {Section.DEV}


def test_a_production_script_and_an_app_server_are_runtime(tmp_path):
    (tmp_path / "package.json").write_text(
        '{"name": "app", "scripts": {"prod": "pm2-runtime start ecosystem.config.js",'
        ' "start": "remix-serve ./build/index.js", "dev": "react-router-serve ./build"}}'
    )
    found = _implied_at(tmp_path)
    assert found["pm2"] == {Section.RUNTIME}  # a script named for production
    assert found["@remix-run/serve"] == {Section.RUNTIME}  # the app server `start` runs
    assert found["@react-router/serve"] == {Section.DEV}  # not a production script


def test_a_companion_marked_if_used_only_places_a_package_in_use(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "app", "private": true}')
    (tmp_path / "button.tsx").write_text("import { cva } from 'class-variance-authority'\n")
    assert "tailwindcss-animate" not in _implied_at(tmp_path)
    (tmp_path / "tailwind.config.js").write_text(
        "module.exports = { plugins: [require('tailwindcss-animate')] }\n"
    )
    assert Section.RUNTIME in _implied_at(tmp_path)["tailwindcss-animate"]


def test_a_subcommand_that_needs_more_packages_brings_them(tmp_path):
    (tmp_path / "package.json").write_text(
        '{"name": "site", "private": true, "scripts": {"build": "astro check && astro build"}}'
    )
    found = _implied_at(tmp_path)
    assert {"astro", "@astrojs/check", "typescript"} <= set(found)
    (tmp_path / "package.json").write_text(
        '{"name": "site", "private": true, "scripts": {"build": "astro build --check-links"}}'
    )
    assert "@astrojs/check" not in _implied_at(tmp_path)


def test_a_tsconfig_alone_adds_no_compiler_to_an_app_listing_everything_in_dependencies(
    tmp_path,
):
    from depinfer.context import Context
    from depinfer.pipeline import infer as run_infer
    from depinfer.registries import Registries

    (tmp_path / "package.json").write_text(
        '{"name": "site", "private": true, "scripts": {"dev": "vite"},'
        ' "dependencies": {"vite": "^5.0.0"}}'
    )
    (tmp_path / "tsconfig.json").write_text("{}")
    (tmp_path / "main.ts").write_text("export const a: number = 1\n")
    options = Options(offline=True)
    ctx = Context(options=options, registries=Registries(offline=True))
    names = {r.name for r in run_infer(tmp_path, options, ctx=ctx).requirements}
    assert "typescript" not in names
    (tmp_path / "package.json").write_text(
        '{"name": "site", "private": true, "scripts": {"dev": "vite", "check": "tsc"},'
        ' "dependencies": {"vite": "^5.0.0"}}'
    )
    names = {r.name for r in run_infer(tmp_path, options, ctx=ctx).requirements}
    assert "typescript" in names


def test_babel_polyfill_settings_make_the_output_import_core_js(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "admin", "private": true}')
    (tmp_path / "babel.config.js").write_text(
        "module.exports = { presets: ['@vue/cli-plugin-babel/preset'] }\n"
    )
    assert _implied_at(tmp_path)["core-js"] == {Section.RUNTIME}
    (tmp_path / "babel.config.js").write_text(
        "module.exports = { presets: [['@babel/preset-env', { useBuiltIns: 'usage' }]] }\n"
    )
    assert _implied_at(tmp_path)["core-js"] == {Section.RUNTIME}
    (tmp_path / "babel.config.js").write_text(
        "module.exports = { presets: [['@babel/preset-env', { useBuiltIns: false }]] }\n"
    )
    assert "core-js" not in _implied_at(tmp_path)


def test_a_stylesheet_importing_from_node_modules_names_the_package(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "site", "private": true}')
    (tmp_path / "public").mkdir()
    (tmp_path / "public" / "main.scss").write_text(
        "@import 'node_modules/bootstrap/scss/bootstrap';\n"
        "@import 'node_modules/@fortawesome/fontawesome-free/scss/solid';\n"
        "@import 'variables';\n"
    )
    found = _implied_at(tmp_path)
    assert {"bootstrap", "@fortawesome/fontawesome-free"} <= set(found)
    assert "variables" not in found


def test_scripts_an_install_script_runs_are_runtime_too(tmp_path):
    (tmp_path / "package.json").write_text(
        '{"name": "app", "scripts": {"postinstall": "patch-package && npm run scss",'
        ' "scss": "sass --update ./public/css", "build": "yarn run bundle",'
        ' "bundle": "webpack"}}'
    )
    found = _implied_at(tmp_path)
    assert found["sass"] == {Section.RUNTIME}
    assert found["webpack"] == {Section.DEV}


def test_an_executable_whose_package_is_named_otherwise_comes_from_the_bins_table(tmp_path):
    (tmp_path / "package.json").write_text(
        '{"name": "app", "private": true, "scripts": {"postinstall": "tsr generate"}}'
    )
    found = _implied_at(tmp_path)
    assert "@tanstack/router-cli" in found and "tsr" not in found


def test_nuxt_modules_named_in_its_config_are_an_apps_dependencies(tmp_path):
    (tmp_path / "package.json").write_text('{"private": true, "devDependencies": {}}')
    (tmp_path / "nuxt.config.ts").write_text(
        "export default defineNuxtConfig({\n"
        "  modules: ['@nuxt/ui', ['@nuxtjs/i18n', { locales: [] }], '~/modules/local',"
        " './modules/other'],\n"
        "  css: { modules: { localsConvention: 'camelCase' } },\n"
        "})\n"
    )
    found = _implied_at(tmp_path)
    assert found["@nuxt/ui"] == {Section.RUNTIME}
    assert found["@nuxtjs/i18n"] == {Section.RUNTIME}
    assert not [n for n in found if n.startswith(("~", ".", "@/"))]


def test_a_nest_application_needs_the_express_platform_unless_it_runs_on_fastify(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "api", "devDependencies": {}}')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.ts").write_text(
        "import { NestFactory } from '@nestjs/core'\n"
        "import { AppModule } from './app.module'\n"
        "NestFactory.create(AppModule)\n"
    )
    assert _implied_at(tmp_path)["@nestjs/platform-express"] == {Section.RUNTIME}
    (tmp_path / "src" / "main.ts").write_text(
        "import { NestFactory } from '@nestjs/core'\n"
        "import { FastifyAdapter } from '@nestjs/platform-fastify'\n"
        "NestFactory.create(AppModule, new FastifyAdapter())\n"
    )
    assert "@nestjs/platform-express" not in _implied_at(tmp_path)


def test_an_apps_contentlayer_config_goes_with_the_app_like_next_config(tmp_path):
    (tmp_path / "package.json").write_text(
        '{"name": "blog", "private": true, "devDependencies": {"typescript": "^5"}}'
    )
    (tmp_path / "contentlayer.config.ts").write_text(
        "import { makeSource } from 'contentlayer2/source-files'\n"
        "import rehypeSlug from 'rehype-slug'\n"
        "export default makeSource({ mdx: { rehypePlugins: [rehypeSlug] } })\n"
    )
    found = _implied_at(tmp_path)
    assert found["rehype-slug"] == {Section.RUNTIME}
    assert found["contentlayer2"] == {Section.RUNTIME}


def test_an_angular_app_with_browser_animations_needs_the_animation_engine(tmp_path):
    (tmp_path / "package.json").write_text('{"name": "jira", "private": true}')
    (tmp_path / "angular.json").write_text(
        '{"projects": {"app": {"architect": {"build": {"options": '
        '{"polyfills": ["zone.js", "src/polyfills.ts"]}}}}}}'
    )
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "polyfills.ts").write_text("export {}\n")
    (tmp_path / "src" / "main.ts").write_text(
        "import { provideAnimations } from '@angular/platform-browser/animations'\n"
    )
    (tmp_path / ".storybook").mkdir()
    (tmp_path / ".storybook" / "main.js").write_text("const a = require('autoprefixer')\n")
    found = _implied_at(tmp_path)
    assert found["@angular/animations"] == {Section.RUNTIME}
    assert found["zone.js"] == {Section.RUNTIME}
    assert "src" not in found  # a polyfills entry naming a TypeScript file is the app's own
    # Storybook's configuration folder is tooling, in an app as in a library
    assert found["autoprefixer"] == {Section.DEV}


def test_a_start_script_that_sets_production_needs_its_env_wrapper(tmp_path):
    (tmp_path / "package.json").write_text(
        '{"name": "app", "private": true, "devDependencies": {"vitest": "1"}, "scripts": '
        '{"start": "cross-env NODE_ENV=production node index.js",'
        ' "dev": "cross-env NODE_ENV=development node index.js"}}'
    )
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "package.json").write_text(
        '{"name": "other", "private": true, "devDependencies": {"vitest": "1"}, "scripts": '
        '{"start": "cross-env NODE_ENV=development nodemon index.js"}}'
    )
    found = _implied_at(tmp_path)
    assert Section.RUNTIME in found["cross-env"]
    other = _implied_at(tmp_path / "other")
    assert other["cross-env"] == {Section.DEV}


def test_an_orm_dialect_names_the_driver_it_loads():
    found = implied("orm-drivers")
    # sequelize's `dialect`: both sides of the ternary, and pg-hstore beside pg (its docs)
    assert found["pg"] == {Section.RUNTIME}
    assert found["pg-hstore"] == {Section.RUNTIME}
    assert Section.RUNTIME in found["sqlite3"]
    assert found["mysql2"] == {Section.RUNTIME}  # knex's `client`


def test_an_orm_dialect_counts_only_in_the_package_that_uses_the_orm():
    project = scan(FIXTURES / "javascript" / "orm-drivers")
    ctx = make_context(Options(offline=True))
    refs = analyze(project, ctx)
    where = {
        (c.manifest, c.name)
        for c in infer(project, refs, map_imports(project, refs, ctx), ctx)
        if c.name in ("pg", "mysql2")
    }
    # knex ignores a `type` option; the web package uses no ORM
    assert where == {("api/package.json", "pg"), ("worker/package.json", "mysql2")}


def test_create_react_app_keeps_its_template_testing_trio(tmp_path):
    (tmp_path / "package.json").write_text(
        '{"name": "app", "private": true, "scripts": {"test": "react-scripts test"}}'
    )
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "App.test.js").write_text(
        "import { render } from '@testing-library/react'\n"
    )
    assert "@testing-library/user-event" in _implied_at(tmp_path)
    (tmp_path / "package.json").write_text('{"name": "app", "private": true}')
    assert "@testing-library/user-event" not in _implied_at(tmp_path)


def test_own_name_and_rule_options_name_no_package():
    # the package's own name in its test stylesheets is the package itself, and an option of
    # a rule (prettier/prettier's {"parser": "flow"}) is not an ESLint parser
    found = implied("self-named-tooling")
    assert "acme-css" not in found
    assert "flow" not in found
    assert {"babel-eslint", "eslint-plugin-prettier", "eslint-config-prettier"} <= set(found)


def test_js_config_values_skip_opaque_keys():
    text = """module.exports = {
      parser: '@typescript-eslint/parser',
      rules: { 'prettier/prettier': ['error', { parser: 'flow' }] },
      overrides: [{ files: ['*.vue'], parser: 'vue-eslint-parser' }],
    }"""
    values = js_config_values(text, ["parser"], {"rules"})
    assert values["parser"] == ["@typescript-eslint/parser", "vue-eslint-parser"]
    assert js_config_values(text, ["parser"])["parser"][1] == "flow"

"""Namespace packages: an import maps to a distribution whose file list may ship it, never
to a plug-in that only adds another sub-package to the namespace (python_index)."""

from __future__ import annotations

from conftest import FIXTURES, infer_offline

from depinfer.mapping.python_index import PypiIndex, load_index
from depinfer.model import Section

FIXTURE = FIXTURES / "python" / "map-namespace-core"


def test_core_module_maps_to_its_distribution_not_to_a_declared_plugin():
    result = infer_offline(FIXTURE)
    runtime = {r.name for r in result.requirements if r.section == Section.RUNTIME}
    # google-cloud-storage is declared (the gcs extra) and provides the `google` root,
    # but its file list ships only google.cloud.storage: google.protobuf is protobuf's
    assert runtime == {"protobuf", "googleapis-common-protos"}


def test_shipped_index_drops_plugins_whose_file_lists_lack_the_module():
    match = load_index().lookup("google.protobuf.json_format")
    assert match.chosen == "protobuf"
    # file lists known: each ships other sub-packages of `google`
    assert not {"google-auth", "google-cloud-storage", "googleapis-common-protos"} & set(
        match.providers
    )


def test_longest_prefix_still_decides_first():
    index = load_index()
    assert index.lookup("google.cloud.exceptions").chosen == "google-cloud-core"
    assert index.lookup("google.auth.transport.requests").chosen == "google-auth"


def _index(modules: dict[str, list[str]]) -> PypiIndex:
    ranks = {"ns-plugin": 1, "ns-core": 2, "ns-other": 3}
    return PypiIndex(modules=modules, ranks=ranks, unknown_tops=frozenset())


def test_a_provider_shipping_files_directly_in_the_namespace_stays():
    index = _index(
        {"ns": ["ns-plugin", "ns-core"], "ns.plugin": ["ns-plugin"], "ns.x": ["ns-core"]}
    )
    # ns-plugin's file list is known and lacks ns.util; ns-core's is known too and also
    # lacks it: nothing would be left, so the index cannot decide and both stay
    assert index.lookup("ns.util").providers == ["ns-plugin", "ns-core"]
    index = _index({"ns": ["ns-plugin", "ns-core"], "ns.plugin": ["ns-plugin"]})
    # ns-core's file list is unknown: it may ship ns.util, the plug-in does not
    assert index.lookup("ns.util").chosen == "ns-core"
    assert index.lookup("ns.plugin.sub").chosen == "ns-plugin"
    assert index.lookup("ns").chosen == "ns-plugin"  # the namespace itself: no judgement


def test_providers_with_module_files_in_the_key_folder_stay():
    index = _index({"ns.sub": ["ns-plugin", "ns-other"], "ns.sub.extra": ["ns-plugin"]})
    # both ship modules directly in ns/sub (their file lists record `ns.sub` itself)
    assert index.lookup("ns.sub.helpers").providers == ["ns-plugin", "ns-other"]


def test_core_modules_of_other_namespaces_map_to_their_core_not_a_declared_plugin():
    result = infer_offline(FIXTURES / "python" / "map-namespace-plugins")
    runtime = {r.name for r in result.requirements if r.section == Section.RUNTIME}
    # opentelemetry-exporter-gcp-trace (declared) provides the `opentelemetry` root too,
    # but ships only opentelemetry.exporter.cloud_trace; the amazon hooks are the amazon
    # provider's sub-package, not the declared meta-package's
    assert runtime == {
        "apache-airflow",
        "apache-airflow-providers-amazon",
        "azure-core",
        "azure-storage-blob",
        "opentelemetry-api",
        "opentelemetry-exporter-gcp-trace",
    }


def test_shipped_index_knows_file_lists_beyond_google():
    index = load_index()
    assert index.lookup("opentelemetry.context").chosen == "opentelemetry-api"
    assert index.lookup("opentelemetry.sdk.trace").chosen == "opentelemetry-sdk"
    assert index.lookup("sphinxcontrib.napoleon").key == "sphinxcontrib.napoleon"
    assert index.lookup("azure.storage.blob").providers == ["azure-storage-blob"]
    assert index.namespaces["airflow"] == ["apache-airflow-core"]


def test_a_sub_module_named_like_one_variant_keeps_the_roots_other_providers():
    # `mysql.connector` names mysql-connector, but mysql-connector-python (far more used)
    # ships the same plain `mysql` package: the name alone does not decide between them
    index = PypiIndex(
        modules={"mysql": ["mysql-connector-python", "mysql-connector"]},
        ranks={"mysql-connector-python": 500, "mysql-connector": 4000},
        unknown_tops=frozenset(),
    )
    match = index.lookup("mysql.connector")
    assert match is not None
    assert match.chosen == "mysql-connector-python"
    assert set(match.providers) == {"mysql-connector-python", "mysql-connector"}


def test_a_sub_module_named_like_a_namespace_distribution_stays_that_distribution():
    index = PypiIndex(
        modules={"ns": ["ns-core", "ns-sdk"]},
        ranks={"ns-core": 10, "ns-sdk": 400},
        unknown_tops=frozenset(),
        namespaces={"ns": ["ns-core"]},
    )
    match = index.lookup("ns.sdk")
    assert match is not None and match.chosen == "ns-sdk"

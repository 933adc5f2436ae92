"""The benchmark harness: how well depinfer restores masked dependency sections.

Pipeline per instance (runner.py): copy the repository tree to a scratch directory, mask its
build files as ../shared/benchmark/README.md and DI-Bench define it (masking.py, returning
the gold), run depinfer's pipeline on the copy and write its edits, read the masked sections
back (sections.py — the same readers as for the gold, cross-checked with depinfer's own
manifest readers) and score them (metrics.py: name and name+version P/R/F1 per instance and
micro, fake names by registry check, DI-Bench's failure categories decided from the text).
Peer tools can run on the same copies (peers.py). Results are one JSON file per instance, so
runs resume, shard (`--shard i/n`) and merge by instance id (report.py). dibench.py reads
DI-Bench's own dataset format and writes predictions where its evaluator looks for them.
With `--execute`, execute.py also runs each repository's CI test job through the local CI
runner (depinfer.ci) with gold, masked and inferred manifests and judges executability as
DI-Bench's curation does (gold passes, masked fails), absolutely and relative to gold's tests.

Command line: `depinfer bench run|prepare|report|merge` (cli.py, `depinfer bench --help`).
"""

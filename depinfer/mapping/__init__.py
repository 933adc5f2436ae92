"""Mapping: `ImportRef`s → `Candidate` packages; drops stdlib, builtins and internal modules."""

"""Resolvers: `Candidate`s + runtime + as-of date → `Requirement`s, one module per language."""

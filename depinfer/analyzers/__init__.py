"""Analyzers: source files → `ImportRef`s, one module per language (tree-sitter based)."""

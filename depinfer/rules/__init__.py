"""Implicit dependencies: data tables (config files, CI commands, attributes, conventions)
and the small engine that applies them; one module per language."""

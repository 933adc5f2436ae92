"""See DESIGN.md for what this stage does."""

"""depinfer: static dependency inference for Python, JavaScript/TypeScript, Rust and C#."""

__version__ = "0.1.0"

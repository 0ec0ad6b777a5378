"""The package version, in a module of its own so that any module can read it without importing the package's public names (``toolkit/__init__``)."""

__version__ = "0.1.0"  # as pyproject.toml's version

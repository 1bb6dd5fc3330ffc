"""The package version (one place: hatch reads it, the root package and the command show it)."""

__version__ = "0.2.0"

"""patience-solver: exhaustive solver for two-deck patience games."""

__version__ = "0.5.0"

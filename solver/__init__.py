"""patience-solver: exhaustive solver for two-deck patience games."""

from importlib.metadata import PackageNotFoundError, version


def _version() -> str:
    """The version of ``pyproject.toml`` (the one place it is written): from the installed
    package's metadata, or, in a source tree that is not installed, from the file."""
    try:
        return version("patience-solver")
    except PackageNotFoundError:
        import tomllib
        from pathlib import Path
        with open(Path(__file__).resolve().parent.parent / "pyproject.toml", "rb") as f:
            return tomllib.load(f)["project"]["version"]


__version__ = _version()

# The public API (``solver.api``): ``solver.solve``, ``solver.game``, ... Loaded on first use,
# so that ``import solver`` (every command, even ``--help``) stays light.
_API = ("Budget", "Deal", "ReplayResult", "Rules", "SolveResult", "game", "read_deal", "read_deals",
        "replay", "rules", "solve", "verify")
__all__ = ["__version__", *_API]


def __getattr__(name: str):
    if name in _API:
        from solver import api
        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

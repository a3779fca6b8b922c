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

"""patience-solver: exhaustive solver for two-deck patience games."""


def _version() -> str:
    """The version of ``pyproject.toml`` (the one place it is written): from the installed
    package's metadata, or, in a source tree that is not installed, from the file."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("patience-solver")
    except PackageNotFoundError:
        import tomllib
        from pathlib import Path
        with open(Path(__file__).resolve().parent.parent / "pyproject.toml", "rb") as f:
            return tomllib.load(f)["project"]["version"]


# The public API (``solver.api``): ``solver.solve``, ``solver.game``, ... Loaded on first use,
# so that ``import solver`` (every command, even ``--help``) stays light.
_API = ("Budget", "Deal", "ReplayResult", "Rules", "SolveResult", "game", "hint", "read_deal", "read_deals",
        "replay", "rules", "solve", "verify")
__all__ = ["__version__", *_API]


def __getattr__(name: str):
    # ``__version__`` is read on first use too: the package's import does nothing, so that
    # a Ctrl-C just after start-up reaches ``solver.__main__``, which makes it an interrupt.
    if name == "__version__":
        globals()["__version__"] = v = _version()
        return v
    if name in _API:
        from solver import api
        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""Run the notebooks top to bottom and keep their outputs (after `patience report`):

    python notebooks/run.py                  # both, written in place
    python notebooks/run.py win_rates.ipynb

``tests/test_notebooks.py`` runs them the same way, without writing."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOTEBOOKS = ("one_deal.ipynb", "win_rates.ipynb")


def execute(name: str):
    """The notebook ``name`` executed in this folder (an ``nbformat`` notebook)."""
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.read(HERE / name, as_version=4)
    NotebookClient(nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}).execute()
    return nb


def main(names: list[str]) -> None:
    import nbformat
    for name in names or NOTEBOOKS:
        nbformat.write(execute(name), HERE / name)
        print("ran", name, file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])

"""The notebooks run, top to bottom, on the shipped results (as CI runs them)."""

import importlib.util
from pathlib import Path

import pytest

RUN = Path(__file__).resolve().parent.parent / "notebooks" / "run.py"


def _runner():
    spec = importlib.util.spec_from_file_location("notebooks_run", RUN)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("name", ["one_deal.ipynb", "win_rates.ipynb"])
def test_notebook_runs(name):
    nb = _runner().execute(name)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert sum("image/png" in o.get("data", {}) for o in outputs) >= 4       # the plots were drawn

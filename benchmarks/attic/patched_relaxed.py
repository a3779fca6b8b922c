"""The prototypes' one way to try a change to an Alhambra module (lazy G0,
``solver/alhambra/relaxed.py``, by default): its source with textual replacements, compiled uncached as a module of its own (so it follows that file,
and a replacement that no longer matches fails loudly)."""
import importlib.util
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_patched(name: str, replacements: list[tuple[str, str]], source: str = "relaxed.py"):
    """``solver/alhambra/<source>`` with each (old, new) replaced (``old`` must occur), as
    module ``name`` (registered, so that another patched module can import it)."""
    s = (ROOT / "solver" / "alhambra" / source).read_text()
    s = s.replace("import solver.jit  # noqa: F401  (cache folder per kernel version; must precede @njit)\n", "")
    s = s.replace("cache=True", "cache=False")
    for old, new in replacements:
        assert old in s, old
        s = s.replace(old, new)
    path = Path(tempfile.mkdtemp()) / f"{name}.py"
    path.write_text(s)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod

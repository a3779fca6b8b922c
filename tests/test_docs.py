"""The project's own rule book (``docs/rules.md``) and proof index (``docs/proofs.md``) cover
everything the code declares, so that neither falls behind the code (issue 66: the rules
were only in a document outside the repository)."""

from pathlib import Path

from solver.kernels import FAMILIES
from solver.variants import CATALOGUE

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_the_rule_book_names_every_variant_option_and_value():
    text = (DOCS / "rules.md").read_text()
    missing = [f"variant {v.key}" for v in CATALOGUE if f"`{v.key}`" not in text]
    for name, fam in FAMILIES.items():
        for o in fam.options:
            if f"`{o.name}`" not in text:
                missing.append(f"{name} option {o.name}")
            missing += [f"{name} {o.name}={c}" for c in o.choices if f"`{c}`" not in text and c not in ("AC", "SS")]
    assert not missing, missing


def test_the_proof_index_names_every_rule_and_its_module():
    text = (DOCS / "proofs.md").read_text()
    root = DOCS.parent
    missing = [r.name for fam in FAMILIES.values() for r in fam.dominance if f"`{r.name}`" not in text]
    assert not missing, missing
    for line in text.splitlines():
        if line.startswith("| `") and "solver/" in line:
            where = line.rsplit("`solver/", 1)[1].split("`")[0]
            assert (root / "solver" / where).exists(), where


def test_readme_and_the_options_point_to_the_rule_book():
    readme = (DOCS.parent / "README.md").read_text()
    assert "docs/rules.md" in readme and "docs/proofs.md" in readme and "RULES.md" not in readme.replace("docs/rules.md", "")
    helps = " ".join(o.help for fam in FAMILIES.values() for o in fam.options)
    assert "RULES.md" not in helps


def test_ci_runs_the_readme_test_command():
    """The README's second command is the one CI runs, and it installs the test tools itself."""
    root = DOCS.parent
    command = ".venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest -q -n 2"
    assert command in (root / "README.md").read_text()
    assert command.replace("pip install", "pip install --quiet") in (root / ".ci" / "run").read_text()


def test_licence_and_citation_match_the_project():
    """Item 9 of issue 66: a LICENSE file for the MIT licence pyproject names, and a
    CITATION.cff whose version is the package's."""
    import tomllib
    root = DOCS.parent
    project = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT" and (root / "LICENSE").read_text().startswith("MIT License")
    assert f'version: "{project["version"]}"' in (root / "CITATION.cff").read_text()

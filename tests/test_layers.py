"""The layers of rlvr hold: no module imports a layer above its own (STYLE.md's order).

Layers, lowest first: errors; files/jsonl/chat; verifiers; models; rewards; datasets/testing;
harness; integrations/serve; cli. Every ``import`` counts, the lazy ones inside functions too (they
close import circles just the same when they run). Placed here, beside the documented order:

* ``rlvr`` itself (the version) sits with ``errors``; ``typed``, ``plugins`` and ``client`` are
  utilities that import only ``errors`` and sit with ``files``;
* the command handlers each subpackage keeps beside its code (``*/commands.py``, ``*_commands.py``),
  ``rlvr.commands`` (``rlvr tour``) and ``rlvr.__main__`` are the CLI's: nothing below it imports them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

ORDER = (("errors", "__init__"), ("files", "jsonl", "chat", "typed", "plugins", "client"), ("verifiers",),
         ("models",), ("rewards",), ("datasets", "testing"), ("harness",), ("integrations", "serve"),
         ("cli", "cli_arguments", "commands", "__main__"))
LAYER = {name: i for i, names in enumerate(ORDER) for name in names}
NAMES = {i: "/".join(n for n in names if n != "__init__") for i, names in enumerate(ORDER)}


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> int:
    """The layer of a module name ``rlvr.x.y``; the command handlers are the CLI's."""
    parts = module.split(".")
    if len(parts) == 1:
        return LAYER["__init__"]
    last = parts[-1]
    if len(parts) > 2 and (last == "commands" or last.endswith("_commands")):
        return LAYER["cli"]
    if parts[1] not in LAYER:
        raise KeyError(f"{module}: {parts[1]!r} has no layer; add it to ORDER in tests/test_layers.py (and "
                       "ARCHITECTURE.md)")
    return LAYER[parts[1]]


def imports(path: Path, package: str, root: Path = SRC) -> list[tuple[int, str]]:
    """(line, module) of every import of ``package`` in one file, at any depth."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == package]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and \
                node.module.split(".")[0] == package:
            # `from rlvr.x import y`: y may be a submodule (rlvr.x.y) whose layer differs (a command handler)
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                is_module = (root / (sub.replace(".", "/") + ".py")).exists() or (root / sub.replace(".", "/")).is_dir()
                found.append((node.lineno, sub if is_module else node.module))
    return found


def violations(root: Path, package: str = "rlvr") -> list[str]:
    """Every import of a layer above the importing module's, as ``file:line: a imports b (...)``."""
    out = []
    for path in sorted((root / package).rglob("*.py")):
        here = module_name(path, root)
        mine = layer_of(here)
        for line, target in imports(path, package, root):
            theirs = layer_of(target)
            if theirs > mine:
                out.append(f"{path.relative_to(root)}:{line}: {here} ({NAMES[mine]}) imports {target} "
                           f"({NAMES[theirs]}, a layer above)")
    return out


def test_no_module_imports_a_layer_above_its_own():
    found = violations(SRC)
    assert not found, "imports against the layer order (STYLE.md):\n" + "\n".join(found)


@pytest.mark.parametrize("low", ["rewards", "datasets", "verifiers", "models"])
def test_rewards_datasets_verifiers_and_models_never_import_the_harness(low):
    found = [f"{path.relative_to(SRC)}:{line}: {target}" for path in sorted((SRC / "rlvr" / low).rglob("*.py"))
             if not (path.stem == "commands" or path.stem.endswith("_commands"))
             for line, target in imports(path, "rlvr") if target.startswith("rlvr.harness")]
    assert not found, f"rlvr.{low} imports rlvr.harness:\n" + "\n".join(found)


def test_every_subpackage_has_a_layer():
    for path in (SRC / "rlvr").iterdir():
        if path.suffix == ".py" or (path.is_dir() and (path / "__init__.py").is_file()):
            layer_of(f"rlvr.{path.stem}")  # raises naming the module that has none


def test_the_check_finds_an_upward_import_even_a_lazy_one(tmp_path):
    """The checker itself: a fake package whose reward imports the harness inside a function."""
    pkg = tmp_path / "rlvr"
    for sub in ("rewards", "harness", "models"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "rewards" / "judge.py").write_text("def load():\n    from rlvr.harness.sampling import load_model\n")
    (pkg / "harness" / "sampling.py").write_text("from rlvr.models import load_model\nimport rlvr.rewards\n")
    (pkg / "models" / "loading.py").write_text("import rlvr.rewards.judge\n")
    (pkg / "rewards" / "commands.py").write_text("from rlvr.harness import sampling\n")  # the CLI's: allowed
    found = violations(tmp_path)
    assert len(found) == 2, found
    assert "rlvr.rewards.judge (rewards) imports rlvr.harness.sampling (harness, a layer above)" in found[0] + found[1]
    assert any("rlvr.models.loading (models) imports rlvr.rewards.judge" in f for f in found)


MODULE_LINES = 500  # a module longer than this is two modules (issue 28): split it where its docstring says "and"


def test_no_module_is_longer_than_a_reader_holds_at_once():
    long = {str(p.relative_to(SRC)): n for p in (SRC / "rlvr").rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MODULE_LINES}
    assert not long, f"modules over {MODULE_LINES} lines: {long}"

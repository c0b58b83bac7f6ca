"""Importing the user's own rewards: ``--import MODULE_OR_FILE``, ``plugins:`` lists in config files
and ``[tool.rlvr] plugins`` in a project's ``pyproject.toml``.

A reward registered with ``@reward`` in the user's file only exists once that file is imported;
entry points (``[project.entry-points."rlvr.rewards"]``) do it for installed packages, this module
does it for a module name or a ``.py`` path given on the command line, in a recipe / RewardSet /
fixture file (paths relative to that file), or in ``pyproject.toml`` (relative to it), which the
pytest plugin and fixture files read so plain ``pytest`` finds the project's rewards.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from collections.abc import Iterable
from pathlib import Path

from rlvr.errors import ConfigError

__all__ = ["import_plugin", "import_plugins", "import_project_plugins", "project_file", "imported_plugins"]

# every plugin this process imported, as a module name or a resolved .py path (what a run records)
_IMPORTED: list[str] = []


def imported_plugins() -> list[str]:
    """The plugins imported so far in this process (--import, [tool.rlvr], plugins: lists), in order."""
    return list(_IMPORTED)


def import_plugin(spec: str, base: Path | None = None) -> None:
    """Import ``spec``: a dotted module name, or a path to a ``.py`` file (relative to ``base``)."""
    if not isinstance(spec, str) or not spec.strip():
        raise ConfigError(f"plugin {spec!r}: give a module name (my_pkg.rewards) or a .py file path")
    looks_like_path = spec.endswith(".py") or "/" in spec or "\\" in spec
    if looks_like_path:
        path = Path(spec).expanduser()
        if not path.is_absolute() and base is not None and not path.exists():
            path = base / path
        if not path.is_file():
            raise ConfigError(f"plugin file {spec} does not exist")
        name = "rlvr_plugin_" + hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
        if name in sys.modules:
            return
        _IMPORTED.append(str(path.resolve()))
        module_spec = importlib.util.spec_from_file_location(name, path)
        if module_spec is None or module_spec.loader is None:
            raise ConfigError(f"plugin file {spec} cannot be imported (is it a Python file?)")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        try:
            module_spec.loader.exec_module(module)
        except ConfigError:
            del sys.modules[name]
            _IMPORTED.remove(str(path.resolve()))
            raise
        except Exception as exc:
            del sys.modules[name]
            _IMPORTED.remove(str(path.resolve()))
            raise ConfigError(f"plugin file {spec} failed to import: {type(exc).__name__}: {exc}") from exc
        return
    try:
        importlib.import_module(spec)
        if spec not in _IMPORTED:
            _IMPORTED.append(spec)
    except ModuleNotFoundError as exc:
        raise ConfigError(f"plugin module {spec!r} not found ({exc}); pass a .py path or install the package") from exc
    except ConfigError:
        raise
    except Exception as exc:
        raise ConfigError(f"plugin module {spec!r} failed to import: {type(exc).__name__}: {exc}") from exc


def import_plugins(specs: Iterable[str] | None, base: Path | None = None) -> None:
    """Import every plugin of a ``plugins:`` list (a single string is one plugin)."""
    if specs is None:
        return
    if isinstance(specs, str):
        specs = [specs]
    if not isinstance(specs, (list, tuple)):
        raise ConfigError(f"plugins must be a list of module names or .py paths, got {type(specs).__name__}")
    for spec in specs:
        import_plugin(spec, base)


def project_file(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` in ``start`` (a folder or file) or a folder above it."""
    here = start.resolve()
    for folder in ([here] if here.is_dir() else []) + list(here.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


_PROJECTS_DONE: set[Path] = set()


def import_project_plugins(start: Path) -> Path | None:
    """Import the ``[tool.rlvr] plugins`` list of the nearest ``pyproject.toml`` (paths relative to
    it), once per file; returns that file (``None`` when there is none). Errors name the file."""
    path = project_file(start)
    if path is None or path in _PROJECTS_DONE:
        return path
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read it for [tool.rlvr] plugins: {exc}") from None
    section = data.get("tool", {}).get("rlvr", {}) if isinstance(data.get("tool"), dict) else {}
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [tool.rlvr] must be a table, e.g. plugins = [\"my_rewards.py\"]")
    unknown = sorted(set(section) - {"plugins"})
    if unknown:
        raise ConfigError(f"{path}: [tool.rlvr] has unknown key(s) {unknown}; valid: plugins")
    try:
        import_plugins(section.get("plugins"), path.parent)
    except ConfigError as exc:
        raise ConfigError(f"{path} [tool.rlvr] plugins: {exc}") from exc
    _PROJECTS_DONE.add(path)
    return path

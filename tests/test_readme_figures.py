"""The README's demo figures are the ones `benchmarks/demo_bench.py --write` measured: its block is
rendered from benchmarks/results/demo_bench.json, never typed by hand."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    sys.path.insert(0, str(ROOT / "benchmarks"))  # the benchmark imports its neighbour burners.py, as when run
    try:
        spec = importlib.util.spec_from_file_location("demo_bench_under_test", ROOT / "benchmarks" / "demo_bench.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return module


def _run(seed: int, before: float, after: float, burners: int = 0, wall: float = 600.0) -> dict:
    return {"label": "busy" if burners else "idle", "seed": seed, "burners": burners, "load_before": 2.0,
            "load_during": 3.25, "wall_s": wall, "cpu_s": 310.0, "grpo_s": 400.0, "steps": 500, "threads": "torch 2",
            "pass1_before": before, "pass1_after": after, "result": ""}


def test_the_readme_quotes_the_last_measured_figures(bench):
    record = json.loads(bench.RESULTS.read_text())
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme[readme.index(bench.BEGIN):readme.index(bench.END) + len(bench.END)]
    assert block == bench.render_block(record), "README's demo figures differ from benchmarks/results/" \
        "demo_bench.json: run `python benchmarks/demo_bench.py --seeds 0,1,2 --write`"
    assert record["overrides"] == [] and record["env"] == {}  # the demo as `make demo` runs it


def test_the_block_says_the_seed_the_commit_the_load_and_the_range_over_seeds(bench):
    record = {"commit": "abc123", "date": "2026-12-01", "cpus": 2, "overrides": [], "env": {},
              "runs": [_run(0, 0.342, 0.614), _run(1, 0.29, 0.662, wall=640.0), _run(2, 0.31, 0.6),
                       _run(0, 0.342, 0.614, burners=4, wall=1500.0)]}
    text = " ".join(bench.render_block(record).split())
    assert "commit `abc123`" in text and "2 CPUs" in text and "at load 3.2 (2.0 before it started" in text
    assert "**34.2% → 61.4%** with seed 0" in text
    assert "(seeds 0, 1, 2: 29.0%–34.2% before, 60.0%–66.2% after: it varies by seed)" in text
    assert "600–640 s over the seeds" in text and "beside 4 more busy processes (load 3.2) 1,500 s (2.5x)" in text
    same = {**record, "runs": [_run(0, 0.3, 0.6), _run(1, 0.3, 0.6)]}
    assert "(the same with seeds 0, 1)" in bench.render_block(same)


def test_writing_the_block_replaces_only_what_lies_between_the_markers(bench, tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{bench.BEGIN}\nold figures\n{bench.END}\nrest\n")
    bench.update_readme(readme, f"{bench.BEGIN}\nnew figures\n{bench.END}")
    assert readme.read_text() == f"intro\n{bench.BEGIN}\nnew figures\n{bench.END}\nrest\n"
    readme.write_text("no markers here\n")
    with pytest.raises(SystemExit, match="needs the two markers"):
        bench.update_readme(readme, "x")

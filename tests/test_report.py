"""`rlvr report`: a self-contained page for a real run, checked in a real browser (headless Chromium)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def run_dirs(tmp_path_factory):
    base = tmp_path_factory.mktemp("runs")
    dirs = []
    for name, lr in (("a", "1e-3"), ("b", "5e-4")):
        out = base / name
        r = subprocess.run([sys.executable, "-m", "rlvr", "train", "--recipe", "tiny-cpu-smoke", "--set",
                            f"output.dir={out}", "--set", f"trainer.learning_rate={lr}"],
                           capture_output=True, text=True, cwd=base)
        assert r.returncode == 0, r.stderr[-2000:]
        assert f"report: {out}/report.html" in r.stdout  # rlvr train writes and names the report
        dirs.append(out)
    return dirs


def _chromium(tmp_path: Path, url: str, *extra: str) -> str:
    r = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", *extra, url],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout


@pytest.mark.slow
def test_report_is_self_contained_and_has_every_section(run_dirs):
    page = (run_dirs[0] / "report.html").read_text()
    for section in ("overview", "rewards", "statuses", "length", "zero-std", "lr", "eval", "samples"):
        assert f'<section id="{section}">' in page, section
    assert "<svg" in page and "<link" not in page and "<script src" not in page  # no CDN, plots inline
    assert re.search(r'(?:src|href)="(?:https?:)?//', page) is None and "@import" not in page
    samples = [json.loads(line) for line in (run_dirs[0] / "samples.jsonl").read_text().splitlines()]
    assert samples and "prompt" in samples[0]  # the sample table shows the prompt too


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (.ci/run installs it)")
def test_report_renders_in_chromium_and_filters_by_status(run_dirs, tmp_path):
    from rlvr.cli import main

    out = tmp_path / "compare.html"
    assert main(["report", str(run_dirs[0]), str(run_dirs[1]), "--out", str(out)]) == 0
    dom = _chromium(tmp_path, f"{out.as_uri()}", "--dump-dom")
    assert dom.count('class="run"') == 2 and dom.count("<svg") >= 6
    # tiny-cpu-smoke learns nothing (its rewards pay 0), and its 1-layer model never stops within 16 tokens:
    # the page says both at the top, for each run
    assert dom.count('class="warning no-signal"') == 2 and dom.index("no-signal") < dom.index('<section id="overview">')
    assert dom.count('class="warning truncated"') == 2 and "most completions were truncated." in dom
    assert dom.count('class="reward"') == 4 and 'preset="r1"' in dom  # each run's rewards, defaults filled in
    assert "a: " in dom and "b: " in dom  # two runs overlaid in the plots' legends
    total = dom.count('class="sample"')
    assert total > 0 and f'<span id="shown">{total}</span>' in dom
    # the filter, driven from the address: only rows with that status stay visible
    status = json.loads((run_dirs[0] / "samples.jsonl").read_text().splitlines()[0])["rewards"]["math_equivalence"]["status"]
    filtered = _chromium(tmp_path, f"{out.as_uri()}#status={status}", "--dump-dom")
    hidden = filtered.count('style="display: none;"')
    shown = int(filtered.split('<span id="shown">')[1].split("<")[0])
    assert shown + hidden == total and shown > 0
    assert f'<option value="{status}" selected' in filtered or f'value="{status}"' in filtered
    shot = ROOT / ".pytest-artifacts" / "report.png"  # for a person to look at
    shot.parent.mkdir(exist_ok=True)
    _chromium(tmp_path, out.as_uri(), "--window-size=1400,2600", f"--screenshot={shot}")
    assert shot.stat().st_size > 10_000


def _run_folder(path: Path, zero_std: list[float]) -> Path:
    path.mkdir()
    rows = [{"step": i + 1, "reward": 0.5, "reward_std": 0.0 if z == 1.0 else 0.3, "frac_reward_zero_std": z,
             "rewards/math_equivalence/mean": 0.0 if z == 1.0 else 0.5} for i, z in enumerate(zero_std)]
    (path / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_report_warns_about_a_run_without_learning_signal(tmp_path):
    from rlvr.harness.report import write_report

    flat = _run_folder(tmp_path / "flat", [1.0, 1.0, 1.0])
    learning = _run_folder(tmp_path / "learning", [1.0, 0.5, 0.25])
    page = write_report([flat, learning], tmp_path / "both.html").read_text()
    assert page.count('class="warning no-signal"') == 1
    assert "<b>flat: no learning signal.</b> in all 3 logged GRPO steps" in page and "learning: no learning" not in page
    assert 'class="warning' not in write_report([learning]).read_text()


def test_report_of_a_folder_that_is_not_a_run(tmp_path, capsys):
    from rlvr.cli import main

    assert main(["report", str(tmp_path)]) == 2
    assert "not a run folder" in capsys.readouterr().err


def _truncated_run(path: Path) -> Path:
    """A run folder as `rlvr train` writes one: 3 steps, most completions cut at 16 tokens, a sample
    whose value is a float sum (0.42500000000000004), rewards.json with every parameter."""
    path.mkdir()
    rows = [{"step": i + 1, "reward": 0.1 * (i + 1) + 0.0000000001, "reward_std": 0.2, "frac_reward_zero_std": 0.5,
             "rewards/math_equivalence/mean": 0.1 * (i + 1), "completions/clipped_ratio": cut}
            for i, cut in enumerate([0.875, 1.0, 0.9375])]
    (path / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (path / "samples.jsonl").write_text(json.dumps({"step": 1, "prompt": "q", "completion": "c", "rewards": {
        "math_equivalence": {"value": 0.1 + 0.325, "status": "correct", "reason": "ok"}}}) + "\n")
    (path / "summary.json").write_text(json.dumps({"steps": 3, "seconds": 12.345678, "backend": "trl"}))
    (path / "config.yaml").write_text("rewards:\n- {name: math_equivalence}\ntrainer:\n  max_completion_length: 16\n")
    (path / "rewards.json").write_text(json.dumps([
        {"name": "fmt", "reward": "format_strict", "weight": 0.2, "gate": None,
         "params": {"preset": "r1", "mismatch_score": 0.30000000000000004}},
        {"name": "math_equivalence", "reward": "math_equivalence", "weight": 1.0, "gate": "fmt",
         "params": {"preset": "binary"}}]))
    return path


def test_report_data_rounded_with_reward_params_integer_ticks_and_a_truncation_banner(tmp_path):
    from rlvr.harness.report import banners, load_run, reward_rows, write_report

    run = load_run(_truncated_run(tmp_path / "cut"))
    kinds = [(kind, name) for kind, name, _ in banners([run])]
    assert kinds == [("truncated", "cut")]  # it had learning signal; most of its completions were cut
    text = banners([run])[0][2]
    assert text.startswith("94% of them hit trainer.max_completion_length (16 tokens) over 3 logged steps (88%–100%")
    assert reward_rows(run) == [("fmt (format_strict)", "0.2", "", 'preset="r1", mismatch_score=0.3'),
                                ("math_equivalence", "1", "fmt", 'preset="binary"')]
    page = write_report([run["dir"]]).read_text()
    assert "0.42500000000000004" not in page and "<b>math_equivalence</b> 0.425 [correct]" in page
    assert "<td>12.35</td>" in page  # the run's seconds, rounded
    assert page.index('class="warning truncated"') < page.index('<section id="overview">')
    for section in ("rewards", "length"):  # every plot's step axis: whole steps on a 3-step run
        block = page[page.index(f'<section id="{section}">'):]
        block = block[:block.index("</section>")]
        labels = re.findall(r"<text[^>]*>([^<]*)</text>", block)
        steps = labels[:labels.index("step")]
        assert steps and all(t.isdigit() for t in steps), steps
    assert 'style="width' not in page and "section>svg{display:block;width:100%" in page  # full width, by CSS

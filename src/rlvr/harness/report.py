"""``rlvr report``: one self-contained HTML page per run (or several runs overlaid).

Reads what a run folder holds (``metrics.jsonl``, ``samples.jsonl``, ``eval_before/after.json(l)``,
``summary.json``, ``config.yaml``) and writes a page with inline SVG plots (matplotlib, no CDN, no
server): each reward's mean over steps, status rates, completion length and clipping, the share of
groups with zero reward variance, the learning rate; evaluation before and after with a per-problem
table; and the logged samples with each reward's value and reason, filterable by status (also from
the address: ``report.html#status=no_answer``). Model output is escaped, never interpreted.
"""

from __future__ import annotations

import html
import io
import json
import logging
from pathlib import Path
from typing import Any

from rlvr.errors import ConfigError

logger = logging.getLogger(__name__)

__all__ = ["write_report", "load_run"]

_MAX_SAMPLES = 400  # sample rows per run in the page (the newest ones)


def _jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue  # a run killed mid-write leaves half a line
        if isinstance(row, dict):
            rows.append(row)
    return rows


def _json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def load_run(run_dir: str | Path) -> dict[str, Any]:
    """Everything the report shows about one run folder."""
    d = Path(run_dir).expanduser()
    if not d.is_dir():
        raise ConfigError(f"run folder {run_dir} does not exist")
    metrics = [m for m in _jsonl(d / "metrics.jsonl") if "reward" in m or "learning_rate" in m]
    if not metrics and not (d / "summary.json").is_file():
        raise ConfigError(f"{run_dir} is not a run folder (no metrics.jsonl or summary.json); "
                          "point at the output.dir of an rlvr train run")
    return {"name": d.name, "dir": str(d), "metrics": metrics, "samples": _jsonl(d / "samples.jsonl")[-_MAX_SAMPLES:],
            "summary": _json(d / "summary.json") or {}, "before": _json(d / "eval_before.json"),
            "after": _json(d / "eval_after.json"), "before_rows": _jsonl(d / "eval_before.jsonl"),
            "after_rows": _jsonl(d / "eval_after.jsonl")}


def _svg(series: list[tuple[str, list[float], list[float]]], title: str, ylabel: str) -> str:
    """An inline SVG line plot of (label, steps, values) series; empty string when nothing to plot."""
    series = [s for s in series if s[1]]
    if not series:
        return '<p class="empty">not logged in this run</p>'
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 2.8))
    for label, xs, ys in series:
        ax.plot(xs, ys, marker="o" if len(xs) < 30 else None, markersize=3, label=label)
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("step")
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    if len(series) > 1:
        ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    text = buf.getvalue()
    return text[text.find("<svg"):]  # drop the XML prolog: the SVG is inline


def _series(runs: list[dict[str, Any]], key: str, prefix: bool = False) -> list[tuple[str, list[float], list[float]]]:
    out = []
    for run in runs:
        many = len(runs) > 1
        keys = sorted({k for m in run["metrics"] for k in m if k.startswith(key)}) if prefix else [key]
        for k in keys:
            pts = [(m["step"], m[k]) for m in run["metrics"] if isinstance(m.get(k), (int, float)) and "step" in m]
            label = (k[len(key):] if prefix else k) or k
            out.append(((f"{run['name']}: " if many else "") + label, [p[0] for p in pts], [p[1] for p in pts]))
    return out


def _reward_series(runs: list[dict[str, Any]]) -> list[tuple[str, list[float], list[float]]]:
    out = []
    for run in runs:
        names = sorted({k.split("/")[1] for m in run["metrics"] for k in m
                        if k.startswith("rewards/") and k.endswith("/mean")})
        for name in names:
            k = f"rewards/{name}/mean"
            pts = [(m["step"], m[k]) for m in run["metrics"] if isinstance(m.get(k), (int, float))]
            label = (f"{run['name']}: " if len(runs) > 1 else "") + name
            out.append((label, [p[0] for p in pts], [p[1] for p in pts]))
    return out


def _status_series(runs: list[dict[str, Any]]) -> list[tuple[str, list[float], list[float]]]:
    out = []
    for run in runs:
        keys = sorted({k for m in run["metrics"] for k in m if "/status/" in k})
        for k in keys:
            name, status = k.split("/")[1], k.rsplit("/", 1)[1]
            pts = [(m["step"], m.get(k, 0.0)) for m in run["metrics"] if "reward" in m]
            out.append(((f"{run['name']}: " if len(runs) > 1 else "") + f"{name} {status}",
                        [p[0] for p in pts], [p[1] for p in pts]))
    return out


def _warnings(runs: list[dict[str, Any]]) -> str:
    """A visible warning for each run that had no learning signal in any logged step."""
    from rlvr.harness.learning_signal import no_signal_summary

    e = html.escape
    parts = []
    for run in runs:
        names = sorted({k.split("/")[1] for m in run["metrics"] for k in m
                        if k.startswith("rewards/") and k.endswith("/mean")})
        message = no_signal_summary(run["metrics"], names)
        if message:
            parts.append(f'<div class="warning no-signal" role="alert"><b>{e(run["name"])}: no learning signal.</b> '
                         f"{e(message[len('no learning signal: '):])}</div>")
    return "\n".join(parts)


def _eval_section(runs: list[dict[str, Any]]) -> str:
    e = html.escape
    parts = ['<table class="metrics"><tr><th>run</th><th>when</th><th>metric</th><th>value</th></tr>']
    for run in runs:
        for when in ("before", "after"):
            data = run[when]
            if not data:
                continue
            for key, value in data.items():
                if key.startswith(("pass@", "maj@", "mean@")) and isinstance(value, (int, float)):
                    parts.append(f'<tr class="eval-metric"><td>{e(run["name"])}</td><td>{when}</td><td>{e(key)}</td>'
                                 f"<td>{value:.1%}</td></tr>")
    parts.append("</table>")
    for run in runs:
        before = {str(r.get("id")): r for r in run["before_rows"]}
        rows = run["after_rows"] or run["before_rows"]
        if not rows:
            continue
        parts.append(f'<h3>per problem: {e(run["name"])}</h3><table class="problems"><tr><th>id</th><th>gold</th>'
                     "<th>before</th><th>after</th><th>answers after</th><th>status</th></tr>")
        for r in rows[:500]:
            b = before.get(str(r.get("id")), {})
            rate = lambda row: (f"{sum(row['correct'])}/{len(row['correct'])}" if row.get("correct") else "")
            parts.append(f'<tr class="problem"><td>{e(str(r.get("id")))}</td><td>{e(str(r.get("gold")))}</td>'
                         f"<td>{rate(b)}</td><td>{rate(r) if run['after_rows'] else ''}</td>"
                         f"<td>{e(', '.join(str(a) for a in (r.get('answers') or [])))}</td>"
                         f"<td>{e(', '.join(sorted(set(r.get('statuses') or []))))}</td></tr>")
        parts.append("</table>")
    return "\n".join(parts)


def _samples_section(runs: list[dict[str, Any]]) -> str:
    e = html.escape
    statuses = sorted({r.get("status", "") for run in runs for s in run["samples"]
                       for r in (s.get("rewards") or {}).values()} - {""})
    options = "".join(f'<option value="{e(s)}">{e(s)}</option>' for s in statuses)
    parts = [f'<label>status <select id="status-filter"><option value="">all</option>{options}</select></label>',
             '<table class="samples"><tr><th>run</th><th>step</th><th>prompt</th><th>completion</th>'
             "<th>rewards (value, status, reason)</th></tr>"]
    for run in runs:
        for s in run["samples"]:
            rewards = s.get("rewards") or {}
            tags = " ".join(sorted({str(r.get("status", "")) for r in rewards.values()}))
            cells = "<br>".join(f"<b>{e(name)}</b> {e(str(r.get('value')))} [{e(str(r.get('status')))}] "
                                f"{e(str(r.get('reason', ''))[:300])}" for name, r in rewards.items())
            parts.append(f'<tr class="sample" data-status="{e(tags)}"><td>{e(run["name"])}</td>'
                         f'<td>{e(str(s.get("step", "")))}</td><td><pre>{e(str(s.get("prompt", ""))[-600:])}</pre></td>'
                         f'<td><pre>{e(str(s.get("completion", ""))[:2000])}</pre></td><td>{cells}</td></tr>')
    parts.append("</table>")
    return "\n".join(parts)


_STYLE = """
body{font-family:system-ui,sans-serif;margin:24px;max-width:1200px;color:#222}
h1{font-size:22px}h2{font-size:17px;border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:28px}
table{border-collapse:collapse;font-size:12px;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 6px;vertical-align:top}
pre{white-space:pre-wrap;margin:0;max-height:160px;overflow:auto;font-size:11px}.empty{color:#888}
svg{max-width:100%;height:auto}
.warning{border:2px solid #c62828;background:#fdecea;color:#7f1d1d;padding:10px 14px;margin:12px 0;border-radius:4px}
"""

_SCRIPT = """
function applyFilter(status){
  document.querySelectorAll('tr.sample').forEach(function(row){
    var hit = !status || row.dataset.status.split(' ').indexOf(status) >= 0;
    row.style.display = hit ? '' : 'none';
  });
  document.getElementById('status-filter').value = status;
  document.getElementById('shown').textContent = document.querySelectorAll('tr.sample:not([style*="none"])').length;
}
document.getElementById('status-filter').addEventListener('change', function(e){ applyFilter(e.target.value); });
var m = location.hash.match(/status=([A-Za-z_]+)/);
applyFilter(m ? m[1] : '');
"""


def write_report(run_dirs: list[str | Path], out: str | Path | None = None) -> Path:
    """Write the HTML report of one or more runs; returns its path (default: RUN_DIR/report.html)."""
    if not run_dirs:
        raise ConfigError("rlvr report needs at least one run folder")
    runs = [load_run(d) for d in run_dirs]
    target = Path(out) if out else Path(runs[0]["dir"]) / "report.html"
    e = html.escape
    overview = ['<table class="runs"><tr><th>run</th><th>backend</th><th>steps</th><th>seconds</th>'
                "<th>pass@1 before</th><th>pass@1 after</th></tr>"]
    for run in runs:
        s, b, a = run["summary"], run["before"] or {}, run["after"] or {}
        pct = lambda v: f"{v:.1%}" if isinstance(v, (int, float)) else ""
        overview.append(f'<tr class="run"><td>{e(run["name"])}</td><td>{e(str(s.get("backend", "")))}</td>'
                        f'<td>{e(str(s.get("steps", "")))}</td><td>{e(str(s.get("seconds", "")))}</td>'
                        f'<td>{pct(b.get("pass@1"))}</td><td>{pct(a.get("pass@1"))}</td></tr>')
    overview.append("</table>")
    sections = [
        ("overview", "Runs", "\n".join(overview)),
        ("rewards", "Reward means over steps", _svg(_reward_series(runs), "each reward's mean", "reward")),
        ("statuses", "Status rates over steps", _svg(_status_series(runs), "share of completions", "rate")),
        ("length", "Completion length and clipping",
         _svg(_series(runs, "completions/mean_length"), "mean completion length", "tokens")
         + _svg(_series(runs, "completions/clipped_ratio"), "share cut at max_completion_length", "share")),
        ("zero-std", "Groups with zero reward variance (no learning signal)",
         _svg(_series(runs, "frac_reward_zero_std"), "frac_reward_zero_std", "share")),
        ("lr", "Learning rate", _svg(_series(runs, "learning_rate"), "learning rate", "lr")),
        ("eval", "Evaluation before and after GRPO", _eval_section(runs)),
        ("samples", "Samples (<span id=\"shown\"></span> shown)", _samples_section(runs)),
    ]
    body = "\n".join(f'<section id="{sid}"><h2>{title}</h2>\n{content}\n</section>' for sid, title, content in sections)
    title = "rlvr report: " + ", ".join(run["name"] for run in runs)
    page = (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>'
            f"<style>{_STYLE}</style></head><body>\n<h1>{e(title)}</h1>\n{_warnings(runs)}\n{body}\n"
            f"<script>{_SCRIPT}</script>\n"
            "</body></html>\n")
    from rlvr.files import atomic_output

    with atomic_output(str(target)) as fh:
        fh.write(page)
    return target

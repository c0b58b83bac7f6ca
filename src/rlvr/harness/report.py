"""``rlvr report``: one self-contained HTML page per run (or several runs overlaid).

Reads what a run folder holds (``metrics.jsonl``, ``samples.jsonl``, ``eval_before/after.json(l)``,
``summary.json``, ``rewards.json``, ``config.yaml``) and writes a page with inline SVG plots
(matplotlib, no CDN, no server; each the page's full width, whole-number step ticks, the legend beside
the plot, never over its lines): each reward's mean over steps, status rates, completion length and
truncation, the share of groups with zero reward variance, the learning rate; the reward config with
every parameter as it took effect; evaluation before and after with a per-problem table; and the
logged samples with each reward's value (rounded) and reason, filterable by status (also from the
address: ``report.html#status=no_answer``). A banner at the top says when a run had no learning
signal, or when most of its completions were truncated. Model output is escaped, never interpreted.
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

__all__ = ["write_report", "load_run", "banners", "reward_rows", "number"]

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
            "after_rows": _jsonl(d / "eval_after.jsonl"), **_run_config(d)}


def _run_config(d: Path) -> dict[str, Any]:
    """The run's rewards (rewards.json: every parameter as it took effect; older runs: config.yaml's
    entries as written) and its max_completion_length."""
    import yaml

    config: dict[str, Any] = {}
    try:
        loaded = yaml.safe_load((d / "config.yaml").read_text(encoding="utf-8"))
        config = loaded if isinstance(loaded, dict) else {}
    except (OSError, ValueError, yaml.YAMLError):
        pass
    try:
        rewards = json.loads((d / "rewards.json").read_text(encoding="utf-8"))
        effective = True
    except (OSError, ValueError):
        rewards, effective = config.get("rewards") or [], False
    if isinstance(rewards, dict):
        rewards = rewards.get("rewards") or []
    trainer = config.get("trainer") if isinstance(config.get("trainer"), dict) else {}
    return {"rewards": [r for r in rewards if isinstance(r, dict)] if isinstance(rewards, list) else [],
            "rewards_effective": effective, "max_completion_length": trainer.get("max_completion_length")}


def number(value: Any) -> str:
    """A logged value as a person reads it: 4 significant digits (0.42500000000000004 is 0.425)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if value != value:
        return "nan"
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _svg(series: list[tuple[str, list[float], list[float]]], title: str, ylabel: str) -> str:
    """An inline SVG line plot of (label, steps, values) series, the page's full width; its legend
    beside the plot (never over the lines), whole-number step ticks."""
    series = [s for s in series if s[1]]
    if not series:
        return '<p class="empty">not logged in this run</p>'
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    with plt.rc_context({"svg.fonttype": "none"}):  # text stays text: sharp at any width, and searchable
        fig, ax = plt.subplots(figsize=(13, 3.0))
        for label, xs, ys in series:
            ax.plot(xs, ys, marker="o" if len(xs) < 30 else None, markersize=3, label=label)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("step")
        ax.set_ylabel(ylabel)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # steps are whole: no 1.5 on a 4-step run
        ax.grid(alpha=0.3)
        # the same frame in every chart (axes aligned down the page), the legend in the margin beside it
        fig.subplots_adjust(left=0.06, right=0.80, bottom=0.17, top=0.88)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, frameon=False)
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


def banners(runs: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """The warnings the page opens with, as (kind, run, text): a run with no learning signal in any
    logged step, and a run where most completions were truncated at max_completion_length."""
    from rlvr.harness.learning_signal import no_signal_summary, truncation_summary

    out = []
    for run in runs:
        names = sorted({k.split("/")[1] for m in run["metrics"] for k in m
                        if k.startswith("rewards/") and k.endswith("/mean")})
        message = no_signal_summary(run["metrics"], names)
        if message:
            out.append(("no-signal", run["name"], message[len("no learning signal: "):]))
        cut = truncation_summary(run["metrics"], run.get("max_completion_length"))
        if cut:
            out.append(("truncated", run["name"], cut[len("most completions were truncated: "):]))
    return out


_BANNER_TITLES = {"no-signal": "no learning signal.", "truncated": "most completions were truncated."}


def _warnings(runs: list[dict[str, Any]]) -> str:
    """A visible warning for each banner of each run."""
    e = html.escape
    return "\n".join(f'<div class="warning {kind}" role="alert"><b>{e(name)}: {_BANNER_TITLES[kind]}</b> {e(text)}</div>'
                     for kind, name, text in banners(runs))


def reward_rows(run: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """The run's rewards as (name, weight, gate, parameters) cells, values rounded."""
    rows = []
    for r in run.get("rewards") or []:
        name = str(r.get("name", "?"))
        if r.get("alias"):
            name = f"{r['alias']} ({name})"
        elif r.get("reward") and r["reward"] != name:
            name = f"{name} ({r['reward']})"
        gate = r.get("gate")
        gate = gate.get("reward", "") if isinstance(gate, dict) else (gate or "")
        params = r.get("params") or {}
        shown = ", ".join(f"{k}={number(v) if isinstance(v, float) else json.dumps(v, default=str)}"
                          for k, v in params.items()) if isinstance(params, dict) else str(params)
        rows.append((name, number(float(r.get("weight", 1.0))), str(gate), shown or "(defaults)"))
    return rows


def _rewards_section(runs: list[dict[str, Any]]) -> str:
    e = html.escape
    parts = ['<table class="reward-config"><tr><th>run</th><th>reward</th><th>weight</th><th>gate</th>'
             "<th>parameters</th></tr>"]
    for run in runs:
        for name, weight, gate, params in reward_rows(run):
            parts.append(f'<tr class="reward"><td>{e(run["name"])}</td><td>{e(name)}</td><td>{e(weight)}</td>'
                         f"<td>{e(gate)}</td><td><code>{e(params)}</code></td></tr>")
    parts.append("</table>")
    if any(run.get("rewards") and not run.get("rewards_effective") for run in runs):
        parts.append('<p class="empty">as the recipe wrote them (runs older than rewards.json: defaults not shown)</p>')
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
            cells = "<br>".join(f"<b>{e(name)}</b> {e(number(r.get('value')))} [{e(str(r.get('status')))}] "
                                f"{e(str(r.get('reason', ''))[:300])}" for name, r in rewards.items())
            parts.append(f'<tr class="sample" data-status="{e(tags)}"><td>{e(run["name"])}</td>'
                         f'<td>{e(str(s.get("step", "")))}</td><td><pre>{e(str(s.get("prompt", ""))[-600:])}</pre></td>'
                         f'<td><pre>{e(str(s.get("completion", ""))[:2000])}</pre></td><td>{cells}</td></tr>')
    parts.append("</table>")
    return "\n".join(parts)


_STYLE = """
body{font-family:system-ui,sans-serif;margin:24px;color:#222}
h1{font-size:22px}h2{font-size:17px;border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:28px}
table{border-collapse:collapse;font-size:12px;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 6px;vertical-align:top}
pre{white-space:pre-wrap;margin:0;max-height:160px;overflow:auto;font-size:11px}.empty{color:#888}
section>svg{display:block;width:100%;height:auto;margin:6px 0}
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
                        f'<td>{e(str(s.get("steps", "")))}</td><td>{e(number(s.get("seconds", "")))}</td>'
                        f'<td>{pct(b.get("pass@1"))}</td><td>{pct(a.get("pass@1"))}</td></tr>')
    overview.append("</table>")
    sections = [
        ("overview", "Runs", "\n".join(overview)),
        ("reward-config", "Rewards and their parameters", _rewards_section(runs)),
        ("rewards", "Reward means over steps", _svg(_reward_series(runs), "each reward's mean", "reward")),
        ("statuses", "Status rates over steps", _svg(_status_series(runs), "share of completions", "rate")),
        ("length", "Completion length and truncation",
         _svg(_series(runs, "completions/mean_length"), "mean completion length", "tokens")
         + _svg(_series(runs, "completions/clipped_ratio"), "share truncated (cut at max_completion_length)", "share")),
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

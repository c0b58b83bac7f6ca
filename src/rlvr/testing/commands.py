"""``rlvr rewards test`` (fixture files without pytest) and ``rlvr rewards audit``."""

from __future__ import annotations

import argparse
import json

from rlvr.errors import ConfigError


def test_command(args: argparse.Namespace) -> int:
    """Run fixture files; print one row per case; exit 1 if any case fails."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from rlvr.rewards import RewardError
    from rlvr.testing.fixtures import FixtureError, find_fixture_files, load_fixture_file, run_case

    files = find_fixture_files(args.paths)
    if not files:
        raise ConfigError(f"no fixture files found under {args.paths} (patterns: reward_fixtures/**/*.yaml|jsonl, "
                          "*.rewards.yaml|jsonl)")
    console = Console()
    table = Table(title="reward fixtures")
    for column in ("case", "result", "value", "status", "reason / failure"):
        table.add_column(column, overflow="fold")
    passed = failed = skipped = 0
    for path in files:
        for case in load_fixture_file(path):
            if case.skip:
                skipped += 1
                table.add_row(escape(f"{path}::{case.id}"), "skip", "", "", escape(str(case.skip)))
                continue
            try:
                outcome = run_case(case)
            except (FixtureError, RewardError) as exc:  # this case cannot run: it fails, the others run
                failed += 1
                table.add_row(escape(f"{path}::{case.id}"), "FAIL", "", "error", escape(str(exc)))
                continue
            ok = outcome.passed if not case.xfail else not outcome.passed
            passed += ok
            failed += not ok
            result = ("pass" if outcome.passed else "xfail") if ok else ("FAIL" if not case.xfail else "XPASS")
            detail = outcome.reason if outcome.passed else "; ".join(outcome.failures) + f" (reason: {outcome.reason})"
            table.add_row(escape(f"{path}::{case.id}"), result, escape(repr(outcome.value)),
                          escape(str(outcome.status)), escape(detail))
    console.print(table)
    console.print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed else 0


def audit_command(args: argparse.Namespace) -> int:
    """Print the adversarial report for a registered reward or a RewardSet file; exit 1 on flags only
    with --strict."""
    from pathlib import Path

    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from rlvr.rewards import RewardSet, get_reward
    from rlvr.testing.audit import audit

    as_file = Path(args.name).suffix in (".yaml", ".yml", ".toml", ".json") or Path(args.name).is_file()
    if as_file:
        if args.params:
            raise ConfigError("--params applies to a reward name; a RewardSet file holds each reward's params")
        target = RewardSet.from_config(args.name)
    else:
        try:
            params = json.loads(args.params) if args.params else {}
        except json.JSONDecodeError as exc:
            raise ConfigError(f"--params is not valid JSON: {exc.msg}") from exc
        if not isinstance(params, dict):
            raise ConfigError("--params must be a JSON object, e.g. '{\"preset\": \"dapo\"}'")
        target = get_reward(args.name, **params)
    report = audit(target, gold_column=args.gold_column, style=args.style)
    console = Console()
    fmt = lambda v: "None" if v is None else f"{v:g}"
    table = Table(title=f"audit of {report.reward} ({report.style} format): honest correct "
                        f"{fmt(report.honest_correct)}, honest wrong {fmt(report.honest_wrong)}")
    for column in ("attack", "family", "score", "status", "flag", "ms", "reason"):
        table.add_column(column, overflow="fold")
    for row in report.rows:
        flag = row.flag or ("ok" if row.applies else "n/a")
        table.add_row(row.attack, row.family, fmt(row.score), escape(row.status), flag, f"{row.seconds * 1000:.1f}",
                      escape(row.reason))
    console.print(table)
    if report.coverage:
        cover = Table(title="coverage: k candidates stated, the gold at each position (pay: 0 = the honest wrong "
                            "answer's, 1 = the honest right answer's; committing to one of k earns 1/k)")
        ks = sorted({r.k for r in report.coverage})
        cover.add_column("strategy")
        for k in ks:
            cover.add_column(f"k={k} paid / one pick", justify="right")
        cover.add_column("flag")
        for name in dict.fromkeys(r.strategy for r in report.coverage):
            rows = {r.k: r for r in report.coverage if r.strategy == name}
            flags = sorted({r.flag for r in rows.values() if r.flag})
            cover.add_row(name, *(f"{rows[k].paid:.2f} / {rows[k].single_pick:.2f}" if k in rows else "" for k in ks),
                          ", ".join(flags) or "ok")
        console.print(cover)
    for line in report.exploitability():
        console.print(escape(line))
    console.print(escape(report.note()))
    overpaid, flagged = report.overpaid, report.flagged
    if overpaid:
        console.print(f"{len(overpaid)} attack(s) pay MORE than the honest right answer: "
                      + ", ".join(r.attack for r in overpaid))
    applicable = sum(r.applies for r in report.rows)
    console.print(f"{len(flagged)} of {len(report.rows)} attacks flagged ({applicable} apply: to what it measures, "
                  "or they say nothing)"
                  + (": " + ", ".join(f"{r.attack} ({r.flag})" for r in flagged) if flagged else ""))
    covered = report.coverage_flagged
    if covered:
        console.print(f"{len(covered)} coverage strategies flagged: "
                      + ", ".join(f"{r.strategy} k={r.k} ({r.flag})" for r in covered))
    return 1 if report.findings and args.strict else 0

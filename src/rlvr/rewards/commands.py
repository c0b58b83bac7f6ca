"""``rlvr rewards list`` and ``rlvr score``: the registry and a RewardSet from the command line."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

from rlvr.chat import completion_text
from rlvr.errors import ConfigError
from rlvr.jsonl import parse_jsonl

_GOLD_KEYS = ("gold", "answer")


def list_command(args: argparse.Namespace) -> int:
    """Print every registered reward with its description and parameters."""
    from rich.console import Console
    from rich.table import Table

    from rlvr.rewards import available, describe

    from rich.markup import escape

    table = Table(title="registered rewards", show_lines=True)
    for column in ("name", "description", "parameters: type = default — help"):
        table.add_column(column, overflow="fold")
    for name, _description in available():
        info = describe(name)
        lines = []
        for key, doc in info["params"].items():
            kind = f": {doc['type']}" if doc["type"] else ""
            lines.append(f"{key}{kind} = {doc['default']!r}" + (f" — {doc['help']}" if doc["help"] else ""))
        if info["columns"]:
            lines.append("reads column(s): " + ", ".join(info["columns"]))
        table.add_row(escape(name), escape(info["description"]), escape("\n".join(lines) or "(none)"))
    Console().print(table)
    return 0


class _Unreadable:
    """Rows whose completion is no text (a number, null, a chat without an assistant turn): each
    costs only its own row (its rewards are None, status 'error'), and the command ends saying so."""

    def __init__(self, path: str) -> None:
        self.path, self.lines, self.first = path, 0, ""

    def check(self, n: int, completion: Any) -> None:
        try:
            completion_text(completion)
        except TypeError as exc:
            self.lines += 1
            if not self.first:
                shown = json.dumps(completion, default=str)
                self.first = f"{self.path}:{n}: 'completion' is {shown[:60]}, which is no completion ({exc})"

    def error(self, rows: int) -> ConfigError | None:
        if not self.lines:
            return None
        more = f" (and {self.lines - 1} more row(s))" if self.lines > 1 else ""
        return ConfigError(f"{self.first}{more}; {self.lines} of {rows} rows could not be scored (None, status "
                           "'error'): give the model's text as a JSON string, or chat messages with an assistant turn")


def _read_rows(lines: Any, path: str, unreadable: _Unreadable | None = None) -> Iterator[dict[str, Any]]:
    """The rows of a JSONL input, parsed and checked one line at a time (the file is never held whole)."""
    for n, row in parse_jsonl(lines, path):
        if not isinstance(row, dict) or "completion" not in row:
            raise ConfigError(f"{path}:{n}: each row needs a 'completion' (and usually 'prompt' and a gold "
                              f"'answer'); got {sorted(row) if isinstance(row, dict) else type(row).__name__}")
        if unreadable is not None:
            unreadable.check(n, row["completion"])
        yield row


_TABLE_ROWS = 200  # larger inputs get a summary on the terminal (write the rows with --out)


def _output_row(index: int, row: dict[str, Any], total: float | None, rewards: dict[str, Any]) -> dict[str, Any]:
    """A score row that keeps what identifies the input: id, prompt, completion, gold."""
    out: dict[str, Any] = {"id": row.get("id", index)}
    for key in ("prompt", "completion", "answer", "gold"):
        if key in row:
            out[key] = row[key]
    out["total"] = total
    out["rewards"] = rewards
    return out


def score_command(args: argparse.Namespace) -> int:
    """Score JSONL rows with a RewardSet; stream score rows to --out, print a table or a summary.

    The input is read, scored and written in chunks of 64 rows: memory holds one chunk (and at most
    the table's rows), so a file of any size streams, and a bad line stops the command when reached
    (an --out file is then left as it was). A reward that raised ends the command with one line
    naming it and its file:line (exit 1), after every row is scored and written (its values there
    are None with status 'error').
    """
    from rlvr.files import check_output, read_lines
    from rlvr.rewards import RewardSet

    check_output(args.out, [args.input, args.rewards], getattr(args, "force", False))
    rs = RewardSet.from_config(args.rewards)
    unreadable = _Unreadable(args.input)
    with read_lines(args.input) as lines:
        rows = _read_rows(lines, args.input, unreadable)
        if getattr(args, "ray", None):  # a Ray Dataset is built from every row: the input is held whole
            held = list(rows)
            if not held:
                raise ConfigError(f"{args.input} has no rows")
            code, n = _score_on_ray(args, rs, held), len(held)
        else:
            code, n = _score_locally(args, rs, rows)
    error = unreadable.error(n)  # after every row is scored and written: one bad row costs only that row
    if error is not None:
        raise error
    return code


def _score_locally(args: argparse.Namespace, rs: Any, rows: Iterator[dict[str, Any]]) -> tuple[int, int]:
    """Score and write the rows; returns the exit code and the number of rows."""
    import contextlib
    import itertools

    from rich.console import Console
    from rich.markup import escape
    from rich.progress import Progress
    from rich.table import Table

    from rlvr.files import atomic_output
    from rlvr.rewards.scoring import RaisedErrors, batch_from_rows, score_rows

    console = Console(stderr=args.out == "-")
    table_rows: list[tuple[str, ...]] | None = [] if not args.out else None
    statuses: dict[str, Counter] = {name: Counter() for name in rs.names}
    raised = RaisedErrors()
    totals: list[float] = []
    columns: set[str] = set()
    has_id = False
    chunk, n = 64, 0
    sink = atomic_output(args.out) if args.out else contextlib.nullcontext(None)
    progress = Progress(console=Console(stderr=True), transient=True)
    task = progress.add_task("scoring", total=None)
    with sink as fh:
        try:
            while batch := list(itertools.islice(rows, chunk)):
                if n == chunk:  # a second chunk: worth a progress line
                    progress.start()
                columns.update(k for r in batch for k in r)  # every column seen so far, None where a row lacks it
                has_id = has_id or any("id" in r for r in batch)
                scored = score_rows(rs, *batch_from_rows(batch, sorted(columns - {"prompt", "completion"})))
                raised.add_rows(scored)
                for j, (row, result) in enumerate(zip(batch, scored), start=n):
                    if result.total is not None:
                        totals.append(result.total)
                    cells = []
                    for name in rs.names:
                        r = result.rewards[name]
                        statuses[name][r.status] += 1
                        value = "None" if r.value is None else f"{r.value:g}"
                        cells.append(escape(f"{value} [{r.status}] {r.reason}"))
                    if table_rows is not None:
                        label = str(row.get("id", "")) if "id" in row else str(j)
                        table_rows.append((escape(label), *cells,
                                           "None" if result.total is None else f"{result.total:g}"))
                        if len(table_rows) > _TABLE_ROWS:
                            table_rows = None  # too many for a table: a summary instead
                    if fh is not None:
                        fh.write(json.dumps(_output_row(j, row, result.total, result.to_dict()["rewards"]),
                                            ensure_ascii=False, default=str) + "\n")
                n += len(batch)
                progress.advance(task, len(batch))
            if not n:
                raise ConfigError(f"{args.input} has no rows")
        finally:
            progress.stop()
    if table_rows is not None:
        table = Table(title=f"{n} rows scored with {rs!r}")
        table.add_column("id" if has_id else "#", justify="right", overflow="fold")
        for name in rs.names:
            table.add_column(name, overflow="fold")
        table.add_column("total", justify="right")
        for cells in table_rows:
            table.add_row(*cells)
        console.print(table)
    elif not args.out:
        console.print(f"{n} rows scored with {rs!r} (more than {_TABLE_ROWS}: summary only; "
                      "write every row with --out FILE)")
    _print_summary(console, statuses, totals, n, args.out, "")
    error = raised.error(n)
    if error is not None:
        raise error
    return 0, n


def _score_on_ray(args: argparse.Namespace, rs: Any, rows: list[dict[str, Any]]) -> int:
    """``rlvr score --ray``: the same rows and output as the local path, scored by Ray actors."""
    from collections import Counter as _Counter

    from rich.console import Console

    from rlvr.errors import DependencyMissingError
    from rlvr.files import atomic_output
    from rlvr.integrations.ray import rows_dataset, score_dataset
    from rlvr.rewards.scoring import RaisedErrors

    try:
        import ray
    except ImportError:
        raise DependencyMissingError("rlvr score --ray needs pip install 'rlvr[ray]'") from None
    if not ray.is_initialized():
        if args.ray == "local":
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=args.ray, log_to_driver=False)
    ds = rows_dataset(rows)
    statuses: dict[str, Counter] = {name: _Counter() for name in rs.names}
    raised = RaisedErrors()
    totals = []
    sink = atomic_output(args.out) if args.out else None
    fh = sink.__enter__() if sink else None
    try:
        from pathlib import Path

        # actors build their RewardSet from the file itself, so its plugins: are imported there too
        spec = str(Path(args.rewards).resolve()) if Path(args.rewards).is_file() else rs.to_config()
        for out in score_dataset(ds, spec, actors=args.actors).iter_rows():
            rewards = json.loads(out["rewards"])
            for name, r in rewards.items():
                statuses[name][r["status"]] += 1
                raised.add(name, r["status"], r.get("details") or {})
            if out["total"] is not None:
                totals.append(out["total"])
            if fh is not None:
                record = _output_row(out["_index"], rows[out["_index"]], out["total"], rewards)
                fh.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
    except BaseException as exc:
        if sink:
            sink.__exit__(type(exc), exc, exc.__traceback__)
        raise
    if sink:
        sink.__exit__(None, None, None)
    _print_summary(Console(stderr=args.out == "-"), statuses, totals, len(rows), args.out,
                   f" (Ray, {args.actors} actors)")
    error = raised.error(len(rows))
    if error is not None:
        raise error
    return 0


def _print_summary(console: Any, statuses: dict[str, Counter], totals: list[float], n: int, out: str | None,
                   where: str) -> None:
    """Each reward's status counts, the mean total, and where the rows went."""
    for name, counts in statuses.items():
        console.print(f"{name}: " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    if totals:
        console.print(f"mean total: {sum(totals) / len(totals):.4g} over {len(totals)} rows with a score")
    if out and out != "-":
        console.print(f"wrote {n} rows to {out}{where}")


def export_command(args: argparse.Namespace) -> int:
    """Print the config lines that plug a RewardSet file into a trainer (verl, OpenRLHF, verifiers, TRL)."""
    from pathlib import Path as _Path

    import rlvr.integrations as integrations
    from rlvr.rewards import RewardSet

    rs = RewardSet.from_config(args.rewards)  # validates the file (and its plugins) before printing anything
    config = str(_Path(args.rewards).resolve())
    here = _Path(integrations.__file__).parent
    if args.framework == "verl":
        print(f"""# verl >= 0.9 (reward loop; naive or dapo reward manager): {rs!r}
# (a verl that takes only file paths: path: {here / 'verl.py'})
reward:
  custom_reward_function:
    path: pkg://rlvr.integrations.verl
    name: compute_score          # or compute_score_async; compute_score_batch for a batch manager
    reward_kwargs:
      rewards: {config}
# optional: rlvr's manager also passes the prompt and the response token ids, and reads DAPO's
# reward_kwargs.overlong_buffer_cfg / max_resp_len as the same penalty
#  reward_manager:
#    source: importlib
#    name: RlvrRewardManager
#    module:
#      path: pkg://rlvr.integrations.verl_manager""")
    elif args.framework == "openrlhf":
        print(f"""# OpenRLHF: {rs!r}
# in process (a reward function file):
RLVR_REWARDS={config} --reward.remote_url {here / 'openrlhf.py'}
# or as a service (OpenRLHF sends no headers: the token rides in the URL; several URLs: comma-separated)
RLVR_SERVE_TOKEN=... rlvr serve --rewards {config} --host 0.0.0.0 --port 5000
--reward.remote_url "http://HOST:5000/get_reward?access_token=..." """)
    elif args.framework == "verifiers":
        print(f"""# verifiers 0.4 (v1): {rs!r}
from rlvr.integrations.vf import RlvrMathTaskset, RlvrTasksetConfig, RlvrTaskConfig, reward_hooks
taskset = RlvrMathTaskset(RlvrTasksetConfig(dataset="dapo-math", path="...", task=RlvrTaskConfig(rlvr_rewards={config!r})))
# or, on your own vf.Task: hooks = reward_hooks({config!r})  (async @vf.reward functions, RewardSet weights)
# legacy verifiers <= 0.3:
from rlvr.integrations.vf import legacy_reward_funcs
funcs, weights = legacy_reward_funcs({config!r}); rubric = vf.Rubric(funcs=funcs, weights=weights)""")
    else:
        print(f"""# TRL GRPOTrainer: {rs!r}
from trl import GRPOConfig, GRPOTrainer
from rlvr.rewards import RewardSet
rs = RewardSet.from_config({config!r})
trainer = GRPOTrainer(model=..., reward_funcs=rs.funcs, args=GRPOConfig(..., reward_weights=rs.weights), train_dataset=...)""")
    return 0

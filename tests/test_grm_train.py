"""``rlvr grm train`` and ``rlvr grm eval`` end to end on a tiny judge, and the training stages on
judgments whose right/wrong outcome is known (the meta RM on MiniLM, rejective fine-tuning through
rlvr sample/select/sft, rule-based GRPO through rlvr train)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rlvr.cli import main
from rlvr.rewards.judges.prompts import JudgePrompt

pytestmark = pytest.mark.slow


def _pairs(path, n=3):
    rows = [{"id": f"p{i}", "prompt": f"What is {i}+{i}?", "chosen": f"{i}+{i} = {2 * i}.", "rejected": f"It is {2 * i + 1}.",
             "answer": str(2 * i)} for i in range(1, n + 1)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_grm_eval_and_train_commands_on_a_tiny_judge(tiny_judge, tmp_path, capsys):
    pairs = _pairs(tmp_path / "pairs.jsonl")
    common = ["--judge-model", tiny_judge, "--k", "2", "--max-new-tokens", "6", "--cache-dir", str(tmp_path / "cache")]
    text = ["--score-method", "text"]
    assert main(["grm", "eval", str(pairs), *common, *text, "--out", str(tmp_path / "eval.json")]) == 0
    table = capsys.readouterr().out
    assert "greedy" in table and "voting@2" in table and "no principles, voting@2" in table
    rows = json.loads((tmp_path / "eval.json").read_text())["rows"]
    assert rows["greedy"]["accuracy"] == 0.0 and rows["greedy"]["unparseable"] == 1.0  # abstentions count as wrong
    # the same judge, its scores read from the distribution: never unparseable
    assert main(["grm", "eval", str(pairs), *common, "--min-mass", "0", "--out", str(tmp_path / "dist.json")]) == 0
    rows = json.loads((tmp_path / "dist.json").read_text())["rows"]
    assert all(r["unparseable"] == 0.0 for r in rows.values()), rows
    assert rows["greedy"]["methods"] == {"transformers logits": 3} and len(rows["greedy"]["ci95"]) == 2
    capsys.readouterr()
    assert main(["grm", "train", str(pairs), *common, *text, "--out", str(tmp_path / "train"), "--rl-steps", "1"]) == 0
    summary = capsys.readouterr().out
    assert "meta RM not trained" in summary and "SFT skipped" in summary and "RL: 1 GRPO steps" in summary
    spct = json.loads((tmp_path / "train" / "spct.json").read_text())
    assert spct["judge"].endswith("merged") and spct["meta_rm"] is None
    assert main(["grm", "eval", str(pairs), "--judge-model", str(tmp_path / "missing"), "--k", "2"]) == 2


def _rows(n_pairs=4):
    """Judgments of known outcome: per pair two right and two wrong (as a judge would have written them)."""
    rows = []
    for i in range(n_pairs):
        prompt = JudgePrompt().messages(f"What is {i}+{i}?", [f"{2 * i}", f"{2 * i + 1}"])
        for s, (text, right) in enumerate([("Critique: 1 is right.\nScores: \\boxed{9, 2}", True),
                                           ("Critique: 1 is right.\nScores: \\boxed{8, 3}", True),
                                           ("Critique: 2 looks fine.\nScores: \\boxed{4, 7}", False),
                                           ("Critique: both fine.\nScores: \\boxed{5, 5}", False)]):
            rows.append({"id": f"p{i}-o01", "pair": f"p{i}", "sample": s, "prompt": prompt, "problem": prompt[-1]["content"],
                         "answer": "1", "completion": text, "parsed": True, "right": right})
    return rows


def test_meta_rm_rft_and_rl_stages(tiny_judge, tmp_path, scripted):
    from rlvr.harness.grm_train import online_rl, rejective_fine_tuning, train_meta_rm
    from rlvr.rewards.judges import Vote
    from rlvr.rewards.judges.metarm import MetaRM

    rows = _rows()
    meta_dir = train_meta_rm(rows, tmp_path / "meta", max_steps=2)
    meta = MetaRM(meta_dir)
    scores = meta.score([Vote(0, (9, 2), "ok", "", rows[0]["completion"], prompt=rows[0]["problem"]),
                         Vote(1, None, "unparseable", "", "no scores", prompt=rows[0]["problem"])])
    assert isinstance(scores[0], float) and scores[1] is None  # an abstention is not scored
    from rlvr.rewards import get_reward

    ScriptedJudge, prefers = scripted
    guided = get_reward("grm", backend="http", url="http://127.0.0.1:9/v1", judge_model="s", cache_dir=None, k=4,
                        k_meta=2, meta_rm=meta_dir)
    guided.engine.backend = ScriptedJudge(prefers("right"))
    voted = guided.explain(prompts=["q", "q"], completions=["right", "wrong"])
    assert [x.value for x in voted] == [18.0, 4.0] and "the meta RM's top 2" in voted[0].reason
    tuned, note = rejective_fine_tuning(tiny_judge, rows, tmp_path / "rft", steps=2)
    assert tuned is not None and "4 mixed" in note and "SFT on 8 right judgments" in note
    weights = {f: f.stat().st_mtime_ns for f in (Path(meta_dir) / "model.safetensors", Path(tuned) / "config.json")}
    assert train_meta_rm(rows, tmp_path / "meta", max_steps=2) == meta_dir  # an interrupted run resumes after
    assert rejective_fine_tuning(tiny_judge, rows, tmp_path / "rft", steps=2) == (tuned, note)  # its finished stages
    assert {f: f.stat().st_mtime_ns for f in weights} == weights  # nothing trained again
    assert rejective_fine_tuning(tiny_judge, rows[4:], tmp_path / "rft", steps=2)[0] not in (None, tuned)  # other data
    assert (tmp_path / "rft" / "sft.jsonl").read_text().count("\n") < 8
    sft = [json.loads(line) for line in (tmp_path / "rft" / "sft.jsonl").read_text().splitlines()]
    assert all("\\boxed{9, 2}" in r["completion"][0]["content"] or "\\boxed{8, 3}" in r["completion"][0]["content"]
               for r in sft)
    all_right = [dict(r, right=True, completion="Scores: \\boxed{9, 1}") for r in rows]
    assert rejective_fine_tuning(tiny_judge, all_right, tmp_path / "rft2", steps=1)[0] is None  # too easy: dropped
    merged, note = online_rl(tuned, rows, tmp_path / "rl", steps=1, max_new_tokens=8)
    assert (tmp_path / "rl" / "grpo" / "merged" / "config.json").is_file() and "1 GRPO steps" in note
    metrics = [json.loads(line) for line in (tmp_path / "rl" / "grpo" / "metrics.jsonl").read_text().splitlines()]
    assert any("rewards/grm_rule/mean" in m for m in metrics)
    samples = [json.loads(line) for line in (tmp_path / "rl" / "grpo" / "samples.jsonl").read_text().splitlines()]
    rules = [s["rewards"]["grm_rule"] for s in samples]  # a critique with no score line went to the scorer
    assert rules and all("scorer" in r["reason"] for r in rules if r["status"] == "unparseable")


def test_hinted_sampling_when_no_judgment_prefers_the_better_response(tmp_path, scripted):
    """A pair whose judgments are all wrong gets hinted judgments; the kept ones train on the unhinted prompt."""
    from rlvr.harness.grm_train import HINT, hinted_judgments
    from rlvr.rewards.judges import EngineSettings
    from rlvr.rewards.judges.backends import JudgeReply

    ScriptedJudge, _ = scripted

    def follows_hint(call):  # a judge that does what the note says (the sampling under test is real)
        user = call.messages[-1][1]
        best = "1" if "Response 1 is the better one" in user else "2" if "Response 2 is the better" in user else None
        return JudgeReply("Critique: ok.\nScores: \\boxed{" + ("8, 3" if best == "1" else "3, 8" if best else "5, 5") + "}")
    pairs = [{"id": "p0", "query": "What is 2+2?", "chosen_text": "4", "rejected_text": "5"}]
    rows = hinted_judgments(ScriptedJudge(follows_hint), pairs, JudgePrompt(), EngineSettings(k=1, temperature=0.0), 3)
    assert len(rows) == 3 and all(r["right"] and r["hinted"] for r in rows)
    note = HINT.format(best=1).strip()[:20]
    assert all(note not in r["prompt"][-1]["content"] and note not in r["problem"] for r in rows)
    shown_first = {r["prompt"][-1]["content"].split("[Response 1]\n")[1][0] for r in rows}
    assert shown_first <= {"4", "5"} and all(("8, 3" in r["completion"]) == (r["answer"] == "1") for r in rows)

"""Generative rewards (grm, judge, grm_rule): strict parsing, voting, the verdict cache, the local
judge backend on a tiny locally built model (it writes no score line: the abstention path), and
the rewards' contract (None with the raw text, never 0; configs that cannot work fail at once)."""

from __future__ import annotations

import pickle

import pytest

from rlvr.errors import ConfigError, DependencyMissingError
from rlvr.rewards import RewardSet, get_reward
from rlvr.rewards.judges import (EngineSettings, JudgeEngine, JudgePrompt, JudgeReply, VerdictCache, Vote,
                                 parse_judgment, vote)
from rlvr.rewards.judges.backends import JudgeCall, TransformersJudge
from rlvr.rewards.judges.cache import CachedJudgment


# -- parsing -------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, n, scores", [
    ("Principles: accuracy (60%)\nCritique: R1 is right.\nScores: \\boxed{9, 2}", 2, (9, 2)),
    ("**Scores:** \\boxed{7,3}", 2, (7, 3)),                                  # markdown bold, no spaces
    ("scores: $\\boxed{4}$", 1, (4,)),                                        # single mode, inline math
    ("Score: \\boxed{10, 1, 5}", 3, (10, 1, 5)),                              # listwise
    ("Scores: \\boxed{6, 8}\n...\nScores: \\boxed{6, 8}", 2, (6, 8)),        # repeated, same values
    # a response's own boxed answer quoted in the critique is not a score
    ("Critique: Response 1 writes \\boxed{420}.\nScores: \\boxed{8, 3}", 2, (8, 3)),
])
def test_scores_parse(text, n, scores):
    parsed = parse_judgment(text, n)
    assert parsed.status == "ok" and parsed.scores == scores


@pytest.mark.parametrize("text, n, why", [
    ("Response 1 is better.", 2, "no 'Scores:"),
    ("The answer is \\boxed{420}.", 1, "no 'Scores:"),                     # a quoted answer without the label
    ("Scores: \\boxed{7.5, 3}", 2, "integers"),                               # decimals
    ("Scores: \\boxed{7/10, 3/10}", 2, "integers"),
    ("Scores: \\boxed{11, 3}", 2, "outside 1-10"),
    ("Scores: \\boxed{0, 3}", 2, "outside 1-10"),
    ("Scores: \\boxed{7}", 2, "1 score(s) for 2"),
    ("Scores: \\boxed{7, 3}\nScores: \\boxed{3, 7}", 2, "disagree"),          # two different verdicts
    ("", 2, "empty"),
])
def test_unparseable_judgments_abstain_with_reason(text, n, why):
    parsed = parse_judgment(text, n)
    assert parsed.scores is None and parsed.status == "unparseable" and why in parsed.reason


def test_parse_keeps_principles_and_critique():
    parsed = parse_judgment("Principles:\n1. correct answer (70%)\nCritique:\nR1 wrong.\nScores: \\boxed{2, 9}", 2)
    assert "correct answer" in parsed.principles and parsed.critique == "R1 wrong." and "Principles" in parsed.body


# -- voting --------------------------------------------------------------------------------------

def _v(sample, scores, meta=None):
    return Vote(sample, scores, "ok" if scores else "unparseable", "", meta=meta)


def test_voting_sums_scores_and_skips_abstentions():
    values, used = vote([_v(0, (7, 3)), _v(1, None), _v(2, (6, 6))], 2)
    assert values == [13.0, 9.0] and [v.sample for v in used] == [0, 2]
    assert vote([_v(0, (7, 3)), _v(1, (5, 5))], 2, aggregate="mean")[0] == [6.0, 4.0]
    assert vote([_v(0, None)], 2) == ([None, None], [])


def test_meta_rm_keeps_the_top_k_meta_judgments():
    votes = [_v(0, (1, 9), meta=-2.0), _v(1, (8, 2), meta=1.5), _v(2, (7, 3), meta=0.5), _v(3, (9, 1), meta=None)]
    values, used = vote(votes, 2, k_meta=2)
    assert [v.sample for v in used] == [1, 2] and values == [15.0, 5.0]


# -- prompts -------------------------------------------------------------------------------------

def test_prompt_variants_and_template_ids():
    q, rs = "What is 2+2?", ["4", "5"]
    grm = JudgePrompt("grm").messages(q, rs)[-1]["content"]
    assert "Principles:" in grm and "[Response 2]\n5" in grm and "Reference" not in grm
    given = JudgePrompt("grm", principles=("the answer is exact",)).messages(q, rs, "4")[-1]["content"]
    assert "1. the answer is exact" in given and "[Reference answer]\n4" in given and "write 2 to 4" not in given
    plain = JudgePrompt("judge").messages(q, rs)[-1]["content"]
    assert "rubric" in plain and "Principles:" not in plain
    ids = {JudgePrompt("grm").template_id, JudgePrompt("grm", generate_principles=False).template_id,
           JudgePrompt("judge").template_id}
    assert len(ids) == 3
    long = JudgePrompt("grm", max_response_chars=100).messages(q, ["x" * 50 + "y" * 500 + "END"])[-1]["content"]
    assert "characters omitted" in long and "END" in long
    with pytest.raises(ConfigError):
        JudgePrompt("judge", principles=("p",))


# -- cache ---------------------------------------------------------------------------------------

def test_cache_persists_across_instances_and_processes_bound(tmp_path):
    cache = VerdictCache(tmp_path, max_entries=300)
    cache.put("a", CachedJudgment("Scores: \\boxed{5}", 10, 4))
    again = pickle.loads(pickle.dumps(VerdictCache(tmp_path)))  # a resumed run / another process
    assert again.get("a") == CachedJudgment("Scores: \\boxed{5}", 10, 4) and again.get("b") is None
    for i in range(600):
        cache.put(f"k{i}", CachedJudgment("t", 1, 1))
    assert len(cache) <= 300 + 256  # bounded (checked every 256 writes)


# -- the engine with a scripted backend (the judge's text is the test's input, not a mock of rlvr) --

def test_engine_shuffles_votes_maps_back_and_caches(tmp_path, scripted):
    ScriptedJudge, _prefers = scripted
    backend = ScriptedJudge(_prefers("right"))
    engine = JudgeEngine(backend, settings=EngineSettings(k=8, temperature=0.5), cache=VerdictCache(tmp_path))
    verdict = engine.judge("q", ["wrong one", "right one", "also wrong"])
    assert verdict.values == [16.0, 72.0, 16.0]
    orders = {v.order for v in verdict.votes}
    assert len(orders) > 1  # the order changed between samples
    assert "9+9+9+9+9+9+9+9 = 72 from 8 of 8" in verdict.reason(1)
    assert engine.counters["prompt_tokens"] == 800 and engine.counters["generated"] == 8
    fresh = JudgeEngine(ScriptedJudge(_prefers("nothing")), settings=EngineSettings(k=8, temperature=0.5),
                        cache=VerdictCache(tmp_path))
    fresh.backend.model_id = "scripted-judge"
    assert fresh.judge("q", ["wrong one", "right one", "also wrong"]).values == [16.0, 72.0, 16.0]
    assert fresh.counters["cache_hits"] == 8 and not fresh.backend.calls  # re-scoring paid nothing


def test_engine_backend_failures_abstain_with_the_cause(scripted):
    ScriptedJudge, _prefers = scripted
    engine = JudgeEngine(ScriptedJudge(lambda c: JudgeReply.failed("connection_error", "ConnectError: refused")),
                         settings=EngineSettings(k=2))
    verdict = engine.judge("q", ["a", "b"])
    assert verdict.values == [None, None] and verdict.status() == "judge_error"
    assert "connection_error" in verdict.reason(0) and "refused" in verdict.reason(0)
    assert engine.counters["backend_connection_error"] == 2


def test_engine_settings_refuse_what_cannot_work(scripted):
    ScriptedJudge, _prefers = scripted
    with pytest.raises(ConfigError, match="temperature"):
        EngineSettings(k=4, temperature=0)
    with pytest.raises(ConfigError, match="k_meta"):
        EngineSettings(k=2, k_meta=3)
    with pytest.raises(ConfigError, match="meta RM"):
        JudgeEngine(ScriptedJudge(_prefers("x")), settings=EngineSettings(k=2, k_meta=1))


# -- the rewards -------------------------------------------------------------------------------

def test_configs_that_cannot_work_fail_at_construction(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        get_reward("grm", judge_model=str(tmp_path / "missing"))
    with pytest.raises(ConfigError, match="needs judge_model"):
        get_reward("grm")
    with pytest.raises(ConfigError, match="not an http"):
        get_reward("grm", backend="http", url="ftp://127.0.0.1/v1", judge_model="m")
    with pytest.raises(ConfigError, match="needs url"):
        get_reward("judge", backend="http", judge_model="m")
    with pytest.raises(ConfigError, match="needs meta_rm"):
        get_reward("grm", judge_model=str(tmp_path), k=4, k_meta=2)
    with pytest.raises(ConfigError, match="backend"):
        get_reward("grm", backend="sglang", judge_model="m")
    import importlib.util
    if importlib.util.find_spec("vllm") is None:
        with pytest.raises(DependencyMissingError, match="rlvr\\[gpu\\]"):
            get_reward("grm", backend="vllm", judge_model=str(tmp_path))


def _grm_with(backend, **params):
    r = get_reward("grm", backend="http", url="http://127.0.0.1:9/v1", judge_model="scripted", cache_dir=None, **params)
    r.engine.backend = backend
    return r


def test_grm_group_mode_on_trl_chat_batches_and_metrics(scripted):
    ScriptedJudge, _prefers = scripted
    """TRL passes a prompt's G completions consecutively, as chat messages in conversational data."""
    r = _grm_with(ScriptedJudge(_prefers("144")), k=2)
    p1, p2 = [{"role": "user", "content": "12*12?"}], [{"role": "user", "content": "3+4?"}]
    comps = [[{"role": "assistant", "content": t}] for t in ("It is 144.", "It is 124.", "It is 7.", "It is 8.")]
    logged = {}
    values = r(prompts=[p1, p1, p2, p2], completions=comps, log_metric=lambda k, v: logged.__setitem__(k, v))
    assert values == [18.0, 4.0, 4.0, 4.0]
    sizes = [len(c.messages[-1][1].split("[Response ")) - 1 for c in r.engine.backend.calls]
    assert sizes == [2, 2, 2, 2]  # two groups of two, two samples each
    assert logged["rewards/grm/judge/prompt_tokens"] == 400.0 and logged["rewards/grm/judge/abstained"] == 0.0
    single = _grm_with(ScriptedJudge(_prefers("144")), mode="single")
    assert single(prompts=[p1, p1], completions=["144", "124"]) == [9.0, 2.0]


def test_grm_reference_column_reaches_the_judge(scripted):
    ScriptedJudge, _prefers = scripted
    backend = ScriptedJudge(_prefers("4"))
    r = _grm_with(backend, reference_column="answer")
    r(prompts=["2+2?", "2+2?"], completions=["4", "5"], answer=["4", "4"])
    assert "[Reference answer]\n4" in backend.calls[0].messages[-1][1]
    assert r.reads().columns == ("answer",)


def test_grm_rule_reward():
    rule = get_reward("grm_rule")
    texts = ["Scores: \\boxed{9, 3}", "Scores: \\boxed{5, 5}", "Scores: \\boxed{2, 8}", "no scores"]
    results = get_reward("grm_rule", n_column="grm_n").explain(completions=texts, answer=["1"] * 4, grm_n=[2] * 4)
    assert [r.value for r in results] == [1.0, -1.0, -1.0, -1.0]
    assert [r.status for r in results] == ["correct", "incorrect", "incorrect", "unparseable"]
    prompt = JudgePrompt().messages("q", ["a", "b", "c"])  # without the column: counted from the judge prompt
    counted = rule.explain(prompts=[prompt] * 2, completions=["Scores: \\boxed{2, 9, 3}", "Scores: \\boxed{9, 3}"],
                           answer=["2", "1"])
    assert [r.value for r in counted] == [1.0, -1.0] and "2 score(s) for 3" in counted[1].reason


# -- a real local model: the tiny judge writes no score line --------------------------------------

def test_grm_rule_scores_a_judgment_with_no_score_line_from_the_scorers_distribution(tiny_judge):
    """The RL stage of a small judge: the policy's critique rarely reaches a score line, so the rule
    reads the score from the (frozen) scorer's token distribution after it; a written line still wins."""
    prompt = JudgePrompt().messages("What is 3*4?", ["It is 12.", "It is 13."])
    texts = ["Principles: correctness. Critique: the first is right", "Critique: both", "Scores: \\boxed{2, 9}"]
    plain = get_reward("grm_rule").explain(prompts=[prompt] * 3, completions=texts, answer=["1"] * 3)
    assert [r.status for r in plain] == ["unparseable", "unparseable", "incorrect"]
    scored = get_reward("grm_rule", scorer=tiny_judge, min_mass=0.0).explain(prompts=[prompt] * 3, completions=texts,
                                                                answer=["1"] * 3)
    assert [r.status in ("correct", "incorrect") for r in scored] == [True] * 3
    assert "scorer's expected scores" in scored[0].reason and "mass" in scored[0].reason
    assert scored[2].reason == plain[2].reason  # the written line is read as before
    graded = get_reward("grm_rule", graded=True).explain(prompts=[prompt] * 3, answer=["1", "2", "1"], completions=[
        "Scores: \\boxed{9, 3}", "Scores: \\boxed{9, 3}", "Scores: \\boxed{5, 5}"])
    assert [r.value for r in graded] == [round(-1 + (6 / 9 + 1), 4), round(-1 + (-6 / 9 + 1), 4), 0.0]
    assert [r.status for r in graded] == ["correct", "incorrect", "incorrect"]  # the margin, its sign the rule's
    strict = get_reward("grm_rule", scorer=tiny_judge, min_mass=1.01).explain(prompts=[prompt], completions=texts[:1],
                                                                             answer=["1"])
    assert strict[0].status == "unparseable" and "scorer has none either" in strict[0].reason

def test_tiny_local_judge_abstains_with_raw_text_and_tokens(tiny_judge, tmp_path):
    """With the text parse only (score_method: text) a judge that writes no score line abstains."""
    r = get_reward("grm", judge_model=tiny_judge, k=2, max_new_tokens=12, cache_dir=str(tmp_path), device="cpu",
                   score_method="text")
    results = r.explain(prompts=["What is 3*4?"] * 2, completions=["It is 12.", "It is 13."])
    assert all(x.value is None and x.status == "unparseable" for x in results)
    assert "raw text" in results[0].reason and "no 'Scores:" in results[0].reason
    stats = r.judge_stats()
    assert stats["generated"] == 2 and stats["unparseable"] == 2 and stats["completion_tokens"] > 0
    again = pickle.loads(pickle.dumps(r))  # TRL ships rewards to workers: weights reload, the cache persists
    again.engine.cache.close()
    again.engine.cache._memory.clear()  # nothing from the first process's memory: only the file
    again.explain(prompts=["What is 3*4?"] * 2, completions=["It is 12.", "It is 13."])
    assert again.judge_stats()["cache_hits"] == 2 and again.judge_stats()["generated"] == 2  # no new generation
    rs = RewardSet.from_config({"rewards": [{"name": "judge", "params": {"judge_model": tiny_judge, "cache_dir": None,
                                                                         "max_new_tokens": 8, "score_method": "text"}}]})
    assert rs(prompts=["q"], completions=["a"]) == [None]  # an abstention is no opinion, not 0


def test_shared_prefix_decodes_what_separate_prompts_decode(tiny_judge):
    calls = [JudgeCall.of([{"role": "user", "content": text}], 0.0, 10, 1)
             for text in ("short", "a much longer prompt for padding", "short")]
    shared = TransformersJudge(tiny_judge, device="cpu").generate(calls)
    alone = TransformersJudge(tiny_judge, device="cpu", share_prefix=False).generate(calls)
    assert [r.text for r in shared] == [r.text for r in alone]
    assert shared[0].text == shared[2].text and shared[0].prompt_tokens == alone[0].prompt_tokens


def test_the_cache_keys_on_the_weights_not_the_folder(tiny_judge, tmp_path):
    import shutil

    import torch
    from transformers import AutoModelForCausalLM

    from rlvr.models import fingerprint

    copy = tmp_path / "copy"
    shutil.copytree(tiny_judge, copy)
    assert fingerprint(str(copy)) == fingerprint(tiny_judge)  # same weights, same id, wherever they are
    import json
    config = json.loads((copy / "config.json").read_text())
    (copy / "config.json").write_text(json.dumps({**config, "use_cache": False}))  # as a trainer saves it
    assert fingerprint(str(copy)) == fingerprint(tiny_judge)
    model = AutoModelForCausalLM.from_pretrained(copy)
    with torch.no_grad():
        next(model.parameters()).add_(0.01)
    model.save_pretrained(copy)  # retrained into the same folder: its old judgments no longer apply
    assert fingerprint(str(copy)) != fingerprint(tiny_judge)

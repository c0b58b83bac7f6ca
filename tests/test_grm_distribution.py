"""Scores read from the judge's token distribution: never unparseable, and right.

The trie reading (:func:`read_scores`) is checked on distributions written out by hand (one token
per digit, several digits per token, a value glued to its separator, a server's top-k); the engine
on the scripted backend (its text decided by the test) with a distribution; a real local model's
scores against its own logits computed here independently.
"""

from __future__ import annotations

import math

import pytest

from rlvr.rewards import get_reward
from rlvr.rewards.judges import EngineSettings, JudgeEngine, VerdictCache
from rlvr.rewards.judges.backends import JudgeCall, TransformersJudge
from rlvr.rewards.judges.distribution import NO_PROBABILITIES, read_scores, score_prefix

CALL = JudgeCall.of([{"role": "user", "content": "judge"}], 0.0, 8, 0)


def oracle(table):
    """next_tokens from a table {prefix end: distribution}; records what it was asked."""
    asked = []

    def next_tokens(items):
        asked.extend(prefix for _, prefix in items)
        return [next((d for end, d in table.items() if prefix.endswith(end)), None) for _, prefix in items]
    return next_tokens, asked


def test_one_token_per_digit_expected_argmax_and_mass():
    next_tokens, asked = oracle({"{": {"7": 0.6, "3": 0.2, "Hello": 0.2}})
    [score] = read_scores(next_tokens, [(CALL, "Critique: fine.", 1)])
    [pos] = score.positions
    assert score.error is None and math.isclose(pos.mass, 0.8)
    assert math.isclose(pos.probs[7], 0.75) and math.isclose(pos.expected, 0.75 * 7 + 0.25 * 3) and pos.argmax == 7
    assert score.text == "Critique: fine.\nScores: \\boxed{7}" and asked == ["Critique: fine.\nScores: \\boxed{"]


def test_ten_splits_the_mass_of_one_by_what_follows_it():
    # at "{": "1" 0.5, "9" 0.5; after "1": "0" 0.3, "," 0.1, junk 0.6 -> P(1) = .5 * .1/.4, P(10) = .5 * .3/.4
    next_tokens, asked = oracle({"{1": {"0": 0.3, ",": 0.1, "x": 0.6}, "{": {"1": 0.5, "9": 0.5}})
    [score] = read_scores(next_tokens, [(CALL, "ok", 1)])
    probs = score.positions[0].probs
    assert math.isclose(probs[1], 0.125) and math.isclose(probs[10], 0.375) and math.isclose(probs[9], 0.5)
    assert math.isclose(score.positions[0].mass, 1.0) and len(asked) == 2


def test_tokens_of_several_digits_and_values_glued_to_separators():
    # "10" as one token, "4," (a value and its separator), "12" off the scale, " 6" with a leading space
    next_tokens, _ = oracle({"": {"10": 0.3, "4,": 0.2, "12": 0.3, " 6": 0.2}})
    [score] = read_scores(next_tokens, [(CALL, "ok", 2)], min_mass=0.0)
    first = score.positions[0]
    assert math.isclose(first.mass, 0.7) and set(first.probs) == {10, 4, 6} and first.argmax == 10
    assert score.text.endswith("\\boxed{10, 10}")  # argmax forced, then the separator, then the next position


def test_each_position_is_read_after_the_forced_argmax_and_separator():
    next_tokens, asked = oracle({"{8, ": {"2": 0.9}, "{": {"8": 0.9, "5": 0.1}})
    [score] = read_scores(next_tokens, [(CALL, "Scores: \\boxed{8, 7", 2)])  # a malformed score line is replaced
    assert [p.argmax for p in score.positions] == [8, 2]
    assert asked[1].endswith("Scores: \\boxed{8, ") and asked[1].count("Scores:") == 1
    assert score.text.endswith("\\boxed{8, 2}")


def test_too_little_mass_on_the_scale_abstains_with_the_figure():
    next_tokens, _ = oracle({"{": {"7": 0.01, "The": 0.99}})
    [score] = read_scores(next_tokens, [(CALL, "ok", 1)], min_mass=0.05)
    assert score.error and "0.01" in score.error and "below min_mass 0.05" in score.error and not score.transient


def test_no_probabilities_from_the_backend_is_transient():
    [score] = read_scores(lambda items: [None] * len(items), [(CALL, "ok", 1)])
    assert score.error.startswith(NO_PROBABILITIES) and score.transient


def test_score_prefix_drops_a_broken_score_line():
    assert score_prefix("Critique: a.\n**Scores**: \\boxed{7/10") == "Critique: a.\nScores: \\boxed{"
    assert score_prefix("no label") == "no label\nScores: \\boxed{"


# -- the engine ---------------------------------------------------------------------------------

@pytest.fixture
def distributed(scripted):
    """A scripted judge that also has a distribution: response shown first gets mostly 8, second 3."""
    ScriptedJudge, _ = scripted

    class Distributed(ScriptedJudge):
        distribution = "scripted logits"

        def __init__(self, answer, table):
            super().__init__(answer)
            self.table, self.asked = table, []

        def next_tokens(self, items):
            self.asked += [p for _, p in items]
            return [dict(self.table[p.count(",")]) for _, p in items]
    return Distributed


def reply(text):
    from rlvr.rewards.judges.backends import JudgeReply

    return lambda call: JudgeReply(text, prompt_tokens=10, completion_tokens=5)


def test_text_parse_first_then_the_distribution_and_both_cached(distributed, tmp_path):
    table = {0: {"8": 0.7, "9": 0.2, "so": 0.1}, 1: {"3": 0.5, "2": 0.4, "x": 0.1}}
    judge = distributed(reply("Critique: the first is right."), table)
    engine = JudgeEngine(judge, settings=EngineSettings(k=1, temperature=0.0, shuffle=False),
                         cache=VerdictCache(tmp_path))
    [verdict] = engine.judge_groups([("q", ["a", "b"], None)])
    [vote] = verdict.votes
    assert vote.method == "scripted logits" and vote.argmax == (8, 3) and math.isclose(vote.mass, 0.9)
    assert math.isclose(verdict.values[0], (8 * 0.7 + 9 * 0.2) / 0.9) and verdict.values[0] > verdict.values[1]
    assert "scripted logits" in verdict.reason(0) and "probability mass on the scale 0.90" in verdict.reason(0)
    assert vote.text.endswith("Scores: \\boxed{8, 3}")  # what a meta RM and rejective fine-tuning read
    asked = len(judge.asked)
    again = JudgeEngine(judge, settings=engine.settings, cache=VerdictCache(tmp_path))
    assert again.judge_groups([("q", ["a", "b"], None)])[0].values == verdict.values
    assert len(judge.asked) == asked and again.counters["distribution_cache_hits"] == 1
    parsed = distributed(reply("Critique: ok.\nScores: \\boxed{4, 6}"), table)
    [v] = JudgeEngine(parsed, settings=engine.settings).judge_groups([("q", ["a", "b"], None)])[0].votes
    assert v.method == "text" and v.scores == (4, 6) and parsed.asked == []  # the text parse stays first
    always = JudgeEngine(parsed, settings=EngineSettings(k=1, temperature=0.0, shuffle=False,
                                                         score_method="distribution"))
    assert always.judge_groups([("q", ["a", "b"], None)])[0].votes[0].method == "scripted logits"


def test_score_method_text_and_low_mass_abstain_never_zero(distributed):
    judge = distributed(reply("no score here"), {0: {"7": 0.01, "a": 0.99}, 1: {"7": 0.01}})
    text_only = JudgeEngine(judge, settings=EngineSettings(k=1, temperature=0.0, score_method="text"))
    verdict = text_only.judge_groups([("q", ["a", "b"], None)])[0]
    assert verdict.values == [None, None] and verdict.status() == "unparseable" and judge.asked == []
    low = JudgeEngine(judge, settings=EngineSettings(k=1, temperature=0.0, min_mass=0.05))
    verdict = low.judge_groups([("q", ["a", "b"], None)])[0]
    assert verdict.values == [None, None] and verdict.status() == "unparseable"
    assert "0.01" in verdict.reason(0) and "min_mass" in verdict.reason(0)


def test_voting_sums_expected_scores_across_shuffled_samples(distributed):
    table = {0: {"8": 1.0}, 1: {"3": 0.5, "4": 0.5}}  # whichever is shown first gets 8
    judge = distributed(reply("free text"), table)
    engine = JudgeEngine(judge, settings=EngineSettings(k=4, temperature=0.5, seed=3))
    [verdict] = engine.judge_groups([("q", ["a", "b"], None)])
    firsts = [v.order[0] for v in verdict.votes]
    assert all(v.method == "scripted logits" for v in verdict.votes)
    assert verdict.values[0] == sum(8.0 if f == 0 else 3.5 for f in firsts)
    assert verdict.values[0] + verdict.values[1] == 4 * 11.5


# -- a real local model ---------------------------------------------------------------------------

def test_local_judge_scores_match_its_own_logits(tiny_judge):
    """The tiny judge (random weights) never writes a score line; its distribution score is what its
    logits at the forced prefix say, computed here without rlvr's reader."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    backend = TransformersJudge(tiny_judge, device="cpu")
    engine = JudgeEngine(backend, settings=EngineSettings(k=1, temperature=0.0, max_new_tokens=6, min_mass=0.0,
                                                          shuffle=False))
    [verdict] = engine.judge_groups([("What is 3*4?", ["It is 12."], None)])
    [vote] = verdict.votes
    assert vote.status == "ok" and vote.method == "transformers logits" and verdict.values[0] is not None
    net, tok = AutoModelForCausalLM.from_pretrained(tiny_judge).eval(), AutoTokenizer.from_pretrained(tiny_judge)
    prompt = tok.apply_chat_template(vote_messages(vote), tokenize=False, add_generation_prompt=True)
    prefix = prompt + score_prefix(vote.text.rsplit("\nScores:", 1)[0])

    def probs(text):
        ids = tok(text, return_tensors="pt", add_special_tokens=False)["input_ids"]
        with torch.no_grad():
            return torch.softmax(net(ids).logits[0, -1], -1)
    root, after_one = probs(prefix), probs(prefix + "1")
    digit = {d: tok.convert_tokens_to_ids(d) for d in "0123456789"}
    stop = sum(after_one[i].item() for t, i in tok.get_vocab().items() if tok.convert_tokens_to_string([t])
               .lstrip().startswith((",", "}")))
    raw = {v: root[digit[str(v)]].item() for v in range(2, 10)}
    raw[1] = root[digit["1"]].item() * stop / (stop + after_one[digit["0"]].item())
    raw[10] = root[digit["1"]].item() * after_one[digit["0"]].item() / (stop + after_one[digit["0"]].item())
    total = sum(raw.values())
    expected = sum(v * p for v, p in raw.items()) / total
    assert math.isclose(verdict.values[0], expected, rel_tol=1e-3)
    assert math.isclose(vote.mass, sum(root[digit[d]].item() for d in "123456789"), rel_tol=1e-3)


def test_the_score_is_read_from_the_generation_kv_cache_and_equals_a_fresh_read(tiny_judge):
    """After generating, reading the score re-reads only the score line (the judgment's KV cache cut to
    what the score prefix shares with it), and gives what reading everything again gives."""
    settings = EngineSettings(k=1, temperature=0.0, max_new_tokens=6, min_mass=0.0, shuffle=False)
    cached, fresh = TransformersJudge(tiny_judge, device="cpu"), TransformersJudge(tiny_judge, device="cpu")
    fresh.kv_states = 0  # keeps no state: every read starts from the first token
    widths = []
    net, _ = cached._load()
    hook = net.register_forward_pre_hook(lambda _m, _a, kw: widths.append(kw["input_ids"].shape[1]), with_kwargs=True)
    try:
        [a] = JudgeEngine(cached, settings=settings).judge_groups([("What is 3*4?", ["It is 12."], None)])
    finally:
        hook.remove()
    [b] = JudgeEngine(fresh, settings=settings).judge_groups([("What is 3*4?", ["It is 12."], None)])
    prompt, later = widths[0], widths[1:]  # the prompt's prefill, then decode steps and score reads
    assert later and max(later) < prompt / 2, widths
    assert math.isclose(a.values[0], b.values[0], rel_tol=1e-4) and math.isclose(a.votes[0].mass, b.votes[0].mass,
                                                                                  rel_tol=1e-4)


def vote_messages(vote):
    from rlvr.rewards.judges.prompts import SYSTEM

    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": vote.prompt}]


def test_grm_reward_on_the_tiny_judge_never_abstains_for_format(tiny_judge):
    r = get_reward("grm", judge_model=tiny_judge, k=2, max_new_tokens=8, cache_dir=None, device="cpu", min_mass=0.0)
    results = r.explain(prompts=["What is 3*4?"] * 2, completions=["It is 12.", "It is 13."])
    assert all(x.value is not None and x.status == "ok" for x in results)
    assert "transformers logits" in results[0].reason and r.judge_stats()["distribution_scored"] == 2

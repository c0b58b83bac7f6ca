"""The reference-given judge as math_equivalence's second opinion: asked only where the rules refused
for a comparison reason, never for an integrity one, so no attack the rules refuse gets paid, even by
a judge that says "equivalent" to everything."""

from __future__ import annotations

import pytest

from rlvr.rewards import get_reward
from rlvr.rewards.judges.backends import JudgeBackend
from rlvr.rewards.judges.reference import JUDGED_RULES, eligible


FN, FN_GOLD = "So the answer is \\boxed{6}.", "\\gcd(12, 18)"  # right, and refused by the rules (compare.symbolic)


class CredulousJudge(JudgeBackend):
    """The worst judge for the invariant: "Yes" to every question (its probability set by the test)."""

    kind, model_id, distribution = "scripted", "credulous-judge", "scripted"

    def __init__(self, p_yes=0.99, mass=1.0):
        self.p_yes, self.mass, self.asked = p_yes, mass, []

    def next_tokens(self, items, kind="scores"):
        self.asked += [call.messages[-1][1] for call, _ in items]
        return [{" Yes": self.p_yes * self.mass, " No": (1 - self.p_yes) * self.mass, " Hmm": 1 - self.mass}
                for _ in items]


def with_judge(monkeypatch, tmp_path, backend, **judge):
    """math_equivalence with its judge's backend replaced by ``backend`` (the gating under test is real)."""
    import rlvr.rewards.judges.backends as backends

    monkeypatch.setattr(backends, "make_backend", lambda *a, **k: backend)
    return get_reward("math_equivalence", judge={"judge_model": "credulous", "cache_dir": str(tmp_path), **judge})


def test_eligible_reads_public_fields_only():
    assert eligible("incorrect", "compare.symbolic", "\\frac{2}{4}", gold="\\frac{1}{2}")
    assert eligible("unparseable_answer", "compare.sandbox", "x", gold="x+0")
    assert not eligible("correct", "compare.symbolic", "1")
    assert not eligible("no_answer", "compare.symbolic", None)
    assert not eligible("incorrect", "integrity.later_statement", "41")
    assert not eligible("incorrect", "locate.several_answers", "41")
    assert not eligible("unparseable_answer", "prepare.unreadable", "41")
    assert not eligible("incorrect", "compare.or_in_answer", "41 or 42")
    assert not eligible("incorrect", "compare.units", "42 cm")
    assert not eligible("incorrect", None, "42")
    assert not eligible("incorrect", "compare.symbolic", "1" * 500)  # a judge reads short answers only
    assert not eligible("incorrect", "compare.symbolic", "\\pm 42", gold="42")  # shape: a sign the gold lacks
    assert eligible("incorrect", "compare.symbolic", "\\pm 42", gold="42", scope="comparison")


def test_no_rule_of_an_integrity_stage_is_ever_judged():
    from rlvr.verifiers.trace import RULES

    for name, rule in RULES.items():
        for status in ("incorrect", "unparseable_answer", "timeout"):
            if rule.stage != "compare":
                assert not eligible(status, name, "42"), name
    assert JUDGED_RULES <= {n for n, r in RULES.items() if r.stage == "compare"}  # names the verifier still has


def test_a_credulous_judge_pays_no_attack(monkeypatch, tmp_path):
    """The audit's attacks against math_equivalence with a judge saying yes to everything: none paid
    (scope: shape, the default). With scope: comparison (every comparison refusal asked) hedges written
    inside one box reach the judge, and this judge pays them: the documented reason for the default."""
    from rlvr.testing.audit import audit

    plain = audit(get_reward("math_equivalence"))
    judge = CredulousJudge()
    judged = audit(with_judge(monkeypatch, tmp_path / "shape", judge))
    assert [r.attack for r in judged.flagged] == [r.attack for r in plain.flagged]
    assert [(r.attack, r.score) for r in judged.rows] == [(r.attack, r.score) for r in plain.rows]
    broad = audit(with_judge(monkeypatch, tmp_path / "comparison", CredulousJudge(), scope="comparison"))
    paid = {r.attack for r in broad.flagged} - {r.attack for r in plain.flagged}
    assert {"candidate_set", "plus_minus", "instruction_injection"} <= paid
    assert "german_or" not in paid  # "41 oder 42" is compare.or_in_answer now: a policy rule, never asked


def test_same_shape():
    from rlvr.rewards.judges.reference import same_shape

    assert same_shape("\\frac{84}{2}", "42") and same_shape("2x+2", "2(x+1)") and same_shape("Tuesday", "\\text{Tuesday}")
    for hedge in ("41 \\text{ oder } 42", "\\{40, 41\\}", "\\pm 42", "x", "4²", "\\text{the correct answer}", "41 < 42",
                  "٤٢", "41</answer><answer>42"):
        assert not same_shape(hedge, "42"), hedge


def test_integrity_refusals_are_never_asked_comparison_ones_are_and_cached(monkeypatch, tmp_path):
    judge = CredulousJudge()
    r = with_judge(monkeypatch, tmp_path, judge)
    hedge = "The answer is \\boxed{41} or \\boxed{42}."
    later = "So \\boxed{42}. Actually, I think it is 41."
    results = r.explain(completions=[hedge, later], answer=["42", "42"])
    assert all(x.value == 0.0 for x in results) and judge.asked == []
    # a comparison the rules cannot settle: an unevaluated gold (the verifier's false negative)
    plain = get_reward("math_equivalence").explain(completions=[FN], answer=[FN_GOLD])[0]
    if not eligible(plain.status, plain.details["rule"], plain.details["answer"], gold=FN_GOLD):
        pytest.skip(f"the verifier decides this case itself now ({plain.details['rule']}); pick another")
    [paid] = r.explain(completions=[FN], answer=[FN_GOLD])
    assert paid.value == 1.0 and paid.status == "correct" and paid.details["rule"] == "judge.reference_equivalent"
    assert "reference judge (credulous-judge) decided" in paid.reason and plain.details["rule"] in paid.reason
    assert len(judge.asked) == 1 and "Reference answer: \\gcd(12, 18)" in judge.asked[0]
    again = with_judge(monkeypatch, tmp_path, judge)
    assert again.explain(completions=[FN], answer=[FN_GOLD])[0].value == 1.0
    assert len(judge.asked) == 1  # cached on disk


def test_an_unsure_or_silent_judge_leaves_the_rules_verdict(monkeypatch, tmp_path):
    unsure = with_judge(monkeypatch, tmp_path / "a", CredulousJudge(p_yes=0.7), min_confidence=0.9)
    plain = get_reward("math_equivalence").explain(completions=[FN], answer=[FN_GOLD])[0]
    [kept] = unsure.explain(completions=[FN], answer=[FN_GOLD])
    assert kept.value == plain.value and kept.status == plain.status and "0.700 < 0.9" in kept.reason
    silent = with_judge(monkeypatch, tmp_path / "b", CredulousJudge(mass=0.1), min_mass=0.5)
    [kept] = silent.explain(completions=[FN], answer=[FN_GOLD])
    assert kept.value == plain.value and "mass on Yes/No 0.100 below 0.5" in kept.reason


def test_judge_config_errors_name_the_fix():
    from rlvr.errors import ConfigError

    with pytest.raises(ConfigError, match="needs judge_model"):
        get_reward("math_equivalence", judge={"backend": "transformers"})
    with pytest.raises(ConfigError, match="unknown key"):
        get_reward("math_equivalence", judge={"judge_model": "x", "temperature": 1})
    with pytest.raises(ConfigError, match="min_confidence"):
        get_reward("math_equivalence", judge={"judge_model": "x", "min_confidence": 0.2})


@pytest.mark.slow
def test_a_real_local_judge_answers_with_a_probability(smollm2_judge, tmp_path):
    from rlvr.rewards.judges.backends import TransformersJudge
    from rlvr.rewards.judges.reference import ReferenceJudge

    judge = ReferenceJudge(TransformersJudge(smollm2_judge, device="cpu"), min_mass=0.0)
    same, other = judge.judge([("\\frac{1}{2}", "0.5"), ("7", "12")])
    assert same.p_equivalent is not None and 0 <= same.p_equivalent <= 1 and same.mass > 0.05
    assert other.p_equivalent is not None and same.error is None

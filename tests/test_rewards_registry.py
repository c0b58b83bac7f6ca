"""The reward registry, the TRL contract, the failure policy and RewardSet composition."""

from __future__ import annotations

import json
import logging
import pickle
import subprocess
import sys
import textwrap

import pytest

from rlvr.errors import ConfigError, RlvrError
from rlvr.rewards import Reward, RewardFailure, RewardResult, RewardSet, available, describe, get_reward, reward


@reward("test_length_ratio")
def length_ratio(completions, scale: float = 1.0, **kwargs):
    """Length of each completion divided by 100, times scale."""
    return [scale * len(c if isinstance(c, str) else c[-1]["content"]) / 100 for c in completions]


@reward("test_flaky")
class Flaky(Reward):
    """Raises while ``fail`` is true."""

    def __init__(self, fail: bool = True):
        super().__init__()
        self.fail = fail

    def score(self, completions, prompts, **columns):
        if self.fail:
            raise RuntimeError("boom")
        return [RewardResult(1.0, "ok", "fine") for _ in completions]


def test_builtins_are_listed_with_descriptions():
    names = dict(available())
    for name in ("format_strict", "format_approx", "tag_count", "r1_tags", "boxed_answer", "math_equivalence",
                 "numeric_tolerance", "language_consistency", "overlong_penalty", "cosine_scaled",
                 "repetition_penalty", "reward_model"):
        assert names.get(name), name
    assert names["test_length_ratio"].startswith("Length of each completion")
    params = describe("overlong_penalty")["params"]
    assert {k: v["default"] for k, v in params.items()} == {"max_length": 4096, "cache_length": 512, "length_unit": "auto"}
    assert params["max_length"]["type"] == "int" and params["max_length"]["help"]


def test_every_builtin_declares_typed_params_with_help():
    from rlvr.rewards.base import Reward

    builtins = [name for name, _d in available() if describe(name)["origin"].startswith("rlvr.rewards.builtin")]
    assert len(builtins) >= 16
    for name in builtins:
        info = describe(name)
        assert "``" not in info["description"] and ":func:" not in info["description"], name
        for key, doc in info["params"].items():
            assert doc["help"], (name, key)
            assert doc["default"] is not ... and doc["default"] is not Ellipsis, (name, key)
        needs = {"reward_model": {"model": "org/rm"}, "grm": {"judge_model": "org/judge"},
                 "judge": {"judge_model": "org/judge"}}
        target = get_reward(name, **needs.get(name, {}))
        assert isinstance(target, Reward) and target.Params is not None, name


@pytest.mark.parametrize("params,fragment", [
    ({"max_length": "long"}, "max_length must be an integer"),
    ({"max_length": 0}, ">= 1"),
    ({"length_unit": "words"}, "use one of"),
    ({"max_lenght": 10}, "max_length"),
    ({"cache_length": float("nan")}, "integer"),
])
def test_reward_params_are_validated_by_type(params, fragment):
    with pytest.raises(ConfigError, match=fragment):
        get_reward("overlong_penalty", **params)
    with pytest.raises(ConfigError, match="finite"):
        get_reward("cosine_scaled", min_value_wrong=float("inf"))


@reward("test_reads_answer")
def reads_answer(completions, answer, bonus: float = 1.0, **kwargs):
    """Bonus when the completion contains the answer."""
    return [bonus if str(a) in c else 0.0 for c, a in zip(completions, answer)]


def test_function_reward_lists_columns_apart_from_params():
    info = describe("test_reads_answer")
    assert info["columns"] == ["answer"]  # a data column, not a parameter
    assert list(info["params"]) == ["bonus"] and info["params"]["bonus"]["default"] == 1.0
    assert get_reward("test_reads_answer", bonus=2.0)(completions=["x 4"], answer=["4"]) == [2.0]


@reward("test_seen_text")
def seen_text(completions, prompts=None, **kwargs):
    """Records what it was given."""
    seen_text.calls.append((completions, prompts, sorted(kwargs)))
    return [len(c) / 100 for c in completions]


@reward("test_seen_raw", raw_inputs=True)
def seen_raw(completions, **kwargs):
    """Records what it was given, raw."""
    seen_raw.calls.append((completions, sorted(kwargs)))
    return [0.0 for _ in completions]


seen_text.calls, seen_raw.calls = [], []


def test_function_reward_gets_the_completion_text_and_raw_inputs_on_request():
    chat = [[{"role": "assistant", "content": "x" * 50}]]
    prompts = [[{"role": "user", "content": "q"}]]
    trl_extras = {"completion_ids": [[1, 2]], "trainer_state": None, "log_extra": None, "log_metric": None}
    assert get_reward("test_seen_text")(prompts=prompts, completions=chat, answer=["4"], **trl_extras) == [0.5]
    # the text, as a class reward gets it; the prompts as given; the dataset columns but not TRL's own arguments
    assert seen_text.calls == [(["x" * 50], prompts, ["answer"])]
    get_reward("test_seen_raw")(prompts=prompts, completions=chat, answer=["4"], **trl_extras)
    assert seen_raw.calls == [(chat, ["answer", "completion_ids", "log_extra", "log_metric", "prompts",
                                      "trainer_state"])]
    f = get_reward("test_length_ratio", scale=2.0)
    assert f(completions=chat) == [1.0] and f.__name__ == "test_length_ratio"
    clone = pickle.loads(pickle.dumps(f))
    assert clone.__name__ == "test_length_ratio" and clone(completions=["y" * 10]) == [0.2]
    with pytest.raises(TypeError, match="raw_inputs applies to function rewards"):
        reward("test_raw_class", raw_inputs=True)(Flaky)
    with pytest.raises(TypeError, match=r"\['completion_ids'\] are TRL's trainer-only arguments.*raw_inputs=True"):
        reward("test_wants_ids")(lambda completions, completion_ids=None, **kw: [0.0])


@reward("test_returns_results")
def returns_results(completions, **kwargs):
    """A float, None and a RewardResult with its own reason."""
    return [1, None, RewardResult(0.25, "short", "under 10 characters")][:len(completions)]


@reward("test_returns_text")
def returns_text(completions, **kwargs):
    """Breaks the contract: text instead of numbers."""
    return ["1.0" for _ in completions]


def test_function_reward_returns_floats_none_or_results_and_a_bad_value_names_its_function():
    results = get_reward("test_returns_results").explain(completions=["a", "b", "c"])
    assert [(r.value, r.status) for r in results] == [(1.0, "ok"), (None, "no_opinion"), (0.25, "short")]
    assert results[2].reason == "under 10 characters" and type(results[0].value) is float
    from rlvr.rewards import RewardError

    with pytest.raises(RewardError, match=r"reward 'test_returns_text' returned str '1.0' for completion 0; return "
                                          r"a float, None or RewardResult per completion \(at tests/test_rewards_regi"):
        get_reward("test_returns_text").explain(completions=["a"])
    # in a RewardSet (training, score, every adapter) the same break costs that reward's values only
    rs = RewardSet.from_config([{"name": "test_returns_text"}, {"name": "test_returns_results"}])
    row = rs.explain(completions=["a"])[0]
    assert row["rewards"]["test_returns_text"].status == "error" and row["total"] == 1.0


def test_registration_is_validated():
    with pytest.raises(TypeError, match="must accept \\*\\*kwargs"):
        reward("test_no_kwargs")(lambda completions: [0.0])
    with pytest.raises(TypeError, match="positional-only"):
        def positional(completions, /, **kwargs):
            return []
        reward("test_positional")(positional)
    with pytest.raises(TypeError, match="must subclass"):
        reward("test_not_reward")(type("NotAReward", (), {}))
    with pytest.raises(ValueError, match="already registered"):
        reward("math_equivalence")(lambda completions, **kw: [0.0])


def test_lookup_errors_name_the_fix():
    with pytest.raises(ConfigError, match="Did you mean 'math_equivalence'"):
        get_reward("math_equivalance")
    with pytest.raises(ConfigError, match="no parameter\\(s\\) \\['tolerance'\\]"):
        get_reward("math_equivalence", tolerance=0.1)
    with pytest.raises(ConfigError, match="preset='strict'; use one of"):
        get_reward("math_equivalence", preset="strict")
    with pytest.raises(ConfigError, match="cache_length"):
        get_reward("overlong_penalty", max_length=10, cache_length=10)
    with pytest.raises(ConfigError, match="no parameter"):
        get_reward("test_length_ratio", bogus=1)


def test_builtin_instances_pickle_with_stable_names():
    for name in ("format_strict", "math_equivalence", "numeric_tolerance", "overlong_penalty", "language_consistency"):
        f = get_reward(name)
        clone = pickle.loads(pickle.dumps(f))
        assert clone.__name__ == name
        assert type(clone) is type(f)
        assert clone.params() == f.params()
    rs = RewardSet.from_config([{"name": "numeric_tolerance", "alias": "check_numbers", "params": {"preset": "check_numbers"}},
                                {"name": "math_equivalence", "gate": "check_numbers"}])
    names = [pickle.loads(pickle.dumps(f)).__name__ for f in rs.funcs]
    assert names == ["check_numbers", "math_equivalence"]  # the names TRL logs, after crossing a process boundary


def test_failure_policy(caplog):
    f = get_reward("test_flaky")
    with caplog.at_level(logging.WARNING):
        assert f(completions=["a", "b"]) == [None, None]
    # one line naming the reward and the line of the user's code that raised, no traceback
    where = f"tests/test_rewards_registry.py:{Flaky.score.__code__.co_firstlineno + 2} in Flaky.score"
    assert caplog.messages == [f"reward 'test_flaky' raised RuntimeError: boom (at {where}) on a batch of 2; "
                               "scoring that batch None (no opinion) — 3 failed batches in a row stop the run"]
    assert f(completions=["a"]) == [None]
    with pytest.raises(RewardFailure, match="3 consecutive batches") as info:
        f(completions=["a"])
    assert isinstance(info.value.__cause__, RuntimeError) and isinstance(info.value, RlvrError)
    assert info.value.reward == "test_flaky" and info.value.where == where
    assert f.stats["error"] == 4


def test_failure_counter_resets_on_success():
    f = get_reward("test_flaky")
    f(completions=["a"])
    f(completions=["a"])
    f.fail = False
    assert f(completions=["a"]) == [1.0]
    f.fail = True
    assert f(completions=["a"]) == [None]  # counting starts again


def test_missing_gold_column_is_a_config_error_not_a_none():
    f = get_reward("math_equivalence")
    with pytest.raises(ConfigError, match="column 'answer' is missing; columns present: \\['solution'\\]"):
        f(completions=["\\boxed{1}"], solution=["1"])


def test_gold_column_dotted_path():
    f = get_reward("math_equivalence", gold_column="reward_model.ground_truth")
    assert f(completions=["Answer: 34", "Answer: 35"],
             reward_model=[{"ground_truth": "34", "style": "rule"}] * 2) == [1.0, 0.0]


def test_rewardset_from_yaml_toml_dict(tmp_path):
    yaml_path = tmp_path / "r.yaml"
    yaml_path.write_text(textwrap.dedent("""
        gold_column: solution
        rewards:
          - name: format_strict
            weight: 0.5
            params: {preset: r1}
          - name: math_equivalence
            weight: 1.0
            gate: format_strict
          - {name: overlong_penalty, weight: 0, params: {max_length: 100, cache_length: 10}}
    """))
    toml_path = tmp_path / "r.toml"
    toml_path.write_text(textwrap.dedent("""
        gold_column = "solution"
        [[rewards]]
        name = "format_strict"
        weight = 0.5
        params = {preset = "r1"}
        [[rewards]]
        name = "math_equivalence"
        gate = "format_strict"
        [[rewards]]
        name = "overlong_penalty"
        weight = 0
        params = {max_length = 100, cache_length = 10}
    """))
    for source in (yaml_path, toml_path, str(yaml_path)):
        rs = RewardSet.from_config(source)
        assert rs.names == ["format_strict", "math_equivalence", "overlong_penalty"]
        assert rs.weights == [0.5, 1.0, 0.0]
        good = "<think>r</think><answer>\\boxed{2}</answer>"
        values = [f(completions=[good, "\\boxed{2}"], solution=["2", "2"]) for f in rs.funcs]
        assert values == [[1.0, 0.0], [1.0, 0.0], [0.0, 0.0]]  # the second fails the format gate
        assert rs(completions=[good, "\\boxed{2}"], solution=["2", "2"]) == [1.5, 0.0]
    again = RewardSet.from_config(rs.to_config())
    assert again.config_hash() == rs.config_hash()
    assert RewardSet.from_config(json.dumps(rs.to_config())).names == rs.names


def test_rewardset_explains_and_counts_statuses():
    rs = RewardSet.from_config([{"name": "math_equivalence"}, {"name": "boxed_answer", "weight": 0}])
    # ("none" alone is an answer, the empty set; "no idea" states none)
    rows = rs.explain(completions=["\\boxed{1}", "no idea", "\\boxed{2}"], answer=["1", "1", "\\frac{1}{}"])
    assert [r["rewards"]["math_equivalence"].status for r in rows] == ["correct", "no_answer", "unparseable_gold"]
    # like TRL (nansum of weighted rewards): None only when every reward abstains
    assert [r["total"] for r in rows] == [1.0, 0.0, 0.0]
    alone = RewardSet.from_config([{"name": "math_equivalence"}])
    assert alone(completions=["\\boxed{2}"], answer=["\\frac{1}{}"]) == [None]
    assert rs.stats()["math_equivalence"] == {"correct": 1, "no_answer": 1, "unparseable_gold": 1}
    rs.funcs[0](completions=["\\boxed{1}", "I give up", "\\boxed{2}"], answer=["1", "1", "\\frac{1}{}"])
    # every door scores through one core: explain() and TRL's call both count
    assert rs.stats()["math_equivalence"] == {"correct": 2, "no_answer": 2, "unparseable_gold": 2}


@pytest.mark.parametrize(
    "config,match",
    [
        ({"rewards": [{"name": "math_equivalence"}, {"name": "math_equivalence"}]}, "appear twice"),
        ({"rewards": [{"name": "math_equivalence", "wieght": 1}]}, "unknown key\\(s\\) \\['wieght'\\]"),
        ({"rewards": [{"name": "math_equivalence", "gate": "format_strict"}]}, "gate 'format_strict' is not in"),
        ({"rewards": [{"name": "math_equivalence", "weight": "heavy"}]}, "weight must be a finite number"),
        ({"rewards": []}, "at least one reward"),
        ({"reward": []}, "no 'rewards' list"),
        ({"rewards": [{"weight": 1}]}, "needs at least a name"),
    ],
)
def test_rewardset_config_errors(config, match):
    with pytest.raises(ConfigError, match=match):
        RewardSet.from_config(config)


def test_alias_allows_two_copies():
    rs = RewardSet.from_config([{"name": "math_equivalence"},
                                {"name": "math_equivalence", "alias": "acc_dapo", "params": {"preset": "dapo"}}])
    assert [f.__name__ for f in rs.funcs] == ["math_equivalence", "acc_dapo"]
    assert [f(completions=["\\boxed{3}"], answer=["4"]) for f in rs.funcs] == [[0.0], [-1.0]]


def test_entry_point_plugin(tmp_path):
    pkg = tmp_path / "acme_rewards"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent("""
        from rlvr.rewards import reward

        @reward("acme_always_one")
        def always_one(completions, **kwargs):
            '''Always 1.0.'''
            return [1.0] * len(completions)

        def acme_half(completions, **kwargs):
            '''Always 0.5.'''
            return [0.5] * len(completions)
    """))
    dist = tmp_path / "acme_rewards-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-rewards\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[rlvr.rewards]\nacme = acme_rewards\nacme_half = acme_rewards:acme_half\nbroken = acme_rewards:missing\n")
    code = ("from rlvr.rewards import get_reward, available;"
            "print(get_reward('acme_always_one')(completions=['a','b']), get_reward('acme_half')(completions=['a']),"
            "'acme_half' in dict(available()))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env={**__import__("os").environ, "PYTHONPATH": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[1.0, 1.0] [0.5] True"
    assert "broken" in r.stderr and "failed to load" in r.stderr  # reported by name, others unaffected


def test_cli_rewards_list_and_score(tmp_path):
    run = lambda *a: subprocess.run([sys.executable, "-m", "rlvr", *a], capture_output=True, text=True)
    r = run("rewards", "list")
    assert r.returncode == 0 and "math_equivalence" in r.stdout and "numeric_tolerance" in r.stdout
    rows = tmp_path / "rows.jsonl"
    rows.write_text("\n".join(json.dumps(x) for x in [
        {"prompt": "q", "completion": "<think>a</think><answer>\\boxed{2}</answer>", "answer": "2"},
        {"prompt": "q", "completion": "\\boxed{3}", "answer": "2"}]) + "\n")
    cfg = tmp_path / "r.yaml"
    cfg.write_text("rewards:\n  - {name: format_strict, weight: 0.5}\n  - {name: math_equivalence}\n")
    out = tmp_path / "out.jsonl"
    r = run("score", "--rewards", str(cfg), str(rows), "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "math_equivalence: correct=1, incorrect=1" in r.stdout
    scored = [json.loads(line) for line in out.read_text().splitlines()]
    assert [s["total"] for s in scored] == [1.5, 0.0]
    assert scored[1]["rewards"]["math_equivalence"]["reason"]
    cfg.write_text("rewards:\n  - {name: math_equivalance}\n")
    r = run("score", "--rewards", str(cfg), str(rows))
    assert r.returncode == 2 and "Did you mean 'math_equivalence'" in r.stderr and "Traceback" not in r.stderr


def test_a_gate_is_scored_once_per_batch():
    from rlvr.rewards import RewardSet, reward

    calls = []

    @reward("counted_gate_for_tests")
    def counted_gate(completions, **kwargs):
        calls.append(len(completions))
        return [1.0 if "<answer>" in c else 0.0 for c in completions]

    rs = RewardSet.from_config({"rewards": [
        {"name": "math_equivalence", "gate": "counted_gate_for_tests"},  # the gated reward comes first
        {"name": "counted_gate_for_tests", "weight": 0.5}]})
    prompts, completions, answers = ["p", "p"], ["<answer>\\boxed{2}</answer>", "\\boxed{2}"], ["2", "2"]
    for f in rs.funcs:  # TRL's way: each reward called with the same batch objects
        f(prompts=prompts, completions=completions, answer=answers)
    assert calls == [2]
    assert rs(prompts=["p", "p"], completions=completions, answer=answers) == [1.5, 0.0]
    assert calls == [2, 2]  # a new call of the whole set on the same objects reuses nothing stale: same values


def test_to_config_round_trips_exactly_and_the_hash_sees_every_field():
    config = {"gold_column": "solution", "rewards": [
        {"name": "format_strict", "weight": 0.5, "params": {"preset": "working_out", "mode": "seed"}},
        {"name": "math_equivalence", "weight": 1.0, "params": {"preset": "dapo"}, "gate": "format_strict",
         "max_consecutive_failures": 7},
        {"name": "numeric_tolerance", "alias": "check_numbers", "weight": 0.0, "params": {"preset": "check_numbers"}}]}
    rs = RewardSet.from_config(config)
    again = RewardSet.from_config(rs.to_config())
    assert again.to_config() == rs.to_config() and again.config_hash() == rs.config_hash()
    assert [f.max_consecutive_failures for f in again.funcs] == [3, 7, 3]
    changed = dict(config, rewards=[*config["rewards"][:1], dict(config["rewards"][1], max_consecutive_failures=3),
                                    config["rewards"][2]])
    assert RewardSet.from_config(changed).config_hash() != rs.config_hash()
    # each reward's own params() are its Params: exact, no Ellipsis, no derived tables
    params = rs.funcs[2].params()
    assert params["preset"] == "check_numbers" and params["stripped"] == "preset" and Ellipsis not in params.values()


def test_columns_named_like_the_scorers_arguments_are_a_config_error(tmp_path):
    from rlvr.rewards.scoring import batch_from_rows, score_rows

    rs = RewardSet.from_config([{"name": "math_equivalence"}])
    rows = [{"id": 1, "completion": "\\boxed{2}", "gold": "2", "completions": "x", "self": 1}]
    with pytest.raises(ConfigError, match=r"column\(s\) \['completions', 'self'\] collide"):
        score_rows(rs, *batch_from_rows(rows))
    # without them the same rows score, 'gold' serving as the answer column
    assert [r.total for r in score_rows(rs, *batch_from_rows([{"completion": "\\boxed{2}", "gold": "2"}]))] == [1.0]
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps(rows[0]) + "\n")
    r = subprocess.run([sys.executable, "-m", "rlvr", "score", "--rewards", '[{"name": "math_equivalence"}]', str(path)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "collide with the scorer's own arguments" in r.stderr and "internal" not in r.stderr

"""Every scan over model text is linear, and every regex call has a timeout.

The readers run in the sandbox workers under each row's CPU budget, but a budget only bounds a
row; linear reading is what lets an honest long completion be read inside it. Each case builds a
text of ``n`` units that stresses one reader (openers that never close, labels that repeat on one
line, nested boxes, thousands of distinct boxes on a line, …) and times extraction at ``n`` and
``10 n`` in CPU time (a busy machine does not change it): a linear reader grows about 10×, a
quadratic one 100×. The static test reads the verifier's source and fails on any ``regex`` call
over text without a ``timeout=`` (the sympy side, which runs only in a worker, is exempt).
"""

from __future__ import annotations

import ast
import time
from pathlib import Path

import pytest

from rlvr.verifiers import VerifierConfig, clear_cache, extract_answer, verify

UNITS = {
    "nested boxes": lambda n: "\\boxed{" * n + "7" + "}" * n,
    "unclosed boxes": lambda n: "\\boxed{" * n,
    "braces": lambda n: "{" * n + "}" * n,
    "inline math openers": lambda n: "\\(" * n,
    "display math openers": lambda n: "\\[" * n,
    "dollars": lambda n: "$$ " * n,
    "single dollars": lambda n: "$a " * n,
    "math environments": lambda n: "\\begin{align} " * n,
    "answer labels on one line": lambda n: "Answer: " * n,
    "answer labels on lines": lambda n: "Answer:\n" * n,
    "phrases": lambda n: "the answer is " * n,
    "bold markers": lambda n: "**" * n,
    "strike markers": lambda n: "~~" * n,
    "backticks": lambda n: "`" * n,
    "html tags": lambda n: "<details>" * n,
    "html comments": lambda n: "<!-- " * n,
    "table rows": lambda n: "| Answer | 7 |\n" * n,
    "headings": lambda n: "#### 7\n" * n,
    "colour switches": lambda n: "{\\color{white} " * n,
    "colour macros": lambda n: "\\textcolor{red}{" * n,
    "boxes after a set sign": lambda n: "x \\in \\boxed{1} " * n,
    "phantoms": lambda n: "\\phantom{" * n,
    "percent in math": lambda n: "$$" + "% x\n" * n + "$$",
    "retractions after a box": lambda n: "\\boxed{7} " + "wait, actually " * n,
    "alternatives after a box": lambda n: "\\boxed{7} " + "or 8 " * n,
    "values after a box": lambda n: "\\boxed{7}. " + "8. " * n,
    "prose numbers": lambda n: "So " + "1 and " * n + "2.",
    "underscores": lambda n: "x_1 " * n,
    "json keys": lambda n: '"answer": 7, ' * n,
    "links": lambda n: "[a](" * n,
    "sentences with boxes": lambda n: "So \\boxed{7}. " * n,
    "nested TeX conditionals": lambda n: "\\iftrue " * n + "\\boxed{7}" + " \\fi" * n,
    "unclosed TeX conditionals after a box": lambda n: "\\boxed{7} " + "\\iftrue " * n,
    "nested html spans": lambda n: "<span style=\"color:#333\">" * n + "\\boxed{7}" + "</span>" * n,
    "distinct boxes on one line": lambda n: "The answer is " + " ".join(f"\\boxed{{{i}}}" for i in range(n)),
    "distinct boxes in sentences": lambda n: " ".join(f"So \\boxed{{{i}}}." for i in range(n)),
    "distinct answer lines": lambda n: "".join(f"Answer: {i}\n" for i in range(n)),
    "code spans": lambda n: "`a` " * n + "\\boxed{7}",
    "unmatched code spans": lambda n: "` `` " * n + "\\boxed{7}",
    "stray closing tags": lambda n: "<b>" * n + "</i>" * n + "\\boxed{7}",
    "values of one sentence after a box": lambda n: "\\boxed{7}. " + "XL " * n,
    "suppositions and clauses": lambda n: "\\boxed{7}. If " + "8 and " * n + "9.",
    "styled elements": lambda n: '<span style="color:#333;font-weight:bold">' * n + "\\boxed{7}",
    "sympy calls": lambda n: "\\boxed{" + "sqrt(" * n + "2" + ")" * n + "}",
}
SMALL = 2_000
CONFIG = VerifierConfig(max_completion_chars=10_000_000)


def _cpu(text: str) -> float:
    clear_cache()
    start = time.process_time()
    extract_answer(text, CONFIG)
    return time.process_time() - start


@pytest.mark.parametrize("name", sorted(UNITS))
def test_extraction_grows_linearly(name):
    build = UNITS[name]
    small, large = build(SMALL), build(10 * SMALL)
    _cpu(small)  # warm caches of compiled patterns
    t_small = min(_cpu(small) for _ in range(3))
    t_large = min(_cpu(large) for _ in range(3))  # the least of three: a moment of load on a shared machine is no growth
    # 10x the input: linear work grows about 10x; allow noise, never the 100x of a quadratic scan
    assert t_large < max(30 * t_small, 0.05), f"{name}: {t_small:.4f}s -> {t_large:.4f}s for 10x the input"


def test_fifty_thousand_nested_boxes_and_five_megabytes_of_braces_stay_linear():
    """At the sizes a hostile client sends: 10× the structure costs about 10× (a quadratic scan of 5 MB
    would take hours), and the verdict comes back with its reason."""
    for build, n in ((lambda k: "\\boxed{" * k + "7" + "}" * k, 50_000), (lambda k: "{" * k + "}" * k, 2_500_000)):
        small, large = build(n // 10), build(n)
        _cpu(small)
        t_small = min(_cpu(small) for _ in range(2))
        t_large = min(_cpu(large) for _ in range(2))
        assert t_large < max(30 * t_small, 0.05), f"{t_small:.3f}s -> {t_large:.3f}s for 10x the input"
        verdict = verify(large, "7", VerifierConfig(max_completion_chars=10_000_000))
        assert verdict.reason and verdict.status != "error", verdict


_REGEX_METHODS = {"search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split"}
_EXEMPT = {"_worker.py", "symbolic.py"}  # run only in the sandbox, under its CPU budget


def test_every_regex_call_over_text_has_a_timeout():
    root = Path(__file__).resolve().parents[1] / "src" / "rlvr" / "verifiers"
    missing = []
    for path in sorted(root.glob("*.py")):
        if path.name in _EXEMPT:
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in _REGEX_METHODS:
                continue
            target = node.func.value
            name = target.id if isinstance(target, ast.Name) else getattr(target, "attr", "")
            # compiled patterns are named *_RE; module-level regex.* calls compile on the fly
            if not (name.endswith("_RE") or name == "regex"):
                continue
            if not any(k.arg == "timeout" for k in node.keywords):
                missing.append(f"{path.name}:{node.lineno} {name}.{node.func.attr}(...)")
    assert missing == [], "regex calls over text without timeout=:\n" + "\n".join(missing)


@pytest.mark.parametrize("blanks", [" " * 50, "\t" * 300, " " * 7_000, "\n" * 7_000])
def test_blanks_between_a_box_and_a_hedge_neither_stall_nor_hide_it(blanks):
    """A run of blanks after the box was split every way by a nested repetition (60 spaces ran out the
    regex budget, so the row was a ``timeout``), and 6,000 of them pushed a hedge past the read tail."""
    extraction = extract_answer("\\boxed{42}" + blanks + "or 41", VerifierConfig())
    assert extraction.status == "multiple", extraction
    if "\n" not in blanks:  # on the box's line ("%" opening a line is a TeX comment)
        assert extract_answer("\\boxed{42}" + blanks[:5] + "%", VerifierConfig()).answer in ("42%", "42\\%")

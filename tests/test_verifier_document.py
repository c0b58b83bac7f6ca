"""The document reader against markdown-it-py: what a reader of the rendered page sees.

The verifier reads markdown with its own linear passes (``rlvr.verifiers.document``; markdown-it-py is
10× too slow for the hot path). Here markdown-it-py, CommonMark with tables and strike-through, is
the oracle: on generated documents of headings, emphasis, strike-through, code spans and fences,
lists, quotes, tables, links, images and HTML comments, the words our view keeps must be exactly
the words markdown-it renders as text (struck text, code blocks, images and comments dropped on
both sides, as the verifier drops them). LaTeX is outside markdown and is checked by the
verifier's own table.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlvr.verifiers.document import read_document

markdown_it = pytest.importorskip("markdown_it")
_MD = markdown_it.MarkdownIt("commonmark").enable("table").enable("strikethrough")
_WORDS = re.compile(r"[A-Za-z0-9]+")


def rendered_words(text: str) -> list[str]:
    """The words markdown-it renders as text (struck-through, code blocks, images, HTML dropped)."""
    out: list[str] = []
    for token in _MD.parse(text):
        if token.type != "inline":
            continue
        struck = 0
        for child in token.children or []:
            if child.type == "s_open":
                struck += 1
            elif child.type == "s_close":
                struck -= 1
            elif child.type in ("text", "code_inline") and not struck:
                out.extend(_WORDS.findall(child.content))
            elif child.type == "softbreak" and not struck:
                out.append("")
    return [w for w in out if w]


def our_words(text: str) -> list[str]:
    return _WORDS.findall(read_document(text, 1.0).view)


WORD = st.sampled_from(["alpha", "beta", "gamma", "delta", "answer", "value", "seven", "k9", "x2"])
PHRASE = st.lists(WORD, min_size=1, max_size=4).map(" ".join)
INLINE = st.one_of(
    PHRASE,
    PHRASE.map(lambda p: f"**{p}**"),
    PHRASE.map(lambda p: f"*{p}*"),
    PHRASE.map(lambda p: f"~~{p}~~"),
    PHRASE.map(lambda p: f"_{p}_"),
    PHRASE.map(lambda p: f"***{p}***"),
    PHRASE.map(lambda p: f"__{p}__"),
    st.just("snake_case_word"),
    st.just("a * b"),
    st.just("#hashtag"),
    WORD.map(lambda w: f"`{w}`"),
    st.tuples(PHRASE, WORD).map(lambda t: f"[{t[0]}](http://x.org/{t[1]})"),
    st.tuples(PHRASE, WORD).map(lambda t: f"![{t[0]}](img/{t[1]}.png)"),
)
LINE = st.lists(INLINE, min_size=1, max_size=4).map(" ".join)
BLOCK = st.one_of(
    LINE,
    st.tuples(st.integers(1, 6), LINE).map(lambda t: "#" * t[0] + " " + t[1]),
    LINE.map(lambda line: f"- {line}"),
    LINE.map(lambda line: f"1. {line}"),
    LINE.map(lambda line: f"2) {line}"),
    LINE.map(lambda line: f"* {line}"),
    LINE.map(lambda line: f"> {line}"),
    st.tuples(PHRASE, PHRASE).map(lambda t: f"| {t[0]} | {t[1]} |\n|---|---|\n| {t[1]} | {t[0]} |"),
    st.tuples(WORD, PHRASE).map(lambda t: f"```{t[0]}\n{t[1]}\n```"),
    PHRASE.map(lambda p: f"<!-- {p} -->"),
    st.just("---"),
)
DOCUMENT = st.lists(BLOCK, min_size=1, max_size=6).map("\n\n".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DOCUMENT)
def test_the_view_keeps_what_markdown_renders(text):
    assert our_words(text) == rendered_words(text), text


@pytest.mark.parametrize("text", [
    "### ✅ Final Answer\n\n**42**",
    "**Final Answer:** the value is 42",
    "- item one\n- item **two**\n\n> quoted `code` text",
    "| Answer | 42 |\n|---|---|\n| more | rows |",
    "The answer is ~~41~~ 42",
    "![a box](x.png) [a link](y.html)",
    "```\nprint(41)\n```\n\nSo 42",
    "Setext heading\n---\n\nbody 42",
])
def test_model_style_markdown(text):
    assert our_words(text) == rendered_words(text)

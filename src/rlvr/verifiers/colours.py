"""Can a reader see text in this colour or style? CSS and LaTeX (xcolor) colours, and inline CSS.

A completion can hide a second answer in text nobody sees: white or transparent ink, a zero font
size, an element pushed off the page. Listing the ways to hide loses to the next way, so this module
decides the other way round: a colour is visible only when it parses and is dark enough and opaque
enough on a white page, and a style is harmless only when every property in it is one that merely
formats (weight, slant, alignment, spacing, a visible colour). Anything else hides what it styles.
"""

from __future__ import annotations

import regex

from rlvr.verifiers.limits import REGEX_TIMEOUT_S

__all__ = ["css_colour_visible", "tex_colour_visible", "style_hides", "element_hides", "HTML_ELEMENTS", "SHOWN_ELEMENTS"]

# the colours in which a reader sees text on a white page (CSS and xcolor/dvips names), as RGB in 0..1
_NAMED: dict[str, tuple[float, float, float]] = {
    "black": (0, 0, 0), "red": (1, 0, 0), "green": (0, 0.5, 0), "blue": (0, 0, 1), "navy": (0, 0, 0.5),
    "maroon": (0.5, 0, 0), "purple": (0.5, 0, 0.5), "teal": (0, 0.5, 0.5), "olive": (0.5, 0.5, 0),
    "gray": (0.5, 0.5, 0.5), "grey": (0.5, 0.5, 0.5), "darkgray": (0.25, 0.25, 0.25), "darkgrey": (0.25, 0.25, 0.25),
    "brown": (0.75, 0.5, 0.25), "orange": (1, 0.5, 0), "magenta": (1, 0, 1), "violet": (0.5, 0, 0.5),
    "darkred": (0.55, 0, 0), "darkblue": (0, 0, 0.55), "darkgreen": (0, 0.39, 0), "crimson": (0.86, 0.08, 0.24),
    "indigo": (0.29, 0, 0.51), "cyan": (0, 1, 1), "lime": (0, 1, 0), "fuchsia": (1, 0, 1), "pink": (1, 0.75, 0.8),
    "gold": (1, 0.84, 0), "yellow": (1, 1, 0), "white": (1, 1, 1), "currentcolor": (0, 0, 0),
    "orangered": (1, 0.27, 0), "forestgreen": (0.13, 0.55, 0.13), "royalblue": (0.25, 0.41, 0.88),
    "firebrick": (0.7, 0.13, 0.13), "seagreen": (0.18, 0.55, 0.34), "steelblue": (0.27, 0.51, 0.71),
    "midnightblue": (0.1, 0.1, 0.44), "darkorange": (1, 0.55, 0), "lightgray": (0.75, 0.75, 0.75),
    "lightgrey": (0.75, 0.75, 0.75), "silver": (0.75, 0.75, 0.75),
}
# xcolor's dvipsnames (NavyBlue, OliveGreen, BrickRed …) from their CMYK definitions, lower-cased;
# a CSS name of the same spelling keeps its CSS value
_DVIPS_CMYK = {
    "apricot": (0, .32, .52, 0), "aquamarine": (.82, 0, .3, 0), "bittersweet": (0, .75, 1, .24),
    "bluegreen": (.85, 0, .33, 0), "blueviolet": (.86, .91, 0, .04), "brickred": (0, .89, .94, .28),
    "brown": (0, .81, 1, .6), "burntorange": (0, .51, 1, 0), "cadetblue": (.62, .57, .23, 0),
    "carnationpink": (0, .63, 0, 0), "cerulean": (.94, .11, 0, 0), "cornflowerblue": (.65, .13, 0, 0),
    "dandelion": (0, .29, .84, 0), "darkorchid": (.4, .8, .2, 0), "emerald": (1, 0, .5, 0),
    "forestgreen": (.91, 0, .88, .12), "fuchsia": (.47, .91, 0, .08), "goldenrod": (0, .1, .84, 0),
    "greenyellow": (.15, 0, .69, 0), "junglegreen": (.99, 0, .52, 0), "lavender": (0, .48, 0, 0),
    "limegreen": (.5, 0, 1, 0), "mahogany": (0, .85, .87, .35), "melon": (0, .46, .5, 0),
    "midnightblue": (.98, .13, 0, .43), "mulberry": (.34, .9, 0, .02), "navyblue": (.94, .54, 0, 0),
    "olivegreen": (.64, 0, .95, .4), "orangered": (0, 1, .5, 0), "orchid": (.32, .64, 0, 0),
    "peach": (0, .5, .7, 0), "periwinkle": (.57, .55, 0, 0), "pinegreen": (.92, 0, .59, .25),
    "plum": (.5, 1, 0, 0), "processblue": (.96, 0, 0, 0), "rawsienna": (0, .72, 1, .45),
    "redorange": (0, .77, .87, 0), "redviolet": (.07, .9, 0, .34), "rhodamine": (0, .82, 0, 0),
    "royalblue": (1, .5, 0, 0), "royalpurple": (.75, .9, 0, 0), "rubinered": (0, 1, .13, 0),
    "salmon": (0, .53, .38, 0), "seagreen": (.69, 0, .5, 0), "sepia": (0, .83, 1, .7), "skyblue": (.62, 0, .12, 0),
    "springgreen": (.26, 0, .76, 0), "tan": (.14, .42, .56, 0), "tealblue": (.86, 0, .34, .02),
    "thistle": (.12, .59, 0, 0), "turquoise": (.85, 0, .2, 0), "violet": (.79, .88, 0, 0),
    "violetred": (0, .81, 0, 0), "wildstrawberry": (0, .96, .39, 0), "yelloworange": (0, .42, 1, 0),
    "yellowgreen": (.44, 0, .74, 0),
}
for _name, (_c, _m, _y, _k) in _DVIPS_CMYK.items():
    _NAMED.setdefault(_name, ((1 - _c) * (1 - _k), (1 - _m) * (1 - _k), (1 - _y) * (1 - _k)))

# how light a colour may be and still be read on white (relative luminance), and how transparent
_MAX_LUMINANCE = 0.7
_MIN_ALPHA = 0.5

_HEX_RE = regex.compile(r"#?([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})")
_FUNCTION_RE = regex.compile(r"(rgba?|hsla?)\(([^()]{1,80})\)")
_NUMBER_RE = regex.compile(r"[-+]?(?:[0-9]*\.[0-9]+|[0-9]+)(?:e[-+]?[0-9]+)?%?")
_MIX_RE = regex.compile(r"([a-z]+)((?:![0-9.]{1,6}(?:![a-z]+)?)*)")


def _luminance(rgb: tuple[float, float, float]) -> float:
    r, g, b = (min(1.0, max(0.0, c)) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _visible(rgb: tuple[float, float, float] | None, alpha: float = 1.0) -> bool:
    return rgb is not None and alpha >= _MIN_ALPHA and _luminance(rgb) <= _MAX_LUMINANCE


def _channel(token: str, scale: float) -> float:
    return float(token[:-1]) / 100 if token.endswith("%") else float(token) / scale


def _hsl(h: float, s: float, light: float) -> tuple[float, float, float]:
    def f(n: float) -> float:
        k = (n + h / 30) % 12
        return light - s * min(light, 1 - light) * max(-1, min(k - 3, 9 - k, 1))
    return f(0), f(8), f(4)


def _css_rgba(value: str) -> tuple[tuple[float, float, float], float] | None:
    """A CSS colour (name, ``#rgb[a]``, ``#rrggbb[aa]``, ``rgb()/rgba()``, ``hsl()/hsla()``) as (rgb, alpha)."""
    v = value.strip().lower().replace("!important", "").strip()
    if v in _NAMED:
        return _NAMED[v], 1.0
    if m := _HEX_RE.fullmatch(v, timeout=REGEX_TIMEOUT_S):
        digits = m[1] if len(m[1]) > 4 else "".join(c * 2 for c in m[1])
        channels = [int(digits[i:i + 2], 16) / 255 for i in range(0, len(digits), 2)]
        return (channels[0], channels[1], channels[2]), (channels[3] if len(channels) == 4 else 1.0)
    if m := _FUNCTION_RE.fullmatch(v, timeout=REGEX_TIMEOUT_S):
        tokens = _NUMBER_RE.findall(m[2], timeout=REGEX_TIMEOUT_S)
        if len(tokens) not in (3, 4):
            return None
        try:
            alpha = _channel(tokens[3], 1) if len(tokens) == 4 else 1.0
            if m[1].startswith("rgb"):
                return (_channel(tokens[0], 255), _channel(tokens[1], 255), _channel(tokens[2], 255)), alpha
            return _hsl(float(tokens[0].rstrip("%")), _channel(tokens[1], 100), _channel(tokens[2], 100)), alpha
        except ValueError:
            return None
    return None


def css_colour_visible(value: str) -> bool:
    """A CSS colour that reads on white; one we cannot read may be one nobody can see."""
    rgba = _css_rgba(value)
    return rgba is not None and _visible(rgba[0], rgba[1])


_WHITE = (1.0, 1.0, 1.0)
_BLACK = (0.0, 0.0, 0.0)
_MIN_CONTRAST = 1.0 - _MAX_LUMINANCE  # the luminance gap a visible colour keeps from white


def _background(value: str) -> tuple[float, float, float] | None:
    """The colour a ``background`` shorthand paints (white for none/transparent), ``None`` if unreadable."""
    v = value.strip().lower().replace("!important", "").strip()
    if v in ("none", "transparent", "initial", "inherit", "unset", ""):
        return _WHITE
    for token in regex.split(r"\s+(?![^()]*\))", v, timeout=REGEX_TIMEOUT_S):  # "black url(x) no-repeat"
        if (rgba := _css_rgba(token)) is not None:
            rgb, alpha = rgba
            return tuple(alpha * c + (1 - alpha) for c in rgb)  # type: ignore[return-value]  # over white
    return None


def _tex_rgb(model: str, spec: str) -> tuple[float, float, float] | None:
    parts = [p.strip() for p in spec.split(",")]
    try:
        if model == "rgb" and len(parts) == 3:
            return float(parts[0]), float(parts[1]), float(parts[2])
        if model == "RGB" and len(parts) == 3:
            return float(parts[0]) / 255, float(parts[1]) / 255, float(parts[2]) / 255
        if model == "HTML" and _HEX_RE.fullmatch(spec.strip().lower(), timeout=REGEX_TIMEOUT_S) and len(spec.strip()) == 6:
            h = spec.strip()
            return int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255
        if model == "gray" and len(parts) == 1:
            return (float(parts[0]),) * 3  # type: ignore[return-value]
        if model == "cmyk" and len(parts) == 4:
            c, m, y, k = (float(p) for p in parts)
            return (1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)
        if model == "cmy" and len(parts) == 3:
            return 1 - float(parts[0]), 1 - float(parts[1]), 1 - float(parts[2])
    except ValueError:
        return None
    return None


def _tex_colour_rgb(spec: str, model: str | None = None) -> tuple[float, float, float] | None:
    """An xcolor colour (``red``, ``red!50``, ``blue!30!black``, ``[rgb]{0,0,1}``, ``[HTML]{1F77B4}``) as rgb.
    A mix ``a!p!b`` is p% of a and the rest b (white when b is left out)."""
    s = spec.strip()
    if model is not None:
        return _tex_rgb(model.strip(), s)
    m = _MIX_RE.fullmatch(s.lower().replace(" ", ""), timeout=REGEX_TIMEOUT_S)
    if not m or m[1] not in _NAMED:
        return None
    rgb = _NAMED[m[1]]
    for step in regex.findall(r"!([0-9.]{1,6})(?:!([a-z]+))?", m[2], timeout=REGEX_TIMEOUT_S):
        try:
            share = min(100.0, max(0.0, float(step[0]))) / 100
        except ValueError:
            return None
        other = _NAMED.get(step[1] or "white")
        if other is None:
            return None
        rgb = tuple(share * a + (1 - share) * b for a, b in zip(rgb, other))  # type: ignore[assignment]
    return rgb


def tex_colour_visible(spec: str, model: str | None = None) -> bool:
    """An xcolor colour that reads on white; one we cannot read may be one nobody can see."""
    return _visible(_tex_colour_rgb(spec, model))


def tex_background_hides(background: str, text_colour: str | None = None, model: str | None = None) -> bool:
    """``\\colorbox{black}{42}``: does text in ``text_colour`` (black when ``None``) vanish on this
    background? A background we cannot read may hide it."""
    bg = _tex_colour_rgb(background, model)
    if bg is None and model is None and (css := _css_rgba(background)) is not None:
        bg = css[0]  # MathJax's \\bbox takes CSS colours too
    fg = _BLACK if text_colour is None else _tex_colour_rgb(text_colour)
    return bg is None or fg is None or abs(_luminance(fg) - _luminance(bg)) < _MIN_CONTRAST


# properties that only format text a reader still sees; any other property may hide it
_FORMATTING = frozenset("""
font-weight font-style font-family font-variant text-align vertical-align line-height letter-spacing
word-spacing white-space margin margin-left margin-right margin-top margin-bottom padding padding-left
padding-right padding-top padding-bottom border border-left border-right border-top border-bottom
border-radius border-color border-width border-style text-transform direction unicode-bidi
display float clear list-style list-style-type
""".split())
_SAFE_DISPLAY = frozenset({"inline", "block", "inline-block", "flex", "inline-flex", "grid", "list-item",
                           "table", "table-cell", "table-row"})
_SAFE_DECORATION = frozenset({"none", "underline", "overline"})


_LENGTH_RE = regex.compile(r"([0-9]*\.?[0-9]+)\s*(px|pt|em|rem|ex|ch|vh|vw|vmin|vmax|%|cm|mm|in|pc)?")
# how far a formatting length may reach before it moves text out of a reader's sight
_MAX_LENGTH = {"px": 200, "pt": 150, "em": 12, "rem": 12, "ex": 24, "ch": 24, "vh": 30, "vw": 30, "vmin": 30,
               "vmax": 30, "%": 300, "cm": 5, "mm": 50, "in": 2, "pc": 12, None: 200}


def _far(value: str) -> bool:
    """A margin, padding, spacing or offset of a page's height or more ("padding-top: 99999px")."""
    return any(float(m[1]) > _MAX_LENGTH[m[2]] for m in _LENGTH_RE.finditer(value, timeout=REGEX_TIMEOUT_S))


def style_hides(style: str) -> str | None:
    """Why an inline CSS ``style`` may keep its text from a reader (``None`` when it only formats).

    Text colour and background must differ in luminance by as much as a visible colour does from white
    (white on black reads, black on black or white on white does not); ``font-size`` at least 8px (or 0.5em); ``text-decoration`` no
    strike-through; ``display`` a showing value; any property outside the formatting ones (position,
    opacity, transform, clip, overflow, height, text-indent, filter …) hides.
    """
    colour, background = _BLACK, _WHITE
    for declaration in style.split(";")[:40]:
        if not declaration.strip():
            continue
        name, sep, value = declaration.partition(":")
        name, value = name.strip().lower(), value.strip().lower().replace("!important", "").strip()
        if not sep or not name:
            return f"a style we cannot read ({declaration.strip()[:40]!r})"
        if name in ("color",):
            rgba = _css_rgba(value)
            if rgba is None or rgba[1] < _MIN_ALPHA:
                return f"text in a colour that does not show ({value[:30]})"
            colour = rgba[0]
        elif name in ("background", "background-color"):
            background = _background(value)
            if background is None:
                return f"a background we cannot read ({value[:30]})"
        elif name == "font-size":
            m = regex.fullmatch(r"([0-9]*\.?[0-9]+)\s*(px|pt|em|rem|%)?", value, timeout=REGEX_TIMEOUT_S)
            if not m:
                return f"a font size we cannot read ({value[:30]})"
            size, unit = float(m[1]), m[2] or "px"
            limit = {"px": 8, "pt": 6, "em": 0.5, "rem": 0.5, "%": 50}[unit]
            if size < limit:
                return f"text too small to read (font-size {value[:20]})"
        elif name in ("text-decoration", "text-decoration-line"):
            if any(word not in _SAFE_DECORATION for word in value.split()):
                return f"struck-through or decorated text ({value[:30]})"
        elif name == "display":
            if value not in _SAFE_DISPLAY:
                return f"an element that is not displayed (display {value[:20]})"
        elif name not in _FORMATTING:
            return f"a style that can hide text ({name})"
        elif "-" in value and name.startswith(("margin", "padding", "letter", "word")):
            return f"text moved or squeezed out of sight ({name}: {value[:20]})"
        elif name.startswith(("margin", "padding", "letter", "word", "line-height", "vertical-align")) \
                and _far(value):
            return f"text moved out of sight ({name}: {value[:20]})"
        elif name == "line-height" and regex.fullmatch(r"0*\.?0*(?:px|em|rem|pt|%)?", value, timeout=REGEX_TIMEOUT_S):
            return "text with no line height"
    if abs(_luminance(colour) - _luminance(background)) < _MIN_CONTRAST:
        return "text in a colour that does not show on its background"
    return None


# HTML elements whose content a reader sees; every other HTML element (dialog, datalist, canvas,
# video, iframe, object, select, svg, template, noscript …) shows something else or nothing
SHOWN_ELEMENTS = frozenset("""
p div span b strong i em u ins mark small big sub sup code pre kbd samp var tt ul ol li dl dt dd table
thead tbody tfoot tr td th caption colgroup h1 h2 h3 h4 h5 h6 blockquote q cite center font section
article main header footer nav aside figure figcaption abbr acronym dfn label button output address
bdi bdo ruby rt time data html body form fieldset legend details summary a hgroup search menu
textarea math mi mn mo mrow msup msub msubsup mfrac msqrt mroot mtext mtable mtr mtd mspace mstyle
semantics mover munder munderover mpadded mfenced menclose
""".split())
HTML_ELEMENTS = SHOWN_ELEMENTS | frozenset("""
del s strike script style template noscript head title dialog datalist noembed noframes frameset frame
iframe canvas video audio picture map object applet select option optgroup svg foreignobject slot
annotation annotation-xml rp marquee blink portal fencedframe
""".split())
# attributes that neither hide nor restyle what an element shows
_PLAIN_ATTRIBUTES = frozenset("""
id title lang dir align valign href src alt colspan rowspan open start type name border cellpadding
cellspacing target rel value reversed scope headers summary face role tabindex datetime cite
xmlns display mathvariant
""".split())
_ATTRIBUTE_RE = regex.compile(r"""([A-Za-z_:][-A-Za-z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")


def element_hides(name: str, attributes: str) -> str | None:
    """Why an HTML element's content may not be shown (``None`` when a reader sees it).

    The element must be one that shows its content, and each attribute one that only labels or
    lays out (``style`` is read by :func:`style_hides`, ``color`` must be visible, ``width``/``height``
    must not be 0). ``hidden``, ``aria-hidden``, ``class`` (whose CSS we cannot see) and any other
    attribute hide. Tags that are no HTML (``<answer>``, ``<think>``) are the completion's own markup.
    """
    if name in HTML_ELEMENTS and name not in SHOWN_ELEMENTS:
        return f"a <{name}> element (its content is not shown)"
    for m in _ATTRIBUTE_RE.finditer(attributes[:2000], timeout=REGEX_TIMEOUT_S):
        attribute = m[1].lower()
        value = next((g for g in m.groups()[1:] if g is not None), "")
        if attribute == "style":
            why = style_hides(value)
            if why:
                return why
        elif attribute == "color":
            if not css_colour_visible(value):
                return f"text in a colour that does not show ({value[:30]})"
        elif attribute in ("width", "height", "size"):
            if regex.fullmatch(r"\s*0*\.?0*\s*(?:px|%)?\s*", value, timeout=REGEX_TIMEOUT_S):
                return f"an element of no {attribute}"
        elif attribute in ("hidden", "aria-hidden", "inert"):
            if attribute != "aria-hidden" or value.strip().lower() != "false":
                return f"an element marked {attribute}"
        elif attribute.startswith("data-") or attribute in _PLAIN_ATTRIBUTES:
            continue
        elif name in HTML_ELEMENTS:
            return f"an attribute that may hide the element ({attribute})"
    return None

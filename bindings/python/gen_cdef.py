#!/usr/bin/python3
"""Generate the cffi declarations of the tally package from the public C headers.

The headers are read in the order the umbrella header `tally.h` includes them. From each one the
generator drops comments, `#include` lines, include guards, conditional blocks (C++ linkage,
export-macro selection, build-specific hooks), macros other than plain integer constants (cffi
accepts `#define NAME 123` only) and the export macro `TALLY_API`. What remains is valid input for
`cffi.FFI.cdef()`. The declarations are therefore never copied by hand: they change when the
headers change, and the Python tests check that they still describe every exported function.

The experimental tier of the API (blocks under `#ifdef TALLY_EXPERIMENTAL_API`, and headers that
refuse to be read without it through `#ifndef TALLY_EXPERIMENTAL_API` + `#error`) is declared as
if the macro were defined: the package binds the runner, noise profiles, partition summaries and
the store too.

The options initialisers (`#define TALLY_X_OPTIONS_INIT { ... }`) are dropped like every other
non-integer macro: the package fills options structs by calling `tally_x_options_init()`.

The output is a Python module defining `CDEF` (str).

Usage: gen_cdef.py OUTPUT.py UMBRELLA_HEADER INCLUDE_DIR [INCLUDE_DIR...]
"""

import os
import re
import sys

EXPORT_MACRO = "TALLY_API"
EXPERIMENTAL_MACRO = "TALLY_EXPERIMENTAL_API"
_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')
_INT_DEFINE = re.compile(
    r"^\s*#\s*define\s+([A-Za-z_]\w*)\s+(-?(?:0[xX][0-9a-fA-F]+|\d+))[uUlL]*\s*$")
_DIRECTIVE = re.compile(r"^\s*#\s*(\w+)\s*(.*)$")


def strip_comments(text):
    """Remove /* */ and // comments; the headers hold no string literal containing either."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def join_continuations(text):
    """Fold backslash-continued lines (multi-line macros) into one line."""
    return re.sub(r"\\\n", " ", text)


def umbrella_order(umbrella_path):
    """The headers the umbrella includes, in its order."""
    with open(umbrella_path, encoding="utf-8") as f:
        return [m.group(1) for m in map(_INCLUDE.match, f) if m]


def find_header(name, include_dirs):
    for d in include_dirs:
        path = os.path.join(d, name)
        if os.path.isfile(path):
            return path
    raise SystemExit(f"gen_cdef: {name} not found in {', '.join(include_dirs)}")


def is_include_guard(lines, i, name):
    """`#ifndef NAME` immediately followed by `#define NAME` opens an include guard."""
    for line in lines[i + 1:]:
        if not line.strip():
            continue
        m = _DIRECTIVE.match(line)
        return bool(m and m.group(1) == "define" and m.group(2).split()[:1] == [name])
    return False


def is_experimental_block(directive, condition):
    """`#ifdef TALLY_EXPERIMENTAL_API` (or `#if defined(...)`) opens a block of the experimental
    tier, which the package declares: it is generated as if the macro were defined."""
    if directive == "ifdef":
        return condition == EXPERIMENTAL_MACRO
    return directive == "if" and re.fullmatch(
        r"defined\s*\(?\s*%s\s*\)?" % EXPERIMENTAL_MACRO, condition) is not None


def declarations(text):
    """The declarations of one header as cdef text."""
    lines = join_continuations(strip_comments(text)).split("\n")
    out = []
    # One entry per open conditional: True when its content is kept (include guards only).
    stack = []
    for i, line in enumerate(lines):
        m = _DIRECTIVE.match(line)
        if m:
            directive, rest = m.group(1), m.group(2).strip()
            if directive in ("if", "ifdef", "ifndef"):
                guard = directive == "ifndef" and is_include_guard(lines, i, rest)
                stack.append(guard or is_experimental_block(directive, rest))
            elif directive in ("elif", "else"):
                stack[-1] = False
            elif directive == "endif":
                stack.pop()
            elif directive == "define" and all(stack):
                const = _INT_DEFINE.match(line)
                if const and not const.group(1).endswith("_H"):
                    out.append(f"#define {const.group(1)} {const.group(2)}")
            continue
        if not all(stack):
            continue
        line = re.sub(r"\b%s\b\s*" % EXPORT_MACRO, "", line).rstrip()
        if line.strip():
            out.append(line)
    if stack:
        raise SystemExit("gen_cdef: unbalanced conditional in a header")
    return out


def generate(umbrella, include_dirs):
    """The text of the generated Python module."""
    parts = []
    for name in umbrella_order(umbrella):
        path = find_header(name, include_dirs)
        with open(path, encoding="utf-8") as f:
            body = declarations(f.read())
        parts.append(f"/* {name} */")
        parts.extend(body)
    cdef = "\n".join(parts) + "\n"
    if '"""' in cdef or "\\" in cdef:
        raise SystemExit("gen_cdef: declarations contain characters that need quoting")
    lines = ['"""cffi declarations generated by gen_cdef.py from the tally headers; '
             'do not edit."""',
             "", f'CDEF = """\\\n{cdef}"""']
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) < 4:
        raise SystemExit(__doc__)
    output, umbrella, include_dirs = argv[1], argv[2], argv[3:]
    text = generate(umbrella, include_dirs)
    # Rewrite only on change so that dependent build steps stay up to date without churn.
    try:
        with open(output, encoding="utf-8") as f:
            if f.read() == text:
                return 0
    except FileNotFoundError:
        pass
    tmp = output + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

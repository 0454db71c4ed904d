#!/usr/bin/env python3
"""Fails when libbpf is used outside src/bpf/ (GitHub issue 28): every other
stage reaches the kernel through the small types of src/bpf/.

Looks, in the code of every file of src/ outside src/bpf/ (comments and
string literals removed, so BPF helper names in comments such as
bpf_get_stack() and emitter constants such as BPF_FUNC_get_stackid do not
count), for
  - an include of a libbpf header (<bpf/bpf.h>, <bpf/libbpf.h>, <bpf/btf.h>...),
  - a call of a libbpf or bpf(2) wrapper function (bpf_*(), btf__*(),
    btf_*(), libbpf_*(), ring_buffer__*(), perf_buffer__*()),
  - libbpf's types and macros (struct btf, LIBBPF_OPTS).
Prints each offender as path:line: text and exits 1 if there is any.

Usage: check_libbpf_boundary.py [SRC_DIR]   (default: src/ beside tests/)
"""
import pathlib
import re
import sys

CHECKS = [
    ("libbpf header", re.compile(r"#\s*include\s*<bpf/")),
    ("libbpf call",
     re.compile(r"\b(?:bpf_\w+|btf_\w+|libbpf_\w+|ring_buffer__\w+|perf_buffer__\w+)\s*\(")),
    ("libbpf type", re.compile(r"\bstruct\s+btf\b|\bLIBBPF_OPTS\b")),
]

TOKENS = re.compile(
    r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.DOTALL)


def code_only(text):
    """The text with comments and string and character literals blanked
    (newlines kept, so line numbers stay)."""
    return TOKENS.sub(lambda match: re.sub(r"[^\n]", " ", match.group(0)), text)


def offenders(src):
    found = []
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".h", ".cpp", ".inc", ".c", ".hpp"):
            continue
        relative = path.relative_to(src)
        if relative.parts[0] == "bpf":
            continue
        text = path.read_text(errors="replace")
        lines = text.split("\n")
        for number, line in enumerate(code_only(text).split("\n"), 1):
            for what, pattern in CHECKS:
                if pattern.search(line):
                    found.append(f"src/{relative}:{number}: {what}: {lines[number - 1].strip()}")
                    break
    return found


def main():
    src = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else (
        pathlib.Path(__file__).resolve().parent.parent / "src")
    found = offenders(src)
    if found:
        print("libbpf used outside src/bpf/ (wrap it in a type of src/bpf/):")
        for line in found:
            print("  " + line)
        return 1
    print(f"libbpf boundary: no libbpf use outside {src}/bpf")
    return 0


if __name__ == "__main__":
    sys.exit(main())

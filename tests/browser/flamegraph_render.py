#!/usr/bin/python3
"""Renders a flame graph SVG in headless Chromium and checks what a person
would see: the frames' colours where the SVG puts them, widths measured on
the screenshot in proportion to the samples, the title and labels drawn,
and the embedded script at work (a zoom and a search restored from the
address, the share of samples matched).

Then the same for the graph dtrace itself writes (-x flamegraph=FILE) of
a workload whose user stack is known: every frame of its one call chain is
drawn across the whole graph, named as ustack() names it.

Usage: flamegraph_render.py RENDER_FLAMEGRAPH DTRACE WORKLOADS
RENDER_FLAMEGRAPH is tests/tools/render_flamegraph (folded stacks on stdin,
SVG on stdout); WORKLOADS the directory of the test workloads. Run with
Debian's python3, which has python3-pil; Chromium is Debian's chromium.
scripts/setup.sh installs both: a missing one fails the test.
"""

import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from PIL import Image

SVG_NS = "{http://www.w3.org/2000/svg}"
WINDOW = (1200, 800)
BACKGROUND = (248, 248, 248)
HIGHLIGHT = (230, 0, 230)
ROOT_SPAN = 1180  # the image's width less 10 pixels each side

# 100 samples: "main" calls "compile" (55), "parse" (40) and a frame whose
# name needs escaping (5).
FOLDED = """\
main;parse;lex 30
main;parse 10
main;compile;emit 40
main;compile;optimize 15
main;<init>&"quoted" 5
"""

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def chromium(*arguments, timeout=60):
    binary = shutil.which("chromium")
    if binary is None:
        sys.exit("FAIL: chromium is not installed (scripts/setup.sh installs Debian's chromium)")
    with tempfile.TemporaryDirectory() as profile:
        # The flags keep Chromium off the network (this machine has none)
        # and make a screenshot pixel for pixel what the SVG says.
        command = [
            binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--hide-scrollbars", "--force-device-scale-factor=1",
            "--user-data-dir=" + profile, *arguments,
        ]
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        sys.exit("FAIL: chromium exited with %d:\n%s" % (result.returncode, result.stderr))
    return result.stdout


def screenshot(url, path):
    chromium("--screenshot=" + str(path), "--window-size=%d,%d" % WINDOW, url)
    image = Image.open(path).convert("RGB")
    check(image.size == WINDOW, "screenshot is %s, not %s" % (image.size, WINDOW))
    return image


def rgb(fill):
    assert fill.startswith("rgb(") and fill.endswith(")"), fill
    return tuple(int(part) for part in fill[4:-1].split(","))


def close(a, b, tolerance=3):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def frames_of(svg_path):
    """The frames as the SVG file describes them, by name."""
    frames = {}
    for g in ElementTree.parse(svg_path).getroot().iter(SVG_NS + "g"):
        if g.get("class") != "frame":
            continue
        title = g.find(SVG_NS + "title").text
        rect = g.find(SVG_NS + "rect")
        frames[title[: title.rindex(" (")]] = {
            "x": float(rect.get("x")),
            "y": float(rect.get("y")),
            "width": float(rect.get("width")),
            "fill": rgb(rect.get("fill")),
            "depth": int(g.get("data-depth")),
            "start": int(g.get("data-start")),
        }
    return frames


def run_length(image, x, y):
    """The width in pixels of the run of x's colour that holds (x, y)."""
    colour = image.getpixel((x, y))
    left = x
    while left > 0 and close(image.getpixel((left - 1, y)), colour):
        left -= 1
    right = x
    while right < image.width - 1 and close(image.getpixel((right + 1, y)), colour):
        right += 1
    return right - left + 1


def dark_pixels(image, box):
    left, top, right, bottom = box
    return sum(
        1
        for x in range(left, right)
        for y in range(top, bottom)
        if sum(image.getpixel((x, y))) < 3 * 100
    )


def row_of(frame):
    # The first pixel row inside the frame, above its label's glyphs.
    return int(frame["y"]) + 1


def check_plain(image, frames):
    """The graph as it opens."""
    for name, frame in frames.items():
        if frame["width"] < 4:
            continue
        # Just inside the right end, where labels keep 3 pixels free.
        x = int(frame["x"] + frame["width"]) - 2
        seen = image.getpixel((x, row_of(frame)))
        check(close(seen, frame["fill"]),
              "frame %r: %s at (%d, %d), the SVG says %s" % (name, seen, x, row_of(frame),
                                                              frame["fill"]))

    # Widths measured on the picture alone.
    root = frames["all"]
    root_width = run_length(image, 600, row_of(root))
    check(abs(root_width - ROOT_SPAN) <= 1, "the root frame is %d pixels wide, not %d"
          % (root_width, ROOT_SPAN))
    for name, share in (("compile", 0.55), ("parse", 0.40), ("lex", 0.30), ("emit", 0.40)):
        frame = frames[name]
        width = run_length(image, int(frame["x"] + frame["width"] / 2), row_of(frame))
        check(abs(width - share * root_width) <= 2,
              "%r is %d pixels wide: not %.0f%% of the root's %d"
              % (name, width, share * 100, root_width))
    # The root is at the bottom, callees above callers.
    check(frames["main"]["y"] < root["y"] and frames["compile"]["y"] < frames["main"]["y"],
          "rows are not stacked root first")
    check(image.getpixel((5, row_of(root))) == BACKGROUND, "no background left of the root")
    check(image.getpixel((600, 10)) == BACKGROUND, "no background above the frames")

    # Text is drawn: the title, and a label inside the widest frames.
    check(dark_pixels(image, (520, 8, 680, 30)) > 50, "no title drawn")
    for name in ("compile", "parse", "main"):
        frame = frames[name]
        box = (int(frame["x"]) + 3, int(frame["y"]) + 2, int(frame["x"]) + 50,
               int(frame["y"]) + 14)
        check(dark_pixels(image, box) > 20, "no label drawn in %r" % name)


def check_zoomed(image, frames):
    """Zoomed into "compile", with "emit" and "lex" searched for."""
    compile_row = row_of(frames["compile"])
    for x in (12, 600, 1187):
        check(close(image.getpixel((x, compile_row)), frames["compile"]["fill"]),
              "zoomed: 'compile' does not span the graph at x=%d" % x)
    emit = frames["emit"]
    check(close(image.getpixel((15, row_of(emit))), HIGHLIGHT), "zoomed: 'emit' not highlighted")
    width = run_length(image, 15, row_of(emit))
    check(abs(width - ROOT_SPAN * 40 / 55) <= 2,
          "zoomed: 'emit' is %d pixels wide, not 40/55 of %d" % (width, ROOT_SPAN))
    optimize = image.getpixel((1187, row_of(emit)))
    check(close(optimize, frames["optimize"]["fill"]), "zoomed: 'optimize' not at the right end")
    # Callers of the zoomed frame stay, faded over the background.
    main = frames["main"]
    faded = tuple((c + b) / 2 for c, b in zip(main["fill"], BACKGROUND))
    check(close(image.getpixel((1187, row_of(main))), faded, 4),
          "zoomed: 'main' is not faded across the graph")


def check_dom(dom, zoomed):
    check("<script>" in dom and "function zoom(target)" in dom, "the zoom script is missing")
    check('id="search"' in dom, "the search box is missing")
    check("&lt;init&gt;&amp;\"quoted\"" in dom, "the escaped frame name is missing")
    for label in (">compile</text>", ">parse</text>", ">main</text>", ">all</text>"):
        check(label in dom, "label %s missing" % label)
    if not zoomed:
        check('id="reset" class="hidden"' in dom, "Reset Zoom shown before any zoom")
        return
    check(">Matched: 70.00%</text>" in dom, "the search did not report 70.00% matched")
    check('id="reset" class=""' in dom, "Reset Zoom hidden while zoomed")
    check('class="frame hidden" data-depth="2" data-start="60"' in dom,
          "'parse' not hidden while zoomed into 'compile'")
    check('class="frame parent" data-depth="1"' in dom, "'main' not shown as a caller")


# The workload's call chain, outermost first, as ustack() names it.
WORKLOAD_CHAIN = ["stacks`main", "stacks`stack_outer", "stacks`stack_middle", "stacks`stack_leaf"]


def check_dtrace_graph(dtrace, workloads, work):
    """dtrace -x flamegraph=FILE of @[ustack()] = count() on the workload."""
    svg = work / "profile.svg"
    subprocess.run([dtrace, "-q", "-x", "flamegraph=" + str(svg), "-n",
                    "syscall::getppid:entry /pid == $target/ { @[ustack()] = count(); }",
                    "-c", str(Path(workloads) / "stacks") + " 50"],
                   stdout=subprocess.DEVNULL, check=True, timeout=60)
    frames = frames_of(svg)
    root = frames.get("all")
    if not check(root is not None, "dtrace's graph has no root frame"):
        return
    for name in WORKLOAD_CHAIN:
        if not check(name in frames, "dtrace's graph has no frame %r" % name):
            return
        check(frames[name]["width"] == root["width"], "%r does not span the graph" % name)
    check(frames["stacks`stack_leaf"]["y"] < frames["stacks`main"]["y"],
          "dtrace's graph: the leaf is not above main")

    image = screenshot(svg.as_uri(), work / "profile.png")
    for name in WORKLOAD_CHAIN:
        frame = frames[name]
        check(close(image.getpixel((600, row_of(frame))), frame["fill"]),
              "dtrace's graph: %r not drawn in its colour" % name)
        width = run_length(image, 600, row_of(frame))
        check(abs(width - ROOT_SPAN) <= 1, "dtrace's graph: %r is %d pixels wide, not %d"
              % (name, width, ROOT_SPAN))
    dom = chromium("--dump-dom", svg.as_uri())
    for name in WORKLOAD_CHAIN:
        check(">%s</text>" % name in dom, "dtrace's graph: label %r missing" % name)
    check("(100 samples, 100.00%)" in dom, "dtrace's graph: 2 x 50 calls are not 100 samples")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        svg = work / "graph.svg"
        with open(svg, "wb") as out:
            subprocess.run([sys.argv[1], "Compiler profile"], input=FOLDED.encode(), stdout=out,
                           check=True)
        frames = frames_of(svg)  # also proves the file is well-formed XML
        check(len(frames) == 8, "%d frames in the SVG, not 8" % len(frames))

        url = svg.as_uri()
        zoomed_url = url + "?z=%d,%d&s=%%5E(emit%%7Clex)%%24" % (
            frames["compile"]["depth"], frames["compile"]["start"])
        check_plain(screenshot(url, work / "plain.png"), frames)
        check_zoomed(screenshot(zoomed_url, work / "zoomed.png"), frames)
        check_dom(chromium("--dump-dom", url), zoomed=False)
        check_dom(chromium("--dump-dom", zoomed_url), zoomed=True)
        check_dtrace_graph(sys.argv[2], sys.argv[3], work)
        if failures:
            kept = Path(tempfile.mkdtemp(prefix="flamegraph-render."))
            for name in ("graph.svg", "plain.png", "zoomed.png", "profile.svg", "profile.png"):
                if (work / name).exists():
                    shutil.copy(work / name, kept / name)
            print("kept the SVG and screenshots in %s" % kept)

    for failure in failures:
        print("FAIL: " + failure)
    if failures:
        sys.exit(1)
    print("PASS: flame graph rendered and checked in Chromium")


if __name__ == "__main__":
    main()

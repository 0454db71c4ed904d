#include "print/flamegraph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "print/flamegraph_script.h"

namespace dtrace::print {
namespace {

// One <g class="frame"> as the renderer writes it, read back.
struct SvgFrame {
  int depth;
  uint64_t start, samples;
  std::string title;
  double x, y, width, height;
  Rgb fill;
  std::string label;
};

std::vector<SvgFrame> framesOf(const std::string& svg) {
  static const std::regex frame(
      R"re(<g class="frame" data-depth="(\d+)" data-start="(\d+)" data-samples="(\d+)">)re"
      R"re(<title>([^<]*)</title><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" )re"
      R"re(height="([\d.]+)" fill="rgb\((\d+),(\d+),(\d+)\)"/><text x="[\d.]+" y="[\d.]+">)re"
      R"re(([^<]*)</text></g>)re");
  std::vector<SvgFrame> frames;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), frame); it != std::sregex_iterator();
       ++it) {
    const std::smatch& m = *it;
    frames.push_back(
        SvgFrame{std::stoi(m[1]), std::stoull(m[2]), std::stoull(m[3]), m[4], std::stod(m[5]),
                 std::stod(m[6]), std::stod(m[7]), std::stod(m[8]),
                 Rgb{static_cast<uint8_t>(std::stoi(m[9])), static_cast<uint8_t>(std::stoi(m[10])),
                     static_cast<uint8_t>(std::stoi(m[11]))},
                 m[12]});
  }
  return frames;
}

const SvgFrame& frameNamed(const std::vector<SvgFrame>& frames, const std::string& name) {
  const auto it = std::find_if(frames.begin(), frames.end(), [&](const SvgFrame& f) {
    return f.title.rfind(name + " (", 0) == 0;
  });
  if (it == frames.end()) throw std::runtime_error("no frame " + name);
  return *it;
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) n++;
  return n;
}

const std::vector<StackSample> kCompiler = {
    {{"main", "parse", "lex"}, 30},      {{"main", "parse"}, 10},
    {{"main", "compile", "emit"}, 40},   {{"main", "compile", "optimize"}, 15},
    {{"main", "<init>&\"quoted\"'"}, 5},
};

TEST(FlameGraph, EveryFrameOfTheMergedTreeIsDrawn) {
  const std::vector<SvgFrame> frames = framesOf(renderFlameGraph(kCompiler));
  std::vector<std::string> titles;
  for (const SvgFrame& f : frames) titles.push_back(f.title);
  EXPECT_EQ(titles, (std::vector<std::string>{
                        "all (100 samples, 100.00%)",
                        "main (100 samples, 100.00%)",
                        "&lt;init&gt;&amp;&quot;quoted&quot;&#39; (5 samples, 5.00%)",
                        "compile (55 samples, 55.00%)",
                        "emit (40 samples, 40.00%)",
                        "optimize (15 samples, 15.00%)",
                        "parse (40 samples, 40.00%)",
                        "lex (30 samples, 30.00%)",
                    }));
}

TEST(FlameGraph, WidthsAreSharesOfTheSamples) {
  FlameGraphOptions options;
  options.width = 1200;
  const std::vector<SvgFrame> frames = framesOf(renderFlameGraph(kCompiler, options));
  const SvgFrame& all = frameNamed(frames, "all");
  EXPECT_DOUBLE_EQ(all.x, 10);
  EXPECT_DOUBLE_EQ(all.width, 1180);  // the image less 10 pixels each side
  EXPECT_DOUBLE_EQ(frameNamed(frames, "compile").width, 1180 * 0.55);
  EXPECT_DOUBLE_EQ(frameNamed(frames, "parse").width, 1180 * 0.40);
  EXPECT_DOUBLE_EQ(frameNamed(frames, "lex").width, 1180 * 0.30);
  // Side by side in name order: "<init>" sorts before "compile".
  EXPECT_DOUBLE_EQ(frameNamed(frames, "compile").x, 10 + 1180 * 0.05);
  EXPECT_DOUBLE_EQ(frameNamed(frames, "parse").x, 10 + 1180 * 0.60);
  // A child starts where its parent starts.
  EXPECT_DOUBLE_EQ(frameNamed(frames, "lex").x, frameNamed(frames, "parse").x);
  EXPECT_EQ(frameNamed(frames, "parse").start, 60u);
}

TEST(FlameGraph, TheRootIsAtTheBottomAndCalleesAboveCallers) {
  const std::string svg = renderFlameGraph(kCompiler);
  const std::vector<SvgFrame> frames = framesOf(svg);
  const double rootY = frameNamed(frames, "all").y;
  for (const SvgFrame& f : frames) {
    EXPECT_DOUBLE_EQ(f.y, rootY - 16 * f.depth) << f.title;
    EXPECT_DOUBLE_EQ(f.height, 15);  // a pixel between rows
  }
  // Four rows, under a 40-pixel title area and above a 30-pixel footer.
  EXPECT_NE(svg.find("height=\"" + std::to_string(40 + 4 * 16 + 30) + "\""), std::string::npos);
  EXPECT_DOUBLE_EQ(rootY, 40 + 3 * 16);
}

TEST(FlameGraph, NamesAreEscapedEverywhere) {
  const std::string svg = renderFlameGraph(kCompiler);
  EXPECT_EQ(svg.find("<init>"), std::string::npos);
  EXPECT_EQ(svg.find("&\""), std::string::npos);
  // 59 pixels hold 7 characters: 5 of the name and "..".
  EXPECT_EQ(frameNamed(framesOf(svg), "&lt;init&gt;&amp;&quot;quoted&quot;&#39;").label,
            "&lt;init..");

  FlameGraphOptions options;
  options.title = "read() <latency> & more";
  options.subtitle = "dtrace -n 'profile-997 { @[stack()] = count(); }'";
  const std::string titled = renderFlameGraph(kCompiler, options);
  EXPECT_NE(titled.find(">read() &lt;latency&gt; &amp; more</text>"), std::string::npos);
  EXPECT_NE(titled.find("dtrace -n &#39;profile-997 { @[stack()] = count(); }&#39;</text>"),
            std::string::npos);
}

TEST(FlameGraph, BytesThatAreNotTextStillMakeAValidDocument) {
  const std::vector<StackSample> samples = {{{"bad\xFF\x01name"}, 1}};
  const std::string svg = renderFlameGraph(samples);
  EXPECT_NE(svg.find("bad\xEF\xBF\xBD\xEF\xBF\xBDname (1 samples"), std::string::npos);
  EXPECT_EQ(svg.find('\x01'), std::string::npos);
  EXPECT_EQ(svg.find('\xFF'), std::string::npos);
}

TEST(FlameGraph, LabelsAreCutToFit) {
  EXPECT_EQ(flameLabel("compile", 100), "compile");
  // (width - 6) / 6.7 characters fit, 3 pixels kept free at each end.
  const auto roomFor = [](double chars) { return 6 + (chars + 0.5) * kFlameLabelCharWidth; };
  EXPECT_EQ(flameLabel("compile", roomFor(7)), "compile");
  EXPECT_EQ(flameLabel("compile", roomFor(6)), "comp..");
  EXPECT_EQ(flameLabel("compile", roomFor(3)), "c..");
  EXPECT_EQ(flameLabel("compile", roomFor(2)), "");
  EXPECT_EQ(flameLabel("compile", 25), "");
  EXPECT_EQ(flameLabel("", 100), "");
  // Characters, not bytes: four two-byte letters fit where four ASCII do.
  EXPECT_EQ(flameLabel("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", roomFor(4)),
            "\xC3\xA9\xC3\xA9..");
  EXPECT_EQ(flameLabel("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", roomFor(4)),
            "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9");
}

TEST(FlameGraph, ColorsAreWarmAndTheSameForTheSameName) {
  EXPECT_EQ(flameColor("vmlinux`do_syscall_64"), flameColor("vmlinux`do_syscall_64"));
  EXPECT_NE(flameColor("vmlinux`do_syscall_64"), flameColor("vmlinux`ksys_read"));
  for (const char* name : {"a", "b", "main", "compile", "vmlinux`ksys_read", ""}) {
    const Rgb c = flameColor(name);
    EXPECT_GE(c.r, 205) << name;
    EXPECT_GE(c.g, 50) << name;
    EXPECT_LE(c.g, 220) << name;
    EXPECT_LE(c.b, 55) << name;
  }
  const std::vector<SvgFrame> frames = framesOf(renderFlameGraph(kCompiler));
  EXPECT_EQ(frameNamed(frames, "emit").fill, flameColor("emit"));
}

TEST(FlameGraph, NarrowFramesAreLeftOut) {
  std::vector<StackSample> samples = {{{"big", "child"}, 9999}, {{"small", "child"}, 1}};
  // One sample in 10000 is 0.118 pixels wide in 1180.
  std::vector<SvgFrame> frames = framesOf(renderFlameGraph(samples));
  EXPECT_EQ(frames.size(), 5u);
  FlameGraphOptions options;
  options.minFrameWidth = 0.2;
  frames = framesOf(renderFlameGraph(samples, options));
  EXPECT_EQ(frames.size(), 3u);
  EXPECT_THROW(frameNamed(frames, "small"), std::runtime_error);
}

TEST(FlameGraph, TheSameSamplesGiveTheSameBytes) {
  std::vector<StackSample> samples = kCompiler;
  const std::string first = renderFlameGraph(samples);
  std::reverse(samples.begin(), samples.end());
  EXPECT_EQ(renderFlameGraph(samples), first);
  EXPECT_EQ(renderFlameGraph(kCompiler), first);
}

TEST(FlameGraph, SelfContainedWithItsScript) {
  const std::string svg = renderFlameGraph(kCompiler);
  EXPECT_EQ(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"", 0), 0u);
  EXPECT_NE(svg.find("<script><![CDATA["), std::string::npos);
  EXPECT_NE(svg.find(std::string(kFlameGraphScript)), std::string::npos);
  EXPECT_EQ(kFlameGraphScript.find("]]>"), std::string::npos);
  EXPECT_EQ(kFlameGraphStyle.find("]]>"), std::string::npos);
  EXPECT_NE(svg.find("id=\"search\""), std::string::npos);
  EXPECT_NE(svg.find(">Reset Zoom</text>"), std::string::npos);
  // Nothing to fetch: the only URLs are the two XML namespaces.
  EXPECT_EQ(occurrences(svg, "http"), 2u);
  EXPECT_EQ(svg.find("href"), std::string::npos);
  EXPECT_EQ(svg.find("url("), std::string::npos);
  EXPECT_EQ(svg.find("@import"), std::string::npos);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
}

TEST(FlameGraph, WithoutSamplesItSaysSo) {
  const std::string svg = renderFlameGraph({});
  EXPECT_TRUE(framesOf(svg).empty());
  EXPECT_NE(svg.find(">No samples</text>"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST(FlameGraph, CountNameInTooltips) {
  FlameGraphOptions options;
  options.countName = "bytes";
  const std::vector<StackSample> samples = {{{"write"}, 4096}};
  EXPECT_EQ(framesOf(renderFlameGraph(samples, options))[1].title, "write (4096 bytes, 100.00%)");
}

}  // namespace
}  // namespace dtrace::print

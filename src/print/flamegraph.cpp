#include "print/flamegraph.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "print/appendf.h"
#include "print/flame_tree.h"
#include "print/flamegraph_script.h"
#include "print/utf8.h"
#include "print/xml.h"

namespace dtrace::print {
namespace {

constexpr double kSidePadding = 10;
constexpr double kTitleBaseline = 24;
constexpr double kSubtitleBaseline = 42;
constexpr double kFramesTop = 40;  // below the title
constexpr double kFramesTopWithSubtitle = 56;
constexpr double kBottomMargin = 30;  // the details line
constexpr double kSearchBoxWidth = 160;
constexpr std::string_view kBackground = "rgb(248,248,248)";

void appendDecimal(std::string& out, double value, int precision = 2) {
  char buf[32];
  const auto [end, ec] =
      std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, precision);
  out.append(buf, end);
}

// FNV-1a: small, and the same on every machine.
uint64_t hashName(std::string_view name) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c : name) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

// ` name="rgb(r,g,b)"`
void appendRgbAttribute(std::string& out, std::string_view name, Rgb color) {
  out += ' ';
  out += name;
  out += "=\"rgb(";
  appendInteger(out, color.r);
  out += ',';
  appendInteger(out, color.g);
  out += ',';
  appendInteger(out, color.b);
  out += ")\"";
}

// ` name="12.50"`, with `precision` decimals.
void appendDecimalAttribute(std::string& out, std::string_view name, double value,
                            int precision = 2) {
  out += ' ';
  out += name;
  out += "=\"";
  appendDecimal(out, value, precision);
  out += '"';
}

void appendIntegerAttribute(std::string& out, std::string_view name, uint64_t value) {
  out += ' ';
  out += name;
  out += "=\"";
  appendInteger(out, value);
  out += '"';
}

// `<text class="..." x=".." y="..">text</text>` and a newline.
void appendTextElement(std::string& out, std::string_view attributes, double x, double y,
                       std::string_view text) {
  out += "<text";
  out += attributes;
  appendDecimalAttribute(out, "x", x);
  appendDecimalAttribute(out, "y", y);
  out += '>';
  appendXmlEscaped(out, text);
  out += "</text>\n";
}

// Where things go, from the options and the deepest frame.
struct Geometry {
  double width;
  double height;
  double span;       // the width the root frame spans
  double framesTop;  // the top of the deepest row
  double rowHeight;
  uint32_t maxDepth;

  double rowTop(uint32_t depth) const { return framesTop + (maxDepth - depth) * rowHeight; }
  // Where the text of a row sits.
  double rowBaseline(uint32_t depth) const { return rowTop(depth) + rowHeight - 5; }
};

Geometry geometryFor(const FlameGraphOptions& options, uint32_t maxDepth) {
  Geometry g;
  g.width = options.width;
  g.span = options.width - 2 * kSidePadding;
  g.rowHeight = options.frameHeight;
  g.maxDepth = maxDepth;
  g.framesTop = options.subtitle.empty() ? kFramesTop : kFramesTopWithSubtitle;
  g.height = g.framesTop + (maxDepth + 1) * g.rowHeight + kBottomMargin;
  return g;
}

void appendHeader(std::string& out, const FlameGraphOptions& options, const Geometry& g) {
  out += "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"";
  appendDecimalAttribute(out, "width", g.width, 0);
  appendDecimalAttribute(out, "height", g.height, 0);
  out += " viewBox=\"0 0 ";
  appendDecimal(out, g.width, 0);
  out += ' ';
  appendDecimal(out, g.height, 0);
  out += "\">\n<style><![CDATA[";
  out += kFlameGraphStyle;
  out += "]]></style>\n<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"";
  out += kBackground;
  out += "\"/>\n";
  appendTextElement(out, " class=\"title\"", g.width / 2, kTitleBaseline, options.title);
  if (!options.subtitle.empty())
    appendTextElement(out, " class=\"subtitle\"", g.width / 2, kSubtitleBaseline, options.subtitle);
  appendTextElement(out, " id=\"reset\" class=\"hidden\"", kSidePadding, kTitleBaseline,
                    "Reset Zoom");
  out += "<foreignObject";
  appendDecimalAttribute(out, "x", g.width - kSidePadding - kSearchBoxWidth);
  appendDecimalAttribute(out, "y", 8);
  appendDecimalAttribute(out, "width", kSearchBoxWidth);
  appendDecimalAttribute(out, "height", 22);
  out +=
      "><input xmlns=\"http://www.w3.org/1999/xhtml\" id=\"search\" type=\"search\" "
      "placeholder=\"Search (regex)\" aria-label=\"Search frames\"/></foreignObject>\n";
}

void appendFrame(std::string& out, const FlameFrame& frame, const FlameGraphOptions& options,
                 const Geometry& g, uint64_t total) {
  const FlameNode& node = *frame.node;
  const double scale = g.span / static_cast<double>(total);
  const double x = kSidePadding + static_cast<double>(frame.start) * scale;
  const double width = static_cast<double>(node.samples) * scale;

  out += "<g class=\"frame\"";
  appendIntegerAttribute(out, "data-depth", frame.depth);
  appendIntegerAttribute(out, "data-start", frame.start);
  appendIntegerAttribute(out, "data-samples", node.samples);
  out += "><title>";
  appendXmlEscaped(out, node.name);
  out += " (";
  appendInteger(out, node.samples);
  out += ' ';
  appendXmlEscaped(out, options.countName);
  out += ", ";
  appendDecimal(out, 100.0 * static_cast<double>(node.samples) / static_cast<double>(total));
  out += "%)</title><rect";
  appendDecimalAttribute(out, "x", x);
  appendDecimalAttribute(out, "y", g.rowTop(frame.depth));
  appendDecimalAttribute(out, "width", width);
  appendDecimalAttribute(out, "height", g.rowHeight - 1);
  appendRgbAttribute(out, "fill", flameColor(node.name));
  out += "/><text";
  appendDecimalAttribute(out, "x", x + kFlameLabelPadding);
  appendDecimalAttribute(out, "y", g.rowBaseline(frame.depth));
  out += '>';
  appendXmlEscaped(out, flameLabel(node.name, width));
  out += "</text></g>\n";
}

void appendFooter(std::string& out, const Geometry& g) {
  appendTextElement(out, " id=\"matched\"", g.width - kSidePadding, g.height - 10, "");
  appendTextElement(out, " id=\"details\"", kSidePadding, g.height - 10, " ");
  out += "<script><![CDATA[";
  out += kFlameGraphScript;
  out += "]]></script>\n</svg>\n";
}

}  // namespace

Rgb flameColor(std::string_view name) {
  // Three bytes of the hash pick red, green and blue, each within the part
  // of its range that keeps the colour warm.
  const uint64_t hash = hashName(name);
  const auto pick = [&](int shift, int low, int high) {
    return static_cast<uint8_t>(low + ((hash >> shift) & 0xFF) % (high - low + 1));
  };
  return Rgb{pick(0, 205, 255), pick(8, 50, 220), pick(16, 0, 55)};
}

std::string flameLabel(std::string_view name, double width) {
  const double room = (width - 2 * kFlameLabelPadding) / kFlameLabelCharWidth;
  if (room < 3) return "";
  const size_t fit = static_cast<size_t>(room);
  // The byte offset where each code point starts (a byte that is not
  // well-formed UTF-8 is a character of its own).
  std::vector<size_t> starts;
  for (size_t i = 0; i < name.size();) {
    starts.push_back(i);
    i += std::max<size_t>(1, utf8SequenceLength(name, i));
  }
  if (starts.size() <= fit) return std::string(name);
  return std::string(name.substr(0, starts[fit - 2])) + "..";
}

std::string renderFlameGraph(std::span<const StackSample> samples,
                             const FlameGraphOptions& options) {
  const FlameNode root = buildFlameTree(samples);
  const double span = options.width - 2 * kSidePadding;
  const double minSamples =
      std::ceil(options.minFrameWidth * static_cast<double>(root.samples) / span);
  const std::vector<FlameFrame> frames =
      layOutFlameFrames(root, std::max<uint64_t>(1, static_cast<uint64_t>(minSamples)));
  uint32_t maxDepth = 0;
  for (const FlameFrame& frame : frames) maxDepth = std::max(maxDepth, frame.depth);
  const Geometry g = geometryFor(options, maxDepth);

  std::string out;
  appendHeader(out, options, g);
  out += "<g id=\"frames\"";
  appendDecimalAttribute(out, "data-pad", kSidePadding);
  appendDecimalAttribute(out, "data-span", g.span);
  appendDecimalAttribute(out, "data-char-width", kFlameLabelCharWidth);
  appendDecimalAttribute(out, "data-label-padding", kFlameLabelPadding);
  out += ">\n";
  for (const FlameFrame& frame : frames) appendFrame(out, frame, options, g, root.samples);
  out += "</g>\n";
  if (frames.empty()) appendTextElement(out, "", kSidePadding, g.rowBaseline(0), "No samples");
  appendFooter(out, g);
  return out;
}

}  // namespace dtrace::print

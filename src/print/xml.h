// Text inside XML (the SVG of a flame graph). Frame names come from symbol
// tables and traced strings: whatever their bytes, the file must still
// parse, since a browser shows nothing of an SVG with one bad character.
#pragma once

#include <string>
#include <string_view>

namespace dtrace::print {

// Appends `text` for use in XML content or a quoted attribute: & < > " '
// as entities; characters XML 1.0 does not allow at all (C0 controls but
// tab, newline and carriage return; U+FFFE, U+FFFF) and bytes that are not
// well-formed UTF-8 as U+FFFD.
void appendXmlEscaped(std::string& out, std::string_view text);

}  // namespace dtrace::print

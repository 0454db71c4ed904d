#include "providers/listing.h"

#include <gtest/gtest.h>

#include "providers/catalog.h"
#include "providers/description.h"

namespace dtrace::providers {
namespace {

const Probe* one(ProbeCatalog& catalog, const char* text) {
  Result<std::vector<const Probe*>> r = catalog.match(*splitProbeDescription(text));
  EXPECT_TRUE(r.ok() && r->size() == 1) << text;
  return r.ok() && r->size() == 1 ? r->front() : nullptr;
}

TEST(ProbeListing, HeaderMatchesIllumos) {
  EXPECT_EQ(formatProbeListHeader(),
            "   ID   PROVIDER            MODULE                          FUNCTION NAME\n");
}

TEST(ProbeListing, Line) {
  ProbeCatalog catalog;
  const Probe* begin = one(catalog, "BEGIN");
  ASSERT_NE(begin, nullptr);
  EXPECT_EQ(formatProbeListLine(*begin),
            "    1     dtrace                                                     BEGIN\n");
  Probe p;
  p.id = 412;
  p.provider = "syscall";
  p.function = "read";
  p.name = "entry";
  EXPECT_EQ(formatProbeListLine(p),
            "  412    syscall                                                read entry\n");
  EXPECT_EQ(formatProbeList({begin}, false), formatProbeListHeader() + formatProbeListLine(*begin));
}

TEST(ProbeListing, VerboseBlockForBegin) {
  ProbeCatalog catalog;
  const Probe* begin = one(catalog, "BEGIN");
  ASSERT_NE(begin, nullptr);
  EXPECT_EQ(formatProbeInfo(*begin),
            "\n\tProbe Description Attributes\n"
            "\t\tIdentifier Names: Stable\n"
            "\t\tData Semantics:   Stable\n"
            "\t\tDependency Class: Common\n"
            "\n\tArgument Attributes\n"
            "\t\tIdentifier Names: Stable\n"
            "\t\tData Semantics:   Stable\n"
            "\t\tDependency Class: Common\n"
            "\n\tArgument Types\n"
            "\t\tNone\n"
            "\n");
}

TEST(ProbeListing, VerboseBlockForSyscall) {
  ProbeCatalog catalog;
  Result<std::vector<const Probe*>> r =
      catalog.match(*splitProbeDescription("syscall::read:entry"));
  if (!r.ok() || r->empty()) GTEST_SKIP() << "no syscall tracepoints readable";
  EXPECT_EQ(formatProbeInfo(*r->front()),
            "\n\tProbe Description Attributes\n"
            "\t\tIdentifier Names: Private\n"
            "\t\tData Semantics:   Private\n"
            "\t\tDependency Class: ISA\n"
            "\n\tArgument Attributes\n"
            "\t\tIdentifier Names: Private\n"
            "\t\tData Semantics:   Private\n"
            "\t\tDependency Class: ISA\n"
            "\n\tArgument Types\n"
            "\t\targs[0]: unsigned int\n"
            "\t\targs[1]: char *\n"
            "\t\targs[2]: size_t\n"
            "\n");
}

}  // namespace
}  // namespace dtrace::providers

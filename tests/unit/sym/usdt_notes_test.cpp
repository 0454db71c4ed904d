#include "sym/usdt_notes.h"

#include <fcntl.h>
#include <gelf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "test_support.h"

namespace dtrace::sym {
namespace {

namespace fs = std::filesystem;

const std::string kWorkloads = DTRACE_WORKLOADS_DIR;

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

using test_support::nmValue;
using test_support::run;
using test_support::TempDir;

// The sites by "provider:name", several for a probe at several places.
std::multimap<std::string, UsdtSite> byProbe(const std::vector<UsdtSite>& sites) {
  std::multimap<std::string, UsdtSite> m;
  for (const UsdtSite& s : sites) m.emplace(s.provider + ":" + s.name, s);
  return m;
}

// The one site of `probe` (a copy: the map is often a temporary).
UsdtSite only(const std::multimap<std::string, UsdtSite>& sites, const std::string& probe) {
  EXPECT_EQ(sites.count(probe), 1u) << probe;
  auto it = sites.find(probe);
  return it == sites.end() ? UsdtSite{} : it->second;
}

// Every site's uprobe offset is the nop <sys/sdt.h> put there.
void expectNopsAt(const std::string& path, const std::vector<UsdtSite>& sites) {
  const std::string bytes = readBytes(path);
  for (const UsdtSite& s : sites) {
    ASSERT_GT(s.fileOffset, 0u) << s.name;
    ASSERT_LT(s.fileOffset, bytes.size()) << s.name;
    EXPECT_EQ(static_cast<uint8_t>(bytes[s.fileOffset]), 0x90) << s.name;
  }
}

void expectRegister(const UsdtArgument& a, uint8_t size, bool isSigned) {
  EXPECT_EQ(a.kind, UsdtArgument::Kind::Register) << a.text;
  EXPECT_GE(a.regOffset, 0) << a.text;
  EXPECT_EQ(a.size, size) << a.text;
  EXPECT_EQ(a.isSigned, isSigned) << a.text;
}

TEST(UsdtNotes, ExecutableProbes) {
  const std::string path = kWorkloads + "/usdt";
  auto read = readUsdtSites(path);
  ASSERT_TRUE(read.ok()) << read.error().message;
  const std::vector<UsdtSite>& sites = *read;
  ASSERT_EQ(sites.size(), 8u);
  expectNopsAt(path, sites);
  for (const UsdtSite& s : sites) {
    EXPECT_EQ(s.provider, "usdt_workload");
    EXPECT_EQ(s.argError, "") << s.name;
    EXPECT_EQ(s.semaphore, 0u) << s.name;
    EXPECT_EQ(s.semaphoreFileOffset, 0u) << s.name;
    EXPECT_EQ(s.section, "");
  }
  const auto probes = byProbe(sites);

  EXPECT_TRUE(only(probes, "usdt_workload:none").args.empty());

  const UsdtSite& one = only(probes, "usdt_workload:one");
  ASSERT_EQ(one.args.size(), 1u);
  expectRegister(one.args[0], 8, true);

  const UsdtSite& registers = only(probes, "usdt_workload:registers");
  ASSERT_EQ(registers.args.size(), 3u);
  expectRegister(registers.args[0], 8, true);  // long
  expectRegister(registers.args[1], 4, true);  // int
  expectRegister(registers.args[2], 1, true);  // char

  // A volatile local: read from the frame.
  const UsdtSite& stack = only(probes, "usdt_workload:stack");
  ASSERT_EQ(stack.args.size(), 2u);
  EXPECT_EQ(stack.args[0].kind, UsdtArgument::Kind::Memory) << stack.args[0].text;
  EXPECT_TRUE(stack.args[0].regOffset == kPtRegsRbp || stack.args[0].regOffset == kPtRegsRsp)
      << stack.args[0].text;
  EXPECT_EQ(stack.args[0].size, 4);
  EXPECT_TRUE(stack.args[0].isSigned);

  const UsdtSite& constants = only(probes, "usdt_workload:constants");
  ASSERT_EQ(constants.args.size(), 3u);
  const int64_t values[] = {5, -1, 200};
  for (size_t i = 0; i < 3; i++) {
    EXPECT_EQ(constants.args[i].kind, UsdtArgument::Kind::Constant) << constants.args[i].text;
    EXPECT_EQ(constants.args[i].constant, values[i]) << constants.args[i].text;
  }

  // A global, named by its symbol: its link-time address.
  const UsdtSite& global = only(probes, "usdt_workload:global");
  ASSERT_EQ(global.args.size(), 2u);
  const UsdtArgument& counter = global.args[0];
  EXPECT_EQ(counter.kind, UsdtArgument::Kind::Memory) << counter.text;
  EXPECT_TRUE(counter.objectAddress) << counter.text;
  EXPECT_FALSE(counter.ripRelative) << counter.text;
  EXPECT_EQ(counter.regOffset, -1) << counter.text;
  const uint64_t counterAddress = nmValue(path, "usdt_workload_counter");
  ASSERT_NE(counterAddress, 0u);
  EXPECT_EQ(static_cast<uint64_t>(counter.displacement), counterAddress) << counter.text;
  // table[round & 3]: an indexed operand.
  const UsdtArgument& element = global.args[1];
  EXPECT_EQ(element.kind, UsdtArgument::Kind::Memory) << element.text;
  EXPECT_GE(element.indexOffset, 0) << element.text;
  EXPECT_EQ(element.scale, 8) << element.text;

  // One probe, two places.
  ASSERT_EQ(probes.count("usdt_workload:twice"), 2u);
  std::set<uint64_t> twice;
  for (auto [it, end] = probes.equal_range("usdt_workload:twice"); it != end; ++it) {
    twice.insert(it->second.address);
    ASSERT_EQ(it->second.args.size(), 1u);
  }
  EXPECT_EQ(twice.size(), 2u);
}

TEST(UsdtNotes, AddressesAreTheFunctionsOwn) {
  // The probe in fire_again() is inside it, by the symbol table.
  const std::string path = kWorkloads + "/usdt";
  const uint64_t function = nmValue(path, "fire_again");
  ASSERT_NE(function, 0u);
  auto sites = readUsdtSites(path);
  ASSERT_TRUE(sites.ok());
  bool found = false;
  for (const UsdtSite& s : *sites) {
    found = found || (s.name == "twice" && s.address >= function && s.address < function + 64);
  }
  EXPECT_TRUE(found);
}

TEST(UsdtNotes, SharedLibraryProbeWithSemaphore) {
  const std::string path = kWorkloads + "/libusdt_lib.so";
  auto read = readUsdtSites(path);
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_EQ(read->size(), 1u);
  const UsdtSite& site = (*read)[0];
  EXPECT_EQ(site.provider, "usdt_lib");
  EXPECT_EQ(site.name, "guarded");
  EXPECT_EQ(site.argError, "");
  ASSERT_EQ(site.args.size(), 2u);
  expectNopsAt(path, *read);

  const uint64_t semaphore = nmValue(path, "usdt_lib_guarded_semaphore");
  ASSERT_NE(semaphore, 0u);
  EXPECT_EQ(site.semaphore, semaphore);
  // In the file's .probes bytes: a zero counter.
  const std::string bytes = readBytes(path);
  ASSERT_GT(site.semaphoreFileOffset, 0u);
  ASSERT_LT(site.semaphoreFileOffset + 1, bytes.size());
  EXPECT_EQ(bytes[site.semaphoreFileOffset], 0);
  EXPECT_EQ(bytes[site.semaphoreFileOffset + 1], 0);
  const std::string sections = run("readelf -SW '" + path + "' | grep ' .probes '");
  ASSERT_NE(sections, "");
}

TEST(UsdtNotes, RelocatableObjectOffsetsInSections) {
  const std::string path = kWorkloads + "/usdt_lib.o";
  auto read = readUsdtSites(path);
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_EQ(read->size(), 1u);
  const UsdtSite& site = (*read)[0];
  EXPECT_EQ(site.provider, "usdt_lib");
  EXPECT_EQ(site.name, "guarded");
  EXPECT_EQ(site.section, ".text");
  EXPECT_EQ(site.semaphoreSection, ".probes");
  EXPECT_EQ(site.semaphore, 0u);  // the only variable in .probes
  EXPECT_EQ(site.argError, "");
  expectNopsAt(path, *read);
  const std::string bytes = readBytes(path);
  ASSERT_GT(site.semaphoreFileOffset, 0u);
  ASSERT_LT(site.semaphoreFileOffset, bytes.size());
}

// Notes of a file with .stapsdt.base where the note says it is not: every
// note's base word moved down by `delta`, as if prelink had moved the
// sections up by it.
void writeMovedBase(const std::string& from, const std::string& to, uint64_t delta) {
  std::string bytes = readBytes(from);
  elf_version(EV_CURRENT);
  const int fd = open(from.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  ASSERT_NE(elf, nullptr);
  size_t names = 0;
  elf_getshdrstrndx(elf, &names);
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    gelf_getshdr(scn, &shdr);
    if (std::strcmp(elf_strptr(elf, names, shdr.sh_name), ".note.stapsdt") != 0) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    GElf_Nhdr note;
    size_t nameOffset = 0, descOffset = 0;
    for (size_t offset = 0;
         (offset = gelf_getnote(data, offset, &note, &nameOffset, &descOffset)) != 0;) {
      const size_t at = shdr.sh_offset + descOffset + 8;  // the base word, little-endian
      uint64_t base = 0;
      std::memcpy(&base, bytes.data() + at, 8);
      base -= delta;
      std::memcpy(bytes.data() + at, &base, 8);
    }
  }
  elf_end(elf);
  close(fd);
  std::ofstream(to, std::ios::binary) << bytes;
}

TEST(UsdtNotes, PrelinkedSectionsMoveTheAddresses) {
  TempDir dir;
  const std::string original = kWorkloads + "/libusdt_lib.so";
  const std::string moved = dir.path() + "/libmoved.so";
  writeMovedBase(original, moved, 0x1000);
  auto before = readUsdtSites(original);
  auto after = readUsdtSites(moved);
  ASSERT_TRUE(before.ok() && after.ok());
  ASSERT_EQ(after->size(), 1u);
  EXPECT_EQ((*after)[0].address, (*before)[0].address + 0x1000);
  EXPECT_EQ((*after)[0].semaphore, (*before)[0].semaphore + 0x1000);
}

// A small program with probes, built for a target the workloads are not:
// no C library, so only the compiler is needed.
const char kFreestandingSource[] = R"(
#include <sys/sdt.h>
int counter = 1;
long table[8];
void _start(void) {
  for (long i = 0;; i++) {
    DTRACE_PROBE2(free, tick, counter, table[i & 7]);
    DTRACE_PROBE1(free, constant, -3);
  }
}
)";

// Builds kFreestandingSource with `flags`; "" when the compiler cannot.
std::string buildFreestanding(const TempDir& dir, const std::string& name,
                              const std::string& flags) {
  const std::string source = dir.path() + "/free.c";
  std::ofstream(source) << kFreestandingSource;
  const std::string out = dir.path() + "/" + name;
  // sys/sdt.h is in the multiarch directory of the compiler's own target.
  const std::string multiarch = run("gcc -print-multiarch");
  std::string include = multiarch.empty()
                            ? std::string()
                            : " -I/usr/include/" + multiarch.substr(0, multiarch.find('\n'));
  const std::string command = "gcc -O2 -ffreestanding -nostdlib -static" + include + " " + flags +
                              " '" + source + "' -o '" + out + "' 2>/dev/null";
  if (std::system(command.c_str()) != 0) return "";
  return out;
}

// The freestanding program's probes, built with `flags`: `counter` as
// written for the code's kind (i386 PIC "counter@GOTOFF(%ecx)", i386
// "counter", x86-64 "counter(%rip)"), table[i & 7] indexed.
void checkFreestanding(const std::string& flags, uint8_t wordSize) {
  TempDir dir;
  const std::string path = buildFreestanding(dir, "free", flags);
  if (path.empty()) GTEST_SKIP() << "gcc " << flags << " cannot build here";
  auto read = readUsdtSites(path);
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_EQ(read->size(), 2u);
  expectNopsAt(path, *read);
  const auto probes = byProbe(*read);
  const UsdtSite& tick = only(probes, "free:tick");
  EXPECT_EQ(tick.argError, "");
  ASSERT_EQ(tick.args.size(), 2u);
  const UsdtArgument& counter = tick.args[0];
  EXPECT_EQ(counter.kind, UsdtArgument::Kind::Memory) << counter.text;
  EXPECT_EQ(counter.size, 4) << counter.text;
  const uint64_t address = nmValue(path, "counter");
  ASSERT_NE(address, 0u);
  if (counter.text.find("@GOTOFF") != std::string::npos) {
    // An offset from the GOT, whose address a register holds.
    const uint64_t got = nmValue(path, "_GLOBAL_OFFSET_TABLE_");
    EXPECT_EQ(static_cast<uint64_t>(counter.displacement), address - got) << counter.text;
    EXPECT_GE(counter.regOffset, 0) << counter.text;
    EXPECT_FALSE(counter.objectAddress) << counter.text;
  } else {
    EXPECT_EQ(static_cast<uint64_t>(counter.displacement), address) << counter.text;
    EXPECT_EQ(counter.regOffset, -1) << counter.text;
    EXPECT_TRUE(counter.objectAddress) << counter.text;
  }
  const UsdtArgument& element = tick.args[1];
  EXPECT_EQ(element.kind, UsdtArgument::Kind::Memory) << element.text;
  EXPECT_GE(element.indexOffset, 0) << element.text;
  EXPECT_EQ(element.scale, wordSize) << element.text;
  EXPECT_EQ(element.size, wordSize) << element.text;

  const UsdtSite& constant = only(probes, "free:constant");
  ASSERT_EQ(constant.args.size(), 1u);
  EXPECT_EQ(constant.args[0].kind, UsdtArgument::Kind::Constant);
  EXPECT_EQ(constant.args[0].constant, -3);
  EXPECT_EQ(constant.args[0].size, 4);
}

TEST(UsdtNotes, Elf32PicExecutable) { checkFreestanding("-m32", 4); }
TEST(UsdtNotes, Elf32Executable) { checkFreestanding("-m32 -fno-pic -no-pie", 4); }
TEST(UsdtNotes, NonPieExecutable) { checkFreestanding("-fno-pic -no-pie", 8); }

// Two source files with a static `count` each: a probe in a static
// function names its own file's (the one after the STT_FILE symbol its
// function follows); one in a global function cannot be told and says so.
TEST(UsdtNotes, SameNamedStatics) {
  TempDir dir;
  for (const char* file : {"a", "b"}) {
    std::ofstream(dir.path() + "/" + file + ".c")
        << "#include <sys/sdt.h>\n"
        << "static long count = " << (file[0] == 'a' ? 1 : 2) << ";\n"
        << "__attribute__((noinline)) static void local_" << file << "(void) {\n"
        << "  DTRACE_PROBE1(statics, local_" << file << ", count);\n"
        << "}\n"
        << "void global_" << file << "(void) {\n"
        << "  local_" << file << "();\n"
        << "  DTRACE_PROBE1(statics, global_" << file << ", count);\n"
        << "  count++;\n"
        << "}\n";
  }
  std::ofstream(dir.path() + "/main.c") << "void global_a(void); void global_b(void);\n"
                                        << "int main(void) { global_a(); global_b(); return 0; }\n";
  const std::string path = dir.path() + "/statics";
  const std::string command = "cd '" + dir.path() + "' && gcc -O2 a.c b.c main.c -o statics";
  ASSERT_EQ(std::system(command.c_str()), 0);
  auto read = readUsdtSites(path);
  ASSERT_TRUE(read.ok()) << read.error().message;
  const auto probes = byProbe(*read);
  std::map<std::string, uint64_t> counts;  // by file
  for (const char* file : {"a", "b"}) {
    const UsdtSite local = only(probes, std::string("statics:local_") + file);
    EXPECT_EQ(local.argError, "") << file;
    ASSERT_EQ(local.args.size(), 1u) << file;
    EXPECT_TRUE(local.args[0].objectAddress);
    counts[file] = local.args[0].displacement;

    const UsdtSite global = only(probes, std::string("statics:global_") + file);
    if (global.argError.empty()) {
      // The compiler kept the value in a register: nothing to resolve.
      ASSERT_EQ(global.args.size(), 1u);
      EXPECT_FALSE(global.args[0].objectAddress) << global.args[0].text;
    } else {
      EXPECT_NE(global.argError.find("count"), std::string::npos) << global.argError;
    }
  }
  EXPECT_NE(counts["a"], counts["b"]);
  // Which is which: the initial values (1 in a.c, 2 in b.c), as objdump
  // dumps the first byte at each address (" ADDRESS 01 ...").
  for (const auto& [file, address] : counts) {
    const std::string dump =
        run("objdump -s -j .data --start-address=" + std::to_string(address) +
            " --stop-address=" + std::to_string(address + 1) + " '" + path + "'");
    char hex[32];
    std::snprintf(hex, sizeof hex, " %lx ", static_cast<unsigned long>(address));
    const size_t line = dump.find(hex);
    ASSERT_NE(line, std::string::npos) << dump;
    EXPECT_EQ(dump.substr(line + std::strlen(hex), 2), file == "a" ? "01" : "02") << dump;
  }
}

TEST(UsdtNotes, Python) {
  const std::string path = "/usr/bin/python3.11";
  if (!fs::exists(path)) GTEST_SKIP() << path << " is not installed";
  auto read = readUsdtSites(path);
  ASSERT_TRUE(read.ok()) << read.error().message;
  // Python's eight probes (Include/pydtrace.d), one site each.
  std::set<std::string> names;
  for (const UsdtSite& s : *read) names.insert(s.name);
  EXPECT_EQ(names, (std::set<std::string>{"audit", "function__entry", "function__return",
                                          "gc__done", "gc__start", "import__find__load__done",
                                          "import__find__load__start", "line"}));
  ASSERT_EQ(read->size(), 8u);
  expectNopsAt(path, *read);
  const std::string bytes = readBytes(path);
  for (const UsdtSite& s : *read) {
    EXPECT_EQ(s.provider, "python");
    EXPECT_EQ(s.argError, "") << s.name;
    EXPECT_NE(s.semaphore, 0u) << s.name;
    EXPECT_GT(s.semaphoreFileOffset, 0u) << s.name;
    EXPECT_LT(s.semaphoreFileOffset, bytes.size()) << s.name;
  }
  const auto probes = byProbe(*read);
  const UsdtSite& entry = only(probes, "python:function__entry");
  ASSERT_EQ(entry.args.size(), 3u);
  // filename, function name (pointers), line number (int).
  EXPECT_EQ(entry.args[0].size, 8);
  EXPECT_EQ(entry.args[1].size, 8);
  EXPECT_EQ(entry.args[2].size, 4);
  EXPECT_TRUE(entry.args[2].isSigned);
}

TEST(UsdtNotes, ObjectsWithoutNotes) {
  auto read = readUsdtSites(kWorkloads + "/getppid");
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_TRUE(read->empty());
}

TEST(UsdtNotes, Errors) {
  auto missing = readUsdtSites("/nonexistent/usdt");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("/nonexistent/usdt"), std::string::npos);

  TempDir dir;
  const std::string text = dir.path() + "/text";
  std::ofstream(text) << "not an object\n";
  auto notElf = readUsdtSites(text);
  ASSERT_FALSE(notElf.ok());
  EXPECT_NE(notElf.error().message.find("not an ELF"), std::string::npos) << notElf.error().message;
}

}  // namespace
}  // namespace dtrace::sym

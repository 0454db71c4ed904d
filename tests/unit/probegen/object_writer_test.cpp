#include "probegen/object_writer.h"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <gtest/gtest.h>
#include <libelf.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "probegen/input_objects.h"
#include "probegen_test_util.h"
#include "sym/provider_section.h"

namespace dtrace::probegen {
namespace {

namespace fs = std::filesystem;

struct Section {
  uint32_t type = 0;
  uint64_t flags = 0, size = 0, align = 0;
};
struct Symbol {
  unsigned bind = 0, type = 0, visibility = 0;
  uint64_t value = 0, size = 0;
  std::string section;
};

// What an object holds, read back with libelf.
struct ObjectContents {
  GElf_Ehdr ehdr{};
  std::map<std::string, Section> sections;
  std::map<std::string, Symbol> symbols;
};

ObjectContents readBack(const std::string& path) {
  ObjectContents out;
  elf_version(EV_CURRENT);
  int fd = open(path.c_str(), O_RDONLY);
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  EXPECT_NE(elf, nullptr);
  if (!elf) return out;
  gelf_getehdr(elf, &out.ehdr);
  size_t names = 0;
  elf_getshdrstrndx(elf, &names);
  std::map<size_t, std::string> sectionNames;
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    gelf_getshdr(scn, &shdr);
    std::string name = elf_strptr(elf, names, shdr.sh_name);
    sectionNames[elf_ndxscn(scn)] = name;
    out.sections[name] = {shdr.sh_type, shdr.sh_flags, shdr.sh_size, shdr.sh_addralign};
    if (shdr.sh_type != SHT_SYMTAB) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    for (size_t i = 1; i < shdr.sh_size / shdr.sh_entsize; i++) {
      GElf_Sym sym;
      gelf_getsym(data, static_cast<int>(i), &sym);
      out.symbols[elf_strptr(elf, shdr.sh_link, sym.st_name)] = {
          // The macros give ints; clang refuses them narrowed in braces.
          static_cast<unsigned>(GELF_ST_BIND(sym.st_info)),
          static_cast<unsigned>(GELF_ST_TYPE(sym.st_info)),
          static_cast<unsigned>(GELF_ST_VISIBILITY(sym.st_other)),
          sym.st_value,
          sym.st_size,
          sym.st_shndx == SHN_ABS ? "ABS" : sectionNames[sym.st_shndx]};
    }
  }
  elf_end(elf);
  close(fd);
  return out;
}

class ObjectWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("probegen-test-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

const char* const kProviders =
    "provider myapp { probe query__start(char *, int); probe done(); };\n"
    "provider other { probe tick(long) : (long); };\n";

TEST_F(ObjectWriterTest, DefinesEverySemaphoreHiddenInProbes) {
  auto providers = testing::providersOf(kProviders);
  ASSERT_TRUE(providers) << providers.error().message;
  const std::string out = path("p.o");
  ASSERT_TRUE(writeProviderObject(out, *providers, {ELFCLASS64, ELFDATA2LSB, EM_X86_64}, "p.d"));
  ObjectContents o = readBack(out);
  EXPECT_EQ(o.ehdr.e_type, ET_REL);
  EXPECT_EQ(o.ehdr.e_machine, EM_X86_64);
  EXPECT_EQ(o.ehdr.e_ident[EI_CLASS], ELFCLASS64);
  ASSERT_TRUE(o.sections.count(".probes"));
  EXPECT_EQ(o.sections[".probes"].type, static_cast<uint32_t>(SHT_PROGBITS));
  EXPECT_EQ(o.sections[".probes"].flags, static_cast<uint64_t>(SHF_ALLOC | SHF_WRITE));
  EXPECT_EQ(o.sections[".probes"].size, 6u);
  ASSERT_TRUE(o.sections.count(".note.GNU-stack"));
  EXPECT_EQ(o.sections[".note.GNU-stack"].flags, 0u);
  EXPECT_EQ(o.sections[".note.GNU-stack"].size, 0u);
  EXPECT_EQ(o.sections[".dtrace_providers"].flags, 0u);  // not loaded
  uint64_t offsets = 0;
  for (const char* name :
       {"myapp_query__start_semaphore", "myapp_done_semaphore", "other_tick_semaphore"}) {
    ASSERT_TRUE(o.symbols.count(name)) << name;
    const Symbol& s = o.symbols[name];
    EXPECT_EQ(s.bind, static_cast<unsigned>(STB_GLOBAL)) << name;
    EXPECT_EQ(s.type, static_cast<unsigned>(STT_OBJECT)) << name;
    EXPECT_EQ(s.visibility, static_cast<unsigned>(STV_HIDDEN)) << name;
    EXPECT_EQ(s.size, 2u) << name;
    EXPECT_EQ(s.section, ".probes") << name;
    offsets |= uint64_t{1} << s.value;
  }
  EXPECT_EQ(offsets, 0b10101u);  // 0, 2 and 4: one each
  EXPECT_EQ(o.symbols["p.d"].type, static_cast<unsigned>(STT_FILE));
}

TEST_F(ObjectWriterTest, ProviderSectionDecodes) {
  auto providers = testing::providersOf(kProviders);
  ASSERT_TRUE(providers);
  const std::string out = path("p.o");
  ASSERT_TRUE(writeProviderObject(out, *providers, {ELFCLASS64, ELFDATA2LSB, EM_X86_64}, "p.d"));
  auto decoded = sym::readProviderSection(out);
  ASSERT_TRUE(decoded) << decoded.error().message;
  ASSERT_EQ(decoded->size(), 2u);
  EXPECT_EQ(decoded->at(0), sectionForm(providers->at(0), DataModel::LP64));
  EXPECT_EQ(decoded->at(1).probes.at(0).nativeArgs.at(0), (sym::ProviderArgType{"long", -8}));
}

TEST_F(ObjectWriterTest, ThirtyTwoBitObjectsHaveFourBytePointers) {
  auto providers = testing::providersOf(kProviders);
  ASSERT_TRUE(providers);
  const std::string out = path("p32.o");
  ASSERT_TRUE(writeProviderObject(out, *providers, {ELFCLASS32, ELFDATA2LSB, EM_386}, "p.d"));
  ObjectContents o = readBack(out);
  EXPECT_EQ(o.ehdr.e_ident[EI_CLASS], ELFCLASS32);
  EXPECT_EQ(o.ehdr.e_machine, EM_386);
  EXPECT_EQ(o.symbols["myapp_done_semaphore"].section, ".probes");
  auto decoded = sym::readProviderSection(out);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->at(0).probes.at(0).nativeArgs.at(0), (sym::ProviderArgType{"char *", 4}));
  // And dtrace -G takes it as an operand like any relocatable object.
  auto input = readInputObject(out);
  ASSERT_TRUE(input) << input.error().message;
  EXPECT_EQ(input->target, (ElfTarget{ELFCLASS32, ELFDATA2LSB, EM_386}));
}

TEST_F(ObjectWriterTest, NoProvidersStillMakesALinkableObject) {
  const std::string out = path("empty.o");
  ASSERT_TRUE(writeProviderObject(out, {}, {ELFCLASS64, ELFDATA2LSB, EM_X86_64}, "conftest.d"));
  ObjectContents o = readBack(out);
  EXPECT_EQ(o.ehdr.e_type, ET_REL);
  EXPECT_FALSE(o.sections.count(".probes"));
  EXPECT_TRUE(o.sections.count(".note.GNU-stack"));
}

TEST_F(ObjectWriterTest, InputsMustBeRelocatableELF) {
  std::ofstream(path("text.o")) << "not an object\n";
  auto text = readInputObject(path("text.o"));
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().message, "invalid file type: " + path("text.o"));
  auto missing = readInputObject(path("missing.o"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message,
            "failed to open " + path("missing.o") + ": No such file or directory");
  auto executable = readInputObject("/proc/self/exe");
  ASSERT_FALSE(executable);
  EXPECT_EQ(executable.error().message,
            "not a relocatable object (as cc -c writes): /proc/self/exe");
}

TEST_F(ObjectWriterTest, FailedWriteLeavesNoFile) {
  auto r =
      writeProviderObject(path("no/such/dir.o"), {}, {ELFCLASS64, ELFDATA2LSB, EM_X86_64}, "x.d");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "failed to open " + path("no/such/dir.o") + ": No such file or directory");
}

}  // namespace
}  // namespace dtrace::probegen

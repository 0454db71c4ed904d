#include "sym/provider_section.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <map>
#include <optional>

#include "util/fd.h"

namespace dtrace::sym {

namespace {

constexpr std::string_view kBlockTag = "dtrace-providers";
constexpr int kFormatVersion = 1;

void appendRecord(std::string& out, const std::string& record) {
  out += record;
  out += '\0';
}

// The next space-separated field of `rest`, removed from it.
std::string_view takeField(std::string_view& rest) {
  size_t space = rest.find(' ');
  std::string_view field = rest.substr(0, space);
  rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
  return field;
}

template <class Int>
std::optional<Int> parseInt(std::string_view text) {
  Int value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Reads records one at a time and builds the providers they describe.
class Decoder {
 public:
  explicit Decoder(std::string_view bytes) : bytes_(bytes) {}

  Result<std::vector<ProviderDefinition>> run() {
    while (auto record = next()) {
      if (record->empty()) continue;  // padding between concatenated blocks
      std::string_view rest = *record;
      std::string_view kind = takeField(rest);
      if (kind == kBlockTag) {
        auto version = parseInt<int>(rest);
        if (!version) return malformed("a block's version");
        if (*version != kFormatVersion) {
          return makeError("unsupported " + std::string(kProviderSectionName) + " version " +
                           std::string(rest) + " (record " + std::to_string(index_) + ")");
        }
        inBlock_ = true;
        provider_ = nullptr;
      } else if (!inBlock_) {
        return malformed("records before the block's first record");
      } else if (kind == "provider") {
        if (rest.empty() || rest.find(' ') != std::string_view::npos) {
          return malformed("a provider name");
        }
        provider_ = &providerNamed(std::string(rest));
      } else if (kind == "probe") {
        if (auto r = probe(rest); !r) return r.error();
      } else {
        return malformed("a record kind");
      }
    }
    std::vector<ProviderDefinition> out;
    out.reserve(order_.size());
    for (const std::string& name : order_) out.push_back(std::move(providers_[name]));
    return out;
  }

 private:
  std::optional<std::string_view> next() {
    if (pos_ >= bytes_.size()) return std::nullopt;
    size_t end = bytes_.find('\0', pos_);
    if (end == std::string_view::npos) end = bytes_.size();  // a last record cut short
    std::string_view record = bytes_.substr(pos_, end - pos_);
    pos_ = end + 1;
    index_++;
    return record;
  }

  Error malformed(const std::string& what) const {
    return makeError("malformed " + std::string(kProviderSectionName) + " section: " + what +
                     " (record " + std::to_string(index_) + ")");
  }

  ProviderDefinition& providerNamed(const std::string& name) {
    auto [it, added] = providers_.try_emplace(name);
    if (added) {
      it->second.name = name;
      order_.push_back(name);
    }
    return it->second;
  }

  // "probe NAME NARGS NXARGS" and the argument records that follow it.
  Result<void> probe(std::string_view rest) {
    if (!provider_) return malformed("a probe outside a provider");
    ProviderProbe p;
    p.name = std::string(takeField(rest));
    auto nargs = parseInt<uint32_t>(takeField(rest));
    auto nxargs = parseInt<uint32_t>(rest);
    if (p.name.empty() || !nargs || !nxargs) return malformed("a probe record");
    for (uint32_t i = 0; i < *nargs; i++) {
      auto record = next();
      if (!record) return malformed("a probe's arguments");
      std::string_view fields = *record;
      if (takeField(fields) != "arg") return malformed("a probe's arguments");
      auto arg = argType(fields);
      if (!arg) return malformed("an argument record");
      p.nativeArgs.push_back(std::move(*arg));
    }
    for (uint32_t i = 0; i < *nxargs; i++) {
      auto record = next();
      if (!record) return malformed("a probe's translated arguments");
      std::string_view fields = *record;
      if (takeField(fields) != "xarg") return malformed("a probe's translated arguments");
      auto from = parseInt<uint32_t>(takeField(fields));
      auto arg = argType(fields);
      if (!from || !arg || *from >= p.nativeArgs.size()) {
        return malformed("a translated argument record");
      }
      p.argMapping.push_back(*from);
      p.translatedArgs.push_back(std::move(*arg));
    }
    for (const ProviderProbe& old : provider_->probes) {
      if (old.name == p.name) return {};  // the first definition stands
    }
    provider_->probes.push_back(std::move(p));
    return {};
  }

  // "SIZE TYPE"
  static std::optional<ProviderArgType> argType(std::string_view fields) {
    auto size = parseInt<int32_t>(takeField(fields));
    if (!size || fields.empty()) return std::nullopt;
    return ProviderArgType{std::string(fields), *size};
  }

  std::string_view bytes_;
  size_t pos_ = 0;
  size_t index_ = 0;  // 1-based number of the record last read
  bool inBlock_ = false;
  std::map<std::string, ProviderDefinition> providers_;
  std::vector<std::string> order_;  // providers in order of first appearance
  ProviderDefinition* provider_ = nullptr;
};

}  // namespace

std::string encodeProviderSection(const std::vector<ProviderDefinition>& providers) {
  std::string out;
  appendRecord(out, std::string(kBlockTag) + " " + std::to_string(kFormatVersion));
  for (const ProviderDefinition& provider : providers) {
    appendRecord(out, "provider " + provider.name);
    for (const ProviderProbe& probe : provider.probes) {
      appendRecord(out, "probe " + probe.name + " " + std::to_string(probe.nativeArgs.size()) +
                            " " + std::to_string(probe.translatedArgs.size()));
      for (const ProviderArgType& arg : probe.nativeArgs) {
        appendRecord(out, "arg " + std::to_string(arg.size) + " " + arg.type);
      }
      for (size_t i = 0; i < probe.translatedArgs.size(); i++) {
        const ProviderArgType& arg = probe.translatedArgs[i];
        const size_t from = i < probe.argMapping.size() ? probe.argMapping[i] : i;
        appendRecord(
            out, "xarg " + std::to_string(from) + " " + std::to_string(arg.size) + " " + arg.type);
      }
    }
  }
  return out;
}

Result<std::vector<ProviderDefinition>> decodeProviderSection(std::string_view bytes) {
  return Decoder(bytes).run();
}

Result<std::vector<ProviderDefinition>> readProviderSection(const std::string& path) {
  if (elf_version(EV_CURRENT) == EV_NONE) return makeError("libelf is out of date");
  Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return makeError("failed to open " + path + ": " + std::strerror(errno));
  Elf* elf = elf_begin(fd.get(), ELF_C_READ, nullptr);
  auto finish = [&](Result<std::vector<ProviderDefinition>> r) {
    if (elf) elf_end(elf);
    fd.reset();
    return r;
  };
  size_t names = 0;
  if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &names) != 0) {
    return finish(makeError("failed to process " + path + ": not an ELF file"));
  }
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr)) continue;
    const char* name = elf_strptr(elf, names, shdr.sh_name);
    if (!name || kProviderSectionName != name || shdr.sh_type == SHT_NOBITS) continue;
    Elf_Data* data = elf_rawdata(scn, nullptr);
    if (!data || !data->d_buf) return finish(std::vector<ProviderDefinition>{});
    return finish(decodeProviderSection(
        std::string_view(static_cast<const char*>(data->d_buf), data->d_size)));
  }
  return finish(std::vector<ProviderDefinition>{});
}

}  // namespace dtrace::sym

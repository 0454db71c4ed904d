#include "sym/cfi_fde_ranges.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>

#include <cstring>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace dtrace::sym {

namespace {

// How a CIE's FDEs encode their addresses.
struct CieFacts {
  uint8_t pointerEncoding = DW_EH_PE_absptr;
  bool signalFrame = false;
};

// Reads bytes of the section; a cursor that stops (returns nullopt) at its end.
class Reader {
 public:
  Reader(const uint8_t* at, const uint8_t* end) : at_(at), end_(end) {}
  const uint8_t* position() const { return at_; }

  std::optional<uint64_t> fixed(size_t bytes, bool isSigned) {
    if (static_cast<size_t>(end_ - at_) < bytes) return std::nullopt;
    uint64_t value = 0;
    std::memcpy(&value, at_, bytes);  // x86-64 objects: little-endian, as the host
    at_ += bytes;
    if (isSigned && bytes < 8 && (value >> (bytes * 8 - 1)) & 1) value |= ~0ULL << (bytes * 8);
    return value;
  }

  std::optional<uint64_t> leb128(bool isSigned) {
    uint64_t value = 0;
    unsigned shift = 0;
    while (at_ < end_) {
      const uint8_t byte = *at_++;
      if (shift < 64) value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      shift += 7;
      if (!(byte & 0x80)) {
        if (isSigned && shift < 64 && (byte & 0x40)) value |= ~0ULL << shift;
        return value;
      }
    }
    return std::nullopt;
  }

  // A value in a DW_EH_PE_* format (the low four bits of an encoding).
  std::optional<uint64_t> encoded(uint8_t encoding, size_t addressSize) {
    switch (encoding & 0x0f) {
      case DW_EH_PE_absptr:
        return fixed(addressSize, false);
      case DW_EH_PE_uleb128:
        return leb128(false);
      case DW_EH_PE_udata2:
        return fixed(2, false);
      case DW_EH_PE_udata4:
        return fixed(4, false);
      case DW_EH_PE_udata8:
        return fixed(8, false);
      case DW_EH_PE_sleb128:
        return leb128(true);
      case DW_EH_PE_sdata2:
        return fixed(2, true);
      case DW_EH_PE_sdata4:
        return fixed(4, true);
      case DW_EH_PE_sdata8:
        return fixed(8, true);
      default:
        return std::nullopt;
    }
  }

 private:
  const uint8_t* at_;
  const uint8_t* end_;
};

// The pointer encoding ('R') and signal-frame mark ('S') of a CIE's
// augmentation; other letters only need skipping over.
CieFacts cieFacts(const Dwarf_CIE& cie, size_t addressSize) {
  CieFacts facts;
  std::string_view augmentation = cie.augmentation ? cie.augmentation : "";
  if (augmentation.empty() || augmentation[0] != 'z') return facts;
  Reader data(cie.augmentation_data, cie.augmentation_data + cie.augmentation_data_size);
  for (char letter : augmentation.substr(1)) {
    if (letter == 'R') {
      if (auto e = data.fixed(1, false)) facts.pointerEncoding = static_cast<uint8_t>(*e);
    } else if (letter == 'L') {
      (void)data.fixed(1, false);
    } else if (letter == 'P') {
      auto personalityEncoding = data.fixed(1, false);
      if (!personalityEncoding) break;
      (void)data.encoded(static_cast<uint8_t>(*personalityEncoding), addressSize);
    } else if (letter == 'S') {
      facts.signalFrame = true;
    } else {
      break;  // an augmentation not understood: what follows cannot be read
    }
  }
  return facts;
}

Elf_Scn* sectionNamed(Elf* elf, const char* name) {
  size_t namesIndex = 0;
  if (elf_getshdrstrndx(elf, &namesIndex) != 0) return nullptr;
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr header;
    if (!gelf_getshdr(scn, &header)) continue;
    const char* sectionName = elf_strptr(elf, namesIndex, header.sh_name);
    if (sectionName && std::strcmp(sectionName, name) == 0) {
      return header.sh_type == SHT_NOBITS ? nullptr : scn;
    }
  }
  return nullptr;
}

}  // namespace

std::vector<FdeRange> fdeRanges(Elf* elf, const char* sectionName) {
  std::vector<FdeRange> ranges;
  const bool ehFrame = std::strcmp(sectionName, ".eh_frame") == 0;
  Elf_Scn* scn = sectionNamed(elf, sectionName);
  GElf_Shdr header;
  if (!scn || !gelf_getshdr(scn, &header)) return ranges;
  // libdw decompresses the debug sections it opens; this one may not be yet.
  if ((header.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0) return ranges;
  Elf_Data* data = elf_getdata(scn, nullptr);
  const unsigned char* ident = reinterpret_cast<const unsigned char*>(elf_getident(elf, nullptr));
  if (!data || !data->d_buf || !ident) return ranges;
  const size_t addressSize = ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
  const auto* base = static_cast<const uint8_t*>(data->d_buf);

  std::unordered_map<Dwarf_Off, CieFacts> cies;
  std::vector<Dwarf_FDE> fdes;
  for (Dwarf_Off offset = 0, next = 0; offset != static_cast<Dwarf_Off>(-1); offset = next) {
    Dwarf_CFI_Entry entry;
    const int status = dwarf_next_cfi(ident, data, ehFrame, offset, &next, &entry);
    if (status > 0) break;
    if (status < 0) {
      if (next == offset || next == static_cast<Dwarf_Off>(-1)) break;
      continue;  // an unusable entry libdw could skip
    }
    if (dwarf_cfi_cie_p(&entry)) {
      cies[offset] = cieFacts(entry.cie, addressSize);
    } else {
      fdes.push_back(entry.fde);
    }
  }

  for (const Dwarf_FDE& fde : fdes) {
    auto cie = cies.find(fde.CIE_pointer);
    if (cie == cies.end()) continue;
    const uint8_t encoding = ehFrame ? cie->second.pointerEncoding : uint8_t{DW_EH_PE_absptr};
    Reader reader(fde.start, fde.end);
    const uint64_t fieldAddress = header.sh_addr + static_cast<uint64_t>(fde.start - base);
    auto start = reader.encoded(encoding, addressSize);
    // The range is a plain length: only the format of the encoding applies.
    auto length = reader.encoded(encoding & 0x0f, addressSize);
    if (!start || !length || *length == 0) continue;
    if (encoding & DW_EH_PE_indirect) continue;
    if ((encoding & 0x70) == DW_EH_PE_pcrel) {
      *start += fieldAddress;
    } else if ((encoding & 0x70) != DW_EH_PE_absptr) {
      continue;  // relative to a text or data base: not used on x86-64
    }
    if (*start == 0) continue;
    ranges.push_back({*start, *start + *length, cie->second.signalFrame});
  }
  return ranges;
}

}  // namespace dtrace::sym

#include "sym/vdso_image.h"

#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include <string>

#include "sym/process_maps.h"

namespace dtrace::sym {

namespace {

VdsoImage readVdso() {
  VdsoImage image{std::make_shared<const ObjectFile>(), 0};
  const uint64_t start = getauxval(AT_SYSINFO_EHDR);
  if (start == 0) return image;
  for (const Mapping& m : readExecutableMappings(getpid())) {
    if (m.start == start) image.size = m.end - m.start;
  }
  if (image.size == 0) return image;
  // elfutils reads objects by path: the image goes into a memory file.
  const int fd = memfd_create("vdso", MFD_CLOEXEC);
  if (fd < 0) return image;
  const auto* bytes = reinterpret_cast<const char*>(start);
  if (write(fd, bytes, image.size) == static_cast<ssize_t>(image.size)) {
    image.object = ObjectFile::load("/proc/self/fd/" + std::to_string(fd));
  }
  close(fd);
  return image;
}

}  // namespace

const VdsoImage& vdsoImage() {
  static const VdsoImage image = readVdso();
  return image;
}

}  // namespace dtrace::sym

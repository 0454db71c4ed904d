# Block I/O a process causes: io:::start as each request is issued
# (bufinfo_t: direction and size; devinfo_t: the device), io:::done as it
# completes (in interrupt context: matched to its start by device and
# block number).
# The workload writes and reads 256 KiB with O_DIRECT in /var/tmp, which
# must be on a block device.
work=$(mktemp -d -p /var/tmp)
trap 'rm -rf "$work"' EXIT
cat >"$work/direct.c" <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char** argv) {
  (void)argc;
  void* buf;
  if (posix_memalign(&buf, 4096, 65536)) return 1;
  memset(buf, 'x', 65536);
  int fd = open(argv[1], O_RDWR | O_CREAT | O_DIRECT, 0600);
  if (fd < 0) return 1;
  for (int i = 0; i < 4; i++) if (write(fd, buf, 65536) != 65536) return 1;
  fsync(fd);
  for (int i = 0; i < 4; i++) if (pread(fd, buf, 65536, 65536 * i) != 65536) return 1;
  return close(fd);
}
C
gcc -o "$work/direct" "$work/direct.c" || exit 1
# A request may be issued from a kernel worker when the device is busy, so
# requests are told apart by size and direction rather than by process.
$DTRACE -q -c "$work/direct $work/data" -n '
  io:::start /args[0]->b_bcount == 65536 && (args[0]->b_flags & B_READ)/ { reads++; }
  io:::start /args[0]->b_bcount == 65536 && (args[0]->b_flags & B_WRITE)/ { writes++; }
  io:::start /args[0]->b_bcount == 65536/ {
    named = args[1]->dev_pathname == strjoin("/dev/", args[1]->dev_statname) &&
        args[1]->dev_major == getmajor(args[0]->b_edev);
    issued[args[0]->b_edev, args[0]->b_blkno] = 1;
  }
  io:::done /issued[args[0]->b_edev, args[0]->b_blkno]/ {
    done++;
    issued[args[0]->b_edev, args[0]->b_blkno] = 0;
  }
  END {
    printf("64 KiB reads issued, at least 4: %d\n", reads >= 4);
    printf("64 KiB writes issued, at least 4: %d\n", writes >= 4);
    printf("device named: %d\n", named);
    printf("requests completed, at least 8: %d\n", done >= 8);
  }'

// io.d: the io provider's argument types, bufinfo_t, devinfo_t and
// fileinfo_t, with their translators from the block layer's struct
// request (the tracepoints block_rq_issue and block_rq_complete pass one).
#include "driver/d_library.h"

namespace dtrace::driver {

extern const char kIoLibrarySource[] = R"D(
typedef char *caddr_t;

typedef struct bufinfo {
  int b_flags;
  size_t b_bcount;
  caddr_t b_addr;
  uint64_t b_lblkno;
  uint64_t b_blkno;
  size_t b_resid;
  size_t b_bufsize;
  caddr_t b_iodone;
  int b_error;
  dev_t b_edev;
} bufinfo_t;

inline int B_BUSY = 0x000001;
inline int B_DONE = 0x000002;
inline int B_ERROR = 0x000004;
inline int B_PAGEIO = 0x000010;
inline int B_PHYS = 0x000020;
inline int B_READ = 0x000040;
inline int B_WRITE = 0x000100;
inline int B_ASYNC = 0x000400;

typedef struct devinfo {
  int dev_major;
  int dev_minor;
  int dev_instance;
  string dev_name;
  string dev_statname;
  string dev_pathname;
} devinfo_t;

typedef struct fileinfo {
  string fi_name;
  string fi_dirname;
  string fi_pathname;
  loff_t fi_offset;
  string fi_fs;
  string fi_mount;
  int fi_oflags;
} fileinfo_t;

/*
 * The operation is the low 8 bits of cmd_flags (REQ_OP_READ 0,
 * REQ_OP_WRITE 1); REQ_SYNC is bit 11. Sectors are 512 bytes, as
 * illumos's b_blkno counts them. The device is the partition the request
 * is for (its number in the low 8 bits of __bd_flags), else the disk.
 */
translator bufinfo_t < struct request *R > {
  b_flags = ((R->cmd_flags & 0xff) == 0 ? B_READ : (R->cmd_flags & 0xff) == 1 ? B_WRITE : 0) |
      ((R->cmd_flags & 0x800) ? 0 : B_ASYNC);
  b_bcount = R->__data_len;
  b_lblkno = R->__sector;
  b_blkno = R->__sector;
  b_bufsize = R->__data_len;
  b_edev = R->part != NULL ? R->part->bd_dev : 0;
};

translator devinfo_t < struct request *R > {
  dev_major = R->part != NULL ? getmajor(R->part->bd_dev) : R->q->disk->major;
  dev_minor = R->part != NULL ? getminor(R->part->bd_dev) : R->q->disk->first_minor;
  dev_instance = R->q->disk->minors > 0 ? R->q->disk->first_minor / R->q->disk->minors : 0;
  dev_name = R->q->disk->part0->bd_device.parent != NULL &&
      R->q->disk->part0->bd_device.parent->driver != NULL ?
      stringof(R->q->disk->part0->bd_device.parent->driver->name) :
      stringof(R->q->disk->disk_name);
  dev_statname = R->part == NULL || (R->part->__bd_flags.counter & 255) == 0 ?
      stringof(R->q->disk->disk_name) :
      strjoin(stringof(R->q->disk->disk_name), lltostr(R->part->__bd_flags.counter & 255));
  dev_pathname = strjoin("/dev/", R->part == NULL || (R->part->__bd_flags.counter & 255) == 0 ?
      stringof(R->q->disk->disk_name) :
      strjoin(stringof(R->q->disk->disk_name), lltostr(R->part->__bd_flags.counter & 255)));
};

/* A request does not know the file it reads or writes. */
translator fileinfo_t < struct request *R > {
  fi_name = "<unknown>";
  fi_dirname = "<unknown>";
  fi_pathname = "<unknown>";
  fi_offset = 0;
  fi_fs = "<unknown>";
  fi_mount = "<unknown>";
  fi_oflags = 0;
};
)D";

}  // namespace dtrace::driver

#include "driver/d_library.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <string>

#include "driver/cpu_topology.h"
#include "ir/program.h"

namespace dtrace::driver {

namespace {

// illumos's NULL is `inline long NULL = 0`, but its lexer turns a use of an
// integer-constant inline into a copy of the constant itself, so NULL is
// the int 0 (sizeof (NULL) == 4). Declaring it int gives the same.
const char* const kNullSource = "inline int NULL = 0;\n";

// Address families carry Linux's values (illumos has AF_INET6 = 26).
const char* const kNetSource = R"D(
typedef struct in6_addr in6_addr_t;
inline int AF_INET = 2;
inline int AF_INET6 = 10;
inline int ARPHRD_ETHER = 1;
inline int ARPHRD_INFINIBAND = 32;
)D";

struct Constant {
  const char* name;
  long long value;
};

// Named after the C macro whose value it takes from this system's headers.
#define DTRACE_LIBRARY_CONSTANT(name) \
  { #name, name }

// unistd.d: the ERROR probe's arg4, numbered as ir::Fault numbers faults.
const Constant kFaults[] = {
    {"DTRACEFLT_UNKNOWN", static_cast<long long>(ir::Fault::None)},
    {"DTRACEFLT_BADADDR", static_cast<long long>(ir::Fault::BadAddr)},
    {"DTRACEFLT_BADALIGN", static_cast<long long>(ir::Fault::BadAlign)},
    {"DTRACEFLT_ILLOP", static_cast<long long>(ir::Fault::IllOp)},
    {"DTRACEFLT_DIVZERO", static_cast<long long>(ir::Fault::DivZero)},
    {"DTRACEFLT_NOSCRATCH", static_cast<long long>(ir::Fault::NoScratch)},
    {"DTRACEFLT_KPRIV", static_cast<long long>(ir::Fault::KPriv)},
    {"DTRACEFLT_UPRIV", static_cast<long long>(ir::Fault::UPriv)},
    {"DTRACEFLT_TUPOFLOW", static_cast<long long>(ir::Fault::TupOflow)},
    {"DTRACEFLT_BADSTACK", static_cast<long long>(ir::Fault::BadStack)},
    {"DTRACEFLT_BADINDEX", static_cast<long long>(ir::Fault::BadIndex)},
    {"DTRACEFLT_LIBRARY", 1000},  // illumos: faults found by libdtrace itself
};

// errno.d: illumos generates it from <sys/errno.h>; here the names Linux
// has, with Linux's values (the errno built-in holds Linux's numbers).
const Constant kErrnos[] = {
    DTRACE_LIBRARY_CONSTANT(EPERM),
    DTRACE_LIBRARY_CONSTANT(ENOENT),
    DTRACE_LIBRARY_CONSTANT(ESRCH),
    DTRACE_LIBRARY_CONSTANT(EINTR),
    DTRACE_LIBRARY_CONSTANT(EIO),
    DTRACE_LIBRARY_CONSTANT(ENXIO),
    DTRACE_LIBRARY_CONSTANT(E2BIG),
    DTRACE_LIBRARY_CONSTANT(ENOEXEC),
    DTRACE_LIBRARY_CONSTANT(EBADF),
    DTRACE_LIBRARY_CONSTANT(ECHILD),
    DTRACE_LIBRARY_CONSTANT(EAGAIN),
    DTRACE_LIBRARY_CONSTANT(ENOMEM),
    DTRACE_LIBRARY_CONSTANT(EACCES),
    DTRACE_LIBRARY_CONSTANT(EFAULT),
    DTRACE_LIBRARY_CONSTANT(ENOTBLK),
    DTRACE_LIBRARY_CONSTANT(EBUSY),
    DTRACE_LIBRARY_CONSTANT(EEXIST),
    DTRACE_LIBRARY_CONSTANT(EXDEV),
    DTRACE_LIBRARY_CONSTANT(ENODEV),
    DTRACE_LIBRARY_CONSTANT(ENOTDIR),
    DTRACE_LIBRARY_CONSTANT(EISDIR),
    DTRACE_LIBRARY_CONSTANT(EINVAL),
    DTRACE_LIBRARY_CONSTANT(ENFILE),
    DTRACE_LIBRARY_CONSTANT(EMFILE),
    DTRACE_LIBRARY_CONSTANT(ENOTTY),
    DTRACE_LIBRARY_CONSTANT(ETXTBSY),
    DTRACE_LIBRARY_CONSTANT(EFBIG),
    DTRACE_LIBRARY_CONSTANT(ENOSPC),
    DTRACE_LIBRARY_CONSTANT(ESPIPE),
    DTRACE_LIBRARY_CONSTANT(EROFS),
    DTRACE_LIBRARY_CONSTANT(EMLINK),
    DTRACE_LIBRARY_CONSTANT(EPIPE),
    DTRACE_LIBRARY_CONSTANT(EDOM),
    DTRACE_LIBRARY_CONSTANT(ERANGE),
    DTRACE_LIBRARY_CONSTANT(EDEADLK),
    DTRACE_LIBRARY_CONSTANT(ENAMETOOLONG),
    DTRACE_LIBRARY_CONSTANT(ENOLCK),
    DTRACE_LIBRARY_CONSTANT(ENOSYS),
    DTRACE_LIBRARY_CONSTANT(ENOTEMPTY),
    DTRACE_LIBRARY_CONSTANT(ELOOP),
    DTRACE_LIBRARY_CONSTANT(EWOULDBLOCK),
    DTRACE_LIBRARY_CONSTANT(ENOMSG),
    DTRACE_LIBRARY_CONSTANT(EIDRM),
    DTRACE_LIBRARY_CONSTANT(ECHRNG),
    DTRACE_LIBRARY_CONSTANT(EL2NSYNC),
    DTRACE_LIBRARY_CONSTANT(EL3HLT),
    DTRACE_LIBRARY_CONSTANT(EL3RST),
    DTRACE_LIBRARY_CONSTANT(ELNRNG),
    DTRACE_LIBRARY_CONSTANT(EUNATCH),
    DTRACE_LIBRARY_CONSTANT(ENOCSI),
    DTRACE_LIBRARY_CONSTANT(EL2HLT),
    DTRACE_LIBRARY_CONSTANT(EBADE),
    DTRACE_LIBRARY_CONSTANT(EBADR),
    DTRACE_LIBRARY_CONSTANT(EXFULL),
    DTRACE_LIBRARY_CONSTANT(ENOANO),
    DTRACE_LIBRARY_CONSTANT(EBADRQC),
    DTRACE_LIBRARY_CONSTANT(EBADSLT),
    DTRACE_LIBRARY_CONSTANT(EDEADLOCK),
    DTRACE_LIBRARY_CONSTANT(EBFONT),
    DTRACE_LIBRARY_CONSTANT(ENOSTR),
    DTRACE_LIBRARY_CONSTANT(ENODATA),
    DTRACE_LIBRARY_CONSTANT(ETIME),
    DTRACE_LIBRARY_CONSTANT(ENOSR),
    DTRACE_LIBRARY_CONSTANT(ENONET),
    DTRACE_LIBRARY_CONSTANT(ENOPKG),
    DTRACE_LIBRARY_CONSTANT(EREMOTE),
    DTRACE_LIBRARY_CONSTANT(ENOLINK),
    DTRACE_LIBRARY_CONSTANT(EADV),
    DTRACE_LIBRARY_CONSTANT(ESRMNT),
    DTRACE_LIBRARY_CONSTANT(ECOMM),
    DTRACE_LIBRARY_CONSTANT(EPROTO),
    DTRACE_LIBRARY_CONSTANT(EMULTIHOP),
    DTRACE_LIBRARY_CONSTANT(EDOTDOT),
    DTRACE_LIBRARY_CONSTANT(EBADMSG),
    DTRACE_LIBRARY_CONSTANT(EOVERFLOW),
    DTRACE_LIBRARY_CONSTANT(ENOTUNIQ),
    DTRACE_LIBRARY_CONSTANT(EBADFD),
    DTRACE_LIBRARY_CONSTANT(EREMCHG),
    DTRACE_LIBRARY_CONSTANT(ELIBACC),
    DTRACE_LIBRARY_CONSTANT(ELIBBAD),
    DTRACE_LIBRARY_CONSTANT(ELIBSCN),
    DTRACE_LIBRARY_CONSTANT(ELIBMAX),
    DTRACE_LIBRARY_CONSTANT(ELIBEXEC),
    DTRACE_LIBRARY_CONSTANT(EILSEQ),
    DTRACE_LIBRARY_CONSTANT(ERESTART),
    DTRACE_LIBRARY_CONSTANT(ESTRPIPE),
    DTRACE_LIBRARY_CONSTANT(EUSERS),
    DTRACE_LIBRARY_CONSTANT(ENOTSOCK),
    DTRACE_LIBRARY_CONSTANT(EDESTADDRREQ),
    DTRACE_LIBRARY_CONSTANT(EMSGSIZE),
    DTRACE_LIBRARY_CONSTANT(EPROTOTYPE),
    DTRACE_LIBRARY_CONSTANT(ENOPROTOOPT),
    DTRACE_LIBRARY_CONSTANT(EPROTONOSUPPORT),
    DTRACE_LIBRARY_CONSTANT(ESOCKTNOSUPPORT),
    DTRACE_LIBRARY_CONSTANT(EOPNOTSUPP),
    DTRACE_LIBRARY_CONSTANT(ENOTSUP),
    DTRACE_LIBRARY_CONSTANT(EPFNOSUPPORT),
    DTRACE_LIBRARY_CONSTANT(EAFNOSUPPORT),
    DTRACE_LIBRARY_CONSTANT(EADDRINUSE),
    DTRACE_LIBRARY_CONSTANT(EADDRNOTAVAIL),
    DTRACE_LIBRARY_CONSTANT(ENETDOWN),
    DTRACE_LIBRARY_CONSTANT(ENETUNREACH),
    DTRACE_LIBRARY_CONSTANT(ENETRESET),
    DTRACE_LIBRARY_CONSTANT(ECONNABORTED),
    DTRACE_LIBRARY_CONSTANT(ECONNRESET),
    DTRACE_LIBRARY_CONSTANT(ENOBUFS),
    DTRACE_LIBRARY_CONSTANT(EISCONN),
    DTRACE_LIBRARY_CONSTANT(ENOTCONN),
    DTRACE_LIBRARY_CONSTANT(ESHUTDOWN),
    DTRACE_LIBRARY_CONSTANT(ETOOMANYREFS),
    DTRACE_LIBRARY_CONSTANT(ETIMEDOUT),
    DTRACE_LIBRARY_CONSTANT(ECONNREFUSED),
    DTRACE_LIBRARY_CONSTANT(EHOSTDOWN),
    DTRACE_LIBRARY_CONSTANT(EHOSTUNREACH),
    DTRACE_LIBRARY_CONSTANT(EALREADY),
    DTRACE_LIBRARY_CONSTANT(EINPROGRESS),
    DTRACE_LIBRARY_CONSTANT(ESTALE),
    DTRACE_LIBRARY_CONSTANT(EUCLEAN),
    DTRACE_LIBRARY_CONSTANT(ENOTNAM),
    DTRACE_LIBRARY_CONSTANT(ENAVAIL),
    DTRACE_LIBRARY_CONSTANT(EISNAM),
    DTRACE_LIBRARY_CONSTANT(EREMOTEIO),
    DTRACE_LIBRARY_CONSTANT(EDQUOT),
    DTRACE_LIBRARY_CONSTANT(ENOMEDIUM),
    DTRACE_LIBRARY_CONSTANT(EMEDIUMTYPE),
    DTRACE_LIBRARY_CONSTANT(ECANCELED),
    DTRACE_LIBRARY_CONSTANT(ENOKEY),
    DTRACE_LIBRARY_CONSTANT(EKEYEXPIRED),
    DTRACE_LIBRARY_CONSTANT(EKEYREVOKED),
    DTRACE_LIBRARY_CONSTANT(EKEYREJECTED),
    DTRACE_LIBRARY_CONSTANT(EOWNERDEAD),
    DTRACE_LIBRARY_CONSTANT(ENOTRECOVERABLE),
    DTRACE_LIBRARY_CONSTANT(ERFKILL),
    DTRACE_LIBRARY_CONSTANT(EHWPOISON),
};

// signal.d: the signals Linux has, with Linux's numbers. SIGRTMIN and
// SIGRTMAX are the kernel's (32 and 64): the C library's SIGRTMIN is a
// function of the library, not a constant.
const Constant kSignals[] = {
    DTRACE_LIBRARY_CONSTANT(SIGHUP),
    DTRACE_LIBRARY_CONSTANT(SIGINT),
    DTRACE_LIBRARY_CONSTANT(SIGQUIT),
    DTRACE_LIBRARY_CONSTANT(SIGILL),
    DTRACE_LIBRARY_CONSTANT(SIGTRAP),
    DTRACE_LIBRARY_CONSTANT(SIGABRT),
    DTRACE_LIBRARY_CONSTANT(SIGIOT),
    DTRACE_LIBRARY_CONSTANT(SIGBUS),
    DTRACE_LIBRARY_CONSTANT(SIGFPE),
    DTRACE_LIBRARY_CONSTANT(SIGKILL),
    DTRACE_LIBRARY_CONSTANT(SIGUSR1),
    DTRACE_LIBRARY_CONSTANT(SIGSEGV),
    DTRACE_LIBRARY_CONSTANT(SIGUSR2),
    DTRACE_LIBRARY_CONSTANT(SIGPIPE),
    DTRACE_LIBRARY_CONSTANT(SIGALRM),
    DTRACE_LIBRARY_CONSTANT(SIGTERM),
    DTRACE_LIBRARY_CONSTANT(SIGSTKFLT),
    DTRACE_LIBRARY_CONSTANT(SIGCHLD),
    DTRACE_LIBRARY_CONSTANT(SIGCLD),
    DTRACE_LIBRARY_CONSTANT(SIGCONT),
    DTRACE_LIBRARY_CONSTANT(SIGSTOP),
    DTRACE_LIBRARY_CONSTANT(SIGTSTP),
    DTRACE_LIBRARY_CONSTANT(SIGTTIN),
    DTRACE_LIBRARY_CONSTANT(SIGTTOU),
    DTRACE_LIBRARY_CONSTANT(SIGURG),
    DTRACE_LIBRARY_CONSTANT(SIGXCPU),
    DTRACE_LIBRARY_CONSTANT(SIGXFSZ),
    DTRACE_LIBRARY_CONSTANT(SIGVTALRM),
    DTRACE_LIBRARY_CONSTANT(SIGPROF),
    DTRACE_LIBRARY_CONSTANT(SIGWINCH),
    DTRACE_LIBRARY_CONSTANT(SIGIO),
    DTRACE_LIBRARY_CONSTANT(SIGPOLL),
    DTRACE_LIBRARY_CONSTANT(SIGPWR),
    DTRACE_LIBRARY_CONSTANT(SIGSYS),
    {"SIGRTMIN", 32},
    {"SIGRTMAX", 64},
};

// procfs.d: lwpsinfo_t's pr_state values and pr_flag bits, numbered as
// illumos numbers them (they describe illumos's structures).
const Constant kProcStates[] = {
    {"SSLEEP", 1}, {"SRUN", 2},    {"SZOMB", 3}, {"SSTOP", 4},
    {"SIDL", 5},   {"SONPROC", 6}, {"SWAIT", 7},
};
const Constant kProcModels[] = {{"PR_MODEL_ILP32", 1}, {"PR_MODEL_LP64", 2}};
// Synchronization-object types (lwpsinfo_t's pr_stype on illumos); Linux
// keeps none, so no member carries them, but scripts name them.
const Constant kSyncObjectTypes[] = {
    {"SOBJ_NONE", 0}, {"SOBJ_MUTEX", 1}, {"SOBJ_RWLOCK", 2},  {"SOBJ_CV", 3},
    {"SOBJ_SEMA", 4}, {"SOBJ_USER", 5},  {"SOBJ_USER_PI", 6}, {"SOBJ_SHUTTLE", 7},
};
const Constant kProcFlags[] = {
    {"PR_STOPPED", 0x1},      {"PR_ISTOP", 0x2},        {"PR_DSTOP", 0x4},
    {"PR_STEP", 0x8},         {"PR_ASLEEP", 0x10},      {"PR_PCINVAL", 0x20},
    {"PR_ASLWP", 0x40},       {"PR_AGENT", 0x80},       {"PR_DETACH", 0x100},
    {"PR_DAEMON", 0x200},     {"PR_IDLE", 0x400},       {"PR_ISSYS", 0x1000},
    {"PR_VFORKP", 0x2000},    {"PR_ORPHAN", 0x4000},    {"PR_NOSIGCHLD", 0x8000},
    {"PR_WAITPID", 0x10000},  {"PR_FORK", 0x100000},    {"PR_RLC", 0x200000},
    {"PR_KLC", 0x400000},     {"PR_ASYNC", 0x800000},   {"PR_MSACCT", 0x1000000},
    {"PR_BPTADJ", 0x2000000}, {"PR_PTRACE", 0x4000000}, {"PR_MSFORK", 0x8000000},
};
// siginfo_t codes, with Linux's values; illumos's SI_LWP and SI_RCTL have
// no Linux counterpart.
const Constant kSiginfoCodes[] = {
    DTRACE_LIBRARY_CONSTANT(SI_USER),     DTRACE_LIBRARY_CONSTANT(SI_QUEUE),
    DTRACE_LIBRARY_CONSTANT(SI_TIMER),    DTRACE_LIBRARY_CONSTANT(SI_ASYNCIO),
    DTRACE_LIBRARY_CONSTANT(SI_MESGQ),    DTRACE_LIBRARY_CONSTANT(ILL_ILLOPC),
    DTRACE_LIBRARY_CONSTANT(ILL_ILLOPN),  DTRACE_LIBRARY_CONSTANT(ILL_ILLADR),
    DTRACE_LIBRARY_CONSTANT(ILL_ILLTRP),  DTRACE_LIBRARY_CONSTANT(ILL_PRVOPC),
    DTRACE_LIBRARY_CONSTANT(ILL_PRVREG),  DTRACE_LIBRARY_CONSTANT(ILL_COPROC),
    DTRACE_LIBRARY_CONSTANT(ILL_BADSTK),  DTRACE_LIBRARY_CONSTANT(FPE_INTDIV),
    DTRACE_LIBRARY_CONSTANT(FPE_INTOVF),  DTRACE_LIBRARY_CONSTANT(FPE_FLTDIV),
    DTRACE_LIBRARY_CONSTANT(FPE_FLTOVF),  DTRACE_LIBRARY_CONSTANT(FPE_FLTUND),
    DTRACE_LIBRARY_CONSTANT(FPE_FLTRES),  DTRACE_LIBRARY_CONSTANT(FPE_FLTINV),
    DTRACE_LIBRARY_CONSTANT(FPE_FLTSUB),  DTRACE_LIBRARY_CONSTANT(SEGV_MAPERR),
    DTRACE_LIBRARY_CONSTANT(SEGV_ACCERR), DTRACE_LIBRARY_CONSTANT(BUS_ADRALN),
    DTRACE_LIBRARY_CONSTANT(BUS_ADRERR),  DTRACE_LIBRARY_CONSTANT(BUS_OBJERR),
    DTRACE_LIBRARY_CONSTANT(TRAP_BRKPT),  DTRACE_LIBRARY_CONSTANT(TRAP_TRACE),
    DTRACE_LIBRARY_CONSTANT(CLD_EXITED),  DTRACE_LIBRARY_CONSTANT(CLD_KILLED),
    DTRACE_LIBRARY_CONSTANT(CLD_DUMPED),  DTRACE_LIBRARY_CONSTANT(CLD_TRAPPED),
    DTRACE_LIBRARY_CONSTANT(CLD_STOPPED), DTRACE_LIBRARY_CONSTANT(CLD_CONTINUED),
    DTRACE_LIBRARY_CONSTANT(POLL_IN),     DTRACE_LIBRARY_CONSTANT(POLL_OUT),
    DTRACE_LIBRARY_CONSTANT(POLL_MSG),    DTRACE_LIBRARY_CONSTANT(POLL_ERR),
    DTRACE_LIBRARY_CONSTANT(POLL_PRI),    DTRACE_LIBRARY_CONSTANT(POLL_HUP),
};

#undef DTRACE_LIBRARY_CONSTANT

// The translators follow Linux's struct task_struct (BTF). Members with no
// Linux counterpart are left out, so using one is D_XLATE_NOCONV.
const char* const kProcessSource = R"D(
typedef struct timespec {
  time_t tv_sec;
  long tv_nsec;
} timestruc_t;

typedef struct lwpsinfo {
  int pr_flag;
  id_t pr_lwpid;
  uintptr_t pr_addr;
  uintptr_t pr_wchan;
  char pr_stype;
  char pr_state;
  char pr_sname;
  char pr_nice;
  short pr_syscall;
  char pr_oldpri;
  char pr_cpu;
  int pr_pri;
  ushort_t pr_pctcpu;
  ushort_t pr_pad;
  timestruc_t pr_start;
  timestruc_t pr_time;
  char pr_clname[8];
  char pr_name[16];
  processorid_t pr_onpro;
  processorid_t pr_bindpro;
  psetid_t pr_bindpset;
  int pr_lgrp;
  int pr_filler[4];
} lwpsinfo_t;

typedef struct psinfo {
  int pr_flag;
  int pr_nlwp;
  pid_t pr_pid;
  pid_t pr_ppid;
  pid_t pr_pgid;
  pid_t pr_sid;
  uid_t pr_uid;
  uid_t pr_euid;
  gid_t pr_gid;
  gid_t pr_egid;
  uintptr_t pr_addr;
  size_t pr_size;
  size_t pr_rssize;
  size_t pr_pad1;
  dev_t pr_ttydev;
  ushort_t pr_pctcpu;
  ushort_t pr_pctmem;
  timestruc_t pr_start;
  timestruc_t pr_time;
  timestruc_t pr_ctime;
  char pr_fname[16];
  char pr_psargs[80];
  int pr_wstat;
  int pr_argc;
  uintptr_t pr_argv;
  uintptr_t pr_envp;
  char pr_dmodel;
  char pr_pad2[3];
  taskid_t pr_taskid;
  projid_t pr_projid;
  int pr_nzomb;
  int pr_poolid;
  zoneid_t pr_zoneid;
  id_t pr_contract;
  int pr_filler[1];
  lwpsinfo_t pr_lwp;
} psinfo_t;

typedef struct cpuinfo {
  processorid_t cpu_id;
  psetid_t cpu_pset;
  chipid_t cpu_chip;
  int cpu_lgrp;
} cpuinfo_t;

/* Nanoseconds as a timestruc_t. */
translator timestruc_t < uint64_t N > {
  tv_sec = N / 1000000000;
  tv_nsec = N % 1000000000;
};

/*
 * Linux reaps an exiting thread at once, except a thread-group leader that
 * exits before the rest of its group: it stays a zombie (pr_nzomb).
 * pr_psargs is the argument strings (execargs) where the task's address
 * space is the one the probe sees, else the command name.
 * The initial stack (mm->start_stack) holds argc, then the argument vector,
 * its NULL, then the environment vector. Reading argc is a read of user
 * memory, possible only in the address space the probe fired in.
 */
translator psinfo_t < struct task_struct *T > {
  pr_flag = ((T->flags & 0x00200000) ? PR_ISSYS : 0) | (T->ptrace ? PR_PTRACE : 0);
  pr_nlwp = T->signal->nr_threads;
  pr_pid = T->tgid;
  pr_ppid = T->real_parent->tgid;
  pr_pgid = T->signal->pids[2]->numbers[0].nr;
  pr_sid = T->signal->pids[3]->numbers[0].nr;
  pr_uid = T->cred->uid.val;
  pr_euid = T->cred->euid.val;
  pr_gid = T->cred->gid.val;
  pr_egid = T->cred->egid.val;
  pr_addr = (uintptr_t)T->group_leader;
  pr_size = T->mm != NULL ? T->mm->total_vm * 4 : 0;
  pr_ttydev = T->signal->tty == NULL ? (dev_t)-1 :
      ((dev_t)(T->signal->tty->driver->major & 0xfffff000) << 32) |
      ((T->signal->tty->driver->major & 0xfff) << 8) |
      (((T->signal->tty->driver->minor_start + T->signal->tty->index) & 0xfffff00) << 12) |
      ((T->signal->tty->driver->minor_start + T->signal->tty->index) & 0xff);
  pr_start = xlate <timestruc_t> (walltimestamp - timestamp + T->group_leader->start_time);
  pr_ctime = xlate <timestruc_t> (T->signal->cutime + T->signal->cstime);
  pr_fname = T->comm;
  pr_psargs = T->mm != NULL && T->mm == curthread->mm ? execargs : T->comm;
  pr_wstat = T->exit_code;
  pr_argc = T->mm != NULL && T->mm == curthread->mm ?
      *(int *)copyin(T->mm->start_stack, sizeof (int)) : 0;
  pr_argv = T->mm != NULL ? T->mm->start_stack + sizeof (uintptr_t) : 0;
  pr_envp = T->mm != NULL && T->mm == curthread->mm ? T->mm->start_stack +
      (*(int *)copyin(T->mm->start_stack, sizeof (int)) + 2) * sizeof (uintptr_t) : 0;
  pr_dmodel = PR_MODEL_LP64;
  pr_taskid = 0;
  pr_projid = 0;
  pr_nzomb = (T->group_leader->exit_state & 32) && T->signal->nr_threads > 0 ? 1 : 0;
  pr_poolid = 0;
  pr_zoneid = 0;
  pr_contract = 0;
};

/*
 * pr_state and pr_sname from the task's state: exit_state (EXIT_ZOMBIE 32,
 * EXIT_DEAD 16), then __state (TASK_RUNNING 0; sleeping: INTERRUPTIBLE 1,
 * UNINTERRUPTIBLE 2, PARKED 0x40, RTLOCK_WAIT 0x1000; stopped: STOPPED 4,
 * TRACED 8; TASK_DEAD 0x80; TASK_NEW 0x800).
 */
translator lwpsinfo_t < struct task_struct *T > {
  pr_flag = ((T->__state & 12) ? PR_STOPPED : 0) | ((T->__state & 8) ? PR_ISTOP : 0) |
      ((T->__state & 1) ? PR_ASLEEP : 0) | ((T->flags & 0x00000002) ? PR_IDLE : 0) |
      ((T->flags & 0x00200000) ? PR_ISSYS : 0) | (T->ptrace ? PR_PTRACE : 0);
  pr_lwpid = T->pid;
  pr_addr = (uintptr_t)T;
  pr_state = (T->exit_state & 48) || (T->__state & 0x80) ? SZOMB :
      T->__state & 0x800 ? SIDL :
      T->__state == 0 ? (T->on_cpu ? SONPROC : SRUN) :
      (T->__state & 0x1043) ? SSLEEP : (T->__state & 12) ? SSTOP : 0;
  pr_sname = (T->exit_state & 48) || (T->__state & 0x80) ? 'Z' :
      T->__state & 0x800 ? 'I' :
      T->__state == 0 ? (T->on_cpu ? 'O' : 'R') :
      (T->__state & 0x1043) ? 'S' : (T->__state & 12) ? 'T' : '?';
  pr_pri = T->prio;
  pr_start = xlate <timestruc_t> (walltimestamp - timestamp + T->start_time);
  pr_time = xlate <timestruc_t> (T->utime + T->stime);
  pr_clname = "TS";
  pr_name = T->comm;
  pr_onpro = T->thread_info.cpu;
  pr_bindpro = -1;
  pr_bindpset = -1;
};

inline psinfo_t *curpsinfo = xlate <psinfo_t *> (curthread);
inline lwpsinfo_t *curlwpsinfo = xlate <lwpsinfo_t *> (curthread);
)D";

// cpuinfo_t's translator folds in this machine's topology. Linux has no
// processor sets: every CPU is in the default one, which illumos reports
// as -1.
const char* processLibrarySource() {
  static const std::string source = std::string(kProcessSource) +
                                    "translator cpuinfo_t < int C > {\n"
                                    "  cpu_id = C;\n"
                                    "  cpu_pset = -1;\n"
                                    "  cpu_chip = " +
                                    chipOfCpu("C") +
                                    ";\n"
                                    "  cpu_lgrp = lgrp;\n"
                                    "};\n"
                                    "inline cpuinfo_t *curcpu = xlate <cpuinfo_t *> (cpu);\n"
                                    "inline chipid_t chip = curcpu->cpu_chip;\n"
                                    "inline psetid_t pset = curcpu->cpu_pset;\n";
  return source.c_str();
}

bool mentions(std::string_view source, std::string_view name) {
  auto isWordChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = source.find(name); at != std::string_view::npos;
       at = source.find(name, at + 1)) {
    const bool startsWord = at == 0 || !isWordChar(source[at - 1]);
    const size_t end = at + name.size();
    const bool endsWord = end == source.size() || !isWordChar(source[end]);
    if (startsWord && endsWord) return true;
  }
  return false;
}

// A library unit of `inline TYPE NAME = VALUE;` lines, one per constant.
struct ConstantGroup {
  const char* type;
  const Constant* begin;
  const Constant* end;
};

struct ConstantUnit {
  std::string source;
  LibraryUnit unit;

  ConstantUnit(const char* name, std::initializer_list<ConstantGroup> groups)
      : unit{name, nullptr, {}} {
    for (const ConstantGroup& g : groups) {
      for (const Constant* c = g.begin; c != g.end; ++c) {
        source += std::string("inline ") + g.type + " " + c->name + " = " +
                  std::to_string(c->value) + ";\n";
        unit.names.emplace_back(c->name);
      }
    }
    unit.source = source.c_str();
  }
};

template <size_t N>
ConstantGroup group(const char* type, const Constant (&constants)[N]) {
  return {type, constants, constants + N};
}

// Every unit, in the order they are loaded when several are needed.
const std::vector<const LibraryUnit*>& builtinUnits() {
  static const LibraryUnit kUnits[] = {
      {"null.d", kNullSource, {"NULL"}},
      {"net.d",
       kNetSource,
       {"in6_addr_t", "AF_INET", "AF_INET6", "ARPHRD_ETHER", "ARPHRD_INFINIBAND"}},
      {"process.d",
       processLibrarySource(),
       {"curpsinfo", "curlwpsinfo", "curcpu", "psinfo_t", "lwpsinfo_t", "cpuinfo_t", "timestruc_t",
        "chip", "pset"}},
      {"io.d",
       kIoLibrarySource,
       {"bufinfo_t", "devinfo_t", "fileinfo_t", "B_BUSY", "B_DONE", "B_ERROR", "B_PAGEIO", "B_PHYS",
        "B_READ", "B_WRITE", "B_ASYNC"}},
      {"ip.d",
       kIpLibrarySource,
       {"pktinfo_t", "csinfo_t", "ipinfo_t", "ifinfo_t", "ipv4info_t", "ipv6info_t", "IPPROTO_IP",
        "IPPROTO_ICMP", "IPPROTO_IGMP", "IPPROTO_TCP", "IPPROTO_UDP", "IPPROTO_IPV6",
        "IPPROTO_ICMPV6", "IPPROTO_RAW"}},
      {"udp.d", kUdpLibrarySource, {"udpinfo_t", "udpsinfo_t"}},
      {"tcp.d",
       kTcpLibrarySource,
       {"tcpinfo_t",
        "tcpsinfo_t",
        "tcplsinfo_t",
        "TH_FIN",
        "TH_SYN",
        "TH_RST",
        "TH_PSH",
        "TH_ACK",
        "TH_URG",
        "TH_ECE",
        "TH_CWR",
        "TCP_STATE_IDLE",
        "TCP_STATE_ESTABLISHED",
        "TCP_STATE_SYN_SENT",
        "TCP_STATE_SYN_RECEIVED",
        "TCP_STATE_FIN_WAIT_1",
        "TCP_STATE_FIN_WAIT_2",
        "TCP_STATE_TIME_WAIT",
        "TCP_STATE_CLOSED",
        "TCP_STATE_CLOSE_WAIT",
        "TCP_STATE_LAST_ACK",
        "TCP_STATE_LISTEN",
        "TCP_STATE_CLOSING"}},
  };
  static const ConstantUnit kConstantUnits[] = {
      {"unistd.d", {group("int", kFaults)}},
      {"errno.d", {group("int", kErrnos)}},
      {"signal.d", {group("int", kSignals)}},
      {"procfs.d",
       {group("char", kProcStates), group("int", kProcFlags), group("char", kProcModels),
        group("char", kSyncObjectTypes), group("int", kSiginfoCodes)}},
  };
  static const std::vector<const LibraryUnit*> kAll = [] {
    std::vector<const LibraryUnit*> all;
    for (const LibraryUnit& unit : kUnits) all.push_back(&unit);
    for (const ConstantUnit& c : kConstantUnits) all.push_back(&c.unit);
    return all;
  }();
  return kAll;
}

}  // namespace

std::vector<const LibraryUnit*> libraryUnitsFor(std::string_view script) {
  std::vector<const LibraryUnit*> out;
  for (const LibraryUnit* unit : builtinUnits()) {
    if (std::any_of(unit->names.begin(), unit->names.end(),
                    [&](std::string_view name) { return mentions(script, name); })) {
      out.push_back(unit);
    }
  }
  return out;
}

const LibraryUnit* builtinLibrary(std::string_view name) {
  for (const LibraryUnit* unit : builtinUnits()) {
    if (name == unit->name) return unit;
  }
  return nullptr;
}

}  // namespace dtrace::driver

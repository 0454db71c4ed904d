#include "driver/d_library.h"

#include <cctype>

namespace dtrace::driver {

namespace {

const char* const kNullSource = "inline void *NULL = 0;\n";

// Address families carry Linux's values (illumos has AF_INET6 = 26).
const char* const kNetSource = R"D(
typedef struct in6_addr in6_addr_t;
inline int AF_INET = 2;
inline int AF_INET6 = 10;
)D";

const char* const kProcessSource = R"D(
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
  dev_t pr_ttydev;
  char pr_fname[16];
  char pr_psargs[80];
  int pr_wstat;
  int pr_argc;
  uintptr_t pr_argv;
  uintptr_t pr_envp;
  char pr_dmodel;
  int pr_taskid;
  int pr_projid;
  int pr_poolid;
  int pr_zoneid;
} psinfo_t;

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
  char pr_clname[8];
  processorid_t pr_onpro;
  processorid_t pr_bindpro;
  int pr_bindpset;
} lwpsinfo_t;

typedef struct cpuinfo {
  processorid_t cpu_id;
  int cpu_pset;
  int cpu_chip;
  int cpu_lgrp;
} cpuinfo_t;

translator psinfo_t < struct task_struct *T > {
  pr_nlwp = T->signal->nr_threads;
  pr_pid = T->tgid;
  pr_ppid = T->real_parent->tgid;
  pr_pgid = T->signal->pids[2]->numbers[0].nr;
  pr_sid = T->signal->pids[3]->numbers[0].nr;
  pr_uid = T->cred->uid.val;
  pr_euid = T->cred->euid.val;
  pr_gid = T->cred->gid.val;
  pr_egid = T->cred->egid.val;
  pr_addr = (uintptr_t)T;
  pr_size = T->mm != NULL ? T->mm->total_vm * 4 : 0;
  pr_wstat = T->exit_code;
  pr_fname = T->comm;
  pr_psargs = T->comm;
  pr_dmodel = 2;
  pr_taskid = 0;
  pr_projid = 0;
  pr_poolid = 0;
  pr_zoneid = 0;
};

translator lwpsinfo_t < struct task_struct *T > {
  pr_lwpid = T->pid;
  pr_addr = (uintptr_t)T;
  pr_state = T->__state;
  pr_sname = (T->exit_state & 32) ? 'Z' : T->__state == 0 ? (T->on_cpu ? 'O' : 'R') :
             (T->__state & 3) ? 'S' : (T->__state & 12) ? 'T' : '?';
  pr_nice = T->static_prio - 120;
  pr_pri = T->prio;
  pr_onpro = T->thread_info.cpu;
  pr_bindpro = -1;
  pr_bindpset = -1;
  pr_clname = "TS";
};

translator cpuinfo_t < int C > {
  cpu_id = C;
  cpu_pset = -1;
  cpu_lgrp = lgrp;
};

inline psinfo_t *curpsinfo = xlate <psinfo_t *> (curthread);
inline lwpsinfo_t *curlwpsinfo = xlate <lwpsinfo_t *> (curthread);
inline cpuinfo_t *curcpu = xlate <cpuinfo_t *> (cpu);
)D";

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

}  // namespace

std::vector<const LibraryUnit*> libraryUnitsFor(std::string_view script) {
  static const LibraryUnit kUnits[] = {
      {"null.d", kNullSource, {"NULL"}},
      {"net.d", kNetSource, {"in6_addr_t", "AF_INET", "AF_INET6"}},
      {"process.d",
       kProcessSource,
       {"curpsinfo", "curlwpsinfo", "curcpu", "psinfo_t", "lwpsinfo_t", "cpuinfo_t"}},
  };
  std::vector<const LibraryUnit*> out;
  for (const LibraryUnit& unit : kUnits) {
    for (std::string_view name : unit.names) {
      if (mentions(script, name)) {
        out.push_back(&unit);
        break;
      }
    }
  }
  return out;
}

}  // namespace dtrace::driver

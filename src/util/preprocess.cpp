#include "util/preprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "util/fd.h"

namespace dtrace {
namespace {

// What D programs see predefined on Linux: the illumos set, with the system
// names of this platform, instead of GNU cpp's own (which include `linux` and
// `unix` as plain identifiers).
const char* const kPredefined[] = {
    "-D__linux", "-D__unix",   "-D__SVR4",   "-D__SUNW_D=1", "-D__SUNW_D_64", "-D_LP64",
    "-D__LP64",  "-D__LP64__", "-D__x86_64", "-D__x86_64__", "-D__amd64",
};

// The name cpp knows the script by, as Oracle's dt_preproc() names it (and
// illumos's /dev/fd/N): cpp's diagnostics say "/dev/stdin:17: error: ...".
// cpp reads it from a pipe ("-"), so quoted includes are found from the
// current directory; a line marker gives it the name.
constexpr std::string_view kInputName = "/dev/stdin";

std::string quoteForLineMarker(const std::string& name) {
  std::string quoted;
  for (char c : name) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted;
}

// The source as cpp reads it: a marker naming it kInputName, then the text
// with a leading "#!" line blanked (cpp would reject it as a directive).
std::string prepareInput(const std::string& source) {
  std::string input = "# 1 \"" + std::string(kInputName) + "\"\n";
  if (source.compare(0, 2, "#!") == 0) {
    size_t newline = source.find('\n');
    if (newline != std::string::npos)
      input.append(source, newline, std::string::npos);
    else
      input += '\n';
  } else {
    input += source;
  }
  return input;
}

// Drops cpp's markers for its pseudo-files ("<stdin>", "<built-in>",
// "<command-line>"), which name nothing the user wrote, and names the
// script where a marker names the input (as illumos's dt_pragma_line()
// takes /dev/fd/ markers for the main file).
std::string withScriptMarkers(const std::string& output, const std::string& fileName) {
  const std::string input = "\"" + std::string(kInputName) + "\"";
  const std::string script = "\"" + quoteForLineMarker(fileName) + "\"";
  std::string kept;
  kept.reserve(output.size());
  size_t pos = 0;
  while (pos < output.size()) {
    size_t newline = output.find('\n', pos);
    size_t end = newline == std::string::npos ? output.size() : newline + 1;
    std::string_view line(output.data() + pos, end - pos);
    bool pseudo = false;
    size_t quote = std::string_view::npos;
    if (line.size() > 2 && line[0] == '#' && line[1] == ' ') {
      quote = line.find('"');
      pseudo = quote != std::string_view::npos && quote + 1 < line.size() && line[quote + 1] == '<';
    }
    if (quote != std::string_view::npos && line.substr(quote, input.size()) == input) {
      kept.append(line.substr(0, quote)).append(script).append(line.substr(quote + input.size()));
    } else if (!pseudo) {
      kept.append(line);
    }
    pos = end;
  }
  return kept;
}

// GNU cpp's -H lines (". file", ".. nested") without its trailing advice
// about include guards, which dtrace -H never printed.
std::string includeListing(const std::string& cppStderr) {
  std::string listing;
  size_t pos = 0;
  while (pos < cppStderr.size()) {
    size_t newline = cppStderr.find('\n', pos);
    size_t end = newline == std::string::npos ? cppStderr.size() : newline + 1;
    if (cppStderr[pos] == '.') listing.append(cppStderr, pos, end - pos);
    pos = end;
  }
  return listing;
}

// GNU cpp's complaint that -D__STDC__=0 redefines its built-in, which
// Sun's cpp (for which libdtrace passes it) never made.
std::string withoutStdcRedefinition(const std::string& cppStderr) {
  std::string kept;
  bool skipNote = false;
  size_t pos = 0;
  while (pos < cppStderr.size()) {
    size_t newline = cppStderr.find('\n', pos);
    size_t end = newline == std::string::npos ? cppStderr.size() : newline + 1;
    std::string_view line(cppStderr.data() + pos, end - pos);
    pos = end;
    if (line.find("warning: \"__STDC__\" redefined") != std::string_view::npos) {
      skipNote = true;
      continue;
    }
    if (skipNote && line.find("note: this is the location of the previous definition") !=
                        std::string_view::npos) {
      skipNote = false;
      continue;
    }
    skipNote = false;
    kept.append(line);
  }
  return kept;
}

std::string trim(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// Reads both pipes to EOF without letting either fill up and stall cpp.
void drain(int outFd, int errFd, std::string& out, std::string& err) {
  pollfd fds[2] = {{outFd, POLLIN, 0}, {errFd, POLLIN, 0}};
  std::string* sinks[2] = {&out, &err};
  int open = 2;
  char buffer[65536];
  while (open > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    for (int i = 0; i < 2; i++) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;
        open--;
      }
    }
  }
}

}  // namespace

Result<std::string> preprocess(const std::string& source, const std::string& fileName,
                               const std::vector<std::string>& cppArgs, bool showIncludes,
                               const std::string& cppPath, std::string_view stdcMode,
                               uint32_t dVersion) {
  // The input goes through a memory file, so cpp never blocks us on a pipe
  // and an early cpp exit cannot raise SIGPIPE here.
  Fd input(::memfd_create("dtrace-cpp-input", MFD_CLOEXEC));
  if (input.get() < 0) return Error{std::string("failed to create cpp input: ") + strerror(errno)};
  std::string text = prepareInput(source);
  for (size_t done = 0; done < text.size();) {
    ssize_t n = ::write(input.get(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Error{std::string("failed to write cpp input: ") + strerror(errno)};
    done += static_cast<size_t>(n);
  }
  if (::lseek(input.get(), 0, SEEK_SET) != 0) {
    return Error{std::string("failed to rewind cpp input: ") + strerror(errno)};
  }

  int outPipe[2], errPipe[2];
  if (::pipe2(outPipe, O_CLOEXEC) != 0) {
    return Error{std::string("failed to create pipe: ") + strerror(errno)};
  }
  Fd outRead(outPipe[0]), outWrite(outPipe[1]);
  if (::pipe2(errPipe, O_CLOEXEC) != 0) {
    return Error{std::string("failed to create pipe: ") + strerror(errno)};
  }
  Fd errRead(errPipe[0]), errWrite(errPipe[1]);

  std::vector<std::string> args = {cppPath};
  if (showIncludes) args.push_back("-H");
  args.push_back("-undef");  // no GNU/system macros such as `linux` or `unix`
  // No __STDC_VERSION__: system headers then define __inline and
  // __restrict away, leaving declarations D can read (and C90 keeps //
  // comments as GNU's dialect).
  args.push_back("-std=gnu89");
  for (const char* define : kPredefined) args.push_back(define);
  for (const std::string& arg : cppArgs) args.push_back(arg);
  // After the user's -D/-U, as libdtrace's dt_preproc() adds it: the
  // program's D version as DT_VERSION_NUMBER encodes it, 0x%08x.
  char version[40];
  std::snprintf(version, sizeof version, "-D__SUNW_D_VERSION=0x%08x", dVersion);
  args.push_back(version);
  // dt_preproc()'s -X modes: __STDC__ is 0 for a (the default) and t, 1
  // for c, and undefined for s (a K&R preprocessor: -traditional-cpp, as
  // Oracle's dtrace runs GNU cpp for it).
  if (stdcMode == "s") {
    args.push_back("-traditional-cpp");
  } else if (stdcMode != "c") {
    args.push_back("-D__STDC__=0");
  }
  args.push_back("-");
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  pid_t pid = ::fork();
  if (pid < 0) return Error{std::string("failed to fork cpp: ") + strerror(errno)};
  if (pid == 0) {
    if (::dup2(input.get(), STDIN_FILENO) < 0 || ::dup2(outWrite.get(), STDOUT_FILENO) < 0 ||
        ::dup2(errWrite.get(), STDERR_FILENO) < 0)
      ::_exit(127);
    ::execvp(argv[0], argv.data());
    // Only async-signal-safe calls here: the parent may have other threads.
    const char* pieces[] = {"failed to execute ", argv[0], ": ", strerror(errno), "\n"};
    for (const char* piece : pieces) {
      ssize_t ignored = ::write(STDERR_FILENO, piece, strlen(piece));
      (void)ignored;
    }
    ::_exit(127);
  }
  outWrite.reset();
  errWrite.reset();
  input.reset();

  std::string out, err;
  drain(outRead.get(), errRead.get(), out, err);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  bool success = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  err = withoutStdcRedefinition(err);
  if (!success) {
    std::string message = trim(err);
    if (message.empty()) message = kPreprocessorFailedMessage;
    return Error{message};
  }
  // The headers cpp lists (-H, or -H among -x cppargs).
  if (std::string includes = includeListing(err); !includes.empty()) {
    ssize_t ignored = ::write(STDERR_FILENO, includes.data(), includes.size());
    (void)ignored;
  }
  return withScriptMarkers(out, fileName);
}

}  // namespace dtrace

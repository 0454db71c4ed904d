# D pragmas check their arguments as dt_pragma.c does.
check() { $DTRACE -e -s /dev/stdin; }
printf '#pragma D depends_on provider nosuch\nBEGIN {}\n' | check
printf '#pragma D depends_on module nosuchmod\nBEGIN {}\n' | check
printf '#pragma D depends_on provider syscall\n#pragma D depends_on module vmlinux\nBEGIN {}\n' | check
echo "status $?" >&2
printf '#pragma D depends_on thing x\nBEGIN {}\n' | check
printf '#pragma D depends_on provider\nBEGIN {}\n' | check
printf '#pragma D option nosuchopt=3\nBEGIN {}\n' | check
printf '#pragma D option nosuchopt\nBEGIN {}\n' | check
# The preprocessor's and linker's options are set before a program is read.
printf '#pragma D option ldpath=/nonexistent\nBEGIN {}\n' | check
printf '#pragma D option cpphdrs\nBEGIN {}\n' | check
printf '#pragma D option incdir=/tmp\nBEGIN {}\n' | check
printf '#pragma D binding "1.x" foo\nBEGIN {}\n' | check
printf '#pragma D binding 1 foo\nBEGIN {}\n' | check
printf '#pragma D attributes Bogus/Stable/Common foo\nBEGIN {}\n' | check
printf '#pragma D attributes foo\nBEGIN {}\n' | check
printf '#pragma D attributes Stable/Evolving/Common foo\nint foo;\nBEGIN {}\n' | check
echo "status $?" >&2
exit 1

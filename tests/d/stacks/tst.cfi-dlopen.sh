# A library the traced program loads later (dlopen), built without frame
# pointers: dtrace sees the mapping and compiles its tables, so a stack
# through it is whole (the program waits 300 ms before calling it, more
# than the switchrate tick at which dtrace reads mapping events). Its
# chain_middle calls chain_leaf through its PLT, which binds to the same
# function in libchain.so, which the program links too.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags="-O2 -fomit-frame-pointer -fno-optimize-sibling-calls -fno-inline"
gcc $flags -fPIC -shared -o "$work/libchain.so" cfi-chain.c &&
  gcc $flags -o "$work/nofp" cfi-nofp.c -L"$work" -lchain -Wl,-rpath,'$ORIGIN' -ldl || exit 1
cp "$work/libchain.so" "$work/liblate.so"
$DTRACE -q -c "$work/nofp dlopen $work/liblate.so" -n '
syscall::getppid:entry /pid == $target/ { ustack(); }' |
  awk 'NF { frame = $1; sub(/\+0x[0-9a-f]+$/, "", frame); if (frame !~ /^libc\.so/) print frame }'

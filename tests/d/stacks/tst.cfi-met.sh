# A process running before dtrace starts, traced by a syscall probe (no
# -c, -p or pid probe): its first stacks may follow frame pointers only
# (one frame here), until dtrace, told by the probe, has compiled its
# tables; its later stacks are whole. ucaller and ustackdepth unwind as
# ustack() does.
work=$(mktemp -d)
trap 'kill $app 2>/dev/null; rm -rf "$work"' EXIT
flags="-O2 -fomit-frame-pointer -fno-optimize-sibling-calls -fno-inline"
gcc $flags -fPIC -shared -o "$work/libchain.so" cfi-chain.c &&
  gcc $flags -o "$work/nofp" cfi-nofp.c -L"$work" -lchain -Wl,-rpath,'$ORIGIN' || exit 1
"$work/nofp" loop &
app=$!
$DTRACE -q -n '
syscall::getppid:entry /pid == $1/ {
  @depth = max(ustackdepth);
  @callers[ufunc(ucaller)] = count();
}
tick-1500ms { exit(0); }
END {
  printa("deepest %@d\n", @depth);
  printa("caller %A\n", @callers);
}' "$app" | awk '$1 == "deepest" || ($1 == "caller" && $2 !~ /^0x/) { print $1, $2 }'

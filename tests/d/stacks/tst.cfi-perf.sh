# A profile at 997 Hz of a program built -O2 without frame pointers, busy
# at the bottom of a recursion: the call chain dtrace samples most often
# (profile-997, ustack() by CFI) is the one perf record --call-graph dwarf
# (Debian's linux-perf, which copies the stack and unwinds it afterwards)
# samples most often, compared by the program's own frames, root to leaf
# (libc's frames aside: perf names them by inlined functions from libc's
# debug information).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags="-O2 -fomit-frame-pointer -fno-optimize-sibling-calls -fno-inline"
gcc $flags -fPIC -shared -o "$work/libchain.so" cfi-chain.c &&
  gcc $flags -o "$work/nofp" cfi-nofp.c -L"$work" -lchain -Wl,-rpath,'$ORIGIN' || exit 1

# The most frequent chain of lines "count frame;frame;..." (root first).
most() { sort -k1,1nr | head -1 | cut -d' ' -f2; }

$DTRACE -q -x oformat=folded -n 'profile-997 /pid == $target/ { @[ustack(40)] = count(); }' \
  -c "$work/nofp spin" |
  awk '{ n = $NF; $NF = ""; k = split($0, f, ";"); chain = ""
         for (i = 1; i <= k; i++) if (f[i] ~ /^nofp`/) { sub(/^nofp`/, "", f[i]); sub(/\+.*/, "", f[i]); sub(/ +$/, "", f[i]); chain = chain (chain == "" ? "" : ";") f[i] }
         count[chain] += n }
       END { for (c in count) print count[c], c }' | most >"$work/dtrace"

perf record -q -o "$work/perf.data" --call-graph dwarf -F 997 -- "$work/nofp" spin >/dev/null 2>&1
perf script -i "$work/perf.data" -F ip,sym,dso 2>/dev/null |
  awk 'NF == 0 { if (chain != "") count[chain]++; chain = ""; next }
       $NF ~ /\/nofp\)$/ { chain = $2 (chain == "" ? "" : ";") chain }
       END { if (chain != "") count[chain]++; for (c in count) print count[c], c }' | most >"$work/perf"

echo "dtrace: $(cat "$work/dtrace")"
cmp -s "$work/dtrace" "$work/perf" && echo "perf: the same" || echo "perf: $(cat "$work/perf")"

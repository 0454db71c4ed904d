# At a pid entry probe (the function's first instruction, before it has
# made a frame) of code without frame pointers, the stack is whole: the
# function's CFI says its caller's return address is at the stack pointer.
# ucaller is the caller.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags="-O2 -fomit-frame-pointer -fno-optimize-sibling-calls -fno-inline"
gcc $flags -fPIC -shared -o "$work/libchain.so" cfi-chain.c &&
  gcc $flags -o "$work/nofp" cfi-nofp.c -L"$work" -lchain -Wl,-rpath,'$ORIGIN' || exit 1
$DTRACE -q -c "$work/nofp recursion" -n '
pid$target:a.out:leaf:entry { printf("ucaller %A\n", ucaller); ustack(); }' |
  awk 'NF { frame = $NF; sub(/\+0x[0-9a-f]+$/, "", frame); if (frame !~ /^libc\.so/) print ($1 == "ucaller" ? "ucaller " : "") frame }'

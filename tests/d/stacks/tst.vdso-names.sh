# Code in the vDSO, which no file backs, is named from the kernel's image
# (the same in every process): a program that spends its time reading the
# clock shows [vdso]`__vdso_clock_gettime in its samples and its stacks.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/clock.c" <<'C'
#include <time.h>
int main(void) {
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  do clock_gettime(CLOCK_MONOTONIC, &b);
  while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 400000000L);
  return 0;
}
C
gcc -O2 -o "$work/clock" "$work/clock.c" || exit 1
$DTRACE -q -c "$work/clock" -n '
profile-997 /pid == $target/ { @pc[usym(uregs[R_PC])] = count(); @st[ustack(1)] = count(); }
END { printa("usym %A\n", @pc); printa("ustack%k\n", @st); }' >"$work/out"
for kind in usym ustack; do
	echo "$kind: $(grep -A1 "^$kind" "$work/out" | grep -o '\[vdso\]`[a-z_]*' | sort -u)"
done

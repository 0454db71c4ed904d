# pid probes on a program dtrace starts: entry arguments (the seventh and
# eighth from the stack), the return value as arg1 and the return
# instruction's offset in the function as arg0 (twice() returns from two
# places), a.out for the executable, and main's entry seen although the
# program starts under dtrace.
$DTRACE -q -c "$WORKLOADS/pidfuncs 2" -n '
  pid$target:a.out:add8:entry { printf("%s:%s %d %d %d %d\n", probefunc, probename, arg0, arg1, arg6, arg7); }
  pid$target:a.out:add8:return { printf("%s:%s %d\n", probefunc, probename, arg1); }
  pid$target:a.out:twice:return { @[arg1 < 0 ? "negative" : "positive"] = count(); }
  pid$target:a.out:twice:return /arg1 < 0/ { negative = arg0; }
  pid$target:a.out:twice:return /arg1 >= 0/ { positive = arg0; }
  pid$target:a.out:main:entry { printf("main entered by %s\n", execname); }
  END { printa("%s %@d\n", @);
        printf("two return sites: %d\n", negative != positive && negative > 0 && positive > 0); }' |
  sort

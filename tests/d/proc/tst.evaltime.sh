# -x evaltime: where tracing of a -c command starts. exec sees the dynamic
# linker open the libraries; preinit starts once they are mapped, before
# their initializers (getuid); postinit, the default, at the entry point,
# before the program's own constructor (getgid); main at main() (geteuid).
for evaltime in exec preinit postinit main default; do
	option="-x evaltime=$evaltime"
	[ $evaltime = default ] && option=
	$DTRACE -q $option -c "$WORKLOADS/evaltime" -n '
	syscall::openat:entry /pid == $target/ { loader = 1; }
	syscall::getuid:entry, syscall::getgid:entry, syscall::geteuid:entry
	/pid == $target/ { @[probefunc] = count(); }
	END {
		printf("'$evaltime': loader %s", loader ? "seen" : "unseen");
		printa(" %s %@d", @);
		printf("\n");
	}' | sed '/^$/d'
done

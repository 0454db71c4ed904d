# curpsinfo->pr_psargs (and execargs, FreeBSD's built-in) is the process's
# argument strings, blank-separated, as illumos's psinfo_t gives them: read
# from the process's own memory when it is the one the probe sees (a
# process that has just exec'd), cut to 79 characters in pr_psargs; for
# another task (curthread's parent) it is the command name. As the char
# array it is, it may be measured, indexed, cut, searched and cast.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/run" <<'SH'
#!/bin/sh
exec /bin/true marker "two words" three-3456789012345678901234567890123456789012345678901234567890
SH
chmod +x "$work/run"
$DTRACE -q -c "$work/run" -n '
proc:::exec-success /execname == "true"/
{
	printf("[%s]\n[%s]\n[%s]\n", curpsinfo->pr_psargs, execargs,
	    xlate <psinfo_t *> (curthread->real_parent)->pr_psargs);
	printf("%d %c %s %d [%s]\n", strlen(curpsinfo->pr_psargs), curpsinfo->pr_psargs[1],
	    substr(curpsinfo->pr_psargs, 10, 6), index(curpsinfo->pr_psargs, "two"),
	    stringof((char *)curpsinfo->pr_psargs + 17));
}'

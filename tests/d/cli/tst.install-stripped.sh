# scripts/install-dtrace.sh installs dtrace without its debug info, which
# goes under usr/lib/debug/.build-id/ by the binary's build ID; the
# installed binary runs.
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
scripts=$(cd "$(dirname "$0")/../../../scripts" && pwd)
DESTDIR=$root "$scripts/install-dtrace.sh" "$DTRACE"
installed=$root/usr/sbin/dtrace
id=$(readelf -n "$installed" | awk '/Build ID:/ { print $3 }')
sections() { readelf -S -W "$1" 2>/dev/null | grep -Eo '\.(debug_info|debug_line|symtab)\b' | sort -u | tr '\n' ' '; echo; }
echo "installed: $(sections "$installed")"
echo "debug file: $(sections "$root/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug")"
echo "smaller: $(( $(stat -c %s "$installed") * 2 < $(stat -c %s "$DTRACE") ))"
"$installed" -qn 'BEGIN { printf("ran\n"); exit(0); }'

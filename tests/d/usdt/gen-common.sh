# Shared by the tests of dtrace -h and -G (sourced, not a test itself).
# Each test works in a temporary directory; $USDT is this directory, with
# the fixtures: gen-myapp.d (a provider with one probe of each kind of
# argument), gen-app.c (a program firing them) and gen-enable-probe.c.
USDT=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2

# The stapsdt notes of an ELF file, one line each:
#   PROVIDER NAME LOCATION BASE SEMAPHORE ARGUMENTS...
notes() {
  readelf -n --wide "$1" | awk '
    /Provider:/ { provider = $NF }
    /Name:/ { name = $2 }
    /Location:/ { gsub(",", ""); location = $2; base = $4; semaphore = $6 }
    /Arguments:/ { sub(/^ *Arguments: */, ""); print provider, name, location, base, semaphore, $0 }'
}

# The value of symbol $2 in ELF file $1, as 0x... (empty when absent).
symbol() {
  readelf -sW "$1" | awk -v name="$2" '$8 == name { print "0x" $2; exit }'
}

# "PROVIDER NAME SIZES semaphore=SYMBOL|none|wrong base=ok|wrong" per note
# of $1: the argument sizes without their operands, and whether the
# semaphore and base addresses are those of the symbols they must be.
note_summary() {
  local file=$1 base
  base=$(symbol "$file" _.stapsdt.base)
  notes "$file" | while read -r provider name location nbase semaphore args; do
    local sizes sem="none" expected
    sizes=$(echo "$args" | sed 's/@[^ ]*//g')
    expected=$(symbol "$file" "${provider}_${name}_semaphore")
    if [ -n "$expected" ] && [ $((semaphore)) -eq $((expected)) ]; then
      sem=${provider}_${name}_semaphore
    elif [ $((semaphore)) -ne 0 ]; then
      sem=wrong
    fi
    [ $((nbase)) -eq $((base)) ] && nbase=ok || nbase=wrong
    echo "$provider $name [$sizes] semaphore=$sem base=$nbase"
  done
}

# The file offset of virtual address $2 in ELF file $1 (its LOAD segment's).
file_offset() {
  readelf -lW "$1" | gawk -v addr="$2" '
    $1 == "LOAD" {
      off = strtonum($2); va = strtonum($3); size = strtonum($5)
      a = strtonum(addr)
      if (a >= va && a < va + size) { printf "0x%x\n", a - va + off; exit }
    }'
}

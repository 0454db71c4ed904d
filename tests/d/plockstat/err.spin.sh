# glibc spins on a mutex inline: plockstat's spin probes are refused by
# name (the message's process ID made constant).
set -o pipefail
$DTRACE -c /bin/true -n 'plockstat$target:::mutex-spin' 2>&1 >/dev/null |
  sed 's/plockstat[0-9][0-9]*/plockstatPID/g' >&2

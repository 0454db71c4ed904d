# tracemem() of unreadable memory is an invalid address fault (the clause's
# record is dropped); default output puts the dump after the probe.
$DTRACE -n 'BEGIN { tracemem(0, 8); } BEGIN { tracemem(curthread->comm, 2); exit(0); }' 2>&1 |
  sed -E 's/DIF offset [0-9]+/DIF offset N/; s/^ +[0-9]+( +1 +:BEGIN)/  C\1/'

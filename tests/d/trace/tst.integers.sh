# trace() of integers: signed or unsigned as their type is, in dtrace(1M)'s
# columns (16, 8, 5 and 3 wide for 8, 4, 2 and 1 bytes) unless quiet. The
# CPU column is masked: it depends on where the probe fired.
$DTRACE -n 'BEGIN {
	trace((int8_t)-1); trace((uint8_t)-1); trace((int16_t)-1); trace((uint16_t)-1);
}
BEGIN { trace((int32_t)-1); trace((uint32_t)-1); trace(0xffffffff); trace(7); }
BEGIN { trace((int64_t)-1); trace((uint64_t)-1); trace((void *)0x10); exit(0); }' 2>&1 |
  sed -E 's/^ +[0-9]+ ( +[0-9]+ )/  C\1/'
$DTRACE -qn 'BEGIN {
	trace((int8_t)-1); trace(" "); trace((uint8_t)-1); trace(" ");
	trace((int16_t)-1); trace(" "); trace((uint16_t)-1); trace(" ");
	trace((int32_t)-1); trace(" "); trace((uint32_t)-1); trace(" ");
	trace((int64_t)-1); trace(" "); trace((uint64_t)-1); trace("\n");
	exit(0);
}'

# chip, pset and curcpu's members name the CPU a probe fires on: the chip is
# the CPU's physical package as sysfs describes it, and every CPU is in the
# default processor set (-1). Each CPU is checked where it runs a clause.
$DTRACE -q -n '
profile-199 { @[cpu, chip, pset, curcpu->cpu_chip == chip, curcpu->cpu_id == cpu] = count(); }
tick-300ms { exit(0); }
END { printa("%d %d %d %d %d\n", @); }' |
while read -r cpu chip pset same_chip same_cpu; do
	[ -z "$cpu" ] && continue
	want=$(cat /sys/devices/system/cpu/cpu$cpu/topology/physical_package_id)
	[ "$chip" = "$want" ] || echo "cpu $cpu: chip $chip, sysfs says $want"
	echo "pset $pset, members agree: $same_chip $same_cpu"
done | sort -u

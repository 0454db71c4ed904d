/* lgrp is the NUMA node of the CPU the probe fires on, as curcpu->cpu_lgrp. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", lgrp >= 0, lgrp == curcpu->cpu_lgrp);
	exit(0);
}

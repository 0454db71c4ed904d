/* tick-N with units: each fires at its own rate. */
#pragma D option quiet

tick-1ms { ms++; }
tick-5000us { us++; }
tick-100hz { hz++; }
tick-200ms
{
	printf("%d %d %d\n", ms >= 150, us >= 30 && us <= 41, hz >= 15 && hz <= 21);
	exit(0);
}

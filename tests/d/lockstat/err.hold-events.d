/* Linux has no tracepoint for an uncontended acquire: refused by name. */
lockstat:::adaptive-acquire
{
	exit(0);
}

# setopt() while tracing: dynamic options change (switchrate, quiet ...),
# other run-time options fail with illumos's EDT_ACTIVE and tracing goes
# on (dtrace_setopt with dt_active).
$DTRACE -q -n 'BEGIN { setopt("bufsize", "1m"); setopt("nspec", "2"); setopt("destructive");
  setopt("switchrate", "20hz"); setopt("quiet", ""); printf("after\n"); exit(0); }' 2>&1

# -V names the D language version (as illumos: "Sun D 1.13") and exits 0.
$DTRACE -V
echo "status $?"

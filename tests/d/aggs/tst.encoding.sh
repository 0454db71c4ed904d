# -x encoding=utf8 draws distribution and agghist bars with block
# characters: whole columns of U+2588, then the eighths left over as one
# of U+2589 to U+258F (1/3 of 40 columns is 13 and 2/8). aggpack follows
# the option before the terminal: utf8 even where TERM is dumb, and ascii
# ("_xX") where TERM would allow blocks.
$DTRACE -q -x encoding=utf8 -n 'BEGIN { @q = quantize(1); @q = quantize(2); @q = quantize(2);
  @q = quantize(40); exit(0); }'
$DTRACE -q -x encoding=utf8 -x agghist -n 'BEGIN { @h["a"] = count(); @h["b"] = count();
  @h["b"] = count(); exit(0); }'
$DTRACE -q -x encoding=ascii -n 'BEGIN { @q = quantize(1); @q = quantize(2); exit(0); }'
TERM=dumb $DTRACE -q -x encoding=utf8 -x aggpack -n 'BEGIN { @q = quantize(1); @q = quantize(2);
  @q = quantize(2); exit(0); }'
TERM=xterm $DTRACE -q -x encoding=ascii -x aggpack -n 'BEGIN { @q = quantize(1); @q = quantize(2);
  @q = quantize(2); exit(0); }'

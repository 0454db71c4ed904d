# Dynamic variables share dynvarsize, as in DTrace: an element of a[int]
# or self->int takes a 72-byte chunk and a 16-byte hash bucket, so 880
# bytes hold 10 elements of all variables together. Twelve stores drop
# two; zeroing four frees their room for four more; a store to an element
# that exists never needs room.
$DTRACE -q -x dynvarsize=880 -n '
BEGIN {
  a[0] = 1; a[1] = 1; a[2] = 1; a[3] = 1; a[4] = 1; a[5] = 1;
  self->p = 1; self->q = 1; self->r = 1; self->s = 1;
  b[0] = 1; b[1] = 1;
  printf("a %d%d%d%d%d%d self %d%d%d%d b %d%d\n", a[0], a[1], a[2], a[3], a[4], a[5],
         self->p, self->q, self->r, self->s, b[0], b[1]);
  a[0] = 0; a[1] = 0; self->p = 0; self->q = 0;
  b[0] = 2; b[1] = 2; b[2] = 2; b[3] = 2; b[4] = 2;
  a[5] = 3;
  printf("a %d%d%d%d%d%d self %d%d%d%d b %d%d%d%d%d\n", a[0], a[1], a[2], a[3], a[4], a[5],
         self->p, self->q, self->r, self->s, b[0], b[1], b[2], b[3], b[4]);
  exit(0);
}' 2>&1

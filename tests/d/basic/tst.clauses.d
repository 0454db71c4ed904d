/* Clauses for the same probe run in script order; this-> lives across them. */
#pragma D option quiet

BEGIN { this->x = 10; n = 1; }
BEGIN /n == 1/ { printf("first %d\n", this->x); n = 2; }
BEGIN /n == 1/ { printf("never\n"); }
BEGIN /n == 2/ { printf("second\n"); }
BEGIN { exit(0); }
END { printf("end %d\n", n); }

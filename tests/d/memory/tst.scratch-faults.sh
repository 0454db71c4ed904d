# Faults of the memory subroutines: a full scratch area, writes outside
# alloca'd memory, unreadable sources, bad strtoll() bases and address families.
$DTRACE -q -n '
BEGIN { this->n = 4096; this->p = alloca(this->n); }
BEGIN { this->p = alloca(2000); this->q = alloca(56); }
BEGIN { this->p = alloca(8); bcopy(0, this->p, 8); }
BEGIN { copyinto(16, 8, alloca(8)); }
BEGIN { this->p = alloca(8); bcopy(this->p, (char *)this->p + 8, 1); }
BEGIN { this->p = alloca(8); bcopy(this->p, 4096, 1); }
BEGIN { this->x = copyin(0, 2); }
BEGIN { trace(strtoll("1", 37)); }
BEGIN { trace(inet_ntop(3, alloca(4))); }
BEGIN { this->p = alloca(2000); this->q = alloca(8); printf("%d\n", (char *)this->q - (char *)this->p); exit(0); }
' 2>&1 | sed -E 's/DIF offset [0-9]+/DIF offset N/; s/\(0xf[0-9a-f]+\)/(SCRATCH)/'

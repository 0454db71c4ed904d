# print() of a pointer shows the address (masked here: it varies), then the
# object with its type: one member per line with the type as the declaration
# names it (typedefs included), nested structs and unions, char arrays up to
# their NUL, enums by name. Members that are all zeros are left out.
$DTRACE -qs /dev/stdin <<'EOF' | sed -E 's/^0x[0-9a-f]+ = /ADDR = /'
#pragma D option quiet

enum state { IDLE = 0, BUSY = 1, DONE = 3 };

struct sample {
	int		id;
	char		tag[6];
	union {
		uint8_t		low;
		uint64_t	all;
	} u;
	struct {
		void		*where;
		int64_t		delta;
	} at;
	unsigned int	flags : 3;
	unsigned int	mode : 5;
	short		hist[3];
	enum state	state;
	int		unused;
};

BEGIN
{
	s = (struct sample *)alloca(sizeof (struct sample));
	s->id = -7;
	s->tag[0] = 'd';
	s->tag[1] = 'o';
	s->tag[2] = 'n';
	s->tag[3] = 'e';
	s->u.all = 0x1ff;
	s->at.delta = -100;
	s->flags = 5;
	s->mode = 17;
	s->hist[1] = 2;
	s->state = BUSY;
	print(s);
	s->state = 2;
	print(&s->u);
	print(&s->state);
	exit(0);
}
EOF

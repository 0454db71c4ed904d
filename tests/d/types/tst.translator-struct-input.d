/*
 * A translator may take a struct by value: applied to a struct variable
 * (global or thread-local) or to an object in memory (*curthread), its
 * members read the input where it is, whole or member by member.
 */
#pragma D option quiet
struct in_s { int ii; char ic; };
struct out_s { int oi; char oc; };
translator struct out_s < struct in_s v > { oi = ((struct in_s)v).ii * 2; oc = v.ic; };
struct task_view { int id; };
translator struct task_view < struct task_struct t > { id = t.pid; };
struct in_s in;
struct out_s out;
BEGIN
{
	in.ii = 21; in.ic = 'z';
	self->in = in;
	self->in.ii = 50;
	out = xlate <struct out_s> (in);
	printf("%d %c\n", out.oi, out.oc);
	printf("%d %c\n", xlate <struct out_s> (self->in).oi, xlate <struct out_s> (in).oc);
	printf("%d\n", xlate <struct task_view> (*curthread).id == tid);
	exit(0);
}

/*
 * A provider with a probe for each kind of argument dtrace -h and -G must
 * size from the declaration.
 */
provider myapp {
	probe query__start(char *, int);
	probe d__ash(uintptr_t, char, short, unsigned long long, long, string);
	probe done();
	probe mapped(int a, char *b) : (string b, int a);
};

#pragma D attributes Evolving/Evolving/Common provider myapp provider
#pragma D attributes Private/Private/Unknown provider myapp module
#pragma D attributes Evolving/Evolving/Common provider myapp args

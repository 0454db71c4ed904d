/*
 * A tracing script may define a provider (as the .d file a program's
 * build uses does): the definition is accepted and has no effect.
 */
#pragma D option quiet

provider myapp {
	probe query__start(char *, int) : (string, int);
	probe done();
};

#pragma D attributes Evolving/Evolving/Common provider myapp provider

BEGIN
{
	printf("traced with a provider definition\n");
	exit(0);
}

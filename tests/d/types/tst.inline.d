/* inline names stand for their expression, converted to their type. */
#pragma D option quiet

inline int MAX = 10;
inline uint8_t SMALL = 300;
inline string GREETING = "hello";
inline int TWICE_PID = pid * 2;

BEGIN
{
	printf("%d %d %s %d\n", MAX + 1, SMALL, GREETING, TWICE_PID == pid * 2);
	exit(0);
}

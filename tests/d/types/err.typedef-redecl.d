/* A typedef name names one type. */
typedef int foo_t;
typedef long foo_t;

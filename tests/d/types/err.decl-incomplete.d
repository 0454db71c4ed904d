/* A variable of a struct nothing defines has no layout. */
struct nosuch v;

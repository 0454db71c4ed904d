/* No variable is void. */
void x;

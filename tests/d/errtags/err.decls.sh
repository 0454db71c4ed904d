# Declarations DTrace refuses, with its tags (dt_node_decl, dt_decl_array,
# dt_decl_member, dt_decl_prototype).
check() { $DTRACE -x errtags -e -n "$1"; }
check 'int `xyz;'
check 'extern int;'
check 'struct s { int trace(); };'
check 'int x[88294967295];'
check 'int x[void, char];'
check 'int x[];'
check 'int x[5]; BEGIN { x[1, 2] = 1; }'
check 'BEGIN { x = (long long long)1; }'
check 'extern int e8; BEGIN { trace(e8); }'
check 'BEGIN { x += 1; }'
check 'BEGIN { self->a[1] -= 1; }'
check 'inline int rand = 7;'
check 'translator struct nosuch < int x > { a = x; };'
check 'struct dup { int x;
char x; };'
exit 1

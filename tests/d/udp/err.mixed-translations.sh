# One clause serves every probe it names, so they must agree on what a
# translated argument comes from: tcp's ipinfo_t is a packet's, udp's a
# socket's.
$DTRACE -n 'tcp:::state-change, udp:::send { trace(args[2]->ip_saddr); }'
exit 1

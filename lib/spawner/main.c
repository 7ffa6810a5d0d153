/*
 * pmustat-spawner: the spawn server as its own small program (see
 * src/run/spawn.h). It links libc only (statically where it can), so the
 * children it starts share almost no memory until they exec, and their
 * peak RSS (ru_maxrss, which counts that memory) is the program's own — a
 * pmustat process carries about 1 MiB of relocated libpfm4 tables that a
 * child started by pmustat itself would report as its own.
 * Usage (by pmustat only): pmustat-spawner SOCKET_FD
 */
#include <stdlib.h>

#include "run/spawn_proto.h"

int main(int argc, char **argv)
{
	if (argc != 2)
		return 2;
	spawner_serve(atoi(argv[1]));
}

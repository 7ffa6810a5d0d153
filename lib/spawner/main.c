/*
 * pmustat-spawner: the spawn server as its own small program (see
 * src/run/spawn.h). It links libc only, so the children it forks inherit
 * almost no anonymous memory and their peak RSS (ru_maxrss) is the
 * program's own — a pmustat process carries about 1 MiB of relocated
 * libpfm4 tables that a directly forked child would report as its own.
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

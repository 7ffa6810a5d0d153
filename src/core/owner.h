/*
 * Who owns what a pmustat process leaves on the machine while it runs (its
 * temporary directories, its uprobe trace events) and must remove before
 * it ends. A kill -9 leaves them, so a later pmustat removes them once
 * their owner is gone. The owner is recorded in the thing's name as a pid
 * with that process's start time (field 22 of /proc/PID/stat, clock ticks
 * after boot): a pid alone would name the wrong process once reused, and
 * a leftover whose pid some other process took would be kept for ever.
 */
#ifndef PMU_CORE_OWNER_H
#define PMU_CORE_OWNER_H

/* The start time of process pid, 0 when it is not running (or cannot be
 * read). With the pid it names one process. */
unsigned long long owner_start(long pid);

/*
 * Is the owner (pid, start) gone: no process pid, one that started at
 * another time (the pid was reused), or a zombie? start 0 means unknown:
 * gone only when no process pid runs. When /proc cannot say (an error other than "no
 * such process") the owner is taken as alive: a live campaign's files are
 * never removed on a guess.
 */
int owner_gone(long pid, unsigned long long start);

#endif

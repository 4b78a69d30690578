/* Linux's CPU list format ("0-3,8,10-11"), as sysfs writes it and --cpus / cpus_allowed take it:
 * one parser for the inventory (counting a cache's or the machine's CPUs) and io/ (pinning). */
#ifndef NM_UTIL_CPULIST_H
#define NM_UTIL_CPULIST_H

#include <stddef.h>

/* The CPUs of s (blanks and a newline around it allowed; "" or "\n": none), counting a CPU
 * listed twice twice; -1 when malformed (a range backwards, a CPU past 1<<22). */
int cpulist_count(const char *s);
/* The CPUs of s into cpus[], in the order listed; returns their count, or -1 when malformed,
 * empty, past CPU_SETSIZE or more than max. */
int cpulist_cpus(const char *s, int *cpus, unsigned max);

/* The CPUs set in mask (bit c of byte c/8, ncpus bits) in the list format ("0-1,4"), into buf;
 * their count (0: none, buf ""), or -1 when buf is too short. */
int cpulist_format(const unsigned char *mask, size_t ncpus, char *buf, size_t len);
/* The CPUs this process may run on (sched_getaffinity, what taskset and cgroup cpusets set), in
 * the list format into buf; their count, or -1 when the kernel would not say or buf is short. */
int cpulist_allowed(char *buf, size_t len);

#endif

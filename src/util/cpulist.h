/* Linux's CPU list format ("0-3,8,10-11"), as sysfs writes it and --cpus / cpus_allowed take it:
 * one parser for the inventory (counting a cache's or the machine's CPUs) and io/ (pinning). */
#ifndef NM_UTIL_CPULIST_H
#define NM_UTIL_CPULIST_H

/* The CPUs of s (blanks and a newline around it allowed; "" or "\n": none), counting a CPU
 * listed twice twice; -1 when malformed (a range backwards, a CPU past 1<<22). */
int cpulist_count(const char *s);
/* The CPUs of s into cpus[], in the order listed; returns their count, or -1 when malformed,
 * empty, past CPU_SETSIZE or more than max. */
int cpulist_cpus(const char *s, int *cpus, unsigned max);

#endif

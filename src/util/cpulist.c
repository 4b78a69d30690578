#include "util/cpulist.h"

#include <ctype.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define CPULIST_MAX_CPU (1L << 22)

/* The next range first-last of the list [*pp, end), *pp moved past it and its comma: 1, or 0
 * at the end of the list, -1 when malformed or past max_cpu. */
static int next_range(const char **pp, const char *end, long max_cpu, long *first, long *last)
{
	const char *p = *pp;
	char *e;
	if (p == end)
		return 0;
	if (!isdigit((unsigned char)*p))
		return -1;
	long a = strtol(p, &e, 10), b = a;
	p = e;
	if (p < end && *p == '-') {
		p++;
		if (p == end || !isdigit((unsigned char)*p))
			return -1;
		b = strtol(p, &e, 10);
		p = e;
	}
	if (p > end || a > b || b > max_cpu)
		return -1;
	if (p < end && *p == ',' && p + 1 < end)
		p++;
	else if (p < end)
		return -1;
	*first = a, *last = b, *pp = p;
	return 1;
}

int cpulist_count(const char *s)
{
	const char *end = s + strlen(s);
	while (*s == ' ')
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\n'))
		end--;
	long count = 0, first, last;
	int r;
	while ((r = next_range(&s, end, CPULIST_MAX_CPU, &first, &last)) > 0)
		if ((count += last - first + 1) > CPULIST_MAX_CPU)
			return -1;
	return r < 0 ? -1 : (int)count;
}

int cpulist_cpus(const char *s, int *cpus, unsigned max)
{
	const char *end = s + strlen(s);
	unsigned n = 0;
	long first, last;
	int r;
	while ((r = next_range(&s, end, CPU_SETSIZE - 1, &first, &last)) > 0)
		for (long c = first; c <= last; c++) {
			if (n == max)
				return -1;
			cpus[n++] = (int)c;
		}
	return r < 0 || n == 0 ? -1 : (int)n;
}

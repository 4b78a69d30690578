#include "util/cpulist.h"

#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
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

int cpulist_format(const unsigned char *mask, size_t ncpus, char *buf, size_t len)
{
	size_t used = 0;
	int count = 0;
	if (len)
		buf[0] = '\0';
	for (size_t c = 0; c < ncpus;) {
		if (!(mask[c / 8] & (1u << (c % 8)))) {
			c++;
			continue;
		}
		size_t last = c;
		while (last + 1 < ncpus && (mask[(last + 1) / 8] & (1u << ((last + 1) % 8))))
			last++;
		char one[48];
		int n = last == c ? snprintf(one, sizeof one, "%s%zu", count ? "," : "", c)
				  : snprintf(one, sizeof one, "%s%zu-%zu", count ? "," : "", c, last);
		if (n < 0 || used + (size_t)n >= len)
			return -1;
		memcpy(buf + used, one, (size_t)n + 1);
		used += (size_t)n;
		count += (int)(last - c + 1);
		c = last + 1;
	}
	return count;
}

int cpulist_allowed(char *buf, size_t len)
{
	/* a machine with more CPUs than the set holds answers EINVAL: grow it (as taskset does) */
	for (size_t ncpus = CPU_SETSIZE; ncpus <= (size_t)CPULIST_MAX_CPU; ncpus *= 2) {
		cpu_set_t *set = CPU_ALLOC(ncpus);
		if (!set)
			return -1;
		size_t size = CPU_ALLOC_SIZE(ncpus);
		CPU_ZERO_S(size, set);
		if (sched_getaffinity(0, size, set) == 0) {
			unsigned char *mask = calloc(size, 1);
			int n = -1;
			if (mask) {
				for (size_t c = 0; c < size * 8; c++)
					if (CPU_ISSET_S(c, size, set))
						mask[c / 8] |= (unsigned char)(1u << (c % 8));
				n = cpulist_format(mask, size * 8, buf, len);
			}
			free(mask);
			CPU_FREE(set);
			return n;
		}
		CPU_FREE(set);
		if (errno != EINVAL)
			return -1;
	}
	return -1;
}

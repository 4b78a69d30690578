#include "util/units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *units_bytes_iec(uint64_t bytes, char *buf, size_t len)
{
	static const char *names[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	int i = 0;
	while (v >= 1024 && i < 6) {
		v /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else
		snprintf(buf, len, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, names[i]);
	return buf;
}

const char *units_bytes_exact(uint64_t n, const char *sep, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	int u = 0;
	while (u < 6 && n && n % 1024 == 0) {
		n /= 1024;
		u++;
	}
	/* a typed size has no B: "1000", not "1000B" */
	snprintf(buf, len, "%llu%s%s", (unsigned long long)n, u || *sep ? sep : "", u || *sep ? units[u] : "");
	return buf;
}

static const char *si(double v, const char *unit, char *buf, size_t len)
{
	static const char *prefix[] = { "", "k", "M", "G", "T", "P", "E" };
	int i = 0;
	while ((v >= 1000 || v <= -1000) && i < 6) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, v >= 100 || v <= -100 ? "%.0f %s%s" : v >= 10 || v <= -10 ? "%.1f %s%s" : "%.2f %s%s",
		 v, prefix[i], unit);
	return buf;
}

const char *units_bytes_si(double bytes, char *buf, size_t len) { return si(bytes, "B", buf, len); }
const char *units_rate_si(double bps, char *buf, size_t len) { return si(bps, "B/s", buf, len); }

const char *units_count(double n, char *buf, size_t len)
{
	static const char *prefix[] = { "", "k", "M", "G", "T" };
	int i = 0;
	while (n >= 1000 && i < 4) {
		n /= 1000;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%.0f", n);
	else
		snprintf(buf, len, n >= 100 ? "%.0f%s" : n >= 10 ? "%.1f%s" : "%.2f%s", n, prefix[i]);
	return buf;
}

const char *units_duration(uint64_t ns, char *buf, size_t len)
{
	double v = (double)ns;
	if (ns < 1000)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, v < 10e3 ? "%.2fµs" : v < 100e3 ? "%.1fµs" : "%.0fµs", v / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, v < 10e6 ? "%.2fms" : v < 100e6 ? "%.1fms" : "%.0fms", v / 1e6);
	else if (ns < 60ull * 1000000000)
		snprintf(buf, len, v < 10e9 ? "%.2fs" : "%.1fs", v / 1e9);
	else {
		/* Minutes and hours keep their seconds (1h07m13s), to the nearest second. */
		uint64_t s = (ns + 500000000ull) / 1000000000ull;
		if (s < 3600)
			snprintf(buf, len, "%llum%02llus", (unsigned long long)(s / 60), (unsigned long long)(s % 60));
		else
			snprintf(buf, len, "%lluh%02llum%02llus", (unsigned long long)(s / 3600),
				 (unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60));
	}
	return buf;
}

/* 3 significant digits, no exponent: "7.52", "75.2", "752", "7520". */
static const char *digits3(double v, const char *unit, char *buf, size_t len)
{
	double a = fabs(v);
	snprintf(buf, len, a >= 100 || a == 0 ? "%.0f %s" : a >= 10 ? "%.1f %s" : a >= 1 ? "%.2f %s" : "%.3g %s", v,
		 unit);
	return buf;
}

const char *units_latency(double ns, char *buf, size_t len)
{
	double a = fabs(ns);
	if (!isfinite(ns))
		snprintf(buf, len, "-");
	else if (a < 1e3)
		digits3(ns, "ns", buf, len);
	else if (a < 1e6)
		digits3(ns / 1e3, "µs", buf, len);
	else if (a < 1e9)
		digits3(ns / 1e6, "ms", buf, len);
	else if (a < 59.95e9)
		digits3(ns / 1e9, "s", buf, len);
	else
		units_duration((uint64_t)(a + 0.5), buf, len);
	return buf;
}

/* A rate or count: plain digits from 1000 up (no k/M: counts stay counts), 4 digits below
 * (a median of counts may fall between two). */
static const char *plain(double v, const char *unit, char *buf, size_t len)
{
	snprintf(buf, len, fabs(v) >= 1000 ? "%.0f%s%s" : "%.4g%s%s", v, *unit ? " " : "", unit);
	return buf;
}

const char *units_figure(double v, const char *metric, const char *unit, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (strcmp(unit, "B/s") == 0)
		si(v, "B/s", buf, len);
	else if (strcmp(unit, "B") == 0)
		si(v, "B", buf, len);
	else if (strcmp(unit, "ns") == 0)
		units_latency(v, buf, len);
	else if (strcmp(unit, "s") == 0)
		units_latency(v * 1e9, buf, len);
	else if (strcmp(unit, "op/s") == 0)
		plain(v, strstr(metric, "pieces") ? "pieces/s" : strcmp(metric, "iops") == 0 ? "IOPS" : "op/s", buf,
		      len);
	else if (unit[0] == '/' || strcmp(unit, "") == 0)
		plain(v, unit, buf, len);
	else
		snprintf(buf, len, "%.4g %s", v, unit);
	return buf;
}

const char *units_shown(const char *figure)
{
	const char *sp = strrchr(figure, ' ');
	return sp && sp[1] ? sp + 1 : NULL;
}

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

const char *units_ratio(double r, char *buf, size_t len)
{
	if (!isfinite(r))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fabs(r) >= 99.995 ? "%.0fx" : "%.2fx", r);
	return buf;
}

const char *units_shown(const char *figure)
{
	const char *sp = strrchr(figure, ' ');
	return sp && sp[1] ? sp + 1 : NULL;
}

void units_shown_add(char *buf, size_t len, const char *figure)
{
	const char *u = units_shown(figure);
	if (!u)
		return;
	size_t n = strlen(u);
	for (const char *p = buf; (p = strstr(p, u)); p += n)
		if ((p == buf || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
			return;
	size_t l = strlen(buf);
	snprintf(buf + l, len - l, "%s%s", l ? ", " : "", u);
}

/* nodemark's metrics in words, without a direction (read_, write_, trim_: said before) */
static const struct {
	const char *metric, *label;
} metric_labels[] = {
	{ "bytes_per_sec", "bandwidth" },
	{ "first_done_bytes_per_sec", "first-done bandwidth" },
	{ "iops", "IOPS" },
	{ "lat_mean_ns", "mean latency" },
	{ "lat_p99_ns", "p99 latency" },
	{ "clat_mean_ns", "mean completion latency" },
	{ "clat_p99_ns", "p99 completion latency" },
	{ "cpu_ns_per_io", "CPU time per I/O" },
	{ "cycles_per_byte", "cycles per byte" },
	{ "pieces_per_sec", "piece rate" },
	{ "ops_per_sec", "op rate" },
	{ "ns_per_op", "time per op" },
	{ "wall_s", "wall time" },
	{ "user_s", "user CPU time" },
	{ "sys_s", "system CPU time" },
	{ "cpu_s", "CPU time" },
	{ "total_s", "total time" },
	{ "segment_s", "segment time" },
	{ "max_rss", "peak memory" },
	{ "vol_ctx_switches", "voluntary context switches" },
	{ "invol_ctx_switches", "involuntary context switches" },
	{ "cpu_pct", "CPU %" },
};

const char *units_metric_words(const char *metric, char *buf, size_t len)
{
	static const char *const dirs[] = { "read_", "write_", "trim_" };
	size_t d = 0, k;
	for (k = 0; k < 3; k++)
		if (strncmp(metric, dirs[k], strlen(dirs[k])) == 0)
			d = strlen(dirs[k]);
	const char *m = metric + d;
	for (k = 0; k < sizeof metric_labels / sizeof metric_labels[0]; k++)
		if (strcmp(m, metric_labels[k].metric) == 0) {
			snprintf(buf, len, "%.*s%s%s", d ? (int)d - 1 : 0, metric, d ? " " : "", metric_labels[k].label);
			return buf;
		}
	/* another metric: its words, without the unit its name ends in (major_faults, read_chars) */
	size_t n = strlen(metric);
	if (n > 3 && strcmp(metric + n - 3, "_ns") == 0)
		n -= 3;
	else if (n > 2 && strcmp(metric + n - 2, "_s") == 0)
		n -= 2;
	snprintf(buf, len, "%.*s", (int)n, metric);
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
	return buf;
}

const char *units_header(const char *metric, const char *units, char *buf, size_t len)
{
	char label[96];
	units_metric_words(metric, label, sizeof label);
	size_t l = strlen(label), u = units ? strlen(units) : 0;
	/* the words already end in the unit: "IOPS", "CPU %" (not "CPU % (%)") */
	if (!u || (u <= l && strcmp(label + l - u, units) == 0 && (u == l || label[l - u - 1] == ' ')))
		snprintf(buf, len, "%s", label);
	else
		snprintf(buf, len, "%s (%s)", label, units);
	return buf;
}

/* Numbers for tables the way benchstat prints them: a row of values shares one SI (k M G, m µ n)
 * or IEC (Ki Mi Gi) prefix chosen from its smallest non-zero magnitude, with 4 significant
 * digits for it ("1.718µ", "237.5n", "2.001Gi").  Units counting bytes (B, MB, bytes in the
 * numerator) scale by 1024, all others by 1000. */
#ifndef NM_STATS_SCALE_H
#define NM_STATS_SCALE_H

#include <stddef.h>

enum scale_class { SCALE_DECIMAL, SCALE_BINARY };

struct scaler {
	int prec;            /* digits after the point */
	double factor;       /* value of one prefix unit */
	const char *prefix;  /* "", "k", "Mi", "µ", ... */
};

enum scale_class scale_class_of(const char *unit);

/* The common scale for vals[0..n). */
struct scaler scale_common(const double *vals, size_t n, enum scale_class cls);
const char *scale_format(const struct scaler *s, double v, char *buf, size_t len);
/* One value on its own scale. */
const char *scale_one(double v, enum scale_class cls, char *buf, size_t len);

/* Go benchmark units to base units as benchstat does: ns/op -> sec/op (x 1e-9),
 * MB/s -> B/s (x 1e6), and "ns"/"MB" in any other numerator.  Returns the factor and writes the
 * new unit into out. */
double scale_tidy_unit(const char *unit, char *out, size_t len);

#endif

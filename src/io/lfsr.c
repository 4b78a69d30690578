/* fio's random_generator=lfsr: random offsets in the order of a maximal-length linear feedback
 * shift register. A Galois register of w bits whose feedback is a primitive polynomial of
 * degree w steps through all 2^w - 1 non-zero states before it comes back to the first. Taking
 * the smallest w with 2^w - 1 >= n and stepping over the states past n, the register gives
 * every block of [0, n) exactly once in n draws, with no map of the blocks (fio's reason for
 * it: no random map, yet no block twice in a pass), and then the same order again. At most
 * about half of the states are stepped over (2^(w-1) - 1 < n), so a draw takes under two
 * steps on average. */
#include "io/internal.h"

/* The feedback masks: bit t-1 set for each term x^t of the polynomial (the constant term is
 * implied). Widths 3 to 64 are the taps of the published table of maximal-length LFSRs
 * (Xilinx XAPP052); 1 and 2 are x + 1 and x^2 + x + 1. Each is primitive: tests/unit/test_io.c
 * walks the whole period of the widths up to 22. */
#define TAP(t) (1ull << ((t) - 1))
#define TAPS2(a, b) (TAP(a) | TAP(b))
#define TAPS4(a, b, c, d) (TAP(a) | TAP(b) | TAP(c) | TAP(d))
static const uint64_t feedback_of_width[65] = {
	[1] = TAP(1),
	[2] = TAPS2(2, 1),
	[3] = TAPS2(3, 2),
	[4] = TAPS2(4, 3),
	[5] = TAPS2(5, 3),
	[6] = TAPS2(6, 5),
	[7] = TAPS2(7, 6),
	[8] = TAPS4(8, 6, 5, 4),
	[9] = TAPS2(9, 5),
	[10] = TAPS2(10, 7),
	[11] = TAPS2(11, 9),
	[12] = TAPS4(12, 6, 4, 1),
	[13] = TAPS4(13, 4, 3, 1),
	[14] = TAPS4(14, 5, 3, 1),
	[15] = TAPS2(15, 14),
	[16] = TAPS4(16, 15, 13, 4),
	[17] = TAPS2(17, 14),
	[18] = TAPS2(18, 11),
	[19] = TAPS4(19, 6, 2, 1),
	[20] = TAPS2(20, 17),
	[21] = TAPS2(21, 19),
	[22] = TAPS2(22, 21),
	[23] = TAPS2(23, 18),
	[24] = TAPS4(24, 23, 22, 17),
	[25] = TAPS2(25, 22),
	[26] = TAPS4(26, 6, 2, 1),
	[27] = TAPS4(27, 5, 2, 1),
	[28] = TAPS2(28, 25),
	[29] = TAPS2(29, 27),
	[30] = TAPS4(30, 6, 4, 1),
	[31] = TAPS2(31, 28),
	[32] = TAPS4(32, 22, 2, 1),
	[33] = TAPS2(33, 20),
	[34] = TAPS4(34, 27, 2, 1),
	[35] = TAPS2(35, 33),
	[36] = TAPS2(36, 25),
	[37] = TAPS4(37, 5, 4, 3) | TAP(2) | TAP(1),
	[38] = TAPS4(38, 6, 5, 1),
	[39] = TAPS2(39, 35),
	[40] = TAPS4(40, 38, 21, 19),
	[41] = TAPS2(41, 38),
	[42] = TAPS4(42, 41, 20, 19),
	[43] = TAPS4(43, 42, 38, 37),
	[44] = TAPS4(44, 43, 18, 17),
	[45] = TAPS4(45, 44, 42, 41),
	[46] = TAPS4(46, 45, 26, 25),
	[47] = TAPS2(47, 42),
	[48] = TAPS4(48, 47, 21, 20),
	[49] = TAPS2(49, 40),
	[50] = TAPS4(50, 49, 24, 23),
	[51] = TAPS4(51, 50, 36, 35),
	[52] = TAPS2(52, 49),
	[53] = TAPS4(53, 52, 38, 37),
	[54] = TAPS4(54, 53, 18, 17),
	[55] = TAPS2(55, 31),
	[56] = TAPS4(56, 55, 35, 34),
	[57] = TAPS2(57, 50),
	[58] = TAPS2(58, 39),
	[59] = TAPS4(59, 58, 38, 37),
	[60] = TAPS2(60, 59),
	[61] = TAPS4(61, 60, 46, 45),
	[62] = TAPS4(62, 61, 6, 5),
	[63] = TAPS2(63, 62),
	[64] = TAPS4(64, 63, 61, 60),
};

unsigned lfsr_seq_width(uint64_t n)
{
	unsigned w = 1;
	while (w < 64 && (1ull << w) - 1 < n)
		w++;
	return w;
}

void lfsr_seq_init(struct lfsr_seq *l, uint64_t n, uint64_t seed)
{
	if (!n)
		n = 1;
	unsigned w = lfsr_seq_width(n);
	uint64_t period = w == 64 ? UINT64_MAX : (1ull << w) - 1;
	l->n = n;
	l->feedback = feedback_of_width[w];
	/* The seed picks where the cycle starts: a state of a value, so that a pass of n draws
	 * ends back on it */
	l->state = prng_next(&seed) % period + 1;
	if (l->state > n)
		lfsr_seq_next(l);
	l->start = l->state;
}

/* The unit of a job's register: the smallest step of the directions the job does (fio counts
 * the blocks in its smallest block size too), a step being the block size, or a mix's
 * alignment (blockalign, else its smallest size). */
static uint64_t unit_of(const struct io_job *job)
{
	int used[DIR_COUNT] = { 0 };
	switch (job->rw) {
	case IO_RANDREAD:
		used[DIR_READ] = 1;
		break;
	case IO_RANDWRITE:
		used[DIR_WRITE] = 1;
		break;
	case IO_RANDRW:
		used[DIR_READ] = job->rwmix_read > 0;
		used[DIR_WRITE] = job->rwmix_read < 100;
		break;
	default: /* randtrim, randtrimwrite: the writes follow the trims */
		used[DIR_TRIM] = 1;
		break;
	}
	int mixed = io_job_mixed_bs(job);
	uint64_t unit = 0;
	for (int d = 0; d < DIR_COUNT; d++) {
		if (!used[d])
			continue;
		uint64_t step = !mixed ? job->bs[d] : job->pattern.blockalign[d] ? job->pattern.blockalign[d] : io_bs_smallest(job, d);
		if (step && (!unit || step < unit))
			unit = step;
	}
	return unit ? unit : job->bs[DIR_READ];
}

void io_lfsr_setup(const struct io_job *job, struct io_file *f, uint64_t seed)
{
	f->lfsr_unit = unit_of(job);
	f->lfsr_seed = seed;
	lfsr_seq_init(&f->lfsr, f->lfsr_unit ? f->region_len / f->lfsr_unit : 1, seed);
}

uint64_t io_lfsr_offset(struct io_file *f, uint64_t need)
{
	/* Blocks where need bytes would pass the region's end are stepped over: with one block
	 * size there are none, with a mix only the last few. */
	for (uint64_t tries = 0; tries <= f->lfsr.n; tries++) {
		uint64_t off = lfsr_seq_next(&f->lfsr) * f->lfsr_unit;
		if (off + need <= f->region_len)
			return f->region_start + off;
	}
	return f->region_start;
}

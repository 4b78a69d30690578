/* read_iolog's blktrace binaries, read as fio 3.33 reads them (its blktrace.c): a file of
 * records, each the kernel's struct blk_io_trace (48 bytes: magic|version, sequence, time in
 * ns, sector, bytes, action, pid, device, cpu, error, pdu_len) and pdu_len bytes of payload,
 * written in the tracing host's byte order (the first record's magic tells which). Only queue
 * records become I/O: a discard is a trim, a flush a sync, any other a write when it has the
 * write bit, else a read (pc requests too, as in 3.33); notify records, other actions and the
 * payloads are passed over. Offsets are sector x 512 (/ replay_scale, rounded down to
 * replay_align), sizes rounded up to replay_align; a queue record of 0 bytes is skipped, and
 * replay_skip drops the kinds it names. The gaps between the queue records' times are the
 * replay's pace, as a v3 log's. Where fio reads past damage (a short last record, a payload
 * past the end) or crashes on it (a bad magic or version after the first), this is an error. */
#include "fio/iolog_state.h"
#include "util/error.h"

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define BT_MAGIC 0x65617400u
#define BT_VERSION 7u
#define BT_RECORD 48u
#define BT_TA_QUEUE 1u            /* the action's low 16 bits */
#define BT_TA_BACKMERGE 2u
#define BT_TA_FRONTMERGE 3u
#define BT_TA_COMPLETE 8u
#define BT_READ BT_TC(0)
#define BT_TC(bit) (1u << (16 + (bit))) /* a category, in the action's high 16 bits */
#define BT_WRITE BT_TC(1)
#define BT_FLUSH BT_TC(2)
#define BT_NOTIFY BT_TC(10)
#define BT_DISCARD BT_TC(13)

struct bt_record {
	uint32_t magic;
	uint64_t time, sector;
	uint32_t bytes, action, device;
	uint16_t pdu_len;
};

static uint64_t get_uint(const unsigned char *p, unsigned n, int big)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

static void decode(const unsigned char *p, int big, struct bt_record *t)
{
	t->magic = (uint32_t)get_uint(p, 4, big);
	t->time = get_uint(p + 8, 8, big);
	t->sector = get_uint(p + 16, 8, big);
	t->bytes = (uint32_t)get_uint(p + 24, 4, big);
	t->action = (uint32_t)get_uint(p + 28, 4, big);
	t->device = (uint32_t)get_uint(p + 36, 4, big);
	t->pdu_len = (uint16_t)get_uint(p + 46, 2, big);
}

int fio_blktrace_is(const unsigned char *data, size_t len)
{
	return len >= 4 && (((uint32_t)get_uint(data, 4, 0) & ~0xffu) == BT_MAGIC ||
			    ((uint32_t)get_uint(data, 4, 1) & ~0xffu) == BT_MAGIC);
}

/* The block device under dir with that number (no link followed), depth levels down. */
static int find_device(const char *dir, dev_t want, int depth, char *out, size_t outlen)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int found = 0;
	for (struct dirent *de; !found && (de = readdir(d));) {
		char path[512];
		struct stat st;
		if (de->d_name[0] == '.' || snprintf(path, sizeof path, "%s/%s", dir, de->d_name) >= (int)sizeof path)
			continue;
		if (lstat(path, &st) < 0)
			continue;
		if (S_ISBLK(st.st_mode) && st.st_rdev == want)
			found = snprintf(out, outlen, "%s", path) < (int)outlen;
		else if (S_ISDIR(st.st_mode) && depth > 0)
			found = find_device(path, want, depth - 1, out, outlen);
	}
	closedir(d);
	return found;
}

/* The file of a record's device: replay_redirect's, or the device of that number in /dev
 * (fio's 20 minor bits, the kernel's dev_t in a trace). Its index, or -1 with a message. */
static int device_file(struct fio_log_state *s, uint32_t device, char *err, size_t errlen)
{
	char path[512];
	if (s->j->iolog.redirect) {
		snprintf(path, sizeof path, "%s", s->j->iolog.redirect);
	} else if (!find_device("/dev", makedev(device >> 20, device & 0xfffff), 3, path, sizeof path)) {
		return nm_errf(err, errlen, "device %u:%u of the trace is not in /dev (replay_redirect=FILE "
			       "replays the trace onto a file)", device >> 20, device & 0xfffff);
	}
	if (fio_log_add_file(s, path, err, errlen) < 0)
		return -1;
	return fio_log_file_index(s, path);
}

/* A queue record's replay entry, unless replay_skip drops its kind or it moves nothing. */
static int queue_entry(struct fio_log_state *s, const struct bt_record *t, uint64_t delay_ns, char *err,
		       size_t errlen)
{
	const struct fio_iolog_opts *o = &s->j->iolog;
	uint32_t bytes = t->bytes;
	if (o->align) /* fio rounds the size up in 32 bits */
		bytes = (uint32_t)(bytes + (uint32_t)o->align - 1) & ~(uint32_t)(o->align - 1);
	int act = t->action & BT_DISCARD ? IO_REPLAY_TRIM : t->action & BT_FLUSH ? IO_REPLAY_SYNC
		  : t->action & BT_WRITE ? IO_REPLAY_WRITE : IO_REPLAY_READ;
	if (o->skip & (1u << act) || (act != IO_REPLAY_SYNC && !bytes))
		return 0; /* fio skips a read or write of 0 bytes; a discard of 0 it trims, here nothing */
	if (bytes > (256u << 20))
		return nm_errf(err, errlen, "an I/O of %" PRIu32 " bytes: at most 256 MiB", bytes);
	int fi = device_file(s, t->device, err, errlen);
	if (fi < 0)
		return -1;
	struct io_replay_entry *e = fio_log_push(s);
	e->act = (uint8_t)act;
	e->file = (uint16_t)fi;
	e->delay_us = delay_ns / 1000;
	if (act == IO_REPLAY_SYNC) {
		s->syncs++;
		return 0;
	}
	uint64_t off = t->sector * 512; /* wraps as fio's does */
	if (o->scale)
		off /= o->scale;
	if (o->align)
		off &= ~(o->align - 1);
	e->offset = off;
	e->len = bytes;
	fio_log_count_io(s, act, off, bytes, (unsigned)fi);
	return 0;
}

/* The gap since the last queue record's time, in ns: fio's, 0 at first, after a step back
 * and under replay_no_stall, else at replay_time_scale percent of the trace's pace. */
static uint64_t gap_ns(struct fio_log_state *s, uint64_t time)
{
	const struct fio_iolog_opts *o = &s->j->iolog;
	uint64_t last = s->last_us; /* a trace's times are ns */
	s->last_us = time;
	if (!last || o->no_stall || time < last)
		return 0;
	return fio_log_scaled_gap(s, time - last);
}

/* A record's direction for the depth probe, by its category bits as fio's (read first): 0
 * read, 1 write, 2 trim, -1 none. */
static int depth_dir(uint32_t action)
{
	return action & BT_READ ? DIR_READ : action & BT_WRITE ? DIR_WRITE : action & BT_DISCARD ? DIR_TRIM : -1;
}

/* fio 3.33's probe of a trace's depth: per direction, a queue record adds one I/O in flight,
 * a merge takes one off, and a completion takes the count so far as a depth seen and starts
 * it again from 0 (not one off: fio's count). The deepest direction is the job's iodepth unless
 * iodepth= was given; over 1024 is 1024 (stacked devices' traces miss completions) and a
 * direction with I/O but no completion counts 1. */
static void depth_probe(const struct bt_record *t, int *now, int *most)
{
	int d = depth_dir(t->action);
	if (d < 0 || t->action & BT_NOTIFY)
		return;
	unsigned what = t->action & 0xffffu;
	if (what == BT_TA_QUEUE) {
		now[d]++;
	} else if (what == BT_TA_BACKMERGE || what == BT_TA_FRONTMERGE) {
		now[d]--;
	} else if (what == BT_TA_COMPLETE) {
		most[d] = now[d] > most[d] ? now[d] : most[d];
		now[d] = 0;
	}
}

static void depth_settle(struct fio_log_state *s, const int *most, const uint64_t *ios0)
{
	for (int d = 0; d < DIR_COUNT; d++) {
		int depth = most[d] > 1024 ? 1024 : most[d];
		if (depth <= 0 && s->ios[d] > ios0[d])
			depth = 1;
		if (depth > 0 && (unsigned)depth > s->bt_depth) /* several logs: the deepest */
			s->bt_depth = (unsigned)depth;
	}
}

int fio_blktrace_read(struct fio_log_state *s, const unsigned char *data, size_t len, char *err, size_t errlen)
{
	int now[DIR_COUNT] = { 0 }, most[DIR_COUNT] = { 0 };
	uint64_t ios0[DIR_COUNT];
	memcpy(ios0, s->ios, sizeof ios0);
	int big = ((uint32_t)get_uint(data, 4, 0) & ~0xffu) != BT_MAGIC;
	s->last_us = 0;
	size_t rec = 0;
	for (size_t at = 0; at < len; rec++) {
		struct bt_record t;
		if (len - at < BT_RECORD)
			return nm_errf(err, errlen, "a blktrace cut short: record %zu has %zu of %u bytes", rec,
				       len - at, BT_RECORD);
		decode(data + at, big, &t);
		if ((t.magic & ~0xffu) != BT_MAGIC)
			return nm_errf(err, errlen, "not a blktrace record at byte %zu (record %zu): magic 0x%08" PRIx32,
				       at, rec, t.magic);
		if ((t.magic & 0xffu) != BT_VERSION)
			return nm_errf(err, errlen, "blktrace version %u at record %zu (fio reads version %u)",
				       t.magic & 0xffu, rec, BT_VERSION);
		at += BT_RECORD;
		if (t.pdu_len > len - at)
			return nm_errf(err, errlen, "a blktrace cut short: record %zu's %u payload bytes pass its end",
				       rec, t.pdu_len);
		at += t.pdu_len;
		depth_probe(&t, now, most);
		if ((t.action & 0xffffu) != BT_TA_QUEUE || t.action & BT_NOTIFY)
			continue; /* what the block layer did after the queueing, or a message */
		char msg[320];
		if (queue_entry(s, &t, gap_ns(s, t.time), msg, sizeof msg) < 0)
			return nm_errf(err, errlen, "record %zu: %s", rec, msg);
	}
	depth_settle(s, most, ios0);
	return 0;
}

/* fio's command-line names and getopt_long_only's reading of a word over them (longopts.h).
 * The lists are fio 3.33's, the engines' in each engine's file (io_engine_fio_options);
 * test_fio_cmdline holds them against the installed fio's --cmdhelp and --enghelp. */
#include "fio/longopts.h"
#include "fio/options.h"
#include "fio/parse_util.h"
#include "io/engine.h"
#include "util/error.h"

#include <stdio.h>
#include <string.h>

/* fio's own switches, in its order, with the letter of each (fio's one-letter spelling). */
static const struct fio_switch {
	const char *name;
	char letter;
	enum fio_arg arg;
} switches[] = {
	{ "output", 'o', FIO_ARG_REQUIRED },        { "latency-log", 'l', FIO_ARG_REQUIRED },
	{ "bandwidth-log", 'b', FIO_ARG_NONE },     { "minimal", 'm', FIO_ARG_NONE },
	{ "output-format", 'F', FIO_ARG_REQUIRED }, { "append-terse", 'f', FIO_ARG_OPTIONAL },
	{ "version", 'v', FIO_ARG_NONE },           { "help", 'h', FIO_ARG_NONE },
	{ "cmdhelp", 'c', FIO_ARG_OPTIONAL },       { "enghelp", 'i', FIO_ARG_OPTIONAL },
	{ "showcmd", 's', FIO_ARG_NONE },           { "readonly", 'r', FIO_ARG_NONE },
	{ "eta", 'e', FIO_ARG_REQUIRED },           { "eta-interval", 'O', FIO_ARG_REQUIRED },
	{ "eta-newline", 'E', FIO_ARG_REQUIRED },   { "debug", 'd', FIO_ARG_REQUIRED },
	{ "parse-only", 'P', FIO_ARG_NONE },        { "section", 'x', FIO_ARG_REQUIRED },
	{ "inflate-log", 'X', FIO_ARG_REQUIRED },   { "alloc-size", 'a', FIO_ARG_REQUIRED },
	{ "profile", 'p', FIO_ARG_REQUIRED },       { "warnings-fatal", 'w', FIO_ARG_NONE },
	{ "max-jobs", 'j', FIO_ARG_REQUIRED },      { "terse-version", 'V', FIO_ARG_REQUIRED },
	{ "server", 'S', FIO_ARG_OPTIONAL },        { "daemonize", 'D', FIO_ARG_REQUIRED },
	{ "client", 'C', FIO_ARG_REQUIRED },        { "remote-config", 'R', FIO_ARG_REQUIRED },
	{ "cpuclock-test", 'T', FIO_ARG_NONE },     { "crctest", 'G', FIO_ARG_OPTIONAL },
	{ "memcpytest", 'M', FIO_ARG_OPTIONAL },    { "idle-prof", 'I', FIO_ARG_REQUIRED },
	{ "status-interval", 'L', FIO_ARG_REQUIRED }, { "trigger-file", 'W', FIO_ARG_REQUIRED },
	{ "trigger-timeout", 'B', FIO_ARG_REQUIRED }, { "trigger", 'H', FIO_ARG_REQUIRED },
	{ "trigger-remote", 'J', FIO_ARG_REQUIRED }, { "aux-path", 'K', FIO_ARG_REQUIRED },
	{ "merge-blktrace-only", 'A', FIO_ARG_NONE },
};
#define NSWITCHES (sizeof switches / sizeof switches[0])

/* Every job option of fio 3.33 as Debian builds it (names and aliases, its order; gpu_dev_id
 * needs CUDA); the engines' are below. */
static const char *const job_names[] = {
	"description", "name", "wait_for", "filename", "directory", "filename_format", "unique_filename",
	"lockfile", "opendir", "rw", "readwrite", "rw_sequencer", "ioengine", "iodepth", "iodepth_batch",
	"iodepth_batch_submit", "iodepth_batch_complete_min", "iodepth_batch_complete",
	"iodepth_batch_complete_max", "iodepth_low", "serialize_overlap", "io_submit_mode", "size", "io_size",
	"io_limit", "fill_device", "fill_fs", "filesize", "file_append", "offset", "fileoffset", "offset_align",
	"offset_increment", "number_ios", "bs", "blocksize", "ba", "blockalign", "bsrange", "blocksize_range",
	"bssplit", "bs_unaligned", "blocksize_unaligned", "bs_is_seq_rand", "randrepeat", "randseed",
	"norandommap", "softrandommap", "random_generator", "random_distribution", "percentage_random",
	"percentage_sequential", "allrandrepeat", "nrfiles", "nr_files", "openfiles", "file_service_type",
	"fallocate", "fadvise_hint", "fsync", "fdatasync", "write_barrier", "sync_file_range", "direct", "atomic",
	"buffered", "overwrite", "loops", "numjobs", "startdelay", "runtime", "timeout", "time_based",
	"verify_only", "ramp_time", "clocksource", "mem", "iomem", "iomem_align", "mem_align", "verify",
	"do_verify", "verifysort", "verifysort_nr", "verify_interval", "verify_offset", "verify_pattern",
	"verify_fatal", "verify_dump", "verify_async", "verify_backlog", "verify_backlog_batch",
	"verify_async_cpus", "experimental_verify", "verify_state_load", "verify_state_save", "trim_percentage",
	"trim_verify_zero", "trim_backlog", "trim_backlog_batch", "write_iolog", "read_iolog",
	"read_iolog_chunked", "replay_no_stall", "replay_redirect", "replay_scale", "replay_align",
	"replay_time_scale", "replay_skip", "merge_blktrace_file", "merge_blktrace_scalars",
	"merge_blktrace_iters", "exec_prerun", "exec_postrun", "ioscheduler", "zonemode", "zonesize",
	"zonecapacity", "zonerange", "zoneskip", "read_beyond_wp", "max_open_zones", "job_max_open_zones",
	"ignore_zone_limits", "zone_reset_threshold", "zone_reset_frequency", "lockmem", "rwmixread",
	"rwmixwrite", "rwmixcycle", "nice", "prio", "prioclass", "thinktime", "thinktime_spin",
	"thinktime_blocks", "thinktime_blocks_type", "thinktime_iotime", "rate", "rate_min", "ratemin",
	"rate_iops", "rate_iops_min", "rate_process", "rate_cycle", "ratecycle", "rate_ignore_thinktime",
	"max_latency", "latency_target", "latency_window", "latency_percentile", "latency_run", "invalidate",
	"sync", "write_hint", "create_serialize", "create_fsync", "create_on_open", "create_only",
	"allow_file_create", "allow_mounted_write", "pre_read", "cpumask", "cpus_allowed",
	"cpus_allowed_policy", "numa_cpu_nodes", "numa_mem_policy", "end_fsync",
	"fsync_on_close", "unlink", "unlink_each_loop", "exitall", "exit_what", "exitall_on_error",
	"stonewall", "wait_for_previous", "new_group", "thread", "per_job_logs", "write_bw_log",
	"write_lat_log", "write_iops_log", "log_entries", "log_avg_msec", "log_hist_msec",
	"log_hist_coarseness", "write_hist_log", "log_max_value", "log_offset", "log_prio", "log_compression",
	"log_compression_cpus", "log_store_compressed", "log_unix_epoch", "log_alternate_epoch",
	"log_alternate_epoch_clock_id", "block_error_percentiles", "bwavgtime", "iopsavgtime",
	"group_reporting", "stats", "zero_buffers", "refill_buffers", "scramble_buffers", "buffer_pattern",
	"buffer_compress_percentage", "buffer_compress_chunk", "dedupe_percentage", "dedupe_global",
	"dedupe_mode", "dedupe_working_set_percentage", "clat_percentiles", "lat_percentiles",
	"slat_percentiles", "percentile_list", "significant_figures", "disk_util", "gtod_reduce",
	"disable_lat", "disable_clat", "disable_slat", "disable_bw_measurement", "disable_bw", "gtod_cpu",
	"unified_rw_reporting", "continue_on_error", "ignore_error", "error_dump", "profile", "cgroup",
	"cgroup_nodelete", "cgroup_weight", "uid", "gid", "kb_base", "unit_base", "hugepage-size", "flow_id",
	"flow", "flow_watermark", "flow_sleep", "steadystate", "ss", "steadystate_duration", "ss_dur",
	"steadystate_ramp_time", "ss_ramp",
	/* the options of fio's profiles (act, tiobench), in its table too: "size" twice makes
	 * --siz ambiguous in fio, and --threa (thread, threads, threads-per-queue) */
	"device-names", "load", "test-duration", "threads-per-queue", "read-req-num-512-blocks",
	"large-block-op-kbytes", "prep", "size", "block", "numruns", "dir", "threads",
};
#define NJOB_NAMES (sizeof job_names / sizeof job_names[0])

/* The job options fio's command line takes bare: fio's "switch" type, whose value is optional
 * (only "=V"); every other one requires a value. The engines' say theirs (io_engine_fio_option). */
static const char *const bare_names[] = {
	"bs_unaligned", "blocksize_unaligned", "norandommap", "time_based", "verify_only", "exitall",
	"exitall_on_error", "stonewall", "wait_for_previous", "new_group", "thread", "group_reporting",
	"zero_buffers", "refill_buffers",
};

int fio_engine_known(const char *engine)
{
	return engine && io_engine_fio_options(engine) != NULL;
}

int fio_engine_has_option(const char *engine, const char *name)
{
	const struct io_engine_fio_option *o = engine ? io_engine_fio_options(engine) : NULL;
	for (; o && o->name; o++)
		if (strcmp(o->name, name) == 0)
			return 1;
	return 0;
}

int fio_is_engine_option(const char *name)
{
	const struct io_engine_ops *e;
	for (unsigned i = 0; (e = io_engine_at(i)); i++)
		for (const struct io_engine_fio_option *o = e->fio_options; o && o->name; o++)
			if (strcmp(o->name, name) == 0)
				return 1;
	return 0;
}

static enum fio_arg option_arg(const char *name)
{
	for (size_t i = 0; i < sizeof bare_names / sizeof bare_names[0]; i++)
		if (strcmp(bare_names[i], name) == 0)
			return FIO_ARG_OPTIONAL;
	return FIO_ARG_REQUIRED;
}

/* One name of getopt's table: a switch, a job option or the engine's. */
struct cand {
	const char *name;
	enum fio_arg arg;
	int is_switch;
};

/* Each name of getopt's table in turn (the engine's last); 0 past the end. */
static int cand_at(size_t i, const char *engine, struct cand *c)
{
	if (i < NSWITCHES) {
		*c = (struct cand){ switches[i].name, switches[i].arg, 1 };
		return 1;
	}
	i -= NSWITCHES;
	if (i < NJOB_NAMES) {
		*c = (struct cand){ job_names[i], option_arg(job_names[i]), 0 };
		return 1;
	}
	i -= NJOB_NAMES;
	const struct io_engine_fio_option *o = engine ? io_engine_fio_options(engine) : NULL;
	for (; o && o->name; o++)
		if (i-- == 0) {
			*c = (struct cand){ o->name, o->bare ? FIO_ARG_OPTIONAL : FIO_ARG_REQUIRED, 0 };
			return 1;
		}
	return 0;
}

static const struct fio_switch *switch_of_letter(char l)
{
	for (size_t i = 0; i < NSWITCHES; i++)
		if (switches[i].letter == l && l)
			return &switches[i];
	return NULL;
}

int fio_word_short(const char *letters, struct fio_word *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	const struct fio_switch *s = switch_of_letter(letters[0]);
	if (!s)
		return nm_errf(err, errlen, "-%c: invalid option (as fio's: not one of its one-letter switches)",
			       letters[0] > ' ' && letters[0] < 127 ? letters[0] : '?');
	out->name = s->name;
	out->arg = s->arg;
	out->is_switch = 1;
	if (letters[1] && s->arg != FIO_ARG_NONE) {
		out->has_value = 1;
		out->value = letters + 1;
	} else if (letters[1]) {
		out->rest = letters + 1;
	}
	return 0;
}

/* A name nodemark's option table has and fio 3.33's getopt has not (threads, the newer fio's
 * steadystate_check_interval), typed in full: *c gets it. Never an abbreviation, so that such a
 * name cannot make one of fio's ambiguous. */
static int nodemark_only(const char *name, size_t n, struct cand *c)
{
	char key[80];
	if (n >= sizeof key)
		return 0;
	memcpy(key, name, n);
	key[n] = '\0';
	const struct fio_option *d = fio_option_find(key);
	if (!d || d->eopt || fio_is_engine_option(d->name))
		return 0;
	*c = (struct cand){ d->name, d->type == FIO_T_BOOL ? FIO_ARG_OPTIONAL : FIO_ARG_REQUIRED, 0 };
	return 1;
}

int fio_word_match(const char *w, const char *engine, struct fio_word *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	int dashes = w[1] == '-' ? 2 : 1;
	const char *name = w + dashes;
	/* getopt_long_only: "-o" is the letter when it is one of fio's letters */
	if (dashes == 1 && name[0] && !name[1] && switch_of_letter(name[0]))
		return fio_word_short(name, out, err, errlen);
	const char *eq = strchr(name, '=');
	size_t n = eq ? (size_t)(eq - name) : strlen(name);
	struct cand c, found = { 0 };
	int nfound = 0, exact = 0;
	char list[256] = "";
	for (size_t i = 0; cand_at(i, engine, &c); i++) {
		if (strncmp(c.name, name, n) != 0)
			continue;
		if (strlen(c.name) == n) { /* an exact match wins at once */
			found = c;
			exact = 1;
			break;
		}
		if (nfound++ == 0)
			found = c;
		snprintf(list + strlen(list), sizeof list - strlen(list), "%s%.*s%s", nfound > 1 ? ", " : "", dashes,
			 "--", c.name);
	}
	if (!exact && nfound != 1 && nodemark_only(name, n, &found)) {
		exact = 1;
		nfound = 1;
	}
	char qb[64], key[80]; /* the name as typed, without its value, for the messages */
	snprintf(key, sizeof key, "%.*s", (int)(n < 79 ? n : 79), name);
	if (!exact && nfound > 1)
		return nm_errf(err, errlen, "%.*s%s: ambiguous (as fio's getopt): %s", dashes, "--",
			       fio_q(key, qb, sizeof qb), list);
	if (!exact && !nfound) {
		if (dashes == 1 && switch_of_letter(name[0])) /* getopt_long_only: then the letter */
			return fio_word_short(name, out, err, errlen);
		if (fio_is_engine_option(key)) /* another engine's: fio loads options with the engine */
			return nm_errf(err, errlen, "--%s: unrecognized option (as fio's): the engine here is %s, and on "
				       "fio's command line an engine's options come after its --ioengine=",
				       fio_q(key, qb, sizeof qb), engine ? engine : "none");
		return nm_errf(err, errlen, "%.*s%s: unrecognized option (as fio's)", dashes, "--",
			       fio_q(key, qb, sizeof qb));
	}
	out->name = found.name;
	out->arg = found.arg;
	out->is_switch = found.is_switch;
	if (eq) {
		if (found.arg == FIO_ARG_NONE)
			return nm_errf(err, errlen, "--%s: takes no value (as fio's getopt)", out->name);
		out->has_value = 1;
		out->value = eq + 1;
	}
	return 0;
}

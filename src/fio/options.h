/* The one table of fio's job options: name, aliases, value type, fio's default, how nodemark
 * treats it and what it maps to.  The parser, `nodemark fio --cmdhelp` and the unit test that
 * checks docs/fio-compat.md all read this table, so they cannot disagree. */
#ifndef NM_FIO_OPTIONS_H
#define NM_FIO_OPTIONS_H

#include <stddef.h>
#include <stdio.h>
#include "fio/plan.h"

struct io_engine_option;

enum fio_opt_type {
	FIO_T_BOOL,     /* a bare flag means 1 */
	FIO_T_INT,
	FIO_T_SIZE,     /* fio's sizes: 4k, 1m, 2g (kb_base) */
	FIO_T_TIME,     /* a bare number is seconds */
	FIO_T_STR,
	FIO_T_LIST,     /* a ':' or ',' separated list */
	FIO_T_STR_OPT,  /* a string that may stand alone (fio's write_bw_log: the job's name) */
};

typedef int (*fio_apply_fn)(struct fio_job *j, const char *v, char *err, size_t errlen);

struct fio_option {
	const char *name;
	const char *aliases;            /* other spellings, space-separated, or NULL */
	enum fio_opt_type type;
	const char *def;                /* fio's default as fio prints it, or NULL */
	enum fio_opt_support support;
	fio_apply_fn apply;             /* SUPPORTED and IGNORED (which still checks its value) */
	const char *text;               /* SUPPORTED: what it sets; IGNORED/REFUSED: why (on stderr) */
	/* An engine's option (io/engine.h): the row is made from the engine's own table, and
	 * fio_option_apply parses the value by its type instead of calling apply. */
	const struct io_engine_option *eopt;
};

/* The table, in the order docs and --cmdhelp list it. */
extern const struct fio_option fio_options[];
extern const size_t fio_noptions;

/* By name or alias, the table's options first, then the engines' (each engine's own table,
 * io/engine.h); NULL when neither has it. */
const struct fio_option *fio_option_find(const char *name);
/* Set an option's value on a job: its apply, or for an engine's option the value parsed by
 * its type and stored where the engine's table says. 0, or -1 with a message. */
int fio_option_apply(const struct fio_option *d, struct fio_job *j, const char *v, char *err, size_t errlen);
/* Refuse what nodemark does not implement, note what it ignores (once, in p->warnings).
 * dashes is "--" on the command line, "" in job files, for the message. */
int fio_option_check(struct fio_plan *p, const char *dashes, const char *key, char *err, size_t errlen);
/* The value alone checked (on a job with fio's defaults), as it is read, so the message can
 * name the file and line; the job's own context is applied later. */
int fio_option_value_check(const struct fio_option *d, const char *v, char *err, size_t errlen);
/* --cmdhelp: every option (name NULL or "all"), or one. Returns 0, -1 when name is unknown. */
int fio_option_help(FILE *out, const char *name);

/* --enghelp[=ENGINE] is kept in fio_plan.cmdhelp behind this prefix: nothing runs, and
 * fio_option_help prints fio's engine names (from the engine map, apply.c), or the options of
 * one engine (those of the table whose text starts "ENGINE: "). */
#define FIO_ENGHELP_PREFIX "enghelp:"
int fio_engine_help(FILE *out, const char *engine);

/* A value must follow (a bare name is refused); booleans and ignored options may stand alone. */
static inline int fio_option_needs_value(const struct fio_option *o)
{
	return o->support == FIO_OPT_SUPPORTED && o->type != FIO_T_BOOL && o->type != FIO_T_STR_OPT;
}

#define FIO_APPLY(name) int fio_apply_##name(struct fio_job *j, const char *v, char *err, size_t errlen)
FIO_APPLY(name);
FIO_APPLY(noop);
FIO_APPLY(write_iolog);
FIO_APPLY(read_iolog);
FIO_APPLY(read_iolog_chunked);
FIO_APPLY(replay_no_stall);
FIO_APPLY(replay_redirect);
FIO_APPLY(replay_time_scale);
FIO_APPLY(replay_scale);
FIO_APPLY(replay_align);
FIO_APPLY(replay_skip);
FIO_APPLY(rw);
FIO_APPLY(rwmixread);
FIO_APPLY(rwmixwrite);
FIO_APPLY(bs);
FIO_APPLY(iodepth);
FIO_APPLY(numjobs);
FIO_APPLY(unused_int);
FIO_APPLY(loops);
FIO_APPLY(nrfiles);
FIO_APPLY(size);
FIO_APPLY(filesize);
FIO_APPLY(offset);
FIO_APPLY(offset_increment);
FIO_APPLY(offset_align);
FIO_APPLY(file_append);
FIO_APPLY(filename_format);
FIO_APPLY(unique_filename);
FIO_APPLY(filename);
FIO_APPLY(directory);
FIO_APPLY(runtime);
FIO_APPLY(ramp_time);
FIO_APPLY(startdelay);
FIO_APPLY(time_based);
FIO_APPLY(randrepeat);
FIO_APPLY(allrandrepeat);
FIO_APPLY(unified_rw_reporting);
FIO_APPLY(bs_unaligned);
FIO_APPLY(norandommap);
FIO_APPLY(refill_buffers);
FIO_APPLY(end_fsync);
FIO_APPLY(create_only);
FIO_APPLY(fill_device);
FIO_APPLY(unlink);
FIO_APPLY(fallocate);
FIO_APPLY(overwrite);
FIO_APPLY(create_serialize);
FIO_APPLY(stonewall);
FIO_APPLY(new_group);
FIO_APPLY(group_reporting);
FIO_APPLY(thread);
FIO_APPLY(disk_util);
FIO_APPLY(slat_percentiles);
FIO_APPLY(clat_percentiles);
FIO_APPLY(lat_percentiles);
FIO_APPLY(direct);
FIO_APPLY(buffered);
FIO_APPLY(zero_buffers);
FIO_APPLY(fsync);
FIO_APPLY(fdatasync);
FIO_APPLY(invalidate);
FIO_APPLY(iomem_align);
FIO_APPLY(mem);
FIO_APPLY(lockmem);
FIO_APPLY(fadvise_hint);
FIO_APPLY(iodepth_batch);
FIO_APPLY(iodepth_batch_complete_min);
FIO_APPLY(iodepth_batch_complete_max);
FIO_APPLY(bwavgtime);
FIO_APPLY(iopsavgtime);
FIO_APPLY(randseed);
FIO_APPLY(ioengine);
FIO_APPLY(cpus_allowed);
FIO_APPLY(cpus_allowed_policy);
FIO_APPLY(numa_mem_policy);
FIO_APPLY(serialize_overlap);
FIO_APPLY(numa_cpu_nodes);
FIO_APPLY(percentile_list);
FIO_APPLY(kb_base);
FIO_APPLY(unit_base);
FIO_APPLY(wait_for);
FIO_APPLY(random_generator);
FIO_APPLY(rate);
FIO_APPLY(rate_iops);
FIO_APPLY(rate_min);
FIO_APPLY(rate_iops_min);
FIO_APPLY(rate_process);
FIO_APPLY(thinktime);
FIO_APPLY(thinktime_spin);
FIO_APPLY(thinktime_blocks);
FIO_APPLY(percentage_off);
FIO_APPLY(verify);
FIO_APPLY(do_verify);
FIO_APPLY(verify_only);
FIO_APPLY(verify_interval);
FIO_APPLY(verify_offset);
FIO_APPLY(verify_backlog);
FIO_APPLY(verify_backlog_batch);
FIO_APPLY(verify_bool);
FIO_APPLY(verify_state_load);
FIO_APPLY(verify_state_save);
FIO_APPLY(experimental_verify);
FIO_APPLY(verify_pattern);
FIO_APPLY(bsrange);
FIO_APPLY(bssplit);
FIO_APPLY(blockalign);
FIO_APPLY(random_distribution);
FIO_APPLY(percentage_random);
FIO_APPLY(io_submit_mode);
FIO_APPLY(io_size);
FIO_APPLY(sync);
/* options of fio's file-operation engines' examples (apply_engine.c) */
FIO_APPLY(openfiles);
FIO_APPLY(create_on_open);
FIO_APPLY(exitall);
FIO_APPLY(exit_what);
FIO_APPLY(exitall_on_error);
FIO_APPLY(number_ios);
FIO_APPLY(file_service_type);
/* log files (apply_log.c) */
FIO_APPLY(write_bw_log);
FIO_APPLY(write_lat_log);
FIO_APPLY(write_iops_log);
FIO_APPLY(write_hist_log);
FIO_APPLY(log_avg_msec);
FIO_APPLY(log_max_value);
FIO_APPLY(per_job_logs);
FIO_APPLY(log_compression);
FIO_APPLY(log_compression_cpus);
FIO_APPLY(log_store_compressed);
FIO_APPLY(log_hist_msec);
FIO_APPLY(log_hist_coarseness);
FIO_APPLY(log_offset);
FIO_APPLY(log_prio);
FIO_APPLY(log_unix_epoch);
FIO_APPLY(prio);
FIO_APPLY(prioclass);
FIO_APPLY(cmdprio_percentage);
FIO_APPLY(cmdprio_class);
FIO_APPLY(cmdprio);
FIO_APPLY(cmdprio_bssplit);
/* steady state (fio/apply_end.c) */
FIO_APPLY(steadystate);
FIO_APPLY(steadystate_duration);
FIO_APPLY(steadystate_ramp_time);
FIO_APPLY(steadystate_check_interval);
void fio_job_ss_defaults(struct fio_ss_opts *o);
/* fio's rule: the jobs of a reporting group have the same steady state options; 0 or -1. */
int fio_ss_check_groups(const struct fio_plan *p, char *err, size_t errlen);
/* The per-I/O priority shares of j's cmdprio_bssplit into io (fio/apply_place.c). */
int fio_job_cmdprio_split(const struct fio_job *j, struct io_job *io, char *err, size_t errlen);
/* flows and latency targets (apply_pace.c) */
FIO_APPLY(flow);
FIO_APPLY(flow_id);
FIO_APPLY(flow_sleep);
FIO_APPLY(latency_target);
FIO_APPLY(latency_window);
FIO_APPLY(latency_percentile);
FIO_APPLY(latency_run);
/* One io_flow per flow_id that jobs with a flow weight use, owned by the plan (and freed);
 * -1 when a job would wait for ever on flow-mates that start after it. */
int fio_plan_flows(struct fio_plan *p, char *err, size_t errlen);
void fio_plan_free_flows(struct fio_plan *p);
/* io_job.place from j's placement options, once all are applied: numa_cpu_nodes' CPUs over
 * cpus_allowed's (fio sets them after), .ioprio and .cmdprio from the priority options; 0 or -1. */
int fio_job_place(struct fio_job *j, char *err, size_t errlen);
/* fio's zone options (fio/apply_pattern.c) */
FIO_APPLY(zonemode);
FIO_APPLY(zonesize);
FIO_APPLY(zonerange);
FIO_APPLY(zoneskip);
/* fio's rules once all options are in: zonesize needs zonemode=strided, zonerange defaults to
 * zonesize, one file per thread only (fio turns zones off with more); 0 or -1. */
int fio_job_zones(struct fio_job *j, char *err, size_t errlen);
/* fio's buffer contents (fio/apply_io.c) */
FIO_APPLY(buffer_compress_percentage);
FIO_APPLY(buffer_compress_chunk);
FIO_APPLY(buffer_pattern);
FIO_APPLY(scramble_buffers);
FIO_APPLY(dedupe_percentage);
FIO_APPLY(dedupe_mode);
FIO_APPLY(dedupe_working_set_percentage);
FIO_APPLY(dedupe_global);
/* fio's rules once all options are in: compression 100 % is zero_buffers, below it turns
 * refill_buffers on unless given; working_set's checks; 0 or -1. */
int fio_job_content(struct fio_job *j, char *err, size_t errlen);
/* Each job's first thread's number over the run, and the run's threads (dedupe_global). */
void fio_plan_threads(struct fio_plan *p);

#endif

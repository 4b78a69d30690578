/* The table of fio's job options (see options.h).  Entries are in the order fio's HOWTO lists
 * them by theme; fio's own switches (--output, --section...) are in cmdline.c. */
#include "fio/options.h"
#include "fio/parse_util.h"
#include "io/engine.h"
#include "util/error.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define SUP(n, al, ty, def, fn, what) { n, al, ty, def, FIO_OPT_SUPPORTED, fio_apply_##fn, what, NULL }
#define IGN(n, ty, why) { n, NULL, ty, NULL, FIO_OPT_IGNORED, fio_apply_noop, why, NULL }
#define REF(n, ty, why) { n, NULL, ty, NULL, FIO_OPT_REFUSED, NULL, why, NULL }

const struct fio_option fio_options[] = {
	/* what the job is */
	SUP("name", NULL, FIO_T_STR, NULL, name, "the job's name (a [section]'s name in job files)"),
	SUP("description", NULL, FIO_T_STR, NULL, noop, "kept in the options shown back"),
	SUP("rw", "readwrite", FIO_T_STR, "read", rw,
	    "io_job.rw (trim, randtrim, trimwrite, randtrimwrite too); :N after a sequential mode: io_job.pattern.rw_seq_skip"),
	SUP("rwmixread", NULL, FIO_T_INT, "50", rwmixread, "io_job.rwmix_read"),
	SUP("rwmixwrite", NULL, FIO_T_INT, "50", rwmixwrite, "io_job.rwmix_read = 100 - N"),
	REF("rwmixcycle", FIO_T_INT, "deprecated: fio 3.33 refuses it too (\"Option rwmixcycle is deprecated\", exit 1)"),
	SUP("bs", "blocksize", FIO_T_SIZE, "4k", bs, "io_job.bs[read], io_job.bs[write] (READ,WRITE[,TRIM])"),
	SUP("iodepth", NULL, FIO_T_INT, "1", iodepth, "io_job.iodepth"),
	SUP("numjobs", NULL, FIO_T_INT, "1", numjobs, "io_job.numjobs (threads)"),
	SUP("loops", NULL, FIO_T_INT, "1", loops, "io_job.loops"),
	/* where */
	SUP("size", NULL, FIO_T_SIZE, NULL, size, "io_job.size (bytes of I/O per job)"),
	SUP("filesize", NULL, FIO_T_SIZE, NULL, filesize, "io_job.filesize; alone (no size=), the job's size is filesize x its files, as fio's"),
	SUP("offset", "fileoffset", FIO_T_SIZE, "0", offset, "io_job.offset"),
	SUP("offset_increment", NULL, FIO_T_SIZE, "0", offset_increment,
	    "io_job.files.offset_increment: thread N (of numjobs, the one with the files NAME.N.*) starts at "
	    "offset + N x this, as fio (tests/cli/test_fio_fileopts.sh)"),
	SUP("offset_align", NULL, FIO_T_INT, "0", offset_align,
	    "checked, moves nothing: fio aligns only percentage offsets, which nodemark refuses"),
	SUP("file_append", NULL, FIO_T_BOOL, "0", file_append,
	    "io_job.files.append: I/O starts at a file's end (its size before the job; a new file's 0), "
	    "as fio; a block device's at offset; reading past the end of a file nodemark did not create is "
	    "refused (fio lays the whole file out again)"),
	SUP("filename", NULL, FIO_T_LIST, NULL, filename, "io_job.targets (a:b lists: size/N bytes each, as fio)"),
	SUP("directory", NULL, FIO_T_LIST, NULL, directory, "io_job.targets (a:b lists)"),
	SUP("filename_format", NULL, FIO_T_STR, "$jobname.$jobnum.$filenum", filename_format,
	    "io_job.files.name_format: the names of files nodemark makes ($jobname, $jobnum, $filenum; "
	    "$clientuid empty), as fio; a '/', or no $jobnum with numjobs above 1 (fio 3.33 runs the "
	    "first thread alone), is refused"),
	SUP("unique_filename", NULL, FIO_T_BOOL, "1", unique_filename,
	    "checked, changes nothing: fio puts a client's address before file names only in its "
	    "client/server mode"),
	SUP("fill_device", "fill_fs", FIO_T_BOOL, "0", fill_device,
	    "io_job.files.fill: writes until the filesystem is full: a write's ENOSPC or EDQUOT ends the "
	    "thread, counted as an I/O without bytes, error 0, exit 0, as fio; no free-space check and no "
	    "allocation first; without size= a file's region is the filesystem's size and a block, so "
	    "only ENOSPC ends it. Jobs that only write, sequentially (random ones with size=); "
	    "reading jobs, overwrite=1 and mmap are refused (fio lays their files out until full). "
	    "nodemark's files in a directory= target are removed at the end (tests/cli/test_fio_fill.sh)"),
	SUP("io_size", "io_limit", FIO_T_SIZE, NULL, io_size, "io_job.size (the I/O), with size= as io_job.filesize (the region: random I/O goes over all of it, as fio's)"),
	SUP("nrfiles", "nr_files", FIO_T_INT, "1", nrfiles,
	    "io_job.nrfiles: 1 to 1048576 (fio takes any unsigned; nodemark keeps about 0.5 KiB per "
	    "file and thread); a thread opens them all unless `openfiles` says fewer, so the "
	    "process's RLIMIT_NOFILE below them stops the job on the file it cannot open, exit 1, as "
	    "fio (tests/cli/test_fio_nrfiles.sh)"),
	SUP("create_only", NULL, FIO_T_BOOL, "0", create_only, "io_job.files.create_only"),
	SUP("unlink", NULL, FIO_T_BOOL, "0", unlink,
	    "io_job.files.keep_created (0: a file target nodemark created stays, marked user.nodemark, for later jobs and runs; 1: removed at the end, with any marked file the job used)"),
	SUP("fallocate", NULL, FIO_T_STR, "native", fallocate,
	    "io_job.files.fallocate: how a file nodemark makes is allocated first, as fio's layout: "
	    "native (fallocate mode 0; a failure is let go), none, posix (posix_fallocate), keep "
	    "(fallocate KEEP_SIZE), truncate (ftruncate), 0 (none), 1 (posix); a job that only writes "
	    "gets no data before its own writes, as fio's (a user's file named in --allow-write is "
	    "grown with data instead, never removed: tests/cli/test_fio_fallocate.sh)"),
	SUP("overwrite", NULL, FIO_T_BOOL, "0", overwrite,
	    "io_job.files.overwrite (1: a write job's new files get their data before its writes, as "
	    "a reading job's; 0: only allocated, as fio's)"),
	SUP("create_serialize", NULL, FIO_T_BOOL, "1", create_serialize,
	    "1: every job's files are laid out before the jobs start, one job after another; 0: a job's "
	    "files are laid out by its thread when it starts (a stonewalled job's when its turn comes)"),
	/* how long */
	SUP("runtime", "timeout", FIO_T_TIME, NULL, runtime, "io_job.runtime_ns"),
	SUP("time_based", NULL, FIO_T_BOOL, "0", time_based, "io_job.time_based"),
	SUP("ramp_time", NULL, FIO_T_TIME, "0", ramp_time, "io_job.ramp_ns"),
	SUP("startdelay", NULL, FIO_T_TIME, "0", startdelay, "the scheduler starts the job this long after the run"),
	SUP("steadystate", "ss", FIO_T_STR, "iops_slope:0.01%", steadystate,
	    "CRIT:LIMIT (iops, iops_slope, bw, bw_slope; N, a bw size, or N%): a thread ends once its last "
	    "steadystate_duration of samples meets it (each thread judged alone; with group_reporting the "
	    "group's sum, ending the whole group)"),
	SUP("steadystate_duration", "ss_dur", FIO_T_TIME, "0", steadystate_duration,
	    "the window judged, whole seconds (0: no steady state)"),
	SUP("steadystate_ramp_time", "ss_ramp", FIO_T_TIME, "0", steadystate_ramp_time,
	    "samples are kept from one interval after this on"),
	SUP("steadystate_check_interval", "ss_interval", FIO_T_TIME, "1", steadystate_check_interval,
	    "a bw/iops sample every N s, whole seconds (newer fio's option; fio 3.33 samples each second)"),
	/* how */
	SUP("direct", NULL, FIO_T_BOOL, "0", direct, "io_job.direct"),
	SUP("buffered", NULL, FIO_T_BOOL, "1", buffered, "io_job.direct = !N"),
	/* its default and the names it takes come from the engine table (ioengine_help) */
	SUP("ioengine", NULL, FIO_T_STR, NULL, ioengine, "io_job.engine"),
	SUP("randrepeat", NULL, FIO_T_BOOL, "1", randrepeat, "io_job.pattern.randrepeat"),
	SUP("randseed", NULL, FIO_T_INT, NULL, randseed, "io_job.pattern.seed"),
	SUP("allrandrepeat", NULL, FIO_T_BOOL, "0", allrandrepeat,
	    "io_job.pattern.allrandrepeat: every generator's seed is fio's fixed one (0xb1899bed x thread + "
	    "its number, randseed= or not), so randrepeat=0 repeats too: a mix's sizes and offsets as fio's"),
	REF("percentage_sequential", FIO_T_INT,
	    "deprecated: fio 3.33 refuses it too (\"Option percentage_sequential is deprecated\", exit 1); use percentage_random"),
	SUP("norandommap", NULL, FIO_T_BOOL, "0", norandommap, "io_job.pattern.norandommap"),
	SUP("random_generator", NULL, FIO_T_STR, "tausworthe", random_generator,
	    "lfsr: io_job.pattern.lfsr (each block once per pass in a shift register's order, with or without "
	    "norandommap, the same order each loop); tausworthe (32-bit), tausworthe64 (io_job.pattern.taus64): fio's "
	    "generator and seeds for a mix's sizes and offsets, nodemark's (wyrand) for other offsets"),
	SUP("zero_buffers", NULL, FIO_T_BOOL, "0", zero_buffers, "io_job.buf.fill = zero"),
	SUP("refill_buffers", NULL, FIO_T_BOOL, "0", refill_buffers, "io_job.buf.refill_buffers"),
	SUP("end_fsync", NULL, FIO_T_BOOL, "0", end_fsync, "io_job.sync.end_fsync"),
	SUP("sync", NULL, FIO_T_STR, "none", sync, "1/sync: io_job.sync.fsync_every = 1 (an fsync after each write, "
	    "as durable as O_SYNC); dsync: fdatasync_every = 1"),
	SUP("fsync", NULL, FIO_T_INT, "0", fsync, "io_job.sync.fsync_every"),
	SUP("fdatasync", NULL, FIO_T_INT, "0", fdatasync, "io_job.sync.fdatasync_every"),
	SUP("thread", NULL, FIO_T_BOOL, "0", thread,
	    "nodemark's workers are always threads; the header says \"process\" without it, as fio's"),
	{ "threads", NULL, FIO_T_INT, NULL, FIO_OPT_IGNORED, fio_apply_unused_int,
	  "fio's tiobench profile's thread count, which fio 3.33 takes and ignores outside the profile", NULL },
	SUP("invalidate", NULL, FIO_T_BOOL, "1", invalidate, "drop the page cache each pass (1); 0 keeps it"),
	SUP("fadvise_hint", NULL, FIO_T_STR, "1", fadvise_hint,
	    "io_job.files.fadvise: 1 hints the job's pattern, 0 none, random or sequential that one"),
	SUP("mem", "iomem", FIO_T_STR, "malloc", mem,
	    "io_job.buf.mem: malloc, shm, shmhuge, mmap, mmaphuge, mmapshared, with fio's calls (shmget, mmap, "
	    "their huge-page flags; huge sizes rounded up to 2 MiB); mmap*:PATH maps the file PATH (mmap sets its "
	    "length, the shared kinds need it long enough; removed at the end when made); cudamalloc is refused"),
	SUP("iomem_align", "mem_align", FIO_T_SIZE, "0", iomem_align,
	    "io_job.buf.buf_offset: buffers start N bytes past a page (fio's offset, not an alignment)"),
	SUP("cpus_allowed", NULL, FIO_T_STR, NULL, cpus_allowed, "io_job.place.cpus"),
	SUP("cpus_allowed_policy", NULL, FIO_T_STR, "shared", cpus_allowed_policy,
	    "io_job.place.cpus_shared: shared (every thread on the whole set) or split (thread N of the job file "
	    "on the set's CPU N mod its size)"),
	SUP("numa_cpu_nodes", NULL, FIO_T_STR, NULL, numa_cpu_nodes,
	    "io_job.place.cpus: the CPUs of those nodes (sysfs), every thread on all of them; with cpus_allowed too "
	    "the nodes' win, as in fio"),
	SUP("numa_mem_policy", NULL, FIO_T_STR, NULL, numa_mem_policy,
	    "io_job.place.mem_policy: default, prefer:NODE, bind:NODES, interleave[:NODES], local; each thread's "
	    "set_mempolicy, fio's call, before its buffers; a node must exist here (fio lets prefer name any)"),
	/* reporting */
	SUP("percentile_list", NULL, FIO_T_LIST, NULL, percentile_list, "io_job.report.percentiles"),
	SUP("kb_base", NULL, FIO_T_INT, "1024", kb_base, "how the sizes after it read, and how sizes print"),
	SUP("unit_base", NULL, FIO_T_INT, "0", unit_base, "bytes (0, 8) or bits (1) in the report"),
	SUP("stonewall", "wait_for_previous", FIO_T_BOOL, "0", stonewall, "waits for every earlier job; a new group"),
	SUP("new_group", NULL, FIO_T_BOOL, "0", new_group, "a new reporting group"),
	SUP("wait_for", NULL, FIO_T_STR, NULL, wait_for, "waits for the named earlier job"),
	SUP("group_reporting", NULL, FIO_T_BOOL, "0", group_reporting, "merges the group's threads in the report"),
	SUP("disk_util", NULL, FIO_T_BOOL, "1", disk_util, "the disks' activity in the report"),
	SUP("slat_percentiles", NULL, FIO_T_BOOL, "0", slat_percentiles, "percentiles of submission latency"),
	SUP("clat_percentiles", NULL, FIO_T_BOOL, "1", clat_percentiles, "percentiles of completion latency"),
	SUP("lat_percentiles", NULL, FIO_T_BOOL, "0", lat_percentiles, "percentiles of total latency"),
	SUP("iodepth_batch", "iodepth_batch_submit", FIO_T_INT, "1", iodepth_batch,
	    "io_job.queue.iodepth_batch_submit (I/Os per submitting call; 0: iodepth)"),
	SUP("iodepth_batch_complete_min", "iodepth_batch_complete", FIO_T_INT, "1", iodepth_batch_complete_min,
	    "io_job.queue.iodepth_batch_complete_min (completions each wait waits for)"),
	SUP("iodepth_batch_complete_max", NULL, FIO_T_INT, "1", iodepth_batch_complete_max,
	    "io_job.queue.iodepth_batch_complete_max (most completions taken per wait; at least the min)"),
	SUP("serialize_overlap", NULL, FIO_T_BOOL, "0", serialize_overlap,
	    "io_job.queue.serialize_overlap: an I/O overlapping one queued or in flight on its file waits for its "
	    "completion (async engines at iodepth > 1)"),
	IGN("iodepth_low", FIO_T_INT, "nodemark refills the queue as completions come"),
	IGN("allow_file_create", FIO_T_BOOL, "nodemark creates its files in its own directory"),
	IGN("gtod_reduce", FIO_T_BOOL, "nodemark's timestamps are cheap; it keeps them"),
	IGN("disable_lat", FIO_T_BOOL, "nodemark always measures latency"),
	IGN("disable_clat", FIO_T_BOOL, "nodemark always measures latency"),
	IGN("disable_slat", FIO_T_BOOL, "nodemark always measures latency"),
	{ "disable_bw_measurement", "disable_bw", FIO_T_BOOL, NULL, FIO_OPT_IGNORED, fio_apply_noop,
	  "nodemark always measures bandwidth", NULL },
	IGN("clocksource", FIO_T_STR, "nodemark uses CLOCK_MONOTONIC"),
	SUP("bwavgtime", NULL, FIO_T_INT, "500", bwavgtime, "io_job.report.sample_ns (ms between bw samples)"),
	SUP("iopsavgtime", NULL, FIO_T_INT, "500", iopsavgtime, "io_job.report.iops_sample_ns (ms between iops samples)"),
	IGN("significant_figures", FIO_T_INT, "nodemark prints fio's default precision"),
	IGN("stats", FIO_T_BOOL, "nodemark always collects statistics"),
	IGN("allow_mounted_write", FIO_T_BOOL, "nodemark writes only files it creates"),
	IGN("eta", FIO_T_STR, "in a job: the status line follows the command line's --eta"),
	IGN("eta_newline", FIO_T_TIME, "in a job: the status line follows the command line's --eta-newline"),
	SUP("exitall", NULL, FIO_T_BOOL, NULL, exitall,
	    "any job's end stops the jobs its exit_what names (any value turns it on, as in fio)"),
	SUP("exit_what", NULL, FIO_T_STR, "group", exit_what,
	    "with exitall: group (the job's group), stonewall (every job started), all"),
	SUP("exitall_on_error", NULL, FIO_T_BOOL, NULL, exitall_on_error,
	    "the job's failure stops the jobs its exit_what names"),
	SUP("number_ios", NULL, FIO_T_SIZE, "0", number_ios, "io_job.number_ios: a pass ends after N I/Os per thread (not time_based, as fio)"),
	/* data verification (fio/apply_verify.c, io/verify.c): fio's block headers, read either way */
	SUP("verify", NULL, FIO_T_STR, "0", verify,
	    "io_job.verify: md5, crc32c, crc32c-intel, crc32, sha1, sha256, sha512, xxhash, meta, pattern, null "
	    "(fio's headers and checksums: either tool checks the other's files)"),
	SUP("do_verify", NULL, FIO_T_BOOL, "1", do_verify, "0: headers written, not read back (io_job.verify.no_readback)"),
	SUP("verify_only", NULL, FIO_T_BOOL, "0", verify_only,
	    "io_job.verify.only: the blocks a write job would write are read and checked, nothing written"),
	SUP("verify_interval", NULL, FIO_T_INT, NULL, verify_interval,
	    "io_job.verify.interval: a header every N bytes (default: the smallest block)"),
	SUP("verify_offset", NULL, FIO_T_INT, NULL, verify_offset, "io_job.verify.offset: the header swapped N bytes in"),
	SUP("verify_pattern", NULL, FIO_T_STR, NULL, verify_pattern,
	    "io_job.verify.pattern: \"text\", 'file', 0xHEX, decimal parts (no %o); alone: verify with it"),
	SUP("verify_fatal", NULL, FIO_T_BOOL, "0", verify_bool,
	    "checked: the first bad block fails the job either way, as fio's error does"),
	SUP("verify_backlog", NULL, FIO_T_INT, NULL, verify_backlog,
	    "io_job.verify.backlog: read back the oldest blocks each time N are written and unread"),
	SUP("verify_backlog_batch", NULL, FIO_T_INT, NULL, verify_backlog_batch,
	    "io_job.verify.batch: blocks read back each time (default: verify_backlog)"),
	{ "verify_dump", NULL, FIO_T_BOOL, "0", FIO_OPT_IGNORED, fio_apply_verify_bool,
	  "nodemark writes no dump files (nothing outside its own directory)", NULL },
	SUP("verify_state_save", NULL, FIO_T_BOOL, "1", verify_state_save,
	    "a writing job with verify= saves local-NAME-N-verify.state at its end (fio's file; --aux-path: where)"),
	SUP("verify_state_load", NULL, FIO_T_BOOL, "0", verify_state_load,
	    "reads local-NAME-N-verify.state (fio's or nodemark's): only what those writes completed is read back"),
	{ "verify_async", NULL, FIO_T_INT, "0", FIO_OPT_IGNORED, fio_apply_noop,
	  "nodemark checks in the job's own threads", NULL },
	IGN("verify_async_cpus", FIO_T_STR, "nodemark checks in the job's own threads"),
	SUP("experimental_verify", NULL, FIO_T_BOOL, "0", experimental_verify,
	    "io_job.verify.experimental: every write read back in the order written (a rewritten block fails its write number, as fio), no backlog"),
	IGN("verifysort", FIO_T_BOOL, "deprecated in fio, which ignores it too"),
	IGN("verifysort_nr", FIO_T_INT, "deprecated in fio, which ignores it too"),
	/* fio's log files (fio/logs.c) */
	SUP("write_bw_log", NULL, FIO_T_STR_OPT, NULL, write_bw_log, "PREFIX_bw.N.log: KiB/s per I/O or per log_avg_msec window"),
	SUP("write_lat_log", NULL, FIO_T_STR_OPT, NULL, write_lat_log,
	    "PREFIX_lat.N.log, _slat (engines with a submission step), _clat: ns per I/O or window"),
	SUP("write_iops_log", NULL, FIO_T_STR_OPT, NULL, write_iops_log, "PREFIX_iops.N.log: 1 per I/O, or I/Os per s per window"),
	SUP("write_hist_log", NULL, FIO_T_STR_OPT, NULL, write_hist_log,
	    "PREFIX_clat_hist.N.log: a completion latency histogram per log_hist_msec (empty without it)"),
	SUP("log_avg_msec", NULL, FIO_T_INT, "0", log_avg_msec, "one line per direction and window of N ms (0: per I/O)"),
	SUP("log_max_value", "log_window_value", FIO_T_BOOL, "0", log_max_value, "a window's maximum instead of its mean"),
	SUP("per_job_logs", NULL, FIO_T_BOOL, "1", per_job_logs, "0: one file per prefix, no .N, appended to as fio's (the threads' lines one after another)"),
	SUP("log_hist_msec", NULL, FIO_T_INT, "0", log_hist_msec, "the histogram log's window (ms)"),
	SUP("log_hist_coarseness", NULL, FIO_T_INT, "0", log_hist_coarseness, "0-6: 1856 buckets, halved N times"),
	SUP("log_offset", NULL, FIO_T_BOOL, "0", log_offset, "an offset column (0 in window lines)"),
	SUP("log_prio", NULL, FIO_T_BOOL, "0", log_prio, "the priority column as the ioprio value (0x0000), not 0/1"),
	SUP("log_unix_epoch", NULL, FIO_T_BOOL, "0", log_unix_epoch, "times in Unix ms instead of ms since the start"),
	IGN("log_entries", FIO_T_INT, "nodemark's logs grow in chunks as they fill"),
	SUP("log_compression", NULL, FIO_T_INT, NULL, log_compression,
	    "1024-512M, checked: fio compresses its records in memory, the files are the same (nodemark's records go to disk past 3 MiB)"),
	SUP("log_compression_cpus", NULL, FIO_T_STR, NULL, log_compression_cpus,
	    "checked as cpus_allowed: no compression runs, so no CPU is given to it"),
	SUP("log_store_compressed", NULL, FIO_T_BOOL, NULL, log_store_compressed,
	    "0 only: 1 (zlib .fz files) is refused, nodemark links no zlib"),
	/* fio's iologs (fio/iolog.c, io/replay.c): a job's I/O recorded, a log replayed */
	SUP("write_iolog", NULL, FIO_T_STR, NULL, write_iolog,
	    "io_job.replay.record: each issued I/O as fio's iolog v3 (written whole at the end, not appended; "
	    "numjobs=N: N whole logs one after another, as fio's threads append theirs)"),
	SUP("read_iolog", NULL, FIO_T_STR, NULL, read_iolog,
	    "io_job.replay.entries: a v2/v3 iolog replayed, its files the targets (they must exist); a:b: "
	    "thread t of numjobs replays name t mod 2, as fio's; or a blktrace (replay_redirect: onto one file); up to 128 MiB"),
	{ "read_iolog_chunked", NULL, FIO_T_BOOL, "0", FIO_OPT_IGNORED, fio_apply_read_iolog_chunked,
	  "nodemark reads the whole log (up to 128 MiB) before the job starts", NULL },
	SUP("replay_no_stall", NULL, FIO_T_BOOL, "0", replay_no_stall, "the log's I/Os at once, without its time stamps' gaps"),
	SUP("replay_redirect", NULL, FIO_T_STR, NULL, replay_redirect, "every I/O of the log onto this one file or device"),
	SUP("replay_time_scale", NULL, FIO_T_INT, "100", replay_time_scale,
	    "the log's gaps at 100/N of their length (percent of its pace)"),
	SUP("replay_scale", NULL, FIO_T_INT, "1", replay_scale, "offsets divided by N"),
	SUP("replay_align", NULL, FIO_T_INT, NULL, replay_align, "offsets rounded down to a power of 2"),
	SUP("replay_skip", NULL, FIO_T_STR, NULL, replay_skip,
	    "a blktrace's reads, writes, trims or syncs left out (read,write,trim,sync)"),
	REF("merge_blktrace_file", FIO_T_STR, "fio 3.33's merge reads no trace ('iolog short read'): it "
	    "leaves the file empty and replays the traces unmerged"),
	IGN("merge_blktrace_scalars", FIO_T_LIST, "read only by merge_blktrace_file (refused)"),
	IGN("merge_blktrace_iters", FIO_T_LIST, "read only by merge_blktrace_file (refused)"),
	/* I/O priorities (fio/apply_place.c, io/prio.c) */
	SUP("prio", NULL, FIO_T_INT, NULL, prio, "io_job.place.ioprio's level 0-7: ioprio_set on each thread (class best effort unless prioclass)"),
	SUP("prioclass", NULL, FIO_T_INT, NULL, prioclass, "io_job.place.ioprio's class 0-3 (ionice's: 1 real-time, 2 best effort, 3 idle)"),
	SUP("cmdprio_percentage", NULL, FIO_T_LIST, "0", cmdprio_percentage,
	    "io_uring/libaio: N % of the I/Os (READ,WRITE) with cmdprio_class/cmdprio, in each request"),
	SUP("cmdprio_class", NULL, FIO_T_LIST, "1", cmdprio_class, "the class of cmdprio's I/Os (READ,WRITE)"),
	SUP("cmdprio", NULL, FIO_T_LIST, "0", cmdprio, "the level of cmdprio's I/Os (READ,WRITE)"),
	SUP("cmdprio_bssplit", NULL, FIO_T_LIST, NULL, cmdprio_bssplit,
	    "io_uring/libaio: BS/PCT[/CLASS/LEVEL]:... the share of each size's I/Os with a priority"),
	SUP("rate", NULL, FIO_T_SIZE, "0", rate, "io_job.pace.rate_bps per direction and thread (READ,WRITE), paced as fio's linear rate"),
	SUP("rate_iops", NULL, FIO_T_INT, "0", rate_iops, "io_job.pace.rate_iops per direction and thread"),
	SUP("rate_min", "ratemin", FIO_T_SIZE, "0", rate_min, "io_job.pace.rate_min_bps: the job fails below it (checked as fio)"),
	SUP("rate_iops_min", NULL, FIO_T_INT, "0", rate_iops_min, "io_job.pace.rate_min_iops: the job fails below it"),
	SUP("rate_process", NULL, FIO_T_STR, "linear", rate_process, "linear only"),
	SUP("thinktime", NULL, FIO_T_TIME, "0", thinktime, "io_job.pace.thinktime_ns (a bare number is microseconds)"),
	SUP("thinktime_spin", NULL, FIO_T_TIME, "0", thinktime_spin, "io_job.pace.thinktime_spin_ns"),
	SUP("thinktime_blocks", NULL, FIO_T_INT, "1", thinktime_blocks, "io_job.pace.thinktime_blocks"),
	/* flow control between jobs (fio/apply_pace.c, io/flow.c) */
	SUP("flow_id", NULL, FIO_T_INT, "0", flow_id, "the jobs of one flow_id share a flow (io_job.pace.flow)"),
	SUP("flow", NULL, FIO_T_INT, "0", flow,
	    "io_job.pace.flow_weight: each thread's weight in its flow, up to 1000 (0: none; negative wraps, as fio's)"),
	IGN("flow_watermark", FIO_T_INT, "deprecated: fio 3.33 ignores it too"),
	SUP("flow_sleep", NULL, FIO_T_INT, "0", flow_sleep,
	    "io_job.pace.flow_sleep_ns: a held thread's I/O finishes, then it sleeps N microseconds"),
	/* latency target (fio/apply_pace.c, io/lattarget.c) */
	SUP("latency_target", NULL, FIO_T_TIME, "0", latency_target,
	    "io_job.pace.lat_target_ns (a bare number is microseconds): fio's search for the deepest queue up to iodepth under it"),
	SUP("latency_window", NULL, FIO_T_TIME, "0", latency_window, "io_job.pace.lat_window_ns: each depth is judged over this long"),
	SUP("latency_percentile", NULL, FIO_T_STR, "100", latency_percentile,
	    "io_job.pace.lat_percentile: the share of a window's I/Os that must be under the target"),
	SUP("latency_run", NULL, FIO_T_BOOL, "0", latency_run, "io_job.pace.lat_run: keep adjusting the depth all run long"),
	SUP("bssplit", NULL, FIO_T_LIST, NULL, bssplit,
	    "io_job.pattern.bssplit: SIZE/PCT:... per direction (READ,WRITE; trims take WRITE's); random I/O of a mix "
	    "takes fio's offsets and random map (src/io/randmap.c)"),
	SUP("bsrange", "blocksize_range", FIO_T_LIST, NULL, bsrange,
	    "io_job.pattern.bs_min-io_job.bs: MIN-MAX per direction, multiples of MIN as fio's"),
	SUP("bs_unaligned", "blocksize_unaligned", FIO_T_BOOL, "0", bs_unaligned,
	    "io_job.pattern.bs_unaligned: bsrange's and bssplit's sizes are not rounded down to a multiple of the "
	    "smallest, as fio's (any byte count for bsrange)"),
	SUP("ba", "blockalign", FIO_T_LIST, NULL, blockalign, "io_job.pattern.blockalign: random offsets' alignment; "
	    "other than the smallest size: no random map, as fio"),
	SUP("random_distribution", NULL, FIO_T_STR, "random", random_distribution,
	    "io_job.pattern.dist: random, zipf:θ, pareto:h, normal:dev (alias gauss), each with :center; "
	    "zoned:A/S:... per direction; not uniform: no random map, as fio"),
	SUP("percentage_random", NULL, FIO_T_LIST, "100,100,100", percentage_random,
	    "io_job.pattern.seq_pct = 100 - N per direction (READ,WRITE): a random job's I/O follows on from the "
	    "direction's last one unless fio's draw (1..100) is at most N, with fio's offsets, generators and random "
	    "map (a following I/O leaves the map alone, as fio's); not with lfsr, strided zones or trims"),
	SUP("buffer_compress_percentage", NULL, FIO_T_INT, "0", buffer_compress_percentage,
	    "io_job.buf.content: the share of each chunk that is zeros (turns refill_buffers on unless given; 100: zeros)"),
	SUP("buffer_compress_chunk", NULL, FIO_T_SIZE, "512", buffer_compress_chunk, "io_job.buf.content.chunk"),
	SUP("buffer_pattern", NULL, FIO_T_STR, NULL, buffer_pattern,
	    "io_job.buf.pattern: \"text\", 'file', 0xHEX, decimal parts, repeated from each buffer's start (refill_buffers on when the job reads so far or compresses, as fio)"),
	SUP("scramble_buffers", NULL, FIO_T_BOOL, "1", scramble_buffers, "io_job.buf.scramble: each write's 512-byte sectors get its offset and time, as fio (not with refill_buffers, compression, dedupe, verify, buffer_pattern, or zero_buffers=1 unless given)"),
	SUP("dedupe_percentage", NULL, FIO_T_INT, "0", dedupe_percentage,
	    "io_job.buf.content: the share of written buffers that repeat an earlier one (turns refill_buffers on, as fio)"),
	SUP("dedupe_mode", NULL, FIO_T_STR, "repeat", dedupe_mode,
	    "repeat (the last unique buffer) or working_set (one of the set's)"),
	SUP("dedupe_working_set_percentage", NULL, FIO_T_INT, "5", dedupe_working_set_percentage,
	    "working_set: the set is this % of size, in unique buffers"),
	SUP("dedupe_global", NULL, FIO_T_BOOL, "0", dedupe_global, "working_set: the set spans every job's threads"),
	{ "io_submit_mode", NULL, FIO_T_STR, "inline", FIO_OPT_IGNORED, fio_apply_io_submit_mode,
	  "nodemark submits from the job's own threads", NULL },
	/* the file options fio's file-operation engines' examples use (apply_engine.c); the
	 * engines' own options are in each engine's table (io/engine.h), found after these */
	SUP("openfiles", "open_files", FIO_T_INT, NULL, openfiles,
	    "io_job.files.openfiles: below nrfiles, a sync engine's file (psync, sync, pvsync...) "
	    "opens at its first I/O and closes once done, at most openfiles at once, as fio 3.33: "
	    "sequential I/O at the file's end; random I/O of one size once its random map is full "
	    "(each whole block had an I/O); a pick of a closed file at the cap goes round robin to "
	    "the next open file, `file_service_type=random` draws again; without a map (norandommap, "
	    "a distribution) no file is done, so the first files opened take every I/O, as fio's; a "
	    "loop reopens files that ended (strace per file beside fio: "
	    "tests/cli/test_fio_nrfiles.sh); filecreate keeps a file open until its I/Os are done; an "
	    "engine that queues, mmap and verify jobs keep all of a thread's files open"),
	SUP("create_on_open", NULL, FIO_T_BOOL, "0", create_on_open,
	    "io_job.files.create_on_open: filecreate creates at the I/O; a job that writes finds its "
	    "new file empty, nothing allocated, as fio's job creates it at its open (its reads past "
	    "the end fail the job, as fio's); a job that only reads gets its file laid out, where "
	    "fio's reads of the empty file fail (error 5)"),
	SUP("unified_rw_reporting", NULL, FIO_T_STR, "none", unified_rw_reporting,
	    "none (0); mixed (1): the directions added up, as one \"mixed\" (JSON), \"mixed:\" and \"MIXED:\" "
	    "(normal), the read fields (terse); both (2): those after the directions' own"),
	REF("cpumask", FIO_T_INT, "use cpus_allowed"),
	SUP("file_service_type", NULL, FIO_T_STR, "roundrobin", file_service_type,
	    "io_job.files.file_service: roundrobin[:N], random[:N] or sequential over the job's files"),
	REF("ioscheduler", FIO_T_STR, "nodemark does not change the I/O scheduler"),
	SUP("lockmem", NULL, FIO_T_SIZE, "0", lockmem,
	    "io_job.buf.lockmem: each thread maps and mlocks N bytes for its run (at most the memory less 128 MiB), "
	    "as fio; an mlock that fails fails the job"),
	REF("exec_prerun", FIO_T_STR, "running commands is not implemented"),
	REF("exec_postrun", FIO_T_STR, "running commands is not implemented"),
	REF("trim_percentage", FIO_T_INT, "the trims of verified blocks (verify's trim phase) are not implemented"),
	/* fio's strided zones (fio/apply_pattern.c, io/zones.c) */
	SUP("zonemode", NULL, FIO_T_STR, "none", zonemode, "none or strided (zbd, zoned block devices, is refused)"),
	SUP("zonesize", NULL, FIO_T_SIZE, "0", zonesize,
	    "io_job.pattern.zone_size: bytes of I/O per zone (with zonemode=strided); one file per thread, as fio"),
	SUP("zonerange", NULL, FIO_T_SIZE, "0", zonerange, "io_job.pattern.zone_range: a zone's length (default zonesize)"),
	SUP("zoneskip", NULL, FIO_T_SIZE, "0", zoneskip, "io_job.pattern.zone_skip: the gap after each zone"),
};

const size_t fio_noptions = sizeof fio_options / sizeof fio_options[0];

static int is_alias(const char *aliases, const char *name)
{
	size_t n = strlen(name);
	for (const char *a = aliases; a && *a;) {
		const char *e = strchr(a, ' ');
		size_t len = e ? (size_t)(e - a) : strlen(a);
		if (len == n && strncmp(a, name, n) == 0)
			return 1;
		a = e ? e + 1 : NULL;
	}
	return 0;
}

/* The engines' options as rows of this table, made once from the engines' own tables: the
 * text names the engine (fio's name for it) as --enghelp=ENGINE looks for it. */
#define FIO_MAX_ENGINE_OPTIONS 64
static struct fio_option engine_rows[FIO_MAX_ENGINE_OPTIONS];
static size_t nengine_rows;

static void make_engine_rows(void)
{
	static const enum fio_opt_type types[] = { [IO_EOPT_BOOL] = FIO_T_BOOL, [IO_EOPT_UINT] = FIO_T_INT,
						   [IO_EOPT_STR] = FIO_T_STR, [IO_EOPT_CHOICE] = FIO_T_STR };
	const struct io_engine_option *o;
	const struct io_engine_ops *e;
	for (unsigned i = 0; (o = io_engine_option_at(i, &e)); i++) {
		if (nengine_rows == FIO_MAX_ENGINE_OPTIONS)
			abort(); /* a programming error: raise the bound */
		char *text;
		if (asprintf(&text, "%s: %s", io_engine_fio_name(e), o->help) < 0)
			abort();
		engine_rows[nengine_rows++] = (struct fio_option){ o->name, o->alias, types[o->type], o->def,
								  FIO_OPT_SUPPORTED, fio_apply_noop, text, o };
	}
}

static size_t engine_rows_n(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, make_engine_rows);
	return nengine_rows;
}

const struct fio_option *fio_option_find(const char *name)
{
	for (size_t i = 0; i < fio_noptions; i++)
		if (strcmp(fio_options[i].name, name) == 0 || is_alias(fio_options[i].aliases, name))
			return &fio_options[i];
	const struct io_engine_option *o = io_engine_option_find(name, NULL);
	for (size_t i = 0, n = o ? engine_rows_n() : 0; i < n; i++)
		if (engine_rows[i].eopt == o)
			return &engine_rows[i];
	return NULL;
}

enum fio_opt_support fio_opt_support(const char *name)
{
	const struct fio_option *d = fio_option_find(name);
	return d ? d->support : FIO_OPT_UNKNOWN;
}

int fio_option_check(struct fio_plan *p, const char *dashes, const char *key, char *err, size_t errlen)
{
	char qb[64];
	const struct fio_option *d = fio_option_find(key);
	if (!d)
		return nm_errf(err, errlen, "%s%s: not a fio option nodemark supports (see docs/fio-compat.md)",
			       dashes, fio_q(key, qb, sizeof qb));
	if (d->support == FIO_OPT_REFUSED)
		return nm_errf(err, errlen, "%s%s: not supported by nodemark fio: %s", dashes, d->name, d->text);
	if (d->support == FIO_OPT_IGNORED) {
		size_t n = strlen(d->name);
		for (size_t i = 0; i < p->nwarnings; i++)
			if (strncmp(p->warnings[i], d->name, n) == 0 && p->warnings[i][n] == ':')
				return 0;
		char *w;
		if (asprintf(&w, "%s: ignored (%s)", d->name, d->text) < 0)
			abort();
		fio_strv_push(&p->warnings, &p->nwarnings, w);
	}
	return 0;
}

/* ioengine='s help from the engine table: each engine's fio names and, where it differs,
 * the engine that runs them ("io_uring, libaio, posixaio -> uring; ...; null; ..."). */
static char ioengine_text[768];

static void make_ioengine_text(void)
{
	size_t n = (size_t)snprintf(ioengine_text, sizeof ioengine_text, "io_job.engine: ");
	const struct io_engine_ops *e;
	for (unsigned i = 0; (e = io_engine_at(i)); i++) {
		const char *const *fn = e->fio_names;
		int same = !fn[0] || (!fn[1] && strcmp(fn[0], e->name) == 0);
		char names[160] = "";
		for (unsigned k = 0; k < sizeof e->fio_names / sizeof fn[0] && fn[k]; k++)
			snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "", fn[k]);
		if (n < sizeof ioengine_text)
			n += (size_t)snprintf(ioengine_text + n, sizeof ioengine_text - n, "%s%s%s%s", i ? "; " : "",
					      same ? e->name : names, same ? "" : " -> ", same ? "" : e->name);
	}
}

static void help_one(FILE *out, const struct fio_option *o)
{
	static const char *const types[] = { "bool", "int", "size", "time", "str", "list", "str" };
	static const char *const how[] = { "?", "supported", "ignored", "refused" };
	const char *def = o->def, *text = o->text;
	if (o->apply == fio_apply_ioengine) {
		static pthread_once_t once = PTHREAD_ONCE_INIT;
		pthread_once(&once, make_ioengine_text);
		def = io_engine_fio_name(io_engine_fio_default());
		text = ioengine_text;
	}
	fprintf(out, "%-26s %-4s %s", o->name, types[o->type], how[o->support]);
	if (def)
		fprintf(out, " default %s", def);
	if (o->aliases)
		fprintf(out, " (alias %s)", o->aliases);
	fprintf(out, ": %s\n", text);
}

int fio_option_help(FILE *out, const char *name)
{
	size_t pl = strlen(FIO_ENGHELP_PREFIX);
	if (name && strncmp(name, FIO_ENGHELP_PREFIX, pl) == 0) {
		const char *engine = name + pl;
		if (!*engine)
			return fio_engine_help(out, NULL);
		if (fio_engine_help(NULL, engine) < 0)
			return -1;
		size_t n = strlen(engine), nrows = engine_rows_n();
		int any = 0;
		for (size_t i = 0; i < nrows; i++)
			if (strncmp(engine_rows[i].text, engine, n) == 0 && engine_rows[i].text[n] == ':') {
				help_one(out, &engine_rows[i]);
				any = 1;
			}
		/* fio's other options of that engine: the table's own rows (cmdprio_*), and those
		 * nodemark does not do, refused */
		const struct io_engine_ops *e = NULL;
		io_engine_parse_fio(engine, &e);
		for (const struct io_engine_fio_option *fo = io_engine_fio_options(engine); fo && fo->name; fo++) {
			const struct fio_option *d = fio_option_find(fo->name);
			if (d && !d->eopt)
				help_one(out, d);
			else if (!io_engine_option_of(e, fo->name)) /* shown above when e has it (an alias too) */
				fprintf(out, "%-26s %-4s refused: fio's %s option, not done by nodemark\n", fo->name,
					fo->bare ? "bool" : "-", engine);
			any = 1;
		}
		if (!any)
			fprintf(out, "%s: no engine options\n", engine);
		return 0;
	}
	if (name && *name && strcmp(name, "all") != 0) {
		const struct fio_option *o = fio_option_find(name);
		if (!o)
			return -1;
		help_one(out, o);
		return 0;
	}
	for (size_t i = 0; i < fio_noptions; i++)
		help_one(out, &fio_options[i]);
	for (size_t i = 0, n = engine_rows_n(); i < n; i++)
		help_one(out, &engine_rows[i]);
	return 0;
}

/* The parsers behind the inventory: each takes a file's contents as a buffer, so it can be
 * tested and fuzzed without a filesystem.  None of them trusts its input: any bytes, any
 * length (NUL-terminated), never a crash; garbage gives -1 or an empty result. */
#ifndef NM_INVENTORY_PARSERS_H
#define NM_INVENTORY_PARSERS_H

#include <stddef.h>
#include <stdint.h>

/* --- cpu.c -------------------------------------------------------------------------- */

/* The ISA features that matter to nodemark's workloads, as bits of cpuinfo.isa. */
enum cpu_isa { ISA_SSE42 = 1, ISA_AVX2 = 2, ISA_AVX512F = 4, ISA_SHA_NI = 8, ISA_AES = 16 };
/* Their names as printed ("sse4.2", "avx2", "avx512f", "sha_ni", "aes"), by bit index. */
extern const char *const cpu_isa_names[5];

struct cpuinfo {
	char model[128];     /* "model name" (x86) or "Model"/"Hardware" (arm) */
	char vendor[64];     /* "vendor_id" or "CPU implementer" */
	unsigned isa;        /* enum cpu_isa bits found in "flags"/"Features" */
	int hypervisor;      /* the "hypervisor" CPUID flag */
	int processors;      /* "processor" blocks seen (a capped read may see fewer) */
	int cpu_cores;       /* "cpu cores" of the first block, 0 when absent */
	int siblings;        /* "siblings" of the first block, 0 when absent */
	uint64_t cache_bytes; /* "cache size" of the first block, 0 when absent */
	double mhz;          /* "cpu MHz" of the first block */
};
void parse_cpuinfo(const char *buf, struct cpuinfo *ci);

/* "32K", "1024 KB", "8M" -> bytes; 0 on garbage. */
uint64_t parse_cache_size(const char *s);

/* --- memory.c ----------------------------------------------------------------------- */

/* The value of "Key:   123 kB" in /proc/meminfo or a node's meminfo ("Node 0 MemTotal:"),
 * in bytes; 0 or -1 when absent. */
int parse_meminfo_field(const char *buf, const char *key, uint64_t *bytes);

struct dimm_info {
	char type[16];       /* "DDR4" */
	unsigned speed_mts;  /* rated speed, MT/s; 0 unknown */
	unsigned configured_mts;
	unsigned count;      /* populated modules */
	uint64_t total;      /* bytes in populated modules */
};
/* SMBIOS type 17 (memory device) records from /sys/firmware/dmi/tables/DMI; 0 when at least
 * one populated module was found, else -1. */
int parse_smbios_memory(const uint8_t *buf, size_t len, struct dimm_info *d);
/* The same from udev's database (/run/udev/data/+dmi:id, "E:MEMORY_DEVICE_0_TYPE=DDR4"). */
int parse_udev_memory(const char *buf, struct dimm_info *d);

/* --- os.c --------------------------------------------------------------------------- */

struct os_release {
	char name[64];        /* NAME */
	char version_id[32];  /* VERSION_ID */
	char pretty[128];     /* PRETTY_NAME */
	char id[32];          /* ID */
};
void parse_os_release(const char *buf, struct os_release *o);

/* --- block.c ------------------------------------------------------------------------ */

/* The scheduler in brackets ("none [mq-deadline] kyber" -> "mq-deadline"); "none" when the
 * file has one word; 0 or -1. */
int parse_scheduler(const char *buf, char *out, size_t len);

/* "16.0 GT/s PCIe" -> 4 (the PCIe generation); 0 when unknown. */
int parse_pcie_gen(const char *speed);

/* --- mount.c ------------------------------------------------------------------------ */

struct mountinfo_entry {
	unsigned id, parent;  /* mount id and its parent's: the mount tree */
	unsigned major, minor;
	char root[256];
	char mountpoint[256];
	char options[256];    /* per-mount options, then the superblock's */
	char fstype[32];
	char source[256];
};
/* One line of /proc/self/mountinfo (octal escapes decoded); 0 or -1. */
int parse_mountinfo_line(const char *line, struct mountinfo_entry *e);

/* --- stack.c ------------------------------------------------------------------------ */

/* The kind of a device-mapper target from its dm/uuid: "crypt", "lvm", "multipath",
 * "raid", "dm" (anything else). */
const char *parse_dm_uuid_kind(const char *uuid);

#endif

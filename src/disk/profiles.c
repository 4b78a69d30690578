#include "disk/profiles.h"

#include <string.h>

#define SEQ1M_Q8T1 { "SEQ1M Q8T1", 0, 1 << 20, 8, 1 }
#define SEQ1M_Q1T1 { "SEQ1M Q1T1", 0, 1 << 20, 1, 1 }
#define SEQ128K_Q32T1 { "SEQ128K Q32T1", 0, 128 << 10, 32, 1 }
#define RND4K_Q32T1 { "RND4K Q32T1", 1, 4096, 32, 1 }
#define RND4K_Q32T16 { "RND4K Q32T16", 1, 4096, 32, 16 }
#define RND4K_Q1T1 { "RND4K Q1T1", 1, 4096, 1, 1 }

static const struct disk_profile profiles[] = {
	{ "cdm", { SEQ1M_Q8T1, SEQ1M_Q1T1, RND4K_Q32T1, RND4K_Q1T1 }, 4 },
	{ "cdm-nvme", { SEQ1M_Q8T1, SEQ128K_Q32T1, RND4K_Q32T16, RND4K_Q1T1 }, 4 },
	{ "peak", { SEQ1M_Q8T1, RND4K_Q32T16 }, 2 },
	{ "realworld", { SEQ1M_Q1T1, RND4K_Q1T1 }, 2 },
};

const struct disk_profile *disk_profile_find(const char *name)
{
	for (unsigned i = 0; i < sizeof profiles / sizeof profiles[0]; i++)
		if (strcmp(name, profiles[i].name) == 0)
			return &profiles[i];
	return NULL;
}

const struct disk_profile *disk_profile_default(void)
{
	return &profiles[0];
}


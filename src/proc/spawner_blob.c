/* The static spawner helper (build/nodemark-spawn, from spawner_main.c), embedded, so nodemark
 * stays one file to install; spawner.c runs it from an anonymous file (memfd). */
#ifndef NM_SPAWNER_HELPER
#define NM_SPAWNER_HELPER "build/nodemark-spawn"
#endif

__asm__(".section .rodata\n"
	".balign 16\n"
	".globl nm_spawner_helper\n"
	"nm_spawner_helper:\n"
	".incbin \"" NM_SPAWNER_HELPER "\"\n"
	".globl nm_spawner_helper_end\n"
	"nm_spawner_helper_end:\n"
	".previous\n");

/* The directions of an I/O, which per-direction settings and figures are indexed by. */
#ifndef NM_IO_DIR_H
#define NM_IO_DIR_H


enum io_dir { DIR_READ = 0, DIR_WRITE = 1, DIR_TRIM = 2, DIR_COUNT = 3 };

#endif

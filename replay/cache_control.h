/* cache_control.h - what is done so that counter passes start from the
 * same state: the caches emptied before each pass (GPUPROF_CACHE_CONTROL;
 * gp_replay_opts.flush_caches) and the warm-up round before a context's
 * first multi-pass launch (GPUPROF_WARMUP; gp_replay_opts.warmup). */
#ifndef GP_CACHE_CONTROL_H
#define GP_CACHE_CONTROL_H

enum gp_cache_control {
    GP_CACHE_NONE,  /* nothing: each pass starts with what the previous one left */
    GP_CACHE_FLUSH, /* L2 and the GPCs' constant and instruction caches (the default) */
    GP_CACHE_L2,    /* L2 only */
};

/* The warm-up round: never; when the range profiler's list has an
 * instrumented name (CUPTI's first instrumented pass of a context writes to
 * device memory, and a later pass charged that write-back to the kernel's
 * DRAM writes: measured with Nsight Compute's SASS metrics in the list, not
 * with hardware counters alone); before every context's first multi-pass
 * launch. */
enum gp_warmup { GP_WARMUP_OFF = 0, GP_WARMUP_INSTRUMENTED = 1, GP_WARMUP_ALWAYS = 2 };

#endif

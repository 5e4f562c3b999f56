/* cache_control.h - what is emptied before each counter pass
 * (GPUPROF_CACHE_CONTROL; gp_replay_opts.flush_caches). */
#ifndef GP_CACHE_CONTROL_H
#define GP_CACHE_CONTROL_H

enum gp_cache_control {
    GP_CACHE_NONE,  /* nothing: each pass starts with what the previous one left */
    GP_CACHE_FLUSH, /* L2 and the GPCs' constant and instruction caches (the default) */
    GP_CACHE_L2,    /* L2 only */
};

#endif

/* worker.h - a thread of the profiler's own that runs replay passes outside
 * any CUPTI callback: the callback thread hands it a job and waits.  Its CUDA
 * calls are the profiler's own (the callbacks ignore them). */
#ifndef GP_WORKER_H
#define GP_WORKER_H

#include <cuda.h>

/* Runs fn(arg) on the worker thread with ctx current there; blocks until it
 * returns.  Returns 0, or -1 if the thread cannot be started (fn not run). */
int gp_worker_run(CUcontext ctx, void (*fn)(void *), void *arg);

/* Set by the worker on itself: tells the callbacks to ignore its calls. */
extern __thread int gp_worker_self;

#endif

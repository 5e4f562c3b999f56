/* serialize.c - see serialize.h; gp_core_api_enter/exit (core.h) are the
 * shared section of the program's other tracked calls. */
#include "preload/serialize.h"

#include <time.h>

#include "preload/core_state.h"
#include "util/clock.h"

void gp_serialize_shared(uint64_t *slot)
{
    if (gp_t_api_depth++ == 0) {
        pthread_rwlock_rdlock(&gp_core.launch_lock);
        *slot = GP_SLOT_SHARED;
    } else {
        *slot = GP_SLOT_NONE;
    }
}

void gp_serialize_shared_end(uint64_t *slot)
{
    gp_t_api_depth--;
    if (*slot == GP_SLOT_SHARED)
        pthread_rwlock_unlock(&gp_core.launch_lock);
    *slot = GP_SLOT_NONE;
}

static void tracing(int on)
{
    if (gp_core.boundary.tracing)
        gp_core.boundary.tracing(on);
}

void gp_serialize_exclusive_begin(void)
{
    if (pthread_rwlock_trywrlock(&gp_core.launch_lock) != 0) {
        /* the program's other threads are inside CUDA calls: the wait is
         * the summary's (two clock reads only when there is one) */
        double t = gp_now_s();
        pthread_rwlock_wrlock(&gp_core.launch_lock);
        atomic_fetch_add(&gp_core.summary.lock_wait_ns, (uint_fast64_t)((gp_now_s() - t) * 1e9));
    }
    gp_t_api_depth++;
    gp_t_in_profiler++;
    tracing(0);
}

void gp_serialize_exclusive_end(void)
{
    tracing(1);
    gp_t_in_profiler--;
    gp_t_api_depth--;
    pthread_rwlock_unlock(&gp_core.launch_lock);
}

int gp_serialize_at_exit_begin(int seconds)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += seconds;
    return pthread_rwlock_timedwrlock(&gp_core.launch_lock, &until) == 0 ? 0 : -1;
}

void gp_serialize_at_exit_end(void)
{
    pthread_rwlock_unlock(&gp_core.launch_lock);
}

void gp_core_api_enter(uint64_t *slot)
{
    *slot = GP_SLOT_NONE;
    if (!gp_core.cuda_ready)
        return;
    gp_serialize_shared(slot);
}

void gp_core_api_exit(uint64_t *slot)
{
    if (*slot == GP_SLOT_NONE && gp_t_api_depth == 0)
        return;
    gp_serialize_shared_end(slot);
}

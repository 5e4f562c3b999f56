/* launch_hooks.c - see launch_hooks.h: the list of subsystems, in order,
 * and the per-moment lists built from it. */
#include "preload/launch_hooks.h"

#include <string.h>

/* The launch moments walk this order.  The cross-check counts every launch
 * seen before sampling may end its window; the variants decide how a
 * launch runs before the batch acts on the decision; the batch closes
 * before a kernel it does not count runs, and sampling, started for that
 * kernel, comes last, nearest to it.  A context's end walks it backwards. */
static const gp_launch_hooks *const launch_order[] = {
    &gp_crosscheck_hooks,
    &gp_variants_hooks,
    &gp_batch_hooks,
    &gp_sampling_hooks,
};

/* At exit: the open batches close (their launches' values go to the
 * variants), the variants write their records, sampling reads its last
 * samples (gp_finish_close writes the source records after); the same
 * subsystems as launch_order. */
static const gp_launch_hooks *const exit_order[] = {
    &gp_batch_hooks,
    &gp_variants_hooks,
    &gp_sampling_hooks,
    &gp_crosscheck_hooks,
};

enum { N_SUBSYSTEMS = sizeof(launch_order) / sizeof(launch_order[0]) };
_Static_assert(N_SUBSYSTEMS <= GP_HOOKS_MAX, "raise GP_HOOKS_MAX");
_Static_assert(sizeof(exit_order) == sizeof(launch_order), "exit_order lists every subsystem");

static void add(gp_hook_at at, const gp_launch_hooks *h, const int *on)
{
    for (size_t i = 0; i < N_SUBSYSTEMS; i++)
        if (launch_order[i] == h && on[i] && h->at[at])
            gp_hook_lists[at].fn[gp_hook_lists[at].n++] = h->at[at];
}

void gp_hooks_start(void)
{
    int on[N_SUBSYSTEMS];
    for (size_t i = 0; i < N_SUBSYSTEMS; i++)
        on[i] = !launch_order[i]->active || launch_order[i]->active();
    for (int at = 0; at < GP_AT_N; at++) {
        memset(&gp_hook_lists[at], 0, sizeof(gp_hook_lists[at]));
        for (size_t i = 0; i < N_SUBSYSTEMS; i++) {
            const gp_launch_hooks *h = launch_order[i];
            if (at == GP_AT_CONTEXT_END)
                h = launch_order[N_SUBSYSTEMS - 1 - i];
            else if (at == GP_AT_EXIT)
                h = exit_order[i];
            add((gp_hook_at)at, h, on);
        }
    }
}

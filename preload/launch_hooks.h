/* launch_hooks.h - the launch path as a list: what each subsystem (the
 * cross-check, replay mode none's variants, the batches, stall sampling)
 * does at the moments of a launch's life, one call per subsystem through
 * one interface, the subsystems listed once, in order, in launch_hooks.c.
 *
 * The path (launch.c, profile.c, graphs.c, batch.c, contexts.c, start.c)
 * names a moment and walks the list; each subsystem keeps its hooks in its
 * own file.  A hook that depends on another's result reads it from the
 * moment's arguments (gp_hook_args), where the earlier one wrote it, so the
 * order of the list is part of the behaviour:
 *   launch moments   cross-check, variants, batch, sampling;
 *   a context's end  the reverse (sampling ends, the batch closes and its
 *                    launches' values reach the variants, which then write
 *                    their records);
 *   exit             batch, variants, sampling, cross-check (the batches
 *                    close before the variants write; the samples are read
 *                    before the source records are written).
 * Adding a subsystem: its hooks in its own file, its declaration below and
 * its place in the two lists of launch_hooks.c.
 *
 * Cost: the lists are built once when CUDA is ready, holding per moment only
 * the hooks of the subsystems that are on (gp_launch_hooks.active): a
 * moment no active subsystem has costs one load; an excluded launch walks
 * `seen` and `unprofiled` (docs/architecture.md, The life of a profiled
 * launch), whose hooks return after a load or two when they have nothing
 * to do; a `seen` hook done for the run leaves its list. */
#ifndef GP_LAUNCH_HOOKS_H
#define GP_LAUNCH_HOOKS_H

#include <stddef.h>
#include <stdint.h>

#include "preload/core_state.h"

/* The moments, in the order a launch meets them. */
typedef enum gp_hook_at {
    /* state_lock held: a launch of the program was seen and decided
     * (profiled); a hook with work to do outside the lock sets after_lock */
    GP_AT_SEEN,
    /* no lock held, right after `seen`, only when a hook set after_lock */
    GP_AT_AFTER_LOCK,
    /* kernels gpuprof does not count run next: in cs (the caller is inside
     * the exclusive section), else in every context (every_context), else
     * in ctx (no lock held) */
    GP_AT_UNPROFILED,
    /* a profiled launch, in the exclusive section, nothing synchronized
     * yet: it may be only counted (counted_only; the caller then ends it) */
    GP_AT_PROFILE_BEGIN,
    /* its stream checked and the context synchronized, the context's
     * set-up not done yet */
    GP_AT_BEFORE_PASSES,
    /* its options set (cs, ls), its passes about to begin */
    GP_AT_PLAN,
    /* the program's own launch follows, outside every counter pass (ev,
     * k, cs: NULL when the launch was given up before its context) */
    GP_AT_PROGRAM_LAUNCH,
    /* gpuprof ran a graph's steps itself (exclusive section): the graph's
     * own run in ctx follows */
    GP_AT_GRAPH_RUN,
    /* the program's launch returned (ls; ok: its values collected): it may
     * wait for its batch (pending) */
    GP_AT_PROFILE_END,
    /* a profiled launch's values are known (ls, values, why), at its exit
     * or when its batch closes: a hook may take them (taken) */
    GP_AT_VALUES,
    /* a profiled launch given up without values (ls, why) */
    GP_AT_LOST,
    /* a context goes away (ctx; cs: gpuprof's state of it, or NULL), the
     * launch lock held exclusively and the guard raised */
    GP_AT_CONTEXT_END,
    /* the process exits */
    GP_AT_EXIT,
    GP_AT_N
} gp_hook_at;

/* A moment's arguments, on the caller's stack, zeroed but for what the
 * moment gives (small: an excluded launch zeroes it).  The fields under
 * "results" are written by one hook and read by later ones or by the
 * caller (writer -> readers); each is 0 or 1. */
typedef struct gp_hook_args {
    const gp_launch_event *ev;
    gp_kernel *k;
    uint64_t id;
    CUcontext ctx;
    gp_context *cs;
    gp_launch_state *ls;
    double t0; /* profile_begin: when the profiler took the launch */
    double *values;
    /* values: why the hardware values are missing (NULL: collected); lost:
     * why the launch was given up */
    const char *why;
    unsigned char profiled;      /* seen: the launch is profiled */
    unsigned char every_context; /* unprofiled: anywhere (a graph, a legacy launch) */
    unsigned char ok;            /* profile_end: the passes' values were collected */
    /* results */
    /* seen (any) -> the walk of after_lock */
    unsigned char after_lock;
    /* seen (cross-check) -> after_lock (cross-check): the window is to be closed */
    unsigned char xc_close;
    /* seen (sampling) -> unprofiled (sampling): set up, flush or resume first */
    unsigned char sample_service;
    /* profile_begin (variants) -> profile_begin (batch: closes cs's batch) and
     * the caller: the launch runs unprofiled, only counted */
    unsigned char counted_only;
    /* before_passes (sampling) -> the caller: every pass runs before the
     * program's launch (plan), which program_launch may sample, even given up */
    unsigned char sample_program;
    /* plan (variants) -> plan (batch): the launch joins the programmed
     * configuration's batch; the open batch is to be closed first */
    unsigned char rotated, close_batch;
    /* profile_end (batch) -> the caller: the values wait for the batch */
    unsigned char pending;
    /* values (variants) -> the caller: no record to write */
    unsigned char taken;
} gp_hook_args;

typedef void (*gp_hook_fn)(gp_hook_args *a);

/* One subsystem's hooks: at[moment], NULL where it has nothing to do. */
typedef struct gp_launch_hooks {
    const char *name;
    /* whether the subsystem is on in this run, asked once when CUDA is
     * ready (from the configuration); NULL: always.  A subsystem that is
     * off is in no list, so each of its hooks must then be a no-op. */
    int (*active)(void);
    gp_hook_fn at[GP_AT_N];
} gp_launch_hooks;

/* The subsystems (each defined in its own file). */
extern const gp_launch_hooks gp_crosscheck_hooks; /* crosscheck.c */
extern const gp_launch_hooks gp_variants_hooks;   /* variants_hooks.c */
extern const gp_launch_hooks gp_batch_hooks;      /* batch.c */
extern const gp_launch_hooks gp_sampling_hooks;   /* sampling.c */

#define GP_HOOKS_MAX 8

/* Per moment, the hooks of the active subsystems in the moment's order,
 * NULL-terminated (built by gp_hooks_start). */
typedef struct gp_hook_list {
    gp_hook_fn fn[GP_HOOKS_MAX + 1];
    size_t n;
} gp_hook_list;
extern gp_hook_list gp_hook_lists[GP_AT_N];

/* Builds the lists, asking each subsystem once whether it is on.  Called
 * when CUDA is ready, before the first callback; until then every moment
 * is empty. */
void gp_hooks_start(void);

/* Calls the hooks of moment `at` in order, with a.  Inline, as the next
 * function: the walk is a call from its caller to the listed hooks. */
static inline void gp_hooks_run(gp_hook_at at, gp_hook_args *a)
{
    for (const gp_hook_fn *f = gp_hook_lists[at].fn; *f; f++)
        (*f)(a);
}

/* Takes fn off the `seen` list for the rest of the run: a subsystem whose
 * `seen` hook has nothing more to do (the cross-check once its window is
 * closed) stops costing an excluded launch anything there.  `seen` is
 * walked under state_lock: the caller holds it, outside that walk.  Nothing
 * when fn is not on the list. */
static inline void gp_hooks_leave_seen(gp_hook_fn fn)
{
    gp_hook_list *l = &gp_hook_lists[GP_AT_SEEN];
    size_t i = 0;
    while (i < l->n && l->fn[i] != fn)
        i++;
    if (i == l->n)
        return;
    for (; i < l->n; i++) /* fn[n] is the NULL that ends the list */
        l->fn[i] = l->fn[i + 1];
    l->n--;
}

#endif

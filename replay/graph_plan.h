/* graph_plan.h - an instantiated CUDA graph as steps gpuprof can run itself.
 *
 * Kernels inside a graph run where no launch callback sees them, so gpuprof
 * profiles them before the graph runs: at cuGraphLaunch it saves memory, runs
 * the graph's nodes one by one in a topological order (kernels through the
 * profiler, copies and memsets as they are), puts memory back, and lets the
 * graph run.  The plan is taken at instantiation, with copies of the kernel
 * arguments, because the source graph may be changed or destroyed after.
 *
 * Only graphs of kernel, copy, memset, empty, event and child-graph nodes are
 * planned; any other node (host callbacks would run twice, memory nodes
 * allocate, conditionals branch) leaves the plan with a reason and the graph
 * is counted, not profiled.  So does updating the executable graph later. */
#ifndef GP_GRAPH_PLAN_H
#define GP_GRAPH_PLAN_H

#include <cuda.h>
#include <stddef.h>

#include "replay/replay.h"

enum gp_step_kind { GP_STEP_KERNEL, GP_STEP_MEMCPY, GP_STEP_MEMSET };

typedef struct gp_graph_step {
    int kind;
    gp_launch_exec exec;         /* KERNEL: stream left NULL, set at launch */
    const char *symbol;          /* KERNEL: mangled name (the driver's string) */
    void *args;                  /* KERNEL: copies of the argument values */
    CUDA_MEMCPY3D copy;          /* MEMCPY */
    CUDA_MEMSET_NODE_PARAMS set; /* MEMSET */
} gp_graph_step;

typedef struct gp_graph_plan {
    gp_graph_step *steps;
    size_t n, cap;
    size_t kernels;
    char why[200]; /* non-empty: the graph cannot be run step by step */
} gp_graph_plan;

/* Plans graph g (instantiated now).  Never NULL unless out of memory; a plan
 * that cannot be used has a reason in why.  Calls the driver. */
gp_graph_plan *gp_graph_plan_build(CUgraph g);
void gp_graph_plan_free(gp_graph_plan *p);
/* Runs a copy or memset step and waits for it.  Returns the driver's result. */
CUresult gp_graph_step_run_transfer(const gp_graph_step *st);

#endif

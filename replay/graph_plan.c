/* graph_plan.c - see graph_plan.h */
#include "replay/graph_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/driver.h"

static const char *node_type_name(CUgraphNodeType t)
{
    switch (t) {
    case CU_GRAPH_NODE_TYPE_HOST:
        return "a host-function node (it would run twice)";
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
    case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
        return "an external-semaphore node";
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
        return "a memory allocation node";
    case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
        return "a batch memory-operation node";
    case CU_GRAPH_NODE_TYPE_CONDITIONAL:
        return "a conditional node";
    default:
        return "a node of a kind gpuprof does not run";
    }
}

static gp_graph_step *add_step(gp_graph_plan *p)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 16;
        gp_graph_step *s = realloc(p->steps, cap * sizeof(*s));
        if (!s)
            return NULL;
        p->steps = s;
        p->cap = cap;
    }
    gp_graph_step *st = &p->steps[p->n++];
    memset(st, 0, sizeof(*st));
    return st;
}

/* Copies a kernel node: function, shape and argument values. */
static int plan_kernel(gp_graph_plan *p, CUgraphNode node)
{
    CUDA_KERNEL_NODE_PARAMS kp;
    memset(&kp, 0, sizeof(kp));
    if (gp_drv.cuGraphKernelNodeGetParams(node, &kp) != CUDA_SUCCESS) {
        snprintf(p->why, sizeof(p->why), "the parameters of a kernel node cannot be read");
        return -1;
    }
    CUfunction f = kp.func;
    if (!f && (!kp.kern || gp_drv.cuKernelGetFunction(&f, kp.kern) != CUDA_SUCCESS || !f)) {
        snprintf(p->why, sizeof(p->why), "a kernel node's function cannot be resolved");
        return -1;
    }
    if (kp.extra && !kp.kernelParams) {
        snprintf(p->why, sizeof(p->why), "a kernel node passes its arguments as 'extra'");
        return -1;
    }
    /* argument layout from the function: offsets and sizes */
    size_t nargs = 0, total = 0, off = 0, size = 0;
    while (gp_drv.cuFuncGetParamInfo(f, nargs, &off, &size) == CUDA_SUCCESS) {
        if (off + size > total)
            total = off + size;
        nargs++;
    }
    gp_graph_step *st = add_step(p);
    if (!st)
        return -1;
    st->kind = GP_STEP_KERNEL;
    st->exec.api = GP_API_LAUNCH_KERNEL;
    st->exec.f = f;
    GP_EXEC_SET_SHAPE(&st->exec, &kp);
    if (gp_drv.cuFuncGetName(&st->symbol, f) != CUDA_SUCCESS)
        st->symbol = NULL;
    /* one block: the pointer array, then the values at their offsets */
    st->args = calloc(1, nargs * sizeof(void *) + total + 16);
    if (!st->args) {
        p->n--;
        return -1;
    }
    void **ptrs = st->args;
    char *vals = (char *)st->args + nargs * sizeof(void *);
    vals += (16 - (uintptr_t)vals % 16) % 16;
    for (size_t i = 0; i < nargs; i++) {
        gp_drv.cuFuncGetParamInfo(f, i, &off, &size);
        if (!kp.kernelParams || !kp.kernelParams[i]) {
            snprintf(p->why, sizeof(p->why), "a kernel node lacks argument %zu", i);
            return -1;
        }
        memcpy(vals + off, kp.kernelParams[i], size);
        ptrs[i] = vals + off;
    }
    st->exec.params = nargs ? ptrs : NULL;
    p->kernels++;
    return 0;
}

static int plan_graph(gp_graph_plan *p, CUgraph g, int depth);

static int plan_node(gp_graph_plan *p, CUgraphNode node, int depth)
{
    CUgraphNodeType t;
    if (gp_drv.cuGraphNodeGetType(node, &t) != CUDA_SUCCESS) {
        snprintf(p->why, sizeof(p->why), "a node's type cannot be read");
        return -1;
    }
    gp_graph_step *st;
    CUgraph child;
    switch (t) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
        return plan_kernel(p, node);
    case CU_GRAPH_NODE_TYPE_MEMCPY:
        if (!(st = add_step(p)))
            return -1;
        st->kind = GP_STEP_MEMCPY;
        return gp_drv.cuGraphMemcpyNodeGetParams(node, &st->copy) == CUDA_SUCCESS ? 0 : -1;
    case CU_GRAPH_NODE_TYPE_MEMSET:
        if (!(st = add_step(p)))
            return -1;
        st->kind = GP_STEP_MEMSET;
        return gp_drv.cuGraphMemsetNodeGetParams(node, &st->set) == CUDA_SUCCESS ? 0 : -1;
    case CU_GRAPH_NODE_TYPE_EMPTY:
    case CU_GRAPH_NODE_TYPE_WAIT_EVENT:   /* one stream, in order: nothing to wait for */
    case CU_GRAPH_NODE_TYPE_EVENT_RECORD: /* nobody waits on gpuprof's steps */
        return 0;
    case CU_GRAPH_NODE_TYPE_GRAPH:
        if (gp_drv.cuGraphChildGraphNodeGetGraph(node, &child) != CUDA_SUCCESS) {
            snprintf(p->why, sizeof(p->why), "a child graph cannot be read");
            return -1;
        }
        return plan_graph(p, child, depth + 1);
    default:
        snprintf(p->why, sizeof(p->why), "the graph has %s", node_type_name(t));
        return -1;
    }
}

/* The nodes of g in a topological order (Kahn), each planned. */
static int plan_graph(gp_graph_plan *p, CUgraph g, int depth)
{
    if (depth > 16) {
        snprintf(p->why, sizeof(p->why), "child graphs nested more than 16 deep");
        return -1;
    }
    size_t nn = 0, ne = 0;
    CUresult r1 = gp_drv.cuGraphGetNodes(g, NULL, &nn);
    CUresult r2 = r1 == CUDA_SUCCESS ? gp_drv.cuGraphGetEdges(g, NULL, NULL, NULL, &ne) : r1;
    if (r2 != CUDA_SUCCESS) {
        snprintf(p->why, sizeof(p->why), "the graph's %s cannot be listed: %s",
                 r1 != CUDA_SUCCESS ? "nodes" : "edges", gp_driver_strerror(r2));
        return -1;
    }
    CUgraphNode *nodes = calloc(nn + 1, sizeof(*nodes));
    CUgraphNode *from = calloc(ne + 1, sizeof(*from)), *to = calloc(ne + 1, sizeof(*to));
    size_t *indeg = calloc(nn + 1, sizeof(*indeg)), *order = calloc(nn + 1, sizeof(*order));
    int rc = -1;
    if (!nodes || !from || !to || !indeg || !order)
        goto out;
    /* (arrays with a count of 0 are refused: skip the calls then) */
    r1 = nn ? gp_drv.cuGraphGetNodes(g, nodes, &nn) : CUDA_SUCCESS;
    r2 = r1 == CUDA_SUCCESS && ne ? gp_drv.cuGraphGetEdges(g, from, to, NULL, &ne) : r1;
    if (r2 != CUDA_SUCCESS) {
        snprintf(p->why, sizeof(p->why), "the graph's %s cannot be read: %s",
                 r1 != CUDA_SUCCESS ? "nodes" : "edges", gp_driver_strerror(r2));
        goto out;
    }
    /* node index by linear search: graphs gpuprof meets are small */
    for (size_t e = 0; e < ne; e++)
        for (size_t i = 0; i < nn; i++)
            if (nodes[i] == to[e])
                indeg[i]++;
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < nn; i++)
        if (indeg[i] == 0)
            order[tail++] = i;
    while (head < tail) {
        size_t i = order[head++];
        for (size_t e = 0; e < ne; e++) {
            if (from[e] != nodes[i])
                continue;
            for (size_t j = 0; j < nn; j++)
                if (nodes[j] == to[e] && --indeg[j] == 0)
                    order[tail++] = j;
        }
    }
    if (tail != nn) {
        snprintf(p->why, sizeof(p->why), "the graph's edges do not order its nodes");
        goto out;
    }
    rc = 0;
    for (size_t k = 0; k < nn && rc == 0; k++)
        rc = plan_node(p, nodes[order[k]], depth);
    if (rc != 0 && !p->why[0])
        snprintf(p->why, sizeof(p->why), "a node's parameters cannot be read");
out:
    free(nodes);
    free(from);
    free(to);
    free(indeg);
    free(order);
    return rc;
}

gp_graph_plan *gp_graph_plan_build(CUgraph g)
{
    gp_graph_plan *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    if (plan_graph(p, g, 0) != 0 && !p->why[0])
        snprintf(p->why, sizeof(p->why), "out of memory planning the graph");
    return p;
}

void gp_graph_plan_free(gp_graph_plan *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        free(p->steps[i].args);
    free(p->steps);
    free(p);
}

CUresult gp_graph_step_run_transfer(const gp_graph_step *st)
{
    CUresult r;
    if (st->kind == GP_STEP_MEMCPY) {
        r = gp_drv.cuMemcpy3D(&st->copy);
    } else {
        const CUDA_MEMSET_NODE_PARAMS *m = &st->set;
        size_t h = m->height ? m->height : 1;
        size_t pitch = h > 1 ? m->pitch : m->width * m->elementSize; /* bytes */
        switch (m->elementSize) {
        case 1:
            r = gp_drv.cuMemsetD2D8(m->dst, pitch, (unsigned char)m->value, m->width, h);
            break;
        case 2:
            r = gp_drv.cuMemsetD2D16(m->dst, pitch, (unsigned short)m->value, m->width, h);
            break;
        default:
            r = gp_drv.cuMemsetD2D32(m->dst, pitch, m->value, m->width, h);
            break;
        }
    }
    return r == CUDA_SUCCESS ? gp_drv.cuCtxSynchronize() : r;
}

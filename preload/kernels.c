/* kernels.c - see kernels.h.  gp_core_module_loaded() (core.h) feeds the code
 * and globals tables from each cubin CUDA loads. */
#include "preload/kernels.h"

#include <stdlib.h>
#include <string.h>

#include "preload/metric_set.h"
#include "preload/names.h"
#include "preload/source.h"
#include "util/log.h"

/* A new entry of the names table for mangled; NULL when memory ran out. */
static gp_kernel_name *name_add(const char *mangled)
{
    gp_kernel_name *n = calloc(1, sizeof(*n));
    if (!n)
        return NULL;
    n->mangled = strdup(mangled);
    n->demangled = gp_demangle(mangled);
    if (n->mangled && n->demangled) {
        char buf[1024];
        n->name_matches = gp_filter_name_matches(
            &gp_core.cfg, gp_filter_name(&gp_core.cfg, n->demangled, n->mangled, buf, sizeof(buf)));
        n->communication = gp_filter_is_communication(n->demangled);
        gp_uthash_oom = 0;
        HASH_ADD_KEYPTR(hh, gp_core.names, n->mangled, strlen(n->mangled), n);
        if (!gp_uthash_oom)
            return n;
    }
    free(n->mangled);
    free(n->demangled);
    free(n);
    return NULL;
}

gp_kernel *gp_kernels_lookup(const gp_launch_event *ev)
{
    gp_kernel_key key;
    memset(&key, 0, sizeof(key));
    key.f = ev->exec.f;
    key.ctx = ev->ctx;
    gp_kernel *k;
    HASH_FIND(hh, gp_core.kernels, &key, sizeof(key), k);
    if (k)
        return k;
    const char *mangled = ev->symbol ? ev->symbol : "?";
    gp_kernel_name *n;
    HASH_FIND_STR(gp_core.names, mangled, n);
    if (!n && !(n = name_add(mangled)))
        return NULL;
    k = calloc(1, sizeof(*k));
    if (!k)
        return NULL;
    k->key = key;
    k->name = n;
    gp_uthash_oom = 0;
    HASH_ADD(hh, gp_core.kernels, key, sizeof(key), k);
    if (gp_uthash_oom) {
        free(k);
        return NULL;
    }
    return k;
}

void gp_kernels_attrs(gp_kernel *k)
{
    if (k->attrs_done)
        return;
    k->attrs_done = 1;
    gp_collect_kernel_attrs(k->key.f, &k->attrs);
}

void gp_kernels_forget(CUcontext ctx)
{
    gp_kernel *k, *tmp;
    HASH_ITER(hh, gp_core.kernels, k, tmp)
    {
        if (k->key.ctx == ctx) {
            HASH_DEL(gp_core.kernels, k);
            free(k);
        }
    }
}

/* ---- machine code ------------------------------------------------------------ */

/* Keeps a copy of each kernel's machine code (the SASS pass classifies
 * instructions by opcode).  Caller holds state_lock. */
static void keep_code(const char *name, const uint8_t *code, size_t size, void *arg)
{
    (void)arg;
    gp_code *c;
    HASH_FIND_STR(gp_core.code, name, c);
    if (c)
        return;
    c = calloc(1, sizeof(*c));
    if (!c)
        return;
    if ((c->name = strdup(name)) && (c->code = malloc(size))) {
        memcpy(c->code, code, size);
        c->size = size;
        gp_uthash_oom = 0;
        HASH_ADD_KEYPTR(hh, gp_core.code, c->name, strlen(c->name), c);
        if (!gp_uthash_oom)
            return;
    }
    free(c->code);
    free(c->name);
    free(c);
}

const uint8_t *gp_kernels_code(const char *function, size_t *size, void *arg)
{
    (void)arg;
    gp_code *c;
    pthread_mutex_lock(&gp_core.state_lock);
    HASH_FIND_STR(gp_core.code, function, c);
    pthread_mutex_unlock(&gp_core.state_lock);
    if (!c)
        return NULL;
    *size = c->size;
    return c->code;
}

/* ---- __device__ globals ----------------------------------------------------- */

void gp_core_module_loaded(const void *cubin, size_t size)
{
    if (!gp_core.active || !cubin || size == 0)
        return;
    if (gp_source_wanted()) { /* the SASS pass's opcodes, the source records' code and lines */
        pthread_mutex_lock(&gp_core.state_lock);
        int nf = gp_cubin_each_function_any(cubin, size, keep_code, NULL);
        gp_source_module_loaded(cubin, size);
        pthread_mutex_unlock(&gp_core.state_lock);
        if (nf < 0) /* its kernels' FP operation counts will be n/a */
            gp_log(GP_LOG_DEBUG,
                   "a module of %zu bytes holds no readable machine code "
                   "(first bytes %02x %02x %02x %02x)",
                   size, ((const uint8_t *)cubin)[0], size > 1 ? ((const uint8_t *)cubin)[1] : 0,
                   size > 2 ? ((const uint8_t *)cubin)[2] : 0,
                   size > 3 ? ((const uint8_t *)cubin)[3] : 0);
    }
    gp_cubin_global *g = NULL;
    int n = gp_cubin_globals(cubin, size, &g);
    if (n <= 0) {
        gp_cubin_globals_free(g, n > 0 ? n : 0);
        return;
    }
    pthread_mutex_lock(&gp_core.state_lock);
    for (int i = 0; i < n; i++) {
        /* by index: a scan of every known name made many modules quadratic */
        if (gp_strindex_find(gp_core.globals_index, g[i].name, strlen(g[i].name)) >= 0) {
            free(g[i].name);
            continue;
        }
        if (gp_core.n_globals == gp_core.cap_globals) {
            int cap = gp_core.cap_globals ? 2 * gp_core.cap_globals : 64;
            gp_cubin_global *ng = realloc(gp_core.globals, (size_t)cap * sizeof(*ng));
            if (!ng) {
                free(g[i].name);
                continue;
            }
            gp_core.globals = ng;
            gp_core.cap_globals = cap;
        }
        /* without room in the index a later duplicate is only resolved twice */
        gp_strindex_add(&gp_core.globals_index, g[i].name, strlen(g[i].name),
                        (size_t)gp_core.n_globals);
        gp_core.globals[gp_core.n_globals++] = g[i];
    }
    gp_core.globals_gen++;
    pthread_mutex_unlock(&gp_core.state_lock);
    free(g); /* names now owned by gp_core.globals (or freed) */
}

void gp_kernels_resolve_globals(CUmodule mod, CUcontext ctx)
{
    if (!mod)
        return;
    gp_module *m;
    HASH_FIND(hh, gp_core.modules, &mod, sizeof(mod), m);
    if (!m) {
        m = calloc(1, sizeof(*m));
        if (!m)
            return;
        m->module = mod;
        gp_uthash_oom = 0;
        HASH_ADD(hh, gp_core.modules, module, sizeof(m->module), m);
        if (gp_uthash_oom) {
            free(m);
            return;
        }
    } else if (m->globals_gen == gp_core.globals_gen) {
        return;
    }
    m->globals_gen = gp_core.globals_gen;
    for (int i = 0; i < gp_core.n_globals; i++) {
        uint64_t p = 0, bytes = 0;
        if (gp_collect_module_global(mod, gp_core.globals[i].name, &p, &bytes) == 0)
            gp_alloc_add(gp_core.allocs, p, bytes, GP_MEM_GLOBAL, (uint64_t)(uintptr_t)ctx);
    }
}

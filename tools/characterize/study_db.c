/* study_db.c - see study_db.h. */
#define _GNU_SOURCE
#include "study_db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_db.h"

struct gpc_study_db {
    gp_rdb *w;
};

/* The summary's hook: each ok program's records stream into the database
 * as its files are read; its kernels follow once its report is finished. */
static int gpc_study_db_on_report(void *arg, size_t prog, gp_report *rep, int finished)
{
    gpc_study_db *d = arg;
    if (!finished) {
        /* a failed database never cuts the summary short: it reads on */
        gp_rdb_set_program(d->w, (long)prog + 1);
        gp_rdb_attach(d->w, rep, 0);
        return 0;
    }
    /* the suite share is set once every program is in (gpc_study_db_finish) */
    gp_rdb_add_report(d->w, rep, NAN);
    return 0;
}

gpc_study_db *gpc_study_db_start(gpc_summary *s, const char *out_dir, char *err, size_t errlen)
{
    gpc_study_db *d = calloc(1, sizeof *d);
    char *path = NULL;
    if (!d || asprintf(&path, "%s/%s", out_dir, GPC_STUDY_DB_FILE) < 0) {
        free(d);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    /* the summary's files are all written again: so is the database */
    d->w = gp_rdb_create(path, 1, 1, "gpuprof-characterize", err, errlen);
    free(path);
    if (!d->w) {
        free(d);
        return NULL;
    }
    s->on_report = gpc_study_db_on_report;
    s->on_report_arg = d;
    return d;
}

static double gpc_study_slowdown(const gpc_result *r)
{
    return r->native.ran && r->profiled.ran && r->native.wall_s > 0
               ? r->profiled.wall_s / r->native.wall_s
               : NAN;
}

int gpc_study_db_finish(gpc_study_db *d, const gpc_summary *s, char *err, size_t errlen)
{
    size_t i;
    int rc = -1;
    for (i = 0; i < s->n; i++) {
        const gpc_prog *p = &s->progs[i];
        gp_rdb_program row = {
            .id = (long)i + 1,
            .name = p->res.name,
            .status = gpc_status_name(p->res.status),
            .message = p->res.message,
            .cmd = p->res.cmd,
            .dir = p->res.dir,
            .gpu = p->res.gpu,
            .native_wall_s = gpc_exec_wall(&p->res.native),
            .profiled_wall_s = gpc_exec_wall(&p->res.profiled),
            .slowdown = gpc_study_slowdown(&p->res),
            .kernels = p->rep ? (long)p->rep->n : -1,
            .launches = p->rep ? p->rep->launches : -1,
            .kernel_time_s = p->rep && p->rep->n ? p->rep->total_time : NAN,
            .slurm_job = p->res.slurm_job,
            .slurm_state = p->res.slurm_state,
            .slurm_reason = p->res.slurm_reason,
        };
        if (gp_rdb_add_program(d->w, &row) < 0)
            goto fail;
    }
    if (gp_rdb_set_suite_time(d->w, s->n_kernels ? s->kernel_time : NAN) < 0)
        goto fail;
    rc = gp_rdb_commit(d->w, err, errlen);
    free(d);
    return rc;
fail:
    snprintf(err, errlen, "cannot write %s (nothing written under that name)", gp_rdb_error(d->w));
    gpc_study_db_discard(d);
    return -1;
}

void gpc_study_db_discard(gpc_study_db *d)
{
    if (!d)
        return;
    gp_rdb_discard(d->w);
    free(d);
}

/* test_source_table.c - the instruction-level table behind the source
 * records (preload/source_table.c): SASS-pass counts summed per instruction
 * with each launch counted once per function, the access an instruction
 * makes, stall samples by reason with not-issued samples counted apart and
 * never twice, sampled launches, functions kept apart by device, order. */
#include "preload/source_table.h"
#include "tests/unit/gp_test.h"

#include <string.h>

typedef struct seen {
    int n;
    char names[8][64];
    int devices[8];
    size_t pcs[8];
    gp_src_function_info info[8];
    gp_src_pc first[8];
    uint64_t pc_order[8][8];
    gp_src_pc at30, at40; /* of the first function */
} seen;

static void collect(void *arg, const gp_src_function_info *f, const gp_src_pc *const *pcs,
                    size_t n)
{
    seen *s = arg;
    if (s->n >= 8)
        return;
    snprintf(s->names[s->n], sizeof(s->names[0]), "%s", f->mangled);
    s->devices[s->n] = f->device;
    s->pcs[s->n] = n;
    s->info[s->n] = *f;
    if (n)
        s->first[s->n] = *pcs[0];
    for (size_t i = 0; i < n && i < 8; i++) {
        s->pc_order[s->n][i] = pcs[i]->pc;
        if (s->n == 0 && pcs[i]->pc == 0x30)
            s->at30 = *pcs[i];
        if (s->n == 0 && pcs[i]->pc == 0x40)
            s->at40 = *pcs[i];
    }
    s->n++;
}

static gp_sass_record rec(const char *fn, uint32_t pc, uint64_t inst)
{
    gp_sass_record r;
    memset(&r, 0, sizeof(r));
    r.function = fn;
    r.pc = pc;
    r.v[GP_SASS_INST] = inst;
    r.v[GP_SASS_THREAD_INST] = inst * 30;
    r.v[GP_SASS_THREAD_INST_ALL] = inst * 32;
    return r;
}

int main(void)
{
    gp_src_table *t = gp_src_new();
    GP_CHECK(t && gp_src_n_functions(t) == 0);

    /* one launch: two functions (a kernel and a callee), a global load */
    gp_sass_record a[4] = {rec("kern", 0x20, 10), rec("kern", 0x10, 10), rec("callee", 0x0, 4),
                           rec("kern", 0x30, 8)};
    a[3].v[GP_SASS_GLOBAL_LD] = 8;
    a[3].v[GP_SASS_MEM128] = 8;
    a[3].v[GP_SASS_SECTORS] = 256;
    a[3].v[GP_SASS_SECTORS_IDEAL] = 128;
    GP_CHECK(gp_src_add_sass(t, 0, a, 4) == 0);
    /* a second launch of the kernel alone */
    GP_CHECK(gp_src_add_sass(t, 0, a, 2) == 0);
    /* the same function on another device is another function */
    GP_CHECK(gp_src_add_sass(t, 1, a, 1) == 0);

    /* samples: a reason and its not-issued part, under CUPTI's names */
    GP_CHECK(gp_src_add_samples(t, 0, 0xabc, "kern", 0x30, "long_scoreboard", 90) == 0);
    GP_CHECK(gp_src_add_samples(t, 0, 0xabc, "kern", 0x30, "long_scoreboard_not_issued", 85) == 0);
    GP_CHECK(gp_src_add_samples(t, 0, 0xabc, "kern", 0x30, "selected", 10) == 0);
    GP_CHECK(gp_src_add_samples(t, 0, 0xabc, "kern", 0x40, "wait", 5) == 0); /* only sampled */
    gp_src_sampled_launch(t, 0, "kern");
    gp_src_sampled_launch(t, 0, "kern");
    gp_src_sampled_launch(t, 0, "other"); /* sampled, no sample */

    seen s;
    memset(&s, 0, sizeof(s));
    gp_src_each(t, collect, &s);
    GP_CHECK_MSG(s.n == 4, "%d functions", s.n);
    /* first seen first */
    GP_CHECK(strcmp(s.names[0], "kern") == 0 && s.devices[0] == 0);
    GP_CHECK(strcmp(s.names[1], "callee") == 0);
    GP_CHECK(strcmp(s.names[2], "kern") == 0 && s.devices[2] == 1);
    GP_CHECK(strcmp(s.names[3], "other") == 0 && s.pcs[3] == 0 && s.info[3].sampled_launches == 1);
    /* the kernel: two launches, one of them with the callee; pcs sorted */
    GP_CHECK(s.info[0].sass_launches == 2 && s.info[1].sass_launches == 1 &&
             s.info[2].sass_launches == 1);
    GP_CHECK(s.pcs[0] == 4 && s.pc_order[0][0] == 0x10 && s.pc_order[0][1] == 0x20 &&
             s.pc_order[0][2] == 0x30 && s.pc_order[0][3] == 0x40);
    GP_CHECK(s.first[0].has_sass && s.first[0].count[GP_SRC_INST] == 20 &&
             s.first[0].count[GP_SRC_THREAD_INST] == 640 &&
             s.first[0].count[GP_SRC_THREAD_INST_PRED_ON] == 600);
    /* samples: 100 in all (not-issued ones counted once, apart), the CRC kept */
    GP_CHECK(s.info[0].samples == 105 && s.info[0].not_issued == 85 && s.info[0].crc == 0xabc &&
             s.info[0].sampled_launches == 2);
    GP_CHECK(s.info[2].samples == 0 && s.info[2].crc == 0);
    /* the load: its access and size, its sectors; the samples by reason */
    const gp_src_pc *ld = &s.at30, *w = &s.at40;
    GP_CHECK(ld->has_sass && ld->access == GP_ACC_GLOBAL_LD && ld->access_bits == 128 &&
             strcmp(gp_src_access_name(ld->access), "global_ld") == 0);
    GP_CHECK(ld->count[GP_SRC_SECTORS] == 256 && ld->count[GP_SRC_SECTORS_IDEAL] == 128);
    GP_CHECK(ld->samples == 100 && ld->not_issued == 85 && ld->n_reasons == 2);
    int ls = -1;
    for (unsigned r = 0; r < ld->n_reasons; r++)
        if (strcmp(gp_src_reason(t, ld->reasons[r].reason), "long_scoreboard") == 0)
            ls = (int)r;
    GP_CHECK(ls >= 0 && ld->reasons[ls].samples == 90 && ld->reasons[ls].not_issued == 85);
    /* a pc only sampled: samples, no SASS data, no access */
    GP_CHECK(!w->has_sass && w->samples == 5 && w->access == GP_ACC_NONE);
    GP_CHECK(gp_src_reason(t, 99) == NULL && gp_src_left_out(t) == 0);
    GP_CHECK(strcmp(gp_src_access_name(GP_ACC_N), "") == 0);
    gp_src_free(t);
    return gp_test_finish("source_table");
}

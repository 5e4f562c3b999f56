/* source.c - see source.h */
#include "preload/source.h"

#include <stdlib.h>
#include <string.h>

#include "preload/device_facts.h"
#include "preload/lineinfo.h"
#include "preload/metric_set.h"
#include "preload/names.h"
#include "preload/output.h"
#include "replay/pc_sampling.h"
#include "util/log.h"
#include "util/textio.h"

gp_src_table *gp_source_table(void)
{
    if (!gp_core.src)
        gp_core.src = gp_src_new();
    return gp_core.src;
}

void gp_source_sass_sink(void *arg, int device, const gp_sass_record *r, size_t n)
{
    (void)arg;
    pthread_mutex_lock(&gp_core.state_lock);
    gp_src_table *t = gp_source_table();
    if (t && gp_src_add_sass(t, device, r, n))
        gp_log_once(GP_LOG_WARN, "source-full",
                    "instruction-level data: the table holds %d instructions at most; later "
                    "ones are left out (counted in the summary)",
                    GP_SRC_MAX_PCS);
    pthread_mutex_unlock(&gp_core.state_lock);
}

int gp_source_wanted(void)
{
    return gp_core.cfg.enabled && (gp_core.cfg.sampling || gp_metric_set_wants_sass());
}

void gp_source_module_loaded(const void *cubin, size_t size)
{
    if (gp_source_wanted())
        gp_lineinfo_module_loaded(cubin, size);
}

/* ---- writing --------------------------------------------------------------- */

typedef struct writer {
    FILE *f;
    int sm[64]; /* SM version by device (0: not asked yet) */
    int thread_all; /* the SASS pass counted all thread instructions */
} writer;

static int device_sm(writer *w, int device)
{
    if (device < 0 || device >= 64)
        return 0;
    if (!w->sm[device])
        w->sm[device] =
            10 * gp_collect_device_attr(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) +
            gp_collect_device_attr(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    return w->sm[device];
}

static void hex(FILE *f, const uint8_t *b, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    fputc('"', f);
    for (size_t i = 0; i < n; i++) {
        fputc(digits[b[i] >> 4], f);
        fputc(digits[b[i] & 15], f);
    }
    fputc('"', f);
}

/* The function's machine code (gp_core.code, state_lock held). */
static void write_code(FILE *f, const char *mangled)
{
    gp_code *c;
    HASH_FIND_STR(gp_core.code, mangled, c);
    fprintf(f, ",\"code_bytes\":%zu,\"code\":", c ? c->size : (size_t)0);
    if (c && c->size <= GP_SOURCE_CODE_MAX) {
        hex(f, c->code, c->size);
        return;
    }
    fputs("null,\"code_why\":", f);
    gp_text_json_string(f, c ? "the function's machine code is over 1 MiB"
                             : "the function's machine code was not found in a module gpuprof "
                               "could read");
}

static void write_count(FILE *f, const char *key, uint64_t v)
{
    fprintf(f, ",\"%s\":%llu", key, (unsigned long long)v);
}

static void write_instr(writer *w, const gp_src_function_info *fi, const gp_src_pc *d,
                        const gp_lineinfo_module *m, uint64_t crc)
{
    FILE *f = w->f;
    fprintf(f, "{\"type\":\"source_instr\",\"device\":%d,\"module\":\"%016llx\",\"mangled\":",
            fi->device, (unsigned long long)crc);
    gp_text_json_string(f, fi->mangled);
    fprintf(f, ",\"pc\":%llu", (unsigned long long)d->pc);
    char *file = NULL;
    uint32_t line = 0;
    if (m->elf && gp_pcs_source_line(m->elf, m->size, fi->mangled, d->pc, &file, &line) == 0) {
        fputs(",\"file\":", f);
        gp_text_json_string(f, file);
        fprintf(f, ",\"line\":%u", line);
    }
    free(file);
    if (d->has_sass) {
        write_count(f, "inst_executed", d->count[GP_SRC_INST]);
        if (w->thread_all)
            write_count(f, "thread_inst_executed", d->count[GP_SRC_THREAD_INST]);
        write_count(f, "thread_inst_executed_pred_on", d->count[GP_SRC_THREAD_INST_PRED_ON]);
        write_count(f, "divergent_branches", d->count[GP_SRC_DIVERGENT]);
        if (d->access) {
            fprintf(f, ",\"access\":\"%s\"", gp_src_access_name(d->access));
            if (d->access_bits)
                fprintf(f, ",\"access_bits\":%u", d->access_bits);
        }
        write_count(f, "l1_tags_global", d->count[GP_SRC_TAGS_GLOBAL]);
        write_count(f, "sectors_global", d->count[GP_SRC_SECTORS]);
        write_count(f, "sectors_global_ideal", d->count[GP_SRC_SECTORS_IDEAL]);
        write_count(f, "wavefronts_shared", d->count[GP_SRC_WAVEFRONTS]);
        write_count(f, "wavefronts_shared_ideal", d->count[GP_SRC_WAVEFRONTS_IDEAL]);
    }
    if (d->n_reasons) {
        write_count(f, "samples", d->samples);
        write_count(f, "samples_not_issued", d->not_issued);
        for (int pass = 0; pass < 2; pass++) {
            fputs(pass ? ",\"stall_not_issued\":{" : ",\"stall\":{", f);
            int first = 1;
            for (unsigned i = 0; i < d->n_reasons; i++) {
                uint64_t v = pass ? d->reasons[i].not_issued : d->reasons[i].samples;
                if (!v)
                    continue;
                fputs(first ? "" : ",", f);
                gp_text_json_string(f, gp_src_reason(gp_core.src, d->reasons[i].reason));
                fprintf(f, ":%llu", (unsigned long long)v);
                first = 0;
            }
            fputc('}', f);
        }
    }
    fputs("}\n", f);
}

static void write_function(void *arg, const gp_src_function_info *fi, const gp_src_pc *const *pcs,
                           size_t n)
{
    writer *w = arg;
    FILE *f = w->f;
    gp_lineinfo_module m;
    const char *why = NULL;
    int lines = gp_lineinfo_find(fi->mangled, device_sm(w, fi->device), &m, &why) == 1;
    uint64_t crc = fi->crc ? fi->crc : m.crc;
    char *demangled = gp_demangle(fi->mangled);
    fprintf(f, "{\"type\":\"source_function\",\"device\":%d,\"kernel\":", fi->device);
    gp_text_json_string(f, demangled ? demangled : fi->mangled);
    free(demangled);
    fputs(",\"mangled\":", f);
    gp_text_json_string(f, fi->mangled);
    fprintf(f, ",\"module\":\"%016llx\"", (unsigned long long)crc);
    write_code(f, fi->mangled);
    fprintf(f, ",\"lineinfo\":%s", lines ? "true" : "false");
    if (!lines) {
        fputs(",\"lineinfo_why\":", f);
        gp_text_json_string(f, why);
    }
    fprintf(f,
            ",\"sass_launches\":%llu,\"sampled_launches\":%llu,\"samples\":%llu,"
            "\"samples_not_issued\":%llu,\"instructions\":%zu}\n",
            (unsigned long long)fi->sass_launches, (unsigned long long)fi->sampled_launches,
            (unsigned long long)fi->samples, (unsigned long long)fi->not_issued, n);
    for (size_t i = 0; i < n; i++)
        write_instr(w, fi, pcs[i], lines ? &m : &(gp_lineinfo_module){0}, crc);
}

/* Device records for the devices the functions ran on, when no launch
 * record wrote them (a run that only sampled). */
static void note_device(void *arg, const gp_src_function_info *fi, const gp_src_pc *const *pcs,
                        size_t n)
{
    (void)pcs;
    (void)n;
    writer *w = arg;
    int d = fi->device;
    if (d < 0 || d >= 64 || (gp_core.devices_written >> d & 1))
        return;
    char chip[64] = "", err[256];
    gp_collect_chip_name(d, chip, sizeof(chip), err, sizeof(err));
    gp_device_facts facts;
    gp_device_facts_read(d, &facts, chip);
    gp_json_write_device(w->f, &facts);
    gp_core.devices_written |= 1ull << d;
}

void gp_source_write(FILE *json)
{
    if (!json)
        return;
    writer w;
    memset(&w, 0, sizeof(w));
    w.f = json;
    w.thread_all = gp_collect_sass_metric_available(GP_SASS_THREAD_INST_ALL);
    pthread_mutex_lock(&gp_core.state_lock);
    if (gp_core.src) {
        gp_src_each(gp_core.src, note_device, &w);
        gp_src_each(gp_core.src, write_function, &w);
    }
    pthread_mutex_unlock(&gp_core.state_lock);
    fflush(json);
}

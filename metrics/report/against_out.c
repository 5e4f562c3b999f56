/* against_out.c - see against_out.h.  Every string from an input (kernel
 * and metric names, file names, devices) goes through textio. */
#include "metrics/report/against_out.h"

#include <math.h>
#include <string.h>

#include "metrics/report/report.h"
#include "util/textio.h"

static const char *const gp_ag_outcomes[] = {"agree", "differ", "unstable", "over_100"};

/* A value as the text shows it: "n/a" when there is none. */
static const char *gp_ag_num(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "n/a");
    else
        snprintf(buf, len, "%.6g", v);
    return buf;
}

/* A relative difference as a percentage; "-" where there is none (ncu's
 * value 0, a value on one side only): no output holds an infinity. */
static const char *gp_ag_pct(char *buf, size_t len, double rel)
{
    if (!isfinite(rel))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2f", 100 * rel);
    return buf;
}

/* "kernel#ordinal" of a launch (side 0) or ncu row (side 1), escaped. */
static const char *gp_ag_who(const gp_against_result *res, int side, size_t i, char *buf,
                             size_t len)
{
    char name[300];
    size_t k = side ? res->n_launches + i : i;
    gp_text_plain_buf(name, sizeof name, res->shortname[k]);
    snprintf(buf, len, "%s#%ld", name, res->ordinal[k]);
    return buf;
}

void gp_against_totals(const gp_against_result *res, char *buf, size_t len)
{
    snprintf(buf, len,
             "against: %zu agree, %zu differ, %zu not judged (%zu unstable, %zu over 100%%), "
             "%zu unmatched launches",
             res->agree, res->differ, res->unstable + res->over100, res->unstable, res->over100,
             res->n_unmatched);
}

static void gp_ag_classes_text(FILE *out)
{
    const gp_against_class_info *c = gp_against_classes();
    int i, first = 1;
    fputs("tolerances:", out);
    for (i = 0; i < GP_AG_N_CLASSES; i++) {
        if (c[i].flags & GP_AG_SKIP)
            continue;
        fprintf(out, "%s %s %g%%", first ? "" : ";", c[i].label, 100 * c[i].rel);
        if (c[i].abs > 0)
            fprintf(out, " or %g%s%s", c[i].abs, c[i].abs_unit[0] ? " " : "", c[i].abs_unit);
        first = 0;
    }
    fputs(" (docs/report.md)\n", out);
}

static void gp_ag_head(const gp_against_result *res, const gp_against_inputs *in, FILE *out)
{
    size_t i;
    fputs("gpuprof against Nsight Compute: ", out);
    gp_text_plain(out, in->run);
    if (in->n_run > 1)
        fprintf(out, " and %zu more", in->n_run - 1);
    fprintf(out, " (%zu launches) against ", res->n_launches);
    gp_text_plain(out, in->oracle->name);
    fprintf(out, " (%zu launches)\n", in->oracle->n_rows);
    for (i = 0; i < in->n_again; i++) {
        fputs("  ncu again: ", out);
        gp_text_plain(out, in->again[i]->name);
        fprintf(out, " (%zu launches)\n", in->again[i]->n_rows);
    }
    if (in->one_pass) {
        fputs("  one-pass metrics from: ", out);
        gp_text_plain(out, in->one_pass->name);
        fprintf(out, " (%zu launches)\n", in->one_pass->n_rows);
    }
    if (in->one_pass && in->one_pass_again) {
        fputs("  one-pass metrics again: ", out);
        gp_text_plain(out, in->one_pass_again->name);
        fprintf(out, " (%zu launches)\n", in->one_pass_again->n_rows);
    }
    gp_ag_classes_text(out);
}

static void gp_ag_table(const gp_against_result *res, FILE *out)
{
    size_t m;
    char name[300], med[32], worst[32], who[340];
    fprintf(out, "\n%-64s %-10s %6s %6s %8s %8s  %s\n", "metric", "class", "pairs", "agree",
            "median%", "worst%", "worst launch");
    for (m = 0; m < res->n_metrics; m++) {
        const gp_against_metric *s = &res->metrics[m];
        gp_text_plain_buf(name, sizeof name, s->name);
        fprintf(out, "%-64s %-10s %6zu %6zu %8s %8s  %s", name, gp_against_classes()[s->cls].label,
                s->pairs, s->agree, gp_ag_pct(med, sizeof med, s->median),
                gp_ag_pct(worst, sizeof worst, s->pairs ? s->worst : NAN),
                s->worst_pair >= 0
                    ? gp_ag_who(res, 0, res->pairs[s->worst_pair].launch, who, sizeof who)
                    : "-");
        if (s->unstable || s->over100)
            fprintf(out, "  (not judged: %zu unstable, %zu over 100%%)", s->unstable, s->over100);
        fputc('\n', out);
    }
}

static void gp_ag_pairs_text(const gp_against_result *res, int outcome, FILE *out)
{
    static const char *const tag[] = {"", "DIFF", "UNSTABLE", "OVER-100"};
    char who[340], name[300], a[40], b[40], c[40], pct[32];
    size_t i;
    for (i = 0; i < res->n_pairs; i++) {
        const gp_against_pair *p = &res->pairs[i];
        if (p->outcome != outcome)
            continue;
        gp_text_plain_buf(name, sizeof name, res->metrics[p->metric].name);
        fprintf(out, "%s %s %s: ncu%s %s", tag[outcome],
                gp_ag_who(res, 0, p->launch, who, sizeof who), name,
                p->from_one_pass ? " (one pass)" : "", gp_ag_num(a, sizeof a, p->n));
        if (outcome == GP_AG_UNSTABLE)
            fprintf(out, ", ncu again %s", gp_ag_num(b, sizeof b, p->n2));
        fprintf(out, ", gpuprof %s", gp_ag_num(c, sizeof c, p->g));
        if (outcome == GP_AG_DIFFER && isfinite(p->rel))
            fprintf(out, " (%s%%)", gp_ag_pct(pct, sizeof pct, p->rel));
        else if (outcome == GP_AG_DIFFER)
            fputs(isnan(p->g) || isnan(p->n) ? " (a value on one side only)" : " (ncu's is 0)",
                  out);
        if (outcome == GP_AG_UNSTABLE)
            fprintf(out, " (%s the first run)", p->agree ? "agrees with" : "differs from");
        fputc('\n', out);
    }
}

static void gp_ag_lists_text(const gp_against_result *res, const gp_against_inputs *in, FILE *out)
{
    char who[340];
    size_t i;
    for (i = 0; i < res->n_unmatched; i++) {
        const gp_against_unmatched *u = &res->unmatched[i];
        if (u->side == GP_AG_GPUPROF_ONLY)
            fprintf(out, "UNMATCHED gpuprof only: %s\n",
                    gp_ag_who(res, 0, u->index, who, sizeof who));
        else
            fprintf(out, "UNMATCHED ncu only: %s (ID %ld, line %ld)\n",
                    gp_ag_who(res, 1, u->index, who, sizeof who), in->oracle->rows[u->index].id,
                    in->oracle->rows[u->index].line);
    }
    for (i = 0; i < res->n_gpuprof_only_metrics; i++) {
        fputs("METRIC gpuprof only (ncu has no column): ", out);
        gp_text_plain(out, res->gpuprof_only_metrics[i]);
        fputc('\n', out);
    }
    /* ncu adds columns of its own (device attributes, launch statistics):
     * their number and the first few; --format json lists them all */
    if (res->n_ncu_only_metrics) {
        fprintf(out, "METRIC ncu only: %zu column%s no gpuprof launch has (",
                res->n_ncu_only_metrics, res->n_ncu_only_metrics == 1 ? "" : "s");
        for (i = 0; i < res->n_ncu_only_metrics && i < 4; i++) {
            fputs(i ? ", " : "", out);
            gp_text_plain(out, res->ncu_only_metrics[i]);
        }
        fputs(res->n_ncu_only_metrics > 4 ? ", ...)\n" : ")\n", out);
    }
    if (res->device_mismatch) {
        fprintf(out, "warning: the devices differ on %zu matched launch%s: gpuprof ran on ",
                res->device_mismatch, res->device_mismatch == 1 ? "" : "es");
        gp_text_plain(out, res->device_gpuprof);
        fputs(", ncu on ", out);
        gp_text_plain(out, res->device_ncu);
        fputc('\n', out);
    }
}

/* Why nothing could be judged, in words. */
static void gp_ag_nothing(const gp_against_result *res, FILE *out)
{
    fputs("against: nothing compared: ", out);
    if (!res->n_launches)
        fputs("gpuprof's records hold no launch\n", out);
    else if (!res->n_rows)
        fputs("ncu's table holds no launch\n", out);
    else if (res->n_gpuprof_only == res->n_launches)
        fputs("no launch has the same kernel name and ordinal on both sides (files of "
              "different programs?)\n",
              out);
    else if (!res->n_metrics)
        fputs("no metric of gpuprof's records is a column of ncu's table (different metric "
              "lists?)\n",
              out);
    else if (res->unstable || res->over100)
        fputs("every pair was set apart (unstable, or over 100% in ncu)\n", out);
    else
        fputs("no metric has a value on either side\n", out);
}

/* DRAM write-backs and L2 bytes that differ from an ncu run of several
 * passes: say why they may, and how to judge them (docs/report.md). */
static void gp_ag_one_pass_note(const gp_against_result *res, const gp_against_inputs *in, FILE *out)
{
    size_t i, n = 0;
    if (in->one_pass)
        return;
    for (i = 0; i < res->n_pairs; i++) {
        const gp_against_pair *p = &res->pairs[i];
        if (p->outcome == GP_AG_DIFFER && gp_against_is_one_pass(res->metrics[p->metric].name))
            n++;
    }
    if (n)
        fprintf(out,
                "note: %zu DRAM write-back or L2 byte pair%s differ%s. With a metric list of several "
                "passes Nsight Compute charges the kernel with the write-back of what it restored "
                "before a pass and with its passes' memory-barrier traffic; judge them against ncu "
                "run with --metrics dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_"
                "sustained_elapsed,lts__t_bytes.sum alone, given with --against-one-pass\n",
                n, n == 1 ? "" : "s", n == 1 ? "s" : "");
}

int gp_against_text(const gp_against_result *res, const gp_against_inputs *in, FILE *out)
{
    char line[256];
    size_t judged = res->agree + res->differ;
    gp_ag_head(res, in, out);
    if (res->n_metrics)
        gp_ag_table(res, out);
    fputc('\n', out);
    gp_ag_pairs_text(res, GP_AG_DIFFER, out);
    gp_ag_pairs_text(res, GP_AG_UNSTABLE, out);
    gp_ag_pairs_text(res, GP_AG_OVER100, out);
    gp_ag_lists_text(res, in, out);
    gp_ag_one_pass_note(res, in, out);
    if (judged)
        fprintf(out, "agreement: %.2f%% of %zu judged (launch, metric) pairs\n",
                100.0 * (double)res->agree / (double)judged, judged);
    else
        gp_ag_nothing(res, out);
    if (res->unstable)
        fprintf(out,
                "all pairs: %.2f%% of %zu agree with the first ncu run, counting the %zu "
                "pairs ncu did not repeat (%zu of them agree)\n",
                100.0 * (double)(res->agree + res->unstable_agree) /
                    (double)(judged + res->unstable),
                judged + res->unstable, res->unstable, res->unstable_agree);
    gp_against_totals(res, line, sizeof line);
    fprintf(out, "%s\n", line);
    return ferror(out) ? -1 : 0;
}

static void gp_ag_json_kv(FILE *out, const char *key, const char *v, int comma)
{
    fprintf(out, "%s\"%s\":", comma ? "," : "", key);
    gp_text_json_string(out, v);
}

static void gp_ag_json_launch(const gp_against_result *res, int side, size_t i, FILE *out)
{
    size_t k = side ? res->n_launches + i : i;
    gp_ag_json_kv(out, "kernel", res->shortname[k], 1);
    fprintf(out, ",\"ordinal\":%ld", res->ordinal[k]);
}

int gp_against_json(const gp_against_result *res, const gp_against_inputs *in, FILE *out)
{
    const gp_against_class_info *c = gp_against_classes();
    size_t i, judged = res->agree + res->differ;
    fputs("{\"type\":\"against\"", out);
    gp_ag_json_kv(out, "gpuprof", in->run, 1);
    gp_ag_json_kv(out, "ncu", in->oracle->name, 1);
    fputs(",\"ncu_again\":[", out);
    for (i = 0; i < in->n_again; i++) {
        fputs(i ? "," : "", out);
        gp_text_json_string(out, in->again[i]->name);
    }
    fputc(']', out);
    gp_ag_json_kv(out, "ncu_one_pass", in->one_pass ? in->one_pass->name : NULL, 1);
    gp_ag_json_kv(out, "ncu_one_pass_again",
                  in->one_pass && in->one_pass_again ? in->one_pass_again->name : NULL, 1);
    fprintf(out, ",\"launches\":{\"gpuprof\":%zu,\"ncu\":%zu}", res->n_launches, res->n_rows);
    fputs(",\"classes\":[", out);
    for (i = 0; i < GP_AG_N_CLASSES; i++) {
        fputc('{', out);
        gp_ag_json_kv(out, "name", c[i].label, 0);
        fprintf(out, ",\"rel\":%g,\"abs\":%g", c[i].rel, c[i].abs);
        gp_ag_json_kv(out, "abs_unit", c[i].abs_unit, 1);
        fprintf(out, ",\"zero_is_na\":%s,\"over_100_apart\":%s,\"compared\":%s",
                c[i].flags & GP_AG_ZERO_NA ? "true" : "false",
                c[i].flags & GP_AG_OVER_100 ? "true" : "false",
                c[i].flags & GP_AG_SKIP ? "false" : "true");
        fputs(i + 1 < GP_AG_N_CLASSES ? "}," : "}", out);
    }
    fputs("],\"metrics\":[", out);
    for (i = 0; i < res->n_metrics; i++) {
        const gp_against_metric *s = &res->metrics[i];
        fputc('{', out);
        gp_ag_json_kv(out, "name", s->name, 0);
        gp_ag_json_kv(out, "class", c[s->cls].label, 1);
        fprintf(out, ",\"pairs\":%zu,\"agree\":%zu,\"unstable\":%zu,\"over_100\":%zu", s->pairs,
                s->agree, s->unstable, s->over100);
        fputs(",\"median_rel\":", out);
        gp_report_json_num(out, s->median);
        fputs(",\"worst_rel\":", out);
        gp_report_json_num(out, s->pairs ? s->worst : NAN);
        fputs(",\"worst_launch\":", out);
        if (s->worst_pair >= 0) {
            fputs("{\"kernel\":", out);
            gp_text_json_string(out, res->shortname[res->pairs[s->worst_pair].launch]);
            fprintf(out, ",\"ordinal\":%ld}", res->ordinal[res->pairs[s->worst_pair].launch]);
        } else {
            fputs("null", out);
        }
        fputs(i + 1 < res->n_metrics ? "}," : "}", out);
    }
    fputs("],\"pairs\":[", out);
    for (i = 0; i < res->n_pairs; i++) {
        const gp_against_pair *p = &res->pairs[i];
        fputs(i ? ",{" : "{", out);
        gp_ag_json_kv(out, "metric", res->metrics[p->metric].name, 0);
        gp_ag_json_launch(res, 0, p->launch, out);
        fprintf(out, ",\"ncu_id\":%ld,\"outcome\":\"%s\",\"gpuprof\":", in->oracle->rows[p->row].id,
                gp_ag_outcomes[p->outcome]);
        gp_report_json_num(out, p->g);
        fputs(",\"ncu\":", out);
        gp_report_json_num(out, p->n);
        fputs(",\"ncu_again\":", out);
        gp_report_json_num(out, p->n2);
        fputs(",\"rel\":", out);
        gp_report_json_num(out, p->rel);
        fprintf(out, ",\"ncu_from\":\"%s\"}", p->from_one_pass ? "one-pass" : "first");
    }
    fputs("],\"unmatched\":[", out);
    for (i = 0; i < res->n_unmatched; i++) {
        const gp_against_unmatched *u = &res->unmatched[i];
        fprintf(out, "%s{\"side\":\"%s\"", i ? "," : "",
                u->side == GP_AG_GPUPROF_ONLY ? "gpuprof" : "ncu");
        gp_ag_json_launch(res, u->side == GP_AG_NCU_ONLY, u->index, out);
        fputc('}', out);
    }
    fputs("],\"gpuprof_only_metrics\":[", out);
    for (i = 0; i < res->n_gpuprof_only_metrics; i++) {
        fputs(i ? "," : "", out);
        gp_text_json_string(out, res->gpuprof_only_metrics[i]);
    }
    fputs("],\"ncu_only_metrics\":[", out);
    for (i = 0; i < res->n_ncu_only_metrics; i++) {
        fputs(i ? "," : "", out);
        gp_text_json_string(out, res->ncu_only_metrics[i]);
    }
    fputs("],\"device_mismatch\":", out);
    if (res->device_mismatch) {
        fprintf(out, "{\"launches\":%zu", res->device_mismatch);
        gp_ag_json_kv(out, "gpuprof", res->device_gpuprof, 1);
        gp_ag_json_kv(out, "ncu", res->device_ncu, 1);
        fputc('}', out);
    } else {
        fputs("null", out);
    }
    fprintf(out,
            ",\"totals\":{\"agree\":%zu,\"differ\":%zu,\"unstable\":%zu,\"unstable_agree\":%zu,"
            "\"over_100\":%zu,\"unmatched\":%zu,\"gpuprof_only\":%zu,\"ncu_only\":%zu,"
            "\"agreement_pct\":",
            res->agree, res->differ, res->unstable, res->unstable_agree, res->over100,
            res->n_unmatched, res->n_gpuprof_only, res->n_ncu_only);
    gp_report_json_num(out, judged ? 100.0 * (double)res->agree / (double)judged : NAN);
    fprintf(out, "},\"status\":%d}\n", gp_against_status(res));
    return ferror(out) ? -1 : 0;
}

int gp_against_csv(const gp_against_result *res, const gp_against_inputs *in, FILE *out)
{
    size_t i;
    fputs("kernel,ordinal,ncu_id,metric,class,outcome,gpuprof,ncu,ncu_again,rel,ncu_from\n", out);
    for (i = 0; i < res->n_pairs; i++) {
        const gp_against_pair *p = &res->pairs[i];
        gp_text_csv_field(out, res->shortname[p->launch]);
        fprintf(out, ",%ld,%ld,", res->ordinal[p->launch], in->oracle->rows[p->row].id);
        gp_text_csv_field(out, res->metrics[p->metric].name);
        fprintf(out, ",%s,%s", gp_against_classes()[res->metrics[p->metric].cls].label,
                gp_ag_outcomes[p->outcome]);
        gp_report_csv_num(out, p->g);
        gp_report_csv_num(out, p->n);
        gp_report_csv_num(out, p->n2);
        gp_report_csv_num(out, p->rel);
        fprintf(out, ",%s\n", p->from_one_pass ? "one-pass" : "first");
    }
    return ferror(out) ? -1 : 0;
}

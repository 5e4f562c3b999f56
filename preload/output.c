/* output.c - see output.h */
#include "preload/output.h"

#include "util/textio.h"

#include <math.h>
#include <string.h>

static void json_number(FILE *f, double v)
{
    if (isnan(v) || isinf(v))
        fputs("null", f);
    else if (v == floor(v) && fabs(v) < 9e15)
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.9g", v);
}

static void json_triple(FILE *f, const char *key, const unsigned v[3])
{
    fprintf(f, ",\"%s\":[%u,%u,%u]", key, v[0], v[1], v[2]);
}

void gp_json_write_device(FILE *f, const gp_device_facts *d)
{
    fprintf(f, "{\"type\":\"device\",\"schema\":1,\"device\":%d,\"name\":", d->ordinal);
    gp_text_json_string(f, d->name);
    fputs(",\"chip\":", f);
    gp_text_json_string(f, d->chip);
    double dram = 2.0 * d->mem_clock_khz * 1e3 * d->mem_bus_width_bits / 8.0;
    fprintf(f,
            ",\"cc\":[%d,%d],\"sm_count\":%d,\"max_threads_per_sm\":%d,\"max_blocks_per_sm\":%d,"
            "\"max_warps_per_sm\":%d,\"warp_size\":%d,\"regs_per_sm\":%d,\"max_regs_per_block\":%d,"
            "\"max_regs_per_thread\":255,\"reg_alloc_unit\":256,\"warp_alloc_granularity\":4,"
            "\"smem_per_sm\":%d,\"smem_per_block\":%d,\"smem_per_block_optin\":%d,"
            "\"smem_reserved_per_block\":%d,\"l2_bytes\":%d,\"mem_bus_width_bits\":%d,"
            "\"mem_clock_khz\":%d,\"sm_clock_khz\":%d,\"dram_bytes_per_s_theoretical\":",
            d->cc_major, d->cc_minor, d->sm_count, d->max_threads_per_sm, d->max_blocks_per_sm,
            d->warp_size ? d->max_threads_per_sm / d->warp_size : 0, d->warp_size, d->regs_per_sm,
            d->max_regs_per_block, d->smem_per_sm, d->smem_per_block, d->smem_per_block_optin,
            d->smem_reserved_per_block, d->l2_bytes, d->mem_bus_width_bits, d->mem_clock_khz,
            d->sm_clock_khz);
    json_number(f, dram);
    fputs("}\n", f);
}

void gp_json_write_launch(FILE *f, const gp_launch_record *r)
{
    fprintf(f, "{\"type\":\"launch\",\"schema\":1,\"launch_id\":%llu,\"pid\":%ld,\"host\":",
            (unsigned long long)r->launch_id, r->pid);
    gp_text_json_string(f, r->host);
    if (r->process) {
        fputs(",\"process\":", f);
        gp_text_json_string(f, r->process);
    }
    if (r->rank >= 0)
        fprintf(f, ",\"rank\":%ld", r->rank);
    fprintf(f, ",\"device\":%d,\"context\":%u,\"stream\":%llu,\"kernel\":", r->device, r->context,
            (unsigned long long)r->stream);
    gp_text_json_string(f, r->kernel);
    fputs(",\"mangled\":", f);
    gp_text_json_string(f, r->mangled);
    fputs(",\"api\":", f);
    gp_text_json_string(f, r->api);
    json_triple(f, "grid", r->grid);
    json_triple(f, "block", r->block);
    json_triple(f, "cluster", r->cluster);
    fprintf(f,
            ",\"regs_per_thread\":%d,\"static_smem\":%zu,\"dynamic_smem\":%zu,"
            "\"local_bytes_per_thread\":%zu,\"passes\":%d,\"snapshot\":",
            r->regs_per_thread, r->static_smem, r->dynamic_smem, r->local_bytes_per_thread,
            r->passes);
    gp_text_json_string(f, r->snapshot);
    fprintf(f, ",\"bytes_saved\":%llu,\"bytes_restored\":%llu,\"replay_ms\":",
            (unsigned long long)r->bytes_saved, (unsigned long long)r->bytes_restored);
    json_number(f, r->replay_ms);
    fprintf(f, ",\"caches\":\"%s\",\"metrics\":{", r->caches_flushed ? "flushed" : "not-flushed");
    for (size_t i = 0; i < r->n_metrics; i++) {
        if (i)
            fputc(',', f);
        gp_text_json_string(f, r->metric_names[i]);
        fputc(':', f);
        json_number(f, r->values[i]);
    }
    fputs("},\"missing\":{", f);
    int first = 1;
    for (size_t i = 0; i < r->n_metrics; i++) {
        if (!isnan(r->values[i]))
            continue;
        if (!first)
            fputc(',', f);
        first = 0;
        gp_text_json_string(f, r->metric_names[i]);
        fputc(':', f);
        gp_text_json_string(f, r->missing && r->missing[i] ? r->missing[i] : "not measured");
    }
    fputs("}}\n", f);
}

static const char *const csv_fixed =
    "launch_id,device,context,stream,kernel,mangled,grid_x,grid_y,grid_z,block_x,block_y,block_z,"
    "regs_per_thread,static_smem [byte],dynamic_smem [byte],local_bytes_per_thread [byte],passes,"
    "snapshot,bytes_saved [byte],bytes_restored [byte],replay_ms [ms]";

void gp_csv_write_header(FILE *f, const gp_launch_record *r)
{
    fputs(csv_fixed, f);
    for (size_t i = 0; i < r->n_metrics; i++) {
        char col[512];
        snprintf(col, sizeof(col), "%s [%s]", r->metric_names[i],
                 r->metric_units && r->metric_units[i] ? r->metric_units[i] : "");
        fputc(',', f);
        gp_text_csv_field(f, col);
    }
    fputc('\n', f);
}

void gp_csv_write_launch(FILE *f, const gp_launch_record *r)
{
    fprintf(f, "%llu,%d,%u,%llu,", (unsigned long long)r->launch_id, r->device, r->context,
            (unsigned long long)r->stream);
    gp_text_csv_field(f, r->kernel);
    fputc(',', f);
    gp_text_csv_field(f, r->mangled);
    fprintf(f, ",%u,%u,%u,%u,%u,%u,%d,%zu,%zu,%zu,%d,%s,%llu,%llu,%.3f", r->grid[0], r->grid[1],
            r->grid[2], r->block[0], r->block[1], r->block[2], r->regs_per_thread, r->static_smem,
            r->dynamic_smem, r->local_bytes_per_thread, r->passes, r->snapshot,
            (unsigned long long)r->bytes_saved, (unsigned long long)r->bytes_restored,
            r->replay_ms);
    for (size_t i = 0; i < r->n_metrics; i++) {
        fputc(',', f);
        if (!isnan(r->values[i]))
            fprintf(f, "%.9g", r->values[i]);
    }
    fputc('\n', f);
}

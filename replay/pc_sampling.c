/* pc_sampling.c - see pc_sampling.h */
#include "replay/pc_sampling.h"

#include <cupti.h>
#include <cupti_pcsampling.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PC records one drain call reads (each with room for every reason) */
enum { GP_PCS_DRAIN_PCS = 2048, GP_PCS_MAX_ROUNDS = 100000 };

static const char reason_prefix[] = "smsp__pcsamp_warps_issue_stalled_";

struct gp_pcs {
    CUcontext ctx;
    int started;
    size_t n_reasons;
    uint32_t *reason_index; /* CUPTI's index of each reason */
    char **reason_name;     /* CUPTI's names (CUPTI_STALL_REASON_STRING_SIZE each) */
    uint32_t max_index;
    const char **name_by_index; /* index -> name without the prefix, NULL if none */
    CUpti_PCSamplingData cfg_buf, get_buf; /* the flush buffer CUPTI keeps; ours */
    uint32_t *tmp_reasons;
    uint64_t *tmp_counts;
    char **names_seen; /* function-name strings CUPTI handed over (freed at close) */
    size_t n_names, cap_names;
    gp_pcs_totals totals;
};

static int pcs_fail(CUptiResult r, const char *what, char *err, size_t errlen)
{
    const char *s = NULL;
    cuptiGetResultString(r, &s);
    if (err && errlen)
        snprintf(err, errlen, "%s failed: %s", what, s ? s : "unknown CUPTI error");
    return -1;
}

static int data_alloc(CUpti_PCSamplingData *d, size_t n_reasons)
{
    memset(d, 0, sizeof(*d));
    d->size = sizeof(*d);
    d->collectNumPcs = GP_PCS_DRAIN_PCS;
    d->pPcData = calloc(GP_PCS_DRAIN_PCS, sizeof(CUpti_PCSamplingPCData));
    if (!d->pPcData)
        return -1;
    for (size_t i = 0; i < GP_PCS_DRAIN_PCS; i++) {
        d->pPcData[i].size = sizeof(CUpti_PCSamplingPCData);
        d->pPcData[i].stallReason =
            calloc(n_reasons ? n_reasons : 1, sizeof(CUpti_PCSamplingStallReason));
        if (!d->pPcData[i].stallReason)
            return -1;
    }
    return 0;
}

static void data_free(CUpti_PCSamplingData *d)
{
    for (size_t i = 0; d->pPcData && i < GP_PCS_DRAIN_PCS; i++)
        free(d->pPcData[i].stallReason);
    free(d->pPcData);
    d->pPcData = NULL;
}

static void pcs_free(gp_pcs *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n_reasons && p->reason_name; i++)
        free(p->reason_name[i]);
    free(p->reason_name);
    free(p->reason_index);
    free(p->name_by_index);
    data_free(&p->cfg_buf);
    data_free(&p->get_buf);
    free(p->tmp_reasons);
    free(p->tmp_counts);
    for (size_t i = 0; i < p->n_names; i++)
        free(p->names_seen[i]);
    free(p->names_seen);
    free(p);
}

/* The reasons CUPTI samples on this device, by index. */
static int read_reasons(gp_pcs *p, char *err, size_t errlen)
{
    CUpti_PCSamplingGetNumStallReasonsParams nr = {CUpti_PCSamplingGetNumStallReasonsParamsSize};
    nr.ctx = p->ctx;
    nr.numStallReasons = &p->n_reasons;
    CUptiResult r = cuptiPCSamplingGetNumStallReasons(&nr);
    if (r != CUPTI_SUCCESS)
        return pcs_fail(r, "cuptiPCSamplingGetNumStallReasons", err, errlen);
    p->reason_index = calloc(p->n_reasons ? p->n_reasons : 1, sizeof(uint32_t));
    p->reason_name = calloc(p->n_reasons ? p->n_reasons : 1, sizeof(char *));
    if (!p->reason_index || !p->reason_name)
        goto oom;
    for (size_t i = 0; i < p->n_reasons; i++)
        if (!(p->reason_name[i] = calloc(CUPTI_STALL_REASON_STRING_SIZE, 1)))
            goto oom;
    CUpti_PCSamplingGetStallReasonsParams gr = {CUpti_PCSamplingGetStallReasonsParamsSize};
    gr.ctx = p->ctx;
    gr.numStallReasons = p->n_reasons;
    gr.stallReasonIndex = p->reason_index;
    gr.stallReasons = p->reason_name;
    if ((r = cuptiPCSamplingGetStallReasons(&gr)) != CUPTI_SUCCESS)
        return pcs_fail(r, "cuptiPCSamplingGetStallReasons", err, errlen);
    for (size_t i = 0; i < p->n_reasons; i++) {
        p->reason_name[i][CUPTI_STALL_REASON_STRING_SIZE - 1] = '\0';
        if (p->reason_index[i] > p->max_index)
            p->max_index = p->reason_index[i];
    }
    p->name_by_index = calloc((size_t)p->max_index + 1, sizeof(char *));
    p->tmp_reasons = calloc(p->n_reasons ? p->n_reasons : 1, sizeof(uint32_t));
    p->tmp_counts = calloc(p->n_reasons ? p->n_reasons : 1, sizeof(uint64_t));
    if (!p->name_by_index || !p->tmp_reasons || !p->tmp_counts)
        goto oom;
    /* only the stall reasons: CUPTI also lists its sample and dropped counts */
    for (size_t i = 0; i < p->n_reasons; i++)
        if (strncmp(p->reason_name[i], reason_prefix, sizeof(reason_prefix) - 1) == 0)
            p->name_by_index[p->reason_index[i]] = p->reason_name[i] + sizeof(reason_prefix) - 1;
    return 0;
oom:
    snprintf(err, errlen, "out of memory for the stall reasons");
    return -1;
}

static int configure(gp_pcs *p, const gp_pcs_config *cfg, char *err, size_t errlen)
{
    if (data_alloc(&p->cfg_buf, p->n_reasons) != 0 || data_alloc(&p->get_buf, p->n_reasons) != 0) {
        snprintf(err, errlen, "out of memory for the sampling buffers");
        return -1;
    }
    CUpti_PCSamplingConfigurationInfo c[8];
    memset(c, 0, sizeof(c));
    size_t n = 0;
    c[n].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL;
    c[n++].attributeData.enableStartStopControlData.enableStartStopControl = 1;
    c[n].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
    c[n++].attributeData.collectionModeData.collectionMode =
        CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
    c[n].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT;
    c[n++].attributeData.outputDataFormatData.outputDataFormat =
        CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
    c[n].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
    c[n++].attributeData.samplingDataBufferData.samplingDataBuffer = &p->cfg_buf;
    c[n].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
    c[n++].attributeData.samplingPeriodData.samplingPeriod = cfg->interval_log2;
    if (cfg->hw_buffer_bytes) {
        c[n].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_HARDWARE_BUFFER_SIZE;
        c[n++].attributeData.hardwareBufferSizeData.hardwareBufferSize = cfg->hw_buffer_bytes;
    }
    if (cfg->worker_ms) {
        c[n].attributeType =
            CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_WORKER_THREAD_PERIODIC_SLEEP_SPAN;
        c[n++].attributeData.workerThreadPeriodicSleepSpanData.workerThreadPeriodicSleepSpan =
            cfg->worker_ms;
    }
    if (cfg->scratch_bytes) {
        c[n].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE;
        c[n++].attributeData.scratchBufferSizeData.scratchBufferSize = cfg->scratch_bytes;
    }
    CUpti_PCSamplingConfigurationInfoParams cp = {CUpti_PCSamplingConfigurationInfoParamsSize};
    cp.ctx = p->ctx;
    cp.numAttributes = n;
    cp.pPCSamplingConfigurationInfo = c;
    CUptiResult r = cuptiPCSamplingSetConfigurationAttribute(&cp);
    if (r != CUPTI_SUCCESS)
        return pcs_fail(r, "cuptiPCSamplingSetConfigurationAttribute", err, errlen);
    for (size_t i = 0; i < n; i++)
        if (c[i].attributeStatus != CUPTI_SUCCESS) {
            char what[96];
            snprintf(what, sizeof(what), "PC sampling attribute %d", (int)c[i].attributeType);
            return pcs_fail(c[i].attributeStatus, what, err, errlen);
        }
    return 0;
}

static void disable(CUcontext ctx)
{
    CUpti_PCSamplingDisableParams d = {CUpti_PCSamplingDisableParamsSize};
    d.ctx = ctx;
    cuptiPCSamplingDisable(&d);
}

gp_pcs *gp_pcs_open(CUcontext ctx, const gp_pcs_config *cfg, char *err, size_t errlen)
{
    gp_pcs *p = calloc(1, sizeof(*p));
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    p->ctx = ctx;
    CUpti_PCSamplingEnableParams en = {CUpti_PCSamplingEnableParamsSize};
    en.ctx = ctx;
    CUptiResult r = cuptiPCSamplingEnable(&en);
    if (r != CUPTI_SUCCESS) {
        pcs_fail(r, "cuptiPCSamplingEnable", err, errlen);
        pcs_free(p);
        return NULL;
    }
    if (read_reasons(p, err, errlen) != 0 || configure(p, cfg, err, errlen) != 0) {
        disable(ctx);
        pcs_free(p);
        return NULL;
    }
    return p;
}

int gp_pcs_start(gp_pcs *p, char *err, size_t errlen)
{
    if (p->started)
        return 0;
    CUpti_PCSamplingStartParams s = {CUpti_PCSamplingStartParamsSize};
    s.ctx = p->ctx;
    CUptiResult r = cuptiPCSamplingStart(&s);
    if (r != CUPTI_SUCCESS)
        return pcs_fail(r, "cuptiPCSamplingStart", err, errlen);
    p->started = 1;
    return 0;
}

int gp_pcs_stop(gp_pcs *p, char *err, size_t errlen)
{
    if (!p->started)
        return 0;
    CUpti_PCSamplingStopParams s = {CUpti_PCSamplingStopParamsSize};
    s.ctx = p->ctx;
    CUptiResult r = cuptiPCSamplingStop(&s);
    p->started = 0;
    return r == CUPTI_SUCCESS ? 0 : pcs_fail(r, "cuptiPCSamplingStop", err, errlen);
}

int gp_pcs_started(const gp_pcs *p)
{
    return p && p->started;
}

/* Keeps each function-name string CUPTI handed over, to free it once. */
static void name_seen(gp_pcs *p, char *name)
{
    if (!name)
        return;
    for (size_t i = p->n_names; i-- > 0 && i + 8 >= p->n_names;)
        if (p->names_seen[i] == name) /* the common case: the last few */
            return;
    for (size_t i = 0; i < p->n_names; i++)
        if (p->names_seen[i] == name)
            return;
    if (p->n_names == p->cap_names) {
        size_t cap = p->cap_names ? 2 * p->cap_names : 64;
        char **n = realloc(p->names_seen, cap * sizeof(*n));
        if (!n)
            return; /* leaked: never freed twice */
        p->names_seen = n;
        p->cap_names = cap;
    }
    p->names_seen[p->n_names++] = name;
}

/* Hands the records of d to sink and adds its totals. */
static void take(gp_pcs *p, const CUpti_PCSamplingData *d, gp_pcs_sink sink, void *arg)
{
    p->totals.samples += d->totalSamples;
    p->totals.dropped += d->droppedSamples;
    p->totals.non_user += d->nonUsrKernelsTotalSamples;
    p->totals.buffer_full += d->hardwareBufferFull ? 1 : 0;
    size_t npc = d->totalNumPcs < d->collectNumPcs ? d->totalNumPcs : d->collectNumPcs;
    for (size_t i = 0; i < npc; i++) {
        const CUpti_PCSamplingPCData *pc = &d->pPcData[i];
        name_seen(p, pc->functionName);
        size_t n = 0;
        for (size_t j = 0; j < pc->stallReasonCount && j < p->n_reasons; j++) {
            uint32_t idx = pc->stallReason[j].pcSamplingStallReasonIndex;
            if (idx > p->max_index || !p->name_by_index[idx] || !pc->stallReason[j].samples)
                continue;
            p->tmp_reasons[n] = idx;
            p->tmp_counts[n++] = pc->stallReason[j].samples;
        }
        if (!n || !sink)
            continue;
        gp_pcs_pc rec = {pc->cubinCrc, pc->functionName ? pc->functionName : "?", pc->pcOffset,
                         n, p->tmp_reasons, p->tmp_counts};
        sink(arg, &rec);
    }
}

int gp_pcs_drain(gp_pcs *p, gp_pcs_sink sink, void *arg, char *err, size_t errlen)
{
    for (int round = 0; round < GP_PCS_MAX_ROUNDS; round++) {
        CUpti_PCSamplingGetDataParams g = {CUpti_PCSamplingGetDataParamsSize};
        g.ctx = p->ctx;
        g.pcSamplingData = &p->get_buf;
        p->get_buf.totalNumPcs = 0;
        p->get_buf.remainingNumPcs = 0;
        CUptiResult r = cuptiPCSamplingGetData(&g);
        if (r == CUPTI_ERROR_OUT_OF_MEMORY) { /* the hardware buffer filled: said in totals */
            p->totals.buffer_full++;
            take(p, &p->get_buf, sink, arg);
            return 0;
        }
        if (r != CUPTI_SUCCESS)
            return pcs_fail(r, "cuptiPCSamplingGetData", err, errlen);
        take(p, &p->get_buf, sink, arg);
        if (p->get_buf.remainingNumPcs == 0)
            return 0;
    }
    return 0;
}

void gp_pcs_close(gp_pcs *p, gp_pcs_sink sink, void *arg, gp_pcs_totals *totals)
{
    if (!p)
        return;
    char err[256];
    gp_pcs_stop(p, err, sizeof(err));
    gp_pcs_drain(p, sink, arg, err, sizeof(err));
    /* disabling flushes what CUPTI still holds into the configured buffer */
    p->cfg_buf.totalNumPcs = 0;
    disable(p->ctx);
    take(p, &p->cfg_buf, sink, arg);
    if (totals) {
        totals->samples += p->totals.samples;
        totals->dropped += p->totals.dropped;
        totals->non_user += p->totals.non_user;
        totals->buffer_full += p->totals.buffer_full;
    }
    pcs_free(p);
}

const gp_pcs_totals *gp_pcs_get_totals(const gp_pcs *p)
{
    return &p->totals;
}

const char *gp_pcs_reason_name(const gp_pcs *p, uint32_t reason)
{
    return p && reason <= p->max_index ? p->name_by_index[reason] : NULL;
}

uint64_t gp_pcs_cubin_crc(const void *cubin, size_t size)
{
    CUpti_GetCubinCrcParams c = {CUpti_GetCubinCrcParamsSize};
    c.cubin = cubin;
    c.cubinSize = size;
    return cuptiGetCubinCrc(&c) == CUPTI_SUCCESS ? c.cubinCrc : 0;
}

int gp_pcs_source_line(const void *cubin, size_t size, const char *function, uint64_t pc,
                       char **file, uint32_t *line)
{
    CUpti_GetSassToSourceCorrelationParams p = {CUpti_GetSassToSourceCorrelationParamsSize};
    p.cubin = cubin;
    p.cubinSize = size;
    p.functionName = function;
    p.pcOffset = pc;
    *file = NULL;
    *line = 0;
    if (cuptiGetSassToSourceCorrelation(&p) != CUPTI_SUCCESS || !p.fileName || !p.lineNumber) {
        free(p.fileName);
        free(p.dirName);
        return -1;
    }
    if (p.dirName && p.dirName[0] && p.fileName[0] != '/') {
        size_t n = strlen(p.dirName) + strlen(p.fileName) + 2;
        char *joined = malloc(n);
        if (joined)
            snprintf(joined, n, "%s/%s", p.dirName, p.fileName);
        free(p.fileName);
        p.fileName = joined;
    }
    free(p.dirName);
    if (!p.fileName)
        return -1;
    *file = p.fileName;
    *line = p.lineNumber;
    return 0;
}

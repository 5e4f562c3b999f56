/* config.c - see config.h */
#include "preload/config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/ncu/sections.h"
#include "preload/nvtx_expr.h"
#include "util/log.h"
#include "util/regex_safe.h"
#include "util/strutil.h"
#include "util/textio.h"

/* how much of a malformed value a message repeats */
#define GP_ECHO_MAX 80

struct parse_state {
    char *err;
    size_t errlen, used;
    int bad;
};

static void bad_value(struct parse_state *st, const char *var, const char *val, const char *fmt,
                      ...) __attribute__((format(printf, 4, 5)));

static void bad_value(struct parse_state *st, const char *var, const char *val, const char *fmt,
                      ...)
{
    st->bad++;
    if (!st->err || st->used >= st->errlen)
        return;
    /* a long value (a metric list of thousands of names) is not echoed
     * whole: its start and its length say which one is meant, and the
     * message after it names the bad item */
    size_t vlen = strlen(val);
    char cut[GP_ECHO_MAX + 1], shown[4 * GP_ECHO_MAX + 16];
    /* escaped: a value must not move the terminal's cursor or reverse the
     * text of the message that names it */
    snprintf(cut, sizeof(cut), "%.*s", GP_ECHO_MAX, val);
    gp_text_plain_buf(shown, sizeof(shown), cut);
    int n = vlen > GP_ECHO_MAX
                ? snprintf(st->err + st->used, st->errlen - st->used,
                           "%s%s='%s...' (%zu characters) is not valid: ", st->used ? "\n" : "",
                           var, shown, vlen)
                : snprintf(st->err + st->used, st->errlen - st->used, "%s%s='%s' is not valid: ",
                           st->used ? "\n" : "", var, shown);
    if (n < 0)
        return;
    st->used += (size_t)n;
    if (st->used >= st->errlen)
        return;
    /* the reason may quote the value too (a regex's or an expression's
     * fault): escaped the same way */
    char why[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    gp_text_plain_buf(st->err + st->used, st->errlen - st->used, why);
    st->used += strlen(st->err + st->used);
}

static void parse_long_in(struct parse_state *st, gp_env_lookup env, const char *var, long min,
                          long max, long *out)
{
    const char *v = env(var);
    if (!v)
        return;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end != '\0' || x < min || x > max) {
        if (max == LONG_MAX)
            bad_value(st, var, v, "expected a whole number >= %ld", min);
        else
            bad_value(st, var, v, "expected a whole number from %ld to %ld", min, max);
        return;
    }
    *out = x;
}

static void parse_long(struct parse_state *st, gp_env_lookup env, const char *var, long min,
                       long *out)
{
    parse_long_in(st, env, var, min, LONG_MAX, out);
}

/* GPUPROF_CROSSCHECK: 0 (off), 1 (the first GP_CROSSCHECK_WINDOW launches), a
 * number of launches, or all.  A window, not every launch, by default: while
 * CUPTI's kernel records are on, each launch costs about 2 us more and each
 * kernel carries CUPTI's timestamp code; the first launches are where a
 * missed launch type shows. */
static void parse_crosscheck(struct parse_state *st, gp_env_lookup env, long *out)
{
    const char *v = env("GPUPROF_CROSSCHECK");
    if (!v)
        return;
    if (strcmp(v, "all") == 0) {
        *out = -1;
        return;
    }
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end != '\0' || x < 0) {
        bad_value(st, "GPUPROF_CROSSCHECK", v,
                  "accepted values: 0 (off), 1 (the first %d launches), a number of launches, all",
                  GP_CROSSCHECK_WINDOW);
        return;
    }
    *out = x == 1 ? GP_CROSSCHECK_WINDOW : x;
}

/* Matches v against names[i]; returns the index or -1. */
static int parse_choice(struct parse_state *st, gp_env_lookup env, const char *var,
                        const char *const *names, int n, int *out)
{
    const char *v = env(var);
    if (!v)
        return -1;
    for (int i = 0; i < n; i++) {
        if (strcmp(v, names[i]) == 0) {
            *out = i;
            return i;
        }
    }
    char accepted[256] = "";
    size_t used = 0;
    for (int i = 0; i < n; i++)
        used += (size_t)snprintf(accepted + used, sizeof(accepted) - used, "%s%s", i ? ", " : "",
                                 names[i]);
    bad_value(st, var, v, "accepted values: %s", accepted);
    return -1;
}

static void parse_regex(struct parse_state *st, gp_env_lookup env, const char *var, regex_t *re,
                        int *have)
{
    const char *v = env(var);
    if (!v || !*v)
        return;
    /* Nsight Compute's "regex:" prefix is accepted and ignored. */
    if (strncmp(v, "regex:", 6) == 0)
        v += 6;
    char why[400];
    /* checked before compiling: a pattern like a+++++++++++++++++++++ would
     * take seconds and gigabytes in every preloaded process */
    if (gp_regex_compile(re, v, REG_EXTENDED | REG_NOSUB, why, sizeof(why)) != 0) {
        bad_value(st, var, v, "%s", why);
        return;
    }
    *have = 1;
}

static int metric_name_ok(const char *s)
{
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '.'))
            return 0;
    return 1;
}

static void parse_metrics(struct parse_state *st, gp_env_lookup env, gp_config *cfg)
{
    const char *v = env("GPUPROF_METRICS");
    if (!v)
        return;
    /* as many names as the list holds (Nsight Compute's full set has about
     * 1,700): the arrays are sized by the commas */
    size_t cap = 1;
    for (const char *c = v; *c; c++)
        cap += *c == ',';
    char *copy = strdup(v);
    char **items = calloc(cap, sizeof(char *));
    cfg->metrics = calloc(cap, sizeof(char *));
    if (!copy || !items || !cfg->metrics) {
        free(copy);
        free(items);
        free(cfg->metrics);
        cfg->metrics = NULL;
        return;
    }
    size_t n = gp_split(copy, ',', items, cap);
    if (n == 0 || n == (size_t)-1) {
        bad_value(st, "GPUPROF_METRICS", v,
                  "expected a comma-separated list of PerfWorks metric names, '+name' to add to "
                  "the default set, the groups @default, @extended, @fast, @warpstate and "
                  "@source, or Nsight Compute's @set:NAME and @section:NAME");
        free(items);
        free(copy);
        free(cfg->metrics);
        cfg->metrics = NULL;
        return;
    }
    int replace = items[0][0] != '+';
    for (size_t i = 0; i < n; i++) {
        char *name = items[i];
        if (*name == '+')
            name++;
        /* Nsight Compute's sets and sections (metrics/ncu/sections.def); a
         * set of gpuprof's own under @set: is its group */
        if (strncmp(name, "@section:", 9) == 0 || strncmp(name, "@set:", 5) == 0) {
            char why[1024];
            const char *group = NULL;
            gp_ncu_mask m = 0;
            int rc = strncmp(name, "@section:", 9) == 0
                         ? gp_ncu_select_section(name + 9, &m, why, sizeof why)
                         : gp_ncu_select_set(name + 5, &m, &group, why, sizeof why);
            if (rc != 0) {
                bad_value(st, "GPUPROF_METRICS", v, "item %zu: %s", i + 1, why);
                continue;
            }
            cfg->ncu_sections |= m;
            if (!group)
                continue;
            name = (char *)group;
        }
        if (strcmp(name, "@default") == 0) {
            replace = 0;
            continue;
        }
        if (strcmp(name, "@extended") == 0) {
            cfg->metrics_extended = 1;
            replace = 0;
            continue;
        }
        if (strcmp(name, "@fast") == 0) {
            cfg->metrics_fast = 1;
            replace = 0;
            continue;
        }
        if (strcmp(name, "@warpstate") == 0) {
            cfg->metrics_warpstate = 1;
            replace = 0;
            continue;
        }
        if (strcmp(name, "@source") == 0) { /* instead of the default set, unless it is named */
            cfg->metrics_source = 1;
            continue;
        }
        if (!*name || !metric_name_ok(name)) {
            bad_value(st, "GPUPROF_METRICS", v,
                      "item %zu, '%.*s', is not a metric name (letters, digits, '_' and '.'); "
                      "accepted: "
                      "PerfWorks names such as dram__bytes_read.sum, '+name', @default, @extended, "
                      "@fast, @warpstate, @source, @set:NAME, @section:NAME (gpuprof "
                      "--list-sets, --list-sections)",
                      i + 1, (int)(strlen(name) > GP_ECHO_MAX ? GP_ECHO_MAX : strlen(name)), name);
            continue;
        }
        cfg->metrics[cfg->n_metrics] = strdup(name);
        if (cfg->metrics[cfg->n_metrics])
            cfg->n_metrics++;
    }
    cfg->metrics_replace = replace;
    /* Nsight Compute's SourceCounters is also the per-instruction data:
     * gpuprof's SASS pass (the source_instr records) */
    int src = gp_ncu_section_find("SourceCounters");
    if (src >= 0 && (cfg->ncu_sections >> src & 1))
        cfg->metrics_source = 1;
    if (cfg->n_metrics == 0) { /* only groups, or nothing valid */
        free(cfg->metrics);
        cfg->metrics = NULL;
    }
    free(items);
    free(copy);
}

static void parse_format(struct parse_state *st, gp_env_lookup env, gp_config *cfg)
{
    const char *v = env("GPUPROF_FORMAT");
    if (!v)
        return;
    char buf[128];
    if (strlen(v) >= sizeof(buf)) { /* cut, it could read as something else */
        bad_value(st, "GPUPROF_FORMAT", v, "accepted values: csv, json, csv,json, none");
        return;
    }
    snprintf(buf, sizeof(buf), "%s", v);
    char *items[4];
    size_t n = gp_split(buf, ',', items, 4);
    int csv = 0, json = 0, ok = n != (size_t)-1 && n > 0;
    for (size_t i = 0; ok && i < n; i++) {
        if (strcmp(items[i], "csv") == 0)
            csv = 1;
        else if (strcmp(items[i], "json") == 0)
            json = 1;
        else if (strcmp(items[i], "none") == 0)
            ;
        else
            ok = 0;
    }
    if (!ok) {
        bad_value(st, "GPUPROF_FORMAT", v, "accepted values: csv, json, csv,json, none");
        return;
    }
    cfg->write_csv = csv;
    cfg->write_json = json;
}

static void parse_nvtx(struct parse_state *st, gp_env_lookup env, const char *var,
                       struct gp_nvtx_expr **out, size_t *n)
{
    const char *v = env(var);
    if (!v || !*v)
        return;
    char why[512];
    int got = gp_nvtx_list_parse(v, out, GP_MAX_NVTX, why, sizeof(why));
    if (got < 0) {
        bad_value(st, var, v,
                  "%s; expected NVTX range expressions as Nsight Compute's --nvtx-include takes "
                  "them (push/pop: 'A/', '[A', 'A]', 'A/*/B', 'Domain@A/'; start/end: 'A', "
                  "'A,B'; 'regex:' prefix), separated by ';'",
                  why);
        return;
    }
    *n = (size_t)got;
}

/* The process's rank when an MPI launcher or Slurm set one; -1 otherwise.
 * Not gpuprof's variables: a value that is not a number is ignored. */
static long parse_rank(gp_env_lookup env)
{
    /* RANK: torchrun and torch.distributed's launchers */
    static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                                       "SLURM_PROCID", "RANK"};
    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
        const char *v = env(vars[i]);
        char *end;
        if (!v || !*v)
            continue;
        errno = 0;
        long r = strtol(v, &end, 10);
        if (!errno && *end == '\0' && r >= 0)
            return r;
    }
    return -1;
}

static void set_defaults(gp_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->enabled = 1;
    snprintf(cfg->output, sizeof(cfg->output), "gpuprof-%%p");
    cfg->write_csv = 1;
    cfg->write_json = 1;
    cfg->name_base = GP_NAME_FUNCTION;
    cfg->launch_skip = 0;
    cfg->launch_count = -1;
    cfg->max_per_kernel = -1;
    cfg->log_level = GP_LOG_WARN;
    cfg->reserve_mb = 1024;
    cfg->snapshot_where = GP_SNAP_AUTO;
    cfg->snapshot_incremental = 1;
    cfg->flush_caches = GP_CACHE_FLUSH;
    cfg->warmup = GP_WARMUP_INSTRUMENTED;
    cfg->summary = 1;
    cfg->crosscheck = GP_CROSSCHECK_WINDOW;
    cfg->batch = GP_BATCH_DEFAULT;
    cfg->rotate_launches = GP_ROTATE_DEFAULT;
    cfg->rotate_ms = GP_ROTATE_MS_DEFAULT;
    cfg->variants_max = GP_VARIANTS_DEFAULT;
    cfg->max_overhead = GP_MAX_OVERHEAD_DEFAULT;
    cfg->profile_from_start = 1;
    cfg->profiler_start_stop = 1;
    cfg->rank = -1;
    cfg->sampling = GP_SAMPLING_ON;
    cfg->sampling_interval = GP_SAMPLING_INTERVAL_DEFAULT;
    /* the set-up cache is on; its directory's default comes from the
     * environment (cache_dir_default) */
    cfg->cache = 1;
    cfg->sass_efficiency = GP_SASS_EFF_CUPTI;
}

/* GPUPROF_CACHE and GPUPROF_CACHE_DIR: the set-up cache's directory, or ""
 * (off).  The default is the user's cache directory as the XDG base
 * directory specification names it: $XDG_CACHE_HOME/gpuprof when that is
 * an absolute path, else $HOME/.cache/gpuprof; none without a HOME. */
static void parse_cache(struct parse_state *st, gp_env_lookup env, gp_config *cfg)
{
    static const char *const onoff[] = {"0", "1"};
    parse_choice(st, env, "GPUPROF_CACHE", onoff, 2, &cfg->cache);
    const char *dir = env("GPUPROF_CACHE_DIR");
    cfg->cache_dir[0] = '\0';
    if (dir && *dir) {
        if (dir[0] != '/' || strlen(dir) >= sizeof(cfg->cache_dir))
            bad_value(st, "GPUPROF_CACHE_DIR", dir,
                      "expected an absolute path shorter than %zu characters",
                      sizeof(cfg->cache_dir));
        else
            snprintf(cfg->cache_dir, sizeof(cfg->cache_dir), "%s", dir);
    } else {
        const char *xdg = env("XDG_CACHE_HOME"), *home = env("HOME");
        int w = 0;
        if (xdg && xdg[0] == '/')
            w = snprintf(cfg->cache_dir, sizeof(cfg->cache_dir), "%s/gpuprof", xdg);
        else if (home && home[0] == '/')
            w = snprintf(cfg->cache_dir, sizeof(cfg->cache_dir), "%s/.cache/gpuprof", home);
        if (w < 0 || (size_t)w >= sizeof(cfg->cache_dir))
            cfg->cache_dir[0] = '\0'; /* too long to be used: off */
    }
    if (!cfg->cache)
        cfg->cache_dir[0] = '\0';
}

int gp_config_parse(gp_config *cfg, gp_env_lookup env, char *err, size_t errlen)
{
    struct parse_state st = {err, errlen, 0, 0};
    static const char *const onoff[] = {"0", "1"};
    static const char *const sampling_modes[] = {"off", "on", "profiled"};
    static const char *const bases[] = {"function", "demangled", "mangled"};
    static const char *const levels[] = {"error", "warn", "info", "debug"};
    static const char *const wheres[] = {"auto", "device", "host", "none"};
    static const char *const caches[] = {"none", "flush", "l2"}; /* gp_cache_control */
    static const char *const replays[] = {"profiler", "cupti", "none"};
    static const char *const injects[] = {"none", "no-permission"};

    if (err && errlen)
        err[0] = '\0';
    set_defaults(cfg);
    parse_choice(&st, env, "GPUPROF_ENABLE", onoff, 2, &cfg->enabled);
    const char *out = env("GPUPROF_OUTPUT");
    if (out) {
        /* the longest expansion must fit: the largest process id (pid_max
         * is at most 2^22) and a host name of the largest length */
        char probe[sizeof(cfg->output)], host[GP_HOST_MAX];
        memset(host, 'h', sizeof(host) - 1);
        host[sizeof(host) - 1] = '\0';
        if (!*out || strlen(out) >= sizeof(cfg->output) ||
            gp_expand_path(out, 4194304, host, probe, sizeof(probe)) != 0)
            bad_value(&st, "GPUPROF_OUTPUT", out,
                      "expected a path (placeholders: %%p = process id, %%h = host name, "
                      "%%q{VAR} = the environment variable VAR, %%%% = a percent sign), shorter "
                      "than %zu characters once expanded (%%h counts as %d)",
                      sizeof(cfg->output), GP_HOST_MAX - 1);
        else
            snprintf(cfg->output, sizeof(cfg->output), "%s", out);
    }
    parse_format(&st, env, cfg);
    parse_metrics(&st, env, cfg);
    parse_regex(&st, env, "GPUPROF_KERNEL_INCLUDE", &cfg->include_re, &cfg->have_include);
    parse_regex(&st, env, "GPUPROF_KERNEL_EXCLUDE", &cfg->exclude_re, &cfg->have_exclude);
    parse_choice(&st, env, "GPUPROF_KERNEL_NAME_BASE", bases, 3, &cfg->name_base);
    parse_long(&st, env, "GPUPROF_LAUNCH_SKIP", 0, &cfg->launch_skip);
    parse_long(&st, env, "GPUPROF_LAUNCH_COUNT", 0, &cfg->launch_count);
    parse_long(&st, env, "GPUPROF_MAX_PER_KERNEL", 0, &cfg->max_per_kernel);
    parse_choice(&st, env, "GPUPROF_LOG_LEVEL", levels, 4, &cfg->log_level);
    const char *lf = env("GPUPROF_LOG_FILE");
    if (lf && strlen(lf) >= sizeof(cfg->log_file))
        bad_value(&st, "GPUPROF_LOG_FILE", lf, "expected a path shorter than %zu characters",
                  sizeof(cfg->log_file));
    else if (lf)
        snprintf(cfg->log_file, sizeof(cfg->log_file), "%s", lf);
    const char *sd = env("GPUPROF_SASS_DUMP");
    if (sd)
        snprintf(cfg->sass_dump, sizeof(cfg->sass_dump), "%s", sd);
    parse_long(&st, env, "GPUPROF_SNAPSHOT_RESERVE_MB", 0, &cfg->reserve_mb);
    parse_choice(&st, env, "GPUPROF_SNAPSHOT", wheres, 4, &cfg->snapshot_where);
    parse_choice(&st, env, "GPUPROF_SNAPSHOT_INCREMENTAL", onoff, 2, &cfg->snapshot_incremental);
    parse_choice(&st, env, "GPUPROF_SNAPSHOT_VERIFY", onoff, 2, &cfg->snapshot_verify);
    parse_choice(&st, env, "GPUPROF_CACHE_CONTROL", caches, 3, &cfg->flush_caches);
    static const char *const warmups[] = {"0", "1", "always"}; /* GP_WARMUP_* */
    parse_choice(&st, env, "GPUPROF_WARMUP", warmups, 3, &cfg->warmup);
    parse_choice(&st, env, "GPUPROF_SUMMARY", onoff, 2, &cfg->summary);
    parse_crosscheck(&st, env, &cfg->crosscheck);
    parse_choice(&st, env, "GPUPROF_REPLAY", replays, 3, &cfg->replay_mode);
    parse_long_in(&st, env, "GPUPROF_ROTATE_LAUNCHES", 1, LONG_MAX, &cfg->rotate_launches);
    parse_long_in(&st, env, "GPUPROF_ROTATE_MS", 0, 86400000, &cfg->rotate_ms);
    parse_long_in(&st, env, "GPUPROF_VARIANTS_MAX", 1, GP_VARIANTS_MAX, &cfg->variants_max);
    parse_long_in(&st, env, "GPUPROF_MAX_OVERHEAD", 1, 100, &cfg->max_overhead);
    parse_long_in(&st, env, "GPUPROF_BATCH", 1, GP_BATCH_MAX, &cfg->batch);
    parse_choice(&st, env, "GPUPROF_TEST_INJECT", injects, 2, &cfg->inject);
    parse_choice(&st, env, "GPUPROF_PROFILE_FROM_START", onoff, 2, &cfg->profile_from_start);
    parse_choice(&st, env, "GPUPROF_PROFILER_START_STOP", onoff, 2, &cfg->profiler_start_stop);
    parse_choice(&st, env, "GPUPROF_SAMPLING", sampling_modes, 3, &cfg->sampling);
    parse_long_in(&st, env, "GPUPROF_SAMPLING_INTERVAL", 0, GP_SAMPLING_INTERVAL_MAX,
                  &cfg->sampling_interval);
    static const char *const sass_effs[] = {"cupti", "own", "check"}; /* gp_sass_eff */
    parse_choice(&st, env, "GPUPROF_SASS_EFFICIENCY", sass_effs, 3, &cfg->sass_efficiency);
    parse_cache(&st, env, cfg);
    parse_nvtx(&st, env, "GPUPROF_NVTX_INCLUDE", cfg->nvtx_include, &cfg->n_nvtx_include);
    parse_nvtx(&st, env, "GPUPROF_NVTX_EXCLUDE", cfg->nvtx_exclude, &cfg->n_nvtx_exclude);
    cfg->rank = parse_rank(env);
    return st.bad;
}

void gp_config_free(gp_config *cfg)
{
    for (size_t i = 0; i < cfg->n_metrics; i++)
        free(cfg->metrics[i]);
    free(cfg->metrics);
    cfg->metrics = NULL;
    cfg->n_metrics = 0;
    if (cfg->have_include)
        regfree(&cfg->include_re);
    if (cfg->have_exclude)
        regfree(&cfg->exclude_re);
    cfg->have_include = cfg->have_exclude = 0;
    for (size_t i = 0; i < cfg->n_nvtx_include; i++)
        gp_nvtx_expr_free(cfg->nvtx_include[i]);
    for (size_t i = 0; i < cfg->n_nvtx_exclude; i++)
        gp_nvtx_expr_free(cfg->nvtx_exclude[i]);
    cfg->n_nvtx_include = cfg->n_nvtx_exclude = 0;
}

/* Appends printf-style text to buf at *used, never past len. */
static void describe_add(char *buf, size_t len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void describe_add(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    if (*used >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
    if (n > 0)
        *used += (size_t)n;
    if (*used >= len)
        *used = len - 1;
}

static void describe_nvtx(char *buf, size_t len, size_t *used, const char *what,
                          struct gp_nvtx_expr *const *e, size_t n)
{
    for (size_t i = 0; i < n; i++)
        describe_add(buf, len, used, "%s'%s'", i ? ", " : what, gp_nvtx_expr_text(e[i]));
}

void gp_config_describe(const gp_config *cfg, char *buf, size_t len)
{
    static const char *const bases[] = {"function", "demangled", "mangled"};
    size_t used = 0;
    if (!len)
        return;
    buf[0] = '\0';
    if (!cfg->enabled) {
        describe_add(buf, len, &used, "counting launches only (GPUPROF_ENABLE=0)");
        return;
    }
    if (cfg->metrics_replace && cfg->ncu_sections && !cfg->n_metrics)
        describe_add(buf, len, &used, "metrics: ");
    else if (cfg->metrics_replace)
        describe_add(buf, len, &used, "metrics: %zu named", cfg->n_metrics);
    else
        describe_add(buf, len, &used, "metrics: %s%s%s%s",
                     cfg->metrics_source ? "the SASS pass's counts (source)" : "the default set",
                     cfg->metrics_fast || cfg->sass_efficiency == GP_SASS_EFF_OWN
                         ? " (fast: no instrumented pass)"
                         : "",
                     cfg->metrics_extended ? " + extended" : "",
                     cfg->metrics_warpstate ? " + warp state" : "");
    if (!cfg->metrics_replace && cfg->n_metrics)
        describe_add(buf, len, &used, " + %zu named", cfg->n_metrics);
    if (cfg->ncu_sections) {
        char names[1024];
        describe_add(buf, len, &used, "%sNsight Compute's sections %s",
                     cfg->metrics_replace && !cfg->n_metrics ? "" : " + ",
                     gp_ncu_mask_format(cfg->ncu_sections, names, sizeof names));
    }
    describe_add(buf, len, &used, "; kernels (%s names): %s", bases[cfg->name_base],
                 cfg->have_include ? "include regex" : "all");
    if (cfg->have_exclude)
        describe_add(buf, len, &used, ", exclude regex");
    if (cfg->launch_skip)
        describe_add(buf, len, &used, ", skip %ld", cfg->launch_skip);
    if (cfg->launch_count >= 0)
        describe_add(buf, len, &used, ", count %ld", cfg->launch_count);
    if (cfg->max_per_kernel >= 0)
        describe_add(buf, len, &used, ", at most %ld per kernel", cfg->max_per_kernel);
    if (!cfg->profile_from_start)
        describe_add(buf, len, &used, "; from cudaProfilerStart on");
    else if (!cfg->profiler_start_stop)
        describe_add(buf, len, &used, "; cudaProfilerStart/Stop ignored");
    describe_nvtx(buf, len, &used, "; NVTX include ", cfg->nvtx_include, cfg->n_nvtx_include);
    describe_nvtx(buf, len, &used, "; NVTX exclude ", cfg->nvtx_exclude, cfg->n_nvtx_exclude);
    describe_add(buf, len, &used, "; output %s (%s%s%s)", cfg->output,
                 cfg->write_json ? "json" : "", cfg->write_json && cfg->write_csv ? "," : "",
                 cfg->write_csv ? "csv" : "");
    if (cfg->rank >= 0)
        describe_add(buf, len, &used, "; rank %ld", cfg->rank);
    if (cfg->sampling)
        describe_add(buf, len, &used, "; stall sampling every 2^%ld cycles%s",
                     5 + cfg->sampling_interval,
                     cfg->sampling == GP_SAMPLING_PROFILED ? " (profiled launches only)" : "");
}

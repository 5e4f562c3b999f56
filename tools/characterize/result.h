/* result.h - one program's result (OUTDIR/NAME/result.json): its status,
 * the native and the profiled run, the differences found and the profiler's
 * JSON-lines files.  Written by `run`, read by the summary and `merge`. */
#ifndef GPC_RESULT_H
#define GPC_RESULT_H

#include <stddef.h>
#include <stdio.h>

#define GPC_RESULT_FILE "result.json"
#define GPC_RESULT_FORMAT "gpuprof-characterize-result/1"
/* The largest result file read (its diffs hold excerpts of at most a few
 * KiB each; a larger one was not written by run). */
#define GPC_RESULT_MAX (64L << 20)

/* One run of the command. */
typedef struct {
    int ran;       /* 0: not run (the fields below are then meaningless) */
    int exit_code; /* -1 when killed by a signal */
    int signal;    /* 0 when it exited */
    int timed_out; /* killed after the program's timeout */
    double wall_s;
} gpc_exec;

/* e's wall time in seconds; NaN when it did not run (never 0). */
double gpc_exec_wall(const gpc_exec *e);

/* The first difference between the native and the profiled run of one
 * output (exit status, stdout or a compared file). */
typedef struct {
    char *what;     /* "exit status", "stdout", "file out.txt" */
    long line;      /* line number (1-based) in the native output, 0 for the exit status */
    long line_prof; /* line number in the profiled output */
    char *native;   /* the native line (or status); NULL: the output ended */
    char *profiled; /* the profiled line; NULL: the output ended */
    long n_differ;  /* how many compared lines differ in all */
} gpc_diff;

typedef enum {
    GPC_OK,                     /* same outputs natively and under the profiler */
    GPC_NATIVE_FAILED,          /* failed without the profiler: skipped */
    GPC_PROFILER_DEFECT,        /* failed or differed only under the profiler */
    GPC_ERROR,                  /* could not be run at all (directory, fork...) */
    GPC_PROFILER_BROKE_RESULTS, /* same outputs, but the profiler says that kernels
                                 * did not run as they would have without it */
    GPC_NO_RECORDS,             /* same outputs, but the profiled run wrote no launch
                                 * record: nothing of it can enter the study */
    GPC_NOT_FINISHED,           /* its cluster job ended before the program did (timeout,
                                 * cancelled, node failure, preemption): Slurm's state */
    GPC_STATUS_COUNT
} gpc_status;

/* What the profiler's own summary records (the last line of each
 * gpuprof-PID.jsonl) say of the profiled run: whether every kernel ran as it
 * would have without the profiler.  A program that does not check CUDA's
 * errors prints the same output when a replay pass killed its context, and
 * only the profiler can tell. */
typedef struct {
    int known;        /* 0: no summary record read (no CUDA, or no process ended) */
    int valid;        /* every record says so */
    long from_launch; /* first launch whose results are broken; -1: not given */
    char *kernel;     /* its kernel; NULL: not given */
    char *reason;     /* one sentence; NULL when valid */
    char *file;       /* the gpuprof-*.jsonl that says so; NULL when valid */
    long n_invalid;   /* processes whose record says the results are broken */
    long records;     /* launch and variant_estimate records the files hold, as
                       * their summary records count them (a file without one:
                       * 1 when a launch record opens it); not saved */
} gpc_validity;

typedef struct {
    char *name, *cmd, *dir, *gpu; /* gpu: CUDA_VISIBLE_DEVICES given, NULL if none */
    gpc_status status;
    char *message; /* one sentence, "" when ok */
    gpc_exec native, profiled;
    gpc_diff *diffs;
    size_t n_diffs;
    char **jsonl; /* the profiler's files, names relative to the result's directory, sorted */
    size_t n_jsonl;
    long jsonl_repeated; /* names the result file listed again (read once); not saved */
    gpc_validity results; /* of the profiled run */
    /* the Slurm job that ran it (slurm.h): NULL when none; state and reason are
     * Slurm's for a job that did not finish the program */
    char *slurm_job, *slurm_state, *slurm_reason, *slurm_node;
} gpc_result;

const char *gpc_status_name(gpc_status s);

/* 1 when name can be one of the profiler's files in a result directory
 * (gpuprof-*.jsonl, of letters, digits, '.', '_' and '-'): a result file
 * naming anything else is refused, and a run lists nothing else. */
int gpc_jsonl_name_ok(const char *name);

void gpc_result_free(gpc_result *r);

/* Adds a difference (strings copied; native/profiled may be NULL).
 * Returns 0 or -1 (memory). */
int gpc_result_add_diff(gpc_result *r, const char *what, long line, long line_prof,
                        const char *native, const char *profiled, long n_differ);

/* Writes dir/result.json atomically (a temporary file renamed).  Returns 0,
 * or -1 with the reason in err. */
int gpc_result_save(const gpc_result *r, const char *dir, char *err, size_t errlen);

/* 1 when dir holds a readable result of a program that finished (any
 * status but not_finished): what `run --resume` keeps. */
int gpc_result_finished(const char *dir);

/* Reads dir/result.json.  Returns 0, or -1 with the reason in err. */
int gpc_result_load(gpc_result *r, const char *dir, char *err, size_t errlen);
/* The same from the file's text; path names it in messages. */
int gpc_result_parse(gpc_result *r, const char *text, size_t len, const char *path, char *err,
                     size_t errlen);

/* A copy of s[0..n) of at most max bytes, cut before a character (a line
 * shown must not end in half a UTF-8 sequence); NULL when out of memory. */
char *gpc_excerpt(const char *s, size_t n, size_t max);

/* s as gp_text_plain shows it (control characters, bidirectional overrides
 * and bytes that are not UTF-8 escaped), in a new string; NULL when out of
 * memory. */
char *gpc_plain_dup(const char *s);
/* s for HTML text or an attribute value: escaped as gp_text_plain shows it,
 * then & < > " as entities.  NULL writes nothing. */
void gpc_html_str(FILE *out, const char *s);

/* JSON and CSV string writers shared by the outputs. */
void gpc_json_str(FILE *out, const char *s);
void gpc_csv_str(FILE *out, const char *s);
/* A number as JSON ("null" for NaN or infinity), %.9g otherwise. */
void gpc_json_num(FILE *out, double v);

#endif

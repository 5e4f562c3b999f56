/* replay.c - runs a fuzz target once on each input of its corpus and of its
 * crashes found so far (fuzz/corpus/NAME, fuzz/crashes/NAME, or the files
 * and directories given), built with the sanitizers by `make test`: an input
 * that crashes, trips a sanitizer or runs past GP_FUZZ_HANG_S seconds fails
 * the test.  Prints "fuzz-NAME (N inputs replayed): 1 passed, 0 failed, 0
 * skipped". */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

#define GP_FUZZ_HANG_S 5

static const char *replay_current = "?";

static void replay_hang(int sig)
{
    (void)sig;
    static const char msg[] = "HANG: an input ran over the time limit: ";
    (void)!write(2, msg, sizeof msg - 1);
    (void)!write(2, replay_current, strlen(replay_current));
    (void)!write(2, "\n", 1);
    _exit(1);
}

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t cap = 0, n = 0, got;
    if (!f)
        return -1;
    do {
        if (n == cap) {
            unsigned char *nb = realloc(buf, cap ? 2 * cap : 4096);
            if (!nb) {
                free(buf);
                fclose(f);
                return -1;
            }
            buf = nb;
            cap = cap ? 2 * cap : 4096;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got);
    fclose(f);
    replay_current = path;
    alarm(GP_FUZZ_HANG_S);
    LLVMFuzzerTestOneInput(buf, n);
    alarm(0);
    free(buf);
    return 0;
}

/* Every regular file under path (sorted, so that runs are repeatable). */
static int replay_path(const char *path, long *ran)
{
    struct stat st;
    struct dirent **list;
    int n, i, bad = 0;
    if (stat(path, &st) != 0)
        return 0; /* no crash found so far: nothing to replay */
    if (!S_ISDIR(st.st_mode)) {
        if (replay_file(path) < 0) {
            fprintf(stderr, "cannot read %s\n", path);
            return 1;
        }
        (*ran)++;
        return 0;
    }
    if ((n = scandir(path, &list, NULL, alphasort)) < 0)
        return 1;
    for (i = 0; i < n; i++) {
        char sub[4096];
        if (list[i]->d_name[0] != '.') {
            snprintf(sub, sizeof sub, "%s/%s", path, list[i]->d_name);
            bad |= replay_path(sub, ran);
        }
        free(list[i]);
    }
    free(list);
    return bad;
}

int main(int argc, char **argv)
{
    long ran = 0;
    int bad = 0, i;
    signal(SIGALRM, replay_hang);
    if (argc > 1) {
        for (i = 1; i < argc; i++)
            bad |= replay_path(argv[i], &ran);
    } else {
        bad |= replay_path("fuzz/corpus/" GP_FUZZ_NAME, &ran);
        bad |= replay_path("fuzz/crashes/" GP_FUZZ_NAME, &ran);
    }
    if (ran == 0) {
        fprintf(stderr, "no input for fuzz target %s\n", GP_FUZZ_NAME);
        bad = 1;
    }
    /* one test per target: an input that fails ends the process (a
     * sanitizer report, a crash, a hang) or is counted here */
    printf("fuzz-%s (%ld inputs replayed): %d passed, %d failed, 0 skipped\n", GP_FUZZ_NAME, ran,
           !bad, bad);
    return bad;
}

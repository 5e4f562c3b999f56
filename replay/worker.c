/* worker.c - see worker.h */
#include "replay/worker.h"

#include <pthread.h>

#include "replay/driver.h"

__thread int gp_worker_self;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int started, failed;
static struct {
    CUcontext ctx;
    void (*fn)(void *);
    void *arg;
    int pending, done;
} job;

static void *worker_main(void *unused)
{
    (void)unused;
    gp_worker_self = 1;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!job.pending)
            pthread_cond_wait(&cond, &lock);
        job.pending = 0;
        pthread_mutex_unlock(&lock);
        gp_drv.cuCtxSetCurrent(job.ctx);
        job.fn(job.arg);
        pthread_mutex_lock(&lock);
        job.done = 1;
        pthread_cond_broadcast(&cond);
    }
    return NULL;
}

static void start_worker(void)
{
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    failed = pthread_create(&t, &a, worker_main, NULL) != 0;
    pthread_attr_destroy(&a);
    started = 1;
}

int gp_worker_run(CUcontext ctx, void (*fn)(void *), void *arg)
{
    pthread_once(&once, start_worker);
    if (failed)
        return -1;
    /* one job at a time: callers already hold the exclusive launch lock */
    pthread_mutex_lock(&lock);
    job.ctx = ctx;
    job.fn = fn;
    job.arg = arg;
    job.done = 0;
    job.pending = 1;
    pthread_cond_broadcast(&cond);
    while (!job.done)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    return 0;
}

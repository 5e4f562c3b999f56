/* serialize.h - the launch lock: shared around each tracked call of the
 * program, exclusive around a profiled launch (core_state.h has the order
 * of the locks).  A slot is the per-call storage CUPTI keeps between a
 * call's enter and exit callbacks. */
#ifndef GP_SERIALIZE_H
#define GP_SERIALIZE_H

#include <stdint.h>

/* What a slot holds between enter and exit; any other value is a profiled
 * launch's state (launch.c). */
enum { GP_SLOT_NONE = 0, GP_SLOT_SHARED = 1 };

/* Takes the launch lock shared unless this thread is already inside a
 * tracked call; *slot says which. */
void gp_serialize_shared(uint64_t *slot);
void gp_serialize_shared_end(uint64_t *slot);

/* The exclusive section of a profiled launch or of a graph's steps: takes
 * the launch lock exclusively (every other tracked call waits), counts a
 * tracked call on this thread, raises the re-entry guard and pauses kernel
 * activity records (on Hopper CUPTI timestamps kernels by instrumenting
 * them, which a pass would count).  _end undoes it all in reverse order. */
void gp_serialize_exclusive_begin(void);
void gp_serialize_exclusive_end(void);

/* At exit: the launch lock exclusively and nothing more, waited for at most
 * `seconds` (another thread may still be inside a CUDA call); 0 when taken
 * (release it with gp_serialize_at_exit_end), -1 when not. */
int gp_serialize_at_exit_begin(int seconds);
void gp_serialize_at_exit_end(void);

#endif

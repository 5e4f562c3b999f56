/* globals.c - the core's state, defined once (core_state.h documents it):
 * the state struct, the thread-local guard and call depth, and the launch
 * path's lists of hooks per moment (launch_hooks.h).  Apart from the modules
 * that set them up (start.c, launch_hooks.c) so that every module of the
 * core reads the state without calling into the module that starts it. */
#include "preload/core_state.h"
#include "preload/launch_hooks.h"

gp_core_state gp_core;
__thread int gp_t_in_profiler;
__thread int gp_t_api_depth;

gp_hook_list gp_hook_lists[GP_AT_N];

/* test_library.c - the libraries' public surface: libgpuprof.so (the one
 * users preload) and libgpuprof-core.so (the profiler, loaded at cuInit)
 * load without a GPU or a CUDA driver, export InitializeInjection and
 * gpuprof_version only, and hide every internal (gp_*) symbol. */
#include <dlfcn.h>

#include "gpuprof.h"
#include "tests/unit/gp_test.h"

#ifndef GP_BUILD_DIR
#define GP_BUILD_DIR "build"
#endif

static void check_surface(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    GP_CHECK_MSG(h != NULL, "%s", dlerror());
    if (!h)
        return;
    GP_CHECK_MSG(dlsym(h, "InitializeInjection") != NULL, "%s: no InitializeInjection", path);
    const char *(*version)(void) = (const char *(*)(void))dlsym(h, "gpuprof_version");
    GP_CHECK(version && strcmp(version(), GPUPROF_VERSION) == 0);
    const char *internals[] = {
        "gp_core_init",     "gp_alloc_add",        "gp_config_parse",           "gp_log",
        "gp_drv",           "gp_text_json_string", "gp_report_summarize_jsonl", "gp_safefile_open",
        "gp_regex_compile", "gp_strindex_find"};
    for (size_t i = 0; i < sizeof(internals) / sizeof(internals[0]); i++)
        GP_CHECK_MSG(dlsym(h, internals[i]) == NULL, "%s: %s is exported", path, internals[i]);
}

int main(void)
{
    check_surface(GP_BUILD_DIR "/libgpuprof.so");
    check_surface(GP_BUILD_DIR "/libgpuprof-core.so");
    return gp_test_finish("library");
}

/* test_library.c - libgpuprof.so's public surface: it loads without a GPU or
 * a CUDA driver, exports InitializeInjection and gpuprof_version only, and
 * hides every internal (gp_*) symbol. */
#include <dlfcn.h>

#include "gpuprof.h"
#include "tests/unit/gp_test.h"

int main(void)
{
    void *h = dlopen("build/libgpuprof.so", RTLD_NOW | RTLD_LOCAL);
    GP_CHECK_MSG(h != NULL, "%s", dlerror());
    if (!h)
        return gp_test_finish("library");
    GP_CHECK(dlsym(h, "InitializeInjection") != NULL);
    const char *(*version)(void) = (const char *(*)(void))dlsym(h, "gpuprof_version");
    GP_CHECK(version && strcmp(version(), GPUPROF_VERSION) == 0);
    const char *internals[] = {"gp_core_init", "gp_alloc_add", "gp_config_parse", "gp_log",
                               "gp_drv", "gp_text_json_string", "gp_report_summarize_jsonl"};
    for (size_t i = 0; i < sizeof(internals) / sizeof(internals[0]); i++)
        GP_CHECK_MSG(dlsym(h, internals[i]) == NULL, "%s is exported", internals[i]);
    return gp_test_finish("library");
}

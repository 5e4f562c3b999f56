/* gpk_dev_module.cu - gpupeak's sm_90 kernels and their host code, compiled
 * as one translation unit and so one CUDA module, as before the files were
 * split by family.
 *
 * Why one module: when any kernel of a module uses dynamic shared memory
 * (gpk_copybulk, gpk_pingpong here), ptxas gives every kernel of that module
 * an explicit 1 KB shared-memory section (the per-block reserve); in a
 * module without one, a kernel that declares no shared memory gets none.
 * The machine code is the same either way, but the driver chooses the
 * L1/shared split of a launch from the kernel's shared-memory size, and the
 * L1 figures (footprint curve, sweep, bandwidth) were measured with every
 * kernel carrying that section.  Until a device run shows that separate
 * modules measure the same L1, the families stay in one module (each
 * family file also compiles on its own).  sass-compare.sh checks that the
 * module's machine code is what it was. */
#include "gpk_dev.cu"
#include "gpk_dev_compute.cu"
#include "gpk_dev_memory.cu"
#include "gpk_dev_copy.cu"
#include "gpk_dev_latency.cu"
#include "gpk_dev_vmm.cu"
#include "gpk_dev_xsm.cu"

/*
 * mps-alloc: a CUDA client for mps-facts.sh, built with gcc alone (libcuda.so.1 is opened at run
 * time, so no CUDA toolkit is needed). It creates a context on device 0 of what it sees and
 * allocates device memory 64 MiB at a time until an allocation fails or LIMIT_MIB is passed, then
 * prints one line:
 *   context=ok allocated_mib=<n>        or
 *   context=refused error=<CUresult>    (cuCtxCreate failed: MPS or the compute mode refused it)
 * Exit status 0 when it printed one of those, 2 when the driver library cannot be used.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef unsigned long long CUdeviceptr;

int main(int argc, char **argv) {
  long cap_mib = argc > 1 ? atol(argv[1]) : 1L << 20;
  void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
  if (cuda == NULL) {
    fprintf(stderr, "mps-alloc: %s\n", dlerror());
    return 2;
  }
  CUresult (*cuInit)(unsigned int) = dlsym(cuda, "cuInit");
  CUresult (*cuDeviceGet)(CUdevice *, int) = dlsym(cuda, "cuDeviceGet");
  CUresult (*cuCtxCreate)(CUcontext *, unsigned int, CUdevice) = dlsym(cuda, "cuCtxCreate_v2");
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t) = dlsym(cuda, "cuMemAlloc_v2");
  if (!cuInit || !cuDeviceGet || !cuCtxCreate || !cuMemAlloc) {
    fprintf(stderr, "mps-alloc: libcuda.so.1 lacks a symbol it needs\n");
    return 2;
  }
  CUresult rc = cuInit(0);
  CUdevice device = 0;
  if (rc == 0) rc = cuDeviceGet(&device, 0);
  CUcontext context = NULL;
  if (rc == 0) rc = cuCtxCreate(&context, 0, device);
  if (rc != 0) {
    printf("context=refused error=%d\n", rc);
    return 0;
  }
  long allocated = 0;
  CUdeviceptr p;
  while (allocated < cap_mib && cuMemAlloc(&p, 64UL << 20) == 0) {
    allocated += 64;
  }
  printf("context=ok allocated_mib=%ld\n", allocated);
  return 0;
}

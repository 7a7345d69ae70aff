/*
 * A stand-in nvidia-smi for the compute mode and the time slice only (not part of the library; see
 * README.md, "Simulated MPS"): `nvidia-smi -i <GPU UUID or index> -c <DEFAULT|EXCLUSIVE_PROCESS|PROHIBITED|0|2|3>`
 * sets the compute mode through the simulated NVML beside it (NVML_SIM_STATE), as NVIDIA's does
 * through NVML; `nvidia-smi compute-policy -i <GPU UUID or index> --set-timeslice <0-3>` checks the
 * GPU exists there. Each call that succeeds appends its arguments, one line, to
 * $NVML_SIM_STATE.nvidia-smi.log, so tests can read what was set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvml_types.h"

nvmlReturn_t nvmlInit_v2(void);
nvmlReturn_t nvmlShutdown(void);
nvmlReturn_t nvmlDeviceGetHandleByUUID(const char *uuid, nvmlDevice_t *device);
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device);
nvmlReturn_t nvmlDeviceSetComputeMode(nvmlDevice_t device, nvmlComputeMode_t mode);
const char *nvmlErrorString(nvmlReturn_t result);

static int mode_of(const char *text) {
  if (strcmp(text, "DEFAULT") == 0 || strcmp(text, "0") == 0) return NVML_COMPUTEMODE_DEFAULT;
  if (strcmp(text, "PROHIBITED") == 0 || strcmp(text, "2") == 0) return NVML_COMPUTEMODE_PROHIBITED;
  if (strcmp(text, "EXCLUSIVE_PROCESS") == 0 || strcmp(text, "3") == 0)
    return NVML_COMPUTEMODE_EXCLUSIVE_PROCESS;
  return -1;
}

static nvmlReturn_t handle_of(const char *id, nvmlDevice_t *device) {
  return strncmp(id, "GPU-", 4) == 0 || strncmp(id, "MIG-", 4) == 0
             ? nvmlDeviceGetHandleByUUID(id, device)
             : nvmlDeviceGetHandleByIndex_v2((unsigned)atoi(id), device);
}

static void record(int argc, char **argv) {
  const char *state = getenv("NVML_SIM_STATE");
  if (state == NULL) return;
  char path[4200];
  snprintf(path, sizeof(path), "%s.nvidia-smi.log", state);
  FILE *f = fopen(path, "a");
  if (f == NULL) return;
  for (int i = 1; i < argc; i++) fprintf(f, "%s%s", i > 1 ? " " : "", argv[i]);
  fprintf(f, "\n");
  fclose(f);
}

/* nvidia-smi compute-policy -i <id> --set-timeslice <0-3> */
static int compute_policy(int argc, char **argv) {
  const char *id = NULL, *slice = NULL;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "-i") == 0) id = argv[i + 1];
    else if (strcmp(argv[i], "--set-timeslice") == 0) slice = argv[i + 1];
  }
  if (id == NULL || slice == NULL || argc != 6 || strlen(slice) != 1 || slice[0] < '0' || slice[0] > '3') {
    fprintf(stderr, "usage: nvidia-smi compute-policy -i <GPU UUID or index> --set-timeslice <0-3>\n");
    return 2;
  }
  nvmlReturn_t rc = nvmlInit_v2();
  nvmlDevice_t device;
  if (rc == NVML_SUCCESS) rc = handle_of(id, &device);
  nvmlShutdown();
  if (rc != NVML_SUCCESS) {
    fprintf(stderr, "Unable to set the time slice for GPU %s: %s\n", id, nvmlErrorString(rc));
    return 3;
  }
  record(argc, argv);
  printf("Set the time slice to %s for GPU %s.\n", slice, id);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "compute-policy") == 0) return compute_policy(argc, argv);
  const char *id = NULL, *mode = NULL;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "-i") == 0) id = argv[i + 1];
    else if (strcmp(argv[i], "-c") == 0) mode = argv[i + 1];
  }
  if (id == NULL || mode == NULL || mode_of(mode) < 0 || argc != 5) {
    fprintf(stderr, "usage: nvidia-smi -i <GPU UUID or index> -c <DEFAULT|EXCLUSIVE_PROCESS|PROHIBITED>\n");
    return 2;
  }
  nvmlReturn_t rc = nvmlInit_v2();
  nvmlDevice_t device;
  if (rc == NVML_SUCCESS) rc = handle_of(id, &device);
  if (rc == NVML_SUCCESS) rc = nvmlDeviceSetComputeMode(device, (nvmlComputeMode_t)mode_of(mode));
  nvmlShutdown();
  if (rc != NVML_SUCCESS) {
    fprintf(stderr, "Unable to set the compute mode for GPU %s: %s\n", id, nvmlErrorString(rc));
    return 3;
  }
  record(argc, argv);
  printf("Set compute mode to %s for GPU %s.\n", mode, id);
  return 0;
}

/*
 * nvml-sim: a thin command-line front to nvmlsim_control() of the libnvidia-ml.so.1 beside it.
 * Not part of the library. Usage: nvml-sim [--state FILE] COMMAND ...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int nvmlsim_control(int argc, const char **argv, char *out, unsigned int outSize);

#define OUT_SIZE (4u * 1024u * 1024u)

int main(int argc, char **argv) {
  const char *state = NULL;
  int i = 1;
  while (i < argc) {
    if (strcmp(argv[i], "--state") == 0) {
      if (i + 1 >= argc) {
        fprintf(stderr, "usage: nvml-sim [--state FILE] COMMAND ...\n");
        return 2;
      }
      state = argv[i + 1];
      i += 2;
    } else if (strncmp(argv[i], "--state=", 8) == 0) {
      state = argv[i] + 8;
      i++;
    } else {
      break;
    }
  }
  char *out = malloc(OUT_SIZE);
  if (out == NULL) {
    fprintf(stderr, "nvml-sim: out of memory\n");
    return 1;
  }
  int rc = 0;
  if (state != NULL) {
    const char *set[] = {"state", state};
    rc = nvmlsim_control(2, set, out, OUT_SIZE);
    if (rc != 0) {
      fputs(out, stderr);
      free(out);
      return rc;
    }
  }
  rc = nvmlsim_control(argc - i, (const char **)(argv + i), out, OUT_SIZE);
  fputs(out, rc == 0 ? stdout : stderr);
  free(out);
  return rc;
}

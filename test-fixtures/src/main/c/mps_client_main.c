/*
 * A simulated MPS client (not part of the library; see README.md, "Simulated MPS"): connects to
 * the control daemon through $CUDA_MPS_PIPE_DIRECTORY (default /tmp/nvidia-mps, as CUDA's client
 * does), is given the name of a segment the daemon made in its /dev/shm, and reads that segment
 * from its own /dev/shm. It prints the segment's content and exits 0 when both are shared; it
 * exits 1 naming what it could not reach (a client that does not reach MPS runs without it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(void) {
  const char *dir = getenv("CUDA_MPS_PIPE_DIRECTORY");
  if (dir == NULL || dir[0] == '\0') dir = "/tmp/nvidia-mps";
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof(addr));
  addr.sun_family = AF_UNIX;
  int n = snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/control", dir);
  if (n < 0 || (size_t)n >= sizeof(addr.sun_path)) {
    fprintf(stderr, "mps-client: pipe directory %s is too long\n", dir);
    return 1;
  }
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0) {
    fprintf(stderr, "mps-client: no MPS control daemon at %s: %s\n", addr.sun_path, strerror(errno));
    return 1;
  }
  char name[256];
  ssize_t got = 0, r;
  while (got < (ssize_t)sizeof(name) - 1 && (r = read(fd, name + got, sizeof(name) - 1 - got)) > 0)
    got += r;
  close(fd);
  name[got] = '\0';
  name[strcspn(name, "\n")] = '\0';
  if (name[0] == '\0' || strncmp(name, "error:", 6) == 0 || strchr(name, '/') != NULL) {
    fprintf(stderr, "mps-client: the daemon at %s gave no segment: %s\n", dir, name);
    return 1;
  }
  char path[512];
  snprintf(path, sizeof(path), "/dev/shm/%s", name);
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "mps-client: the daemon's segment %s is not in this /dev/shm: %s\n", name,
            strerror(errno));
    return 1;
  }
  char line[512];
  if (fgets(line, sizeof(line), f) != NULL) fputs(line, stdout);
  fclose(f);
  return 0;
}

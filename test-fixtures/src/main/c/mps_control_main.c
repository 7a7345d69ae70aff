/*
 * A simulated nvidia-cuda-mps-control (not part of the library; see README.md, "Simulated MPS").
 *
 *   nvidia-cuda-mps-control -d   starts a control daemon in the background: it writes its pid to
 *                                $CUDA_MPS_PIPE_DIRECTORY/nvidia-cuda-mps-control.pid, records its
 *                                CUDA_* environment in daemon.env, starts one "server" child, and
 *                                stays until quit (or until it is killed).
 *   nvidia-cuda-mps-control -f   the same daemon in the foreground (the process itself).
 *   ... -d -M, -f -M              the same, multi-user (the log says "-d -M" or "-f -M").
 *
 * The daemon listens on $CUDA_MPS_PIPE_DIRECTORY/control, a unix socket standing for MPS's pipes:
 * a client (mps-client) that connects is given the name of a segment the daemon creates in its own
 * /dev/shm, as an MPS server shares memory with its clients; the client must see it in its own.
 *   nvidia-cuda-mps-control      reads commands from stdin, one per line:
 *                                set_default_active_thread_percentage N,
 *                                set_default_device_pinned_mem_limit DEV NM,
 *                                set_active_thread_percentage PID N,
 *                                set_device_pinned_mem_limit PID DEV NM, get_server_list, quit.
 *
 * Every invocation appends what it receives to $CUDA_MPS_PIPE_DIRECTORY/control.log ("-d" for a
 * start, then each command as written), so tests can read the protocol. get_server_list prints
 * the server's pid and shows the server to the simulated NVML beside it (NVML_SIM_STATE) as a
 * compute process named nvidia-cuda-mps-server on $CUDA_VISIBLE_DEVICES (a GPU or MIG UUID).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include "nvml_types.h"

int nvmlsim_control(int argc, const char **argv, char *out, unsigned int outSize);
nvmlReturn_t nvmlInit_v2(void);
nvmlReturn_t nvmlShutdown(void);
nvmlReturn_t nvmlDeviceGetHandleByUUID(const char *uuid, nvmlDevice_t *device);
nvmlReturn_t nvmlDeviceIsMigDeviceHandle(nvmlDevice_t device, unsigned int *isMigDevice);
nvmlReturn_t nvmlDeviceGetDeviceHandleFromMigDeviceHandle(nvmlDevice_t migDevice, nvmlDevice_t *device);
nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t device, unsigned int *index);
nvmlReturn_t nvmlDeviceGetGpuInstanceId(nvmlDevice_t device, unsigned int *id);
nvmlReturn_t nvmlDeviceGetComputeInstanceId(nvmlDevice_t device, unsigned int *id);

#define PID_FILE "nvidia-cuda-mps-control.pid"
#define SERVER_PID_FILE "nvidia-cuda-mps-server.pid"
#define ATTACHED_FILE "attached-server.pid"
#define LOG_FILE "control.log"
#define ENV_FILE "daemon.env"
#define SERVER_NAME "nvidia-cuda-mps-server"
#define SOCKET_NAME "control"

extern char **environ;

static char pipe_dir[4096];

static void path_of(char *out, size_t size, const char *name) {
  snprintf(out, size, "%s/%s", pipe_dir, name);
}

static void append_log(const char *line) {
  char path[4200];
  path_of(path, sizeof(path), LOG_FILE);
  FILE *f = fopen(path, "a");
  if (f == NULL) return;
  fprintf(f, "%s\n", line);
  fclose(f);
}

static long read_pid(const char *name) {
  char path[4200];
  path_of(path, sizeof(path), name);
  FILE *f = fopen(path, "r");
  if (f == NULL) return 0;
  long pid = 0;
  if (fscanf(f, "%ld", &pid) != 1) pid = 0;
  fclose(f);
  return pid;
}

/* Written whole, then renamed, so a reader never sees a partial pid. */
static int write_pid(const char *name, long pid) {
  char path[4200], tmp[4300];
  path_of(path, sizeof(path), name);
  snprintf(tmp, sizeof(tmp), "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (f == NULL) return -1;
  fprintf(f, "%ld\n", pid);
  if (fclose(f) != 0) return -1;
  return rename(tmp, path);
}

static int alive(long pid) {
  return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

static volatile sig_atomic_t stop = 0;
static void on_term(int sig) {
  (void)sig;
  stop = 1;
}

static void run_server(void) {
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  signal(SIGTERM, SIG_DFL);
  for (;;) pause();
}

/* The socket clients connect to; -1 when it cannot be made (the daemon then serves no client). */
static int listen_socket(void) {
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof(addr));
  addr.sun_family = AF_UNIX;
  int n = snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/%s", pipe_dir, SOCKET_NAME);
  if (n < 0 || (size_t)n >= sizeof(addr.sun_path)) return -1;
  unlink(addr.sun_path);
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0 || listen(fd, 16) != 0) {
    close(fd);
    return -1;
  }
  chmod(addr.sun_path, 0777);
  return fd;
}

/* One client: a segment in this daemon's /dev/shm, its name sent back over the socket. */
static void serve_client(int client, unsigned long n) {
  char name[128], path[256];
  snprintf(name, sizeof(name), "cuda.shm.%ld.%lu", (long)getpid(), n);
  snprintf(path, sizeof(path), "/dev/shm/%s", name);
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    dprintf(client, "error: cannot create %s: %s\n", path, strerror(errno));
  } else {
    const char *uuid = getenv("CUDA_VISIBLE_DEVICES");
    fprintf(f, "mps-sim %s\n", uuid == NULL ? "" : uuid);
    fclose(f);
    dprintf(client, "%s\n", name);
  }
  close(client);
}

/* The daemon itself: pid file, server child, clients served until SIGTERM. */
static int run_daemon(void) {
  char path[4200];
  path_of(path, sizeof(path), ENV_FILE);
  FILE *env = fopen(path, "w");
  if (env != NULL) {
    for (char **e = environ; *e != NULL; e++)
      if (strncmp(*e, "CUDA_", 5) == 0) fprintf(env, "%s\n", *e);
    fclose(env);
  }
  struct sigaction term;
  memset(&term, 0, sizeof(term));
  term.sa_handler = on_term; /* no SA_RESTART: accept() returns EINTR */
  sigaction(SIGTERM, &term, NULL);
  sigaction(SIGINT, &term, NULL);
  signal(SIGPIPE, SIG_IGN);
  pid_t server = fork();
  if (server == 0) run_server();
  if (server > 0) write_pid(SERVER_PID_FILE, server);
  int sock = listen_socket();
  write_pid(PID_FILE, getpid());
  unsigned long clients = 0;
  while (!stop) {
    if (sock < 0) {
      pause();
      continue;
    }
    int client = accept(sock, NULL, NULL);
    if (client >= 0) serve_client(client, ++clients);
  }
  if (server > 0) {
    kill(server, SIGTERM);
    waitpid(server, NULL, 0);
  }
  char pid_path[4200];
  path_of(pid_path, sizeof(pid_path), PID_FILE);
  if (read_pid(PID_FILE) == getpid()) unlink(pid_path);
  if (sock >= 0) {
    path_of(path, sizeof(path), SOCKET_NAME);
    unlink(path);
  }
  return 0;
}

static int refuse_second(void) {
  long running = read_pid(PID_FILE);
  if (alive(running) && running != getpid()) {
    fprintf(stderr, "An instance of this daemon is already running (pid %ld)\n", running);
    return 1;
  }
  return 0;
}

/* -M (multi-user): recorded in the log beside the start, as given */
static int multi_user;

static int start_foreground(void) {
  append_log(multi_user ? "-f -M" : "-f");
  if (refuse_second()) return 1;
  return run_daemon();
}

static int start_daemon(void) {
  append_log(multi_user ? "-d -M" : "-d");
  if (refuse_second()) return 1;
  pid_t child = fork();
  if (child < 0) {
    perror("fork");
    return 1;
  }
  if (child > 0) {
    /* the pid file exists when -d returns, as callers rely on */
    for (int i = 0; i < 500 && read_pid(PID_FILE) != child; i++) usleep(10000);
    return read_pid(PID_FILE) == child ? 0 : 1;
  }
  setsid();
  int devnull = open("/dev/null", O_RDWR);
  if (devnull >= 0) {
    dup2(devnull, 0);
    dup2(devnull, 1);
    dup2(devnull, 2);
    if (devnull > 2) close(devnull);
  }
  _exit(run_daemon());
}

static int sim(const char **argv, int argc, char *out, unsigned size) {
  return nvmlsim_control(argc, argv, out, size);
}

static void detach(long pid) {
  char buf[32], out[1024];
  snprintf(buf, sizeof(buf), "%ld", pid);
  const char *argv[] = {"detach", "--pid", buf};
  sim(argv, 3, out, sizeof(out));
}

/* Shows the server to the simulated NVML on the daemon's device; a stale one is detached first. */
static void show_server(long server) {
  long attached = read_pid(ATTACHED_FILE);
  if (attached == server) return;
  if (attached > 0) detach(attached);
  const char *uuid = getenv("CUDA_VISIBLE_DEVICES");
  if (uuid == NULL || nvmlInit_v2() != NVML_SUCCESS) {
    fprintf(stderr, "mps-control (simulated): no simulated NVML to show server %ld to\n", server);
    return;
  }
  nvmlDevice_t device, parent;
  unsigned mig = 0, index = 0, gi = 0, ci = 0;
  if (nvmlDeviceGetHandleByUUID(uuid, &device) != NVML_SUCCESS) {
    fprintf(stderr, "mps-control (simulated): %s is not a simulated GPU or MIG device\n", uuid);
    nvmlShutdown();
    return;
  }
  nvmlDeviceIsMigDeviceHandle(device, &mig);
  parent = device;
  if (mig) {
    nvmlDeviceGetDeviceHandleFromMigDeviceHandle(device, &parent);
    nvmlDeviceGetGpuInstanceId(device, &gi);
    nvmlDeviceGetComputeInstanceId(device, &ci);
  }
  nvmlDeviceGetIndex(parent, &index);
  nvmlShutdown();
  char s_gpu[16], s_gi[16], s_ci[16], s_pid[32], out[1024];
  snprintf(s_gpu, sizeof(s_gpu), "%u", index);
  snprintf(s_gi, sizeof(s_gi), "%u", gi);
  snprintf(s_ci, sizeof(s_ci), "%u", ci);
  snprintf(s_pid, sizeof(s_pid), "%ld", server);
  const char *with_mig[] = {"attach", "--gpu", s_gpu, "--gi", s_gi, "--ci", s_ci, "--pid", s_pid,
                            "--mem", "0", "--name", SERVER_NAME};
  const char *whole[] = {"attach", "--gpu", s_gpu, "--pid", s_pid, "--mem", "0", "--name", SERVER_NAME};
  int rc = mig ? sim(with_mig, 13, out, sizeof(out)) : sim(whole, 9, out, sizeof(out));
  if (rc != 0) {
    fprintf(stderr, "mps-control (simulated): %s", out);
    return;
  }
  write_pid(ATTACHED_FILE, server);
}

static int quit(long daemon) {
  long attached = read_pid(ATTACHED_FILE);
  if (attached > 0) {
    detach(attached);
    char path[4200];
    path_of(path, sizeof(path), ATTACHED_FILE);
    unlink(path);
  }
  kill((pid_t)daemon, SIGTERM);
  for (int i = 0; i < 500 && alive(daemon); i++) usleep(10000);
  return 0;
}

static int commands(void) {
  char line[1024];
  int status = 0;
  while (fgets(line, sizeof(line), stdin) != NULL) {
    line[strcspn(line, "\r\n")] = '\0';
    if (line[0] == '\0') continue;
    append_log(line);
    long daemon = read_pid(PID_FILE);
    if (!alive(daemon)) {
      fprintf(stderr, "Cannot find MPS control daemon process\n");
      status = 1;
      continue;
    }
    if (strcmp(line, "get_server_list") == 0) {
      long server = read_pid(SERVER_PID_FILE);
      if (alive(server)) {
        printf("%ld\n", server);
        fflush(stdout);
        show_server(server);
      }
    } else if (strcmp(line, "quit") == 0) {
      quit(daemon);
    } else if (strncmp(line, "set_default_active_thread_percentage ", 37) == 0 ||
               strncmp(line, "set_default_device_pinned_mem_limit ", 36) == 0 ||
               strncmp(line, "set_device_pinned_mem_limit ", 28) == 0 ||
               strncmp(line, "set_active_thread_percentage ", 29) == 0) {
      printf("%s\n", strchr(line, ' ') + 1);
    } else {
      fprintf(stderr, "unknown command: %s\n", line);
      status = 1;
    }
  }
  return status;
}

int main(int argc, char **argv) {
  const char *dir = getenv("CUDA_MPS_PIPE_DIRECTORY");
  if (dir == NULL || dir[0] == '\0') dir = "/tmp/nvidia-mps";
  snprintf(pipe_dir, sizeof(pipe_dir), "%s", dir);
  mkdir(pipe_dir, 0755);
  multi_user = argc == 3 && strcmp(argv[2], "-M") == 0;
  if ((argc == 2 || multi_user) && strcmp(argv[1], "-d") == 0) return start_daemon();
  if ((argc == 2 || multi_user) && strcmp(argv[1], "-f") == 0) return start_foreground();
  if (argc == 1) return commands();
  fprintf(stderr, "usage: nvidia-cuda-mps-control [-d | -f] [-M]\n");
  return 2;
}

/*
 * A container's init for tests that run a pod's containers (not part of the library; see
 * README.md, "Containers"): `container-init CMD ARGS...` becomes a child subreaper, runs CMD,
 * passes SIGTERM and SIGINT on to it, and reaps. When CMD ends, every process it started, daemons
 * included (a subreaper keeps them as its descendants), is killed with SIGKILL, as the runtime kills
 * a container's cgroup; then container-init exits with CMD's status. Killing container-init's
 * descendants and then itself is the death of the container.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile pid_t main_child = 0;

static void forward(int sig) {
  if (main_child > 0) kill(main_child, sig);
}

static pid_t parent_of(pid_t pid) {
  char path[64], buf[512];
  snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "r");
  if (f == NULL) return 0;
  size_t n = fread(buf, 1, sizeof(buf) - 1, f);
  fclose(f);
  buf[n] = '\0';
  char *close_paren = strrchr(buf, ')');
  if (close_paren == NULL) return 0;
  char state;
  int ppid = 0;
  if (sscanf(close_paren + 1, " %c %d", &state, &ppid) != 2) return 0;
  return (pid_t)ppid;
}

/* SIGKILL to every direct child left (orphans were reparented here); returns how many. */
static int kill_children(void) {
  DIR *proc = opendir("/proc");
  if (proc == NULL) return 0;
  int killed = 0;
  struct dirent *e;
  while ((e = readdir(proc)) != NULL) {
    pid_t pid = (pid_t)atoi(e->d_name);
    if (pid > 0 && parent_of(pid) == getpid()) {
      kill(pid, SIGKILL);
      killed++;
    }
  }
  closedir(proc);
  return killed;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: container-init CMD [ARGS...]\n");
    return 2;
  }
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = forward;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  pid_t child = fork();
  if (child < 0) {
    perror("container-init: fork");
    return 1;
  }
  if (child == 0) {
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    execvp(argv[1], argv + 1);
    fprintf(stderr, "container-init: cannot run %s: %s\n", argv[1], strerror(errno));
    _exit(127);
  }
  main_child = child;
  int status = 0, code = 0;
  for (;;) {
    int st;
    pid_t done = waitpid(-1, &st, 0);
    if (done < 0 && errno == EINTR) continue;
    if (done < 0) break;
    if (done == child) {
      status = st;
      main_child = 0;
      /* each child killed dies; its own children come here next, and are killed in turn */
      while (kill_children() > 0) {
        while (waitpid(-1, NULL, WNOHANG) > 0) {
        }
        usleep(1000);
      }
    }
  }
  if (WIFEXITED(status)) code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) code = 128 + WTERMSIG(status);
  return code;
}

/*
 * Enables one USDT probe as a tracer does, with nothing but the kernel: a
 * perf uprobe event on the probe's nop whose reference counter is the
 * probe's semaphore, which the kernel raises in every process mapping the
 * file for as long as the event exists. Runs COMMAND meanwhile.
 *
 *   enable_probe FILE NOP_OFFSET SEMAPHORE_OFFSET COMMAND...
 *
 * The offsets are file offsets. Exits with COMMAND's status.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
	struct perf_event_attr attr;
	FILE *f;
	int type, fd, status;
	pid_t child;

	if (argc < 5) {
		fprintf(stderr, "usage: enable_probe FILE NOP_OFFSET SEMAPHORE_OFFSET COMMAND...\n");
		return 2;
	}
	f = fopen("/sys/bus/event_source/devices/uprobe/type", "r");
	if (f == NULL || fscanf(f, "%d", &type) != 1) {
		perror("uprobe type");
		return 2;
	}
	fclose(f);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = strtoull(argv[3], NULL, 0) << 32; /* ref_ctr_offset: config:32-63 */
	attr.config1 = (uint64_t)(uintptr_t)argv[1];    /* uprobe_path */
	attr.config2 = strtoull(argv[2], NULL, 0);      /* probe_offset */
	fd = syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		perror("perf_event_open");
		return 2;
	}
	child = fork();
	if (child == 0) {
		execvp(argv[4], argv + 4);
		_exit(127);
	}
	if (child < 0 || waitpid(child, &status, 0) < 0) return 2;
	close(fd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

// SPDX-License-Identifier: MIT
/*
 * e1vm-qmp: set or read a property of the virtual board's e1 NPU from
 * inside the guest. The board's QEMU (tests/vm/run-vm.sh) connects a virtio
 * console, /dev/hvc0 here, to its own QMP monitor, so a test injects a
 * fault at run time exactly as a person would from the monitor:
 *   e1vm-qmp set inject-hang 1      qom-set /machine/e1npu inject-hang true
 *   e1vm-qmp get dma-window-misses
 * '_' in NAME reads as '-' (so module-parameter style names work too).
 * Bools take 1/0/y/n/true/false and print as 1/0. Exit 0 done, 1 QEMU
 * refused (its message on stderr), 2 usage or channel error.
 */
#define _DEFAULT_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define QMP_DEV "/dev/hvc0"
#define QMP_PATH "/machine/e1npu"
#define LINE_MAX_LEN 8192
#define REPLY_TIMEOUT_MS 20000

static int qfd = -1;
static char rbuf[LINE_MAX_LEN];
static size_t rlen;

static void die(int code, const char *fmt, ...)
{
	va_list ap;

	fputs("e1vm-qmp: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

static void send_line(const char *s)
{
	size_t len = strlen(s), off = 0;
	ssize_t n;

	while (off < len) {
		n = write(qfd, s + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die(2, "write %s: %s", QMP_DEV, strerror(errno));
		off += (size_t)n;
	}
}

/* Next line from the monitor into @line (NUL-terminated, no newline). */
static void read_line(char *line, size_t max)
{
	struct pollfd p = { .fd = qfd, .events = POLLIN };
	char *nl;
	ssize_t n;

	for (;;) {
		nl = memchr(rbuf, '\n', rlen);
		if (nl) {
			size_t l = (size_t)(nl - rbuf);

			if (l >= max)
				die(2, "reply line of %zu bytes", l);
			memcpy(line, rbuf, l);
			line[l] = '\0';
			memmove(rbuf, nl + 1, rlen - l - 1);
			rlen -= l + 1;
			return;
		}
		if (rlen == sizeof(rbuf))
			die(2, "reply line longer than %zu bytes", sizeof(rbuf));
		n = poll(&p, 1, REPLY_TIMEOUT_MS);
		if (n == 0)
			die(2, "no reply from QEMU's monitor on %s in %d s",
			    QMP_DEV, REPLY_TIMEOUT_MS / 1000);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die(2, "poll %s: %s", QMP_DEV, strerror(errno));
		n = read(qfd, rbuf + rlen, sizeof(rbuf) - rlen);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			die(2, "read %s: %s", QMP_DEV, n ? strerror(errno) : "end of file");
		rlen += (size_t)n;
	}
}

/*
 * Send one command tagged with a unique id; return its reply line in
 * @reply (greetings, events and stale replies of earlier runs skipped).
 */
static void command(const char *cmd, const char *args, char *reply, size_t max)
{
	static unsigned int seq;
	char id[64], out[LINE_MAX_LEN], tag[80];

	snprintf(id, sizeof(id), "e1vm-%ld-%u", (long)getpid(), ++seq);
	snprintf(tag, sizeof(tag), "\"%s\"", id);
	if (snprintf(out, sizeof(out), "{\"execute\": \"%s\"%s%s, \"id\": \"%s\"}\n",
		     cmd, args ? ", \"arguments\": " : "", args ? args : "",
		     id) >= (int)sizeof(out))
		die(2, "command too long");
	send_line(out);
	do
		read_line(reply, max);
	while (!strstr(reply, tag));
}

/* The value after "return": in @reply, or exit 1 with QEMU's error. */
static const char *reply_value(const char *reply, const char *what)
{
	const char *r = strstr(reply, "\"return\":");
	const char *d;

	if (r) {
		r += strlen("\"return\":");
		while (*r == ' ')
			r++;
		return r;
	}
	d = strstr(reply, "\"desc\":");
	die(1, "%s: %s", what, d ? d + strlen("\"desc\":") : reply);
	return NULL;
}

/* Write the JSON string literal of @s into @out. */
static void json_string(const char *s, char *out, size_t max)
{
	size_t o = 0;

	out[o++] = '"';
	for (; *s; s++) {
		if (o + 8 >= max)
			die(2, "value too long");
		if (*s == '"' || *s == '\\')
			out[o++] = '\\';
		if ((unsigned char)*s < 0x20)
			die(2, "control character in the value");
		out[o++] = *s;
	}
	out[o++] = '"';
	out[o] = '\0';
}

static void print_value(const char *v)
{
	if (!strncmp(v, "true", 4)) {
		puts("1");
	} else if (!strncmp(v, "false", 5)) {
		puts("0");
	} else if (*v == '"') {
		for (v++; *v && *v != '"'; v++) {
			if (*v == '\\' && v[1])
				v++;
			putchar(*v);
		}
		putchar('\n');
	} else {
		while (*v == '-' || isdigit((unsigned char)*v))
			putchar(*v++);
		putchar('\n');
	}
}

static int parse_bool(const char *v)
{
	if (!strcmp(v, "1") || !strcasecmp(v, "y") || !strcasecmp(v, "true"))
		return 1;
	if (!strcmp(v, "0") || !strcasecmp(v, "n") || !strcasecmp(v, "false"))
		return 0;
	return -1;
}

int main(int argc, char **argv)
{
	char reply[LINE_MAX_LEN], args[LINE_MAX_LEN], val[LINE_MAX_LEN];
	char name[128], *p;
	struct termios tio;
	const char *cur;
	int set, b;

	if (argc == 3 && !strcmp(argv[1], "get"))
		set = 0;
	else if (argc == 4 && !strcmp(argv[1], "set"))
		set = 1;
	else
		die(2, "usage: e1vm-qmp get NAME | set NAME VALUE");
	if (strlen(argv[2]) >= sizeof(name) || !*argv[2])
		die(2, "property name '%s' is empty or too long", argv[2]);
	strcpy(name, argv[2]);
	for (p = name; *p; p++) {
		if (*p == '_')
			*p = '-';
		else if (!isalnum((unsigned char)*p) && *p != '-')
			die(2, "property name '%s' has a character other than [A-Za-z0-9_-]",
			    argv[2]);
	}

	qfd = open(QMP_DEV, O_RDWR | O_NOCTTY);
	if (qfd < 0)
		die(2, "open %s (the board's QMP channel): %s", QMP_DEV, strerror(errno));
	/* one user of the monitor at a time */
	if (flock(qfd, LOCK_EX))
		die(2, "flock %s: %s", QMP_DEV, strerror(errno));
	if (tcgetattr(qfd, &tio) == 0) {
		cfmakeraw(&tio);
		tcsetattr(qfd, TCSANOW, &tio);
	}
	/* negotiated once per QEMU run; later runs get an error and go on */
	command("qmp_capabilities", NULL, reply, sizeof(reply));

	snprintf(args, sizeof(args), "{\"path\": \"%s\", \"property\": \"%s\"}",
		 QMP_PATH, name);
	command("qom-get", args, reply, sizeof(reply));
	cur = reply_value(reply, name);
	if (!set) {
		print_value(cur);
		return 0;
	}

	/* the value's JSON type follows the property's current value */
	if (!strncmp(cur, "true", 4) || !strncmp(cur, "false", 5)) {
		b = parse_bool(argv[3]);
		if (b < 0)
			die(2, "%s is a bool: '%s' is not 1/0/y/n/true/false", name, argv[3]);
		strcpy(val, b ? "true" : "false");
	} else if (*cur == '"') {
		json_string(argv[3], val, sizeof(val));
	} else {
		char *end;

		errno = 0;
		(void)strtoull(argv[3], &end, 0);
		if (errno || end == argv[3] || *end || argv[3][0] == '-')
			die(2, "%s is a number: '%s' is not one", name, argv[3]);
		snprintf(val, sizeof(val), "%llu", strtoull(argv[3], NULL, 0));
	}
	snprintf(args, sizeof(args),
		 "{\"path\": \"%s\", \"property\": \"%s\", \"value\": %s}",
		 QMP_PATH, name, val);
	command("qom-set", args, reply, sizeof(reply));
	reply_value(reply, name);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * npu-smoke: shared helpers (diagnostics, options, JSON, progress).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tools-common.h"

const char *prog_name = "npu-smoke";

/* --json seen: fatal errors also go to stdout as {"error": "..."}. */
static bool json_errors;

void print_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void die(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", prog_name, msg);
	if (json_errors) {
		fputs("{\"error\":", stdout);
		json_str(stdout, msg);
		fputs("}\n", stdout);
	}
	exit(EXIT_FAILURE);
}

/* atexit: output that never reached its file is a failure (exit 1). */
static void check_stdout(void)
{
	int err = 0;

	if (fflush(stdout) || ferror(stdout))
		err = errno ? errno : EIO;
	if (fclose(stdout) && !err)
		err = errno ? errno : EIO;
	if (err) {
		fprintf(stderr, "%s: write error on stdout: %s\n", prog_name,
			strerror(err));
		_exit(EXIT_FAILURE);
	}
}

void tools_init(int argc, char **argv)
{
	int i;

	atexit(check_stdout);
	/* --json anywhere: errors in the options before it are JSON too */
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j"))
			json_errors = true;
}

void no_operands(int argc, char **argv, int first)
{
	if (first < argc)
		die("%s: unexpected argument '%s'; try '%s --help'", argv[0],
		    argv[first], prog_name);
}

unsigned long parse_uint_or_die(const char *what, const char *s,
				unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || !*s || *end || v > max || *s == '-')
		die("invalid %s: '%s'", what, s);
	return v;
}

struct e1npu_device *open_device_or_die(const struct common_opts *o)
{
	struct e1npu_device *dev;
	int ret;

	const char *arena = getenv("E1NPU_SIM_ARENA_MB");

	ret = e1npu_device_open(o->device, &dev);
	/* the model refuses a bad knob with -EINVAL: name the value */
	if (ret == -EINVAL && arena && *arena)
		die("cannot open device '%s': %s (is E1NPU_SIM_ARENA_MB='%s' a whole number of MiB from 1 to 3072?)",
		    o->device ? o->device : getenv("E1NPU_DEVICE") ?
		    getenv("E1NPU_DEVICE") : "(auto)", e1npu_strerror(ret), arena);
	if (ret)
		die("cannot open device '%s': %s", o->device ? o->device :
		    getenv("E1NPU_DEVICE") ? getenv("E1NPU_DEVICE") : "(auto)",
		    e1npu_strerror(ret));
	return dev;
}

void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

bool progress_enabled(const struct common_opts *o)
{
	return o->progress || isatty(STDERR_FILENO);
}

void progress(const struct common_opts *o, unsigned int i, unsigned int n,
	      const char *what)
{
	if (!progress_enabled(o))
		return;
	fprintf(stderr, "\r\033[K[%u/%u] %s", i, n, what);
	fflush(stderr);
}

void progress_done(const struct common_opts *o)
{
	if (progress_enabled(o))
		fprintf(stderr, "\r\033[K");
}

double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int parse_common(int argc, char **argv, struct common_opts *o,
		 const char *extra_short, const struct option *extra,
		 int (*handle)(int c, const char *arg, void *ctx), void *ctx,
		 void (*help)(void))
{
	struct option longopts[24];
	char shortopts[64];
	static const struct option common[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "progress", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
	};
	size_t n = 0, i;
	int c;

	for (i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		longopts[n++] = common[i];
	for (i = 0; extra && extra[i].name && n < 23; i++)
		longopts[n++] = extra[i];
	memset(&longopts[n], 0, sizeof(longopts[n]));
	snprintf(shortopts, sizeof(shortopts), "+d:jPhV%s",
		 extra_short ? extra_short : "");

	optind = 1;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			o->device = optarg;
			break;
		case 'j':
			o->json = true;
			json_errors = true;
			break;
		case 'P':
			o->progress = true;
			break;
		case 'h':
			help();
			exit(EXIT_SUCCESS);
		case 'V':
			printf("%s %s (libe1npu %s)\n", prog_name,
			       NPU_SMOKE_VERSION, e1npu_api_version());
			exit(EXIT_SUCCESS);
		case '?':
			die("try '%s --help'", prog_name);
		default:
			if (!handle || handle(c, optarg, ctx))
				die("try '%s --help'", prog_name);
		}
	}
	return optind;
}

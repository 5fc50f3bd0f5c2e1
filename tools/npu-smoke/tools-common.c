// SPDX-License-Identifier: MIT
/*
 * npu-smoke: shared helpers (diagnostics, options, JSON, progress).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
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

static void vdie(int status, const char *fmt, va_list ap) NORETURN;
static void vdie(int status, const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, "%s: %s\n", prog_name, msg);
	if (json_errors) {
		fputs("{\"error\":", stdout);
		json_str(stdout, msg);
		fputs("}\n", stdout);
	}
	exit(status);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdie(EXIT_RUN, fmt, ap);
}

static void (*usage_error_fn)(void);

void on_usage_error(void (*fn)(void))
{
	usage_error_fn = fn;
}

void die_usage(const char *fmt, ...)
{
	va_list ap;

	if (usage_error_fn)
		usage_error_fn();	/* bad input changes nothing */
	va_start(ap, fmt);
	vdie(EXIT_USAGE, fmt, ap);
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
		die_usage("%s: unexpected argument '%s'; try '%s --help'", argv[0],
			  argv[first], prog_name);
}

unsigned long parse_uint_or_die(const char *opt, const char *s, unsigned long min,
				unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || !*s || *end || v < min || v > max || *s == '-' || *s == '+')
		die_usage("%s: '%s' is not a whole number from %lu to %lu", opt, s, min, max);
	return v;
}

struct e1npu_device *open_device_or_die(const struct common_opts *o)
{
	const char *env = getenv("E1NPU_DEVICE");
	bool automatic = !o->device && (!env || !*env);
	struct e1npu_device *dev;
	char err[256];
	int ret;

	/* a bad E1NPU_* value is a usage error, named with its values */
	if (e1npu_env_check(err, sizeof(err)))
		die_usage("%s", err);
	ret = e1npu_device_open(o->device, &dev);
	if (ret)
		die("cannot open device '%s': %s", o->device ? o->device :
		    automatic ? "auto" : env, e1npu_device_last_error(NULL));
	if (automatic && !strcmp(device_name(dev), "sim"))
		fprintf(stderr, "%s: no e1 NPU found (no /dev/accel node with the e1npu "
			"driver): running on the in-process model (sim)\n", prog_name);
	return dev;
}

const char *device_name(struct e1npu_device *dev)
{
	static struct e1npu_device_info info;

	if (e1npu_device_get_info(dev, &info))
		return "?";
	return info.backend == E1NPU_BACKEND_SIM ? "sim" : info.path;
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

/* A line is drawn: Ctrl-C erases it before the shell prints its prompt. */
static volatile sig_atomic_t progress_drawn;

static void progress_signal(int sig)
{
	static const char clr[] = "\r\033[K";

	if (progress_drawn) {
		ssize_t r = write(STDERR_FILENO, clr, sizeof(clr) - 1);

		(void)r;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

void progress(const struct common_opts *o, unsigned int i, unsigned int n,
	      const char *what)
{
	if (!progress_enabled(o))
		return;
	if (!progress_drawn) {
		signal(SIGINT, progress_signal);
		signal(SIGTERM, progress_signal);
	}
	progress_drawn = 1;	/* before: a signal during the write still erases it */
	fprintf(stderr, "\r\033[K[%u/%u] %s", i, n, what);
	fflush(stderr);
}

void progress_done(const struct common_opts *o)
{
	if (!progress_enabled(o))
		return;
	fprintf(stderr, "\r\033[K");
	fflush(stderr);
	progress_drawn = 0;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
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
		{ "trace", required_argument, NULL, 'T' },
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
			/* also before and after the subcommand: one device */
			if (o->device && strcmp(o->device, optarg))
				die_usage("--device given twice ('%s' and '%s')", o->device, optarg);
			o->device = optarg;
			break;
		case 'j':
			o->json = true;
			json_errors = true;
			break;
		case 'P':
			o->progress = true;
			break;
		case 'T':
			trace_opt_start(optarg);
			o->trace = optarg;
			break;
		case 'h':
			help();
			exit(EXIT_SUCCESS);
		case 'V':
			printf("%s %s (libe1npu %s)\n", prog_name,
			       NPU_SMOKE_VERSION, e1npu_api_version());
			exit(EXIT_SUCCESS);
		case '?':
			die_usage("try '%s --help'", prog_name);
		default:
			if (!handle || handle(c, optarg, ctx))
				die_usage("try '%s --help'", prog_name);
		}
	}
	return optind;
}

// SPDX-License-Identifier: MIT
/*
 * The tools' error output (errout.h). Every failure is one line on
 * stderr and, with --json, one {"error": ...} document on stdout; a failed
 * write to stdout (a full disk, a closed pipe) is an error too.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "errout.h"

/* the tool that links this names itself in main() (cls_set_prog) */
static const char *prog = "e1npu";

void cls_set_prog(const char *name)
{
	prog = name;
}

const char *cls_prog(void)
{
	return prog;
}

void cls_json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

bool cls_json_requested(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json"))
			return true;
	return false;
}

void cls_error(bool json, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", prog, msg);
	if (json) {
		fputs("{\"error\":", stdout);
		cls_json_str(msg);
		fputs("}\n", stdout);
	}
}

void cls_file_error(bool json, const char *path, const char *msg)
{
	size_t n = strlen(path);

	if (!strncmp(msg, path, n) && msg[n] == ':')
		cls_error(json, "%s", msg);
	else
		cls_error(json, "%s: %s", path, msg);
}

int cls_close_stdout(void)
{
	int err = 0;

	if (fflush(stdout) || ferror(stdout))
		err = errno ? errno : EIO;
	if (fclose(stdout) && !err)
		err = errno ? errno : EIO;
	if (!err)
		return 0;
	fprintf(stderr, "%s: write error on stdout: %s\n", prog, strerror(err));
	return 1;
}

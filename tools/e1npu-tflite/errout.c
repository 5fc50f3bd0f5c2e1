// SPDX-License-Identifier: MIT
/*
 * e1npu-tflite: error output. Every failure is one line on stderr and,
 * with --json, one {"error": ...} document on stdout; a failed write to
 * stdout (a full disk, a closed pipe) is an error too.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "errout.h"

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
	fprintf(stderr, "e1npu-tflite: %s\n", msg);
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
	fprintf(stderr, "e1npu-tflite: write error on stdout: %s\n", strerror(err));
	return 1;
}

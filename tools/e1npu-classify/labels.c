// SPDX-License-Identifier: MIT
/*
 * e1npu-classify: the labels file (labels.h). A 1000-line file for a
 * 1001-class model would otherwise name every class after its neighbour.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "labels.h"
#include "readfile.h"

#define LABEL_MAX 4096

/* A copy of @s[0..n) with control bytes as \xNN: a name cannot move the
 * cursor or inject escape sequences into a terminal. */
static char *escape(const char *s, size_t n)
{
	char *d = malloc(4 * n + 1), *p = d;

	if (!d)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			p += sprintf(p, "\\x%02x", c);
		else
			*p++ = (char)c;
	}
	*p = 0;
	return d;
}

/* Text has no NUL and few control bytes besides tab, CR and LF. */
static int looks_binary(const char *buf, size_t n)
{
	size_t ctl = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (!c)
			return 1;
		if (c < 0x20 && c != '\t' && c != '\r' && c != '\n')
			ctl++;
	}
	return ctl * 10 > n;
}

static int add(struct labels *l, unsigned int *cap, const char *s, size_t n)
{
	if (l->count == *cap) {
		unsigned int nc = *cap ? 2 * *cap : 1024;
		char **nv = realloc(l->name, nc * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		l->name = nv;
		*cap = nc;
	}
	l->name[l->count] = escape(s, n);
	if (!l->name[l->count])
		return -ENOMEM;
	l->count++;
	return 0;
}

int labels_load(const char *path, struct labels *l, char *err, size_t errlen)
{
	char *buf = NULL, why[320];
	size_t len = 0, start = 0;
	unsigned int lcap = 0;
	void *data;
	int ret = 0;

	memset(l, 0, sizeof(*l));
	/* a directory, FIFO, device, unreadable or empty file: the cause */
	ret = e1npu_read_file(path, (size_t)1 << 30, &data, &len, why, sizeof(why));
	if (ret == -ENODATA) {
		snprintf(err, errlen, "labels file %s is empty", path);
		return -EINVAL;
	}
	if (ret) {
		snprintf(err, errlen, "labels file %s", why);
		return ret;
	}
	buf = data;
	if (!ret && looks_binary(buf, len)) {
		ret = -EINVAL;
		snprintf(err, errlen, "labels file %s is not text (one label per line)", path);
	}
	for (size_t i = 0; !ret && i <= len; i++) {
		size_t e;

		if (i < len && buf[i] != '\n')
			continue;
		if (i == len && start == len)
			break;		/* no text after the last newline */
		e = i;
		if (e > start && buf[e - 1] == '\r')
			e--;
		if (e - start > LABEL_MAX) {
			ret = -EINVAL;
			snprintf(err, errlen, "labels file %s: line %u is longer than %d bytes",
				 path, l->count + 1, LABEL_MAX);
			break;
		}
		ret = add(l, &lcap, buf + start, e - start);
		if (ret)
			snprintf(err, errlen, "labels file %s: out of memory", path);
		start = i + 1;
	}
	free(buf);
	if (ret)
		labels_free(l);
	return ret;
}

int labels_match(struct labels *l, const char *path, unsigned int classes,
		 char *note, size_t notelen, char *err, size_t errlen)
{
	note[0] = 0;
	l->first = 0;
	if (l->count == classes)
		return 0;
	if (l->count + 1 == classes && l->count && strcasecmp(l->name[0], "background")) {
		l->first = 1;
		snprintf(note, notelen,
			 "labels file %s has %u lines for %u classes: assuming it has no "
			 "\"background\" line (line 1 = class 1, class 0 unnamed)",
			 path, l->count, classes);
		return 0;
	}
	snprintf(err, errlen,
		 "labels file %s has %u lines but the model has %u classes "
		 "(expected %u, or %u without a \"background\" line%s)",
		 path, l->count, classes, classes, classes - 1,
		 l->count && !strcasecmp(l->name[0], "background") ?
		 "; this one starts with \"background\": a line is missing" : "");
	return -EINVAL;
}

const char *labels_name(const struct labels *l, unsigned int k)
{
	if (!l->name || k < l->first || k - l->first >= l->count)
		return NULL;
	return l->name[k - l->first];
}

void labels_free(struct labels *l)
{
	for (unsigned int i = 0; i < l->count; i++)
		free(l->name[i]);
	free(l->name);
	memset(l, 0, sizeof(*l));
}

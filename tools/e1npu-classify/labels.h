/* SPDX-License-Identifier: MIT */
/*
 * e1npu-classify's labels file: one class name per line, checked against
 * the model's class count so a missing line cannot shift every name.
 */
#ifndef __E1NPU_CLASSIFY_LABELS_H__
#define __E1NPU_CLASSIFY_LABELS_H__

#include <stddef.h>

struct labels {
	char **name;		/* printable: control bytes escaped */
	unsigned int count;	/* lines in the file */
	unsigned int first;	/* class of line 1: 0, or 1 without "background" */
};

/*
 * labels_load() - read @path. 0, or -errno with a message naming the file
 * in @err: unreadable, empty, binary (NUL or non-text bytes), a line over
 * 4 KiB.
 */
int labels_load(const char *path, struct labels *l, char *err, size_t errlen);

/*
 * labels_match() - check the count against @classes: equal, or one fewer
 * (the common file without a "background" line: line 1 is class 1, said
 * in @note). -EINVAL with both counts in @err otherwise.
 */
int labels_match(struct labels *l, const char *path, unsigned int classes,
		 char *note, size_t notelen, char *err, size_t errlen);

/* labels_name() - the name of class @k, or NULL when the file has none. */
const char *labels_name(const struct labels *l, unsigned int k);

void labels_free(struct labels *l);

#endif

// SPDX-License-Identifier: MIT
/*
 * The tools' command-line conventions (cli.h): what --help, --version, a
 * repeated option and an unknown one do is the same in every tool.
 */
#include <stdio.h>

#include "cli.h"
#include "errout.h"

int cli_help_or_version(bool version, void (*usage)(FILE *f))
{
	if (version)
		printf("%s %s\n", cls_prog(), E1NPU_VERSION);	/* the top Makefile's */
	else
		usage(stdout);
	return cls_close_stdout() ? EXIT_RUN : EXIT_OK;
}

int cli_set_once(bool json, const char *opt, const char **slot, const char *v)
{
	if (*slot) {
		cls_error(json, "%s given twice ('%s' and '%s')", opt, *slot, v);
		return EXIT_USAGE;
	}
	*slot = v;
	return 0;
}

int cli_bad_option(bool json)
{
	if (json)
		cls_error(true, "invalid option; try '%s --help'", cls_prog());
	else
		fprintf(stderr, "Try '%s --help'.\n", cls_prog());
	return EXIT_USAGE;
}

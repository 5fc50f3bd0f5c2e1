// SPDX-License-Identifier: MIT
/*
 * The tools' device opening (device.h). A board whose driver did not
 * load would otherwise be silently simulated by auto-detection.
 */
#include <stdio.h>
#include <stdlib.h>

#include <e1npu/e1npu.h>

#include "device.h"
#include "errout.h"

int cls_open_device(const char *spec, bool json, struct e1npu_device **dev,
		    char *name, size_t len)
{
	const char *env = getenv("E1NPU_DEVICE");
	bool automatic = !spec && (!env || !*env);
	struct e1npu_device_info info;
	int ret;

	ret = e1npu_device_open(spec, dev);
	if (ret) {
		const char *why = e1npu_device_last_error(NULL);

		cls_error(json, "cannot open device '%s': %s",
			  spec ? spec : automatic ? "auto" : env,
			  why && *why ? why : e1npu_strerror(ret));
		return 1;
	}
	if (e1npu_device_get_info(*dev, &info)) {
		snprintf(name, len, "?");
		return 0;
	}
	snprintf(name, len, "%s", info.backend == E1NPU_BACKEND_SIM ? "sim" : info.path);
	if (automatic && info.backend == E1NPU_BACKEND_SIM)
		fprintf(stderr, "%s: no e1 NPU found (no /dev/accel node with the "
			"e1npu driver): running on the in-process model (sim)\n", cls_prog());
	return 0;
}

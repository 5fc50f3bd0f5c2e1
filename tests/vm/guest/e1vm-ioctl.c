// SPDX-License-Identifier: MIT
/*
 * e1vm-ioctl DEVICE NAME: open a DRM accel node, DRM_IOCTL_VERSION, check
 * the driver name is NAME. Built statically for each guest arch; proves a
 * static userspace binary reaches the kernel driver through a real ioctl.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* struct drm_version / DRM_IOCTL_VERSION from <drm/drm.h> (uapi, stable) */
struct drm_version {
	int version_major;
	int version_minor;
	int version_patchlevel;
	unsigned long name_len;
	char *name;
	unsigned long date_len;
	char *date;
	unsigned long desc_len;
	char *desc;
};
#define DRM_IOCTL_VERSION _IOWR('d', 0x00, struct drm_version)

int main(int argc, char **argv)
{
	char name[64] = "", date[64] = "", desc[128] = "";
	struct drm_version v;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DEVICE DRIVER-NAME\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	memset(&v, 0, sizeof(v));
	v.name = name;
	v.name_len = sizeof(name) - 1;
	v.date = date;
	v.date_len = sizeof(date) - 1;
	v.desc = desc;
	v.desc_len = sizeof(desc) - 1;
	if (ioctl(fd, DRM_IOCTL_VERSION, &v) < 0) {
		perror("DRM_IOCTL_VERSION");
		close(fd);
		return 1;
	}
	close(fd);
	printf("driver %s %d.%d.%d: %s\n", name, v.version_major,
	       v.version_minor, v.version_patchlevel, desc);
	if (strcmp(name, argv[2]) != 0) {
		fprintf(stderr, "driver name '%s', expected '%s'\n", name, argv[2]);
		return 1;
	}
	return 0;
}

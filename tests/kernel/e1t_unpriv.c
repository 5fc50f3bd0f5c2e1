// SPDX-License-Identifier: MIT
/*
 * e1npu system tests as an unprivileged client: group "unpriv". Every
 * other group runs as root, for which DRM lifts its own checks (a root
 * accel client is "authenticated": GEM_FLINK and GEM_OPEN work for it).
 * Here a child process drops to uid/gid 65534 with, as its only
 * supplementary group, the group the udev rule gives the node
 * (tools/udev/70-e1npu.rules: GROUP="render", MODE="0660"; the busybox
 * guest has no udev, so the test applies the rule's owner and mode to the
 * node itself and restores them at the end), and checks:
 *
 * - unpriv-node-closed-without-group: without the group, open() is EACCES;
 * - unpriv-open-render-group: with it, the node opens and DEV_QUERY works;
 * - unpriv-job-runs: a 16x16x16 matmul computes what the CPU reference does;
 * - unpriv-flink-refused, unpriv-gem-open-refused: GEM_FLINK of its own
 *   buffer and GEM_OPEN of a name root made of its canary are EACCES;
 * - unpriv-foreign-handle: a relocation naming root's handle number is
 *   ENOENT;
 * - unpriv-foreign-mmap: mmap of root's buffer's fake offset is EACCES;
 * - unpriv-canary: root's canary buffer holds every byte afterwards.
 *
 * The child reports over a pipe ("P name" / "F name reason" lines) and the
 * parent records the verdicts: the results file is root's.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e1t.h"

#define UP_UID		65534
/* the node's group when the guest has no "render" in /etc/group */
#define UP_GID_FALLBACK	990
#define CANARY_SIZE	16384
#define CANARY_BYTE	0x5a

struct up_ctx {
	struct e1t_dev root;		/* root's file */
	struct e1t_bo pad[4];		/* make the canary's handle number high */
	struct e1t_bo canary;		/* root's buffer */
	uint32_t flink_name;		/* its GEM_FLINK name */
	uint64_t mmap_offset;		/* its fake offset */
	gid_t gid;			/* the node's group */
	int rep;			/* the child's end of the pipe */
};

static void up_report(const struct up_ctx *x, char verdict, const char *name,
		      const char *fmt, ...)
{
	char line[320];
	va_list ap;
	int len;

	len = snprintf(line, sizeof(line), "%c %s ", verdict, name);
	if (len < 0 || (size_t)len >= sizeof(line))
		return;
	va_start(ap, fmt);
	vsnprintf(line + len, sizeof(line) - (size_t)len, fmt, ap);
	va_end(ap);
	len = (int)strnlen(line, sizeof(line) - 2);
	line[len++] = '\n';
	if (write(x->rep, line, (size_t)len) != len)
		_exit(3);
}

#define UP_PASS(x, n)		up_report(x, 'P', n, "%s", "")
#define UP_FAIL(x, n, ...)	up_report(x, 'F', n, __VA_ARGS__)

/*
 * The gid of "render" from /etc/group, read by hand: the program is static,
 * and getgrnam() would need glibc's NSS modules at run time.
 */
static gid_t up_render_gid(void)
{
	FILE *f = fopen("/etc/group", "re");
	char line[512], *pw, *end;
	gid_t gid = UP_GID_FALLBACK;
	unsigned long v;

	if (!f)
		return gid;
	/* render:PASSWORD:GID:MEMBERS, the password possibly empty */
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "render:", 7) || !(pw = strchr(line + 7, ':')))
			continue;
		v = strtoul(pw + 1, &end, 10);
		if (end != pw + 1 && *end == ':')
			gid = (gid_t)v;
		break;
	}
	fclose(f);
	return gid;
}

/* Drop to UP_UID with @groups (0 or 1 entries); 0 or -errno. */
static int up_drop(const gid_t *groups, size_t ngroups)
{
	if (setgroups(ngroups, groups) || setgid(UP_UID) || setuid(UP_UID))
		return -errno;
	/* no way back */
	if (setuid(0) == 0)
		return -EPERM;
	return 0;
}

/* A matmul of the child's own buffers, against the CPU reference. */
static void up_job(const struct up_ctx *x, struct e1t_dev *d)
{
	const char *n = "unpriv-job-runs";
	struct e1t_bo a = { 0 }, b = { 0 }, c = { 0 };
	int32_t want[16 * 16];
	struct e1npu_hw_op op;
	struct e1t_result r;
	uint32_t seed = 77;
	int ret;

	if (e1t_bo_new(d, 4096, &a) || e1t_bo_new(d, 4096, &b) ||
	    e1t_bo_new(d, 4096, &c)) {
		UP_FAIL(x, n, "BO_CREATE/mmap failed");
		goto out;
	}
	e1t_fill_s8(a.map, 256, &seed);
	e1t_fill_s8(b.map, 256, &seed);
	e1t_ref_matmul((const int8_t *)a.map, 16, (const int8_t *)b.map, 16,
		       want, 16, 16, 16, 16, false);
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_MATMUL_S8;
	op.m = op.n = op.k = 16;
	op.a = e1t_t(&a, 0, 16);
	op.b = e1t_t(&b, 0, 16);
	op.c = e1t_t(&c, 0, 64);
	ret = e1t_run(d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &r);
	if (ret)
		UP_FAIL(x, n, "e1t_run: %d (state %u error %d)", ret, r.state,
			r.error);
	else if (memcmp(c.map, want, sizeof(want)))
		UP_FAIL(x, n, "C differs from the CPU reference");
	else
		UP_PASS(x, n);
out:
	e1t_bo_free(d, &a);
	e1t_bo_free(d, &b);
	e1t_bo_free(d, &c);
}

/* FLINK and GEM_OPEN: DRM_AUTH ioctls, which an accel node grants root only. */
static void up_flink(const struct up_ctx *x, struct e1t_dev *d)
{
	struct drm_gem_flink fl = { 0 };
	struct drm_gem_open go = { 0 };
	struct e1t_bo own = { 0 };
	int ret;

	if (e1t_bo_new(d, 4096, &own)) {
		UP_FAIL(x, "unpriv-flink-refused", "BO_CREATE failed");
	} else {
		fl.handle = own.handle;
		ret = e1t_ioctl(d->fd, DRM_IOCTL_GEM_FLINK, &fl);
		if (ret != -EACCES)
			UP_FAIL(x, "unpriv-flink-refused", "returned %d (name %u), want -EACCES",
				ret, fl.name);
		else
			UP_PASS(x, "unpriv-flink-refused");
		e1t_bo_free(d, &own);
	}
	go.name = x->flink_name;
	ret = e1t_ioctl(d->fd, DRM_IOCTL_GEM_OPEN, &go);
	if (ret != -EACCES)
		UP_FAIL(x, "unpriv-gem-open-refused",
			"GEM_OPEN of root's name %u returned %d (handle %u), want -EACCES",
			x->flink_name, ret, go.handle);
	else
		UP_PASS(x, "unpriv-gem-open-refused");
}

/* Root's handle number in a relocation, and root's mmap offset. */
static void up_foreign(const struct up_ctx *x, struct e1t_dev *d)
{
	struct e1t_bo a = { 0 }, c = { 0 };
	struct e1npu_hw_op op;
	struct e1t_job job;
	void *p;
	int ret;

	/* this fresh file has no handle as high as root's canary */
	if (e1t_bo_new(d, 4096, &a) || e1t_bo_new(d, 4096, &c) ||
	    a.handle == x->canary.handle || c.handle == x->canary.handle) {
		UP_FAIL(x, "unpriv-foreign-handle", "setup: handles %u %u, root's %u",
			a.handle, c.handle, x->canary.handle);
	} else {
		memset(&op, 0, sizeof(op));
		op.opcode = E1NPU_HWOP_MATMUL_S8;
		op.m = op.n = op.k = 16;
		op.a = e1t_t(&a, 0, 16);
		op.b = e1t_t(&x->canary, 0, 16);	/* root's handle number */
		op.c = e1t_t(&c, 0, 64);
		ret = e1t_submit(d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &job);
		if (ret != -ENOENT)
			UP_FAIL(x, "unpriv-foreign-handle", "SUBMIT returned %d, want -ENOENT", ret);
		else
			UP_PASS(x, "unpriv-foreign-handle");
	}
	e1t_bo_free(d, &a);
	e1t_bo_free(d, &c);

	p = mmap(NULL, CANARY_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd,
		 (off_t)x->mmap_offset);
	if (p != MAP_FAILED) {
		memset(p, 0, CANARY_SIZE);
		munmap(p, CANARY_SIZE);
		UP_FAIL(x, "unpriv-foreign-mmap", "mmap of root's offset 0x%llx succeeded",
			(unsigned long long)x->mmap_offset);
	} else if (errno != EACCES) {
		UP_FAIL(x, "unpriv-foreign-mmap", "mmap: %s, want EACCES", strerror(errno));
	} else {
		UP_PASS(x, "unpriv-foreign-mmap");
	}
}

/* The child: everything after the privileges are gone. */
static int up_child(const struct up_ctx *x, bool with_group)
{
	struct e1t_dev d;
	int ret;

	/* root's file is root's: the child must not use the inherited one */
	close(x->root.fd);
	ret = up_drop(&x->gid, with_group ? 1 : 0);
	if (ret) {
		UP_FAIL(x, "unpriv-drop", "setgroups/setgid/setuid: %s", strerror(-ret));
		return 1;
	}
	ret = e1t_open(&d);
	if (!with_group) {
		if (ret != -EACCES)
			UP_FAIL(x, "unpriv-node-closed-without-group",
				"open as uid %d without the group: %d, want -EACCES", UP_UID, ret);
		else
			UP_PASS(x, "unpriv-node-closed-without-group");
		if (!ret)
			e1t_close(&d);
		return 0;
	}
	if (ret) {
		UP_FAIL(x, "unpriv-open-render-group", "open/DEV_QUERY: %s", strerror(-ret));
		return 1;
	}
	UP_PASS(x, "unpriv-open-render-group");
	up_job(x, &d);
	up_flink(x, &d);
	up_foreign(x, &d);
	e1t_close(&d);
	return 0;
}

/* Fork the child, record the verdicts it sends. */
static void up_run(struct up_ctx *x, bool with_group)
{
	char buf[4096], *line, *save;
	size_t used = 0;
	int p[2], st = 0;
	ssize_t got;
	pid_t pid;

	if (pipe(p)) {
		e1t_fail("unpriv-fork", "pipe: %s", strerror(errno));
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		e1t_fail("unpriv-fork", "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return;
	}
	if (pid == 0) {
		close(p[0]);
		x->rep = p[1];
		_exit(up_child(x, with_group));
	}
	close(p[1]);
	while (used < sizeof(buf) - 1 &&
	       (got = read(p[0], buf + used, sizeof(buf) - 1 - used)) > 0)
		used += (size_t)got;
	close(p[0]);
	buf[used] = '\0';
	waitpid(pid, &st, 0);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *name = line + 2, *why = strchr(name, ' ');

		if (why)
			*why++ = '\0';
		if (line[0] == 'P')
			e1t_pass(name);
		else
			e1t_fail(name, "%s", why ? why : "");
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		e1t_fail(with_group ? "unpriv-child" : "unpriv-child-nogroup",
			 "child status 0x%x", st);
}

int e1t_group_unpriv(void)
{
	const char *path = e1t_dev_path();
	struct drm_e1npu_bo_mmap_offset mo = { 0 };
	struct drm_gem_flink fl = { 0 };
	struct up_ctx x = { 0 };
	struct stat st0;
	int ret;

	if (geteuid() != 0) {
		e1t_skip("unpriv", "needs root to drop privileges (euid %d)", (int)geteuid());
		return 0;
	}
	if (stat(path, &st0)) {
		e1t_fail("unpriv-setup", "stat %s: %s", path, strerror(errno));
		return 1;
	}
	/* the child opens the node root resolved */
	if (setenv("E1T_DEV", path, 0)) {
		e1t_fail("unpriv-setup", "setenv: %s", strerror(errno));
		return 1;
	}
	x.gid = up_render_gid();
	ret = e1t_open(&x.root);
	/* root's handles 1-4 are pads: the child's fresh file has only 1-2 */
	for (size_t i = 0; !ret && i < E1T_ARRAY_SIZE(x.pad); i++)
		ret = e1t_bo_new(&x.root, 4096, &x.pad[i]);
	if (!ret)
		ret = e1t_bo_new(&x.root, CANARY_SIZE, &x.canary);
	if (ret) {
		e1t_fail("unpriv-setup", "root's file: %s", strerror(-ret));
		return 1;
	}
	memset(x.canary.map, CANARY_BYTE, CANARY_SIZE);
	fl.handle = x.canary.handle;
	mo.handle = x.canary.handle;
	/* root may name its buffer: the child must not be able to open it */
	if (e1t_ioctl(x.root.fd, DRM_IOCTL_GEM_FLINK, &fl) ||
	    e1t_ioctl(x.root.fd, DRM_IOCTL_E1NPU_BO_MMAP_OFFSET, &mo)) {
		e1t_fail("unpriv-setup", "root's GEM_FLINK / BO_MMAP_OFFSET failed");
		goto out;
	}
	x.flink_name = fl.name;
	x.mmap_offset = mo.offset;

	/* the node as devtmpfs makes it (root only), then as the rule makes it */
	if (chown(path, 0, 0) || chmod(path, 0600)) {
		e1t_fail("unpriv-setup", "chown/chmod %s: %s", path, strerror(errno));
		goto out;
	}
	up_run(&x, false);
	if (chown(path, 0, x.gid) || chmod(path, 0660)) {
		e1t_fail("unpriv-setup", "chown/chmod %s: %s", path, strerror(errno));
		goto restore;
	}
	up_run(&x, true);
restore:
	if (chown(path, st0.st_uid, st0.st_gid) || chmod(path, st0.st_mode & 07777))
		e1t_fail("unpriv-restore", "%s: %s", path, strerror(errno));
out:
	/* nothing the child did reached root's buffer */
	for (size_t i = 0; i < CANARY_SIZE; i++)
		if (x.canary.map[i] != CANARY_BYTE) {
			e1t_fail("unpriv-canary", "byte %zu is 0x%02x, want 0x%02x", i,
				 x.canary.map[i], CANARY_BYTE);
			goto close;
		}
	e1t_pass("unpriv-canary");
close:
	e1t_bo_free(&x.root, &x.canary);
	for (size_t i = 0; i < E1T_ARRAY_SIZE(x.pad); i++)
		e1t_bo_free(&x.root, &x.pad[i]);
	e1t_close(&x.root);
	return e1t_failures ? 1 : 0;
}

// SPDX-License-Identifier: MIT
/*
 * Kernel uevents, as udev sees them: a NETLINK_KOBJECT_UEVENT socket bound
 * to the kernel's multicast group, opened before the event and read after
 * it. Each message is "ACTION@DEVPATH" followed by NUL-separated KEY=VALUE
 * pairs.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "e1t.h"

int e1t_uevent_open(void)
{
	struct sockaddr_nl sa;
	int fd, rcvbuf = 1 << 20;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return -errno;
	/* a burst of other events must not push ours out */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	sa.nl_groups = 1;	/* the kernel's uevents */
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* has_pair MSG LEN KV: one of MSG's NUL-separated fields is KV */
static bool has_pair(const char *msg, size_t len, const char *kv)
{
	size_t i = 0;

	while (i < len) {
		size_t n = strnlen(msg + i, len - i);

		if (n == strlen(kv) && !memcmp(msg + i, kv, n))
			return true;
		i += n + 1;
	}
	return false;
}

/* has_prefix MSG LEN PREFIX: one of MSG's fields starts with PREFIX */
static bool has_prefix(const char *msg, size_t len, const char *prefix)
{
	size_t i = 0, p = strlen(prefix);

	while (i < len) {
		size_t n = strnlen(msg + i, len - i);

		if (n >= p && !memcmp(msg + i, prefix, p))
			return true;
		i += n + 1;
	}
	return false;
}

int e1t_uevent_wait(int fd, const char *kv1, const char *kv2,
		    const char *prefix, int timeout_ms, char *found,
		    size_t found_len)
{
	uint64_t end = e1t_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	char msg[8192];

	for (;;) {
		uint64_t now = e1t_now_ns();
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int r;

		if (now >= end)
			return -ETIME;
		r = poll(&p, 1, (int)((end - now) / 1000000ull) + 1);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r <= 0)
			continue;
		n = recv(fd, msg, sizeof(msg) - 1, MSG_DONTWAIT);
		if (n <= 0)
			continue;
		msg[n] = '\0';
		if (has_pair(msg, n, kv1) && (!kv2 || has_pair(msg, n, kv2)) &&
		    (!prefix || has_prefix(msg, n, prefix))) {
			if (found) {
				strncpy(found, msg, found_len - 1);
				found[found_len - 1] = '\0';
			}
			return 0;
		}
	}
}

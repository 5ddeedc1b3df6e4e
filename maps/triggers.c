// SPDX-License-Identifier: GPL-2.0
/*
 * map_perf_test's triggers: what every worker repeats, a syscall the
 * test's program is attached to, or connect(-1) with the test's case in
 * its address.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include "maps/map_perf.h"

static void syscall_loop(long nr, __u64 count)
{
	__u64 i;

	/*
	 * the 0 is getpgid's "self", ignored by the others: a syscall added
	 * here is one that 0 as its first argument suits
	 */
	for (i = 0; i < count; i++)
		syscall(nr, 0);
}

#define SYSCALL_TRIGGER(sc)						\
void sc##_run(void *state, __u64 count)					\
{									\
	syscall_loop(__NR_##sc, count);					\
}

SYSCALL_TRIGGER(getuid)
SYSCALL_TRIGGER(geteuid)
SYSCALL_TRIGGER(getgid)
SYSCALL_TRIGGER(getegid)
SYSCALL_TRIGGER(gettid)
SYSCALL_TRIGGER(getpgid)
SYSCALL_TRIGGER(getppid)

static void connect_addr(struct sockaddr_in6 *in6, __u16 tcase)
{
	memset(in6, 0, sizeof(*in6));
	in6->sin6_family = AF_INET6;
	in6->sin6_addr.s6_addr16[0] = CONNECT_MAGIC0;
	in6->sin6_addr.s6_addr16[1] = CONNECT_MAGIC1;
	in6->sin6_addr.s6_addr16[2] = tcase;
}

/* the tests need connect(-1) to fail early, not to reach the network */
int connect_setup(void **state)
{
	struct sockaddr_in6 in6;

	connect_addr(&in6, CASE_LRU_HASH);
	if (!connect(-1, (struct sockaddr *)&in6, sizeof(in6)))
		return -EPROTO;
	return errno == EBADF ? 0 : -errno;
}

static void connect_loop(__u16 tcase, __u64 count)
{
	struct sockaddr_in6 in6;
	__u64 i;

	connect_addr(&in6, tcase);
	for (i = 0; i < count; i++)
		connect(-1, (struct sockaddr *)&in6, sizeof(in6));
}

#define CONNECT_TRIGGER(name, tcase)					\
void name##_run(void *state, __u64 count)				\
{									\
	connect_loop(tcase, count);					\
}

CONNECT_TRIGGER(lru_hash, CASE_LRU_HASH)
CONNECT_TRIGGER(nocommon_lru_hash, CASE_NOCOMMON_LRU_HASH)
CONNECT_TRIGGER(inner_lru_hash, CASE_INNER_LRU_HASH)

/*
 * The next 32 keys each time, back to 0 before a span would pass the
 * range. The key outlives the call: with -d the loop comes in chunks, and
 * the walk must go on as in one call for the hits expected of it. Each
 * worker is a process of its own, forked with the key at 0. The range,
 * in @state, is the row's: 32 keys, or its map's size when larger (as
 * upstream); a base row has none.
 */
void lru_hash_lookup_run(void *state, __u64 count)
{
	__u32 lru_lookup_range = state ? *(__u32 *)state : LRU_LOOKUP_SPAN;
	static __u32 key;
	struct sockaddr_in6 in6;
	__u64 i;

	connect_addr(&in6, CASE_LRU_HASH_LOOKUP);
	for (i = 0; i < count; i++) {
		in6.sin6_addr.s6_addr32[3] = key;
		connect(-1, (struct sockaddr *)&in6, sizeof(in6));
		key = key + 2 * LRU_LOOKUP_SPAN <= lru_lookup_range ?
		      key + LRU_LOOKUP_SPAN : 0;
	}
}

// SPDX-License-Identifier: GPL-2.0
/* Before load: whether this kernel creates a map as it is defined. */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "core/core.h"

/* a small map of @map's definition, with or without its flags */
static int try_map_create(struct bpf_map *map, __u32 flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags);
	int fd;

	/* small: only the type and the flags are in question */
	fd = bpf_map_create(bpf_map__type(map), NULL, bpf_map__key_size(map),
			    bpf_map__value_size(map), 1, &opts);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int probe_map(struct bpf_map *map, struct outcome *out)
{
	enum bpf_map_type type = bpf_map__type(map);
	__u32 flags = bpf_map__map_flags(map);
	const char *tname = libbpf_bpf_map_type_str(type);
	struct bpf_map *inner = bpf_map__inner_map(map);
	int err;

	if (libbpf_probe_bpf_map_type(type, NULL) == 0) {
		outcome_set(out, ST_SKIPPED,
			    "kernel has no BPF_MAP_TYPE_%s maps (%s)",
			    tname ? tname : "?", bpf_map__name(map));
		return -EOPNOTSUPP;
	}
	/* a map of maps is probed through the maps it holds */
	if (inner)
		return probe_map(inner, out);
	if (!flags)
		return 0;
	err = try_map_create(map, flags);
	if (err != -EINVAL && err != -EOPNOTSUPP && err != -ENOTSUPP)
		return 0;	/* created, or a failure load will report */
	/* invalid only with the flags: the kernel does not take them */
	if (try_map_create(map, 0))
		return 0;
	outcome_set(out, ST_SKIPPED,
		    "kernel refuses map_flags 0x%x on %s maps (%s): %s", flags,
		    tname ? tname : "?", bpf_map__name(map), strerror(-err));
	return -EOPNOTSUPP;
}

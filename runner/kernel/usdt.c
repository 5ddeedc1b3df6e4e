// SPDX-License-Identifier: GPL-2.0
/* The ELF notes of USDT probes: where a probe of an ELF file is. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include "bench.h"

/* an NT_STAPSDT note: three addresses, then provider, name and args */
#define NT_STAPSDT	3

static int usdt_scan(Elf *elf, const char *provider, const char *name,
		     __u64 *pc, int *nr)
{
	size_t shstrndx, off, name_off, desc_off, addr_sz;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Nhdr nh;
	Elf_Data *d;
	const char *sec, *desc;

	addr_sz = gelf_getclass(elf) == ELFCLASS32 ? 4 : 8;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return -EINVAL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		sec = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!sec || strcmp(sec, ".note.stapsdt"))
			continue;
		d = elf_getdata(scn, NULL);
		for (off = 0; d && (off = gelf_getnote(d, off, &nh, &name_off,
						       &desc_off));) {
			desc = (const char *)d->d_buf + desc_off;
			if (nh.n_type != NT_STAPSDT ||
			    nh.n_descsz < 3 * addr_sz + 2 ||
			    strcmp((const char *)d->d_buf + name_off, "stapsdt") ||
			    strcmp(desc + 3 * addr_sz, provider) ||
			    strcmp(desc + 3 * addr_sz + strlen(provider) + 1, name))
				continue;
			if (!(*nr)++) {
				*pc = 0;
				memcpy(pc, desc, addr_sz);	/* little-endian */
			}
		}
	}
	return *nr ? 0 : -ENOENT;
}

int usdt_note_find(const char *path, const char *provider, const char *name,
		   __u64 *pc, int *nr)
{
	Elf *elf;
	int fd, err;

	*nr = 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	err = elf ? usdt_scan(elf, provider, name, pc, nr) : -EINVAL;
	elf_end(elf);
	close(fd);
	return err;
}

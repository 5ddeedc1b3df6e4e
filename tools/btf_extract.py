#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Cut the kernel's own BTF out of a kernel image.

Usage: tools/btf_extract.py IMAGE OUT

IMAGE is a raw kernel Image (arm64's boot/vmlinuz in Debian) or the same
gzip'ed. The .BTF section is in the image as it is in memory: a struct
btf_header (magic 0xeB9F, version 1) then the type and string sections.
Every candidate with the magic is checked: its header must be consistent
with the file, and walking its type section record by record must end
exactly at its length, with a string section that starts and ends with a
NUL. The largest valid blob is written to OUT, ready for
`bpftool btf dump file OUT format c`.
"""
import gzip
import struct
import sys

BTF_MAGIC = b"\x9f\xeb"         # 0xeB9F, little-endian
HDR = struct.Struct("<HBBIIIII")  # magic version flags hdr_len type_off/len str_off/len

# bytes following the 12-byte struct btf_type, per kind: fixed + vlen * each
KIND_EXTRA = {
	1: (4, 0),      # INT
	2: (0, 0),      # PTR
	3: (12, 0),     # ARRAY
	4: (0, 12),     # STRUCT
	5: (0, 12),     # UNION
	6: (0, 8),      # ENUM
	7: (0, 0),      # FWD
	8: (0, 0),      # TYPEDEF
	9: (0, 0),      # VOLATILE
	10: (0, 0),     # CONST
	11: (0, 0),     # RESTRICT
	12: (0, 0),     # FUNC
	13: (0, 8),     # FUNC_PROTO
	14: (4, 0),     # VAR
	15: (0, 12),    # DATASEC
	16: (0, 0),     # FLOAT
	17: (4, 0),     # DECL_TAG
	18: (0, 0),     # TYPE_TAG
	19: (0, 12),    # ENUM64
}


def walk_types(data, start, length, str_len):
	"""Number of types in the section, or None if it does not parse."""
	pos, end, n = start, start + length, 0
	while pos < end:
		if pos + 12 > end:
			return None
		name_off, info, _ = struct.unpack_from("<III", data, pos)
		kind = (info >> 24) & 0x1f
		vlen = info & 0xffff
		if kind not in KIND_EXTRA or name_off >= str_len:
			return None
		fixed, each = KIND_EXTRA[kind]
		pos += 12 + fixed + vlen * each
		n += 1
	return n if pos == end else None


def check(data, off):
	"""(total size, number of types) of a valid BTF blob at off, or None."""
	if off + HDR.size > len(data):
		return None
	(_, version, flags, hdr_len, type_off, type_len,
	 str_off, str_len) = HDR.unpack_from(data, off)
	if version != 1 or flags != 0:
		return None
	if hdr_len < HDR.size or hdr_len > 256 or hdr_len % 4:
		return None
	if type_off % 4 or type_len == 0 or str_len == 0:
		return None
	if str_off < type_off + type_len and type_off < str_off + str_len:
		return None     # the sections overlap
	size = hdr_len + max(type_off + type_len, str_off + str_len)
	if off + size > len(data):
		return None
	# a longer header must be zero-filled past what we know
	if any(data[off + HDR.size:off + hdr_len]):
		return None
	strs = off + hdr_len + str_off
	if data[strs] != 0 or data[strs + str_len - 1] != 0:
		return None
	n = walk_types(data, off + hdr_len + type_off, type_len, str_len)
	if not n:
		return None
	return size, n


def find_btf(data):
	best = None
	off = data.find(BTF_MAGIC)
	while off >= 0:
		found = check(data, off)
		if found and (best is None or found[0] > best[1]):
			best = (off, found[0], found[1])
		off = data.find(BTF_MAGIC, off + 1)
	return best


def main(argv):
	if len(argv) != 3:
		sys.stderr.write("usage: btf_extract.py IMAGE OUT\n")
		return 2
	with open(argv[1], "rb") as f:
		data = f.read()
	if data[:2] == b"\x1f\x8b":
		data = gzip.decompress(data)
	best = find_btf(data)
	if best is None:
		sys.stderr.write("btf_extract: no valid BTF blob in %s "
				 "(is it a raw or gzip'ed Image built with "
				 "CONFIG_DEBUG_INFO_BTF=y?)\n" % argv[1])
		return 1
	off, size, ntypes = best
	with open(argv[2], "wb") as f:
		f.write(data[off:off + size])
	print("btf_extract: %s: %d bytes of BTF, %d types, at offset 0x%x"
	      % (argv[1], size, ntypes, off))
	return 0


if __name__ == "__main__":
	sys.exit(main(sys.argv))

"""Checks that every row of a .kiln manifest's "files" carries a CRC-32 and
an XXH3-64 (16 lowercase hex digits) that match the entry's bytes, hashing
them independently of kiln: zlib's CRC-32, and xxhash's XXH3 through ctypes
(Debian's libxxhash0)."""
import ctypes
import json
import re
import sys
import zipfile
import zlib

xxhash = ctypes.CDLL("libxxhash.so.0")
xxhash.XXH3_64bits.restype = ctypes.c_uint64
xxhash.XXH3_64bits.argtypes = [ctypes.c_char_p, ctypes.c_size_t]

with zipfile.ZipFile(sys.argv[1]) as archive:
    manifest = json.loads(archive.read("manifest.json"))
    rows = manifest["files"]
    for row in rows:
        data = archive.read(row["name"])
        assert row["size"] == len(data), row
        assert row["crc32"] == zlib.crc32(data), row
        assert re.fullmatch("[0-9a-f]{16}", row["xxh3"]), row
        assert int(row["xxh3"], 16) == xxhash.XXH3_64bits(data, len(data)), row
print("%d files, each with crc32 and xxh3 matching its data" % len(rows))

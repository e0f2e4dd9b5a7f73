#!/usr/bin/python3
"""Writes a damaged copy of a .kiln archive, for tests of the runtime's checks.

Usage: corrupt_archive.py MODE IN OUT [ARGS...]

  truncate IN OUT SIZE        the first SIZE bytes of IN (a negative SIZE
                              counts from the end: -1 drops the last byte)
  flip IN OUT ENTRY           IN with one byte of ENTRY's data inverted (the
                              middle byte), so its CRC-32 no longer matches
  version IN OUT MAJOR MINOR  the manifest's format_version set to
                              [MAJOR, MINOR]
  features IN OUT F1,F2,...   the features of every code object in the
                              manifest's targets.cpu replaced
  format1 IN OUT              the manifest rewritten as format 1.0 wrote
                              it: targets.cpu is the first code object alone,
                              without its name
  delete IN OUT ENTRY         IN without ENTRY (the manifest still lists it)
  manifest IN OUT CODE [OLD NEW]
                              the manifest edited by the Python statements
                              CODE, which see it as `m`; then, in its text,
                              the first OLD replaced by the value of the
                              Python expression NEW (for what json.dumps
                              cannot write, such as arrays nested 100,000
                              deep)

`version`, `features`, `delete` and `manifest` rebuild the zip with Python's zipfile
(ZIP_STORED, each entry's data 64-byte aligned by padding in its local
header's extra field, as kiln compile aligns weights) and recompute nothing
but the zip's own CRCs: the manifest's `files` table is left as it was. `truncate` and `flip`
edit the bytes in place, so everything else about the archive is unchanged.
"""
import json
import struct
import sys
import zipfile


def entry_data_offset(data, name):
    """Where ENTRY's data starts in the archive bytes."""
    with zipfile.ZipFile(IN) as archive:
        info = archive.getinfo(name)
    local = info.header_offset
    name_size = int.from_bytes(data[local + 26:local + 28], "little")
    extra_size = int.from_bytes(data[local + 28:local + 30], "little")
    return local + 30 + name_size + extra_size, info.file_size


def aligned(target, name):
    """A ZipInfo for `name` whose data, written next into `target`, starts
    at a multiple of 64: a local header is 30 bytes, then the name, then
    the extra field, which holds the padding (header id 0xd935, as
    zipalign writes it)."""
    info = zipfile.ZipInfo(name)
    info.compress_type = zipfile.ZIP_STORED
    start = target.fp.tell() + 30 + len(name.encode()) + 4
    pad = -start % 64
    info.extra = struct.pack("<HH", 0xd935, pad) + bytes(pad)
    return info


def rebuild(transform):
    """Copies IN to OUT entry by entry; transform(name, bytes) returns the new
    bytes, or None to leave the entry out."""
    with zipfile.ZipFile(IN) as source, \
            zipfile.ZipFile(OUT, "w", zipfile.ZIP_STORED) as target:
        for info in source.infolist():
            data = transform(info.filename, source.read(info))
            if data is not None:
                target.writestr(aligned(target, info.filename), data)


def edit_manifest(edit, old=None, new=None):
    def transform(name, data):
        if name != "manifest.json":
            return data
        manifest = json.loads(data)
        edit(manifest)
        text = json.dumps(manifest, indent=2)
        if old is not None:
            assert old in text, "%r is not in the manifest" % old
            text = text.replace(old, new, 1)
        return text.encode()
    rebuild(transform)


def main():
    global IN, OUT
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    mode, IN, OUT, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    with open(IN, "rb") as f:
        data = bytearray(f.read())

    if mode == "truncate":
        size = int(args[0])
        assert -len(data) <= size < len(data), \
            "SIZE %d does not truncate a file of %d bytes" % (size, len(data))
        with open(OUT, "wb") as f:
            f.write(data[:size])
    elif mode == "flip":
        offset, size = entry_data_offset(data, args[0])
        assert size > 0, "cannot flip a byte of an empty entry"
        data[offset + size // 2] ^= 0xff
        with open(OUT, "wb") as f:
            f.write(data)
    elif mode == "version":
        edit_manifest(lambda m: m.__setitem__(
            "format_version", [int(args[0]), int(args[1])]))
    elif mode == "features":
        def set_features(m):
            for variant in m["targets"]["cpu"]:
                variant["features"] = args[0].split(",") if args[0] else []
        edit_manifest(set_features)
    elif mode == "format1":
        def to_format1(m):
            m["format_version"] = [1, 0]
            m["targets"]["cpu"] = m["targets"]["cpu"][0]
            del m["targets"]["cpu"]["name"]
        edit_manifest(to_format1)
    elif mode == "manifest":
        edit_manifest(lambda m: exec(args[0], {"m": m}),
                      *(args[1:2] + [eval(args[2])] if len(args) > 1 else []))
    elif mode == "delete":
        rebuild(lambda name, d: None if name == args[0] else d)
    else:
        sys.exit("unknown mode '%s'\n%s" % (mode, __doc__))


if __name__ == "__main__":
    main()

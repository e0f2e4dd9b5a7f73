"""Prints an archive's format_version and each entry's args, one line each,
for FileCheck."""
import json
import sys
import zipfile

manifest = json.loads(zipfile.ZipFile(sys.argv[1]).read("manifest.json"))
print("format_version", manifest["format_version"])
for entry in manifest["entries"]:
    print(entry["name"], json.dumps(entry["args"]))

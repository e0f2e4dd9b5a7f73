"""Prints the fenced code block that follows the line
`<!-- from NAME -->` in a Markdown file: `doc_block.py FILE.md NAME`."""
import sys

lines = open(sys.argv[1]).read().splitlines()
marker = f"<!-- from {sys.argv[2]} -->"
start = lines.index(marker) + 2  # past the marker and the opening fence
end = lines.index("```", start)
print("\n".join(lines[start:end]))

"""Text and positions: decoding, the line index, and JSON nodes with spans."""

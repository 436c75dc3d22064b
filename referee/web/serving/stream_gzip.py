"""A page's stream of server-sent events, gzipped when the browser takes it (issue 40): a tournament's wall and
standings are 50–60 KB of HTML at 300 entrants, sent at each redraw to every phone and screen that follows them
(two thousand at a national evening); gzipped, a tenth of that or less (62 KB: 3 KB with
``tests/support/big_round.py``'s names).

Each event is compressed once for every stream that sends it (``deflated``: the same bytes, kept), as a piece of
deflate data of its own, flushed to a byte's boundary (``Z_SYNC_FLUSH``) so that the browser reads it at once; a
stream is the gzip header, those pieces one after the other (each begins afresh: it refers to nothing sent before),
and, when the server ends it, the last block and the trailer (its CRC-32 and length, counted per stream). nginx and
the browsers pass or decode it as any gzipped answer (``X-Accel-Buffering: no`` keeps nginx from holding it).
"""
from __future__ import annotations

import struct
import zlib
from typing import Iterator

from referee.web.serving.compression import LEVEL

HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # gzip, deflate, no name, no time, unknown system
LAST_BLOCK = b"\x03\x00"  # an empty final block (fixed Huffman codes)
KEPT = 64  # events kept compressed per process (all dropped when full: compressed again at their next sending)
_kept: dict[bytes, bytes] = {}


def deflated(chunk: bytes) -> bytes:
    """``chunk`` as deflate data of its own, flushed to a byte's boundary; the same bytes for every stream."""
    made = _kept.get(chunk)
    if made is None:
        squeezer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
        made = squeezer.compress(chunk) + squeezer.flush(zlib.Z_SYNC_FLUSH)
        if len(_kept) >= KEPT:
            _kept.clear()
        _kept[chunk] = made
    return made


def gzipped(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """The stream ``chunks`` as one gzip member: its header, each chunk deflated, then (the stream ended by the
    server) the last block and the trailer."""
    crc, size = 0, 0
    try:
        yield HEADER
        for chunk in chunks:
            crc, size = zlib.crc32(chunk, crc), size + len(chunk)
            yield deflated(chunk)
        yield LAST_BLOCK + struct.pack("<II", crc, size & 0xFFFFFFFF)
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()  # the stream's own ending (its place given back) runs now, not when collected

#!/usr/bin/env python3
"""Hand-built edge-case files, written field by field with a comment on every field.

This module is meant to be read: each function builds one tiny file literally, so that a reader
can follow the format byte by byte. The only computed values are checksums (PNG CRC-32, zlib
Adler-32) and the LSB-first packing of GIF LZW codes, whose inputs are spelled out code by code.

`write_all(outdir)` writes every case into outdir/ (png/, gif/, jpeg/, tiff/) and returns the
manifest rows (relative path, format, expectation, notes). Running it alone writes into
Conformance/generated/handmade:  python3 Conformance/handmade.py [OUTDIR]
Nothing here depends on time or randomness, so the output is byte-identical on every run.
"""
import os
import struct
import sys
import zlib


def be16(v): return struct.pack(">H", v)
def be32(v): return struct.pack(">I", v)
def le16(v): return struct.pack("<H", v)
def le32(v): return struct.pack("<I", v)


# ============================================================================================
# PNG
# ============================================================================================
PNG_SIGNATURE = (
    b"\x89"        # high bit set: detects 7-bit transports
    b"PNG"         # the name
    b"\r\n"        # DOS line ending: detects CRLF -> LF conversion
    b"\x1a"        # Ctrl-Z: stops `type` on DOS
    b"\n"          # Unix line ending: detects LF -> CRLF conversion
)


def png_chunk(kind, data, crc=None):
    """A chunk: 4-byte big-endian data length, 4-byte type, data, CRC-32 over type + data."""
    return (be32(len(data))                                   # length of the data field only
            + kind                                            # chunk type, 4 ASCII letters
            + data                                            # chunk data
            + be32(zlib.crc32(kind + data) if crc is None else crc))  # CRC (or a forced bad one)


def ihdr(width, height, depth, color_type, interlace=0):
    return png_chunk(b"IHDR",
                     be32(width)          # width in pixels (1 .. 2^31-1; 0 is invalid)
                     + be32(height)       # height in pixels
                     + bytes([depth])     # bits per sample: 1, 2, 4, 8 or 16
                     + bytes([color_type])  # 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA
                     + b"\x00"            # compression method: 0 = zlib/deflate (only one)
                     + b"\x00"            # filter method: 0 = the five adaptive filters
                     + bytes([interlace]))  # 0 = none, 1 = Adam7


IEND = png_chunk(b"IEND", b"")  # empty terminating chunk; its CRC is always AE 42 60 82


def zlib_stored(raw):
    """A zlib stream holding `raw` in one *stored* (uncompressed) deflate block."""
    return (b"\x78"                      # CMF: method 8 (deflate), window 2^(7+8) = 32 KiB
            + b"\x01"                    # FLG: no preset dictionary, level 0; (CMF*256+FLG) % 31 == 0
            + b"\x01"                    # block header: BFINAL=1, BTYPE=00 (stored), rest padding
            + le16(len(raw))             # LEN: number of stored bytes (little-endian!)
            + le16(len(raw) ^ 0xFFFF)    # NLEN: one's complement of LEN
            + raw                        # the bytes themselves
            + be32(zlib.adler32(raw)))   # Adler-32 of the uncompressed data, big-endian


def png_minimal_1x1():
    raw = (b"\x00"        # scanline 0: filter type 0 (None)
           b"\x80")       # the one gray sample: 128
    idat = (b"\x78\x01"   # zlib header (see zlib_stored)
            b"\x01"       # stored block, final
            b"\x02\x00"   # LEN = 2
            b"\xfd\xff"   # NLEN = ~2
            + raw         # 00 80
            + b"\x00\x82\x00\x81")  # Adler-32: s2 = 1+0x81 = 0x82, s1 = 1+0x00+0x80 = 0x81
    return PNG_SIGNATURE + ihdr(1, 1, 8, 0) + png_chunk(b"IDAT", idat) + IEND


def png_2x2_adam7():
    # Adam7 on a 2x2 image: only passes 1, 6 and 7 contain pixels; the other passes are empty
    # and contribute no bytes at all (not even a filter byte).
    raw = (b"\x00\x10"      # pass 1, pixel (0,0): filter None, gray 0x10
           b"\x00\x50"      # pass 6, pixel (1,0): filter None, gray 0x50
           b"\x00\x90\xd0")  # pass 7, row y=1: filter None, pixels (0,1)=0x90 (1,1)=0xd0
    return PNG_SIGNATURE + ihdr(2, 2, 8, 0, interlace=1) + png_chunk(b"IDAT", zlib_stored(raw)) + IEND


def png_2x1_rgba16():
    raw = (b"\x00"                        # filter None
           + b"\xff\xff\x00\x00\x00\x00\xff\xff"  # pixel 0: R=65535 G=0 B=0 A=65535 (big-endian)
           + b"\x12\x34\x56\x78\x9a\xbc\x80\x00")  # pixel 1: R=0x1234 G=0x5678 B=0x9abc A=0x8000
    return PNG_SIGNATURE + ihdr(2, 1, 16, 6) + png_chunk(b"IDAT", zlib_stored(raw)) + IEND


def png_3x2_rgb_sub_up():
    raw = (b"\x01"                        # row 0: filter 1 (Sub): byte - byte 3 to the left
           + b"\x10\x20\x30"              # pixel 0 = 10 20 30 (nothing on the left)
           + b"\x10\x10\x10"              # pixel 1 = 20 30 40
           + b"\x10\x10\x10"              # pixel 2 = 30 40 50
           + b"\x02"                      # row 1: filter 2 (Up): byte - byte above
           + b"\x01\x02\x03"              # 11 22 33
           + b"\xf0\xf0\xf0"              # 20+F0 = 10, 30+F0 = 20, 40+F0 = 30 (mod 256)
           + b"\x00\x00\x00")             # same as above: 30 40 50
    return PNG_SIGNATURE + ihdr(3, 2, 8, 2) + png_chunk(b"IDAT", zlib_stored(raw)) + IEND


def png_idat_1byte_chunks():
    z = zlib_stored(b"\x00\x80")          # the same 1x1 gray image as png_minimal_1x1
    # Each of the 11 zlib bytes travels in its own IDAT: decoders must concatenate IDAT data.
    return (PNG_SIGNATURE + ihdr(1, 1, 8, 0)
            + b"".join(png_chunk(b"IDAT", z[i:i + 1]) for i in range(len(z))) + IEND)


def png_zero_length_idats():
    z = zlib_stored(b"\x00\x10\x20"     # 2x2 gray, row 0: filter None, samples 0x10 0x20
                    b"\x00\x30\x40")    # row 1: filter None, samples 0x30 0x40
    return (PNG_SIGNATURE + ihdr(2, 2, 8, 0)
            + png_chunk(b"IDAT", z[:5])   # zlib header + block header + LEN
            + png_chunk(b"IDAT", b"")     # empty IDAT (length 0, CRC of "IDAT" alone)
            + png_chunk(b"IDAT", b"")     # another empty one
            + png_chunk(b"IDAT", z[5:])   # NLEN, data, Adler-32
            + IEND)


def png_palette_index_beyond_plte():
    plte = (b"\xff\x00\x00"   # entry 0: red
            b"\x00\x00\xff")  # entry 1: blue (only 2 entries)
    raw = (b"\x00"            # filter None
           b"\x00"            # pixel 0: index 0 (red)
           b"\x05")           # pixel 1: index 5 -- beyond the 2-entry PLTE
    return (PNG_SIGNATURE + ihdr(2, 1, 8, 3) + png_chunk(b"PLTE", plte)
            + png_chunk(b"IDAT", zlib_stored(raw)) + IEND)


def png_bad_ihdr_crc():
    good = ihdr(1, 1, 8, 0)
    bad = good[:-4] + b"\xde\xad\xbe\xef"   # IHDR with a wrong CRC: a critical chunk is damaged
    return PNG_SIGNATURE + bad + png_chunk(b"IDAT", zlib_stored(b"\x00\x80")) + IEND


def png_bad_ancillary_crc():
    text = png_chunk(b"tEXt", b"Comment\x00damaged", crc=0x12345678)  # ancillary chunk, wrong CRC
    return PNG_SIGNATURE + ihdr(1, 1, 8, 0) + text + png_chunk(b"IDAT", zlib_stored(b"\x00\x80")) + IEND


def png_missing_iend():
    return PNG_SIGNATURE + ihdr(1, 1, 8, 0) + png_chunk(b"IDAT", zlib_stored(b"\x00\x80"))  # no IEND


def png_width_zero():
    return PNG_SIGNATURE + ihdr(0, 1, 8, 0) + png_chunk(b"IDAT", zlib_stored(b"\x00")) + IEND


def png_filter_type_5():
    raw = (b"\x05"    # filter type 5: does not exist (0..4 only)
           b"\x80")   # sample
    return PNG_SIGNATURE + ihdr(1, 1, 8, 0) + png_chunk(b"IDAT", zlib_stored(raw)) + IEND


def png_too_little_data():
    raw = b"\x00\x10\x20"   # one scanline of a 2x2 gray image: the second row is missing
    return PNG_SIGNATURE + ihdr(2, 2, 8, 0) + png_chunk(b"IDAT", zlib_stored(raw)) + IEND


# ============================================================================================
# GIF
# ============================================================================================
def lzw_pack(codes):
    """Packs (code, width) pairs LSB-first, the GIF bit order: the first code occupies the
    lowest bits of the first byte."""
    acc = nbits = 0
    out = bytearray()
    for code, width in codes:
        acc |= code << nbits
        nbits += width
        while nbits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            nbits -= 8
    if nbits:
        out.append(acc)
    return bytes(out)


def gif_header(width, height, gct_entries):
    """'GIF89a' + logical screen descriptor + global colour table of 2 or 4 entries."""
    size_field = {2: 0, 4: 1}[gct_entries]
    return (b"GIF89a"                     # signature + version
            + le16(width)                 # logical screen width
            + le16(height)                # logical screen height
            + bytes([0x80                 # bit 7: a global colour table follows
                     | 0x10               # bits 4-6: colour resolution - 1 (here 1 -> 2 bits)
                     | size_field])       # bits 0-2: table has 2^(field+1) entries
            + b"\x00"                     # background colour index
            + b"\x00")                    # pixel aspect ratio: 0 = not given


GCT4 = (b"\x00\x00\x00"    # entry 0: black
        b"\xff\xff\xff"    # entry 1: white
        b"\xff\x00\x00"    # entry 2: red
        b"\x00\x00\xff")   # entry 3: blue
GCT2 = GCT4[:6]


def image_descriptor(left, top, width, height, flags=0):
    return (b"\x2c"           # image separator ','
            + le16(left)      # left position on the logical screen
            + le16(top)       # top position
            + le16(width)     # frame width
            + le16(height)    # frame height
            + bytes([flags]))  # bit 7 local table, bit 6 interlaced, bits 0-2 local table size


def gif_data(min_code_size, codes):
    data = lzw_pack(codes)
    return (bytes([min_code_size])   # LZW minimum code size: codes start at this + 1 bits
            + bytes([len(data)])     # one data sub-block of this many bytes (<= 255)
            + data                   # the packed codes
            + b"\x00")               # block terminator: a zero-length sub-block


GIF_TRAILER = b"\x3b"  # ';' ends the file


# 2x2 image, pixels 0 1 / 1 0, minimum code size 2 -> clear = 4, end = 5, first free code 6.
CODES_2X2 = [
    (4, 3),   # clear code (3 bits: min code size + 1)
    (0, 3),   # pixel 0                       (encoder adds 6 = "0 1")
    (1, 3),   # pixel 1                       (adds 7 = "1 1")
    (1, 3),   # pixel 1                       (adds 8 = "1 0"; 8 does not fit 3 bits -> width 4)
    (0, 4),   # pixel 0, now 4 bits wide
    (5, 4),   # end-of-information code
]


def gif_minimal_1x1():
    return (gif_header(1, 1, 2) + GCT2 + image_descriptor(0, 0, 1, 1)
            + gif_data(2, [(4, 3),    # clear
                           (1, 3),    # pixel index 1 (white)
                           (5, 3)])   # end of information
            + GIF_TRAILER)


def gif_2x2():
    return gif_header(2, 2, 4) + GCT4 + image_descriptor(0, 0, 2, 2) + gif_data(2, CODES_2X2) + GIF_TRAILER


def gif_2x2_with_gce_transparency():
    gce = (b"\x21"            # extension introducer '!'
           b"\xf9"            # graphic control label
           b"\x04"            # block size: 4 bytes follow
           b"\x01"            # packed: disposal 0, no user input, bit 0 = transparent index given
           b"\x0a\x00"        # delay 10/100 s, little-endian
           b"\x01"            # transparent colour index: 1
           b"\x00")           # block terminator
    return (gif_header(2, 2, 4) + GCT4 + gce + image_descriptor(0, 0, 2, 2) + gif_data(2, CODES_2X2)
            + GIF_TRAILER)


def gif_missing_end_code():
    return (gif_header(2, 2, 4) + GCT4 + image_descriptor(0, 0, 2, 2)
            + gif_data(2, CODES_2X2[:-1])   # every pixel present, but no end-of-information code
            + GIF_TRAILER)


def gif_code_beyond_table():
    return (gif_header(2, 2, 4) + GCT4 + image_descriptor(0, 0, 2, 2)
            + gif_data(2, [(4, 3),   # clear
                           (0, 3),   # pixel 0; the decoder's next free code is now 6
                           (7, 3),   # code 7: not yet defined (only 6 could be, KwKwK) -> error
                           (5, 3)])  # end
            + GIF_TRAILER)


def gif_frame_outside_canvas():
    return (gif_header(2, 2, 4) + GCT4
            + image_descriptor(0, 0, 2, 2) + gif_data(2, CODES_2X2)      # a normal first frame
            + image_descriptor(50, 50, 2, 2) + gif_data(2, CODES_2X2)    # frame at (50,50) on a 2x2 screen
            + GIF_TRAILER)


def gif_zero_size_frame():
    return (gif_header(2, 2, 4) + GCT4
            + image_descriptor(0, 0, 0, 0)        # frame of width 0 and height 0
            + gif_data(2, [(4, 3), (5, 3)])       # clear, end: no pixels
            + image_descriptor(0, 0, 2, 2) + gif_data(2, CODES_2X2)
            + GIF_TRAILER)


def gif_missing_trailer():
    return gif_header(2, 2, 4) + GCT4 + image_descriptor(0, 0, 2, 2) + gif_data(2, CODES_2X2)  # no ';'


def gif_no_colour_table():
    return (b"GIF89a" + le16(2) + le16(2)
            + b"\x00"        # packed: no global colour table
            + b"\x00\x00"    # background index, aspect ratio
            + image_descriptor(0, 0, 2, 2)  # and no local table either
            + gif_data(2, CODES_2X2) + GIF_TRAILER)


def gif_too_few_pixels():
    return (gif_header(2, 2, 4) + GCT4 + image_descriptor(0, 0, 2, 2)
            + gif_data(2, [(4, 3), (0, 3), (1, 3), (5, 3)])  # only 2 of 4 pixels, then end
            + GIF_TRAILER)


# ============================================================================================
# JPEG: a 32x8 grayscale baseline image of four 8x8 blocks, every table spelled out
# ============================================================================================
SOI = b"\xff\xd8"   # start of image
EOI = b"\xff\xd9"   # end of image

DQT = (b"\xff\xdb"             # define quantisation table
       b"\x00\x43"             # segment length 67 = 2 + 1 + 64
       b"\x00"                 # Pq=0 (8-bit entries), Tq=0 (table 0)
       + b"\x10" * 64)         # all 64 entries 16 (zig-zag order; only the DC one matters here)

SOF0 = (b"\xff\xc0"            # start of frame, baseline DCT
        b"\x00\x0b"            # length 11 = 8 + 3 * 1 component
        b"\x08"                # sample precision 8 bits
        b"\x00\x08"            # height 8
        b"\x00\x20"            # width 32
        b"\x01"                # one component
        b"\x01"                # component id 1
        b"\x11"                # sampling factors H=1 V=1
        b"\x00")               # quantisation table 0

DHT_DC = (b"\xff\xc4"          # define Huffman table
          b"\x00\x16"          # length 22 = 2 + 1 + 16 + 3 symbols
          b"\x00"              # Tc=0 (DC), Th=0 (table 0)
          b"\x01"              # 1 code of length 1: '0'   -> symbol 0x00 (difference 0)
          b"\x01"              # 1 code of length 2: '10'  -> symbol 0x04
          b"\x01"              # 1 code of length 3: '110' -> symbol 0x05 ('11', '111' would be
          + b"\x00" * 13       # all-ones codes, which the spec reserves); no codes of length 4..16
          + b"\x00"            # symbol: category 0 (DC difference 0, no extra bits)
          b"\x04"              # symbol: category 4 (|difference| 8..15, 4 extra bits)
          b"\x05")             # symbol: category 5 (|difference| 16..31, 5 extra bits)

DHT_AC = (b"\xff\xc4"          # define Huffman table
          b"\x00\x14"          # length 20 = 2 + 1 + 16 + 1 symbol
          b"\x10"              # Tc=1 (AC), Th=0
          b"\x01"              # 1 code of length 1: '0' -> 0x00
          + b"\x00" * 15       # nothing longer
          + b"\x00")           # symbol 0x00 = EOB: all remaining AC coefficients are 0

SOS = (b"\xff\xda"             # start of scan
       b"\x00\x08"             # length 8 = 6 + 2 * 1 component
       b"\x01"                 # one component in the scan
       b"\x01"                 # component id 1
       b"\x00"                 # DC table 0, AC table 0
       b"\x00"                 # Ss: spectral start 0
       b"\x3f"                 # Se: spectral end 63
       b"\x00")                # Ah=0, Al=0 (no successive approximation)

# DC values 8, 16, 8, 0 (x quantiser 16 / 8 = +16 grey levels each): 144, 160, 144, 128.
# Without restarts each block codes the difference to the previous DC: +8, +8, -8, -8.
SCAN_NO_RESTART = (
    b"\xa1"   # 10 1000 0 | 1 : block 0: '10' cat 4, '1000' = +8, '0' EOB | block 1 starts: '1'
    b"\x42"   # 0 1000 0 10    : '0' (end of '10' cat 4), '1000' = +8, '0' EOB | block 2: '10' cat 4
    b"\x74"   # 0111 0 10 0     : '0111' = -8 (one's complement), '0' EOB | block 3: '10' cat 4, '0'...
    b"\xef"   # 111 0 1111      : ...'111' = -8, '0' EOB, '1111' padding to the byte boundary
)

DRI = (b"\xff\xdd"   # define restart interval
       b"\x00\x04"   # length 4
       b"\x00\x01")  # a restart marker after every MCU (here: every 8x8 block)

# With a restart after every block the DC predictor resets to 0, so each block codes its
# absolute DC: +8, +16, +8, 0. Each interval is padded with 1-bits to a byte boundary.
SCAN_RESTART_EVERY_BLOCK = (
    b"\xa1"        # '10' cat 4, '1000' = +8, '0' EOB, '1' padding
    b"\xff\xd0"    # RST0
    b"\xd0"        # '110' cat 5, '10000' = +16 (first 8 bits) ...
    b"\x7f"        # ... '0' EOB, '1111111' padding
    b"\xff\xd1"    # RST1
    b"\xa1"        # +8 again
    b"\xff\xd2"    # RST2
    b"\x3f"        # '0' cat 0 (difference 0), '0' EOB, '111111' padding
)                  # no RST after the last interval: EOI follows


def jpeg_minimal():
    return SOI + DQT + SOF0 + DHT_DC + DHT_AC + SOS + SCAN_NO_RESTART + EOI


def jpeg_restarts():
    return SOI + DQT + SOF0 + DHT_DC + DHT_AC + DRI + SOS + SCAN_RESTART_EVERY_BLOCK + EOI


def jpeg_fill_bytes():
    return (SOI
            + b"\xff\xff\xff" + DQT      # any number of 0xFF fill bytes may precede a marker
            + b"\xff" + SOF0
            + DHT_DC + DHT_AC + SOS + SCAN_NO_RESTART
            + b"\xff\xff" + EOI)


def jpeg_extraneous_bytes():
    return (SOI + DQT
            + b"\x00\x11\x22"            # three stray bytes where a marker must start
            + SOF0 + DHT_DC + DHT_AC + SOS + SCAN_NO_RESTART + EOI)


def jpeg_damaged_rst():
    scan = SCAN_RESTART_EVERY_BLOCK.replace(b"\xff\xd1", b"\xff\xd5")  # RST5 where RST1 belongs
    return SOI + DQT + SOF0 + DHT_DC + DHT_AC + DRI + SOS + scan + EOI


def jpeg_missing_eoi():
    return SOI + DQT + SOF0 + DHT_DC + DHT_AC + SOS + SCAN_NO_RESTART   # ends without FFD9


def jpeg_undefined_huffman_code():
    scan = (b"\x7f"   # '0' DC difference 0, then '1111111': the AC table only defines '0' (EOB)
            + b"\x7f" * 7)  # the same again: 16+ bits without a valid AC code
    return SOI + DQT + SOF0 + DHT_DC + DHT_AC + SOS + scan + EOI


# ============================================================================================
# TIFF: 2x2 8-bit grayscale, one uncompressed strip
# ============================================================================================
SHORT, LONG = 3, 4


def ifd_entry(e, tag, typ, count, value):
    """12-byte IFD entry; `value` is the value itself when it fits in 4 bytes (left-justified),
    otherwise the offset of the values."""
    if typ == SHORT and count == 1:
        field = struct.pack(e + "HH", value, 0)   # a SHORT sits in the first 2 bytes
    else:
        field = struct.pack(e + "I", value)
    return (struct.pack(e + "H", tag)     # tag number
            + struct.pack(e + "H", typ)   # field type: 3 SHORT, 4 LONG
            + struct.pack(e + "I", count)  # number of values
            + field)                      # value or offset


def tiff_gray_2x2(e="<", next_ifd=0, strip_offset=None, strip_bytes=4, width=2, height=2,
                  bits_count=1):
    """Header (8 bytes), pixel data at offset 8 (4 bytes), IFD at offset 12."""
    pixels = (b"\x00\x55"    # row 0: black, dark grey
              b"\xaa\xff")   # row 1: light grey, white
    entries = [
        ifd_entry(e, 256, LONG, 1, width),          # ImageWidth
        ifd_entry(e, 257, LONG, 1, height),         # ImageLength
        ifd_entry(e, 258, SHORT, bits_count, 8),    # BitsPerSample = 8 (count normally 1)
        ifd_entry(e, 259, SHORT, 1, 1),             # Compression = 1 (none)
        ifd_entry(e, 262, SHORT, 1, 1),             # PhotometricInterpretation = 1 (black is zero)
        ifd_entry(e, 273, LONG, 1, 8 if strip_offset is None else strip_offset),  # StripOffsets
        ifd_entry(e, 277, SHORT, 1, 1),             # SamplesPerPixel = 1
        ifd_entry(e, 278, LONG, 1, height),         # RowsPerStrip: the whole image in one strip
        ifd_entry(e, 279, LONG, 1, strip_bytes),    # StripByteCounts
    ]
    header = ((b"II\x2a\x00" if e == "<" else b"MM\x00\x2a")  # byte order mark + magic 42
              + struct.pack(e + "I", 12))                     # offset of the first IFD
    ifd = (struct.pack(e + "H", len(entries))   # number of entries
           + b"".join(entries)                  # entries, sorted by tag
           + struct.pack(e + "I", next_ifd))    # offset of the next IFD (0 = none)
    return header + pixels + ifd


def tiff_minimal_le():
    return tiff_gray_2x2("<")


def tiff_minimal_be():
    return tiff_gray_2x2(">")


def tiff_ifd_loop():
    return tiff_gray_2x2("<", next_ifd=12)     # the next-IFD pointer points back at this IFD


def tiff_strip_outside_file():
    return tiff_gray_2x2("<", strip_offset=100000)   # the file is only 126 bytes long


def tiff_absurd_counts():
    return tiff_gray_2x2("<", bits_count=0x40000000)  # BitsPerSample with 2^30 values


def tiff_absurd_size():
    return tiff_gray_2x2("<", width=0x7FFFFFFF, height=0x7FFFFFFF)  # 4 pixel bytes for 2^62 pixels


def tiff_strip_bytes_too_small():
    return tiff_gray_2x2("<", strip_bytes=2)   # the strip claims 2 bytes for 4 pixels


# ============================================================================================
CASES = [
    ("png/minimal_1x1_gray.png", "png", "valid", png_minimal_1x1,
     "smallest sensible PNG: 1x1 gray 128, stored deflate block"),
    ("png/adam7_2x2.png", "png", "valid", png_2x2_adam7,
     "2x2 Adam7: only passes 1, 6, 7 hold pixels; empty passes have no bytes"),
    ("png/rgba16_2x1.png", "png", "valid", png_2x1_rgba16, "16-bit RGBA samples, big-endian"),
    ("png/rgb_sub_up_3x2.png", "png", "valid", png_3x2_rgb_sub_up,
     "Sub and Up filters with byte wrap-around"),
    ("png/idat_1byte_chunks.png", "png", "valid", png_idat_1byte_chunks,
     "every zlib byte in its own IDAT chunk"),
    ("png/zero_length_idats.png", "png", "valid", png_zero_length_idats,
     "two zero-length IDAT chunks between real ones"),
    ("png/palette_index_beyond_plte.png", "png", "unknown", png_palette_index_beyond_plte,
     "palette index 5 with a 2-entry PLTE (spec error; libpng may show black)"),
    ("png/bad_ihdr_crc.png", "png", "corrupt", png_bad_ihdr_crc, "IHDR CRC wrong (critical chunk)"),
    ("png/bad_ancillary_crc.png", "png", "unknown", png_bad_ancillary_crc,
     "tEXt CRC wrong: ancillary chunk, libpng warns and skips it"),
    ("png/missing_iend.png", "png", "corrupt", png_missing_iend,
     "no IEND chunk (image data complete)"),
    ("png/width_zero.png", "png", "corrupt", png_width_zero, "IHDR width 0"),
    ("png/filter_type_5.png", "png", "corrupt", png_filter_type_5,
     "scanline filter type 5 does not exist"),
    ("png/too_little_data.png", "png", "corrupt", png_too_little_data,
     "IDAT holds 1 of 2 scanlines"),
    ("gif/minimal_1x1.gif", "gif", "valid", gif_minimal_1x1,
     "smallest sensible GIF: 1x1, codes clear,1,end"),
    ("gif/lzw_2x2.gif", "gif", "valid", gif_2x2, "2x2, LZW code width grows from 3 to 4 bits"),
    ("gif/gce_transparency_2x2.gif", "gif", "valid", gif_2x2_with_gce_transparency,
     "graphic control extension with transparent index 1"),
    ("gif/missing_end_code.gif", "gif", "unknown", gif_missing_end_code,
     "all pixels present, no LZW end-of-information code"),
    ("gif/code_beyond_table.gif", "gif", "corrupt", gif_code_beyond_table,
     "LZW code 7 when the next free code is 6"),
    ("gif/frame_outside_canvas.gif", "gif", "unknown", gif_frame_outside_canvas,
     "second frame at (50,50) on a 2x2 screen"),
    ("gif/zero_size_frame.gif", "gif", "unknown", gif_zero_size_frame,
     "a 0x0 frame followed by a normal frame"),
    ("gif/missing_trailer.gif", "gif", "unknown", gif_missing_trailer, "no 0x3B trailer"),
    ("gif/no_colour_table.gif", "gif", "unknown", gif_no_colour_table,
     "neither global nor local colour table"),
    ("gif/too_few_pixels.gif", "gif", "corrupt", gif_too_few_pixels,
     "LZW data ends after 2 of 4 pixels"),
    ("jpeg/minimal_32x8_gray.jpg", "jpeg", "valid", jpeg_minimal,
     "hand-coded baseline: 4 blocks grey 144,160,144,128"),
    ("jpeg/restart_every_block.jpg", "jpeg", "valid", jpeg_restarts,
     "restart interval 1, RST0..RST2; same pixels as minimal_32x8_gray"),
    ("jpeg/fill_bytes.jpg", "jpeg", "valid", jpeg_fill_bytes,
     "0xFF fill bytes before markers (allowed); same pixels as minimal_32x8_gray"),
    ("jpeg/extraneous_bytes.jpg", "jpeg", "corrupt", jpeg_extraneous_bytes,
     "3 stray bytes before SOF0 (libjpeg warns and continues)"),
    ("jpeg/damaged_rst.jpg", "jpeg", "corrupt", jpeg_damaged_rst,
     "RST5 where RST1 is expected (libjpeg resyncs with a warning)"),
    ("jpeg/missing_eoi.jpg", "jpeg", "corrupt", jpeg_missing_eoi,
     "scan data complete but no EOI marker"),
    ("jpeg/undefined_huffman_code.jpg", "jpeg", "corrupt", jpeg_undefined_huffman_code,
     "entropy data uses a bit pattern with no Huffman code"),
    ("tiff/minimal_2x2_le.tif", "tiff", "valid", tiff_minimal_le,
     "2x2 8-bit gray, one strip, little-endian"),
    ("tiff/minimal_2x2_be.tif", "tiff", "valid", tiff_minimal_be,
     "2x2 8-bit gray, one strip, big-endian; same pixels as the LE file"),
    ("tiff/ifd_loop.tif", "tiff", "corrupt", tiff_ifd_loop,
     "next-IFD offset points back to the same IFD"),
    ("tiff/strip_outside_file.tif", "tiff", "corrupt", tiff_strip_outside_file,
     "StripOffsets 100000 beyond the end of the file"),
    ("tiff/absurd_counts.tif", "tiff", "corrupt", tiff_absurd_counts, "BitsPerSample count 2^30"),
    ("tiff/absurd_size.tif", "tiff", "corrupt", tiff_absurd_size,
     "2^31-1 x 2^31-1 image with a 4-byte strip"),
    ("tiff/strip_bytes_too_small.tif", "tiff", "corrupt", tiff_strip_bytes_too_small,
     "StripByteCounts 2 for 4 pixel bytes"),
]


def write_all(outdir):
    rows = []
    for rel, fmt, expectation, build, notes in CASES:
        path = os.path.join(outdir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(build())
        rows.append((rel, fmt, expectation, "handmade: " + notes))
    return rows


if __name__ == "__main__":
    target = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "generated", "handmade")
    for row in write_all(target):
        print("\t".join(row))

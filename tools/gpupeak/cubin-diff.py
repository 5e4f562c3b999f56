#!/usr/bin/env python3
"""cubin-diff.py OLD.cubin NEW.cubin - do two builds of gpupeak's kernels
run the same machine code?  Compares, kernel by kernel: the code (.text,
byte for byte), the shared memory and parameter sizes (.nv.shared,
.nv.constant0), and the attributes (.nv.info) with symbol indices read as
names, since those indices move when kernels are defined in another order.
Prints one line per difference and the totals; exit status 1 when any.
Needs no GPU and no cuobjdump (tools/gpupeak/sass-compare.sh builds the
cubins)."""
import hashlib
import struct
import sys

# .nv.info attributes whose value starts with a symbol index
SYM_ATTRS = (0x0A, 0x11, 0x12, 0x23, 0x2F)


def sections(path):
    d = open(path, 'rb').read()
    if d[:4] != b'\x7fELF' or d[4] != 2:
        sys.exit('%s: not a 64-bit ELF file' % path)
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3A)
    hdrs = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize) for i in range(shnum)]

    def cstr(base, off):
        return d[base + off:d.index(b'\0', base + off)].decode()

    names = [cstr(hdrs[shstrndx][4], h[0]) for h in hdrs]
    syms = {}
    for h in hdrs:
        if h[1] == 2:  # SHT_SYMTAB
            for k in range(h[5] // 24):
                st_name, _, _, st_shndx, _, _ = struct.unpack_from('<IBBHQQ', d, h[4] + 24 * k)
                name = cstr(hdrs[h[6]][4], st_name)
                if not name and st_shndx < len(names):
                    name = 'section ' + names[st_shndx]
                syms[k] = name
    return {n: (h, d[h[4]:h[4] + h[5]] if h[1] != 8 else b'') for n, h in zip(names, hdrs)}, syms


def info_records(body, syms):
    recs, p = [], 0
    while p + 2 <= len(body):
        fmt, attr = body[p], body[p + 1]
        if fmt == 4:  # EIFMT_SVAL: a 16-bit size and the value
            size, = struct.unpack_from('<H', body, p + 2)
            val = body[p + 4:p + 4 + size]
            p += 4 + size
            if attr in SYM_ATTRS and size >= 4:
                idx, = struct.unpack_from('<I', val)
                val = (syms.get(idx, idx), val[4:].hex())
            else:
                val = val.hex()
        else:  # a 16-bit value
            val = body[p + 2:p + 4].hex()
            p += 4
        recs.append((fmt, attr, val))
    return recs


def summary(path):
    secs, syms = sections(path)
    out = {}
    for name, (h, body) in secs.items():
        if name.startswith('.text.'):
            out[name] = (h[5], hashlib.sha256(body).hexdigest())
        elif name.startswith(('.nv.shared.', '.nv.constant0.')):
            out[name] = h[5]
        elif name.startswith('.nv.info'):
            recs = info_records(body, syms)
            out[name] = sorted(map(repr, recs)) if name == '.nv.info' else recs
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = summary(sys.argv[1]), summary(sys.argv[2])
    bad = 0
    for k in sorted(set(a) | set(b)):
        if k.startswith('.nv.shared.reserved'):
            continue
        if a.get(k) != b.get(k):
            print('differs: %s' % k)
            bad += 1
    kernels = sum(1 for k in a if k.startswith('.text.'))
    print('%d kernels, %d sections compared, %d differ' % (kernels, len(set(a) | set(b)), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""ncu_raw_records.py - Nsight Compute's raw page as gpuprof's records, for
tests/report/test_details_oracle.sh.

usage: ncu_raw_records.py RAW.csv[.gz] SECTIONS > records.jsonl

RAW.csv: `ncu --page raw --csv --print-units base` of a report (output of the
program before the header is skipped); SECTIONS: the Nsight Compute section
identifiers the records say their run collected, comma-separated (as the
library writes them).  Writes one device record (from the first launch's
device__attribute_* columns) and one launch record per row: its launch
configuration from the launch__* columns, and as its metrics every column
whose name is a metric (unit__counter..., a number), in base units as ncu
printed them.

This stands in for the library's collection: gpuprof-report's details page
of these records must print what Nsight Compute printed from the same
counters (its details page of the same report), so the report's side (the
section table, its formulas, units, scaling, layout, the occupancy and
launch figures) is judged against ncu on kernels gpuprof did not write.
What the library collects is judged on the GPU machine
(tests/gpu/details/check.sh).  Python 3 standard library only."""
import csv
import gzip
import io
import json
import sys


def open_text(path):
    if path.endswith('.gz'):
        return io.TextIOWrapper(gzip.open(path), errors='replace', newline='')
    return open(path, errors='replace', newline='')


def number(s):
    try:
        return float(s.replace(',', ''))
    except ValueError:
        return None


def whole(d, key):
    v = number(d.get(key, ''))
    if v is None:
        raise SystemExit('ncu_raw_records.py: the raw page has no number in %s' % key)
    return int(v)


def is_metric(name):
    unit = name.split('__', 1)[0]
    return '__' in name and unit != 'device' and '.' not in unit


def device_record(d):
    mem_khz = whole(d, 'device__attribute_memory_clock_rate')
    bus = whole(d, 'device__attribute_global_memory_bus_width')
    return {
        'type': 'device', 'device': whole(d, 'device__attribute_device_index'),
        'name': d['device__attribute_display_name'], 'chip': 'GH100',
        'cc': [whole(d, 'device__attribute_compute_capability_major'),
               whole(d, 'device__attribute_compute_capability_minor')],
        'sm_count': whole(d, 'device__attribute_multiprocessor_count'),
        'max_threads_per_sm': whole(d, 'device__attribute_max_threads_per_multiprocessor'),
        'max_blocks_per_sm': whole(d, 'device__attribute_max_blocks_per_multiprocessor'),
        'max_warps_per_sm': whole(d, 'device__attribute_max_warps_per_multiprocessor'),
        'warp_size': whole(d, 'device__attribute_warp_size'),
        'regs_per_sm': whole(d, 'device__attribute_max_registers_per_multiprocessor'),
        'max_regs_per_block': whole(d, 'device__attribute_max_registers_per_block'),
        'max_regs_per_thread': whole(d, 'device__attribute_max_registers_per_thread'),
        # not on the raw page: GH100's allocation units, as the library records them
        'reg_alloc_unit': 256, 'warp_alloc_granularity': 4,
        'smem_per_sm': whole(d, 'device__attribute_max_shared_memory_per_multiprocessor'),
        'smem_per_block': whole(d, 'device__attribute_max_shared_memory_per_block'),
        'smem_per_block_optin': whole(d, 'device__attribute_max_shared_memory_per_block_optin'),
        'smem_reserved_per_block': whole(d, 'device__attribute_reserved_shared_memory_per_block'),
        'l2_bytes': whole(d, 'device__attribute_l2_cache_size'),
        'mem_bus_width_bits': bus, 'mem_clock_khz': mem_khz,
        'sm_clock_khz': whole(d, 'device__attribute_clock_rate'),
        'dram_bytes_per_s_theoretical': 2.0 * mem_khz * 1000 * bus / 8}


def launch_record(d, sections):
    metrics = {}
    for name, value in d.items():
        if name and is_metric(name):
            v = number(value)
            if v is not None:
                metrics[name] = v
    dims = lambda what: [whole(d, 'launch__%s_dim_%s' % (what, c)) for c in 'xyz']
    return {
        'type': 'launch', 'launch_id': whole(d, 'ID') + 1, 'pid': whole(d, 'Process ID'),
        'host': d['Host Name'], 'process': d['Process Name'],
        'device': whole(d, 'launch__device_id'), 'context': whole(d, 'Context'),
        'stream': whole(d, 'Stream'), 'kernel': d['Kernel Name'],
        'grid': dims('grid'), 'block': dims('block'),
        'cluster': [max(1, c) for c in dims('cluster')],
        'regs_per_thread': whole(d, 'launch__registers_per_thread'),
        'static_smem': whole(d, 'launch__shared_mem_per_block_static'),
        'dynamic_smem': whole(d, 'launch__shared_mem_per_block_dynamic'),
        'local_bytes_per_thread': 0, 'api': 'cuLaunchKernel', 'caches': 'flushed',
        'sections': sections, 'metrics': metrics}


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__.split('\n\n')[1] + '\n')
        return 2
    rows = list(csv.reader(open_text(argv[1])))
    start = next((i for i, r in enumerate(rows) if r[:2] == ['ID', 'Process ID']), None)
    if start is None or len(rows) < start + 3:
        sys.stderr.write('ncu_raw_records.py: %s is not a raw page with launches\n' % argv[1])
        return 1
    head = rows[start]
    launches = [dict(zip(head, r)) for r in rows[start + 2:] if r and r[0].strip().isdigit()]
    out = [device_record(launches[0])] + [launch_record(d, argv[2]) for d in launches]
    for rec in out:
        sys.stdout.write(json.dumps(rec, separators=(',', ':')) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))

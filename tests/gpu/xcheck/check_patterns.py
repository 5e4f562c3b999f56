#!/usr/bin/env python3
"""check_patterns.py - the access-pattern kernels (patterns.cuh) against
values computed by hand: nvprof's meaning of the efficiencies (requested
bytes over the bytes of the sectors or wavefronts that served them, above
100% on broadcast), the bank efficiency (wavefronts needed / taken), and the
HFMA2 constant moves.  Every launch of each kernel must match exactly.

usage: check_patterns.py PATTERNS.jsonl
Prints one line per check and "patterns: N passed, N failed, N skipped"."""
import json
import sys

REQ_LD = 'gpuprof__sass_requested_bytes_mem_global_op_ld.sum'
REQ_ST = 'gpuprof__sass_requested_bytes_mem_global_op_st.sum'
REQ_SH = 'gpuprof__sass_requested_bytes_mem_shared.sum'
SEC_LD = 'smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum'
SEC_ST = 'smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum'
WF = 'smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum'
WF_IDEAL = 'smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum'
HFMA = 'smsp__sass_thread_inst_executed_op_hfma_pred_on.sum'
HMOVE = 'gpuprof__sass_thread_inst_executed_op_hfma_move_pred_on.sum'
NCU_LD = 'smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct'
NCU_SH = 'smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct'

# kernel: {check: expected %}; gld/gst/shared in nvprof's meaning
EXPECT = {
    'pat_ld32_coalesced': {'gld': 100, 'gst': 100},
    'pat_ld32_stride2': {'gld': 50},
    'pat_ld32_stride4': {'gld': 25},
    'pat_ld32_stride32': {'gld': 12.5},
    'pat_ld32_warp_broadcast': {'gld': 400},
    'pat_ld32_pairs': {'gld': 200},
    'pat_ld32_misaligned': {'gld': 80},
    'pat_ld8_coalesced': {'gld': 100},
    'pat_ld16_coalesced': {'gld': 100},
    'pat_ld64_coalesced': {'gld': 100},
    'pat_ld128_coalesced': {'gld': 100},
    'pat_ld128_stride2': {'gld': 50},
    'pat_ld128_bcast8': {'gld': 800},
    'pat_ld32_block_uniform': {'gld': 400},
    'pat_ld32_half_warp': {'gld': 100},
    'pat_st32_coalesced': {'gst': 100},
    'pat_st32_stride2': {'gst': 50},
    'pat_st32_stride32': {'gst': 12.5},
    'pat_st8_coalesced': {'gst': 100},
    'pat_st8_stride3': {'gst': 100.0 / 3},
    'pat_st128_coalesced': {'gst': 100},
    'pat_lds32_conflict1': {'shared': 100, 'bank': 100},
    'pat_lds32_conflict2': {'shared': 50, 'bank': 50},
    'pat_lds32_conflict4': {'shared': 25, 'bank': 25},
    'pat_lds32_conflict8': {'shared': 12.5, 'bank': 12.5},
    'pat_lds32_conflict16': {'shared': 6.25, 'bank': 6.25},
    'pat_lds32_conflict32': {'shared': 3.125, 'bank': 3.125},
    'pat_lds32_broadcast': {'shared': 100, 'bank': 100},
    'pat_lds32_pairs': {'shared': 100, 'bank': 100},
    'pat_lds64_seq': {'shared': 100, 'bank': 100},
    'pat_lds128_seq': {'shared': 100, 'bank': 100},
    'pat_lds64_stride2': {'shared': 50, 'bank': 50},
    'pat_lds128_bcast8': {'shared': 200, 'bank': 100},
    'pat_sts32_conflict2': {'shared': 50, 'bank': 50},
    'pat_ldsm_x4': {'shared': 100, 'bank': 100},
    'pat_stsm_x4': {'shared': 100, 'bank': 100},
    'pat_ldgsts4': {'shared': 100},
    'pat_ldgsts8': {'shared': 100},
    'pat_ldgsts16': {'shared': 100},
}


def pct(m, num, den, unit):
    n, d = m.get(num), m.get(den)
    if n is None or d is None or d == 0:
        return None
    return 100.0 * n / (unit * d)


def main():
    launches = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
    launches = [r for r in launches if r.get('type') == 'launch']
    passed = failed = 0
    seen = set()
    for r in launches:
        k, m = r['kernel'], r['metrics']
        got = {'gld': pct(m, REQ_LD, SEC_LD, 32), 'gst': pct(m, REQ_ST, SEC_ST, 32),
               'shared': pct(m, REQ_SH, WF, 128), 'bank': pct(m, WF_IDEAL, WF, 1)}
        for what, want in EXPECT.get(k, {}).items():
            seen.add(k)
            ok = got[what] is not None and abs(got[what] - want) < 1e-6
            passed += ok
            failed += not ok
            print('%s %-26s %-7s want %8.3f got %s' % ('ok  ' if ok else 'FAIL', k, what, want,
                                                        '%.3f' % got[what] if got[what] is not None else 'n/a'))
        # Nsight Compute's meaning never exceeds 100
        for name in (NCU_LD, NCU_SH):
            v = m.get(name)
            if v is not None and v > 100.0 + 1e-9:
                failed += 1
                print('FAIL %-26s %s = %g, above 100' % (k, name, v))
        if k == 'pat_fp32_constants':  # a float kernel: its HFMA2 are all moves
            ok = m.get(HFMA) and m.get(HFMA) == m.get(HMOVE)
            passed += bool(ok)
            failed += not ok
            print('%s %-26s hfma %s, of which moves %s' % ('ok  ' if ok else 'FAIL', k, m.get(HFMA), m.get(HMOVE)))
    missing = set(EXPECT) - seen
    for k in sorted(missing):
        failed += 1
        print('FAIL %-26s not profiled' % k)
    print('patterns: %d passed, %d failed, 0 skipped' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

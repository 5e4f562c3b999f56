# Generator of tests/data/report fixtures (run by hand from the repository root; the JSONL
# files are the fixtures, tests/report/test_record_doc.sh checks that they are what this
# writes).  Every device and launch record is checked against metrics/records/record_fields.def,
# the one definition of the record format: a key the table lacks, or a field the writer
# always writes that a record lacks, stops the generator.
import json
import os
import re
import sys

DEF = os.environ.get("GP_RECORD_FIELDS") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "metrics", "records", "record_fields.def")

def record_fields(path):
    """{"device": {key: optional}, "launch": {key: optional}} from record_fields.def. A field
    is optional when the writer may leave it out (GP_RF_OPT) or the reader takes its absence
    as empty (MISSING)."""
    with open(path) as f:
        text = f.read()
    rows = {"device": {}, "launch": {}}
    for m in re.finditer(r'^GP_(DEVICE|LAUNCH)_FIELD\("([a-z0-9_]+)",\s*\w+,\s*(\w+),\s*([^,]*),',
                         text, re.M):
        rec, key, kind, flags = m.group(1).lower(), m.group(2), m.group(3), m.group(4)
        rows[rec][key] = rec == "launch" and ("GP_RF_OPT" in flags or kind == "MISSING")
    if not rows["device"] or not rows["launch"]:
        sys.exit("make-fixtures.py: no fields read from " + path)
    return rows

FIELDS = record_fields(DEF)

def dumps(rec):
    """One JSON line; device and launch records checked against the definition."""
    fields = FIELDS.get(rec.get("type"))
    if fields is not None:
        unknown = [k for k in rec if k not in fields and k not in ("type", "schema")]
        absent = [k for k, optional in fields.items() if not optional and k not in rec]
        if unknown or absent:
            sys.exit("make-fixtures.py: %s record: keys not in metrics/records/record_fields.def: %s; "
                     "fields it lacks: %s" % (rec["type"], unknown, absent))
    return json.dumps(rec, separators=(",", ":"))
SMCLK=1.755e9
base_metrics = {
 "sm__cycles_elapsed.avg.per_second": SMCLK,
 "dram__cycles_elapsed.avg.per_second": 2.619e9,
 "lts__cycles_elapsed.avg.per_second": SMCLK,
 "sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained": 16896,
 "sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained": 8448,
 "sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained": 16896,
 "dram__bytes.sum.peak_sustained": 1280,
 "lts__t_bytes.sum.peak_sustained": 5120,
 "l1tex__t_bytes.sum.peak_sustained": 16896,
 "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active": 0,
 "l1tex__t_sector_hit_rate.pct": 0,
 "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum": 0,
 "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum": 0,
 "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum": 0,
 "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum": 0,
 "smsp__sass_thread_inst_executed_op_hmul_pred_on.sum": 0,
 "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum": 0,
 "smsp__sass_branch_targets_threads_divergent.sum": 0,
 "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct": 0,
}
lid=[0]
def launch(kernel, grid, block, regs, dur_ns, m, static_smem=0, dyn=0, missing=None, mangled=None):
    lid[0]+=1
    mm=dict(base_metrics)
    d=dur_ns
    cyc=d*1e-9*SMCLK
    mm.update({
     "gpu__time_duration.sum": d,
     "sm__cycles_elapsed.avg": cyc,
     "sm__cycles_active.avg": cyc*0.98,
     "smsp__average_thread_inst_executed_per_inst_executed.ratio": 32,
     "smsp__average_thread_inst_executed_pred_on_per_inst_executed.ratio": 31.5,
     "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct": 100,
     "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct": 100,
    })
    mm.update(m)
    # derived-consistent totals
    rd=mm["dram__bytes_read.sum"]; wr=mm["dram__bytes_write.sum"]
    mm.setdefault("lts__t_bytes.sum", (rd+wr)*1.1)
    mm.setdefault("l1tex__t_bytes.sum", mm["l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum"]+mm["l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum"])
    mm.setdefault("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", mm["l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum"]/32)
    mm.setdefault("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", mm["l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum"]/32)
    mm.setdefault("dram__throughput.avg.pct_of_peak_sustained_elapsed", 100*(rd+wr)/(d*1e-9)/(1280*2.619e9))
    mm.setdefault("smsp__inst_executed.sum", 1e6)
    mm.setdefault("smsp__thread_inst_executed.sum", 32e6)
    mm.setdefault("smsp__thread_inst_executed_pred_on.sum", 31.5e6)
    miss={}
    if missing:
        for k,why in missing.items():
            mm[k]=None; miss[k]=why
    rec={"type":"launch","launch_id":lid[0],"pid":4242,"host":"h100-node","device":0,"context":1,"stream":7,
         "kernel":kernel,"mangled":mangled or ("_Z"+str(len(kernel))+kernel),"grid":grid,"block":block,"cluster":[1,1,1],
         "regs_per_thread":regs,"static_smem":static_smem,"dynamic_smem":dyn,"local_bytes_per_thread":0,
         "api":"cuLaunchKernel","passes":2,"snapshot":"device","bytes_saved":1048576,"bytes_restored":1048576,
         "replay_ms":1.5,"caches":"flushed","metrics":mm}
    if miss: rec["missing"]=miss
    return rec

device={"type":"device","device":0,"name":"NVIDIA H100 80GB HBM3","chip":"GH100","cc":[9,0],"sm_count":132,
 "max_threads_per_sm":2048,"max_blocks_per_sm":32,"max_warps_per_sm":64,"warp_size":32,
 "regs_per_sm":65536,"max_regs_per_block":65536,"max_regs_per_thread":255,"reg_alloc_unit":256,"warp_alloc_granularity":4,
 "smem_per_sm":233472,"smem_per_block":49152,"smem_per_block_optin":232448,"smem_reserved_per_block":1024,
 "l2_bytes":52428800,"mem_bus_width_bits":5120,"mem_clock_khz":2619000,"sm_clock_khz":1980000,
 "dram_bytes_per_s_theoretical":3.35232e12}

def g(ld,st,rd,wr,**kw):
    d={"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum":ld,"l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum":st,
       "dram__bytes_read.sum":rd,"dram__bytes_write.sum":wr}
    d.update(kw); return d
def fp32(fadd,fmul,ffma): return {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum":fadd,
  "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum":fmul,"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum":ffma}
N=16777216
recs=[device]
# 1. 4x4 blocks: saxpy over 16M floats
m=g(2*4*N,4*N,2*4*N,4*N,**fp32(0,0,N)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":47.5,
 "smsp__average_thread_inst_executed_per_inst_executed.ratio":16,"smsp__average_thread_inst_executed_pred_on_per_inst_executed.ratio":16})
recs.append(launch("saxpy_4x4(int, float, const float*, float*)",[4096,256,1],[4,4,1],16,180000,m))
# 2. coalesced streaming copy, 256 MB
B=268435456
m=g(B,B,B,B,**fp32(0,0,0)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":88.0})
recs.append(launch("copy_coalesced(const float4*, float4*, long)",[262144,1,1],[256,1,1],16,180000,m))
# 3. strided load: 4M threads read one float each 128 B apart
n=4194304
m=g(n*32,n*4,n*32,n*4,**fp32(0,0,n)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":85.0,
 "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct":12.5})
recs.append(launch("strided_load(const float*, float*, int)",[16384,1,1],[256,1,1],16,60000,m))
# 4. 32-way shared bank conflict
m=g(1056*256*4,1056*256*4,1056*256*4,1056*256*4,**fp32(1056*256*1024,0,0)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":95.0,
 "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct":3.125})
recs.append(launch("smem_bank_conflict(const float*, float*)",[1056,1,1],[256,1,1],24,400000,m,static_smem=4096))
# 5. half-warp divergence
m=g(4224*256*4,4224*256*4,4224*256*4,4224*256*4,**fp32(0,0,4224*256*2048)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":93.0,
 "smsp__average_thread_inst_executed_per_inst_executed.ratio":17.6,"smsp__average_thread_inst_executed_pred_on_per_inst_executed.ratio":17.0})
recs.append(launch("half_warp_divergent(const float*, float*)",[4224,1,1],[256,1,1],32,500000,m))
# 6. one block on 132 SMs
m=g(4*N,4*N,4*N,4*N,**fp32(0,0,N)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":12.4,"sm__cycles_active.avg":2e-3*SMCLK/132})
recs.append(launch("one_block(const float*, float*, int)",[1,1,1],[256,1,1],32,2000000,m))
# 7. register-heavy (255 registers/thread)
m=g(1056*256*4*64,1056*256*4,1056*256*4*64,1056*256*4,**fp32(0,0,1056*256*96*512)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":12.3})
recs.append(launch("register_heavy(const float*, const int*, float*, int)",[1056,1,1],[256,1,1],255,1500000,m))
# 8. tiny kernel, 3 launches (time-weighted aggregation)
for dur,occ in ((2100,60.0),(2300,70.0),(1900,80.0)):
    m=g(2112*128*4,2112*128*4,2112*128*4,2112*128*4,**fp32(0,0,2112*128)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":occ})
    recs.append(launch("tiny_kernel(float*)",[2112,1,1],[128,1,1],16,dur,m))
# 9. FP32 compute bound tiled sgemm
ffma=0.75*5.93e13*1.2e-3/2
m=g(4e9,64e6,200e6,64e6,**fp32(0,0,ffma)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":24.0,
 "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct":100.0})
recs.append(launch("sgemm_tiled<128, 128>(int, int, int, const float*, const float*, float*)",[32,128,1],[256,1,1],128,1200000,m,static_smem=32768))
# 10. a launch whose instrumented pass failed
m=g(N*4,N*4,N*4,N*4,**fp32(0,0,0)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":80.0})
recs.append(launch("reduce_partial(const float*, float*, int)",[8192,1,1],[256,1,1],30,90000,m,static_smem=1024,
  missing={k:"instrumented pass failed: CUPTI_ERROR_NOT_SUPPORTED" for k in [
   "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum","smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
   "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum","smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct",
   "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct","smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"]}))
summary={"type":"summary","launches_seen":12,"launches_profiled":12,"skipped":{},"passes":24,"profiler_ms":850.0,
 "launches_callback":12,"launches_activity":12,"unprofiled":[]}
recs.append(summary)
with open("tests/data/report/h100-planted.jsonl","w") as f:
    for r in recs: f.write(dumps(r)+"\n")
# second process: one more copy launch of the same kernel, twice as long (aggregation over files)
lid[0]=0
m=g(2*B,2*B,2*B,2*B,**fp32(0,0,0)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":90.0})
with open("tests/data/report/h100-second.jsonl","w") as f:
    f.write(dumps(device)+"\n")
    f.write(dumps(launch("copy_coalesced(const float4*, float4*, long)",[524288,1,1],[256,1,1],16,360000,m))+"\n")
with open("tests/data/report/peaks-h100.json","w") as f:
    json.dump({"device":"NVIDIA H100 80GB HBM3","peaks":{"fp32_flops_per_s":5.2e13,"fp64_flops_per_s":2.6e13,
      "dram_bytes_per_s":3.0e12,"l2_bytes_per_s":7.5e12,"l1_bytes_per_s":2.5e13}},f,indent=1)

# The same program after changes (gpuprof-report --baseline h100-planted.jsonl h100-planted-new.jsonl):
# one_block now launches 1056 blocks (few_blocks gone, 20x faster), strided_load reads coalesced
# (uncoalesced gone, 3x faster), register_heavy got slower, tiny_kernel is gone, fused_epilogue is new.
lid[0]=0
new=[device]
for r in recs[1:-1]:
    k=r["kernel"]
    if k.startswith("tiny_kernel"):
        continue
    r=json.loads(json.dumps(r))
    r["launch_id"]=len(new)
    if k.startswith("one_block"):
        r["grid"]=[1056,1,1]; m=r["metrics"]; m["gpu__time_duration.sum"]=100000
        m["sm__cycles_elapsed.avg"]=100000e-9*SMCLK; m["sm__cycles_active.avg"]=100000e-9*SMCLK*0.98
        m["sm__warps_active.avg.pct_of_peak_sustained_active"]=85.0
        m["dram__throughput.avg.pct_of_peak_sustained_elapsed"]*=20
    if k.startswith("strided_load"):
        m=r["metrics"]; m["gpu__time_duration.sum"]=20000
        m["sm__cycles_elapsed.avg"]=20000e-9*SMCLK; m["sm__cycles_active.avg"]=20000e-9*SMCLK*0.98
        m["smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"]=100.0
        m["l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum"]=n*4; m["dram__bytes_read.sum"]=n*4
        m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]=n*4/32
    if k.startswith("register_heavy"):
        m=r["metrics"]; m["gpu__time_duration.sum"]=1800000
        m["sm__cycles_elapsed.avg"]=1800000e-9*SMCLK; m["sm__cycles_active.avg"]=1800000e-9*SMCLK*0.98
    new.append(r)
m=g(N*4,N*4,N*4,N*4,**fp32(0,0,N)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":80.0})
lid[0]=len(new)-1
new.append(launch("fused_epilogue(const float*, float*, int)",[65536,1,1],[256,1,1],24,45000,m))
new.append(summary)
with open("tests/data/report/h100-planted-new.jsonl","w") as f:
    for r in new: f.write(dumps(r)+"\n")

# Another host, another GPU model on device 0, rank 1 of an MPI job: its device 0 must not be
# mistaken for h100-node's device 0 (gpuprof-report keys devices by input).
pcie=dict(device); pcie.update({"name":"NVIDIA H100 PCIe","sm_count":114,"l2_bytes":52428800,
  "mem_bus_width_bits":5120,"mem_clock_khz":1593000,"dram_bytes_per_s_theoretical":2.03904e12})
lid[0]=0
m=g(B,B,B,B,**fp32(0,0,0)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":88.0})
r=launch("copy_coalesced(const float4*, float4*, long)",[262144,1,1],[256,1,1],16,280000,m)
r.update({"pid":777,"host":"pcie-node","rank":1,"process":"copy_app"})
m=g(4*N,4*N,4*N,4*N,**fp32(0,0,N)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":12.4})
r2=launch("one_block(const float*, float*, int)",[57,1,1],[256,1,1],32,2000000,m)
r2.update({"pid":777,"host":"pcie-node","rank":1,"process":"copy_app"})
with open("tests/data/report/h100-pcie-rank1.jsonl","w") as f:
    for x in (pcie,r,r2): f.write(dumps(x)+"\n")

# Kernels whose short (function) names collide: template instances told apart by their arguments,
# overloads and namespaces by a number.
lid[0]=0
names=[device]
for k,d in (("void ns::reduce<256>(float*, int)",300000),("void ns::reduce<512>(float*, int)",200000),
            ("void scale(float*)",150000),("void scale(double*)",120000),("void other::scale(float*)",100000),
            ("(anonymous namespace)::fill(int*)",50000)):
    m=g(4*N,4*N,4*N,4*N,**fp32(0,0,N)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":80.0})
    names.append(launch(k,[4096,1,1],[256,1,1],32,d,m))
with open("tests/data/report/names.jsonl","w") as f:
    for x in names: f.write(dumps(x)+"\n")

# A run of Nsight Compute's full set (gpuprof --set full), made up with plausible H100 values
# (no recorded run of that set exists yet): the Speed Of Light and memory-chart counters of
# counters.def's sets "basic" and "full", the extended set and the warp state, for four kernels
# that each use another path of the memory chart: DRAM streaming, L1 and shared memory reuse,
# host memory read through L2 (system memory) and a peer GPU's memory.
lid[0]=0
def full(m, sol_sm, sol_mem, l1, l2, l2hit, l1hit, ld_req, st_req, tex_rd, tex_wr, sys_rd=0, sys_wr=0,
         peer_rd=0, peer_wr=0, sh_ld=0, sh_st=0, sh_wf=0, sh_conf=0, alu=5.0, fma=3.0, fp64=0.0, lsu=10.0,
         lat=20.0, stalls=None, issue=0.3, elig=0.8, active=8.0):
    m.update({
     "sm__throughput.avg.pct_of_peak_sustained_elapsed": sol_sm,
     "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed": sol_mem,
     "l1tex__throughput.avg.pct_of_peak_sustained_active": l1,
     "lts__throughput.avg.pct_of_peak_sustained_elapsed": l2,
     "lts__t_sector_hit_rate.pct": l2hit, "l1tex__t_sector_hit_rate.pct": l1hit,
     "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": ld_req,
     "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": st_req,
     "lts__t_sectors_srcunit_tex_op_read.sum": tex_rd, "lts__t_sectors_srcunit_tex_op_write.sum": tex_wr,
     "lts__t_sectors_aperture_sysmem_op_read.sum": sys_rd, "lts__t_sectors_aperture_sysmem_op_write.sum": sys_wr,
     "lts__t_sectors_aperture_peer_op_read.sum": peer_rd, "lts__t_sectors_aperture_peer_op_write.sum": peer_wr,
     "smsp__inst_executed_op_shared_ld.sum": sh_ld, "smsp__inst_executed_op_shared_st.sum": sh_st,
     "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum": sh_wf, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum": sh_conf,
     "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum": sh_wf,
     "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum": sh_wf - sh_conf,
     "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active": alu,
     "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active": fma,
     "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active": fp64,
     "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active": lsu,
     "sm__ops_path_tensor_src_fp16.sum": 0, "sm__ops_path_tensor_src_bf16_dst_fp32.sum": 0,
     "sm__ops_path_tensor_src_fp16.sum.peak_sustained": 4096,
     "smsp__average_warp_latency_per_inst_issued.ratio": lat,
     "smsp__issue_active.avg.per_cycle_active": issue,
     "smsp__warps_eligible.avg.per_cycle_active": elig,
     "smsp__warps_active.avg.per_cycle_active": active,
    })
    # the default set's own sums behind nvprof's efficiencies (every sector's bytes used)
    ld, stb = m["l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum"], m["l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum"]
    m.update({"gpuprof__sass_requested_bytes_mem_global_op_ld.sum": ld,
              "gpuprof__sass_requested_bytes_mem_global_op_st.sum": stb,
              "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum": ld/32,
              "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum": stb/32,
              "gpuprof__sass_requested_bytes_mem_shared.sum": 128*sh_wf*0.967,
              "gpuprof__sass_thread_inst_executed_op_hfma_move_pred_on.sum": 0})
    st = {"long_scoreboard": 0.1, "barrier": 0.1, "mio_throttle": 0.1, "lg_throttle": 0.1,
          "math_pipe_throttle": 0.1, "imc_miss": 0.05, "no_instruction": 0.05, "branch_resolving": 0.1}
    st.update(stalls or {})
    for k, v in st.items():
        m["smsp__average_warps_issue_stalled_%s_per_issue_active.ratio" % k] = v
    return m
fullrun=[device]
# DRAM streaming copy, 256 MB each way, float4 loads and stores (16 sectors per request)
m=g(B,B,B,B,**fp32(0,0,0)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":88.0})
full(m, 21.5, 89.3, 31.0, 46.8, 50.2, 0.0, B/32/16, B/32/16, B/32, B/32, alu=4.1, fma=0.5, lsu=12.6,
     lat=61.0, stalls={"long_scoreboard": 48.0, "lg_throttle": 6.5}, issue=0.12, elig=0.15, active=13.9)
fullrun.append(launch("copy_coalesced(const float4*, float4*, long)",[262144,1,1],[256,1,1],16,180000,m))
# tiled SGEMM: FP32 compute bound, operands reused from shared memory and L1
m=g(4e9,64e6,200e6,64e6,**fp32(0,0,ffma)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":24.0,
 "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct":96.7})
full(m, 78.4, 44.6, 44.6, 12.1, 67.3, 85.0, 4e9/32/4, 64e6/32/4, 4e9/32*0.15, 64e6/32,
     sh_ld=50e6, sh_st=6.3e6, sh_wf=60e6, sh_conf=2e6, alu=11.8, fma=75.2, lsu=19.6,
     lat=9.8, stalls={"math_pipe_throttle": 3.9, "barrier": 0.9, "mio_throttle": 0.6}, issue=0.72, elig=1.9, active=4.0)
fullrun.append(launch("sgemm_tiled<128, 128>(int, int, int, const float*, const float*, float*)",[32,128,1],[256,1,1],128,1200000,m,static_smem=32768))
# a kernel reading 64 MB of pinned host memory (zero copy) over PCIe
H=67108864
m=g(H,H,0,H,**fp32(0,0,H/4)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":91.0})
full(m, 1.2, 3.1, 1.0, 2.6, 0.0, 0.0, H/32/4, H/32/4, H/32, H/32, sys_rd=H/32, alu=0.6, fma=0.1, lsu=0.4,
     lat=2900.0, stalls={"long_scoreboard": 2850.0}, issue=0.01, elig=0.02, active=15.1)
fullrun.append(launch("read_host_pinned(const float*, float*, int)",[65536,1,1],[256,1,1],16,1340000,m))
# a kernel reading 128 MB of a peer GPU's memory over NVLink into its own
m=g(2*H,2*H,0,2*H,**fp32(0,0,0)); m.update({"sm__warps_active.avg.pct_of_peak_sustained_active":86.0})
full(m, 4.0, 12.9, 3.7, 12.9, 0.0, 0.0, 2*H/32/16, 2*H/32/16, 2*H/32, 2*H/32, peer_rd=2*H/32, alu=1.0, fma=0.1,
     lsu=1.9, lat=420.0, stalls={"long_scoreboard": 395.0}, issue=0.02, elig=0.03, active=14.2)
fullrun.append(launch("peer_gather(const float4*, float4*, long)",[131072,1,1],[256,1,1],16,430000,m))
fullrun.append(summary)
with open("tests/data/report/h100-full.jsonl","w") as f:
    for r in fullrun: f.write(dumps(r)+"\n")

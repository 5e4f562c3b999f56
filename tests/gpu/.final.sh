S=$OUT
(OUT=/tmp/gpk bash tools/gpupeak/device-run.sh > /tmp/gpk.log 2>&1)
tail -45 /tmp/gpk.log
tar czf $S/gpupeak.tgz -C /tmp/gpk . 2>/dev/null
echo "== ncu L2 bytes without cache control (fma_sp)"
ncu --clock-control none --cache-control none --metrics lts__t_bytes.sum -k fma_sp build/tests/gpu/known_work 1 2>&1 | grep lts__
ncu --clock-control none --cache-control all --metrics lts__t_bytes.sum -k fma_sp build/tests/gpu/known_work 1 2>&1 | grep lts__
OUT=$S sh tests/gpu/device-run.sh 2>&1 | grep -vE "^PASS (static|shared) "

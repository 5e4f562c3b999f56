nvidia-smi -L
OUT_SAVE=$OUT
sh tests/gpu/device-run.sh 2>&1 | grep -vE "^PASS (static|shared) "
echo "== characterize selftest"
t0=$(date +%s)
build/gpuprof-characterize run tests/data/characterize/selftest.suite -o /tmp/selftest --force --gpus auto > /tmp/char.out 2> /tmp/char.err; echo "rc=$? wall=$(( $(date +%s) - t0 )) s"
tail -25 /tmp/char.err
head -80 /tmp/selftest/summary/summary.txt
tar czf $OUT_SAVE/selftest.tgz -C /tmp selftest char.err char.out 2>/dev/null

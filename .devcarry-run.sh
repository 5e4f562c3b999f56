nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
mkdir -p /tmp/x2
X=build/tests/gpu/xcheck
timeout 120 $X/sassdump >/tmp/x2/sassdump.txt 2>&1; echo "sassdump rc=$?"; grep -E "^(records|error|setconfig|sassdump)" /tmp/x2/sassdump.txt | head
cuobjdump -sass $X/patterns > /tmp/x2/patterns.sass 2>&1
cuobjdump -sass $X/libs > /tmp/x2/libs.sass 2>&1 ; ls -la /tmp/x2
XC_EXTRA=1 XC_OUT=/tmp/x2/xc timeout 560 sh tests/gpu/xcheck/run.sh 2>&1 | tail -120

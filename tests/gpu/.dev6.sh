timeout 60 build/diag/sass_probe no 3 warm
cuobjdump -sass build/diag/sass_probe | awk '/Function : .*fma_sp/{p=1} p&&/\/\*[0-9a-f]{4}\*\//{print} /EXIT/&&p{n++} n>1{exit}' | head -60
cuobjdump -xelf all build/diag/sass_probe >/dev/null 2>&1; ls *.cubin; mkdir -p $OUT; cp *sm_90*.cubin $OUT/ 2>/dev/null; ls $OUT

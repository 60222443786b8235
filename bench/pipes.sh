#!/usr/bin/env bash
# Which of the CPU's vector pipes an instruction takes: independent 256-bit instructions
# (no chains between them), alone and mixed in equal parts, in instructions a cycle. Two
# kinds that share two pipes run 2 a cycle together; on pipes of their own, 4. The kernel's
# choices of integer lanes and mask blends for the closest vertices (docs/performance.md,
# "Integer lanes for squared distances") rest on these figures for a Zen 4.
#
#   bench/pipes.sh [GHZ]   (GHZ: the clock to count cycles by; default 3.67, the Zen 4 host's)
#
# x86-64 with AVX2 only; the rows with mask registers need AVX-512VL and are left out
# without it. Wall time over a known clock: a shared machine's noise moves the figures a
# few percent, not by the factor of two that tells pipes apart.
set -euo pipefail
ghz=${1:-3.67}
grep -qw avx2 /proc/cpuinfo || { echo "pipes.sh: this CPU has no AVX2" >&2; exit 1; }
avx512=0 flags=(-mavx2)
grep -qw avx512vl /proc/cpuinfo && avx512=1 flags+=(-mavx512f -mavx512vl) # k registers

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

declare -A op=(
  [vmulps]='vmulps %%ymm15,%%ymm14,%%ymm@'
  [vaddps]='vaddps %%ymm15,%%ymm14,%%ymm@'
  [vminps]='vminps %%ymm15,%%ymm14,%%ymm@'
  [vcmpltps]='vcmpltps %%ymm15,%%ymm14,%%ymm@'
  [vblendvps]='vblendvps %%ymm13,%%ymm15,%%ymm14,%%ymm@'
  [vpminsd]='vpminsd %%ymm15,%%ymm14,%%ymm@'
  [vpcmpgtd]='vpcmpgtd %%ymm15,%%ymm14,%%ymm@'
  [vunpcklps]='vunpcklps %%ymm15,%%ymm14,%%ymm@'
  [vblendmps_k]='vblendmps %%ymm15,%%ymm14,%%ymm@%{%%k1%}'
  [vcmpltps_k]='vcmpltps %%ymm15,%%ymm14,%%k1'
  [vpcmpgtd_k]='vpcmpgtd %%ymm15,%%ymm14,%%k1'
)
rows=(vmulps vaddps vminps vcmpltps vblendvps vpminsd vpcmpgtd vunpcklps
  "vmulps vaddps" "vmulps vminps" "vaddps vminps" "vmulps vcmpltps" "vaddps vcmpltps"
  "vmulps vblendvps" "vaddps vblendvps" "vmulps vpminsd" "vaddps vpminsd" "vmulps vpcmpgtd"
  "vaddps vpcmpgtd" "vmulps vaddps vpminsd" "vmulps vaddps vblendvps")
if [ "$avx512" = 1 ]; then
  rows+=(vblendmps_k vcmpltps_k "vmulps vblendmps_k" "vaddps vblendmps_k"
    "vmulps vaddps vblendmps_k" "vmulps vcmpltps_k" "vaddps vcmpltps_k" "vmulps vpcmpgtd_k"
    "vaddps vpcmpgtd_k")
fi

{
  echo '#include <stdio.h>'
  echo '#include <time.h>'
  echo 'static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }'
  echo 'int main(void) { const long n = 50000000; double t0, t;'
  for row in "${rows[@]}"; do
    read -r -a kinds <<<"$row"
    # the inputs zeroed in the same statement (zero idioms take no pipe): the calls between
    # rows may leave anything in the vector and mask registers, a denormal's assists included
    body="vxorps %%ymm13,%%ymm13,%%ymm13\\nvxorps %%ymm14,%%ymm14,%%ymm14\\nvxorps %%ymm15,%%ymm15,%%ymm15\\n"
    [ "$avx512" = 1 ] && body+="kxnorw %%k1,%%k1,%%k1\\n"
    for k in $(seq 0 23); do # 24 instructions over 12 registers: the zeroing is a small part
      kind=${kinds[$((k % ${#kinds[@]}))]}
      body+="${op[$kind]//@/$((k % 12))}\\n"
    done
    clobber='"xmm0","xmm1","xmm2","xmm3","xmm4","xmm5","xmm6","xmm7","xmm8","xmm9","xmm10","xmm11","xmm13","xmm14","xmm15"'
    [ "$avx512" = 1 ] && clobber+=',"k1"'
    echo "t0 = now(); for (long i = 0; i < n; i++) __asm__ volatile(\"$body\" ::: $clobber);"
    echo "t = now() - t0; printf(\"| %s | %.2f |\\n\", \"${row// / + }\", 24.0 * n / (t * 1e9 * $ghz));"
  done
  echo 'return 0; }'
} >"$tmp/pipes.c"
cc -O1 "${flags[@]}" -o "$tmp/pipes" "$tmp/pipes.c"
printf '| 256-bit instructions, equal parts | a cycle (at %s GHz) |\n|---|---:|\n' "$ghz"
"$tmp/pipes"

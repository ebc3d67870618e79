#!/usr/bin/env bash
# Rebuilds what the emulated Pico runs (firmware/vendor/, README.md there): MicroPython v1.28.0's
# rp2 port for the board RPI_PICO, from pinned sources with Debian's gcc-arm-none-eabi and cmake,
# and the RP2040's boot ROM (revision B1) the emulator needs. CI never runs this: the products are
# kept in the project with their SHA-256, which this script checks at the end (byte for byte).
#
# Usage: scripts/build-micropython-rp2.sh [--install-tools] [--no-check]
#   --install-tools  apt-get install gcc-arm-none-eabi, libnewlib-arm-none-eabi, cmake first
#   --no-check       write the products even if their SHA-256 differ from the kept ones
# The sources come from GitHub, or from local git repositories named by these variables (any
# holding the pinned commit): MICROPYTHON_GIT, PICO_SDK_GIT, TINYUSB_GIT, MBEDTLS_GIT,
# MICROPYTHON_LIB_GIT, RP2040JS_GIT. The build runs in BUILD_ROOT (default
# /tmp/damath-micropython-rp2, always the same path: the firmware holds its source file names).
set -euo pipefail

HERE="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$HERE/firmware/vendor"
ROOT="${BUILD_ROOT:-/tmp/damath-micropython-rp2}"
UF2_NAME="micropython-rp2-RPI_PICO-v1.28.0.uf2"
ROM_NAME="rp2040-bootrom-b1.bin"

# repository (or local git dir), commit, where it goes under the MicroPython tree
MICROPYTHON=("${MICROPYTHON_GIT:-https://github.com/micropython/micropython.git}"
             e0e9fbb17ed6fd06bb76e266ae554784c9c80804)  # v1.28.0 (the tag's commit)
SUBMODULES=(
    "${PICO_SDK_GIT:-https://github.com/raspberrypi/pico-sdk.git}|a1438dff1d38bd9c65dbd693f0e5db4b9ae91779|lib/pico-sdk"
    "${TINYUSB_GIT:-https://github.com/hathach/tinyusb.git}|aa0fc2e08f1c2dd6f026a431e8989357fbb4c5bf|lib/tinyusb"
    "${MBEDTLS_GIT:-https://github.com/Mbed-TLS/mbedtls.git}|107ea89daaefb9867ea9121002fbbdf926780e98|lib/mbedtls"
    "${MICROPYTHON_LIB_GIT:-https://github.com/micropython/micropython-lib.git}|8380c7bb8f9e5e5260e9539156742925e00366b2|lib/micropython-lib"
)
RP2040JS=("${RP2040JS_GIT:-https://github.com/wokwi/rp2040js.git}"
          7701ee065f50a04380f81361befd754810cb9e28)  # rp2040js 1.3.3: demo/bootrom.ts

install_tools=0 check=1
for arg in "$@"; do
    case "$arg" in
        --install-tools) install_tools=1 ;;
        --no-check) check=0 ;;
        *) echo "build-micropython-rp2: unknown option $arg" >&2; exit 2 ;;
    esac
done
if [ "$install_tools" = 1 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-arm-none-eabi \
        libnewlib-arm-none-eabi cmake build-essential python3 >/dev/null
fi
for tool in arm-none-eabi-gcc cmake make python3 git; do
    command -v "$tool" >/dev/null || { echo "build-micropython-rp2: $tool is missing (--install-tools)" >&2; exit 2; }
done

# The tree of one commit of a repository (a local git dir or a URL), unpacked into a folder.
unpack() {
    local repo="$1" commit="$2" dest="$3"
    mkdir -p "$dest"
    if [ -d "$repo" ]; then
        python3 "$HERE/scripts/git_export.py" "$repo" "$commit" "$dest"
    else
        local tmp="$ROOT/git/$(basename "$dest")"
        rm -rf "$tmp"
        git init -q --bare "$tmp"
        git -C "$tmp" fetch -q --depth=1 "$repo" "$commit"
        git -C "$tmp" archive --format=tar "$commit" | tar -x -C "$dest"
    fi
}

rm -rf "$ROOT"
mkdir -p "$ROOT"
MP="$ROOT/micropython"
echo "== sources into $ROOT"
unpack "${MICROPYTHON[0]}" "${MICROPYTHON[1]}" "$MP"
for entry in "${SUBMODULES[@]}"; do
    IFS='|' read -r repo commit path <<<"$entry"
    unpack "$repo" "$commit" "$MP/$path"
done

# The version the firmware reports, without a .git to ask: the tag, its commit, its day.
export MICROPY_GIT_TAG=v1.28.0 MICROPY_GIT_HASH="${MICROPYTHON[1]:0:10}"
export SOURCE_DATE_EPOCH=1775481169  # the v1.28.0 commit's time
export LC_ALL=C TZ=UTC

echo "== mpy-cross"
make -s -C "$MP/mpy-cross" -j2 >"$ROOT/mpy-cross.log" 2>&1 || { tail -30 "$ROOT/mpy-cross.log"; exit 1; }
echo "== ports/rp2, BOARD=RPI_PICO (a few minutes on two cores)"
# No picotool (the SDK would download and build one; an RP2040 image needs it for nothing but
# the UF2, which is made from firmware.bin below): picotool_FOUND=0 tells the SDK not to look.
CMAKE_ARGS="-Dpicotool_FOUND=0" make -s -C "$MP/ports/rp2" BOARD=RPI_PICO -j2 >"$ROOT/rp2.log" 2>&1 || { tail -40 "$ROOT/rp2.log"; exit 1; }
BIN="$MP/ports/rp2/build-RPI_PICO/firmware.bin"

# UF2 (Microsoft's format, as the RP2040's boot ROM reads it): 512-byte blocks, 256 bytes of the
# image each, at 0x10000000 onwards (XIP flash), with the RP2040's family id.
python3 - "$BIN" "$ROOT/$UF2_NAME" <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
data += bytes(-len(data) % 256)
count = len(data) // 256
with open(sys.argv[2], "wb") as out:
    for n in range(count):
        head = struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0x00002000, 0x10000000 + 256 * n,
                           256, n, count, 0xE48BFF56)  # flags: family id present
        out.write(head + data[256 * n:256 * n + 256] + bytes(476 - 256) + struct.pack("<I", 0x0AB16F30))
EOF

echo "== boot ROM B1 (rp2040js ${RP2040JS[1]:0:8}: demo/bootrom.ts)"
unpack "${RP2040JS[0]}" "${RP2040JS[1]}" "$ROOT/rp2040js"
python3 - "$ROOT/rp2040js/demo/bootrom.ts" "$ROOT/$ROM_NAME" <<'EOF'
import re, struct, sys
text = open(sys.argv[1]).read()
words = [int(w, 16) for w in re.findall(r"0x[0-9a-fA-F]{8}", text.split("Uint32Array([", 1)[1])]
rom = struct.pack("<%dI" % len(words), *words)
assert len(rom) == 16384, len(rom)
assert rom[0x10:0x13] == b"Mu\x01" and rom[0x13] == 2, "not the B1 boot ROM"  # version 2: B1
open(sys.argv[2], "wb").write(rom)
EOF

cd "$ROOT"
sha256sum "$UF2_NAME" "$ROM_NAME" >SHA256SUMS
if [ "$check" = 1 ] && ! (cd "$OUT" && sha256sum -c --quiet "$ROOT/SHA256SUMS" 2>/dev/null); then
    echo "build-micropython-rp2: the build differs from firmware/vendor/ (SHA-256):" >&2
    cat SHA256SUMS >&2
    echo "(--no-check writes it there anyway)" >&2
    exit 1
fi
mkdir -p "$OUT"
cp "$UF2_NAME" "$ROM_NAME" SHA256SUMS "$OUT/"
echo "== firmware/vendor/ is the build, byte for byte:"
cat SHA256SUMS

#!/usr/bin/env bash
# Installs what PureImage's tests, conformance suite and benchmark need, skipping whatever is
# already there. Debian packages: the system zlib (the library's one C dependency), the
# reference decoders (libjpeg-turbo, libpng, giflib, libtiff, libwebp; also libspng and stb_image, which
# the bench times as extra columns: CReference links them, so every build needs them) and the
# tools that generate and check the project's own corpus. PyPI: Pillow (the independent
# APNG/GIF/resampling reference) and imagecodecs (for its libjpeg-turbo 3).
set -euo pipefail

packages=(
  zlib1g-dev libjpeg62-turbo-dev libpng-dev libgif-dev libtiff-dev libwebp-dev libspng-dev libstb-dev
  libjpeg-turbo-progs pngcheck imagemagick gifsicle libtiff-tools webp
  time   # /usr/bin/time: scripts/bombs.sh measures peak memory with it
  libimage-exiftool-perl   # exiftool: the EXIF reference of Conformance/exif_vs_exiftool.py
  chromium   # headless: scripts/check-report.sh opens the conformance report as a reader would
)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! python3 -c "import PIL" >/dev/null 2>&1; then
  echo "installing: Pillow (PyPI)"
  python3 -m pip install --quiet --disable-pip-version-check pillow
fi

# libjpeg-turbo 3 (the reference for 12-bit and lossless JPEG, which Debian's 2.1.5 cannot
# decode) comes as a shared library inside the imagecodecs wheel; CReferenceJPEG3 loads it at
# run time. Pinned: this release carries libjpeg-turbo 3.1.3, the version the corpus notes name.
if ! python3 -c "import imagecodecs; assert imagecodecs.__version__ == '2026.3.6'" >/dev/null 2>&1; then
  echo "installing: imagecodecs 2026.3.6 (PyPI; for its libjpeg-turbo 3.1.3)"
  python3 -m pip install --quiet --disable-pip-version-check "imagecodecs==2026.3.6"
fi

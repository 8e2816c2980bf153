# Sourced by scripts/play and scripts/test: installs the Debian packages a command needs, only when missing.

# The C libraries the package links, and pkg-config to find them; Ableton Link and standalone asio are header-only C++.
BUILD_PACKAGES=(pkg-config libsdl2-dev libasound2-dev libsndfile1-dev libsamplerate0-dev libebur128-dev libcairo2-dev libpixman-1-dev libpango1.0-dev zlib1g-dev librsvg2-dev librlottie-dev ableton-link-dev libasio-dev liblo-dev libx11-dev)
# Fonts the scenes use: DejaVu for Latin, Noto CJK for the Chinese and Japanese titles and labels.
FONT_PACKAGES=(fonts-dejavu-core fonts-noto-cjk)

ensure_debian_packages() {
    local missing=()
    local package
    for package in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0

    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null 2>&1; then
            echo "error: these Debian packages are missing: ${missing[*]}" >&2
            echo "hint: as root, run: apt-get install -y ${missing[*]}" >&2
            return 1
        fi
        sudo=(sudo)
    fi
    echo "Installing Debian packages: ${missing[*]}" >&2
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
}

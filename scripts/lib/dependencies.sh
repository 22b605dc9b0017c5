# Installs the system packages storebench builds against, when missing (Debian/Ubuntu).
# Sourced by scripts/bench and scripts/test. Uses sudo when not root.
STOREBENCH_APT_PACKAGES=(libsqlite3-dev liblmdb-dev libgdbm-dev pkg-config fuse3 libfuse3-dev valgrind binutils)

# ensure_system_packages [PACKAGE…]: the given packages, or STOREBENCH_APT_PACKAGES.
ensure_system_packages() {
    local wanted=("$@")
    if [ "${#wanted[@]}" -eq 0 ]; then
        wanted=("${STOREBENCH_APT_PACKAGES[@]}")
    fi
    local missing=()
    local package
    for package in "${wanted[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        return 0
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "error: missing system packages (${missing[*]}) and no apt-get to install them" >&2
        return 1
    fi
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null 2>&1; then
            echo "error: missing system packages (${missing[*]}); run as root or install sudo" >&2
            return 1
        fi
        sudo=(sudo)
    fi
    echo "installing system packages: ${missing[*]}" >&2
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# ensure_tracefs: mounts the kernel's tracing file system when it is missing and we are root, so storebench can count
# syncs and system calls (its tracepoints live there). Not root, or a kernel without tracefs: storebench leaves those
# columns empty and says why in environment.json; this is not an error.
ensure_tracefs() {
    local root=/sys/kernel/tracing
    if [ -d "$root/events/syscalls" ] || [ "$(id -u)" -ne 0 ] || [ ! -d "$root" ]; then
        return 0
    fi
    mount -t tracefs nodev "$root" 2>/dev/null || echo "warning: could not mount tracefs at $root; syncs and system calls will not be counted" >&2
}

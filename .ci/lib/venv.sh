# Sourced by the checks that need a Python tool: installs pinned packages
# from PyPI into a fresh virtual environment.
#
# Usage: python_tool DIR PACKAGE==VERSION...; fails (saying nothing) when
# python3, its venv module or the packages cannot be had, so that the
# caller can skip with its own message. The tools are then in DIR/bin.
python_tool() {
    local dir="$1"
    shift
    command -v python3 >/dev/null 2>&1 \
        && python3 -m venv "$dir" >/dev/null 2>&1 \
        && "$dir/bin/pip" install -q "$@" >/dev/null 2>&1
}

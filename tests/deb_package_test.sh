#!/usr/bin/env bash
# The Debian package, built and installed as a user would have it: `cpack -G DEB` over the build
# tree, its control fields (Depends as dpkg-shlibdeps found them), `apt-get install --simulate` on
# this machine, an unprivileged `dpkg --root` install into a scratch root, and the installed gpudiag
# run from there, outside the source tree: --version, analyze on the bundled example, its man page.
# Every tool it uses is required: a missing one fails the test, it never skips.
#   usage: tests/deb_package_test.sh CPACK BUILD_DIR SOURCE_DIR BUILT_GPUDIAG VERSION check-build-paths|keep-build-paths
# check-build-paths: the installed binary must not name the source or build tree (a Release build;
# a Debug build keeps source paths for assert()).
set -euo pipefail
cpack=$1 build_dir=$(realpath "$2") source_dir=$(realpath "$3") built_gpudiag=$(realpath "$4") version=$5 paths=$6
case "$paths" in check-build-paths|keep-build-paths) ;; *) echo "usage: see the top of $0" >&2; exit 2 ;; esac

fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in "$cpack" dpkg dpkg-deb dpkg-shlibdeps dpkg-architecture apt-get man readelf python3; do
  command -v "$tool" >/dev/null || fail "$tool is missing (tools/setup test installs it: dpkg-dev, man-db, binutils, apt)"
done
[ -f "$build_dir/packaging/gpudiag.1.gz" ] ||
  fail "no man page was built: help2man was missing when $build_dir was configured (apt-get install help2man, then re-run cmake)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
step() { echo "== $* (at ${SECONDS}s)"; }

step "cpack -G DEB"
"$cpack" -G DEB --config "$build_dir/CPackConfig.cmake" -B "$work/package" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; fail "cpack -G DEB failed"; }
arch=$(dpkg --print-architecture)
deb="$work/package/gpudiag_${version}_${arch}.deb"
[ -f "$deb" ] || { ls "$work/package"; fail "cpack wrote no gpudiag_${version}_${arch}.deb"; }
echo "$(basename "$deb"): $(stat -c %s "$deb") bytes"

step "control fields"
dpkg-deb --field "$deb" >"$work/control"
field() { sed -n "s/^$1: //p" "$work/control"; }
[ "$(field Package)" = gpudiag ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), the project's is $version"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture: $(field Architecture)"
[ "$(field Section)" = utils ] || fail "Section: $(field Section)"
[[ "$(field Maintainer)" =~ ^[^\<]+\ \<[^@]+@[^\>]+\>$ ]] || fail "Maintainer is not 'Name <address>': $(field Maintainer)"
description=$(dpkg-deb --field "$deb" Description)
[ "$(echo "$description" | wc -l)" -ge 3 ] || fail "Description has no long description: $description"
echo "$description" | awk 'length > 80 { bad = 1 } END { exit bad }' || fail "a Description line is longer than 80 columns"
depends=$(field Depends)
echo "Depends: $depends"
# dpkg-shlibdeps's Depends: the package of every library the binary is linked against.
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
sonames=$(readelf -d "$built_gpudiag" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$sonames" ] || fail "readelf lists no NEEDED library of $built_gpudiag"
dpkg -S $(printf "*/$multiarch/%s " $sonames) >"$work/owners" 2>&1 || { cat "$work/owners"; fail "dpkg -S"; }
for soname in $sonames; do
  package=$(grep -F "/$soname" "$work/owners" | grep -F ": /" | head -n1 | cut -d: -f1)
  [ -n "$package" ] || fail "no package on this machine holds $soname"
  [[ ", $depends," == *", $package,"* || ", $depends" == *", $package ("* ]] ||
    fail "Depends lacks $package, which holds $soname the binary links against"
done

step "package contents"
dpkg-deb --contents "$deb" >"$work/contents"
for path in ./usr/bin/gpudiag ./usr/share/man/man1/gpudiag.1.gz ./usr/share/doc/gpudiag/README.md \
  ./usr/share/doc/gpudiag/docs/upgrading.md ./usr/share/doc/gpudiag/examples/gpu-oom.json \
  ./usr/share/bash-completion/completions/gpudiag ./usr/share/zsh/vendor-completions/_gpudiag \
  ./usr/share/fish/vendor_completions.d/gpudiag.fish; do
  awk -v p="$path" '$6 == p { found = 1 } END { exit !found }' "$work/contents" || fail "the package has no $path"
done
awk '$2 != "root/root" || $6 !~ /^\.\/usr\// { print; bad = 1 } END { exit bad }' "$work/contents" ||
  fail "files outside /usr or not owned by root (above)"

step "apt-get install --simulate"
apt-get install --simulate "$deb" >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "apt-get cannot install the package"; }
grep -Eq "^Inst gpudiag |^gpudiag is already the newest version" "$work/apt.log" ||
  { cat "$work/apt.log"; fail "apt-get would not install gpudiag"; }
grep "^Inst \|^Conf " "$work/apt.log"

# mmdebstrap could build a clean chroot only from a package mirror, and chroot needs root: the
# scratch root is an empty dpkg database, the libraries are this machine's (apt-get checked them).
step "dpkg --root into a scratch root (needs no root: --force-not-root)"
root="$work/root"
mkdir -p "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/triggers"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
dpkg --root="$root" --force-not-root --force-depends --log=/dev/null --install "$deb" >"$work/dpkg.log" 2>&1 ||
  { cat "$work/dpkg.log"; fail "dpkg --root --install failed"; }
[ "$(dpkg --root="$root" --status gpudiag | sed -n 's/^Status: //p')" = "install ok installed" ] ||
  fail "dpkg does not list gpudiag as installed in the scratch root"
installed="$root/usr/bin/gpudiag"
ldd "$installed" | grep "not found" && fail "the installed binary misses libraries (above)"
if [ "$paths" = check-build-paths ] && grep -qaF -e "$source_dir" -e "$build_dir" "$installed"; then
  fail "the installed binary names the source or build tree: it must need neither"
fi

step "the installed gpudiag, from an empty directory"
elsewhere="$work/elsewhere"
mkdir "$elsewhere"
run() { (cd "$elsewhere" && env -i HOME="$elsewhere" PATH=/usr/bin:/bin LANG=C.UTF-8 "$@"); }
[ "$(run "$installed" --version)" = "gpudiag $version" ] || fail "--version: $(run "$installed" --version)"
sample="$root/usr/share/doc/gpudiag/examples/gpu-oom.json"
run "$installed" analyze --no-color "$sample" >"$work/analyze.txt" ||
  { cat "$work/analyze.txt"; fail "gpudiag analyze on the bundled example failed"; }
head -n 4 "$work/analyze.txt"
run "$installed" analyze --format json --deterministic "$sample" >"$work/installed.json"
python3 - "$work/installed.json" <<'PYTHON' || fail "the bundled example's diagnosis (above)"
import json, sys
report = json.load(open(sys.argv[1]))
top = report["findings"][0]
print(f"verdict {report['verdict']}, top finding {top['rule_id']}")
sys.exit(0 if report["verdict"] == "failed" and top["rule_id"] == "gpu-out-of-memory" else 1)
PYTHON
# Stripped and installed, the binary says exactly what the build tree's says.
run "$built_gpudiag" analyze --format json --deterministic "$sample" >"$work/built.json"
cmp -s "$work/installed.json" "$work/built.json" || fail "the installed and the built gpudiag disagree on the example"

step "man -l on the installed man page"
man_page="$root/usr/share/man/man1/gpudiag.1.gz"
MANWIDTH=80 man --warnings -l "$man_page" >"$work/man.txt" 2>"$work/man.err" || fail "man -l failed: $(cat "$work/man.err")"
[ ! -s "$work/man.err" ] || { cat "$work/man.err"; fail "groff warns about the man page (above)"; }
for heading in NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS; do
  grep -q "^$heading\$" "$work/man.txt" || fail "the man page has no $heading section"
done
grep -q "^ *gpudiag $version " "$work/man.txt" || fail "the man page's footer does not name gpudiag $version"
# Every subcommand the installed binary lists has its part of COMMANDS.
subcommands=$(run "$installed" --help | awk '/^Subcommands:/ { on = 1; next } on && /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }')
[ -n "$subcommands" ] || fail "gpudiag --help lists no subcommands"
for sub in $subcommands; do
  grep -q "^   gpudiag $sub\$" "$work/man.txt" || fail "the man page has no part for 'gpudiag $sub'"
done
echo "man page: $(wc -l <"$work/man.txt") lines, parts for $(echo $subcommands)"
echo "PASS in ${SECONDS}s"

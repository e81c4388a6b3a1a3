#!/usr/bin/env bash
# Command-level benchmark of `unreal-ls lint`: builds release, generates synthetic 10 MB and
# 50 MB maps into target/ (tools/mapgen), and times the whole command on them and on the
# corpus' largest real UE1 map. Prints a table: median and best wall time of N runs, MB/s
# (from the median), peak RSS, and the number of findings.
#
#   bench/lint.sh            # 5 runs each
#   RUNS=10 bench/lint.sh
#
# Peak RSS comes from /usr/bin/time -v when it is installed, else from wait4()'s rusage.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${RUNS:-5}"
target_dir="${CARGO_TARGET_DIR:-target}"
mkdir -p target

echo "==> cargo build --release -p unreal-ls -p unreal-mapgen" >&2
cargo build --release -q -p unreal-ls -p unreal-mapgen
bin="$target_dir/release/unreal-ls"
mapgen="$target_dir/release/mapgen"

files=()
for size in 10 50; do
  map="target/synth-${size}mb.t3d"
  if [ ! -f "$map" ]; then
    "$mapgen" --size "${size}MB" --seed 1 -o "$map"
  fi
  files+=("$map")
done
corpus_map="../shared/corpus/t3d/ue1/blender_t3d_test_map.t3d"
if [ -f "$corpus_map" ]; then
  files+=("$corpus_map")
else
  echo "note: $corpus_map is absent; timing the synthetic maps only" >&2
fi

time_bin=""
if [ -x /usr/bin/time ] && /usr/bin/time -v true >/dev/null 2>&1; then
  time_bin=/usr/bin/time
fi

python3 - "$bin" "$runs" "$time_bin" "${files[@]}" <<'PY'
import json, os, re, statistics, subprocess, sys, time

binary, runs, time_bin, files = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]

def one_run(path):
    """Wall seconds and peak RSS (KiB) of one `unreal-ls lint --format json PATH`."""
    cmd = [binary, "lint", "--format", "json", path]
    if time_bin:
        cmd = [time_bin, "-v"] + cmd
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit("unreal-ls lint %s exited %d:\n%s" % (path, code, stderr.decode(errors="replace")))
    rss = usage.ru_maxrss
    if time_bin:
        m = re.search(rb"Maximum resident set size \(kbytes\): (\d+)", stderr)
        if m:
            rss = int(m.group(1))
    return elapsed, rss

rows = []
for path in files:
    size = os.path.getsize(path)
    out = subprocess.run([binary, "lint", "--format", "json", path], capture_output=True)
    findings = len(json.loads(out.stdout)["diagnostics"])
    one_run(path)  # warm the page cache
    samples = [one_run(path) for _ in range(runs)]
    times = [s[0] for s in samples]
    median = statistics.median(times)
    rows.append((path, size / 1e6, median, min(times), size / 1e6 / median,
                 max(s[1] for s in samples) / 1024, findings))

print("unreal-ls lint --format json, %d runs each, %d cores, rss from %s"
      % (runs, os.cpu_count(), "/usr/bin/time -v" if time_bin else "wait4 rusage"))
header = ("file", "MB", "median s", "best s", "MB/s", "peak RSS MB", "findings")
print("%-52s %8s %9s %9s %8s %12s %9s" % header)
for path, mb, median, best, rate, rss, findings in rows:
    print("%-52s %8.2f %9.3f %9.3f %8.1f %12.1f %9d" % (path[-52:], mb, median, best, rate, rss, findings))
PY

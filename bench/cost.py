#!/usr/bin/env python3
"""pmustat's cost per run, as ratios against baselines run side by side.

A benchmark, not a test: it prints ratios and never fails on them. Each
round runs every contender once, in an order that rotates from round to
round, so that a burst of load on a shared host falls on all of them; the
report gives per ratio the median over the rounds and its range (lowest,
highest round). Wall time is measured around each command, CPU time is the
user+system time of the command and of every process it waited for
(wait4's rusage), so hyperfine's, perf's and pmustat's children count.

    python3 bench/cost.py PMUSTAT [PMUSTAT_BEFORE]

With PMUSTAT_BEFORE (a build of an older commit), its ratios are measured in
the same rounds and printed beside. Contenders:
  - 200 runs of /bin/true: `pmustat stat -r 200 -q` against `hyperfine -N
    -r 200` and a bare fork/exec/wait loop in C (bench/forkloop.c);
  - one run: `pmustat stat -r 1 -q` against `perf stat` (batches of 20);
  - compare, 100 blocks of /bin/true against /bin/echo: `pmustat compare
    --blocks 100` against `hyperfine -N -r 100` of the same two commands;
  - the same compare of /bin/true with itself against hyperfine running it
    twice (no target: it shows what interleaving two programs costs);
  - `pmustat doctor` (batches of 10), and /bin/true the same way: the host's
    floor for starting any program, which a loaded host raises.
Environment: BENCH_ROUNDS (default 7). Contenders whose tool is missing
(hyperfine: `sh scripts/install-deps.sh bench`; perf) are skipped, said so.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "7"))
HERE = os.path.dirname(os.path.abspath(__file__))


def run(argv):
    """Wall seconds and CPU seconds (with waited-for descendants) of argv."""
    devnull = os.open(os.devnull, os.O_RDWR)
    t0 = time.monotonic()
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 0),
                                       (os.POSIX_SPAWN_DUP2, devnull, 1),
                                       (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status, ru = os.wait4(pid, 0)
    wall = time.monotonic() - t0
    os.close(devnull)
    if os.waitstatus_to_exitcode(status) not in (0,):
        sys.exit("bench: %s failed (status %d)" % (" ".join(argv), status))
    return wall, ru.ru_utime + ru.ru_stime


def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def build_forkloop(tmp):
    exe = os.path.join(tmp, "forkloop")
    subprocess.run(["cc", "-O2", "-o", exe, os.path.join(HERE, "forkloop.c")], check=True)
    return exe


def contenders(pm, before, tools):
    """name -> argv; the ratios below name them."""
    c = {}
    for tag, exe in (("pmustat", pm), ("before", before)):
        if not exe:
            continue
        c[tag + " stat -r 200"] = [exe, "stat", "-r", "200", "-q", "--", "/bin/true"]
        c[tag + " stat -r 1 x20"] = [tools["forkloop"], "20", exe, "stat", "-r", "1", "-q",
                                     "--", "/bin/true"]
        c[tag + " compare 100"] = [exe, "compare", "--blocks", "100", "--", "/bin/true",
                                   "--", "/bin/echo"]
        c[tag + " compare 100 same"] = [exe, "compare", "--blocks", "100", "--", "/bin/true",
                                        "--", "/bin/true"]
        c[tag + " doctor x10"] = [tools["forkloop"], "10", exe, "doctor"]
    c["forkloop 200"] = [tools["forkloop"], "200", "/bin/true"]
    c["true x10"] = [tools["forkloop"], "10", "/bin/true"]
    if tools.get("hyperfine"):
        hf = [tools["hyperfine"], "-N", "--style", "none", "--export-json", os.devnull]
        c["hyperfine -r 200"] = hf + ["-r", "200", "/bin/true"]
        c["hyperfine -r 100 x2"] = hf + ["-r", "100", "/bin/true", "/bin/echo"]
        c["hyperfine -r 100 x2 same"] = hf + ["-r", "100", "/bin/true", "/bin/true"]
    if tools.get("perf"):
        c["perf stat x20"] = [tools["forkloop"], "20", tools["perf"], "stat", "-o", os.devnull,
                              "--", "/bin/true"]
    return c


def ratios(tag):
    """(label, numerator, denominator, what, target) for one pmustat build."""
    return [
        ("200 runs of /bin/true / hyperfine -N -r 200", tag + " stat -r 200",
         "hyperfine -r 200", "both", 1.0),
        ("200 runs of /bin/true / bare fork-exec-wait loop", tag + " stat -r 200",
         "forkloop 200", "both", 1.2),
        ("one run (stat -r 1) / perf stat", tag + " stat -r 1 x20", "perf stat x20", "both", 0.5),
        ("compare, 100 blocks / hyperfine -N -r 100 of both", tag + " compare 100",
         "hyperfine -r 100 x2", "both", 1.0),
        # No target: the same program twice, so that interleaving two
        # programs (compare's method) costs nothing; the difference from the
        # line above is what alternating /bin/true and /bin/echo costs.
        ("compare of /bin/true with itself / hyperfine of it twice", tag + " compare 100 same",
         "hyperfine -r 100 x2 same", "both", None),
    ]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: bench/cost.py PMUSTAT [PMUSTAT_BEFORE]")
    pm = os.path.abspath(sys.argv[1])
    before = os.path.abspath(sys.argv[2]) if len(sys.argv) == 3 else None
    tmp = tempfile.mkdtemp()
    try:
        tools = {"forkloop": build_forkloop(tmp), "hyperfine": shutil.which("hyperfine"),
                 "perf": shutil.which("perf")}
        if tools["perf"] and subprocess.run([tools["perf"], "stat", "-o", os.devnull, "true"],
                                            stderr=subprocess.DEVNULL).returncode:
            tools["perf"] = None
        c = contenders(pm, before, tools)
        names = list(c)
        wall = {n: [] for n in names}
        cpu = {n: [] for n in names}
        load0 = os.getloadavg()
        for r in range(ROUNDS):
            order = names[r % len(names):] + names[:r % len(names)]
            for n in order:
                w, u = run(c[n])
                wall[n].append(w)
                cpu[n].append(u)
        load1 = os.getloadavg()
    finally:
        shutil.rmtree(tmp)

    print("pmustat cost per run: %d rounds, %s cores, load average %.2f at start, %.2f at end"
          % (ROUNDS, os.cpu_count(), load0[0], load1[0]))
    for t, why in (("hyperfine", "install it: sh scripts/install-deps.sh bench"),
                   ("perf", "perf stat cannot run here")):
        if not tools[t]:
            print("  skip: no %s (%s)" % (t, why))
    tags = ["pmustat"] + (["before"] if before else [])
    print("  ratio (median of rounds [lowest, highest]); target      " +
          "".join("%-36s" % t for t in tags))
    for i, (label, _, _, _, target) in enumerate(ratios("pmustat")):
        for kind, series in (("wall", wall), ("CPU", cpu)):
            cells = []
            for tag in tags:
                _, num, den, _, _ = ratios(tag)[i]
                if num not in c or den not in c:
                    cells.append("skipped")
                    continue
                per = [a / b for a, b in zip(series[num], series[den]) if b > 0]
                cells.append("%.2fx [%.2f, %.2f]" % (median(per), min(per), max(per)))
            goal = "<= %.1fx" % target if target else "(info)"
            print("  %-50s %-4s %-7s  %s" % (label, kind, goal,
                                            "".join("%-36s" % x for x in cells)))
    for tag in tags:
        d = [w / 10 * 1e3 for w in wall[tag + " doctor x10"]]
        print("  %-7s doctor: %.1f ms wall per call (median) [%.1f, %.1f], target <= 20 ms"
              % (tag, median(d), min(d), max(d)))
    t = [w / 10 * 1e3 for w in wall["true x10"]]
    print("  /bin/true alone: %.1f ms wall per call (median) [%.1f, %.1f]: the host's floor now"
          % (median(t), min(t), max(t)))
    for n in names:
        print("  raw %-22s wall median %8.3f s  CPU median %8.3f s" %
              (n, median(wall[n]), median(cpu[n])))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Bisecting a 5% wall-time regression: pmustat bisect against git bisect run.

A benchmark, not a test: it asserts nothing and prints a table. Each trial
builds, in a temporary directory, a git history of BENCH_COMMITS commits of a
small C program (bench/bisect_prog.c, ~BENCH_RUN_MS ms a run) in which one
commit, drawn from a seeded generator, adds 5% more work; every other commit
changes only a version string and a change log. Then both contenders look for
that commit, one after the other in an order that alternates from trial to
trial, so that a burst of load on a shared host falls on both:

  - baseline: the manual workflow, `git bisect run` driving this script
    (`--step`): it builds the candidate with `make` (a failed build is
    `git bisect skip`, exit 125), then `hyperfine -N --export-json` runs the
    candidate and the good endpoint's binary (built once before the bisect),
    with hyperfine's own run count (at least 10 runs and 3 s per command)
    unless BENCH_HF_RUNS is set, and Welch's t-test on the two samples of
    wall times decides: p < BENCH_ALPHA (default 0.05, two-sided) with the
    candidate's mean above the good one's is "bad", anything else "good".
  - pmustat: `pmustat bisect --good G --bad B --build make -m wall-time
    -o DIR -- ./prog N`, with its own rules (DIR/bisect.json is read); while the command does
    not exist in PMUSTAT, its column says SKIP and the baseline runs alone.

Per contender: how often the known culprit was named (of BENCH_TRIALS), how
often another commit was named instead (a wrong answer) and how often none
was (pmustat stopped without a culprit, exit 4 or 5), the measured runs (warm-ups included) in total and per trial, the wall time of
the whole bisect (builds included), side by side, the 1-minute load
average seen during the trials and the wall-time noise hyperfine saw (the
coefficient of variation of the good build's runs, median over the steps).

    python3 bench/bisect.py [PMUSTAT]          (default build/pmustat)

Environment: BENCH_TRIALS (default 5), BENCH_COMMITS (default 30),
BENCH_RUN_MS (default 30: the program's size is calibrated to it on this
host), BENCH_REGRESSION_PCT (default 5), BENCH_SEED (default 1),
BENCH_HF_RUNS (default: hyperfine's own), BENCH_HF_WARMUP (default 1),
BENCH_ALPHA (default 0.05), BENCH_METRIC (pmustat's primary metric, default
wall-time; task-clock is what pmustat advises when other tasks take the CPUs,
while the baseline stays on hyperfine's wall times), BENCH_PMUSTAT_ARGS (extra options for pmustat
bisect, split on spaces), BENCH_KEEP=1 keeps the temporary directory.
hyperfine: `sh scripts/install-deps.sh bench`; without it the baseline
column says SKIP.
"""
import json
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
NOISE = []      # per baseline step: the good build's coefficient of variation
ROOT = os.path.dirname(HERE)


def env_int(name, default):
    return int(os.environ.get(name, str(default)))


# ---------------------------------------------------------------------------
# Welch's t-test, written out here so that the baseline needs no SciPy.
# t = (mean_b - mean_a) / sqrt(va/na + vb/nb), Welch-Satterthwaite degrees of
# freedom, two-sided p = I_{df/(df+t^2)}(df/2, 1/2) (the regularized
# incomplete beta function, by its continued fraction, DLMF 8.17.22, with
# the modified Lentz method). Checked against shared/STATS.md's T2 values at
# start-up (p 0.004286231).

def _betacf(a, b, x):
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def betainc(a, b, x):
    """Regularized incomplete beta I_x(a, b) for 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
           + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * _betacf(b, a, 1.0 - x) / b


def mean_var(x):
    m = sum(x) / len(x)
    return m, sum((v - m) ** 2 for v in x) / (len(x) - 1)


def welch(a, b):
    """(t, df, two-sided p) of mean(b) - mean(a)."""
    ma, va = mean_var(a)
    mb, vb = mean_var(b)
    sa, sb = va / len(a), vb / len(b)
    if sa + sb == 0.0:
        return 0.0, float(len(a) + len(b) - 2), 1.0 if ma == mb else 0.0
    t = (mb - ma) / math.sqrt(sa + sb)
    df = (sa + sb) ** 2 / (sa ** 2 / (len(a) - 1) + sb ** 2 / (len(b) - 1))
    return t, df, betainc(df / 2.0, 0.5, df / (df + t * t))


def welch_selfcheck():
    t, df, p = welch([10.1, 10.3, 10.2, 10.4, 10.0],
                     [10.6, 11.2, 10.4, 11.0, 10.8, 11.4])
    ok = (abs(t - 4.158619681) < 1e-8 and abs(df - 6.972255730) < 1e-8
          and abs(p - 0.004286231) < 1e-8)
    if not ok:
        sys.exit("bisect bench: Welch's test is wrong (t %.9f df %.9f p %.9f;"
                 " want STATS.md T2)" % (t, df, p))


# ---------------------------------------------------------------------------
# One step of the baseline, run by `git bisect run` inside the clone:
#   bisect.py --step GOOD_BINARY N LOG
# exit 0 good, 1 bad, 125 skip (git bisect run's protocol).

def step(good_bin, n, log):
    if subprocess.run(["make", "-s"], stdout=subprocess.DEVNULL).returncode:
        with open(log, "a") as f:
            f.write("skip 0\n")
        return 125
    out = os.path.join(os.path.dirname(os.path.abspath(log)), "hyperfine.json")
    argv = ["hyperfine", "-N", "--export-json", out,
            "-w", os.environ.get("BENCH_HF_WARMUP", "1")]
    if os.environ.get("BENCH_HF_RUNS"):
        argv += ["-r", os.environ["BENCH_HF_RUNS"]]
    argv += ["%s %s" % (good_bin, n), "./prog %s" % n]
    if subprocess.run(argv, stdout=subprocess.DEVNULL).returncode:
        return 128                      # aborts the bisect: hyperfine failed
    with open(out) as f:
        res = json.load(f)["results"]
    good, cand = res[0]["times"], res[1]["times"]
    _, _, p = welch(good, cand)
    bad = p < float(os.environ.get("BENCH_ALPHA", "0.05")) and \
        sum(cand) / len(cand) > sum(good) / len(good)
    warm = 2 * int(os.environ.get("BENCH_HF_WARMUP", "1"))
    mg, vg = mean_var(good)
    with open(log, "a") as f:
        f.write("%s %d %.6f %.6f\n" % ("bad" if bad else "good",
                                       len(good) + len(cand) + warm, p, math.sqrt(vg) / mg))
    return 1 if bad else 0


# ---------------------------------------------------------------------------
# The history.

MAKEFILE = "prog: prog.c version.h\n\t$(CC) -O2 -o prog prog.c\n"


def git(cwd, *args, capture=False):
    r = subprocess.run(["git", "-C", cwd] + list(args), check=True,
                       stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                       stderr=subprocess.PIPE if capture else subprocess.DEVNULL,
                       text=True)
    return r.stdout.strip() if capture else None


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def make_history(repo, commits, culprit, extra_permille):
    """A repository of `commits` commits; commit index `culprit` (0-based)
    turns EXTRA_PERMILLE from 0 to extra_permille. Returns the shas."""
    os.makedirs(repo)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "bench@example.org")
    git(repo, "config", "user.name", "bench")
    shutil.copy(os.path.join(HERE, "bisect_prog.c"), os.path.join(repo, "prog.c"))
    write(os.path.join(repo, "Makefile"), MAKEFILE)
    write(os.path.join(repo, ".gitignore"), "prog\n")
    shas, extra, changes = [], 0, ""
    for i in range(commits):
        if i == culprit:
            extra = extra_permille
            subject = "validate every state twice (%d per mille more work)" % extra
        else:
            subject = "release r%d" % i
        changes += "r%d: %s\n" % (i, subject)
        write(os.path.join(repo, "CHANGES"), changes)
        write(os.path.join(repo, "version.h"),
              '#define VERSION "r%d"\n#define EXTRA_PERMILLE %d\n' % (i, extra))
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", subject)
        shas.append(git(repo, "rev-parse", "HEAD", capture=True))
    return shas


def calibrate(tmp, target_ms):
    """The program's size n for about target_ms per run here."""
    exe = os.path.join(tmp, "calib")
    write(os.path.join(tmp, "version.h"), '#define VERSION "c"\n#define EXTRA_PERMILLE 0\n')
    subprocess.run(["cc", "-O2", "-I", tmp, "-o", exe, os.path.join(HERE, "bisect_prog.c")],
                   check=True)
    n = 2000000
    for _ in range(4):
        walls = []
        for _ in range(5):
            t0 = time.monotonic()
            subprocess.run([exe, str(n)], check=True, stdout=subprocess.DEVNULL)
            walls.append(time.monotonic() - t0)
        ms = sorted(walls)[2] * 1000
        n = max(1000, int(n * target_ms / ms))
        if abs(ms - target_ms) < 0.1 * target_ms:
            break
    return n


# ---------------------------------------------------------------------------
# The contenders.

def run_baseline(clone, good, bad, n, log):
    """git bisect run + hyperfine + Welch. Returns (named sha, runs, steps)."""
    good_bin = os.path.join(os.path.dirname(clone), "good-prog")
    git(clone, "checkout", "-q", good)
    subprocess.run(["make", "-s", "-C", clone], check=True, stdout=subprocess.DEVNULL)
    shutil.copy(os.path.join(clone, "prog"), good_bin)
    git(clone, "bisect", "start", bad, good)
    subprocess.run(["git", "-C", clone, "bisect", "run", sys.executable,
                    os.path.abspath(__file__), "--step", good_bin, str(n), log],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        named = git(clone, "rev-parse", "refs/bisect/bad", capture=True)
    except subprocess.CalledProcessError:
        named = None
    git(clone, "bisect", "reset")
    runs, steps = 0, 0
    if os.path.exists(log):
        for line in open(log):
            steps += 1
            runs += int(line.split()[1])
            if len(line.split()) > 3:
                NOISE.append(float(line.split()[3]))
    return named, runs, steps


def has_bisect(pmustat):
    if not os.access(pmustat, os.X_OK):
        return False
    r = subprocess.run([pmustat, "bisect", "-h"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return r.returncode == 0 and "--good" in r.stdout


def run_pmustat(pmustat, clone, good, bad, n, outdir):
    """pmustat bisect, its results directory outside the clone. Returns
    (named sha or None, runs, decided steps, exit code)."""
    argv = [pmustat, "bisect", "--good", good, "--bad", bad, "--build", "make",
            "-m", os.environ.get("BENCH_METRIC", "wall-time"), "-o", outdir]
    argv += os.environ.get("BENCH_PMUSTAT_ARGS", "").split()
    argv += ["--", "./prog", str(n)]
    r = subprocess.run(argv, cwd=clone, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    try:
        with open(os.path.join(outdir, "bisect.json")) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None, 0, 0, r.returncode
    named = (doc.get("culprit") or {}).get("commit")
    return named, int(doc.get("runs_total") or 0), int(doc.get("decisions") or 0), r.returncode


# ---------------------------------------------------------------------------

def fmt_row(cells, widths):
    return "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                     for i, (c, w) in enumerate(zip(cells, widths)))


def summary(name, trials, key):
    done = [t[key] for t in trials if t[key] is not None]
    if not done:
        return [name, "SKIP", "-", "-", "-", "-", "-", "-"]
    found = sum(1 for d in done if d["found"])
    wrong = sum(1 for d in done if not d["found"] and d["named"] is not None)
    runs = sum(d["runs"] for d in done)
    wall = sum(d["wall"] for d in done)
    return [name, "%d/%d" % (found, len(done)), str(wrong), str(len(done) - found - wrong),
            str(runs), "%.0f" % (runs / len(done)), "%.0f s" % wall,
            "%.1f s" % (wall / len(done))]


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--step":
        sys.exit(step(sys.argv[2], sys.argv[3], sys.argv[4]))
    # a kill (TERM) unwinds like Ctrl-C, so the temporary directory goes
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("bisect bench: terminated"))
    welch_selfcheck()
    pmustat = os.path.abspath(sys.argv[1] if len(sys.argv) > 1
                              else os.path.join(ROOT, "build", "pmustat"))
    trials_n = env_int("BENCH_TRIALS", 5)
    commits = env_int("BENCH_COMMITS", 30)
    pct = float(os.environ.get("BENCH_REGRESSION_PCT", "5"))
    rng = random.Random(env_int("BENCH_SEED", 1))
    have_hf = shutil.which("hyperfine") is not None
    have_pm = has_bisect(pmustat)
    tmp = tempfile.mkdtemp(prefix="bisect-bench.")
    try:
        n = calibrate(tmp, env_int("BENCH_RUN_MS", 30))
        print("bisect bench: %d commits, one adds %.1f%% of the work, program size %d"
              " (~%d ms a run), %d trials, seed %s; pmustat decides on %s"
              % (commits, pct, n, env_int("BENCH_RUN_MS", 30), trials_n,
                 os.environ.get("BENCH_SEED", "1"), os.environ.get("BENCH_METRIC", "wall-time")))
        if not have_hf:
            print("baseline: SKIP: hyperfine not installed (sh scripts/install-deps.sh bench)")
        if not have_pm:
            print("pmustat: SKIP: '%s bisect' does not exist in this build" % pmustat)
        trials, loads = [], []
        for k in range(trials_n):
            culprit = rng.randrange(1, commits)
            d = os.path.join(tmp, "t%d" % k)
            shas = make_history(os.path.join(d, "origin"), commits, culprit,
                                int(round(pct * 10)))
            row = {"culprit": culprit, "base": None, "pm": None}
            order = ["base", "pm"] if k % 2 == 0 else ["pm", "base"]
            for who in order:
                clone = os.path.join(d, who, "repo")
                os.makedirs(os.path.dirname(clone))
                git(d, "clone", "-q", os.path.join(d, "origin"), clone)
                loads.append(os.getloadavg()[0])
                t0 = time.monotonic()
                if who == "base" and have_hf:
                    named, runs, steps = run_baseline(clone, shas[0], shas[-1], n,
                                                      os.path.join(d, who, "steps.log"))
                    rc = 0
                elif who == "pm" and have_pm:
                    named, runs, steps, rc = run_pmustat(pmustat, clone, shas[0], shas[-1],
                                                         n, os.path.join(d, who, "results"))
                else:
                    continue
                wall = time.monotonic() - t0
                loads.append(os.getloadavg()[0])
                named_i = shas.index(named) if named in shas else None
                row[who] = {"found": named == shas[culprit], "named": named_i,
                            "runs": runs, "steps": steps, "wall": wall, "rc": rc}
            trials.append(row)
            cells = ["trial %d: culprit #%d" % (k + 1, culprit)]
            for who, name in (("base", "baseline"), ("pm", "pmustat")):
                r = row[who]
                if r is None:
                    cells.append("%s SKIP" % name)
                    continue
                cells.append("%s %s (named %s, %d steps, %d runs, %.1f s, exit %d)"
                             % (name, "found" if r["found"] else "MISSED",
                                "#%d" % r["named"] if r["named"] is not None else "none",
                                r["steps"], r["runs"], r["wall"], r["rc"]))
            print("  " + "; ".join(cells), flush=True)
        print()
        widths = [34, 6, 6, 5, 11, 10, 11, 10]
        print(fmt_row(["contender", "found", "wrong", "none", "runs total", "runs mean",
                       "wall total", "wall mean"], widths))
        print(fmt_row(summary("git bisect run + hyperfine + Welch", trials, "base"), widths))
        print(fmt_row(summary("pmustat bisect", trials, "pm"), widths))
        print("\nfound: named the known culprit; wrong: named another commit; none: named no"
              " commit (pmustat stopped: exit 4, no difference shown; exit 5, no single"
              " culprit)")
        print("baseline rule: Welch's t-test on hyperfine's wall times of the candidate"
              " against the good endpoint, bad if p < %s and slower; runs: %s, warm-up %s"
              % (os.environ.get("BENCH_ALPHA", "0.05"),
                 os.environ.get("BENCH_HF_RUNS", "hyperfine's default"),
                 os.environ.get("BENCH_HF_WARMUP", "1")))
        if NOISE:
            print("wall-time noise: the good build's runs under hyperfine varied by a median"
                  " %.1f%% (coefficient of variation; %.1f%% to %.1f%% over %d steps)"
                  % (100 * sorted(NOISE)[len(NOISE) // 2], 100 * min(NOISE),
                     100 * max(NOISE), len(NOISE)))
        if loads:
            print("load average (1 min) during the trials: %.2f to %.2f, mean %.2f (%d CPUs)"
                  % (min(loads), max(loads), sum(loads) / len(loads), os.cpu_count()))
    finally:
        if os.environ.get("BENCH_KEEP") == "1":
            print("kept: %s" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

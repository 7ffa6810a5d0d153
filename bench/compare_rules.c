/*
 * compare_rules: how fast, and how honestly, do A/B decision rules reach a
 * verdict? Each rule runs many seeded campaigns on a simulated machine; we
 * count how often it calls two identical programs different (the A/A
 * false-positive rate), how often it calls a true 3% slowdown SLOWER, and
 * the runs and seconds it spends doing so (table i). The rules:
 *
 *   pmustat          randomized complete blocks (run/schedule.h), 1 warm-up
 *                    block, paired log-ratio t interval, stop when the
 *                    half-width <= 1% after >= 10 blocks (<= 200 blocks,
 *                    300 s), verdict against the 1% band (stats_verdict).
 *   pmustat --decide same blocks, stop once the always-valid confidence
 *                    sequence (rho 10) says SLOWER/FASTER/EQUIVALENT.
 *   poop             all A runs then all B runs, each for 5 s and >= 3 runs;
 *                    pooled Student-t CI of the mean difference; "significant"
 *                    if the whole CI is beyond +-1% (poop src/main.zig).
 *   hyperfine        A then B, each max(10 runs, 3 s); Welch's t test at
 *                    0.05 (hyperfine scripts/welch_ttest.py).
 *
 * Table ii fixes each rule's run count (poop -d, hyperfine --runs,
 * pmustat --blocks) and finds the fewest runs giving >= 90% correct verdicts
 * on the 3% effect, with the A/A false-positive rate at that setting.
 *
 * Machines are log-normal noise models (per-run noise, a slowly wandering
 * machine state, outliers, warm-up or linear drift in simulated time), and
 * optionally a replay of a real trace: consecutive timings of a CPU loop on
 * this host, used as relative noise. This is a benchmark, not a test: it
 * prints a table and asserts nothing.
 *
 * usage: compare_rules [--reps N] [--sweep-reps N] [--seconds S]
 *                      [--trace-runs N --trace-ms MS]
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/rng.h"
#include "run/schedule.h"
#include "stats/compare.h"
#include "stats/dist.h"
#include "stats/sample.h"
#include "stats/stop.h"
#include "stats/tests.h"

#define MAX_BLOCKS 200		/* pmustat compare's default --max-blocks */
#define MAX_RUNS 20000		/* per variant, for the sequential rules */
#define EFFECT 1.03

struct machine {
	const char *name;
	double sd_run;		/* log-scale sd of each run */
	double wander_sd;	/* stationary sd of the slowly wandering state */
	double wander_tau;	/* its correlation time, seconds */
	double warm;		/* the machine starts this much slower ... */
	double warm_tau;	/* ... and warms up with this time constant, s */
	double drift_per_min;	/* linear slowdown per minute of campaign */
	double out_p, out_mag;	/* outlier probability and size (+20% = 0.2) */
	const double *trace;	/* real relative run times, or NULL */
	size_t ntrace;
};

struct sim {
	const struct machine *m;
	struct rng rng;
	double base;		/* A's true time, seconds */
	double clock;		/* simulated seconds since the campaign began */
	double wander;
	size_t trace_at;
	int runs;
};

static double gauss(struct rng *r)
{
	double u1 = 1.0 - rng_double(r), u2 = rng_double(r);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

static void sim_init(struct sim *s, const struct machine *m, double base, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	s->m = m;
	s->base = base;
	rng_init(&s->rng, seed ^ UINT64_C(0x6d616368696e6500));
	s->wander = m->wander_sd * gauss(&s->rng);	/* start in the stationary state */
	if (m->trace)
		s->trace_at = (size_t)rng_below(&s->rng, m->ntrace);
}

/* One run of a program whose true time is base * factor; advances the clock. */
static double sim_run(struct sim *s, double factor)
{
	const struct machine *m = s->m;
	double t;

	if (m->trace) {
		t = s->base * factor * m->trace[s->trace_at++ % m->ntrace];
	} else {
		double speed = 1.0 + m->drift_per_min * s->clock / 60.0;

		if (m->warm > 0)
			speed += m->warm * exp(-s->clock / m->warm_tau);
		t = s->base * factor * speed * exp(s->wander + m->sd_run * gauss(&s->rng));
		if (m->out_p > 0 && rng_double(&s->rng) < m->out_p)
			t *= 1.0 + m->out_mag;
		if (m->wander_sd > 0) {	/* Ornstein-Uhlenbeck step over t seconds */
			double rho = exp(-t / m->wander_tau);

			s->wander = rho * s->wander +
				    m->wander_sd * sqrt(1.0 - rho * rho) * gauss(&s->rng);
		}
	}
	s->clock += t;
	s->runs++;
	return t;
}

/*
 * What a rule concluded about B against A: says +1 slower, -1 faster, 0 no
 * claim (its verdict); changed: its 95% interval or test excludes "no
 * difference" at all (for pmustat this includes "changed, within noise").
 */
struct outcome {
	int says;
	int changed;
	int runs;
	double seconds;
};

enum rule { R_PMUSTAT, R_DECIDE, R_POOP, R_HYPERFINE, NRULES };
static const char *const rule_names[NRULES] = {
	"pmustat (precision)", "pmustat --decide", "poop", "hyperfine",
};

/* Knobs: 0 = the rule's defaults, else a fixed count (blocks or runs per variant). */
struct knobs {
	int fixed;
};

static int verdict_says(enum stats_verdict v)
{
	return v == STATS_SLOWER ? 1 : v == STATS_FASTER ? -1 : 0;
}

/*
 * pmustat compare's loop (src/cli/compare.c after_block) for one metric and
 * two variants, with stats/ doing the arithmetic: the per-block check uses
 * the running sd of d, the final verdict stats_paired_ratio().
 */
static void rule_pmustat(struct sim *s, double ratio, uint64_t seed, int decide, int fixed,
			 struct outcome *o)
{
	double a[MAX_BLOCKS], b[MAX_BLOCKS], d[MAX_BLOCKS], mean = 0, sd = 0;
	int n = 0, nmax = fixed ? fixed : MAX_BLOCKS;
	struct schedule sch;
	struct sched_slot slots[2];
	struct stats_paired p;

	schedule_init(&sch, seed, 2, 1, 1, 0, 1);
	for (int blk = 0; n < nmax; blk++) {
		schedule_block(&sch, blk, slots);
		for (int i = 0; i < 2; i++) {
			double t = sim_run(s, slots[i].variant ? ratio : 1.0);

			if (!slots[i].warmup)
				*(slots[i].variant ? &b[n] : &a[n]) = t;
		}
		if (slots[0].warmup)
			continue;
		d[n] = log(b[n]) - log(a[n]);
		n++;
		if (fixed)
			continue;
		if (s->clock >= 300)
			break;
		if (n < 10)
			continue;
		stats_mean_sd(d, (size_t)n, &mean, &sd);
		if (decide) {
			double r = stats_cs_radius((size_t)n, sd, 10, 0.05);
			enum stats_verdict v = stats_verdict(exp(mean - r), exp(mean + r), 0.01);

			if (v == STATS_SLOWER || v == STATS_FASTER || v == STATS_EQUIVALENT)
				break;
		} else if (stats_precision_reached(stats_ci_halfwidth_log(sd, (size_t)n, 0.95),
						   log1p(0.01), (size_t)n, 10)) {
			break;
		}
	}
	if (decide && !fixed) {
		double r;

		stats_mean_sd(d, (size_t)n, &mean, &sd);
		r = stats_cs_radius((size_t)n, sd, 10, 0.05);
		o->says = verdict_says(stats_verdict(exp(mean - r), exp(mean + r), 0.01));
		o->changed = fabs(mean) > r;
	} else {
		stats_paired_ratio(a, b, (size_t)n, 0.95, &p, NULL);
		o->says = verdict_says(stats_verdict(p.ci_lo, p.ci_hi, 0.01));
		o->changed = p.ci_lo > 1 || p.ci_hi < 1;
	}
}

/* poop: each command >= 3 runs and until 5 s have passed (or fixed runs). */
static int run_for(struct sim *s, double factor, double budget, int min_runs, int fixed,
		   double *x)
{
	double start = s->clock;
	int n = 0;

	while (n < MAX_RUNS && (fixed ? n < fixed : n < min_runs || s->clock - start < budget))
		x[n++] = sim_run(s, factor);
	return n;
}

/* poop's pooled-variance interval on the difference of means, in % of A's mean. */
static void rule_poop(struct sim *s, double ratio, int fixed, double *a, double *b,
		      struct outcome *o)
{
	int na = run_for(s, 1.0, 5.0, 3, fixed, a), nb = run_for(s, ratio, 5.0, 3, fixed, b);
	double ma, sa, mb, sb, df = na + nb - 2, sp, half, diff;

	stats_mean_sd(a, (size_t)na, &ma, &sa);
	stats_mean_sd(b, (size_t)nb, &mb, &sb);
	sp = sqrt(((na - 1) * sa * sa + (nb - 1) * sb * sb) / df);
	half = stats_t_quantile(0.975, df) * sp * sqrt(1.0 / na + 1.0 / nb) * 100 / ma;
	diff = (mb - ma) * 100 / ma;
	o->says = diff >= 1 && diff - half >= 1 ? 1 : diff <= -1 && diff + half <= -1 ? -1 : 0;
	o->changed = fabs(diff) > half;
}

/*
 * hyperfine: the first run sets the count, max(10, 3 s / first run); each
 * command in turn. Welch's t test, "significant" at p < 0.05.
 */
static int run_hyperfine(struct sim *s, double factor, int fixed, double *x)
{
	int n = 1, want;

	x[0] = sim_run(s, factor);
	want = fixed ? fixed : (int)fmax(10, ceil(3.0 / x[0]));
	if (want > MAX_RUNS)
		want = MAX_RUNS;
	while (n < want)
		x[n++] = sim_run(s, factor);
	return n;
}

static void rule_hyperfine(struct sim *s, double ratio, int fixed, double *a, double *b,
			   struct outcome *o)
{
	int na = run_hyperfine(s, 1.0, fixed, a), nb = run_hyperfine(s, ratio, fixed, b);
	struct stats_welch w;

	stats_welch(a, (size_t)na, b, (size_t)nb, 0.95, &w);
	o->says = w.p < 0.05 ? (w.diff > 0 ? 1 : -1) : 0;
	o->changed = w.p < 0.05;
}

/* Scratch for the sequential rules' samples, MAX_RUNS each. */
struct bufs {
	double *a, *b;
};

static void campaign(enum rule r, const struct machine *m, double base, double ratio,
		     uint64_t seed, int fixed, const struct bufs *buf, struct outcome *o)
{
	struct sim s;

	sim_init(&s, m, base, seed);
	switch (r) {
	case R_PMUSTAT:
	case R_DECIDE:
		rule_pmustat(&s, ratio, seed, r == R_DECIDE, fixed, o);
		break;
	case R_POOP:
		rule_poop(&s, ratio, fixed, buf->a, buf->b, o);
		break;
	default:
		rule_hyperfine(&s, ratio, fixed, buf->a, buf->b, o);
		break;
	}
	o->runs = s.runs;
	o->seconds = s.clock;
}

struct tally {
	int reps;
	int right, wrong;	/* 3%: said SLOWER / said FASTER */
	int fp;			/* A/A: said either */
	int fp_changed;		/* A/A: interval/test excluded no difference */
	double runs, seconds;	/* means over the 3% campaigns */
};

static void measure(enum rule r, const struct machine *m, double base, int reps, int fixed,
		    const struct bufs *buf, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	t->reps = reps;
	for (int i = 0; i < reps; i++) {
		struct outcome o;

		campaign(r, m, base, EFFECT, 1000003 * (uint64_t)i + 17, fixed, buf, &o);
		t->right += o.says == 1;
		t->wrong += o.says == -1;
		t->runs += o.runs;
		t->seconds += o.seconds;
		campaign(r, m, base, 1.0, 1000003 * (uint64_t)i + 29, fixed, buf, &o);
		t->fp += o.says != 0;
		t->fp_changed += o.changed;
	}
	t->runs /= reps;
	t->seconds /= reps;
}

static double pct(int k, int n)
{
	return 100.0 * k / n;
}

static void table_defaults(const struct machine *const *ms, int nm, double base, int reps,
			   const struct bufs *buf)
{
	printf("\n(i) each rule at its defaults, program of %.3g s, true effect %.0f%% "
	       "(B slower); %d campaigns per cell\n", base, 100 * (EFFECT - 1), reps);
	printf("    A/A FP: identical programs given a SLOWER/FASTER verdict; A/A p<.05: the 95%%\n"
	       "    interval or test excludes no difference (binomial se of a rate <= %.1f%%)\n",
	       100 * sqrt(0.25 / reps));
	printf("%-22s %-20s %8s %8s %8s %8s %7s %8s\n", "machine", "rule", "A/A FP", "A/A p<.05",
	       "3% right", "3% wrong", "runs", "seconds");
	for (int i = 0; i < nm; i++) {
		for (int r = 0; r < NRULES; r++) {
			struct tally t;

			measure((enum rule)r, ms[i], base, reps, 0, buf, &t);
			printf("%-22s %-20s %7.1f%% %8.1f%% %7.1f%% %7.1f%% %7.1f %8.1f\n",
			       r ? "" : ms[i]->name, rule_names[r], pct(t.fp, reps),
			       pct(t.fp_changed, reps), pct(t.right, reps), pct(t.wrong, reps),
			       t.runs, t.seconds);
		}
	}
}

/* Fixed counts tried (blocks for pmustat, runs per variant for the others). */
static const int sweep_n[] = {
	3, 5, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 130, 160, 200,
};

static void table_sweep(const struct machine *const *ms, int nm, double base, int reps,
			const struct bufs *buf)
{
	enum rule rules[] = { R_PMUSTAT, R_POOP, R_HYPERFINE };
	const char *names[] = { "pmustat", "poop", "hyperfine" };
	const char *knob[] = { "--blocks", "-d (runs)", "--runs" };

	printf("\n(ii) fewest runs for >= 90%% correct verdicts on a %.0f%% slowdown, each rule "
	       "at a fixed count; A/A FP at that count; %d campaigns per point\n",
	       100 * (EFFECT - 1), reps);
	printf("%-22s %-20s %10s %8s %9s %8s %8s\n", "machine", "rule", "knob", "n", "runs",
	       "seconds", "A/A FP");
	for (int i = 0; i < nm; i++) {
		for (int k = 0; k < 3; k++) {
			struct tally t;
			int found = 0;

			for (size_t j = 0; j < sizeof(sweep_n) / sizeof(*sweep_n) && !found; j++) {
				int n = sweep_n[j];

				measure(rules[k], ms[i], base, reps, n, buf, &t);
				if (t.right >= 0.9 * reps) {
					found = 1;
					printf("%-22s %-20s %10s %8d %9.0f %8.1f %7.1f%%\n",
					       k ? "" : ms[i]->name, names[k], knob[k],
					       n, t.runs, t.seconds, pct(t.fp, reps));
				}
			}
			if (!found)
				printf("%-22s %-20s %10s %8s %9s %8s %8s\n", k ? "" : ms[i]->name,
				       names[k], knob[k], "> 200", "-", "-", "-");
		}
	}
}

/* A CPU loop for the real trace; volatile so the compiler keeps every step. */
static void spin(long iters)
{
	volatile uint64_t x = 1;

	for (long i = 0; i < iters; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Time n consecutive runs of a ~ms-millisecond loop and return them relative
 * to their median: the host's run-to-run noise and its serial structure.
 */
static double *record_trace(int n, double ms, double *cv, double *lag1, double *p90,
			    double *p99)
{
	double *t = malloc((size_t)n * sizeof(double)), *sorted, med, mean, sd, c = 0;
	double t0, took;
	long iters = 1000;

	if (!t)
		return NULL;
	do {	/* calibrate: double until a quarter of the target, then scale */
		iters *= 2;
		t0 = now_s();
		spin(iters);
		took = now_s() - t0;
	} while (took < ms / 1e3 / 4);
	iters = (long)(iters * (ms / 1e3) / took);
	for (int i = 0; i < n; i++) {
		t0 = now_s();
		spin(iters);
		t[i] = now_s() - t0;
	}
	sorted = malloc((size_t)n * sizeof(double));
	if (!sorted) {
		free(t);
		return NULL;
	}
	memcpy(sorted, t, (size_t)n * sizeof(double));
	stats_sort(sorted, (size_t)n);
	med = stats_median_sorted(sorted, (size_t)n);
	*p90 = stats_quantile_sorted(sorted, (size_t)n, 0.9) / med;
	*p99 = stats_quantile_sorted(sorted, (size_t)n, 0.99) / med;
	free(sorted);
	for (int i = 0; i < n; i++)
		t[i] /= med;
	stats_mean_sd(t, (size_t)n, &mean, &sd);
	for (int i = 1; i < n; i++)
		c += (t[i] - mean) * (t[i - 1] - mean);
	*cv = sd / mean;
	*lag1 = c / ((n - 1) * sd * sd);
	return t;
}

int main(int argc, char **argv)
{
	int reps = 2000, sweep_reps = 1000, trace_runs = 0;
	double base = 1.0, trace_ms = 10;
	static const struct machine quiet = { .name = "quiet (cv 0.5%)", .sd_run = 0.005 };
	static const struct machine vm = {
		.name = "vm (cv ~2.5%, outl.)", .sd_run = 0.015, .wander_sd = 0.02, .wander_tau = 30,
		.out_p = 0.01, .out_mag = 0.2,
	};
	static const struct machine warm = {
		.name = "vm + 3% warm-up", .sd_run = 0.015, .wander_sd = 0.02, .wander_tau = 30,
		.out_p = 0.01, .out_mag = 0.2, .warm = 0.03, .warm_tau = 10,
	};
	static const struct machine drift = {
		.name = "vm + 3%/min drift", .sd_run = 0.015, .wander_sd = 0.02, .wander_tau = 30,
		.out_p = 0.01, .out_mag = 0.2, .drift_per_min = 0.03,
	};
	struct machine real = { .name = "real trace" };
	const struct machine *ms[5] = { &quiet, &vm, &warm, &drift, &real };
	struct bufs buf;
	int nm = 4;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--reps"))
			reps = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--sweep-reps"))
			sweep_reps = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--seconds"))
			base = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "--trace-runs"))
			trace_runs = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--trace-ms"))
			trace_ms = atof(argv[i + 1]);
		else {
			fprintf(stderr, "compare_rules: unknown option '%s'\n", argv[i]);
			return 2;
		}
	}
	if (reps < 1 || sweep_reps < 1 || !(base > 0)) {
		fprintf(stderr, "compare_rules: --reps, --sweep-reps and --seconds must be positive\n");
		return 2;
	}
	buf.a = malloc(MAX_RUNS * sizeof(double));
	buf.b = malloc(MAX_RUNS * sizeof(double));
	if (!buf.a || !buf.b) {
		fprintf(stderr, "compare_rules: out of memory\n");
		return 1;
	}
	printf("compare_rules: simulated A/B campaigns; pmustat defaults: 1 warm-up block, "
	       ">= 10 blocks, --target-ci 1%%, <= 200 blocks / 300 s, band 1%%\n");
	printf("machines: log-normal per-run noise; 'vm' adds a wandering state (sd 2%%, "
	       "30 s correlation) and 1%% outliers +20%%\n");
	if (trace_runs > 0) {
		static char name[64];
		double cv, lag1, p90, p99;

		real.trace = record_trace(trace_runs, trace_ms, &cv, &lag1, &p90, &p99);
		if (!real.trace) {
			fprintf(stderr, "compare_rules: out of memory\n");
			return 1;
		}
		real.ntrace = (size_t)trace_runs;
		snprintf(name, sizeof(name), "real (cv %.1f%%)", 100 * cv);
		real.name = name;
		printf("real trace: %d consecutive %.0f-ms CPU-loop runs on this host: cv %.2f%%, "
		       "p90 %.3f and p99 %.3f x median, lag-1 autocorrelation %.2f;\n"
		       "    replayed in order (random start) as the program's relative noise\n",
		       trace_runs, trace_ms, 100 * cv, p90, p99, lag1);
		nm = 5;
	}
	table_defaults(ms, nm, base, reps, &buf);
	table_sweep(ms, nm, base, sweep_reps, &buf);
	free(buf.a);
	free(buf.b);
	free((void *)real.trace);
	return 0;
}

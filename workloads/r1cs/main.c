/*
 * r1cs-synth: the built-in workload of pmustat. It synthesizes a miniature
 * Groth16 circuit (SHA-256-heavy, like a Filecoin PoRep partition) with a
 * chosen LinearCombination storage and gadget style, and prints what the
 * comparison needs: rows, terms per row, heap operations per row, digests
 * of the A/B/C values that must not depend on the variant, and the
 * synthesis time per row.
 *
 * Pipeline: parse options -> run the storage's synthesis -> derive
 * (hashes, checks) -> render key: value lines. Usage errors exit 2.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selftest.h"
#include "sha256.h"
#include "synth.h"

/* 4 labels = 2.13M rows: about 2 s of vec/upstream synthesis at -O2 (0.93 us
 * of CPU per row, median, measured on a shared Zen 5 VM). */
enum { DEFAULT_LABELS = 4, DEFAULT_BLOCKS = 20 };

static const struct storage {
	const char *name;
	synth_fn run;
} storages[] = {
	{ "vec", synth_run_vec },   { "pool", synth_run_pool },
	{ "sv1", synth_run_sv1 },   { "sv2", synth_run_sv2 },
	{ "sv4", synth_run_sv4 },   { "csr", synth_run_csr },
};

static const struct option_help {
	const char *flag, *arg, *help;
} options[] = {
	{ "--storage", "S", "LC storage: vec, pool, sv1, sv2, sv4, csr (default vec)" },
	{ "--style", "S", "gadget style: upstream, inplace (default upstream)" },
	{ "--labels", "L", "labels in the partition (default 4: about 2.1M rows)" },
	{ "--blocks", "B", "SHA-256 compressions per label (default 20)" },
	{ "--circuit", "C", "partition or sha256-block (default partition)" },
	{ "--witness-only", NULL, "skip enforce bodies: compute the witness only" },
	{ "--check", NULL, "verify a*b = c on every row and every digest against software SHA-256" },
	{ "--dump-message", "FILE", "write label 0's hashed message bytes to FILE" },
	{ "--tamper-row", "N", "(tests) corrupt row N before --check, to prove the check can fail" },
	{ "--self-test", NULL, "check Fr arithmetic, SHA-256 and the SHA-256 gadget, then exit" },
	{ "--bench-fr", NULL, "print the time of one Fr Montgomery multiply, then exit" },
	{ "--help", NULL, "show this help" },
};

struct cli {
	const struct storage *storage;
	struct synth_opts o;
	bool check, self_test, bench_fr, help;
	const char *dump_message;
	long long tamper_row;
};

static int usage_error(const char *msg, const char *arg, const char *hint)
{
	fprintf(stderr, "error: %s '%s'\n", msg, arg);
	fprintf(stderr, "hint: %s\n", hint);
	return 2;
}

static void print_help(FILE *f)
{
	fprintf(f, "usage: r1cs-synth [options]\n\n");
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		char left[40];
		snprintf(left, sizeof(left), "%s%s%s", options[i].flag,
			 options[i].arg ? " " : "", options[i].arg ? options[i].arg : "");
		fprintf(f, "  %-22s %s\n", left, options[i].help);
	}
}

static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	if (!*s || *s == '-')
		return -1;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_value(struct cli *c, const char *flag, const char *val)
{
	unsigned long n;

	if (!strcmp(flag, "--storage")) {
		const struct storage *found = NULL;
		for (size_t i = 0; i < sizeof(storages) / sizeof(storages[0]); i++)
			if (!strcmp(val, storages[i].name))
				found = &storages[i];
		if (!found)
			return usage_error("unknown storage", val,
					   "use --storage vec, pool, sv1, sv2, sv4 or csr");
		c->storage = found;
	} else if (!strcmp(flag, "--style")) {
		if (!strcmp(val, "upstream"))
			c->o.style = STYLE_UPSTREAM;
		else if (!strcmp(val, "inplace"))
			c->o.style = STYLE_INPLACE;
		else
			return usage_error("unknown style", val, "use --style upstream or inplace");
	} else if (!strcmp(flag, "--labels")) {
		if (parse_uint(val, 100000, &n) < 0 || n < 1)
			return usage_error("invalid label count", val,
					   "use --labels N with 1 <= N <= 100000");
		c->o.labels = (unsigned)n;
	} else if (!strcmp(flag, "--blocks")) {
		if (parse_uint(val, 10000, &n) < 0 || n < 1)
			return usage_error("invalid block count", val,
					   "use --blocks N with 1 <= N <= 10000");
		c->o.blocks = (unsigned)n;
	} else if (!strcmp(flag, "--circuit")) {
		if (!strcmp(val, "partition"))
			c->o.circuit = CIRCUIT_PARTITION;
		else if (!strcmp(val, "sha256-block"))
			c->o.circuit = CIRCUIT_SHA256_BLOCK;
		else
			return usage_error("unknown circuit", val,
					   "use --circuit partition or sha256-block");
	} else if (!strcmp(flag, "--dump-message")) {
		c->dump_message = val;
	} else if (!strcmp(flag, "--tamper-row")) {
		if (parse_uint(val, ULONG_MAX, &n) < 0)
			return usage_error("invalid row", val, "use --tamper-row N with N >= 0");
		c->tamper_row = (long long)n;
	}
	return 0;
}

static int parse_args(struct cli *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *eq = strchr(arg, '=');
		size_t flen = eq ? (size_t)(eq - arg) : strlen(arg);
		const struct option_help *opt = NULL;

		for (size_t k = 0; k < sizeof(options) / sizeof(options[0]); k++)
			if (strlen(options[k].flag) == flen && !strncmp(arg, options[k].flag, flen))
				opt = &options[k];
		if (!opt)
			return usage_error("unknown option", arg, "run 'r1cs-synth --help'");
		if (!opt->arg) {
			if (eq)
				return usage_error("option takes no value", arg, "run 'r1cs-synth --help'");
			c->o.witness_only |= !strcmp(opt->flag, "--witness-only");
			c->check |= !strcmp(opt->flag, "--check");
			c->self_test |= !strcmp(opt->flag, "--self-test");
			c->bench_fr |= !strcmp(opt->flag, "--bench-fr");
			c->help |= !strcmp(opt->flag, "--help");
			continue;
		}
		const char *val = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
		if (!val)
			return usage_error("missing value for", opt->flag, "run 'r1cs-synth --help'");
		int rc = parse_value(c, opt->flag, val);
		if (rc)
			return rc;
	}
	return 0;
}

struct derived {
	uint64_t abc_hash, aux_hash;
	bool checked;
	size_t bad_row;     /* SIZE_MAX: none */
	long bad_digest;    /* -1: none */
};

static bool digest_matches(const struct cli *c, const struct synth_result *r, unsigned i)
{
	uint8_t want[32];
	const uint8_t *msg = r->message + (size_t)i * r->message_len;

	if (c->o.circuit == CIRCUIT_SHA256_BLOCK) {
		uint32_t st[8];
		memcpy(st, SHA256_IV, sizeof(st));
		sha256_compress(st, msg);
		for (int k = 0; k < 32; k++)
			want[k] = (uint8_t)(st[k / 4] >> (24 - 8 * (k % 4)));
	} else {
		sha256(want, msg, r->message_len);
	}
	return !memcmp(want, r->digest[i], 32);
}

static void derive(const struct cli *c, struct synth_result *r, struct derived *d)
{
	d->abc_hash = assign_abc_hash(&r->as);
	d->aux_hash = assign_aux_hash(&r->as);
	d->checked = c->check;
	d->bad_row = SIZE_MAX;
	d->bad_digest = -1;
	if (!c->check)
		return;
	if (c->tamper_row >= 0 && (size_t)c->tamper_row < r->as.c.len)
		fr_add(&r->as.c.v[c->tamper_row], &r->as.c.v[c->tamper_row], &FR_ONE);
	d->bad_row = assign_first_unsatisfied(&r->as);
	for (unsigned i = 0; i < r->ndigests && d->bad_digest < 0; i++)
		if (!digest_matches(c, r, i))
			d->bad_digest = i;
}

static double per(uint64_t n, size_t rows)
{
	return rows ? (double)n / (double)rows : 0.0;
}

static void render_shares(FILE *f, const char *name, const struct term_stats *s,
			  int which, size_t rows)
{
	static const char *bucket[TERM_BUCKETS] = { "0", "1", "2", "3", "4-64", "65+" };
	fprintf(f, "%s:", name);
	for (int k = 0; k < TERM_BUCKETS; k++)
		fprintf(f, " %s=%.2f%%", bucket[k], 100.0 * per(s->hist[which][k], rows));
	fprintf(f, "\n");
}

static const char *circuit_name(enum synth_circuit c)
{
	return c == CIRCUIT_SHA256_BLOCK ? "sha256-block" : "partition";
}

static void render(FILE *f, const struct cli *c, const struct synth_result *r,
		   const struct derived *d)
{
	const struct assign *as = &r->as;
	size_t rows = as->a.len;

	fprintf(f, "storage: %s\n", c->storage->name);
	fprintf(f, "style: %s\n", c->o.style == STYLE_INPLACE ? "inplace" : "upstream");
	fprintf(f, "circuit: %s\n", circuit_name(c->o.circuit));
	if (c->o.circuit == CIRCUIT_PARTITION)
		fprintf(f, "labels: %u\nblocks: %u\n", c->o.labels, c->o.blocks);
	fprintf(f, "witness-only: %s\n", c->o.witness_only ? "yes" : "no");
	fprintf(f, "lc-bytes: %zu\n", r->lc_bytes);
	fprintf(f, "rows: %zu\n", rows);
	fprintf(f, "aux: %zu\ninputs: %zu\n", as->aux.len, as->input.len);
	if (c->o.circuit == CIRCUIT_SHA256_BLOCK)
		fprintf(f, "compression-rows: %zu\n", r->compression_rows);
	fprintf(f, "terms-per-row: a=%.3f b=%.3f c=%.3f\n", per(as->stats.sum[0], rows),
		per(as->stats.sum[1], rows), per(as->stats.sum[2], rows));
	render_shares(f, "a-terms-share", &as->stats, 0, rows);
	render_shares(f, "b-terms-share", &as->stats, 1, rows);
	render_shares(f, "c-terms-share", &as->stats, 2, rows);
	fprintf(f, "density: a-aux=%llu b-input=%llu b-aux=%llu\n",
		(unsigned long long)as->a_aux.total, (unsigned long long)as->b_input.total,
		(unsigned long long)as->b_aux.total);
	fprintf(f, "heap-total: mallocs=%llu reallocs=%llu frees=%llu\n",
		(unsigned long long)r->heap.mallocs, (unsigned long long)r->heap.reallocs,
		(unsigned long long)r->heap.frees);
	fprintf(f, "heap-per-row: ops=%.3f mallocs=%.3f reallocs=%.3f frees=%.3f\n",
		per(r->heap.mallocs + r->heap.reallocs, rows), per(r->heap.mallocs, rows),
		per(r->heap.reallocs, rows), per(r->heap.frees, rows));
	fprintf(f, "abc-hash: %016llx\n", (unsigned long long)d->abc_hash);
	fprintf(f, "aux-hash: %016llx\n", (unsigned long long)d->aux_hash);
	fprintf(f, "digest: ");
	for (int i = 0; i < 32; i++)
		fprintf(f, "%02x", r->digest[0][i]);
	fprintf(f, "\n");
	fprintf(f, "synth-ms: %.1f\n", r->ns / 1e6);
	fprintf(f, "synth-cpu-ms: %.1f\n", r->cpu_ns / 1e6);
	if (rows) {
		fprintf(f, "ns-per-row: %.1f\n", (double)r->ns / (double)rows);
		fprintf(f, "cpu-ns-per-row: %.1f\n", (double)r->cpu_ns / (double)rows);
	}
	if (d->checked && d->bad_row == SIZE_MAX && d->bad_digest < 0)
		fprintf(f, "check: ok rows=%zu digests=%u\n", rows, r->ndigests);
}

static int dump_message(const char *path, const struct synth_result *r)
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "error: cannot open '%s': %s\n", path, strerror(errno));
		fprintf(stderr, "hint: pass a writable path to --dump-message\n");
		return -1;
	}
	size_t n = fwrite(r->message, 1, r->message_len, f);
	if (fclose(f) != 0 || n != r->message_len) {
		fprintf(stderr, "error: cannot write '%s'\n", path);
		fprintf(stderr, "hint: check free space and permissions\n");
		return -1;
	}
	return 0;
}

static int report_check_failure(const struct derived *d)
{
	if (d->bad_row != SIZE_MAX) {
		fprintf(stderr, "error: row %zu does not satisfy a*b = c\n", d->bad_row);
		fprintf(stderr, "hint: rerun with --storage vec --style upstream to see if "
				"the fault follows the variant\n");
		return 1;
	}
	if (d->bad_digest >= 0) {
		fprintf(stderr, "error: circuit digest of label %ld differs from software SHA-256\n",
			d->bad_digest);
		fprintf(stderr, "hint: run 'r1cs-synth --self-test'\n");
		return 1;
	}
	return 0;
}

static int finish_stdout(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "error: cannot write to standard output\n");
		return rc ? rc : 1;
	}
	return rc;
}

static int run_self_test(void)
{
	int n;
	int failures = selftest_run(stderr, &n);
	if (failures) {
		fprintf(stderr, "hint: the workload's numbers cannot be trusted on this build\n");
		return 1;
	}
	printf("self-test: ok (%d checks)\n", n);
	return finish_stdout(0);
}

int main(int argc, char **argv)
{
	struct cli c = { .storage = &storages[0], .tamper_row = -1 };
	struct synth_result r;
	struct derived d;

	c.o.labels = DEFAULT_LABELS;
	c.o.blocks = DEFAULT_BLOCKS;
	int rc = parse_args(&c, argc, argv);
	if (rc)
		return rc;
	if (c.help) {
		print_help(stdout);
		return finish_stdout(0);
	}
	if (c.self_test)
		return run_self_test();
	if (c.bench_fr) {
		printf("fr-mul-ns: %.2f\n", selftest_fr_mul_ns());
		return finish_stdout(0);
	}

	if (c.storage->run(&c.o, &r) < 0) {
		fprintf(stderr, "error: cannot set up synthesis: out of memory\n");
		fprintf(stderr, "hint: use a smaller --labels or --blocks\n");
		return 1;
	}
	derive(&c, &r, &d);
	render(stdout, &c, &r, &d);
	rc = report_check_failure(&d);
	if (!rc && c.dump_message && dump_message(c.dump_message, &r) < 0)
		rc = 1;
	synth_result_release(&r);
	return finish_stdout(rc);
}

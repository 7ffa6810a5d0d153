/*
 * stackfix: add call-stack metrics to a saved result, for the HTML test's
 * flame graphs until the profile mechanism records call chains itself (then
 * tests/cli/t-html.sh should use a real `--profile` run instead).
 *
 *   stackfix IN OUT [stack:A;B;C=self:FN[*FACTOR] | stack:A;B=ns:N]... [--tiny N]
 *
 * Each stack:... metric (unit ns, backend "profile", hidden) gets, in every
 * run, FACTOR times that run's value of metric self:FN (no value where it
 * has none): the real self time of FN, laid on a made-up call path; or N ns
 * in every run (for a frame that must be there whatever the sampler saw: a
 * program's kernel time may get no sample at all). --tiny N
 * adds N stacks "main;tiny_K" of 1 ns per run each, far below the flame
 * graph's 0.1% limit, to check that narrow frames are folded. Exit 1 on
 * anything it cannot read or find.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *new_metric(const char *name)
{
	return json_pack("{s:s, s:s, s:s, s:b, s:f, s:b}", "name", name, "unit", "ns", "backend",
			 "profile", "available", 1, "scale", 1.0, "hidden", 1);
}

/* Every run gets name = factor * its value of source (or null). */
static int add_stack(json_t *root, const char *name, const char *source, double factor)
{
	json_t *runs = json_object_get(root, "runs"), *run;
	size_t i, found = 0;

	json_array_append_new(json_object_get(root, "metrics"), new_metric(name));
	json_array_foreach(runs, i, run) {
		json_t *values = json_object_get(run, "values");
		json_t *src = source ? json_object_get(values, source) : NULL;
		json_t *v = src ? json_object_get(src, "value") : NULL;

		if (!source) {
			json_object_set_new(values, name, json_pack("{s:f}", "value", factor));
			continue;
		}
		found += v != NULL;
		json_object_set_new(values, name, v ? json_pack("{s:f}", "value",
								factor * json_number_value(v))
						    : json_null());
	}
	if (source && !found) {
		fprintf(stderr, "stackfix: no run has a value of '%s'\n", source);
		return -1;
	}
	return 0;
}

static int spec(json_t *root, const char *arg)
{
	char *copy = strdup(arg), *eq = strchr(copy, '='), *star;
	double factor = 1;
	int rc;

	if (strncmp(copy, "stack:", 6) || !eq) {
		fprintf(stderr, "stackfix: want stack:A;B=self:FN[*FACTOR], got '%s'\n", arg);
		free(copy);
		return -1;
	}
	*eq = '\0';
	star = strchr(eq + 1, '*');
	if (star) {
		*star = '\0';
		factor = atof(star + 1);
	}
	if (!strncmp(eq + 1, "ns:", 3))
		rc = add_stack(root, copy, NULL, atof(eq + 4));
	else
		rc = add_stack(root, copy, eq + 1, factor);
	free(copy);
	return rc;
}

int main(int argc, char **argv)
{
	json_error_t e;
	json_t *root;
	int rc = 0;

	if (argc < 3) {
		fputs("usage: stackfix IN OUT [stack:A;B=self:FN[*FACTOR]]... [--tiny N]\n", stderr);
		return 2;
	}
	root = json_load_file(argv[1], 0, &e);
	if (!root || !json_is_array(json_object_get(root, "runs"))) {
		fprintf(stderr, "stackfix: cannot read '%s': %s\n", argv[1], root ? "no runs" : e.text);
		return 1;
	}
	for (int i = 3; i < argc && !rc; i++) {
		if (!strcmp(argv[i], "--tiny") && i + 1 < argc) {
			int n = atoi(argv[++i]);

			for (int k = 0; k < n && !rc; k++) {
				char name[64];

				snprintf(name, sizeof(name), "stack:main;tiny_%d", k);
				rc = add_stack(root, name, NULL, 1);
			}
		} else {
			rc = spec(root, argv[i]);
		}
	}
	if (!rc && json_dump_file(root, argv[2], JSON_INDENT(1))) {
		fprintf(stderr, "stackfix: cannot write '%s'\n", argv[2]);
		rc = -1;
	}
	json_decref(root);
	return rc ? 1 : 0;
}

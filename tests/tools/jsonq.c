/*
 * jsonq: print one value of a JSON file, for CLI tests (so they need neither
 * jq nor python). Usage: jsonq FILE PATH, PATH = dot-separated keys and array
 * indices, e.g. "runs.0.status"; a final "#" prints an array's or object's
 * size. Strings print raw, other values as compact JSON. Exit 1 if the path
 * does not exist, 2 on bad usage or unreadable JSON.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *step(json_t *cur, const char *tok)
{
	char *end;
	long idx;

	if (json_is_object(cur))
		return json_object_get(cur, tok);
	if (!json_is_array(cur))
		return NULL;
	idx = strtol(tok, &end, 10);
	if (*end || idx < 0)
		return NULL;
	return json_array_get(cur, (size_t)idx);
}

int main(int argc, char **argv)
{
	json_error_t e;
	json_t *root, *cur;
	char *path, *tok, *save = NULL;
	int rc = 0;

	if (argc != 3) {
		fputs("usage: jsonq FILE PATH\n", stderr);
		return 2;
	}
	root = strcmp(argv[1], "-") ? json_load_file(argv[1], 0, &e) : json_loadf(stdin, 0, &e);
	if (!root) {
		fprintf(stderr, "jsonq: %s: %s (line %d)\n", argv[1], e.text, e.line);
		return 2;
	}
	cur = root;
	path = strdup(argv[2]);
	for (tok = strtok_r(path, ".", &save); tok && cur; tok = strtok_r(NULL, ".", &save)) {
		if (!strcmp(tok, "#"))
			break;
		cur = step(cur, tok);
	}
	if (!cur) {
		rc = 1;
	} else if (tok) {
		printf("%zu\n", json_is_array(cur) ? json_array_size(cur) : json_object_size(cur));
	} else if (json_is_string(cur)) {
		puts(json_string_value(cur));
	} else {
		char *s = json_dumps(cur, JSON_COMPACT | JSON_ENCODE_ANY);

		puts(s);
		free(s);
	}
	free(path);
	json_decref(root);
	return rc;
}

/*
 * json(s, selector) finds a value in JSON text as illumos's dtrace_json()
 * does: keys and array indexes joined by "." and "[]", a string without
 * its quotes (escapes kept as written), an object or array whole, and NULL
 * for a missing key, an index past the end, a selector that goes on past a
 * scalar, or text that is not JSON.
 */
#pragma D option quiet

BEGIN
{
	doc = "{ \"name\": \"disk0\", \"size\": 512, \"ok\": true, \"spare\": null, \"load\": -0.25e-2, \"tags\": [\"fast\", \"ssd\", {\"zone\": \"b\"}], \"owner\": {\"uid\": 0, \"groups\": [4, 27]}, \"path\": \"a\\\"b\\\\c\\u00e9\" }";
	printf("name=%s size=%s ok=%s spare=%s load=%s\n", json(doc, "name"),
	    json(doc, "size"), json(doc, "ok"), json(doc, "spare"), json(doc, "load"));
	printf("tags=%s tags[1]=%s tags[2].zone=%s\n", json(doc, "tags"),
	    json(doc, "tags[1]"), json(doc, "tags[2].zone"));
	printf("owner=%s owner.groups[1]=%s\n", json(doc, "owner"),
	    json(doc, "owner.groups[1]"));
	printf("path=%s\n", json(doc, "path"));
}

BEGIN
{
	list = "[10, [20, 21], {\"k\": [30]}]";
	printf("[0]=%s 0=%s [1]=%s [1][1]=%s [2].k[0]=%s\n", json(list, "[0]"),
	    json(list, "0"), json(list, "[1]"), json(list, "[1][1]"),
	    json(list, "[2].k[0]"));
}

BEGIN
{
	printf("missing key %d, index past the end %d, past a scalar %d\n",
	    json(doc, "nosuch") == NULL, json(list, "[3]") == NULL,
	    json(doc, "size.more") == NULL);
	printf("not JSON %d, hexadecimal %d, bad escape %d, unbalanced %d\n",
	    json("size: 1", "size") == NULL, json("[0x10]", "0") == NULL,
	    json("[\"\\u12x4\"]", "0") == NULL, json("{\"a\": [1}", "a") == NULL);
	printf("keys match whole: ab=%s a=%s\n", json("{\"ab\": 1, \"a\": 2}", "ab"),
	    json("{\"ab\": 1, \"a\": 2}", "a"));
	printf("nested: %s\n", json(json(doc, "owner"), "groups[0]"));
	exit(0);
}

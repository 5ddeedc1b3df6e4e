// SPDX-License-Identifier: GPL-2.0
/*
 * What the compare prints of a results file's text, escaped so that a
 * crafted file cannot end a line or send a terminal escape; and what the
 * table and the JSON say of a row the compare did not take. The string
 * members of a file's objects are taken here too (get_string()): the
 * readers and the printers both do.
 */
#include <stdio.h>
#include <string.h>
#include "compare/compare.h"

/* ---- text from a file, made safe to print ---- */

const char *get_string(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* the code point of the UTF-8 sequence at @s and its length; 0 if bad */
static int utf8_decode(const unsigned char *s, unsigned int *cp)
{
	unsigned int min;
	int len, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xe0) == 0xc0)
		len = 2, *cp = s[0] & 0x1f, min = 0x80;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3, *cp = s[0] & 0x0f, min = 0x800;
	else if ((s[0] & 0xf8) == 0xf0)
		len = 4, *cp = s[0] & 0x07, min = 0x10000;
	else
		return 0;
	/* a NUL is no continuation byte, so this stops at the end too */
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return len;
}

/*
 * What a terminal acts on instead of showing: C0 and C1 controls (C1's
 * U+009B is a CSI on some terminals), DEL, and the line separators and
 * bidirectional overrides that let text display as something else.
 */
static bool unsafe_cp(unsigned int cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
	       (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/* the next piece of @s as shown, into @piece; returns its length */
static int shown_piece(const unsigned char *s, char *piece, int *used)
{
	unsigned int cp;
	int len, i;

	len = utf8_decode(s, &cp);
	if (len && !unsafe_cp(cp)) {
		memcpy(piece, s, len);
		*used = len;
		return len;
	}
	/* every byte of it, so nothing is hidden and nothing acted on */
	len = len ? len : 1;
	for (i = 0; i < len; i++)
		sprintf(piece + 4 * i, "\\x%02x", s[i]);
	*used = len;
	return 4 * len;
}

/*
 * @s escaped into @buf for printing: a crafted name cannot end a line,
 * start a fake one or send a terminal escape. Bytes that are unsafe or
 * not UTF-8 become \xNN; text longer than @size ends in "...".
 */
const char *shown(char *buf, size_t size, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, cut = 0;
	char piece[16];
	int n, used;

	while (*p) {
		n = shown_piece(p, piece, &used);
		if (o + n > size - 1) {
			memcpy(buf + cut, "...", 4);
			return buf;
		}
		memcpy(buf + o, piece, n);
		o += n;
		p += used;
		if (o + 4 <= size)
			cut = o;
	}
	buf[o] = '\0';
	return buf;
}

/* ---- what is said of rows and contexts, for the table and the JSON ---- */

const struct label *row_shown(const struct row *r, struct label *l)
{
	char params[LONG_SHOWN];
	size_t n;

	shown(l->name, sizeof(l->name), r->name);
	shown(l->variant, NAME_SHOWN, r->variant);
	if (r->params && r->params[0]) {
		n = strlen(l->variant);
		snprintf(l->variant + n, sizeof(l->variant) - n, " [%s]",
			 shown(params, sizeof(params), r->params));
	}
	return l;
}

/* what became of a row the pool did not take, shown */
const char *row_state(const struct row *r, char *buf, size_t len)
{
	char status[NAME_SHOWN], text[LONG_SHOWN];

	if (!r->ok)
		snprintf(buf, len, "%s (%s)",
			 shown(status, sizeof(status), r->status),
			 r->reason ? shown(text, sizeof(text), r->reason) :
				     "no reason given");
	else if (!r->quantity)
		snprintf(buf, len, "ok, without units (a file from before units were written)");
	else if (!r->units.n)
		snprintf(buf, len, "ok, no units (units.values is empty)");
	else if (!poolable(r))
		snprintf(buf, len, "ok, units of '%s', no cost this compare knows",
			 shown(text, NAME_SHOWN, r->quantity));
	else
		snprintf(buf, len, "ok, %d units of %s", r->units.n,
			 shown(text, NAME_SHOWN, r->quantity));
	return buf;
}

/* a side's pool of an identity, or why it has none */
static const char *group_state(const struct group *g, char *buf, size_t len)
{
	char q[NAME_SHOWN], other[NAME_SHOWN];
	const struct row *r;
	int i;

	if (g->mixed) {
		for (i = 0; i < g->nr; i++) {
			r = g->rows[i];
			if (poolable(r) && strcmp(r->quantity, g->quantity))
				break;
		}
		snprintf(buf, len, "units of %s in one file, of %s in another",
			 shown(q, sizeof(q), g->quantity),
			 shown(other, sizeof(other), g->rows[i]->quantity));
	} else if (g->nr_pooled) {
		snprintf(buf, len, "ok, %d units of %s from %d file%s",
			 g->pool.n, shown(q, sizeof(q), g->quantity),
			 g->nr_pooled, g->nr_pooled > 1 ? "s" : "");
	} else {
		row_state(g->rows[0], buf, len);
	}
	return buf;
}

/* why an entry got no verdict, as the table and the JSON say it */
const char *entry_reason(const struct entry *e, char *buf, size_t len)
{
	char a[STATE_LEN], b[STATE_LEN];

	if (e->why == WHY_ONLY_A || e->why == WHY_ONLY_B)
		snprintf(buf, len, "only in %s", e->a ? "A" : "B");
	else
		snprintf(buf, len, "A %s; B %s",
			 group_state(e->a, a, sizeof(a)),
			 group_state(e->b, b, sizeof(b)));
	return buf;
}

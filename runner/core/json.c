// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON values every writer needs: a number that may be no number,
 * and text that may be no UTF-8. A leaf: the run's results, --list, the
 * profile, the compare and the families' rows all write through them.
 */
#include <math.h>
#include <jansson.h>
#include "bench.h"

json_t *json_number(double v)
{
	/* NAN and infinities have no JSON spelling */
	return isfinite(v) ? json_real(v) : json_null();
}

/* jansson refuses invalid UTF-8, e.g. a reason cut inside a character */
json_t *json_text(const char *s)
{
	json_t *j;

	if (!s)
		return json_null();
	j = json_string(s);
	return j ? j : json_string(printable(s));
}

/* SPDX-License-Identifier: GPL-2.0 */
/* The JSON helpers every writer shares: see bench_json.c. */
#ifndef __BENCH_JSON_H
#define __BENCH_JSON_H

struct json_t;
/* a double; null where JSON has no spelling (NAN, infinities) */
struct json_t *json_number(double v);
/* a string, made printable where it is no UTF-8; null for NULL */
struct json_t *json_text(const char *s);

#endif /* __BENCH_JSON_H */

#include "hash/record.h"
#include "hash/cpufeat.h"

#include <stdio.h>

void hash_bench_name(const struct hash_bench_plan *p, char *buf, size_t len)
{
	snprintf(buf, len, "hash/%s/%ut", hash_algo_name(p->algo), p->threads);
}

void hash_settings(json_t *s, const struct hash_bench_plan *p)
{
	json_object_set_new(s, "algo", json_string(hash_algo_name(p->algo)));
	json_object_set_new(s, "impl", json_string(hash_impl_name(p->algo)));
	json_object_set_new(s, "threads", json_integer(p->threads));
	json_object_set_new(s, "block", json_integer((json_int_t)p->block));
}

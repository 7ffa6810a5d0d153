/*
 * Unit tests for report/names: demangled C++ and Rust names (legacy and
 * v0, as libiberty prints them) folded to their short form for tables,
 * allocation sites split into frames though generic arguments use the same
 * '<' as the frames' separator, origins reduced to their files, and cuts
 * in the middle counted in characters.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "report/names.h"

static void check_fn(void (*fn)(struct strbuf *, const char *, size_t), const char *in,
		     size_t max, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	fn(&sb, in, max);
	if (strcmp(sb.buf ? sb.buf : "", want))
		fail_msg("'%s' became '%s', want '%s'", in, sb.buf ? sb.buf : "", want);
	strbuf_release(&sb);
}

static void test_name_short(void **state)
{
	static const char *const cases[][2] = {
		{ "void std::vector<int, std::allocator<int> >::_M_realloc_insert<int const&>"
		  "(__gnu_cxx::__normal_iterator<int*, std::vector<int, std::allocator<int> > >, "
		  "int const&)", "std::vector<…>::_M_realloc_insert<…>" },
		{ "std::vector<int, std::allocator<int> >::push_back(int const&)",
		  "std::vector<…>::push_back" },
		{ "ns::C::size() const", "ns::C::size" },
		{ "operator new(unsigned long)", "operator new" },
		{ "std::ostream::operator<<(int)", "std::ostream::operator<<" },
		{ "bool ns::operator< <int>(ns::X<int> const&, ns::X<int> const&)",
		  "ns::operator< <…>" },
		{ "ns::F::operator()(int)", "ns::F::operator()" },
		{ "(anonymous namespace)::helper(int)", "(anonymous namespace)::helper" },
		{ "core::ptr::drop_in_place<alloc::vec::Vec<(usize,u64)>>",
		  "core::ptr::drop_in_place<…>" },
		{ "core::ptr::drop_in_place::<lcbench::LinearCombination>",
		  "core::ptr::drop_in_place::<…>" },
		{ "<lcbench::LinearCombination as core::ops::arith::Add<(u64,usize)>>::add",
		  "<lcbench::LinearCombination as core::ops::arith::Add<…>>::add" },
		{ "<alloc::raw_vec::RawVec<(usize, u64)>>::reserve_for_push",
		  "<alloc::raw_vec::RawVec<…>>::reserve_for_push" },
		{ "core::num::<impl u64>::wrapping_add", "core::num::<impl u64>::wrapping_add" },
		{ "std::rt::lang_start::<()>::{closure#0}", "std::rt::lang_start::<…>::{closure#0}" },
		{ "f<fn() -> u64>", "f<…>" },
		{ "malloc", "malloc" },
		{ "[libc.so.6+0x35000]", "[libc.so.6+0x35000]" },
		{ "", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_fn(name_short, cases[i][0], 0, cases[i][1]);
	/* too long: cut in the middle, in characters (… is one) */
	check_fn(name_short, "abcdefghijklmnopqrstuvwxyz", 11, "abcd…uvwxyz");
	check_fn(name_short, "std::vector<int>::f", 14, "std::…or<…>::f");
	check_fn(cut_middle, "short", 11, "short");
}

static void test_site_short(void **state)
{
	(void)state;
	check_fn(site_short, "extra_temps<main", 0, "extra_temps<main");
	check_fn(site_short, "alloc::raw_vec::finish_grow<alloc::raw_vec::RawVec<T,A>::grow_amortized"
		 "<alloc::vec::Vec<T,A>::push<lcbench::main", 0,
		 "alloc::raw_vec::finish_grow<alloc::raw_vec::RawVec<…>::grow_amortized"
		 "<alloc::vec::Vec<…>::push<lcbench::main");
	check_fn(site_short, "f<core::ptr::drop_in_place<alloc::vec::Vec<T>>", 0,
		 "f<core::ptr::drop_in_place<…>");
	check_fn(site_short, "operator new(unsigned long)<std::vector<int>::_M_realloc_insert<int>"
		 "(int*)<main", 0, "operator new<std::vector<…>::_M_realloc_insert<…><main");
}

static void test_where_short(void **state)
{
	(void)state;
	check_fn(where_short, "lcbench-vec: main.rs; lcbench-small: main.rs", 0, "main.rs");
	check_fn(where_short, "a: x.c, y.c; b: y.c", 0, "x.c, y.c");
	check_fn(where_short, "libc.so.6: malloc.c", 0, "libc.so.6: malloc.c");
	check_fn(where_short, "libfoo.so; a: x.c", 0, "libfoo.so; a: x.c");
	check_fn(where_short, "[kernel]", 0, "[kernel]");
	check_fn(where_short, "", 0, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_short),
		cmocka_unit_test(test_site_short),
		cmocka_unit_test(test_where_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

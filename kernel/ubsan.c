/*
 * The kernel's own handlers for GCC's -fsanitize=undefined, used by the
 * debug build. Each finding prints one WARNING line naming the kind of
 * undefined behaviour and where (the harness fails a run that prints
 * one) and the call trace, then execution goes on, as in Linux.
 *
 * This file is built without the sanitizer, so a handler cannot report
 * itself. GCC passes a data block whose first member is the source
 * location; only that is read here: the kind is known from the handler.
 */
#include "printk.h"
#include "arch.h"
#include "lib/types.h"

struct ubsan_location {
	const char *file;
	u32 line;
	u32 column;
};

static void report(const char *kind, const void *data, u64 value)
{
	const struct ubsan_location *loc = data;

	pr_warn("WARNING: UBSAN: %s at %s:%u:%u (value %#llx)\n", kind,
		loc->file, loc->line, loc->column, value);
	arch_dump_stack();
}

/* One handler per kind, each reporting its name. */
#define UBSAN_HANDLER(name, kind)					\
	void __ubsan_handle_##name(void *data, u64 a);			\
	void __ubsan_handle_##name(void *data, u64 a)			\
	{								\
		report(kind, data, a);					\
	}

UBSAN_HANDLER(type_mismatch_v1, "misaligned or NULL access")
UBSAN_HANDLER(add_overflow, "signed addition overflow")
UBSAN_HANDLER(sub_overflow, "signed subtraction overflow")
UBSAN_HANDLER(mul_overflow, "signed multiplication overflow")
UBSAN_HANDLER(negate_overflow, "signed negation overflow")
UBSAN_HANDLER(divrem_overflow, "division overflow or by zero")
UBSAN_HANDLER(shift_out_of_bounds, "shift out of bounds")
UBSAN_HANDLER(out_of_bounds, "array index out of bounds")
UBSAN_HANDLER(load_invalid_value, "load of an invalid value")
UBSAN_HANDLER(nonnull_arg, "NULL passed as a nonnull argument")
UBSAN_HANDLER(nonnull_return_v1, "NULL returned from a nonnull function")
UBSAN_HANDLER(vla_bound_not_positive, "variable-length array bound <= 0")
UBSAN_HANDLER(pointer_overflow, "pointer arithmetic overflow")
UBSAN_HANDLER(invalid_builtin, "invalid argument to a builtin")

void __ubsan_handle_builtin_unreachable(void *data);
void __ubsan_handle_builtin_unreachable(void *data)
{
	report("reached __builtin_unreachable()", data, 0);
}

void __ubsan_handle_missing_return(void *data);
void __ubsan_handle_missing_return(void *data)
{
	report("end of a non-void function without a return", data, 0);
}

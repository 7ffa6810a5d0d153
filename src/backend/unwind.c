/*
 * Unwinding sampled user stacks with libdwfl (see unwind.h). libdwfl asks
 * three things of the process it unwinds (Dwfl_Thread_Callbacks): which
 * threads there are, the registers a thread starts from, and the memory at
 * an address. Here the process is one sample: its one thread, the sampled
 * registers, and the stack copy; an address outside the copy cannot be read,
 * which ends the chain there.
 */
#include "backend/unwind.h"

#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/debuginfo.h"
#include "backend/sample.h"
#include "core/oomguard.h"
#include "core/safeopen.h"
#include "core/strbuf.h"

struct unwinder {
	Dwfl *dwfl;
	uint32_t pid;
	/* The sample being unwound. */
	uint32_t tid;
	const uint64_t *regs;
	const unsigned char *stack;
	size_t stack_len;
	uint64_t sp;
	uint64_t *pcs;
	int n, max;
	int broken;	/* libdw ran out of memory inside: abandoned (core/oomguard.h) */
};

static const Dwfl_Callbacks callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = debuginfo_find,	/* never blocks: see debuginfo.h */
	.section_address = dwfl_offline_section_address,
};

#if defined(__x86_64__)
#define SP_REG 7
#define NREGS_SET 17	/* rax..r15 and rip, the return-address column */
#elif defined(__aarch64__)
#define SP_REG 31
#define PC_REG 32
#define NREGS_SET 32
#endif

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct unwinder *u = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return (pid_t)u->tid;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwinder *u = arg;

	(void)dwfl;
	if (addr < u->sp || addr - u->sp > u->stack_len || u->stack_len - (addr - u->sp) < 8)
		return false;
	memcpy(result, u->stack + (addr - u->sp), 8);
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
#ifdef NREGS_SET
	struct unwinder *u = arg;
	Dwarf_Word regs[NREGS_SET];

	for (int i = 0; i < NREGS_SET; i++)
		regs[i] = u->regs[i];
	if (!dwfl_thread_state_registers(thread, 0, NREGS_SET, regs))
		return false;
#ifdef PC_REG
	dwfl_thread_state_register_pc(thread, u->regs[PC_REG]);
#endif
	return true;
#else
	(void)thread;
	(void)arg;
	return false;
#endif
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static void report(void *ctx, const char *path, uint64_t bias)
{
	struct unwinder *u = ctx;

	/* As the symbolizer reports it: bias added to the first segment's
	 * p_vaddr (libdwfl's add_p_vaddr), so addresses mean the same. */
	int fd = safeopen_read(path, 0);	/* a path the program's records named */

	if (fd >= 0 && !dwfl_report_elf(u->dwfl, path, path, fd, bias, true))
		close(fd);	/* consumed only by a module reported */
}

struct unwinder *unwinder_new(struct symbolizer *sy, uint32_t pid)
{
#ifdef NREGS_SET
	struct unwinder *u = xcalloc(1, sizeof(*u));
	struct oomguard g;

	u->pid = pid;
	if (sigsetjmp(g.env, 0))
		return NULL;	/* memory ran out inside libdw: u abandoned */
	oomguard_enter(&g);
	u->dwfl = dwfl_begin(&callbacks);
	if (!u->dwfl) {
		oomguard_leave(&g);
		free(u);
		return NULL;
	}
	dwfl_report_begin(u->dwfl);
	symbolizer_each_file(sy, report, u);
	dwfl_report_end(u->dwfl, NULL, NULL);
	if (!dwfl_attach_state(u->dwfl, NULL, (pid_t)pid, &thread_callbacks, u)) {
		oomguard_leave(&g);
		unwinder_free(u);
		return NULL;
	}
	oomguard_leave(&g);
	return u;
#else
	(void)sy;
	(void)pid;
	return NULL;
#endif
}

void unwinder_free(struct unwinder *u)
{
	if (!u || u->broken)
		return;	/* broken: libdw's objects may hold a lock */
	if (u->dwfl)
		dwfl_end(u->dwfl);
	free(u);
}

static int on_frame(Dwfl_Frame *state, void *arg)
{
	struct unwinder *u = arg;
	Dwarf_Addr pc;
	bool activation = false;

	if (!dwfl_frame_pc(state, &pc, &activation) || !pc)
		return DWARF_CB_ABORT;
	/* pcs[0] is the sampled address itself, set by the caller */
	if (u->n == 0) {
		u->n = 1;
		return DWARF_CB_OK;
	}
	u->pcs[u->n++] = activation ? pc : pc - 1;
	return u->n < u->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

uint64_t unwind_regs_pc(const uint64_t *regs)
{
#if defined(__x86_64__)
	return regs[16];
#elif defined(__aarch64__)
	return regs[PC_REG];
#else
	return regs[0];
#endif
}

int unwinder_frames(struct unwinder *u, uint32_t tid, const uint64_t *regs,
		    const unsigned char *stack, size_t stack_len, uint64_t *pcs, int max)
{
#ifdef NREGS_SET
	struct oomguard g;

	pcs[0] = unwind_regs_pc(regs);
	if (max < 2 || !stack_len || u->broken)
		return 1;
	if (sigsetjmp(g.env, 0)) {
		u->broken = 1;	/* memory ran out inside libdw: never touched again */
		return 1;
	}
	oomguard_enter(&g);
	u->tid = tid;
	u->regs = regs;
	u->stack = stack;
	u->stack_len = stack_len;
	u->sp = regs[SP_REG];
	u->pcs = pcs;
	u->n = 0;
	u->max = max;
	dwfl_getthread_frames(u->dwfl, (pid_t)tid, on_frame, u);
	oomguard_leave(&g);
	return u->n ? u->n : 1;
#else
	(void)u;
	(void)tid;
	(void)stack;
	(void)stack_len;
	(void)max;
	pcs[0] = unwind_regs_pc(regs);
	return 1;
#endif
}

# Quiesce: build, run and test.
#
#   make            kernel ELF and boot ISO under build/
#   make run        boot in QEMU straight to the shell, serial console on
#                   this terminal (CMDLINE=ktest=all: self-tests first)
#   make test       host unit tests, sparse, the model check, make run's
#                   checks, the boot matrix, crash tests, the preemptible
#                   flavour's boots (preempt-test), a benchmark smoke run,
#                   make campaign over stand-in hosts (campaign-test)
#   make preempt-test the preemptible flavour's kernel (RCU=preempt) and
#                   its boots (tests/boots-preempt.txt)
#   make model      spin checks the models of the grace-period engine, of
#                   SRCU's counter flip, of preemptible RCU's
#                   blocked-tasks list and of classic RCU (tests/model/)
#   make perf-test  the self-tests' speed figures judged, on the non-debug
#                   kernel (a quiet host only)
#   make stress-test the boot matrix while host processes load every core
#   make scale-test the RCU suites and a 30-s rcutorture at SCALE_SMP CPUs
#                   (512, 1024, 4096), both engines: a table of wall
#                   times (build/scale/ keeps the logs)
#   make mutants    the mutation suite: which planted bugs do the tests
#                   catch? (tests/mutants/; MUTANTS=name,... for some)
#   make torture    rcutorture alone for a long run: SMP=4 SECS=1800
#   make campaign   every scenario of tests/scenarios/ (or SCENARIOS=a,b)
#                   as a job of GNU parallel, here (JOBS=) or over ssh
#                   (HOSTS=4/host1,8/host2), each torture DURATION
#                   seconds; RESUME=dir goes on with one cut short; the
#                   logs and a summary in build/campaign/DATE/
#   make campaign-summary DIR=build/campaign/DATE  that summary again
#   make trace      a traced run drawn as a timeline: build/trace/
#                   trace.json (for ui.perfetto.dev) and timeline.svg;
#                   the torture for TRACE_SECS, or SUITE=name instead
#   make bench      benchmarks at BENCH_SMP CPUs, on both RCU flavours'
#                   kernels: build/bench/results.json, a table, and
#                   build/bench/scaling.svg
#   make bench-engines the tree and classic grace-period engines side by
#                   side at ENGINE_SMP CPUs: build/bench-engines/
#                   results.json, table.md and one SVG plot per figure
#   make bench-idle what an idle kernel at its shell prompt costs the host
#                   (QEMU's CPU time) at IDLE_SMP CPUs, nohz on and off:
#                   build/idle-cost.json
#   make gdb        boot QEMU stopped, with gdb attached; QEMU ends with
#                   gdb; the console is on localhost:GDB_CONSOLE_PORT
#   make deps       install the Debian packages the others need (make run
#                   and make gdb install only what they need), and fetch
#                   QEMU 10 beside the system's (tests/fetch-qemu)
#   make help       this list
#   make clean
#
# Variables: SMP, MEM, CMDLINE, ACCEL (tcg or kvm), DEBUG (1: debug checks
# in the kernel), KASAN (1 with DEBUG=1: the address sanitizer; KASAN=0
# leaves it out), MAX_CPUS (4096), V=1 (show whole commands),
# CROSS_COMPILE=x86_64-elf-, SECS (make torture), TRACE_SECS, TRACE_EVENTS
# and SUITE (make trace), SCALE_SMP (make scale-test), BENCH_SMP (make
# bench), ENGINE_SMP (make bench-engines), IDLE_SMP and IDLE_SECS (make
# bench-idle), MUTANTS (make mutants), GDB_CONSOLE_PORT, SCENARIOS,
# DURATION, JOBS, HOSTS, RESUME and CAMPAIGN_SSH (make campaign), DIR
# (make campaign-summary).

ARCH		:= x86_64
CROSS_COMPILE	?=
CC		:= $(CROSS_COMPILE)gcc
LD		:= $(CROSS_COMPILE)ld
NM		:= $(CROSS_COMPILE)nm
HOSTCC		:= gcc
DEBUG		?= 1
# The RCU flavour, chosen at build time as Linux chooses CONFIG_PREEMPT_RCU:
# nopreempt (readers disable preemption, the article's RCU) or preempt
# (readers may be preempted; kernel/rcu/preempt/). Each builds apart.
RCU		?= nopreempt
ifeq ($(RCU),preempt)
BUILD		:= build/preempt
RCU_PREEMPT	:= 1
else ifeq ($(RCU),nopreempt)
BUILD		:= build
RCU_PREEMPT	:= 0
else
$(error RCU=$(RCU): expected nopreempt (the default) or preempt)
endif
KASAN		?= $(DEBUG)
# The most CPUs the kernel runs on (kernel/percpu.h); per-CPU arrays are
# sized at boot for the CPUs present, so a larger limit costs little.
MAX_CPUS	?= 4096
SMP		?= 4
MEM		?= 512M
CMDLINE		?=
ACCEL		?= tcg
SECS		?= 60
STRESS_TIMEOUT_SCALE ?= 4
# make run refuses less memory (the boot matrix's smallest is 64M).
RUN_MIN_MEM_MIB	:= 64
BENCH_SMP	?= 1 2 4
ENGINE_SMP	?= 1 2 4 8 16 32 64
IDLE_SMP	?= 2,8,64,255
SCALE_SMP	?= 512 1024 4096
IDLE_SECS	?= 30
# make campaign: 0 runs each scenario for its own duration.
DURATION	?= 0
CAMPAIGN_SSH	?= ssh
ENGINES		:= tree classic
TRACE_SECS	?= 3
GDB_CONSOLE_PORT ?= 4555
GDB_ARGS	?= -ex 'hbreak kmain' -ex continue
TRACE_EVENTS	?= rcu
SUITE		?=
TRACE_WORKLOAD	= $(if $(SUITE),ktest=$(SUITE),ktest=rcutorture \
		  torture.secs=$(TRACE_SECS))
BENCH_BUILD	:= $(BUILD)/bench-kernel
# make bench's two kernels, whichever RCU= it is given.
BENCH_BUILD_NOPREEMPT := build/bench-kernel
BENCH_BUILD_PREEMPT := build/preempt/bench-kernel
PREEMPT_BENCHES	:= read_side,grace_period,gp_kthread_prio,call_rcu,$\
		   gp_preempted_readers,boost_latency
PREEMPT_BENCH_CMDLINE := ktest=none bench=$(PREEMPT_BENCHES) \
		   rcu.boost_delay_ms=20
# The QEMU make run and make gdb start: $QEMU, else the one tests/deps
# fetched (bookworm-backports' QEMU 10), else the system's.
QEMU		?= $(shell tests/deps qemu-path)

KERNEL_CFLAGS	:= -std=gnu11 -O2 -g -ffreestanding -nostdlib -mno-red-zone \
		   -mcmodel=kernel -fno-pic -fno-pie -mgeneral-regs-only \
		   -fno-omit-frame-pointer -fno-asynchronous-unwind-tables \
		   -fno-toplevel-reorder \
		   -Wall -Wextra -Werror \
		   -I. -Iarch/$(ARCH) -DKERNEL_DEBUG=$(DEBUG) \
		   -DKERNEL_KASAN=$(KASAN) -DCONFIG_PREEMPT_RCU=$(RCU_PREEMPT) \
		   -DMAX_CPUS=$(MAX_CPUS) -MMD -MP
# The debug build also catches undefined behaviour and stack overruns,
# with the kernel's own handlers (kernel/ubsan.c, kernel/stack_protector.c,
# which are built without them).
ifeq ($(DEBUG),1)
KERNEL_CFLAGS	+= -fsanitize=undefined -fstack-protector-strong \
		   -mstack-protector-guard=global
$(BUILD)/obj/kernel/ubsan.c.o $(BUILD)/obj/kernel/stack_protector.c.o: \
	KERNEL_CFLAGS += -fno-sanitize=undefined -fno-stack-protector
else
KERNEL_CFLAGS	+= -fno-stack-protector
endif
# KASAN (kernel/mm/kasan.h), in the debug build unless KASAN=0: GCC's
# generic kernel-address instrumentation with a call per access (outline:
# the runtime decides which addresses are checked), stack and global
# redzones, and the shadow offset arch/x86_64/arch.h names.
KASAN_CFLAGS	:= -fsanitize=kernel-address \
		   -fasan-shadow-offset=0xdffffc0000000000 \
		   --param asan-instrumentation-with-call-threshold=0 \
		   --param asan-stack=1 --param asan-globals=1
# Built without it: the runtime itself (a check inside a check); kmalloc
# and the page allocator, which write the links and metadata of objects
# that are free for everyone else; the shadow's mapping, which runs
# before there is shadow; the backtrace walker, which reads other
# functions' frames, redzones and all; the NMI handler, which may arrive
# on a CPU in the middle of a report; UBSan's and the stack protector's
# handlers, which report like the runtime does.
KASAN_RUNTIME	:= kernel/mm/kasan.c kernel/mm/kasan_report.c \
		   kernel/mm/kasan_quarantine.c kernel/mm/stackdepot.c \
		   arch/$(ARCH)/kasan_shadow.c
KASAN_EXEMPT	:= $(KASAN_RUNTIME) kernel/mm/kmalloc.c \
		   kernel/mm/page_alloc.c arch/$(ARCH)/backtrace.c \
		   arch/$(ARCH)/nmi.c kernel/ubsan.c kernel/stack_protector.c
# Every frame of theirs stays on the stack (no tail calls), so the stacks
# KASAN records can skip the runtime's own frames by count.
KASAN_EXEMPT_CFLAGS := -fno-optimize-sibling-calls
KERNEL_ASFLAGS	:= -I. -Iarch/$(ARCH) -DKERNEL_KASAN=$(KASAN) -MMD -MP
KERNEL_LDFLAGS	:= -nostdlib -z max-page-size=4096 -z noexecstack \
		   --no-warn-rwx-segments -T linker.ld
HOST_CFLAGS	:= -std=gnu11 -O1 -g -Wall -Wextra -Werror \
		   -fsanitize=address,undefined -fno-sanitize-recover=all \
		   -DLIB_HOST_TEST -I.
SPARSE_FLAGS	:= -D__x86_64__ -m64 -Wsparse-all -Wno-declaration-after-statement \
		   -I. -Iarch/$(ARCH) -DKERNEL_DEBUG=$(DEBUG) \
		   -DKERNEL_KASAN=$(KASAN) -DCONFIG_PREEMPT_RCU=$(RCU_PREEMPT) \
		   -Wno-non-pointer-null \
		   -Wno-sizeof-bool -Wno-ptr-subtraction-blows

# Every source of a kind is built, in every folder: a new file needs no
# Makefile edit.
KERNEL_C	:= $(sort $(shell find arch/$(ARCH) kernel lib tests/kernel -name '*.c'))
ifneq ($(KASAN),1)
KERNEL_C	:= $(filter-out $(KASAN_RUNTIME),$(KERNEL_C))
endif
ifneq ($(RCU),preempt)
KERNEL_C	:= $(filter-out kernel/rcu/preempt/%,$(KERNEL_C))
else
# Classic RCU was never preemptible: rcu.engine=classic is refused there.
KERNEL_C	:= $(filter-out kernel/rcu/classic/%,$(KERNEL_C))
endif
KERNEL_S	:= $(sort $(shell find boot arch/$(ARCH) -name '*.S'))
KERNEL_OBJS	:= $(patsubst %,$(BUILD)/obj/%.o,$(KERNEL_S) $(KERNEL_C))
HOST_TESTS	:= $(patsubst tests/host/%.c,$(BUILD)/host/%,$(wildcard tests/host/test_*.c))
LIB_C		:= $(wildcard lib/*.c)

KERNEL		:= $(BUILD)/quiesce.elf
ISO		:= $(BUILD)/quiesce.iso

ifeq ($(V),1)
Q :=
else
Q := @
endif

.PHONY: all run test bench-idle campaign campaign-summary campaign-test gdb deps check host-test boot-test preempt-test preempt-kernel \
	models-and-kernels clean torture bench bench-engines \
	bench-smoke model perf-test mutants scale-test stress-test run-settings-test \
	trace trace-test harness-test gdb-test help run-deps gdb-deps FORCE

all: $(KERNEL) $(ISO) $(BUILD)/compile_commands.json

# The flags every object is built with: rewritten only when they change
# (DEBUG=0, KASAN=0, another compiler), so that objects built one way
# are never linked with objects built the other.
$(BUILD)/flags: FORCE
	@mkdir -p $(BUILD)
	@printf '%s\n' '$(CC) $(KERNEL_CFLAGS) $(KASAN) $(KASAN_CFLAGS)' | \
		cmp -s - $@ || printf '%s\n' '$(CC) $(KERNEL_CFLAGS) $(KASAN) $(KASAN_CFLAGS)' > $@

# One pattern rule per kind of source.
$(BUILD)/obj/%.c.o: %.c $(BUILD)/flags
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(KERNEL_CFLAGS) $(if $(filter 1,$(KASAN)),$(if \
		$(filter $<,$(KASAN_EXEMPT)),$(KASAN_EXEMPT_CFLAGS),$(KASAN_CFLAGS))) \
		-c $< -o $@

$(BUILD)/obj/%.S.o: %.S $(BUILD)/flags
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AS      $<")
	$(Q)$(CC) $(KERNEL_ASFLAGS) -c $< -o $@

$(BUILD)/host/%: tests/host/%.c $(LIB_C) $(wildcard lib/*.h) $(wildcard tests/host/*.h)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) $(HOST_CFLAGS) $< $(LIB_C) -o $@

# The symbol table for backtraces: link once with an empty table, list
# the text symbols, link again with them (text addresses do not move).
KSYMS_AWK := awk 'BEGIN { n = 0 } $$2 ~ /^[tTwW]$$/ { a[n] = $$1; s[n] = $$3; n++ } \
	END { print ".section .rodata.ksyms, \"a\""; print ".balign 8"; \
	print ".global ksym_addresses, ksym_name_offsets, ksym_names, ksym_count"; \
	print "ksym_count: .quad " n; print "ksym_addresses:"; \
	for (i = 0; i < n; i++) print ".quad 0x" a[i]; \
	print "ksym_name_offsets:"; off = 0; \
	for (i = 0; i < n; i++) { print ".long " off; off += length(s[i]) + 1 } \
	print "ksym_names:"; for (i = 0; i < n; i++) print ".asciz \"" s[i] "\"" }'

$(BUILD)/ksyms0.S:
	@mkdir -p $(dir $@)
	$(Q)$(KSYMS_AWK) < /dev/null > $@

$(BUILD)/ksyms.S: $(BUILD)/quiesce.pass1.elf
	$(Q)$(NM) -n --defined-only $< | $(KSYMS_AWK) > $@

$(BUILD)/%.o: $(BUILD)/%.S
	$(Q)$(CC) -c $< -o $@

$(BUILD)/quiesce.pass1.elf: $(KERNEL_OBJS) $(BUILD)/ksyms0.o linker.ld
	$(Q)$(LD) $(KERNEL_LDFLAGS) -o $@ $(KERNEL_OBJS) $(BUILD)/ksyms0.o

# Every build also writes compile_commands.json, for editors.
$(KERNEL): $(KERNEL_OBJS) $(BUILD)/ksyms.o linker.ld | $(BUILD)/compile_commands.json
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(LD) $(KERNEL_LDFLAGS) -o $@ $(KERNEL_OBJS) $(BUILD)/ksyms.o

# grub.cfg holds CMDLINE, so the ISO is rebuilt when CMDLINE changes:
# this file is rewritten only when it differs.
$(BUILD)/cmdline: FORCE
	@mkdir -p $(BUILD)
	@printf '%s\n' '$(CMDLINE)' | cmp -s - $@ || printf '%s\n' '$(CMDLINE)' > $@

$(ISO): $(KERNEL) boot/grub.cfg.in $(BUILD)/cmdline | run-deps
	@rm -rf $(BUILD)/iso && mkdir -p $(BUILD)/iso/boot/grub
	$(Q)cp $(KERNEL) $(BUILD)/iso/boot/quiesce.elf
	$(Q)sed 's|@CMDLINE@|$(CMDLINE)|' boot/grub.cfg.in > $(BUILD)/iso/boot/grub/grub.cfg
	@$(if $(Q),echo "  ISO     $@")
	$(Q)grub-mkrescue -o $@ $(BUILD)/iso 2> $(BUILD)/grub-mkrescue.log || \
		{ cat $(BUILD)/grub-mkrescue.log; exit 1; }

# For editors: the compile command of every kernel source.
$(BUILD)/compile_commands.json: Makefile
	@mkdir -p $(BUILD)
	$(Q){ echo '['; sep=''; for f in $(KERNEL_C); do \
		printf '%s{"directory": "%s", "file": "%s", "command": "%s %s -c %s"}\n' \
		"$$sep" "$(CURDIR)" "$$f" "$(CC)" "$(KERNEL_CFLAGS)" "$$f"; sep=','; \
	done; echo ']'; } > $@

# SMP and MEM are checked before QEMU starts: QEMU's own refusal was
# lost in make's output, and too little memory hangs in GRUB. QEMU's
# status says how the kernel ended: 0 or 1 a normal exit (Ctrl-A X,
# poweroff, reboot), 3 failed self-tests, 5 a panic.
# Straight to the shell unless CMDLINE names the self-tests (ktest=).
# Above 255 CPUs only with x2APIC, which only the project's QEMU 10 offers
# under TCG (tests/deps); then as far as the kernel goes.
RUN_MAX_SMP = $(if $(findstring quiesce/qemu-10,$(QEMU)),$(MAX_CPUS),255)
run: CMDLINE := $(if $(findstring ktest=,$(CMDLINE)),$(CMDLINE),ktest=none $(CMDLINE))
run: run-deps $(ISO)
	@case '$(SMP)' in ''|0|*[!0-9]*) smp_ok=no ;; *) [ '$(SMP)' -le $(RUN_MAX_SMP) ] && smp_ok=yes || smp_ok=no ;; esac; \
	if [ $$smp_ok = no ]; then \
		echo "make run: SMP=$(SMP): expected a number of CPUs from 1 to $(RUN_MAX_SMP)$(if $(filter 255,$(RUN_MAX_SMP)), (this QEMU has no x2APIC under TCG; the project's, from make deps, goes to $(MAX_CPUS)))" >&2; exit 2; fi
	@mib=$$(echo '$(MEM)' | sed -n 's/^\([0-9][0-9]*\)[Mm]\{0,1\}$$/\1/p; s/^\([0-9][0-9]*\)[Gg]$$/\1 * 1024/p'); \
	if [ -z "$$mib" ] || [ $$(( $$mib )) -lt $(RUN_MIN_MEM_MIB) ]; then \
		echo "make run: MEM=$(MEM): expected a size such as 512M or 2G, at least $(RUN_MIN_MEM_MIB)M" >&2; exit 2; fi
	@echo "make run: -smp $(SMP), $(MEM), '$(strip $(CMDLINE))'$(if $(findstring ktest=none,$(CMDLINE)),; self-tests: type 'test' at the prompt or make run CMDLINE=ktest=all,)"
	@echo "make run: leave QEMU with Ctrl-A X, or type exit"
	@$(QEMU) -M q35 -cpu max -smp $(SMP) -m $(MEM) \
		$(if $(filter kvm,$(ACCEL)),-accel kvm,-accel tcg$(,)thread=multi) \
		-cdrom $(ISO) -boot d -display none -serial mon:stdio -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04; \
	status=$$?; case $$status in \
	0|1) ;; \
	3) echo "make run: the self-tests reported failures (QEMU status 3)" >&2; exit 1 ;; \
	5) echo "make run: the kernel panicked (QEMU status 5)" >&2; exit 1 ;; \
	*) echo "make run: QEMU exited with status $$status" >&2; exit 1 ;; \
	esac

, := ,

# QEMU waits for gdb on :1234 and is stopped when gdb exits. The console
# is a TCP socket (nc localhost $(GDB_CONSOLE_PORT)), copied to
# build/gdb-serial.log. GDB_ARGS replaces the first commands.
gdb: gdb-deps $(ISO)
	@echo "make gdb: console: nc localhost $(GDB_CONSOLE_PORT) (a copy goes to $(BUILD)/gdb-serial.log); QEMU stops when gdb exits"
	$(Q)$(QEMU) -M q35 -cpu max -smp $(SMP) -m $(MEM) -accel tcg,thread=multi \
		-cdrom $(ISO) -boot d -display none -no-reboot -s -S \
		-chardev socket,id=console,host=localhost,port=$(GDB_CONSOLE_PORT),server=on,wait=off,logfile=$(BUILD)/gdb-serial.log \
		-serial chardev:console & qemu=$$!; \
	gdb -q $(KERNEL) -ex 'target remote :1234' $(GDB_ARGS); status=$$?; \
	kill $$qemu 2>/dev/null; wait $$qemu 2>/dev/null; exit $$status

host-test: $(HOST_TESTS)
	$(Q)tests/host/run $(HOST_TESTS)

# The layering of the tree (tests/layout), then sparse with the __rcu
# address space, as Linux's make C=1.
check: deps
	$(Q)tests/layout
	$(Q)tests/mutants/run --check
	@echo "  SPARSE  arch/ kernel/ lib/ tests/kernel/"
	@mkdir -p $(BUILD) && rm -f $(BUILD)/sparse.log
	$(Q)fail=0; for f in $(KERNEL_C); do \
		sparse $(SPARSE_FLAGS) $$f 2>&1 | tee -a $(BUILD)/sparse.log | grep . && fail=1; \
	done; exit $$fail

boot-test: $(KERNEL)
	$(Q)tests/matrix

# The preemptible flavour's kernel, built apart, and the boots whose
# behaviour the flavour changes (tests/boots-preempt.txt).
preempt-test: deps preempt-kernel
	$(Q)BUILD=build/preempt tests/matrix --file tests/boots-preempt.txt

preempt-kernel: deps
	$(Q)$(MAKE) --no-print-directory RCU=preempt build/preempt/quiesce.elf

# make test's models and both kernels at once: the models' longest search
# runs alone on one core for most of their time, and the kernels build on
# the other (two jobs in all, whatever -j make test was given), then the
# campaign test boots there.
models-and-kernels: deps
	$(Q)$(MAKE) --no-print-directory -j2 --output-sync=target model all \
		preempt-kernel campaign-test

# make run's own checks of SMP, MEM and QEMU's status, with QEMU stubbed.
run-settings-test: $(ISO)
	$(Q)tests/run-settings

# tests/boot itself: a failed boot names its first failed test.
harness-test: $(KERNEL)
	$(Q)tests/harness-test

# make gdb in batch mode: a breakpoint is hit, QEMU ends with gdb.
gdb-test: gdb-deps $(ISO)
	$(Q)tests/gdb-test

# Each benchmark once, briefly: does it run, and is its output valid?
# The preemptible flavour's debug kernel (preempt-test's) runs the
# benchmarks that measure only there, a few seconds more; the engines
# benchmark runs again on the classic engine, so that make
# bench-engines' parser sees both.
bench-smoke: $(KERNEL)
	$(Q)$(MAKE) --no-print-directory RCU=preempt build/preempt/quiesce.elf
	$(Q)tests/boot --quiet --smp 2 --log $(BUILD)/bench-smoke.log \
		--cmdline 'ktest=none bench=all bench.quick=1'
	$(Q)BUILD=build/preempt tests/boot --quiet --smp 2 \
		--log build/preempt/bench-smoke.log \
		--cmdline 'ktest=none bench=$(PREEMPT_BENCHES) bench.quick=1'
	$(Q)tests/boot --quiet --smp 2 --log $(BUILD)/bench-smoke-classic.log \
		--cmdline 'ktest=none bench=engines bench.quick=1 rcu.engine=classic'
	$(Q)tests/bench/collect --check $(BUILD)/bench-smoke.log \
		build/preempt/bench-smoke.log
	$(Q)tests/bench/engines --check $(BUILD)/bench-smoke.log \
		$(BUILD)/bench-smoke-classic.log

# spin: each model (grace-period engine, SRCU flip, preemptible RCU's
# blocked-tasks list, classic RCU) verifies, and each planted bug is
# rejected.
model: deps
	$(Q)tests/model/run

# The self-tests' speed figures judged (ktest.timing=1), on the kernel the
# figures come from: the dcache suite's scaling judge, grace-period and
# sleep latency, fairness. Speed is not behaviour, so make test does not
# run this: run it on a quiet host.
perf-test: deps
	$(Q)$(MAKE) --no-print-directory BUILD=$(BENCH_BUILD) DEBUG=0 \
		$(BENCH_BUILD)/quiesce.elf
	$(Q)BUILD=$(BENCH_BUILD) tests/boot --quiet --smp 2 --mem 512M \
		--log $(BUILD)/perf-test.log \
		--cmdline 'ktest=dcache,rcu,sched ktest.timing=1'

test: deps host-test check models-and-kernels run-settings-test harness-test \
	gdb-test boot-test preempt-test bench-smoke trace-test

# The boot matrix on a host whose every core is kept busy by processes
# started here (and stopped however the run ends), with every boot's
# timeout scaled by STRESS_TIMEOUT_SCALE: nothing may fail because the
# host is slow.
stress-test: deps all
	$(Q)tests/stress $(STRESS_TIMEOUT_SCALE)

# Where Tree RCU exists for: every boot at hundreds to thousands of CPUs,
# one at a time (tests/scale). Not in make test: each takes minutes here.
scale-test: deps $(KERNEL)
	$(Q)tests/scale $(foreach n,$(SCALE_SMP),--smp $(n))

# Each patch of tests/mutants/ is a small RCU bug; the boots it names must
# catch it. A table and the score at the end (build/mutants/table.md).
mutants: deps
	$(Q)tests/mutants/run $(subst $(,), ,$(MUTANTS))

torture: deps $(KERNEL)
	BUILD=$(BUILD) tests/boot --smp $(SMP) --mem $(MEM) \
		--timeout $$(( $(SECS) + 600 )) \
		--log $(BUILD)/torture.log \
		--cmdline 'ktest=rcutorture torture.secs=$(SECS) torture.stat_interval=60 $(CMDLINE)'

# A torture campaign (tests/campaign/run): both kernels built once, each
# scenario a job of GNU parallel, here or on HOSTS over CAMPAIGN_SSH.
campaign: deps all preempt-kernel
	$(Q)tests/campaign/run --duration $(DURATION) --ssh '$(CAMPAIGN_SSH)' \
		$(if $(SCENARIOS),--scenarios '$(SCENARIOS)') \
		$(if $(JOBS),--jobs $(JOBS)) $(if $(HOSTS),--hosts '$(HOSTS)') \
		$(if $(RESUME),--resume '$(RESUME)')

campaign-summary:
	$(Q)$(if $(DIR),tests/campaign/summary '$(DIR)',\
		echo "campaign-summary: expected DIR=build/campaign/DATE" >&2; exit 2)

# A campaign over two stand-in hosts, one lost on the way, then resumed
# (make test runs it beside the model check, models-and-kernels).
campaign-test: deps all preempt-kernel
	$(Q)tests/campaign/remote-test

# A run with the event trace on, decoded from its console log
# (kernel/trace/, tests/trace/decode). TRACE_CHECK=--check checks the two
# files as make test does.
trace: deps $(KERNEL)
	@mkdir -p $(BUILD)/trace
	$(Q)BUILD=$(BUILD) tests/boot --quiet --smp $(SMP) --mem $(MEM) \
		--timeout 600 --log $(BUILD)/trace/console.log \
		--cmdline '$(TRACE_WORKLOAD) trace=$(TRACE_EVENTS) $(CMDLINE)'
	$(Q)tests/trace/decode $(BUILD)/trace/console.log \
		--json $(BUILD)/trace/trace.json \
		--svg $(BUILD)/trace/timeline.svg $(TRACE_CHECK)

# The decoder against records it encodes itself, then a short make trace
# on each engine whose files are checked.
trace-test: deps $(KERNEL)
	$(Q)tests/trace/test_decode
	$(Q)$(MAKE) --no-print-directory trace SMP=2 TRACE_SECS=1 \
		TRACE_CHECK=--check
	$(Q)$(MAKE) --no-print-directory trace SMP=2 TRACE_SECS=1 \
		TRACE_CHECK=--check CMDLINE=rcu.engine=classic

# Figures come from kernels without the debug checks, one per RCU
# flavour, each booted once per CPU count in BENCH_SMP: the default
# flavour runs every benchmark, the preemptible one those that compare
# the flavours or need preempted readers (PREEMPT_BENCHES), with a short
# boost delay so that boost_latency's samples take tens of milliseconds,
# not half a second.
bench: deps
	$(Q)$(MAKE) --no-print-directory RCU=nopreempt \
		BUILD=$(BENCH_BUILD_NOPREEMPT) DEBUG=0 \
		$(BENCH_BUILD_NOPREEMPT)/quiesce.elf
	$(Q)$(MAKE) --no-print-directory RCU=preempt \
		BUILD=$(BENCH_BUILD_PREEMPT) DEBUG=0 \
		$(BENCH_BUILD_PREEMPT)/quiesce.elf
	@mkdir -p $(BUILD)/bench
	$(Q)for n in $(BENCH_SMP); do \
		BUILD=$(BENCH_BUILD_NOPREEMPT) tests/boot --quiet --smp $$n \
			--mem 512M --timeout 1800 \
			--log $(BUILD)/bench/smp$$n.log \
			--cmdline 'ktest=none bench=all $(CMDLINE)' || exit 1; \
		BUILD=$(BENCH_BUILD_PREEMPT) tests/boot --quiet --smp $$n \
			--mem 512M --timeout 1800 \
			--log $(BUILD)/bench/preempt-smp$$n.log \
			--cmdline '$(PREEMPT_BENCH_CMDLINE) $(CMDLINE)' \
			|| exit 1; \
	done
	$(Q)tests/bench/collect --out $(BUILD)/bench/results.json \
		--svg $(BUILD)/bench/scaling.svg \
		$(foreach n,$(BENCH_SMP),$(BUILD)/bench/smp$(n).log \
			$(BUILD)/bench/preempt-smp$(n).log)

# QEMU's own CPU time over IDLE_SECS of an idle kernel at its prompt, at
# each of IDLE_SMP CPUs, with the tick stopped in idle and with nohz=off.
bench-idle: deps $(KERNEL)
	$(Q)tests/bench/idle-cost --smp $(IDLE_SMP) --secs $(IDLE_SECS) \
		--out $(BUILD)/idle-cost.json

# The two grace-period engines side by side: the non-debug kernel (make
# bench's) booted with each engine at each CPU count, one log a boot.
# 1G and a long timeout because -smp 64 under TCG needs both.
bench-engines: deps
	$(Q)$(MAKE) --no-print-directory RCU=nopreempt \
		BUILD=$(BENCH_BUILD_NOPREEMPT) DEBUG=0 \
		$(BENCH_BUILD_NOPREEMPT)/quiesce.elf
	@mkdir -p $(BUILD)/bench-engines
	$(Q)for n in $(ENGINE_SMP); do for e in $(ENGINES); do \
		BUILD=$(BENCH_BUILD_NOPREEMPT) tests/boot --quiet --smp $$n \
			--mem 1G --timeout 3600 \
			--log $(BUILD)/bench-engines/$$e-smp$$n.log \
			--cmdline "ktest=none bench=engines rcu.engine=$$e $(CMDLINE)" \
			|| exit 1; \
	done; done
	$(Q)tests/bench/engines --out $(BUILD)/bench-engines \
		$(foreach n,$(ENGINE_SMP),$(foreach e,$(ENGINES),\
			$(BUILD)/bench-engines/$(e)-smp$(n).log))

deps:
	$(Q)tests/deps all

run-deps:
	$(Q)tests/deps run

gdb-deps:
	$(Q)tests/deps gdb

# The header of this file: targets and variables.
help:
	@sed -n '3,/^$$/s/^# \{0,1\}//p' Makefile

FORCE:

clean:
	rm -rf $(BUILD)

-include $(KERNEL_OBJS:.o=.d)

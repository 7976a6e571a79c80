/*
 * Single x86 instructions the arch code needs: CPUID, MSRs, control
 * registers. Generic code does not include this; it uses arch.h.
 */
#ifndef ARCH_CPU_H
#define ARCH_CPU_H

#include "lib/types.h"

#define MSR_APIC_BASE		0x1b
#define MSR_EFER		0xc0000080
#define MSR_FS_BASE		0xc0000100
#define MSR_GS_BASE		0xc0000101
#define MSR_KERNEL_GS_BASE	0xc0000102
#define MSR_TSC_DEADLINE	0x6e0

#define EFER_NXE		(1u << 11)

struct cpuid_regs {
	u32 eax, ebx, ecx, edx;
};

static inline struct cpuid_regs cpuid(u32 leaf, u32 subleaf)
{
	struct cpuid_regs r;
	asm volatile("cpuid"
		     : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
		     : "a"(leaf), "c"(subleaf));
	return r;
}

static inline u32 cpuid_max_leaf(u32 base)
{
	return cpuid(base, 0).eax;
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;
	asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 v)
{
	asm volatile("wrmsr" : : "c"(msr), "a"((u32)v), "d"((u32)(v >> 32))
		     : "memory");
}

static inline u64 read_cr2(void)
{
	u64 v;
	asm volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline u64 read_cr3(void)
{
	u64 v;
	asm volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline void write_cr3(u64 v)
{
	asm volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

static inline u64 read_cr0(void)
{
	u64 v;
	asm volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}

static inline u64 read_cr4(void)
{
	u64 v;
	asm volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static inline void invlpg(uptr va)
{
	asm volatile("invlpg (%0)" : : "r"(va) : "memory");
}

#endif

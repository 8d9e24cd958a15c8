/* The network's large arrays (ports, VCs, rings, packet records) in
 * transparent huge pages (sim.huge_pages). A network beyond the caches
 * touches its routers' lines at random across hundreds of MB: with 4 KiB
 * pages nearly every miss also misses the TLB (paper 004's 16,512 nodes:
 * 210 MB, some 50,000 pages against the core's 1,536-entry second-level
 * TLB), and the page walk's own loads wait in the same queue. A 2 MiB page
 * covers 512 of them. A hint only: where the kernel has no transparent huge
 * pages, or refuses, the arrays stay in small pages and nothing changes. */
#define _GNU_SOURCE /* madvise, MADV_HUGEPAGE (Linux) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "net/net_internal.h"

void net_hint_huge(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (!p || bytes < NET_HUGE_FROM)
        return;
    const long ps = sysconf(_SC_PAGESIZE);
    const uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096;
    const uintptr_t a = ((uintptr_t)p + page - 1) & ~(page - 1);
    const uintptr_t e = ((uintptr_t)p + bytes) & ~(page - 1);
    if (e > a)
        (void)madvise((void *)a, e - a, MADV_HUGEPAGE); /* refused: small pages, as before */
#else
    (void)p;
    (void)bytes;
#endif
}

void *net_alloc_lines(size_t bytes, bool zero, bool huge)
{
    if (bytes > SIZE_MAX - 63)
        return NULL;
    bytes = bytes ? (bytes + 63) & ~(size_t)63 : 64;
    /* advised before the first touch: the kernel backs each whole 2 MiB of
     * it with one page as it faults, the partial ones at its two ends with
     * small pages (aligning it to 2 MiB would cover those too, for up to
     * 2 MiB of address space more an array) */
    void *p = aligned_alloc(64, bytes);
    if (huge)
        net_hint_huge(p, bytes);
    if (p && zero)
        memset(p, 0, bytes);
    return p;
}

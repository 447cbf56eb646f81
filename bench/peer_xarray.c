/* The C side of the xarray peer (peer_xarray.h): the kernel's own lib/xarray.c,
 * compiled against tools/testing/shared, tools/include and liburcu as the
 * kernel's radix-tree test harness compiles it (bench/CMakeLists.txt). The
 * harness supplies the kernel's environment in user space: kmem_cache is
 * malloc plus a small free list behind a pthread mutex
 * (tools/testing/shared/linux.c), spinlock_t is a pthread mutex, and RCU is
 * liburcu's default (membarrier) flavour, the one pcl_core links, so a
 * thread registered by pcl::rcu is registered here too. */
#include "peer_xarray.h"

#include <linux/gfp.h>
#include <linux/radix-tree.h>
#include <linux/rcupdate.h>
#include <linux/xarray.h>

#include <pthread.h>
#include <stdlib.h>

struct pcl_xa {
    struct xarray xa;
};

/* xarray nodes come from radix_tree_node_cachep, which the kernel creates
 * at boot in radix_tree_init() (lib/radix-tree.c); here, once per process. */
static pthread_once_t pcl_xa_once = PTHREAD_ONCE_INIT;

static void pcl_xa_boot(void)
{
    radix_tree_init();
}

struct pcl_xa* pcl_xa_new(void)
{
    struct pcl_xa* xa;

    pthread_once(&pcl_xa_once, pcl_xa_boot);
    xa = malloc(sizeof(*xa));
    if (xa)
        xa_init(&xa->xa);
    return xa;
}

int pcl_xa_store(struct pcl_xa* xa, unsigned long index, void* entry)
{
    /* GFP_KERNEL, as the page cache's own inserts may sleep to allocate
     * (the harness's slab refuses allocations that may not reclaim). */
    int err = xa_insert(&xa->xa, index, entry, GFP_KERNEL);

    if (err == -EBUSY)
        return 1;
    return err ? -1 : 0;
}

void* pcl_xa_load(struct pcl_xa* xa, unsigned long index)
{
    return xa_load(&xa->xa, index);
}

void* pcl_xa_erase(struct pcl_xa* xa, unsigned long index)
{
    return xa_erase(&xa->xa, index);
}

unsigned long pcl_xa_gang(struct pcl_xa* xa, unsigned long first, unsigned long max, void** out)
{
    if (max == 0)
        return 0;
    return xa_extract(&xa->xa, out, first, ULONG_MAX, max, XA_PRESENT);
}

void pcl_xa_destroy(struct pcl_xa* xa)
{
    xa_destroy(&xa->xa);
    free(xa);
    /* xa_destroy frees the nodes through call_rcu, as the kernel does:
     * wait for them here, not during the next measurement. */
    rcu_barrier();
}

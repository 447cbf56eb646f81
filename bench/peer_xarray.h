/* The kernel's xarray (lib/xarray.c of Debian's linux-source package, built
 * with the kernel's userspace harness, tools/testing/radix-tree) behind a
 * C API that names no kernel type, so no kernel header reaches a C++
 * translation unit: the kernel's headers define macros (min, max, list
 * helpers, BUG) and use C++ keywords (new, class) as identifiers. Built only
 * when PCL_HAVE_XARRAY is defined (bench/CMakeLists.txt). */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

struct pcl_xa;

/* Creates an empty xarray (xa_init); NULL if out of memory. */
struct pcl_xa* pcl_xa_new(void);
/* xa_insert: 0 if stored, 1 if something was already at @index, -1 if
 * out of memory. */
int pcl_xa_store(struct pcl_xa* xa, unsigned long index, void* entry);
/* xa_load: the entry at @index or NULL (lockless, under rcu_read_lock). */
void* pcl_xa_load(struct pcl_xa* xa, unsigned long index);
/* xa_erase: removes and returns the entry at @index (NULL if none). */
void* pcl_xa_erase(struct pcl_xa* xa, unsigned long index);
/* xa_extract of present entries from @first on: up to @max into @out;
 * returns how many. */
unsigned long pcl_xa_gang(struct pcl_xa* xa, unsigned long first, unsigned long max, void** out);
/* xa_destroy, then waits for the nodes it queued to RCU to be freed. */
void pcl_xa_destroy(struct pcl_xa* xa);

#ifdef __cplusplus
}
#endif

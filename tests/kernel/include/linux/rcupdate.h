/* The harness's <linux/rcupdate.h> (tools/testing/shared/linux/rcupdate.h:
 * liburcu's default flavour, membarrier, the one pcl::rcu uses), with a
 * thread's registration and rcu_barrier() going through pcl::rcu as well.
 *
 * pcl::rcu registers a thread with liburcu on its first read-side section
 * and unregisters it when the thread exits (core/sync/rcu.cpp); a thread
 * that had registered itself through liburcu would be registered twice.
 * RadixTree frees its nodes, and the adapter its slot records, through
 * pcl::rcu's callback queue, which liburcu's rcu_barrier() does not wait
 * for. */
#ifndef PCL_KERNEL_RCUPDATE_H
#define PCL_KERNEL_RCUPDATE_H

#include_next <linux/rcupdate.h>

void pcl_rcu_register_thread(void);
void pcl_rcu_barrier(void);

#undef rcu_register_thread
#undef rcu_unregister_thread
#undef rcu_barrier
#define rcu_register_thread pcl_rcu_register_thread
/* The thread's exit unregisters it. */
#define rcu_unregister_thread()
#define rcu_barrier pcl_rcu_barrier

#endif /* PCL_KERNEL_RCUPDATE_H */

// move_pages(2): a process asks for each of its pages, named by address, to
// move to a NUMA node. do_move_pages() as mm/migrate.c had it in Linux
// 2.6.27, and the change of the linear do_move_pages thread ("[PATCH] mm:
// use a radix-tree to make do_move_pages() complexity linear", linux-mm,
// October 2008, Brice Goglin; Andrew Morton, Nick Piggin and Christoph
// Lameter replying).
//
// do_move_pages() walks the caller's page_to_node array once. For each entry
// it finds the page mapped at the address (find_vma, follow_page), leaves
// alone a page already on its target node, and takes the others off the LRU
// onto a private list (isolate_lru_page). migrate_pages() then moves every
// page on that list: for each one it calls new_page_node() for a new page
// on the target node, copies the contents into it, and points the page
// table entry at it. new_page_node() is given only the old page, and must
// find that page's entry in the array, for the node to allocate on and for
// where the status goes. How it finds it is what the thread changed:
//   scan   Linux 2.6.27, the thread's kernel: walk the array from its start until an entry
//          holds the page. The k-th page moved costs about k steps, so n
//          pages cost n^2 / 2: "the overall complexity is ... quadratic".
//   radix  Goglin's patch: do_move_pages inserts each entry it isolates a
//          page for into a radix tree keyed by the page, new_page_node looks
//          the page up: one insert and one lookup a page, linear.
//
// A page given twice. Both versions isolate it once and move it once, and
// answer -EBUSY for the later entry, by different means: the old code calls
// isolate_lru_page() again, which fails because the page is off the LRU
// already; the patch finds the page in the tree (radix_tree_insert's
// -EEXIST) and converts that "back to -EBUSY to keep the user-space ABI".
//
// Where the two differ, this code keeps each as it was. The old code
// recorded the page in an entry (pp->page) before asking whether it was on
// its target node already, the patch only once it is in the tree. So when a
// page is given first for the node it is on and later for another node, the
// later entry isolates it, but the old scan stops at the earlier entry: the
// page is copied to a new page on the node it was on, the earlier entry gets
// that node and the later one keeps isolate_lru_page's 0. The patch moves it
// to the later entry's node, and says so in the later entry.
#pragma once

#include "base/page.h"
#include "mm/numa.h"
#include "mm/page_table.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace pcl {

/// One page a move_pages call asks to move (struct page_to_node of
/// mm/migrate.c; the caller's array of them is what new_page_node searches).
struct page_to_node {
    std::uint64_t addr = 0; ///< the user address of the page
    Page* page = nullptr;   ///< the page found at addr, once do_move_pages records it (null before)
    int node = 0;           ///< the node to move it to
    int status = 0;         ///< on return: the node the page is on, or a negative errno
};

/// How new_page_node finds a page's entry.
enum class PageToNodeLookup : std::uint8_t {
    Scan,  ///< walk the array from its start (Linux 2.6.27): quadratic
    Radix, ///< a radix tree keyed by the page's frame number (Goglin's patch): linear
};

/// "scan" or "radix".
std::string_view page_to_node_lookup_name(PageToNodeLookup lookup) noexcept;

/// The process whose pages move: its one anonymous mapping (vma) and the
/// page table that maps it. Its pages are anonymous (FileId 0), each with
/// its virtual page number as page->index (linear_page_index), which is how
/// migration finds the entry that maps it.
struct mm_struct {
    NumaMemory& memory;         ///< the nodes its pages live on
    PageTable& page_table;      ///< virtual page number -> page
    std::uint64_t vm_start = 0; ///< first byte address of the mapping (page aligned)
    std::uint64_t vm_end = 0;   ///< one past its last byte (page aligned)
};

/// Faults in a page at @addr on node @nid, as a first write to an anonymous
/// mapping does (do_anonymous_page): a zeroed page, up to date, on the LRU,
/// mapped. Returns it, or nullptr when @nid has no frame free. Throws
/// std::invalid_argument for an address outside the mapping or one already
/// mapped, std::out_of_range for a node that does not exist.
Page* populate_anon_page(mm_struct& mm, std::uint64_t addr, int nid);

/// move_pages(2) on @pm: moves each entry's page to its node and sets its
/// status to the node the page is on afterwards, or to
///   -EFAULT  the address is outside the mapping,
///   -ENOENT  no page is mapped there,
///   -EBUSY   the page was given by an earlier entry and is moving already,
///   -ENOMEM  the radix tree could not store the entry.
/// Returns what do_move_pages returned: 0 when every isolated page moved,
/// -ENOENT when there was none to move, -ENOMEM when a target node ran out of
/// frames (the pages not yet moved stay where they were, and their entries
/// keep isolate_lru_page's 0, as migrate_pages left them), and -ENODEV, with
/// nothing done, when an entry names a node that does not exist
/// (sys_move_pages' check). Not thread-safe against another call on the
/// same process (the kernel holds mmap_sem).
int do_move_pages(mm_struct& mm, std::span<page_to_node> pm, PageToNodeLookup lookup);

} // namespace pcl

// What a run's page cache must satisfy once it has ended, whatever
// interleaving got it there: the checks an exploring schedule
// (sched/schedule_strategy.h) makes after each run, as the kernel's own
// debugging checks (VM_BUG_ON_PAGE, the LRU's list_debug) state them.
//
// - Once the disks have completed what they were given, no frame is in
//   transit: each is free, on an LRU list or pinned.
// - Each LRU list holds as many pages as its count says, each once, each
//   with PG_lru set and PG_active saying which list it is on.
// - Every page on an LRU list is in its file's index, at its offset.
// - Every page in a file's index names that file and offset, holds the
//   cache's reference, is on an LRU list, and, once every disk has
//   completed what it was given, is not locked: nobody is left to unlock it.
//   At rest (no I/O, no writeback) its references are exactly the cache's
//   and its PTE's, if one maps it: none was leaked or dropped twice.
// - Each cached page's dirty and writeback flags agree with its index's
//   tags, each file's and the cache's count of dirty pages with the pages,
//   and, once no write is in flight, every page dirtied was written,
//   truncated or is dirty still (none was freed unwritten), and the disks
//   wrote what the cache counts as written.
// - Every page a file mapping's PTE maps is that file's page at that
//   offset, still in its index: no PTE maps a page that left its file.
// - At rest, the frames in use are the cached pages and the anonymous
//   pages mapped: no frame was leaked, none is free and mapped.
//
// Made on an engine at rest (Engine::quiesce), on the machine that ran it:
// the lookups take the index's locks.
#pragma once

#include <string>
#include <vector>

namespace pcl {

class Engine;

/// Each broken invariant of @engine's page cache, said in a sentence that
/// names the page (its file, offset and frame); empty when all hold. At
/// most @limit are listed.
std::vector<std::string> audit_page_cache(Engine& engine, std::size_t limit = 20);

} // namespace pcl

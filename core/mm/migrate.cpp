#include "mm/migrate.h"

#include "index/radix_tree.h"

#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace pcl {

std::string_view page_to_node_lookup_name(PageToNodeLookup lookup) noexcept
{
    return lookup == PageToNodeLookup::Scan ? "scan" : "radix";
}

namespace {

constexpr FileId kAnonMapping = 0;

std::uint64_t vpn_of(std::uint64_t addr)
{
    return addr / NumaMemory::kPageSize;
}

bool in_vma(const mm_struct& mm, std::uint64_t addr)
{
    return addr >= mm.vm_start && addr < mm.vm_end;
}

// The radix tree holds page pointers for the page cache. Here, as
// radix_tree_insert's void *item in the patch, it holds the page's entry:
// the tree only stores, compares and returns the word (insert, lookup and
// erase never dereference an entry), and it is turned back into the entry
// before use. page_to_node is aligned past the tree's low tag bit.
static_assert(alignof(page_to_node) >= 2);

Page* as_item(page_to_node* pp)
{
    return reinterpret_cast<Page*>(pp);
}

page_to_node* as_entry(Page* item)
{
    return reinterpret_cast<page_to_node*>(item);
}

/// follow_page(FOLL_GET): the page mapped at @addr with a reference, or null.
Page* follow_page(mm_struct& mm, std::uint64_t addr)
{
    Page* page = mm.page_table.read_pte(vpn_of(addr));
    if (page)
        page->get();
    return page;
}

/// isolate_lru_page() of 2.6.27: takes @page off the LRU onto @pagelist
/// with a reference of its own, or -EBUSY when it is not on the LRU, which
/// is what a page an earlier entry isolated meets.
int isolate_lru_page(NumaMemory& memory, Page* page, std::vector<Page*>& pagelist)
{
    if (!page->test_and_clear(PG_lru))
        return -EBUSY;
    page->get();
    memory.node_frames(memory.page_to_nid(page)).unsettle();
    pagelist.push_back(page);
    return 0;
}

/// putback_lru_page(): @page goes back on the LRU; drops the reference
/// isolate_lru_page (or the allocation, for a new page) gave the list.
void putback_lru_page(NumaMemory& memory, Page* page, bool drop_ref)
{
    page->set(PG_lru);
    memory.node_frames(memory.page_to_nid(page)).settle();
    if (drop_ref)
        page->put();
}

/// The old new_page_node(): walks the array from its start to the first
/// entry holding @p ("while (pm->node != MAX_NUMNODES && pm->page != p)
/// pm++;"). Returns the entry, or null when none holds @p.
page_to_node* find_entry_scan(std::span<page_to_node> pm, const Page* p) noexcept
{
    page_to_node* pp = pm.data();
    page_to_node* const end = pm.data() + pm.size();
    while (pp != end && pp->page != p)
        ++pp;
    return pp == end ? nullptr : pp;
}

/// The copy of migrate_page_copy: the contents, and the flags a user of the
/// page sees, go to @newpage.
void migrate_page_copy(NumaMemory& memory, Page* newpage, const Page* page)
{
    std::memcpy(memory.page_address(newpage), memory.page_address(page), NumaMemory::kPageSize);
    constexpr PageFlag kept[] = { PG_uptodate, PG_dirty, PG_referenced, PG_active, PG_young };
    for (PageFlag f : kept)
        if (page->test(f))
            newpage->set_nonatomic(f);
}

/// unmap_and_move() with the page already unmapped from nowhere else (an
/// anonymous page has one PTE here): takes the PTE down, copies the page,
/// maps @newpage instead and frees the old page.
void move_to_new_page(mm_struct& mm, Page* page, Page* newpage)
{
    const std::uint64_t vpn = page->index;
    // try_to_unmap: the old page leaves the page table before it is copied,
    // so no write lands in it after the copy.
    if (mm.page_table.unmap(vpn) != page)
        throw std::logic_error("migrating page " + std::to_string(vpn) + " that its PTE does not map");
    migrate_page_copy(mm.memory, newpage, page);
    // remove_migration_ptes: the new page takes the old one's place.
    mm.page_table.install(vpn, newpage);
    putback_lru_page(mm.memory, newpage, false);
    // The mapping's reference and the isolation's: the old page is free.
    page->put();
    if (page->put())
        mm.memory.free_page(page);
}

/// migrate_pages() with new_page_node() as its allocator: moves every page
/// on @pagelist, finding each one's entry with @find_entry. Returns 0, or
/// -ENOMEM when a target node had no frame left; the pages not yet moved
/// are then put back where they were.
template <class FindEntry> int migrate_pages(mm_struct& mm, const std::vector<Page*>& pagelist, FindEntry&& find_entry)
{
    for (std::size_t i = 0; i < pagelist.size(); ++i) {
        Page* page = pagelist[i];
        // new_page_node(): the entry gives the node, and where the result goes.
        page_to_node* pp = find_entry(page);
        Page* newpage = pp ? mm.memory.alloc_pages_node(pp->node, page->mapping, page->index) : nullptr;
        if (!newpage) {
            for (std::size_t j = i; j < pagelist.size(); ++j)
                putback_lru_page(mm.memory, pagelist[j], true);
            return -ENOMEM;
        }
        move_to_new_page(mm, page, newpage);
        pp->status = mm.memory.page_to_nid(newpage);
    }
    return 0;
}

} // namespace

Page* populate_anon_page(mm_struct& mm, std::uint64_t addr, int nid)
{
    if (!in_vma(mm, addr))
        throw std::invalid_argument("address " + std::to_string(addr) + " is outside the mapping ["
            + std::to_string(mm.vm_start) + ", " + std::to_string(mm.vm_end) + ")");
    const std::uint64_t vpn = vpn_of(addr);
    if (mm.page_table.read_pte(vpn))
        throw std::invalid_argument("address " + std::to_string(addr) + " is mapped already");
    Page* page = mm.memory.alloc_pages_node(nid, kAnonMapping, vpn);
    if (!page)
        return nullptr;
    std::memset(mm.memory.page_address(page), 0, NumaMemory::kPageSize);
    page->set_nonatomic(PG_uptodate);
    page->set_nonatomic(PG_lru);
    mm.page_table.install(vpn, page);
    mm.memory.node_frames(nid).settle(); // pinned by the mapping: there is no swap
    return page;
}

int do_move_pages(mm_struct& mm, std::span<page_to_node> pm, PageToNodeLookup lookup)
{
    for (const page_to_node& pp : pm)
        if (!mm.memory.node_valid(pp.node))
            return -ENODEV;

    const bool radix = lookup == PageToNodeLookup::Radix;
    // RADIX_TREE(pmroot, GFP_KERNEL): the patch's tree, keyed by the page.
    // The kernel keyed it by the struct page pointer; the frame number
    // names the frame as well and keeps the tree as short as the memory.
    // Shift 6 and lockless lookups, as 2.6.27's radix tree had.
    std::optional<RadixTree> pmroot;
    if (radix)
        pmroot.emplace(kAnonMapping, RadixTree::Config { RadixScheme::Rcu, 6 }, mm.memory.registry());

    std::vector<Page*> pagelist;
    pagelist.reserve(pm.size());
    for (page_to_node& pp : pm) {
        // The patch: null as long as pp is not in the tree. The old code put
        // ZERO_PAGE(0) here, a page no entry moves: the same for the scan.
        pp.page = nullptr;
        int err = -EFAULT;
        if (!in_vma(mm, pp.addr)) {
            pp.status = err;
            continue;
        }
        Page* page = follow_page(mm, pp.addr);
        if (!page) {
            pp.status = -ENOENT;
            continue;
        }
        // The old code recorded the page before comparing nodes (see the
        // header: a page given first for its own node and then for another).
        if (!radix)
            pp.page = page;
        err = mm.memory.page_to_nid(page);
        if (err != pp.node) {
            if (radix) {
                switch (pmroot->insert(mm.memory.page_to_pfn(page), as_item(&pp))) {
                case InsertResult::Inserted:
                    pp.page = page;
                    err = isolate_lru_page(mm.memory, page, pagelist);
                    break;
                case InsertResult::Exists:
                    // The page cannot be migrated twice.
                    err = -EBUSY;
                    break;
                case InsertResult::NoMemory:
                    err = -ENOMEM;
                    break;
                }
            } else {
                err = isolate_lru_page(mm.memory, page, pagelist);
            }
        }
        // put_and_set: drops follow_page's reference.
        page->put();
        pp.status = err;
    }

    int err = -ENOENT;
    if (!pagelist.empty()) {
        if (radix)
            err = migrate_pages(
                mm, pagelist, [&](const Page* p) { return as_entry(pmroot->lookup(mm.memory.page_to_pfn(p))); });
        else
            err = migrate_pages(mm, pagelist, [&](const Page* p) { return find_entry_scan(pm, p); });
    }

    // Empty the tree now that new_page_node() will not be called any more.
    // The old pages are free, but their frame numbers are what the entries
    // were stored under.
    if (radix)
        for (const page_to_node& pp : pm)
            if (pp.page)
                pmroot->erase(mm.memory.page_to_pfn(pp.page));
    return err;
}

} // namespace pcl

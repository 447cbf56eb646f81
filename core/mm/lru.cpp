#include "mm/lru.h"

#include <mutex>

namespace pcl {

LruLists::LruLists(sync::LockRegistry& registry)
    : lock_(registry, "zone.lru_lock", "zone.lru_lock")
{
}

void LruLists::unlink_locked(Page& page) noexcept
{
    List& l = lists_[page.test(PG_active) ? unsigned(LruList::Active) : unsigned(LruList::Inactive)];
    if (page.lru_prev)
        page.lru_prev->lru_next = page.lru_next;
    else
        l.head = page.lru_next;
    if (page.lru_next)
        page.lru_next->lru_prev = page.lru_prev;
    else
        l.tail = page.lru_prev;
    page.lru_prev = page.lru_next = nullptr;
    l.nr.store(l.nr.load(std::memory_order_relaxed) - 1, std::memory_order_release);
}

void LruLists::link_locked(Page& page, LruList list, bool at_tail) noexcept
{
    List& l = lists_[unsigned(list)];
    // The same splice at either end, with the directions swapped: @end is
    // the end the page joins, @outward the link that leaves the list there.
    Page* List::*const end = at_tail ? &List::tail : &List::head;
    Page* List::*const other_end = at_tail ? &List::head : &List::tail;
    Page* Page::*const outward = at_tail ? &Page::lru_next : &Page::lru_prev;
    Page* Page::*const inward = at_tail ? &Page::lru_prev : &Page::lru_next;
    page.*outward = nullptr;
    page.*inward = l.*end;
    if (l.*end)
        (l.*end)->*outward = &page;
    else
        l.*other_end = &page;
    l.*end = &page;
    l.nr.store(l.nr.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    if (list == LruList::Active)
        page.set(PG_active);
    else
        page.clear(PG_active);
}

void LruLists::add_locked(Page& page, LruList list) noexcept
{
    link_locked(page, list);
    page.set(PG_lru);
}

void LruLists::del_locked(Page& page) noexcept
{
    unlink_locked(page);
    page.clear(PG_lru);
}

void LruLists::move_locked(Page& page, LruList list) noexcept
{
    unlink_locked(page);
    link_locked(page, list);
}

void LruLists::move_tail_locked(Page& page, LruList list) noexcept
{
    unlink_locked(page);
    link_locked(page, list, true);
}

std::vector<Page*> LruLists::pages(LruList list)
{
    std::lock_guard g(lock_);
    std::vector<Page*> out;
    for (Page* p = lists_[unsigned(list)].head; p; p = p->lru_next)
        out.push_back(p);
    return out;
}

} // namespace pcl

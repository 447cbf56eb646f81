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
    if (at_tail) {
        page.lru_next = nullptr;
        page.lru_prev = l.tail;
        if (l.tail)
            l.tail->lru_next = &page;
        else
            l.head = &page;
        l.tail = &page;
    } else {
        page.lru_prev = nullptr;
        page.lru_next = l.head;
        if (l.head)
            l.head->lru_prev = &page;
        else
            l.tail = &page;
        l.head = &page;
    }
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

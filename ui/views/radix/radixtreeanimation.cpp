// The radix tree view's animation between snapshots: the height change and
// the fades.
#include "views/radix/radixtreeanimation.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace pcl::ui {

namespace {

double smooth(double t)
{
    t = std::clamp(t, 0.0, 1.0);
    return t * t * (3 - 2 * t);
}

} // namespace

RadixLevelRanges radixLevelRanges(const IndexSnapshot& s)
{
    RadixLevelRanges r(std::size_t(std::max(s.height, 0)), { 0, 0 });
    for (std::size_t i = 0; i < s.nodes.size(); ++i) {
        const int l = s.nodes[i].level;
        if (l < 0 || l >= s.height)
            continue;
        auto& range = r[std::size_t(l)];
        if (range.first == range.second)
            range = { std::int32_t(i), std::int32_t(i + 1) };
        else
            range.second = std::int32_t(i + 1);
    }
    return r;
}

double RadixTreeAnimation::progress(double nowMs) const
{
    if (!anim_)
        return 1;
    return smooth((nowMs - anim_->startMs) / kDurationMs);
}

double RadixTreeAnimation::height(double nowMs, double settled) const
{
    if (anim_ && progress(nowMs) < 1)
        return anim_->fromHeight + (anim_->toHeight - anim_->fromHeight) * progress(nowMs);
    return settled;
}

double RadixTreeAnimation::span(double nowMs, double settled) const
{
    if (anim_ && progress(nowMs) < 1) {
        // Geometric: each level multiplies the span by the fanout, so the
        // slide looks the same speed all the way.
        const double t = progress(nowMs);
        return anim_->fromSpan * std::pow(anim_->toSpan / anim_->fromSpan, t);
    }
    return settled;
}

bool RadixTreeAnimation::animating(double nowMs) const
{
    if (anim_ && nowMs - anim_->startMs < kDurationMs)
        return true;
    for (const auto& [id, t] : born_)
        if (nowMs - t < kDurationMs)
            return true;
    for (const Ghost& g : ghosts_)
        if (nowMs - g.diedMs < kDurationMs)
            return true;
    return false;
}

double RadixTreeAnimation::alphaOf(std::uint64_t id, double nowMs) const
{
    const auto it = born_.find(id);
    if (it == born_.end())
        return 1;
    return std::clamp((nowMs - it->second) / kDurationMs, 0.0, 1.0);
}

double RadixTreeAnimation::ghostAlpha(const Ghost& ghost, double nowMs)
{
    return 1 - (nowMs - ghost.diedMs) / kDurationMs;
}

void RadixTreeAnimation::clear()
{
    born_.clear();
    ghosts_.clear();
    anim_.reset();
}

void RadixTreeAnimation::expire(double nowMs)
{
    // Forget finished fades.
    for (auto it = born_.begin(); it != born_.end();)
        it = nowMs - it->second >= kDurationMs ? born_.erase(it) : std::next(it);
    ghosts_.erase(
        std::remove_if(ghosts_.begin(), ghosts_.end(), [&](const Ghost& g) { return nowMs - g.diedMs >= kDurationMs; }),
        ghosts_.end());
    if (anim_ && nowMs - anim_->startMs >= kDurationMs)
        anim_.reset();
}

void RadixTreeAnimation::diff(
    const IndexSnapshot& prev, const IndexSnapshot& next, const RadixLevelRanges& nextLevels, double nowMs)
{
    // Nodes are matched by place (level, first index) and identity: a node at
    // a place that was empty, or that holds another node than before, is new.
    // Each level is in index order in both, so this is a merge, not a hash.
    const auto oldLevels = radixLevelRanges(prev);
    const std::size_t levels = std::max(oldLevels.size(), nextLevels.size());
    for (std::size_t l = 0; l < levels; ++l) {
        std::int32_t a = l < oldLevels.size() ? oldLevels[l].first : 0;
        const std::int32_t ae = l < oldLevels.size() ? oldLevels[l].second : 0;
        std::int32_t b = l < nextLevels.size() ? nextLevels[l].first : 0;
        const std::int32_t be = l < nextLevels.size() ? nextLevels[l].second : 0;
        while (a < ae || b < be) {
            const IndexSnapshot::Node* on = a < ae ? &prev.nodes[std::size_t(a)] : nullptr;
            const IndexSnapshot::Node* nn = b < be ? &next.nodes[std::size_t(b)] : nullptr;
            if (on && nn && on->first_index == nn->first_index) {
                if (on->id != nn->id) {
                    ghosts_.push_back({ *on, nowMs });
                    born_[nn->id] = nowMs;
                }
                ++a;
                ++b;
            } else if (on && (!nn || on->first_index < nn->first_index)) {
                ghosts_.push_back({ *on, nowMs });
                ++a;
            } else {
                born_[nn->id] = nowMs;
                ++b;
            }
        }
    }
}

void RadixTreeAnimation::advance(const IndexSnapshot& prev, const IndexSnapshot& next,
    const RadixLevelRanges& nextLevels, double shownHeight, double shownSpan, double settledSpan, double nowMs)
{
    expire(nowMs);
    // Fading a million nodes in and out is invisible at the level of detail
    // they are drawn with; the merge is cheap, the ghosts' copies are not.
    // Snapshots taken at two levels of detail (a zoom, a pan) list different
    // nodes: one listed by only one of them has neither appeared nor gone.
    constexpr std::size_t kMaxDiffNodes = 1u << 16;
    if (prev.detail == next.detail && prev.nodes.size() <= kMaxDiffNodes && next.nodes.size() <= kMaxDiffNodes)
        diff(prev, next, nextLevels, nowMs);
    if (prev.height != next.height && prev.height > 0 && next.height > 0)
        anim_ = HeightAnim { nowMs, shownHeight, double(next.height), shownSpan, settledSpan };
}

} // namespace pcl::ui

// What the structure views' tests share: a held lock's state, a scene
// layout set up as its view would set it up, a search of a scene's labels,
// the small paced run a live test plays, a view shown as a screenshot shows
// it, and the timing of its frames.
#pragma once

#include "kit/structureview.h"
#include "ui_test_support.h"
#include "views/viewbenchmark.h"

#include "index/index_snapshot.h"
#include "sim/scenario.h"

#include <QApplication>
#include <QImage>
#include <QSizeF>
#include <QString>
#include <QTest>

#include <cstdint>
#include <utility>

namespace pcl::ui::test {

/// A lock held by @cpu with @waiters CPUs waiting for it.
inline sync::LockState held(int cpu, std::uint32_t waiters = 0)
{
    sync::LockState s;
    s.held = true;
    s.holder_cpu = cpu;
    s.waiters = waiters;
    return s;
}

/// A Layout with the application's palette and font, at @size, showing @s.
template <class Layout> Layout sceneLayout(IndexSnapshot s, QSizeF size)
{
    Layout l;
    l.setPalette(QApplication::palette());
    l.setFont(QApplication::font());
    l.setSize(size);
    l.setSnapshot(std::move(s));
    return l;
}

/// Whether one of @scene's labels says @text.
template <class Scene> bool hasLabel(const Scene& scene, const QString& text)
{
    for (const auto& l : scene.labels)
        if (l.text == text)
            return true;
    return false;
}

/// What the live tests' runs have in common: 2 CPUs, each making @ops
/// accesses in @pattern to files of @filePages pages, in @memoryPages of
/// memory, on @device, sampled every @sampleMs.
struct TwoCpuRun {
    WorkloadPattern pattern = WorkloadPattern::Random;
    std::uint64_t filePages = 0;
    std::uint64_t ops = 0;
    std::uint64_t memoryPages = 4096;
    BlockDeviceConfig device { 0, 0, 1.0 };
    std::uint64_t sampleMs = 50;
};
inline Scenario twoCpus(const TwoCpuRun& r)
{
    Scenario s;
    s.engine.workload.pattern = r.pattern;
    s.engine.workload.cpus = 2;
    s.engine.workload.file_pages = r.filePages;
    s.engine.workload.operations_per_cpu = r.ops;
    s.engine.memory_pages = r.memoryPages;
    s.engine.device = r.device;
    s.sample_interval_ms = r.sampleMs;
    return s;
}

/// A small paced random run on an instant device at @opsPerSecond. The
/// index is the caller's to choose.
inline Scenario pacedRun(std::uint64_t filePages, std::uint64_t ops, double opsPerSecond)
{
    Scenario s = twoCpus({ .filePages = filePages, .ops = ops });
    s.engine.ops_per_second = opsPerSecond;
    return s;
}

/// Shows @view at the screenshots' size, 900 x 600.
inline void showAtScreenshotSize(QWidget& view)
{
    view.resize(900, 600);
    view.show();
}

/// Shows @view in the dark theme at the screenshots' size.
inline void showForScreenshot(QWidget& view)
{
    view.setPalette(darkPalette());
    showAtScreenshotSize(view);
}

/// Saves @image as @name (a PNG's file name) in screenshotDir().
inline bool saveScreenshot(const QImage& image, const QString& name)
{
    return image.save(screenshotDir() + QLatin1Char('/') + name);
}

/// Mean milliseconds of a frame of @view rendered into @image: after a
/// refresh, as after a tick, and alone, as a repaint with nothing new
/// (hover, a flash fading).
struct FrameTimes {
    double withLayout = 0;
    double paintOnly = 0;
};
inline FrameTimes timeFrames(StructureView& view, QImage& image)
{
    FrameTimes t;
    const int frames = 5;
    for (int i = 0; i < frames; ++i) {
        view.refresh();
        view.render(&image);
        t.withLayout += view.lastPaintMs();
        view.render(&image);
        t.paintOnly += view.lastPaintMs();
    }
    t.withLayout /= frames;
    t.paintOnly /= frames;
    return t;
}

/// Times @view's frames at @pages pages (timeFrames) and prints them as the
/// view benchmark reads them, @detail after "snapshot"; at a million pages
/// also saves @image as "<name>-1m.png". False if that screenshot failed.
inline bool reportFrames(
    StructureView& view, QImage& image, const char* name, std::uint64_t pages, const QString& detail = {})
{
    const FrameTimes t = timeFrames(view, image);
    qInfo("%s view at %llu pages: snapshot%s %.2f ms, layout + paint %.2f ms, paint %.2f ms", name,
        (unsigned long long)pages, qPrintable(detail), view.lastSnapshotMs(), t.withLayout, t.paintOnly);
    return pages != 1000000ull || saveScreenshot(image, QString::fromLatin1(name) + QStringLiteral("-1m.png"));
}

/// Loads @view, at 900 x 600, with each size the view benchmark measures
/// (kViewBenchmarkPages, its benchmarkLoad) and calls @check(pages) after
/// each load; stops at the first failure.
template <class View, class Check> void atEachBenchmarkSize(View& view, Check check)
{
    view.resize(900, 600);
    for (std::uint64_t pages : kViewBenchmarkPages) {
        view.benchmarkLoad(pages);
        check(pages);
        if (QTest::currentTestFailed())
            return;
    }
}

} // namespace pcl::ui::test

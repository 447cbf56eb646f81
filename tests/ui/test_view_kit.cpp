// The gestures of the structure views, the same in each: one wheel notch
// zooms by Viewport::kZoomPerNotch around the cursor, a press that moves
// less than ClickOrDrag::kThreshold is a click, one that moves farther pans
// by the distance moved, and a double-click fits. Every view is checked
// with real content, so a view whose gestures drift apart fails here. And
// the colours they share: the colour-blind-safe scheme keeps the CPU states
// apart under simulated red-green colour blindness, and every view draws in
// the scheme chosen as soon as it is chosen.
#include "kit/clickordrag.h"
#include "kit/colors.h"
#include "kit/colorscheme.h"
#include "kit/colorschememenu.h"
#include "kit/fittinglabel.h"
#include "kit/structureview.h"
#include "kit/viewport.h"
#include "run/simulation.h"
#include "ui_test_registry.h"
#include "ui_test_support.h"
#include "views/hash/hashview.h"
#include "views/pagestate/pagestateview.h"
#include "views/pagetable/pagetableview.h"
#include "views/radix/radixtreeview.h"
#include "views/skiplist/skiplistview.h"
#include "views/timeline/timelineview.h"

#include <QAction>
#include <QApplication>
#include <QHBoxLayout>
#include <QMenu>
#include <QMouseEvent>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTest>
#include <QWheelEvent>

#include <array>
#include <cmath>
#include <functional>
#include <memory>

using pcl::ui::ClickOrDrag;
using pcl::ui::HashView;
using pcl::ui::PageStateView;
using pcl::ui::PageTableView;
using pcl::ui::RadixTreeView;
using pcl::ui::Simulation;
using pcl::ui::SkipListView;
using pcl::ui::StructureView;
using pcl::ui::TimelineView;
using pcl::ui::ViewAxis;
using pcl::ui::Viewport;

namespace {

constexpr std::uint64_t kPages = 100000;

/// A lane of spans a millisecond long for each of two CPUs, over 200 ms.
std::vector<pcl::Event> timelineEvents()
{
    std::vector<pcl::Event> out;
    for (std::uint64_t t = 1000; t < 200'000'000; t += 1'000'000)
        for (std::uint16_t cpu = 0; cpu < 2; ++cpu) {
            out.push_back(pcl::make_event_at(t, pcl::EventKind::LockWaitBegin, cpu, 0xa0, 0, 3, 1, 1));
            out.push_back(pcl::make_event_at(t + 400'000, pcl::EventKind::LockAcquired, cpu, 0xa0, 0, 3, 400'000, 1));
        }
    return out;
}

/// Every structure view, filled.
std::vector<std::pair<QString, std::function<std::unique_ptr<StructureView>(Simulation&)>>> views()
{
    return {
        { QStringLiteral("radix"),
            [](Simulation& sim) {
                auto v = std::make_unique<RadixTreeView>(sim);
                v->benchmarkLoad(kPages);
                return std::unique_ptr<StructureView>(std::move(v));
            } },
        { QStringLiteral("hash"),
            [](Simulation& sim) {
                auto v = std::make_unique<HashView>(sim);
                v->benchmarkLoad(kPages);
                return std::unique_ptr<StructureView>(std::move(v));
            } },
        { QStringLiteral("skiplist"),
            [](Simulation& sim) {
                auto v = std::make_unique<SkipListView>(sim);
                v->benchmarkLoad(kPages);
                return std::unique_ptr<StructureView>(std::move(v));
            } },
        { QStringLiteral("pagestate"),
            [](Simulation& sim) {
                auto v = std::make_unique<PageStateView>(sim);
                v->benchmarkLoad(kPages);
                v->setFollowing(false); // the reader's window would move the view
                return std::unique_ptr<StructureView>(std::move(v));
            } },
        { QStringLiteral("pagetable"),
            [](Simulation& sim) {
                auto v = std::make_unique<PageTableView>(sim);
                v->benchmarkLoad(kPages);
                return std::unique_ptr<StructureView>(std::move(v));
            } },
        { QStringLiteral("timeline"),
            [](Simulation& sim) {
                auto v = std::make_unique<TimelineView>(sim);
                v->model().reset(2);
                v->model().addEvents(timelineEvents());
                return std::unique_ptr<StructureView>(std::move(v));
            } },
    };
}

const ViewAxis* axes(const Viewport& v, int i)
{
    return i == 0 ? &v.x : &v.y;
}

/// The middle of the axes that move; the widget's middle along the others.
QPoint middle(const StructureView& view)
{
    const Viewport v = view.viewport();
    const double x = v.x.moves() ? v.x.origin + v.x.pixels / 2 : view.width() / 2.0;
    const double y = v.y.moves() ? v.y.origin + v.y.pixels / 2 : view.height() / 2.0;
    return QPointF(x, y).toPoint();
}

/// @pixels along every axis that moves.
QPoint along(const Viewport& v, int pixels)
{
    return QPoint(v.x.moves() ? pixels : 0, v.y.moves() ? pixels : 0);
}

void wheel(StructureView& view, QPoint at, int notches)
{
    QWheelEvent e(QPointF(at), view.mapToGlobal(QPointF(at)), QPoint(), QPoint(0, 120 * notches), Qt::NoButton,
        Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &e);
}

void pressMoveRelease(StructureView& view, QPoint from, QPoint to)
{
    QTest::mousePress(&view, Qt::LeftButton, {}, from);
    QMouseEvent move(
        QEvent::MouseMove, QPointF(to), view.mapToGlobal(QPointF(to)), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&view, &move);
    QTest::mouseRelease(&view, Qt::LeftButton, {}, to);
}

/// Content units one rounding step may move a view: a whole page or bucket.
double slack(const ViewAxis& a)
{
    return std::max(1.0, a.unitsPerPixel());
}

/// Okabe and Ito's colours, as colors.h names them.
QList<QColor> okabeIto()
{
    namespace oi = pcl::ui::colors::okabeIto;
    return { oi::orange(), oi::skyBlue(), oi::bluishGreen(), oi::yellow(), oi::blue(), oi::vermillion(),
        oi::reddishPurple() };
}

/// Pixels of @image in one of @colours.
int pixelsIn(const QImage& image, const QList<QColor>& colours)
{
    QSet<QRgb> wanted;
    for (const QColor& c : colours)
        wanted.insert(c.rgb());
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += wanted.contains(image.pixel(x, y));
    return n;
}

// Colour-vision deficiency, simulated as Machado, Oliveira and Fernandes
// do it ("A Physiologically-based Model for Simulation of Color Vision
// Deficiency", IEEE TVCG 2009), at full severity, on linear sRGB; the
// colours compared in CIELAB (D65).
using Matrix = std::array<std::array<double, 3>, 3>;
constexpr Matrix kNormal { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } };
constexpr Matrix kProtanopia { { { 0.152286, 1.052583, -0.204868 }, { 0.114503, 0.786281, 0.099216 },
    { -0.003882, -0.048116, 1.051998 } } };
constexpr Matrix kDeuteranopia { { { 0.367322, 0.860646, -0.227968 }, { 0.280085, 0.672501, 0.047413 },
    { -0.011820, 0.042940, 0.968881 } } };

std::array<double, 3> labAsSeen(const QColor& c, const Matrix& m)
{
    auto linear = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    const double in[3] = { linear(c.redF()), linear(c.greenF()), linear(c.blueF()) };
    double rgb[3];
    for (int i = 0; i < 3; ++i)
        rgb[i] = std::clamp(m[i][0] * in[0] + m[i][1] * in[1] + m[i][2] * in[2], 0.0, 1.0);
    const double x = (0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047;
    const double y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    const double z = (0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883;
    auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
    return { 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)) };
}

/// The smallest CIELAB distance between two of the five CPU states' colours as seen through @m.
double closestCpuStates(const Matrix& m)
{
    namespace c = pcl::ui::colors;
    const QColor states[] = { c::cpuRunning(), c::cpuSpinning(), c::cpuBlocked(), c::cpuPageWait(), c::cpuInIo() };
    double closest = 1e9;
    for (std::size_t i = 0; i < std::size(states); ++i)
        for (std::size_t j = i + 1; j < std::size(states); ++j) {
            const auto a = labAsSeen(states[i], m), b = labAsSeen(states[j], m);
            closest = std::min(closest, std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]));
        }
    return closest;
}

/// The smallest difference in lightness (L*) between two of the five CPU states.
double closestCpuLightness()
{
    namespace c = pcl::ui::colors;
    const QColor states[] = { c::cpuRunning(), c::cpuSpinning(), c::cpuBlocked(), c::cpuPageWait(), c::cpuInIo() };
    double closest = 1e9;
    for (std::size_t i = 0; i < std::size(states); ++i)
        for (std::size_t j = i + 1; j < std::size(states); ++j)
            closest = std::min(closest, std::abs(labAsSeen(states[i], kNormal)[0] - labAsSeen(states[j], kNormal)[0]));
    return closest;
}

/// The scheme back to the standard one when a test ends, passed or not.
struct StandardColoursAfter {
    ~StandardColoursAfter() { pcl::ui::setColorScheme(pcl::ui::ColorScheme::Standard); }
};

} // namespace

class TestViewKit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theColourBlindSafeSchemeKeepsTheCpuStatesApart()
    {
        using pcl::ui::ColorScheme;
        StandardColoursAfter restore;
        // The standard colours: "waiting on a page" and "in I/O" come out
        // nearly alike without red-green vision, and two states share a lightness.
        pcl::ui::setColorScheme(ColorScheme::Standard);
        qInfo("standard: closest states %.1f (normal), %.1f (protanopia), %.1f (deuteranopia), lightness %.1f",
            closestCpuStates(kNormal), closestCpuStates(kProtanopia), closestCpuStates(kDeuteranopia),
            closestCpuLightness());
        QVERIFY(closestCpuStates(kProtanopia) < 15);
        QVERIFY(closestCpuStates(kDeuteranopia) < 15);
        QVERIFY(closestCpuLightness() < 3);
        // Okabe and Ito's: apart for everyone, and in lightness alone.
        pcl::ui::setColorScheme(ColorScheme::ColorBlindSafe);
        qInfo("colour-blind safe: closest states %.1f (normal), %.1f (protanopia), %.1f (deuteranopia), "
              "lightness %.1f",
            closestCpuStates(kNormal), closestCpuStates(kProtanopia), closestCpuStates(kDeuteranopia),
            closestCpuLightness());
        for (const Matrix* m : { &kNormal, &kProtanopia, &kDeuteranopia })
            QVERIFY(closestCpuStates(*m) >= 20);
        QVERIFY(closestCpuLightness() >= 6);
        // The settings' names go both ways, and a wrong one changes nothing.
        ColorScheme read = ColorScheme::Standard;
        QVERIFY(pcl::ui::colorSchemeFromKey(pcl::ui::colorSchemeKey(ColorScheme::ColorBlindSafe), &read));
        QCOMPARE(int(read), int(ColorScheme::ColorBlindSafe));
        QVERIFY(!pcl::ui::colorSchemeFromKey(QStringLiteral("sepia"), &read));
        QCOMPARE(int(read), int(ColorScheme::ColorBlindSafe));
    }

    void theColourBlindSafeHighlightStandsApartFromEveryState()
    {
        using pcl::ui::ColorScheme;
        namespace c = pcl::ui::colors;
        StandardColoursAfter restore;
        // The five states' colours in both schemes: a teacher switches
        // between them, and an outline must never read as a state.
        std::vector<std::pair<QString, QColor>> states;
        for (const ColorScheme scheme : { ColorScheme::Standard, ColorScheme::ColorBlindSafe }) {
            pcl::ui::setColorScheme(scheme);
            const QString in = pcl::ui::colorSchemeKey(scheme);
            states.push_back({ QStringLiteral("running (%1)").arg(in), c::cpuRunning() });
            states.push_back({ QStringLiteral("spinning (%1)").arg(in), c::cpuSpinning() });
            states.push_back({ QStringLiteral("blocked (%1)").arg(in), c::cpuBlocked() });
            states.push_back({ QStringLiteral("page wait (%1)").arg(in), c::cpuPageWait() });
            states.push_back({ QStringLiteral("in I/O (%1)").arg(in), c::cpuInIo() });
        }
        pcl::ui::setColorScheme(ColorScheme::ColorBlindSafe);
        // The application's palette (the desktop's light one, its selection
        // blue close to the running and in-I/O blues) and a dark theme's.
        const QPalette light = QApplication::palette();
        const QPalette dark = pcl::ui::test::darkPalette();
        QVERIFY(!c::isDark(light) && c::isDark(dark));
        for (const QPalette& palette : { light, dark }) {
            const QColor highlight = c::highlight(palette);
            for (const Matrix* m : { &kNormal, &kProtanopia, &kDeuteranopia })
                for (const auto& [name, state] : states) {
                    const auto a = labAsSeen(highlight, *m), b = labAsSeen(state, *m);
                    const double distance = std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
                    // The margin the scheme keeps between two states (above).
                    QVERIFY2(distance >= 20,
                        qPrintable(
                            QStringLiteral("%1 against %2: %3").arg(highlight.name(), name).arg(distance, 0, 'f', 1)));
                }
        }
        // The standard scheme keeps the desktop's selection colour.
        pcl::ui::setColorScheme(ColorScheme::Standard);
        QCOMPARE(c::highlight(light), light.color(QPalette::Highlight));
    }

    void theViewMenuChoosesTheSchemeAndRemembersIt()
    {
        StandardColoursAfter restore;
        QStandardPaths::setTestModeEnabled(true); // the settings of the tests, not the user's
        QSettings().remove(QStringLiteral("View/colours"));
        pcl::ui::setColorScheme(pcl::ui::ColorScheme::Standard);
        QMenu view;
        QMenu* colours = pcl::ui::addColorSchemeMenu(&view);
        auto* standard = colours->findChild<QAction*>(QStringLiteral("standardColoursAction"));
        auto* safe = colours->findChild<QAction*>(QStringLiteral("colourBlindSafeAction"));
        QVERIFY(standard && safe);
        QVERIFY(standard->isChecked() && !safe->isChecked());
        safe->trigger();
        QCOMPARE(int(pcl::ui::colorScheme()), int(pcl::ui::ColorScheme::ColorBlindSafe));
        QVERIFY(!standard->isChecked());
        QCOMPARE(QSettings().value(QStringLiteral("View/colours")).toString(), QStringLiteral("colour-blind-safe"));
        // The next session starts with it.
        pcl::ui::setColorScheme(pcl::ui::ColorScheme::Standard);
        QMenu next;
        QMenu* again = pcl::ui::addColorSchemeMenu(&next);
        QCOMPARE(int(pcl::ui::colorScheme()), int(pcl::ui::ColorScheme::ColorBlindSafe));
        QVERIFY(again->findChild<QAction*>(QStringLiteral("colourBlindSafeAction"))->isChecked());
        QSettings().remove(QStringLiteral("View/colours"));
    }

    void everyViewDrawsInTheSchemeChosen_data()
    {
        QTest::addColumn<int>("which");
        const auto all = views();
        for (int i = 0; i < int(all.size()); ++i)
            QTest::newRow(qPrintable(all[std::size_t(i)].first)) << i;
    }

    void everyViewDrawsInTheSchemeChosen()
    {
        QFETCH(int, which);
        StandardColoursAfter restore;
        pcl::ui::setColorScheme(pcl::ui::ColorScheme::Standard);
        Simulation sim;
        std::unique_ptr<StructureView> view = views()[std::size_t(which)].second(sim);
        view->resize(1100, 640);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        const QImage standard = view->grab().toImage();
        QCOMPARE(pixelsIn(standard, okabeIto()), 0);
        // Switched while shown, with nothing else happening: the view draws
        // in Okabe and Ito's colours at once.
        pcl::ui::setColorScheme(pcl::ui::ColorScheme::ColorBlindSafe);
        const QImage safe = view->grab().toImage();
        const int drawn = pixelsIn(safe, okabeIto());
        qInfo("%s: %d pixels in Okabe and Ito's colours", qPrintable(views()[std::size_t(which)].first), drawn);
        QVERIFY(drawn >= 100);
        QVERIFY(safe.save(pcl::ui::test::screenshotDir()
            + QStringLiteral("/colour-blind-safe-%1.png").arg(views()[std::size_t(which)].first)));
        pcl::ui::setColorScheme(pcl::ui::ColorScheme::Standard);
        QCOMPARE(pixelsIn(view->grab().toImage(), okabeIto()), 0);
    }

    void viewportArithmetic()
    {
        Viewport v;
        v.x = { 0, 1000, 0, 1000, 10, ViewAxis::kUnbounded, 100, 500 };
        v.zoomAround(QPointF(350, 0), 1); // the cursor at the middle: content 500
        QCOMPARE(v.x.span, 800.0);
        QCOMPARE(v.x.at(350), 500.0);
        v.pan(QPointF(40, 0)); // 1.6 units a pixel
        QCOMPARE(v.x.first, 100.0 - 64.0);
        v.zoomAround(QPointF(100, 0), -40); // out, far: clamped to the whole
        QCOMPARE(v.x.first, 0.0);
        QCOMPARE(v.x.span, 1000.0);
        v.zoomAround(QPointF(600, 0), 100); // in, far: the narrowest span, at the right edge
        QCOMPARE(v.x.span, 10.0);
        QCOMPARE(v.x.first, 990.0);
        v.fit();
        QCOMPARE(v.x.span, 1000.0);
        QVERIFY(!v.y.moves()); // no pixels: the y axis stays
    }

    void clickOrDrag()
    {
        ClickOrDrag g;
        g.press(QPoint(10, 10));
        QVERIFY(!g.move(QPoint(10 + ClickOrDrag::kThreshold - 1, 10)));
        QVERIFY(g.release());
        g.press(QPoint(10, 10));
        QVERIFY(g.move(QPoint(10, 10 + ClickOrDrag::kThreshold)));
        QVERIFY(g.move(QPoint(10, 10))); // back where it started: still a drag
        QVERIFY(!g.release());
    }

    void aFittingLabelWithoutRoomForItsFullTextLeavesTheRestToItsNeighbour()
    {
        QWidget bar;
        auto* row = new QHBoxLayout(&bar);
        auto* slider = new QSlider(Qt::Horizontal);
        auto* label = new FittingLabel;
        row->addWidget(slider, 1);
        row->addWidget(label);
        const QString full = QStringLiteral("12.5 s of 20 s: any moment can be shown again");
        const QString brief = QStringLiteral("12.5 s of 20 s");
        label->setTexts(full, brief);
        const int fullWidth = label->fontMetrics().horizontalAdvance(full);
        const int briefWidth = label->fontMetrics().horizontalAdvance(brief);
        bar.resize(fullWidth + 300, 30);
        bar.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bar));

        label->setRoom(fullWidth + 10); // room for it
        QTRY_COMPARE(label->text(), full);
        QVERIFY(label->width() >= fullWidth);
        // Room for less than the full text: the brief one, and the label no
        // wider than it (the scrubber takes the rest, no gap beside it).
        label->setRoom(fullWidth - 1);
        QTRY_COMPARE(label->text(), brief);
        QTRY_VERIFY(
            label->width() <= briefWidth + label->contentsMargins().left() + label->contentsMargins().right() + 1);
        QVERIFY(slider->width() > 300);
        QCOMPARE(label->fullText(), full);
    }

    void everyViewZoomsPansClicksAndFitsAlike_data()
    {
        QTest::addColumn<int>("which");
        const auto all = views();
        for (int i = 0; i < int(all.size()); ++i)
            QTest::newRow(qPrintable(all[std::size_t(i)].first)) << i;
    }

    void everyViewZoomsPansClicksAndFitsAlike()
    {
        QFETCH(int, which);
        Simulation sim;
        std::unique_ptr<StructureView> view = views()[std::size_t(which)].second(sim);
        view->resize(1100, 640);
        view->grab(); // lays the scene out, as showing it does
        view->fit();
        const Viewport fitted = view->viewport();
        QVERIFY2(fitted.x.moves() || fitted.y.moves(), "the view has nothing to zoom");

        // Zoomed in first, so that one notch either way and a pan stay clear of the limits.
        const QPoint at = middle(*view);
        wheel(*view, at, 3);
        for (int notches : { 1, -1 }) {
            const Viewport before = view->viewport();
            wheel(*view, at, notches);
            const Viewport after = view->viewport();
            for (int i = 0; i < 2; ++i) {
                const ViewAxis& b = *axes(before, i);
                const ViewAxis& a = *axes(after, i);
                if (!b.moves())
                    continue;
                const double want = std::pow(Viewport::kZoomPerNotch, notches);
                QVERIFY2(std::abs(a.span / b.span - want) < 0.01,
                    qPrintable(QStringLiteral("span %1 -> %2, not x%3").arg(b.span).arg(a.span).arg(want)));
                const double pos = i == 0 ? at.x() : at.y();
                QVERIFY2(std::abs(a.at(pos) - b.at(pos)) <= slack(b),
                    qPrintable(QStringLiteral("under the cursor %1 -> %2").arg(b.at(pos)).arg(a.at(pos))));
            }
        }

        QSignalSpy clicks(view.get(), &StructureView::clicked);
        const Viewport before = view->viewport();
        // Just short of a drag, along one axis.
        const int shy = ClickOrDrag::kThreshold - 1;
        pressMoveRelease(*view, at, at + (before.x.moves() ? QPoint(shy, 0) : QPoint(0, shy)));
        QCOMPARE(clicks.count(), 1);
        for (int i = 0; i < 2; ++i)
            QCOMPARE(axes(view->viewport(), i)->first, axes(before, i)->first);

        const int distance = 40;
        pressMoveRelease(*view, at, at + along(before, distance));
        QCOMPARE(clicks.count(), 1);
        const Viewport dragged = view->viewport();
        for (int i = 0; i < 2; ++i) {
            const ViewAxis& b = *axes(before, i);
            if (!b.moves())
                continue;
            const double want = b.first - distance * b.unitsPerPixel();
            QVERIFY2(std::abs(axes(dragged, i)->first - want) <= slack(b),
                qPrintable(QStringLiteral("dragged to %1, not %2").arg(axes(dragged, i)->first).arg(want)));
        }

        QTest::mouseDClick(view.get(), Qt::LeftButton, {}, at);
        const Viewport again = view->viewport();
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(axes(again, i)->first, axes(fitted, i)->first);
            QCOMPARE(axes(again, i)->span, axes(fitted, i)->span);
        }
    }
};

PCL_UI_TEST(TestViewKit)
#include "test_view_kit.moc"

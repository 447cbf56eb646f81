// The torn-PTE view: that what it draws at each step is what the script
// left in memory, that the naive read ends torn on "AD" and every fix
// whole, that Back and Next move one step and stop at the ends, that a new
// method starts again at step 0; and screenshots of a middle step and the
// end, for a person to look at.
#include "ui_test_registry.h"
#include "ui_test_support.h"
#include "view_test_support.h"
#include "views/tornpte/tornpteview.h"

#include "mm/split_pte_explore.h"
#include "mm/split_pte_script.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace pcl;
using namespace pcl::ui;

namespace {

QString hex32(std::uint32_t v)
{
    return QStringLiteral("0x%1").arg(v, 8, 16, QLatin1Char('0'));
}

QString textOf(const TornPteLayout& l, const char* role)
{
    const TornPteLayout::Text* t = l.text(QString::fromLatin1(role));
    return t ? t->text : QStringLiteral("<no %1>").arg(QLatin1String(role));
}

/// Whether every drawn text lies inside the picture.
bool allInside(const TornPteView& view)
{
    const QRectF area(QPointF(0, 0), QSizeF(view.canvasRect().size()));
    for (const TornPteLayout::Text& t : view.layoutModel().texts())
        if (!area.contains(t.rect.adjusted(1, 1, -1, -1))) {
            qWarning("'%s' (%s) lies outside the picture", qPrintable(t.text), qPrintable(t.role));
            return false;
        }
    return true;
}

} // namespace

class TestTornPteView : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void naiveReadShowsMemoryAtEveryStepAndEndsTorn()
    {
        TornPteView view;
        view.resize(900, 600);
        view.setScript(PteReadMethod::Naive, "ab_cd");
        const PteScript expect = run_pte_interleaving(PteReadMethod::Naive, find_pte_interleaving("ab_cd"));
        QCOMPARE(view.stepCount(), int(expect.steps.size()));
        QVERIFY(view.stepCount() >= 3);
        QCOMPARE(view.step(), 0);
        for (int i = 0; i < view.stepCount(); ++i) {
            view.setStep(i);
            QCOMPARE(view.step(), i);
            const PteStep& s = expect.steps[std::size_t(i)];
            const TornPteLayout& l = view.layoutModel();
            QCOMPARE(textOf(l, "low-name"), QString::fromStdString(pte_low_name(s.pte_low)));
            QCOMPARE(textOf(l, "low-hex"), hex32(s.pte_low));
            QCOMPARE(textOf(l, "high-name"), QString::fromStdString(pte_high_name(s.pte_high)));
            QCOMPARE(textOf(l, "high-hex"), hex32(s.pte_high));
            QCOMPARE(textOf(l, "present"),
                (s.pte_low & kPagePresent) ? QStringLiteral("present") : QStringLiteral("not present"));
            QCOMPARE(textOf(l, "lock"),
                !s.lock_holder                           ? QStringLiteral("PTE lock: free")
                    : *s.lock_holder == PteActor::Writer ? QStringLiteral("PTE lock: held by the writer")
                                                         : QStringLiteral("PTE lock: held by the reader"));
            // The step in words, and its row in its lane highlighted.
            QVERIFY(textOf(l, "sentence").contains(QString::fromStdString(s.what)));
            const char* lane = s.who == PteActor::Reader ? "reader-op" : "writer-op";
            const TornPteLayout::Text* row = l.text(QString::fromLatin1(lane), i);
            QVERIFY(row);
            QVERIFY(row->bold);
            QVERIFY(allInside(view));
            // No result before the reader has returned.
            if (i < TornPteLayout::returnStep(expect))
                QVERIFY(!l.text(QStringLiteral("result")));
        }
        // The thread's torn read: A from before the update, D from after it.
        const TornPteLayout& l = view.layoutModel();
        QVERIFY(view.atEnd());
        QVERIFY(view.script().torn);
        QCOMPARE(textOf(l, "result-entry"), QStringLiteral("AD"));
        QCOMPARE(
            textOf(l, "result"), QStringLiteral("torn: the reader returned AD, an entry that was never in memory"));
        // Memory itself ended whole, on CD.
        QCOMPARE(textOf(l, "low-name"), QStringLiteral("C"));
        QCOMPARE(textOf(l, "high-name"), QStringLiteral("D"));
        QCOMPARE(textOf(l, "reglow-name"), QStringLiteral("A"));
        QCOMPARE(textOf(l, "reghigh-name"), QStringLiteral("D"));
    }

    void presentBitIsClearedMidUpdate()
    {
        // Between the writer's first and last store pte_low reads "A-", not present.
        TornPteView view;
        view.resize(900, 600);
        bool seen = false;
        for (int i = 0; i < view.stepCount(); ++i) {
            view.setStep(i);
            if (view.script().steps[std::size_t(i)].op == PteOp::ClearPresent) {
                QCOMPARE(textOf(view.layoutModel(), "low-name"), QStringLiteral("A-"));
                QCOMPARE(textOf(view.layoutModel(), "present"), QStringLiteral("not present"));
                seen = true;
            }
        }
        QVERIFY(seen);
    }

    void rereadIsStillTornOnAbCdAe()
    {
        TornPteView view;
        view.resize(900, 600);
        view.setScript(PteReadMethod::RereadFirst, "ab_cd_ae");
        view.setStep(view.stepCount() - 1);
        QVERIFY(view.script().torn);
        QCOMPARE(textOf(view.layoutModel(), "result-entry"), QStringLiteral("AD"));
        QVERIFY(textOf(view.layoutModel(), "result").startsWith(QStringLiteral("torn:")));
    }

    void everyFixEndsWhole_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<QString>("interleaving");
        for (const PteReadMethod m : kPteReadMethods) {
            if (!pte_read_method_holds(m))
                continue;
            for (const PteInterleaving& i : pte_interleavings()) {
                const QString name = QString::fromStdString(i.name);
                QTest::newRow(qPrintable(QString::fromLatin1(pte_read_method_name(m).data()) + QLatin1Char('/') + name))
                    << int(m) << name;
            }
        }
    }

    void everyFixEndsWhole()
    {
        QFETCH(int, method);
        QFETCH(QString, interleaving);
        TornPteView view;
        view.resize(900, 600);
        view.setScript(PteReadMethod(method), interleaving.toStdString());
        QCOMPARE(view.step(), 0);
        for (int i = 0; i < view.stepCount(); ++i) {
            view.setStep(i);
            QVERIFY(allInside(view));
        }
        QVERIFY(view.atEnd());
        const TornPteLayout& l = view.layoutModel();
        QVERIFY(!view.script().torn);
        const QString entry = QString::fromStdString(pte_name(view.script().result));
        QCOMPARE(textOf(l, "result-entry"), entry);
        QCOMPARE(textOf(l, "result"),
            QStringLiteral("whole: the reader returned %1, an entry that was really in memory").arg(entry));
        // The sequence count is shown for the method that has one, only.
        QCOMPARE(l.text(QStringLiteral("sequence")) != nullptr, PteReadMethod(method) == PteReadMethod::Seqcount);
    }

    void backAndNextMoveByOneAndClamp()
    {
        TornPteView view;
        view.resize(900, 600);
        view.show();
        QSignalSpy steps(&view, &TornPteView::stepChanged);
        auto* back = view.findChild<QPushButton*>(QStringLiteral("tornPteBack"));
        auto* next = view.findChild<QPushButton*>(QStringLiteral("tornPteNext"));
        QVERIFY(back && next);
        QCOMPARE(view.step(), 0);
        view.back();
        QCOMPARE(view.step(), 0);
        QCOMPARE(steps.count(), 0);
        QVERIFY(!back->isEnabled());
        QTest::mouseClick(next, Qt::LeftButton);
        QCOMPARE(view.step(), 1);
        QTest::mouseClick(next, Qt::LeftButton);
        QCOMPARE(view.step(), 2);
        QTest::mouseClick(back, Qt::LeftButton);
        QCOMPARE(view.step(), 1);
        QCOMPARE(steps.count(), 3);
        view.next();
        QCOMPARE(view.step(), 2);
        const int last = view.stepCount() - 1;
        for (int i = 0; i < view.stepCount() + 3; ++i)
            view.next();
        QCOMPARE(view.step(), last);
        QVERIFY(!next->isEnabled());
        view.setStep(1000);
        QCOMPARE(view.step(), last);
        view.setStep(-5);
        QCOMPARE(view.step(), 0);
        // The keys a presenter's remote sends.
        QTest::keyClick(&view, Qt::Key_PageDown);
        QCOMPARE(view.step(), 1);
        QTest::keyClick(&view, Qt::Key_Left);
        QCOMPARE(view.step(), 0);
    }

    void switchingMethodStartsAgainAtStepZero()
    {
        TornPteView view;
        view.resize(900, 600);
        view.show();
        auto* methods = view.findChild<QComboBox*>(QStringLiteral("tornPteMethod"));
        auto* interleavings = view.findChild<QComboBox*>(QStringLiteral("tornPteInterleaving"));
        QVERIFY(methods && interleavings);
        QCOMPARE(methods->count(), int(kPteReadMethods.size()));
        QCOMPARE(interleavings->count(), int(pte_interleavings().size()) + 1); // and "explored"
        view.setStep(4);
        QCOMPARE(view.step(), 4);
        QSignalSpy scripts(&view, &TornPteView::scriptChanged);
        const int seq = methods->findData(int(PteReadMethod::Seqcount));
        QVERIFY(seq >= 0);
        // activated() is what a person's choice emits.
        methods->setCurrentIndex(seq);
        Q_EMIT methods->activated(seq);
        QCOMPARE(scripts.count(), 1);
        QCOMPARE(view.method(), PteReadMethod::Seqcount);
        QCOMPARE(view.step(), 0);
        QVERIFY(view.layoutModel().text(QStringLiteral("sequence")));

        view.setStep(3);
        const int ae = interleavings->findData(QStringLiteral("ab_cd_ae"));
        QVERIFY(ae >= 0);
        interleavings->setCurrentIndex(ae);
        Q_EMIT interleavings->activated(ae);
        QCOMPARE(view.interleaving(), std::string("ab_cd_ae"));
        QCOMPARE(view.method(), PteReadMethod::Seqcount);
        QCOMPARE(view.step(), 0);

        // Set from code, the bar follows.
        view.setScript(PteReadMethod::PteSame, "ab_cd");
        QCOMPARE(methods->currentData().toInt(), int(PteReadMethod::PteSame));
        QCOMPARE(interleavings->currentData().toString(), QStringLiteral("ab_cd"));
    }

    void anExploredScheduleIsReplayedOpByOp()
    {
        TornPteView view;
        view.resize(1280, 720);
        view.show();
        PteExploreConfig config;
        config.seed = 1;
        config.schedules = 1000;
        QSignalSpy done(&view, &TornPteView::explored);
        view.explore(config);
        QVERIFY(view.exploring());
        QVERIFY(view.note().contains(QStringLiteral("trying")));
        QTRY_VERIFY(!view.exploring());
        QCOMPARE(done.count(), 1);
        // The third schedule tore the read, and the view walks it as the
        // explorer recorded it, from its first operation.
        QVERIFY(view.exploration() && view.exploration()->found == 3u);
        QCOMPARE(view.interleaving(), std::string("explored"));
        const PteScript replay = run_pte_schedule(config, 3);
        QCOMPARE(view.stepCount(), int(replay.steps.size()));
        QCOMPARE(view.step(), 0);
        auto* interleavings = view.findChild<QComboBox*>(QStringLiteral("tornPteInterleaving"));
        QCOMPARE(interleavings->currentData().toString(), QStringLiteral("explored"));
        const QString note = view.note();
        QVERIFY2(note.contains(QStringLiteral("tried 3 random schedules"))
                && note.contains(QStringLiteral("In the 3rd")) && note.contains(QStringLiteral("returned AD")),
            qPrintable(note));
        QVERIFY2(!note.contains(QStringLiteral("seed")) && !note.contains(QStringLiteral("_")), qPrintable(note));
        // The note takes its room from the picture, which still fits.
        QVERIFY(view.canvasRect().top() > view.findChild<QLabel*>(QStringLiteral("tornPteNote"))->geometry().top());
        QVERIFY(allInside(view));
        view.setStep(view.stepCount() - 1);
        QVERIFY(view.script().torn);
        QCOMPARE(textOf(view.layoutModel(), "result-entry"), QStringLiteral("AD"));
        QVERIFY(allInside(view));

        // A fix: none torn, the last schedule shown, and said so.
        auto* methods = view.findChild<QComboBox*>(QStringLiteral("tornPteMethod"));
        const int lock = methods->findData(int(PteReadMethod::RecheckUnderLock));
        methods->setCurrentIndex(lock);
        Q_EMIT methods->activated(lock); // the writer's box still says "explored"
        QVERIFY(view.exploring());
        QTRY_VERIFY(!view.exploring());
        QCOMPARE(view.method(), PteReadMethod::RecheckUnderLock);
        QVERIFY(view.exploration() && !view.exploration()->found);
        QCOMPARE(view.exploration()->schedules, 1000u);
        QVERIFY(!view.script().torn && view.stepCount() > 0);
        QVERIFY2(view.note().contains(QStringLiteral("1,000 random schedules"))
                && view.note().contains(QStringLiteral("none")),
            qPrintable(view.note()));

        // A scripted interleaving chosen again: no note.
        view.setScript(PteReadMethod::Naive, "ab_cd");
        QVERIFY(view.note().isEmpty());
        QVERIFY(!view.exploration());
    }

    void fitsAtLectureSizes_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("900x600") << QSize(900, 600);
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("minimum") << TornPteView().minimumSizeHint();
    }

    void fitsAtLectureSizes()
    {
        QFETCH(QSize, size);
        TornPteView view;
        view.resize(size);
        view.resize(size);
        for (const PteReadMethod m : kPteReadMethods)
            for (const PteInterleaving& i : pte_interleavings()) {
                view.setScript(m, i.name);
                for (int s = 0; s < view.stepCount(); ++s) {
                    view.setStep(s);
                    QVERIFY2(allInside(view), qPrintable(QString::fromLatin1(pte_read_method_name(m).data())));
                    // The current row is always in view, whatever the script's length.
                    QVERIFY(view.layoutModel().firstRow() <= s && s <= view.layoutModel().lastRow());
                }
            }
    }

    void theChoicesReadInFullAtEveryWidth()
    {
        // Beside a lesson's docks at 1280 pixels the centre is a few hundred
        // pixels wide: the bar goes to two or three rows rather than cut the
        // reader's method to its first letters.
        TornPteView view;
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto* method = view.findChild<QComboBox*>(QStringLiteral("tornPteMethod"));
        const auto* writer = view.findChild<QComboBox*>(QStringLiteral("tornPteInterleaving"));
        const auto* next = view.findChild<QPushButton*>(QStringLiteral("tornPteNext"));
        QVERIFY(method && writer && next);
        int rowsWide = 0, rowsNarrow = 0;
        for (int width = view.minimumSizeHint().width(); width <= 1280; width += 20) {
            view.resize(width, 600);
            QCoreApplication::processEvents();
            for (const QWidget* w : { static_cast<const QWidget*>(method), static_cast<const QWidget*>(writer),
                     static_cast<const QWidget*>(next) }) {
                const QRect r(w->mapTo(&view, QPoint(0, 0)), w->size());
                QVERIFY2(view.rect().contains(r) && r.bottom() < view.canvasRect().top(),
                    qPrintable(QStringLiteral("%1 at width %2").arg(w->objectName()).arg(width)));
                QVERIFY2(w->width() >= w->sizeHint().width(),
                    qPrintable(QStringLiteral("%1 at width %2: %3 of %4")
                                   .arg(w->objectName())
                                   .arg(width)
                                   .arg(w->width())
                                   .arg(w->sizeHint().width())));
            }
            // Every choice's text fits the box, not only the one shown.
            for (int i = 0; i < method->count(); ++i)
                QVERIFY(method->fontMetrics().horizontalAdvance(method->itemText(i)) < method->width());
            const int rows = next->mapTo(&view, QPoint(0, 0)).y() > method->mapTo(&view, QPoint(0, 0)).y() ? 2 : 1;
            (width == 1280 ? rowsWide : rowsNarrow) = std::max(width == 1280 ? rowsWide : rowsNarrow, rows);
        }
        // One row where all fits; more where it does not.
        QCOMPARE(rowsWide, 1);
        QCOMPARE(rowsNarrow, 2);
    }

    void screenshots_data() { test::addThemeRows(); }

    void screenshots()
    {
        QFETCH(bool, dark);
        const QString theme = dark ? QStringLiteral("dark") : QStringLiteral("light");
        struct Shot {
            PteReadMethod method;
            const char* interleaving;
            const char* name;
        };
        for (const Shot& shot :
            { Shot { PteReadMethod::Naive, "ab_cd", "naive" }, Shot { PteReadMethod::PteSame, "ab_cd_ae", "pte-same" },
                Shot { PteReadMethod::RereadFirst, "ab_cd_ae", "reread" } }) {
            // The two lecture sizes, and a short view inside a window with docks.
            for (const QSize size : { QSize(900, 600), QSize(1280, 720), QSize(760, 480) }) {
                TornPteView view;
                test::applyTheme(view, dark, size);
                view.show();
                view.setScript(shot.method, shot.interleaving);
                // The middle: the writer's update done or nearly, the reader
                // holding half of the old entry.
                int middle = 0;
                for (int i = 0; i < view.stepCount(); ++i)
                    if (view.script().steps[std::size_t(i)].op == PteOp::WriteHigh) {
                        middle = i;
                        break;
                    }
                const QString base = QStringLiteral("torn-pte-%1-%2-%3x%4")
                                         .arg(QLatin1String(shot.name), theme)
                                         .arg(size.width())
                                         .arg(size.height());
                view.setStep(middle);
                QImage image = view.grab().toImage();
                QCOMPARE(image.size(), size);
                QVERIFY(test::distinctColours(image) > 12);
                QVERIFY(test::saveScreenshot(image, base + QStringLiteral("-step.png")));
                view.setStep(view.stepCount() - 1);
                image = view.grab().toImage();
                QVERIFY(test::distinctColours(image) > 12);
                QVERIFY(test::saveScreenshot(image, base + QStringLiteral("-result.png")));
            }
        }
    }
};

PCL_UI_TEST(TestTornPteView)
#include "test_tornpteview.moc"

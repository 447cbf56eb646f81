// What the torn-PTE view draws for one step of a scripted read
// (mm/split_pte_script.h), as shapes and texts with their roles: the model
// the Qt tests check exactly, free of widgets.
//
// Top left, memory: the entry as two boxes side by side, pte_low (its name
// as the thread names the halves, "A", "A-", "C", its hex value and its
// present bit) and pte_high ("B", "D", "E"), joined into one word for the
// 64-bit method; under them who holds the PTE lock, the sequence count when
// the reader uses one, and the entries the writer has written so far. Top
// right, the reader's registers, drawn like memory so that the two can be
// compared at a glance (memory CD, registers A and D). Then the step in one
// sentence; once the reader has returned, the result in large type, red
// when torn, green when whole; and last the two lanes, the reader's and
// the writer's operations in the order they happened, one row each, the
// current one highlighted and those done greyed, scrolled to keep the
// current one in view.
//
// Everything scales with the size, so that it reads on a projector at 900
// x 600 and fills 1280 x 720.
#pragma once

#include "kit/displaylist.h"

#include "mm/split_pte_script.h"

#include <QCoreApplication>
#include <QFont>
#include <QPalette>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <vector>

class QPainter;

namespace pcl::ui {

class TornPteLayout {
    Q_DECLARE_TR_FUNCTIONS(TornPteLayout)

public:
    /// The type sizes, from the small captions to the halves' names.
    enum class Size : std::uint8_t { Caption, Body, Lane, Sentence, Result, Letter };

    /// One text: where, what, in which colour and size.
    struct Text {
        QRectF rect;
        QString text;
        QColor color;
        int align = 0; ///< Qt::Alignment, with Qt::TextWordWrap where it wraps
        Size size = Size::Body;
        bool bold = false;
        QString role;   ///< "low-name", "low-hex", "present", "high-name", "high-hex", "lock", "sequence", ...
        int index = -1; ///< "reader-op" and "writer-op": the step
    };

    /// Lays out @script at @step (clamped) in @size, with @palette's colours
    /// and @font as the body type.
    void layout(const PteScript& script, int step, const QSizeF& size, const QPalette& palette, const QFont& font);

    /// The fills, outlines and lines, drawn before the texts. Roles: "memory",
    /// "low-box", "high-box", "word-box", "register-box", "lock-dot",
    /// "result-band", "current-row", "lane-rule".
    const DisplayList& shapes() const { return shapes_; }
    const std::vector<Text>& texts() const { return texts_; }
    /// The first text of @role (and @index, unless -1), or nullptr.
    const Text* text(const QString& role, int index = -1) const;
    /// Every text of @role, in order.
    std::vector<const Text*> textsWithRole(const QString& role) const;
    /// The lanes' first and last rows in view (steps), the rest scrolled off.
    int firstRow() const { return firstRow_; }
    int lastRow() const { return lastRow_; }

    /// The font of @size for the last layout.
    QFont font(Size size, bool bold = false) const;
    /// Draws the shapes, then the texts.
    void paint(QPainter& p) const;

    /// The operation of @script's step @index in a few words, for its row
    /// in a lane: "read pte_low: A", "clear present in pte_low: A-",
    /// "read pte_high: D → returns AD".
    static QString laneText(const PteScript& script, int index);
    /// The step in one sentence for a student: "The writer clears the
    /// present bit in pte_low: A-."
    static QString sentence(const PteStep& s);
    /// The result in one line: "torn: the reader returned AD, an entry that
    /// was never in memory" or "whole: ...".
    static QString resultText(const PteScript& script);
    /// The retries in words: "It started again once."
    static QString retriesText(const PteScript& script);
    /// The step at which the reader returned (its last operation).
    static int returnStep(const PteScript& script);

private:
    double s_ = 1; ///< the scale of everything
    QFont base_;
    QPalette pal_;
    DisplayList shapes_;
    std::vector<Text> texts_;
    int firstRow_ = 0;
    int lastRow_ = -1;

    void fill(const QRectF& r, const QColor& c, const QString& role);
    void outline(const QRectF& r, const QColor& c, double width, const QString& role);
    void line(const QPointF& a, const QPointF& b, const QColor& c, double width, const QString& role);
    Text& text(const QRectF& r, const QString& t, const QColor& c, int align, Size size, const QString& role,
        bool bold = false);
    double lineHeight(Size size, bool bold = false) const;
    double textHeight(const QString& t, double width, Size size, bool bold = false) const;

    double memoryPanel(const PteScript& script, int step, const QRectF& r);
    double registersPanel(const PteScript& script, int step, const QRectF& r);
    double sentenceBand(const PteScript& script, int step, const QRectF& r);
    double resultBand(const PteScript& script, const QRectF& r);
    void lanes(const PteScript& script, int step, const QRectF& r);
    void half(const QRectF& box, const QString& role, const QString& caption, const QString& name, const QString& hex,
        const QColor& accent);
};

} // namespace pcl::ui

// The report of a run: one self-contained XHTML page (the scenario, its
// parameters, the counters, the lock tables, the latency histograms and
// every chart inline as SVG, and for a lesson its steps and verdicts), the
// same as an A4 PDF whose pages never cut a chart or a table row, and the
// charts alone as PNG, SVG and PDF files. Everything is built from a
// finished run's RunResult, so the command line writes it without a
// display and the application without its live Simulation. Files are
// written atomically: a failed write leaves no half file and says why.
#pragma once

#include <QString>
#include <QStringList>

namespace pcl {
struct RunResult;
struct Lesson;
struct ExperimentResult;
} // namespace pcl

namespace pcl::ui {

struct ReportSubject {
    /// The run reported; required, except in a lesson's report, which may
    /// hold only its steps and verdicts (a measurement keeps no run).
    const pcl::RunResult* run = nullptr;
    QString stem;                                    ///< file-name stem, e.g. "2002-global-hash-lock"
    const pcl::Lesson* lesson = nullptr;             ///< optional: a lesson's steps
    const pcl::ExperimentResult* verdicts = nullptr; ///< optional: its verdict table
    /// Optional: what each step's run showed, side by side, as the lesson
    /// panel kept it: the heading row ("", "Step 1", ...) first, then a row
    /// per figure, its name first.
    QList<QStringList> stepFigures;
};

bool writeReportHtml(const ReportSubject& subject, const QString& path, QString* error);
bool writeReportPdf(const ReportSubject& subject, const QString& path, QString* error);
/// The pages writeReportPdf writes for @subject (0 when it cannot lay it out).
int reportPageCount(const ReportSubject& subject);
/// Every chart of the run as PNG, SVG and PDF in @dir, named STEM_CHARTID.EXT; returns the files written (empty +
/// @error on failure).
QStringList writeReportCharts(const ReportSubject& subject, const QString& dir, QString* error);
/// Two runs overlaid (A and B, one line each per chart, for `compare`): each time-series chart as PNG, SVG, PDF in
/// @dir.
QStringList writeComparisonCharts(const pcl::RunResult& a, const pcl::RunResult& b, const QString& nameA,
    const QString& nameB, const QString& dir, QString* error);

} // namespace pcl::ui

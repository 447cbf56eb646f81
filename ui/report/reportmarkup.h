// The text of a report as XHTML: the same document for the HTML file (a
// browser's stylesheet, charts inline as SVG) and for the PDF (Qt's rich
// text, charts as objects its layout keeps whole on a page). Written with
// QXmlStreamWriter, so every tag is closed and every value escaped.
#pragma once

#include "report/reportcharts.h"
#include "report/runreport.h"

#include <QString>

#include <functional>
#include <set>
#include <utility>
#include <vector>

QT_BEGIN_NAMESPACE
class QXmlStreamWriter;
QT_END_NAMESPACE

namespace pcl::ui {

enum class ReportMedium { Html, Pdf };

/// Writes chart @index of the charts into the document; false and @error
/// when it cannot be drawn.
using FigureWriter = std::function<bool(QXmlStreamWriter& xml, const ReportChart& chart, int index, QString* error)>;

/// A body row of one of the report's tables: the table's number in the
/// report (from 0) and the row's (from 0, the heading row not counted).
using TableRow = std::pair<int, int>;

/// The report of @subject with @charts (buildRunCharts of its run, or none)
/// for @medium. Each row of @breaks starts a new <table> (its heading row
/// repeated) on a new page: the pages keep a row whole that way. @pieces,
/// if given, gets each <table> written, in order, as the table it belongs
/// to and its first row. Returns an empty string and says why in @error
/// when a figure failed.
QString reportMarkup(const ReportSubject& subject, const std::vector<ReportChart>& charts, ReportMedium medium,
    const FigureWriter& figure, QString* error, const std::set<TableRow>& breaks = {},
    std::vector<TableRow>* pieces = nullptr);

/// The report's heading: the lesson's title, else the scenario's.
QString reportTitle(const ReportSubject& subject);

} // namespace pcl::ui

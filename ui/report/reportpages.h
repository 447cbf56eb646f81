// A report as A4 pages: its XHTML laid out by Qt's rich text and printed
// with the PDF writer, no browser. Each chart is one object of the text,
// drawn as vectors, which the layout moves whole to the next page rather
// than cut; a table row moves whole too, and a table's heading row repeats
// on each page it spans. Each page ends with the report's title and its
// page number.
#pragma once

#include "report/runreport.h"

QT_BEGIN_NAMESPACE
class QIODevice;
QT_END_NAMESPACE

namespace pcl::ui {

/// Prints @subject's report as a PDF to @device. Returns the pages written,
/// or -1 and says why in @error.
int printReport(const ReportSubject& subject, QIODevice* device, QString* error);

} // namespace pcl::ui

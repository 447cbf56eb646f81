// How the views write a count: English digit grouping ("1,048,576"), the
// same in a label, a title and a tooltip, whatever the desktop's locale, so
// that a screenshot in a lecture reads the same as the numbers the CLI prints.
#pragma once

#include <QLocale>
#include <QString>

#include <cstdint>

namespace pcl::ui {

/// @v with English thousands separators.
inline QString groupedNumber(std::uint64_t v)
{
    return QLocale(QLocale::English).toString(qulonglong(v));
}

} // namespace pcl::ui

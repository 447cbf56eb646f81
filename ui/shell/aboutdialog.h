// Help > About: the product, its version, what it is, what it is built on.
#pragma once

#include <QDialog>

namespace pcl::ui {

class AboutDialog : public QDialog {
    Q_OBJECT
public:
    explicit AboutDialog(QWidget* parent = nullptr);

    /// The libraries the program was built against and runs with, one line
    /// each, e.g. "Qt 6.4.2", "oneTBB 2021.8", "liburcu 0.13.2".
    static QStringList libraryVersions();
};

} // namespace pcl::ui

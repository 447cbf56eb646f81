#include "shell/aboutdialog.h"

#include "shell/appicon.h"

#include <QByteArray>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <oneapi/tbb/version.h>

namespace pcl::ui {

QStringList AboutDialog::libraryVersions()
{
    // Qt and oneTBB are shared libraries: name the version running, and the
    // one built against when they differ. liburcu has no run-time query.
    QString qt = QStringLiteral("Qt %1").arg(QString::fromLatin1(qVersion()));
    if (qstrcmp(qVersion(), QT_VERSION_STR) != 0)
        qt += QStringLiteral(" (built with %1)").arg(QStringLiteral(QT_VERSION_STR));
    QString tbb = QStringLiteral("oneTBB %1").arg(QString::fromLatin1(TBB_runtime_version()));
    if (qstrcmp(TBB_runtime_version(), TBB_VERSION_STRING) != 0)
        tbb += QStringLiteral(" (built with %1)").arg(QStringLiteral(TBB_VERSION_STRING));
    return { qt, tbb, QStringLiteral("liburcu %1").arg(QStringLiteral(PCL_URCU_VERSION)) };
}

AboutDialog::AboutDialog(QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("aboutDialog"));
    setWindowTitle(tr("About Page Cache Lab"));
    setWindowIcon(applicationIcon());

    auto* icon = new QLabel;
    icon->setPixmap(applicationIconPixmap(QSize(96, 96), qGuiApp->devicePixelRatio()));
    icon->setAlignment(Qt::AlignTop | Qt::AlignHCenter);

    auto* name = new QLabel(tr("Page Cache Lab"));
    name->setObjectName(QStringLiteral("productName"));
    QFont nameFont = name->font();
    nameFont.setPointSizeF(nameFont.pointSizeF() * 1.6);
    nameFont.setBold(true);
    name->setFont(nameFont);

    auto* version = new QLabel(tr("Version %1").arg(QStringLiteral(PCL_VERSION)));
    version->setObjectName(QStringLiteral("productVersion"));
    version->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* what = new QLabel(tr("A simulated Linux page cache running on real threads, shown live: the page index "
                               "growing, locks contending, faults queueing on pages under I/O and readahead "
                               "windows opening ahead of a reader."));
    what->setWordWrap(true);

    auto* builtOn = new QLabel(tr("Built on %1.").arg(libraryVersions().join(QStringLiteral(", "))));
    builtOn->setObjectName(QStringLiteral("libraryVersions"));
    builtOn->setWordWrap(true);
    builtOn->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette muted = builtOn->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
    builtOn->setPalette(muted);

    // Qt Charts is GPL-3.0 only (or commercial): the application as built
    // is GPL-3.0 or later, whatever its own sources could be.
    auto* licence = new QLabel(tr("Free software under the GNU General Public License, version 3 or later: you may "
                                  "share and change it. Built on Qt (LGPL 3; Qt Charts GPL 3), oneTBB (Apache 2.0) "
                                  "and liburcu (LGPL 2.1 or later)."));
    licence->setObjectName(QStringLiteral("licence"));
    licence->setWordWrap(true);
    licence->setTextInteractionFlags(Qt::TextSelectableByMouse);
    licence->setPalette(muted);

    auto* text = new QVBoxLayout;
    text->setSpacing(8);
    text->addWidget(name);
    text->addWidget(version);
    text->addSpacing(6);
    text->addWidget(what);
    text->addWidget(builtOn);
    text->addWidget(licence);
    text->addStretch();

    auto* body = new QHBoxLayout;
    body->setSpacing(20);
    body->addWidget(icon);
    body->addLayout(text, 1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(24, 24, 24, 16);
    layout->setSpacing(16);
    layout->addLayout(body);
    layout->addWidget(buttons);

    // Wide enough that the sentence wraps into a few even lines.
    setMinimumWidth(520);
}

} // namespace pcl::ui

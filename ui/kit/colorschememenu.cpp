#include "kit/colorschememenu.h"

#include "kit/colorscheme.h"

#include <QActionGroup>
#include <QMenu>
#include <QSettings>

namespace pcl::ui {

namespace {
const QString kSettingsKey = QStringLiteral("View/colours");
} // namespace

QMenu* addColorSchemeMenu(QMenu* menu)
{
    QMenu* colours = menu->addMenu(QMenu::tr("&Colours"));
    colours->setObjectName(QStringLiteral("colourSchemeMenu"));
    colours->setToolTipsVisible(true);
    auto* group = new QActionGroup(colours);
    group->setExclusive(true);

    ColorScheme saved = colorScheme();
    colorSchemeFromKey(QSettings().value(kSettingsKey).toString(), &saved);
    setColorScheme(saved);

    const struct {
        ColorScheme scheme;
        QString text;
        QString tip;
        const char* name;
    } kChoices[] = {
        { ColorScheme::Standard, QMenu::tr("&Standard"),
            QMenu::tr("The usual colours: locks held green, wanted yellow, blocked red"), "standardColoursAction" },
        { ColorScheme::ColorBlindSafe, QMenu::tr("Colour-&blind safe"),
            QMenu::tr("Okabe and Ito's colours: every state stays apart for red-green colour blindness, and differs "
                      "in lightness too"),
            "colourBlindSafeAction" },
    };
    for (const auto& [scheme, text, tip, name] : kChoices) {
        QAction* a = colours->addAction(text);
        a->setObjectName(QLatin1String(name));
        a->setToolTip(tip);
        a->setStatusTip(tip);
        a->setCheckable(true);
        a->setChecked(scheme == colorScheme());
        group->addAction(a);
        QObject::connect(a, &QAction::triggered, colours, [scheme = scheme] {
            setColorScheme(scheme);
            QSettings().setValue(kSettingsKey, colorSchemeKey(scheme));
        });
    }
    return colours;
}

} // namespace pcl::ui

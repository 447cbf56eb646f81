#include "kit/lockstate.h"

#include "kit/colors.h"

namespace pcl::ui {

QString lockText(const sync::LockState& state)
{
    QString t;
    if (!state.held && state.readers == 0)
        t = QStringLiteral("free");
    else if (state.readers > 0)
        t = QStringLiteral("held by %1 reader%2").arg(state.readers).arg(state.readers == 1 ? "" : "s");
    else if (state.holder_cpu >= 0)
        t = QStringLiteral("held by CPU %1").arg(state.holder_cpu);
    else
        t = QStringLiteral("held");
    if (state.waiters > 0)
        t += QStringLiteral(", %1 waiting").arg(state.waiters);
    return t;
}

QString lockText(const std::string& name, const sync::LockState& state)
{
    return QString::fromStdString(name) + QStringLiteral(": ") + lockText(state);
}

QColor lockColor(const sync::LockState& state, const QColor& free)
{
    if (state.waiters > 0)
        return colors::lockWanted();
    if (state.held)
        return colors::lockHeld();
    return free;
}

} // namespace pcl::ui

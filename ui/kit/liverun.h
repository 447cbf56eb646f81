// The run a structure view follows, as the view sees it: when a new run
// begins, each tick of the GUI's timer, the events a tick drained, the end
// of the run, and a read-only window on its machine (core's Debugfs). The
// views and their kit know this much of a run and nothing of how it is
// driven: `run/simulation.h` is one (the run on screen).
//
// Everything here is read on the GUI thread, between the ticks that turn the
// run; the window's reads are the structures' own read paths (Debugfs).
#pragma once

#include "events/event.h"
#include "sim/debugfs.h"

#include <QObject>

#include <optional>
#include <vector>

namespace pcl::ui {

class LiveRun : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    /// The running machine, read-only; nothing while no run is built.
    virtual std::optional<Debugfs> debugfs() const = 0;

Q_SIGNALS:
    /// A new run was built (or failed to be): views drop what they hold.
    void runReset();
    /// After each timer tick: samples and counters may have changed.
    void ticked();
    /// Events drained in this tick, in time order.
    void eventsArrived(const std::vector<pcl::Event>& events);
    /// The events that come next were not all drained ones: the oldest of
    /// them were left out (more than a view can take in a tick), so what a
    /// view builds from the stream (the timeline's spans) does not know what
    /// happened between the last events it had and the next.
    void eventsLeftOut();
    /// The run ended (finished, stopped or failed): no tick follows until
    /// the next reset.
    void runEnded();
};

} // namespace pcl::ui

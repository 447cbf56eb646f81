// The runtime directory Qt wants before its application object exists.
// Without a login session (a batch job, ssh, a container, the offscreen
// screenshots) there is no XDG_RUNTIME_DIR, and Qt warns on stderr before
// it falls back to a private directory under /tmp. Both programs make that
// directory as Qt would (mode 0700, owned by the user) and name it, so a
// script's stderr holds only what it needs.
#pragma once

namespace pcl::ui {

/// Sets XDG_RUNTIME_DIR to /tmp/runtime-UID, made if missing, when it is
/// unset and that directory is the user's own with mode 0700; otherwise
/// leaves it to Qt.
void prepareRuntimeDirectory();

} // namespace pcl::ui

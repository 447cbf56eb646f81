// Where machine profiles are found: bundled with the programs
// (resources/machines/*.json), else in the user's configuration directory,
// where `pagecache-lab-cli calibrate` writes the profile of the machine it
// runs on, named "host".
#pragma once

#include "sched/machine_profile.h"

#include <string>
#include <vector>

namespace pcl::sched {

/// The profile of the machine the programs run on, measured by calibrate.
inline constexpr std::string_view kHostMachine = "host";

/// $XDG_CONFIG_HOME/pagecache-lab/machines, else
/// $HOME/.config/pagecache-lab/machines; empty when neither is set.
std::string user_machines_dir();

/// The bundled profiles' names, sorted.
std::vector<std::string> bundled_machine_names();

/// Every profile that load_machine_profile() finds by name: the bundled
/// ones, then those of user_machines_dir() (a bundled name there is
/// shadowed), sorted.
std::vector<std::string> machine_profile_names();

/// The profile @name: bundled, else user_machines_dir()/NAME.json.
/// Throws FieldError naming the file and the field of a bad profile, and
/// std::invalid_argument for a name that is neither (for "host": run
/// `pagecache-lab-cli calibrate`).
MachineProfile load_machine_profile(const std::string& name);

} // namespace pcl::sched

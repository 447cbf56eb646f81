// A word as a POSIX shell reads it back: the job lines `sweep --jobs`
// writes, and the command line a result records (lib/provenance.h).
#pragma once

#include <string>

namespace pcl {

/// @word bare when it is made of characters no shell treats specially, else
/// in single quotes (a quote inside as '\'').
std::string shell_quote(const std::string& word);

} // namespace pcl

// A word as a POSIX shell reads it back (see shell_quote.h).
#include "lib/shell_quote.h"

namespace pcl {

std::string shell_quote(const std::string& word)
{
    if (!word.empty()
        && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+")
            == std::string::npos)
        return word;
    std::string q = "'";
    for (char c : word)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

} // namespace pcl

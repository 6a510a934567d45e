// The wire names of the small enums (codec.h), and the checks of a nickname and of ICCS
// move text.
#include <string>

#include "protocol/codec.h"
#include "protocol/utf8.h"
#include "protocol/wire_names.h"

namespace xq::proto {

using namespace wire;

std::string_view role_name(Role r) { return ROLE_NAMES[static_cast<std::size_t>(r)]; }
std::string_view scope_name(ChatScope s) { return SCOPE_NAMES[static_cast<std::size_t>(s)]; }
std::string_view status_name(TableStatus s) { return STATUS_NAMES[static_cast<std::size_t>(s)]; }
std::string_view leave_reason_name(LeaveReason r) { return LEAVE_NAMES[static_cast<std::size_t>(r)]; }
std::string_view color_wire_name(Color c) { return COLOR_NAMES[c == RED ? 0 : 1]; }
std::string_view abandon_policy_name(AbandonPolicy p) { return ABANDON_NAMES[static_cast<std::size_t>(p)]; }
std::string_view board_result_name(BoardResult r) { return BOARD_RESULT_NAMES[static_cast<std::size_t>(r)]; }
std::string_view notation_name(PgnNotation n) { return NOTATION_NAMES[static_cast<std::size_t>(n)]; }

std::string check_name(std::string_view name) {
    if (name.empty()) return "name is empty";
    if (!valid_utf8(name)) return "name is not valid UTF-8";
    if (has_control_chars(name)) return "name contains control characters";
    if (count_code_points(name) > MAX_NAME_CODE_POINTS)
        return "name is longer than " + std::to_string(MAX_NAME_CODE_POINTS) + " characters";
    if (name.front() == ' ' || name.back() == ' ') return "name starts or ends with a space";
    return {};
}

bool is_iccs_syntax(std::string_view t) {
    return t.size() == 4 && t[0] >= 'a' && t[0] <= 'i' && t[1] >= '0' && t[1] <= '9' && t[2] >= 'a' &&
           t[2] <= 'i' && t[3] >= '0' && t[3] <= '9';
}

}  // namespace xq::proto

#pragma once
// An ImGui combo over an enum's names (EnumNames.hpp), for every panel that lets the user pick one value of an enum.
#include <gravlab/sim/EnumNames.hpp>

#include <imgui.h>
#include <string>

namespace gravlab {

/// Draws the combo labelled label showing value's name; true when the user picked another value (then in value).
template <typename Enum> bool enumCombo(const char* label, Enum& value) {
    bool changed = false;
    if (ImGui::BeginCombo(label, std::string(enumName(value)).c_str())) {
        for (const EnumName<Enum>& entry : EnumNames<Enum>::entries) {
            if (ImGui::Selectable(std::string(entry.name).c_str(), entry.value == value) && entry.value != value) {
                value = entry.value;
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    return changed;
}

} // namespace gravlab

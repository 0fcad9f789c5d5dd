#pragma once
// The schema rules an SVD file must keep for its registers to mean
// anything, checked after dim expansion: fields inside their register and
// apart from each other, registers of one peripheral apart from each other
// (unless SVD declares them alternatives: svd_alternates.hpp), no register inside an
// addressBlock marked reserved. Each break is a located error.

#include "regemu/regdb/diagnostics.hpp"
#include "tools/convert/svd_model.hpp"

namespace regemu::convert {

void CheckRegisterLayout(const SvdPeripheral& peripheral, regdb::Diagnostics& diagnostics);

}  // namespace regemu::convert

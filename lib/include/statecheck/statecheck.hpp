// statecheck/statecheck.hpp - everything a spec file needs.
#pragma once

#include "statecheck/check.hpp"
#include "statecheck/constants.hpp"
#include "statecheck/containers.hpp"
#include "statecheck/enum.hpp"
#include "statecheck/id_arrays.hpp"
#include "statecheck/one_of.hpp"
#include "statecheck/registry.hpp"
#include "statecheck/spec.hpp"
#include "statecheck/symmetry.hpp"
#include "statecheck/time.hpp"

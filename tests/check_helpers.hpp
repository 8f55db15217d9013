// Moved to tests/support/ (the one test-support layer); kept so older includes still build.
#pragma once
#include "support/check_helpers.hpp"

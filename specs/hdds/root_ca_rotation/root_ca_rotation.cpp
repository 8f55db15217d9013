#include "root_ca_rotation.hpp"

using namespace specs::hdds::root_ca_rotation;
STATECHECK_REGISTER(root_ca_rotation, "HDDS-16914: SCM leader counts root CA rotation prepare acks per certificate",
                    config, make_spec,
                    {{{"variant", "as-is"}, {"scenario", "atomic-task"}}, "violation OneAckPerScm 10"},
                    {{{"variant", "as-is"}, {"scenario", "atomic-task"}}, "violation CommitOnlyWhenAllPrepared 13",
                     {"CommitOnlyWhenAllPrepared"}},
                    {{{"variant", "as-is"}, {"scenario", "atomic-task"}}, "violation NoScmFailsCommit 18",
                     {"NoScmFailsCommit"}},
                    {{{"variant", "as-is"}, {"scenario", "split-task"}}, "violation OneAckPerScm 12"},
                    {{{"variant", "as-is"}, {"scenario", "split-task"}}, "violation NoScmFailsCommit 21",
                     {"NoScmFailsCommit"}},
                    {{{"variant", "as-is"}, {"scenario", "atomic-task"}, {"crashes", "0"}},
                     "violation DuplicateAckWindow 0"},
                    {{{"variant", "patched"}, {"scenario", "atomic-task"}}, "ok",
                     {"OneAckPerScm", "CommitOnlyWhenAllPrepared", "NoScmFailsCommit"}},
                    {{{"variant", "patched"}, {"scenario", "atomic-task"}}, "violation CommitPersistsNewSerial 18"},
                    {{{"variant", "patched"}, {"scenario", "atomic-task"}, {"restart", "until-committed"}},
                     "violation NoScmFailsCommit 19", {"NoScmFailsCommit"}},
                    {{{"variant", "patched"}, {"scenario", "split-task"}}, "violation NoScmFailsCommit 22", {"NoScmFailsCommit"}},
                    {{{"variant", "patched"}, {"scenario", "atomic-task"}, {"commit-crash", "true"}},
                     "violation NoScmFailsCommit 15", {"NoScmFailsCommit"}});

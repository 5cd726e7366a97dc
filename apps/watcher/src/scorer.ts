// The body the stseval-watcher executable runs in its isolated scorers (tooling/bundle's `worker`): only
// what reading and checking a run needs (@stseval/formats' readers, @stseval/scoring's serve), none
// of the service (config, status endpoint, board pages), so that a scorer compiles and initialises a fraction of the program.
import * as Isolation from "@stseval/scoring/Isolation"

Isolation.serve()

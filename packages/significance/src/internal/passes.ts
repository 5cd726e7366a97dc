// What tests count instead of timing: the centring passes of the cocor inputs that `Dependent`
// makes (one per score array centred). One increment per array, nothing per score.
export const centrings = { count: 0 }

/** The user stopped the sweep (Ctrl-C or SIGTERM); nothing is written. */
export class SweepAborted extends Error {
  override readonly name = 'SweepAborted';
  constructor() {
    super('the sweep was stopped');
  }
}

/**
 * The scenario did not start on a pool thread (an agent module that cannot load, options it refuses):
 * the message is that thread's ScenarioError's text, lines and all. Nothing is written.
 */
export class ScenarioStartError extends Error {
  override readonly name = 'ScenarioStartError';
}
